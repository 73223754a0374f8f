// The widget's first view as HTML a shop's server includes (core/widget/fragment.ts draws it): the
// business's and a product's. Read like every public answer (ETag revalidation on the public
// version, the cache keys of the organization and the product), in the widget's words for `language`.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../http/env.ts';
import { ApiError } from '../../http/errors.ts';
import { fieldErrorsOfIssues, messageOf } from '../../http/validation.ts';
import { errorResponseSpec } from '../../http/schemas.ts';
import { conditionalPublicRead } from '../../middleware/public-access/index.ts';
import { publicRoute, router } from '../define.ts';
import { type PublicProfileRow, publicProfileVersion } from '../../../core/db/public-profile.ts';
import { readOnReplica } from '../../../core/db/routing.ts';
import { loadPublicProduct, loadPublicProductReviews, NEWEST_FOR_JSONLD } from '../../../core/db/public-product.ts';
import { productJsonLd, type ReviewForJsonLd } from '../../../core/product-jsonld.ts';
import { attributeSummaries } from '../../../core/attributes.ts';
import {
  businessFragment,
  type BusinessView,
  type FragmentReview,
  productFragment,
  type ProductView,
} from '../../../core/widget/fragment.ts';
import { Layout } from './embed.ts';
import { PRODUCT_NOT_FOUND } from './products.ts';
import {
  cachingHeaders,
  notFound,
  notModified,
  notModifiedAnswer,
  productVersion,
  publicDescription,
  REVIEW_SORTS,
} from './shared.ts';

const TAGS = ['Public data'];
/** The product widget's page of reviews: a product fragment's, unless `limit` says otherwise. */
const PRODUCT_PAGE = 10;
const MAX_LIMIT = 20;

const FragmentQuery = z.object({
  layout: Layout.optional().openapi({
    description:
      "The business's reviews as a `list`, `grid` or `carousel`; the saved one without it. A product's are a list.",
  }),
  theme: z.enum(['light', 'dark', 'auto']).optional().openapi({
    description: "`light`, `dark` or `auto` (the reader's preference); the saved one (a product's: light) without it.",
  }),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).optional().openapi({
    description:
      `How many reviews, 1 to ${MAX_LIMIT}: without it the widget's own (the business's \`max_reviews\`, at most ${MAX_LIMIT}; a product's ${PRODUCT_PAGE}).`,
  }),
  sort: z.enum(REVIEW_SORTS).default('newest').openapi({ description: 'The order of the reviews, as in the lists.' }),
  language: z.string().max(35).regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/).default('en').openapi({
    description:
      "The reader's language (a BCP 47 tag such as `de-DE`): the widget's words and dates; English where it has none.",
  }),
});
type FragmentOptions = z.infer<typeof FragmentQuery>;

const Slug = z.string().min(1).max(200);
const ExternalId = z.string().min(1).max(200);

/**
 * A path parameter, checked as the other public routes check it; the last one (`last`), which the
 * router names with the path's `.html`, without that suffix.
 */
function pathValue(c: Context<AppEnv>, name: string, schema: z.ZodString, last: boolean): string {
  let value = c.req.param(last ? `${name}.html` : name) ?? '';
  if (last) {
    if (!value.endsWith('.html')) throw new ApiError(404, 'Not found');
    value = value.slice(0, -'.html'.length);
  }
  const out = schema.safeParse(value);
  if (!out.success) {
    const errors = fieldErrorsOfIssues(out.error.issues.map((i) => ({ ...i, path: [name] })), 'param');
    throw new ApiError(400, messageOf(errors), errors);
  }
  return out.data;
}

const html = {
  description: 'The fragment: `text/html; charset=utf-8`',
  content: { 'text/html': { schema: { type: 'string' as const } } },
  headers: cachingHeaders,
};

const pathParameter = (name: string, description: string) => ({
  name,
  in: 'path' as const,
  required: true,
  description,
  schema: { type: 'string' as const, minLength: 1, maxLength: 200 },
});
const slugParameter = pathParameter('slug', "The business's public slug");

const fragmentNote =
  "A self-contained fragment of HTML (no `<html>` or `<body>`, no script but the JSON-LD): the widget's first view as it draws it (the summary with its stars, the first reviews), with the widget's styles scoped to its root class `plaudit-fragment`. A page that includes it, with the widget's script, gets the widget over it without a second read. Review text is escaped.";

function answerHtml(c: Context<AppEnv>, body: string) {
  c.header('Content-Type', 'text/html; charset=utf-8');
  return c.body(body, 200) as never;
}

/** The variant of an answer, for its ETag: everything in the query decides the HTML. */
const variantOf = (kind: string, q: FragmentOptions) =>
  `fragment-${kind}:${q.layout ?? ''}:${q.theme ?? ''}:${q.limit ?? ''}:${q.sort}:${q.language}`;

type BusinessRead = { version: string; profile: PublicProfileRow; limit: number; reviews: FragmentReview[] };

