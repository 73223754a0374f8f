// Public reads of products, by the business's slug and the product's external id: a product's
// summary, its reviews, its JSON-LD, and the figures of many products at once. A product with a
// group shows its group's reviews and figures (docs/products.md). Each read is one statement as
// plaudit_public, with ETag revalidation on the organization's public version.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Sql } from '../../../core/db/client.ts';
import { readOnReplica } from '../../../core/db/routing.ts';
import {
  loadPublicProduct,
  loadPublicProductReviews,
  NEWEST_FOR_JSONLD,
  type PublicProductRow,
} from '../../../core/db/public-product.ts';
import { runAsPublic } from '../../../core/db/roles.ts';
import { attributeSummaries } from '../../../core/attributes.ts';
import { PRODUCT_JSONLD_REVIEWS, productJsonLd, type ReviewForJsonLd } from '../../../core/product-jsonld.ts';
import { ApiError } from '../../http/errors.ts';
import type { AppEnv } from '../../http/env.ts';
import { answerJsonText, type JsonText } from '../../http/json-text.ts';
import { Paginated } from '../../http/pagination.ts';
import { errorResponseSpec, json } from '../../http/schemas.ts';
import { answerPublicRead, conditionalPublicRead, publicRead } from '../../middleware/public-access/index.ts';
import { publicRoute, router } from '../define.ts';
import type { PublicReviewPage } from './lists.ts';
import {
  ATTRIBUTE_FILTER_NOTE,
  AttributeSummaries,
  AverageRating,
  cachingHeaders,
  FIRST_REVIEW_PAGE,
  listVariant,
  notModified,
  notModifiedAnswer,
  productVersion,
  publicDescription,
  PublicReview,
  type PublicReviewListQuery,
  PublicReviewQuery,
  publicVersion,
  RatingDistribution,
  ReviewCount,
  SlugParams,
  UcpRating,
  ucpRating,
  withAttributeFilters,
} from './shared.ts';

const TAGS = ['Public data'];
export const PRODUCT_NOT_FOUND = 'Product not found';
const productNotFound = () => new ApiError(404, PRODUCT_NOT_FOUND);

const ExternalId = z.string().min(1).max(200);
const ProductParams = SlugParams.extend({
  externalId: ExternalId.openapi({
    param: { name: 'externalId', in: 'path' },
    example: 'MUG-1',
    description: "The product's external id (the business's own), URL-encoded",
  }),
});

const PublicProduct = z.object({
  external_id: z.string(),
  name: z.string().openapi({ description: 'Text, never markup.' }),
  url: z.string().nullable(),
  image_url: z.string().nullable(),
  average_rating: AverageRating,
  review_count: ReviewCount,
  rating_distribution: RatingDistribution,
  rating: UcpRating,
  attributes: AttributeSummaries,
  checking_recent_reviews: z.boolean().openapi({
    description:
      'True while the business checks an unusual number of recent reviews (a review bombing hold): show "We are checking an unusual number of recent reviews".',
  }),
}).openapi('PublicProduct');

const ProductRating = z.object({
  external_id: z.string(),
  average_rating: AverageRating,
  review_count: ReviewCount,
  rating: UcpRating,
}).openapi('PublicProductRating');

const Rating = z.object({
  '@type': z.literal('Rating'),
  ratingValue: z.number(),
  bestRating: z.literal(5),
  worstRating: z.literal(1),
});
/** A product's own identifiers in its schema.org Product. */
const ProductIdentifiers = {
  name: z.string(),
  url: z.string().optional(),
  image: z.string().optional(),
  sku: z.string().optional(),
  gtin: z.string().optional(),
  mpn: z.string().optional(),
};
/** One aspect's rating (a form's rating field, by its label). */
const AspectRating = Rating.extend({ reviewAspect: z.string() });
const AggregateRating = Rating.extend({ '@type': z.literal('AggregateRating'), reviewCount: z.number().int() });
/** What a Product or a ProductGroup says of the reviews (and the brand they share). */
const ProductRatings = {
  brand: z.object({ '@type': z.literal('Brand'), name: z.string() }).optional(),
  aggregateRating: z.union([
    AggregateRating,
    z.array(z.union([
      AggregateRating,
      AspectRating.extend({ '@type': z.literal('AggregateRating'), ratingCount: z.number().int() }),
    ])),
  ]).optional().openapi({
    description:
      "The overall rating; with rating fields (aspects), an array: the overall one first, then each aspect's with `reviewAspect` (its label).",
  }),
  review: z.array(z.object({
    '@type': z.literal('Review'),
    author: z.object({ '@type': z.literal('Person'), name: z.string() }),
    datePublished: z.string(),
    name: z.string().optional(),
    reviewBody: z.string(),
    reviewRating: z.union([Rating, z.array(z.union([Rating, AspectRating]))]),
  })).optional(),
};
const ProductJsonLd = z.union([
  z.object({
    '@context': z.literal('https://schema.org'),
    '@type': z.literal('Product'),
    ...ProductIdentifiers,
    ...ProductRatings,
  }),
  z.object({
    '@context': z.literal('https://schema.org'),
    '@type': z.literal('ProductGroup'),
    name: z.string(),
    productGroupID: z.string(),
    image: z.string().optional(),
    ...ProductRatings,
    hasVariant: z.array(z.object({ '@type': z.literal('Product'), ...ProductIdentifiers })),
  }),
]).openapi('ProductJsonLd', {
  description:
    "A schema.org Product, or for a product of a group of several a ProductGroup (the group's rating and reviews, each variant a Product in `hasVariant`); keys without a value are left out.",
});

const RatingsQuery = z.object({
  ids: z.string().max(100 * 201).transform((v) => v.split(','))
    .pipe(z.array(ExternalId).min(1).max(100))
    .openapi({
      description: '1 to 100 external ids, comma-separated, each 1 to 200 characters.',
      example: 'MUG-1,MUG-2',
      type: 'string',
    }),
});

/** A page of a product's public reviews with ETag revalidation, in one statement (the fast path's too). */
function productReviewPage(
  sql: Sql,
  ifNoneMatch: string | undefined,
  slug: string,
  externalId: string,
  q: PublicReviewListQuery,
) {
  // Both statements on one server (a replica that serves, else the primary): the ETag and the page agree.
  return readOnReplica(sql, (db) =>
    publicRead(
      ifNoneMatch,
      `product-reviews:${slug}:${externalId}:${listVariant(q)}`,
      () => productVersion(db, slug, externalId),
      async () => {
        const [row] = await db<{ version: string | null; body: JsonText<PublicReviewPage> | null }[]>`
          select version, body from plaudit.public_read_product_reviews(
            ${slug}, ${externalId}, ${q.page}, ${q.limit}, ${q.sort}, ${q.rating ?? null}, ${q.has_media ?? false},
            ${q.language ?? null}, ${q.reader_language ?? null}, ${q.attributes ? db.json(q.attributes) : null})`;
        return row.body === null || row.version === null ? null : { version: row.version, body: row.body };
      },
    ));
}

/** A product's summary and its newest reviews, for its JSON-LD. */
async function loadForJsonLd(sql: Sql, slug: string, externalId: string) {
  const [product, page] = await Promise.all([
    loadPublicProduct(sql, slug, externalId),
    loadPublicProductReviews<ReviewForJsonLd>(sql, slug, externalId, NEWEST_FOR_JSONLD),
  ]);
  if (!product || !page) return null;
  return { version: product.version, product, reviews: page.data };
}

function summaryOf(p: PublicProductRow): z.infer<typeof PublicProduct> {
  const d = p.rating_distribution;
  const average = p.average_rating === null ? null : Number(p.average_rating);
  return {
    external_id: p.external_id,
    name: p.name,
    url: p.url,
    image_url: p.image_url,
    average_rating: average,
    review_count: Number(p.review_count),
    rating_distribution: {
      1: Number(d['1']),
      2: Number(d['2']),
      3: Number(d['3']),
      4: Number(d['4']),
      5: Number(d['5']),
    },
    rating: ucpRating(average, Number(p.review_count)),
    attributes: attributeSummaries(p.attributes),
    checking_recent_reviews: p.checking_recent_reviews,
  };
}

const groupNote =
  'A product with a `group` answers for its whole group (every product sharing it, archived ones included); archived products are still shown.';