async function businessAnswer(c: Context<AppEnv>, slug: string, q: FragmentOptions) {
  const out = await conditionalPublicRead<BusinessRead>(
    c,
    `${variantOf('business', q)}:${slug}`,
    () => publicProfileVersion(c.var.sql, slug),
    async () => {
      // The profile and the widget's first reviews (rated at least the embed's minimum, in the
      // order asked) in one statement (plaudit.public_read_fragment), as plaudit_public.
      const [row] = await readOnReplica(
        c.var.sql,
        (db) =>
          db<{ version: string | null; profile: PublicProfileRow | null; items: FragmentReview[] | null }[]>`
          select version, profile, items from plaudit.public_read_fragment(${slug}, ${
            q.limit ?? null
          }::integer, ${q.sort})`,
      );
      if (row.version === null) return null;
      if (!row.profile) return { version: row.version, absent: true as const };
      const limit = q.limit ?? Math.min(row.profile.embed.max_reviews, MAX_LIMIT);
      return { version: row.version, profile: row.profile, limit, reviews: row.items ?? [] };
    },
  );
  if ('notModified' in out) return notModifiedAnswer(out.notModified);
  if (!out.data) throw notFound();
  const { profile: p, limit, reviews } = out.data;
  const base = c.var.config.publicUrl;
  const view: BusinessView = {
    name: p.name,
    url: `${base}/p/${encodeURIComponent(p.slug)}`,
    layout: q.layout ?? p.embed.layout,
    theme: q.theme ?? p.embed.theme,
    max_reviews: limit,
    min_rating: p.embed.min_rating,
    average_rating: p.average_rating === null ? null : Number(p.average_rating),
    review_count: Number(p.review_count),
    reviews,
    checking_recent_reviews: p.checking_recent_reviews,
  };
  return answerHtml(c, businessFragment(view, { base, slug: p.slug, locale: q.language }));
}

async function productAnswer(c: Context<AppEnv>, slug: string, externalId: string, q: FragmentOptions) {
  const limit = q.limit ?? PRODUCT_PAGE;
  const out = await conditionalPublicRead(
    c,
    `${variantOf('product', q)}:${slug}:${externalId}`,
    () => productVersion(c.var.sql, slug, externalId),
    async () => {
      const [product, page, newest] = await Promise.all([
        loadPublicProduct(c.var.sql, slug, externalId),
        loadPublicProductReviews<FragmentReview>(c.var.sql, slug, externalId, {
          page: 1,
          limit,
          sort: q.sort,
          rating: null,
        }),
        loadPublicProductReviews<ReviewForJsonLd>(c.var.sql, slug, externalId, NEWEST_FOR_JSONLD),
      ]);
      if (!product || !page || !newest) return null;
      return { version: product.version, product, page, newest: newest.data };
    },
  );
  if ('notModified' in out) return notModifiedAnswer(out.notModified);
  if (!out.data) throw new ApiError(404, PRODUCT_NOT_FOUND);
  const { product: p, page, newest } = out.data;
  const d = p.rating_distribution;
  const view: ProductView = {
    product: {
      external_id: p.external_id,
      name: p.name,
      average_rating: p.average_rating === null ? null : Number(p.average_rating),
      review_count: Number(p.review_count),
      rating_distribution: {
        1: Number(d['1']),
        2: Number(d['2']),
        3: Number(d['3']),
        4: Number(d['4']),
        5: Number(d['5']),
      },
      attributes: attributeSummaries(p.attributes),
      checking_recent_reviews: p.checking_recent_reviews,
    },
    first: { data: page.data, meta: { page: 1, totalPages: Math.ceil(page.meta.total / limit) } },
    sort: q.sort,
    limit,
    theme: q.theme ?? 'light',
  };
  const place = { base: c.var.config.publicUrl, slug, locale: q.language };
  return answerHtml(c, productFragment(view, place, productJsonLd(p, newest)));
}

export const fragmentReads = router()
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/fragments/{slug}/products/{externalId}.html',
      operationId: 'public.productFragment',
      tags: TAGS,
      summary: "Get a product's reviews as an HTML fragment",
      description:
        `${fragmentNote} The product widget's view: the summary over the product's group, the distribution, the sort, the first reviews; and the product's JSON-LD (as the \`jsonld\` route answers it). ${publicDescription}`,
      parameters: [slugParameter, pathParameter('externalId', "The product's external id, URL-encoded")],
      request: { query: FragmentQuery },
      responses: {
        200: html,
        304: notModified,
        400: errorResponseSpec('A query parameter out of its range'),
        404: errorResponseSpec('Unknown slug or product, or the profile is disabled'),
      },
    }),
    (c) =>
      productAnswer(
        c,
        pathValue(c, 'slug', Slug, false),
        pathValue(c, 'externalId', ExternalId, true),
        c.req.valid('query'),
      ),
  )
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/fragments/{slug}.html',
      operationId: 'public.fragment',
      tags: TAGS,
      summary: "Get the business's reviews as an HTML fragment",
      description:
        `${fragmentNote} The business widget's view: the name, the rating, the first reviews (rated at least the embed's \`min_rating\`) and the links to all of them. ${publicDescription}`,
      parameters: [slugParameter],
      request: { query: FragmentQuery },
      responses: {
        200: html,
        304: notModified,
        400: errorResponseSpec('A query parameter out of its range'),
        404: errorResponseSpec('Unknown slug, or the profile is disabled'),
      },
    }),
    (c) => businessAnswer(c, pathValue(c, 'slug', Slug, true), c.req.valid('query')),
  );