export const productReads = router()
  // Before /{externalId}: `ratings` is this route's.
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/products/{slug}/ratings',
      operationId: 'public.productRatings',
      tags: TAGS,
      summary: "Get many products' ratings at once",
      description:
        `Each known product's \`average_rating\` and \`review_count\`, in the order asked; unknown ids are left out, an id asked twice answers once. ${groupNote} ${publicDescription}`,
      request: { params: SlugParams, query: RatingsQuery },
      responses: {
        200: { ...json(z.object({ data: z.array(ProductRating) }), "The products' figures"), headers: cachingHeaders },
        304: notModified,
        400: errorResponseSpec('`ids` is not 1 to 100 ids of 1 to 200 characters'),
        404: errorResponseSpec('Unknown slug, or the profile is disabled'),
      },
    }),
    async (c) => {
      const { slug } = c.req.valid('param');
      const { ids } = c.req.valid('query');
      const out = await conditionalPublicRead(
        c,
        `product-ratings:${slug}:${ids.join(',')}`,
        () => publicVersion(c.var.sql, slug),
        () =>
          runAsPublic(
            c.var.sql,
            (tx) =>
              tx<{ version: string; body: JsonText<{ data: z.infer<typeof ProductRating>[] }> }[]>`
              select version, body from plaudit.public_product_ratings(${slug}, ${ids}::text[])`,
          ).then(([row]) => row ?? null),
      );
      if ('notModified' in out) return notModifiedAnswer(out.notModified);
      if (!out.data) throw productNotFound();
      return answerJsonText(c, out.data.body, 200);
    },
  )
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/products/{slug}/{externalId}',
      operationId: 'public.product',
      tags: TAGS,
      summary: "Get a product's public summary",
      description: `The product and its public figures. ${groupNote} ${publicDescription}`,
      request: { params: ProductParams },
      responses: {
        200: { ...json(PublicProduct, "The product's summary"), headers: cachingHeaders },
        304: notModified,
        404: errorResponseSpec('Unknown slug or product, or the profile is disabled'),
      },
    }),
    async (c) => {
      const { slug, externalId } = c.req.valid('param');
      const out = await conditionalPublicRead(
        c,
        `product:${slug}:${externalId}`,
        () => productVersion(c.var.sql, slug, externalId),
        () => loadPublicProduct(c.var.sql, slug, externalId),
      );
      if ('notModified' in out) return notModifiedAnswer(out.notModified);
      if (!out.data) throw productNotFound();
      return c.json(summaryOf(out.data), 200);
    },
  )
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/products/{slug}/{externalId}/reviews',
      operationId: 'public.productReviews',
      tags: TAGS,
      summary: "Get a product's public reviews",
      description:
        `The product's public reviews, sorted and filtered as the business's lists.${ATTRIBUTE_FILTER_NOTE} ${groupNote} ${publicDescription}`,
      request: { params: ProductParams, query: PublicReviewQuery },
      responses: {
        200: { ...json(Paginated(PublicReview), 'A page of public reviews'), headers: cachingHeaders },
        304: notModified,
        404: errorResponseSpec('Unknown slug or product, or the profile is disabled'),
      },
    }, {
      oneStatementRead: {
        read: (sql, { slug, externalId }, ifNoneMatch) =>
          productReviewPage(sql, ifNoneMatch, slug, externalId, FIRST_REVIEW_PAGE),
        notFound: PRODUCT_NOT_FOUND,
      },
    }),
    async (c) => {
      const { slug, externalId } = c.req.valid('param');
      const q = withAttributeFilters(c.req.valid('query'), c.req.query());
      const read = await productReviewPage(c.var.sql, c.req.header('if-none-match'), slug, externalId, q);
      const out = answerPublicRead(c, read);
      if ('notModified' in out) return notModifiedAnswer(out.notModified);
      if (!out.data) throw productNotFound();
      return answerJsonText(c, out.data.body, 200);
    },
  )
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/products/{slug}/{externalId}/jsonld',
      operationId: 'public.productJsonLd',
      tags: TAGS,
      summary: "Get a product's JSON-LD",
      description:
        `A schema.org \`Product\` (\`application/ld+json\`) to put in a product page: \`name\`, \`url\`, \`image\`, \`sku\`, \`gtin\`, \`mpn\`, \`brand\`, an \`aggregateRating\` equal to the summary's (left out without reviews) and up to ${PRODUCT_JSONLD_REVIEWS} newest \`review\`s; keys without a value are left out. A product of a group of several is a \`ProductGroup\`, as Google documents product variants: its \`name\`, \`productGroupID\` (the group), \`image\`, \`brand\`, the group's \`aggregateRating\` and \`review\`s, and \`hasVariant\`, each product of the group a \`Product\` with its own \`name\`, \`url\`, \`image\`, \`sku\`, \`gtin\` and \`mpn\`. ${groupNote} ${publicDescription}`,
      request: { params: ProductParams },
      responses: {
        200: {
          description: 'The JSON-LD',
          content: { 'application/ld+json': { schema: ProductJsonLd } },
          headers: cachingHeaders,
        },
        304: notModified,
        404: errorResponseSpec('Unknown slug or product, or the profile is disabled'),
      },
    }),
    async (c: Context<AppEnv>) => {
      const { slug, externalId } = c.req.param() as { slug: string; externalId: string };
      const out = await conditionalPublicRead(
        c,
        `product-jsonld:${slug}:${externalId}`,
        () => productVersion(c.var.sql, slug, externalId),
        () => loadForJsonLd(c.var.sql, slug, externalId),
      );
      if ('notModified' in out) return notModifiedAnswer(out.notModified);
      if (!out.data) throw productNotFound();
      c.header('Content-Type', 'application/ld+json; charset=UTF-8');
      return c.body(JSON.stringify(productJsonLd(out.data.product, out.data.reviews)), 200) as never;
    },
  );
