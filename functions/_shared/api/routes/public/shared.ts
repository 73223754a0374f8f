// What the public routes share: the public review item and the figures' shapes, the slug, the
// lists' sort and filters, the caching headers they declare, and the reads of the public version.
import { z } from '@hono/zod-openapi';
import type { TypedResponse } from 'hono';
import type { Sql } from '../../../core/db/client.ts';
import { ApiError } from '../../http/errors.ts';
import { type Pagination, PaginationQuery } from '../../http/pagination.ts';
import {
  LanguageCode,
  ReviewLanguage,
  ReviewMedia,
  ReviewReply,
  ReviewSource,
  SourcePlatform,
  VerificationStatus,
} from '../reviews/shape.ts';

export const AverageRating = z.number().nullable().openapi({
  description: 'Mean rating of the public reviews, to 2 decimals; null with no reviews.',
  example: 4.63,
});
export const ReviewCount = z.number().int().openapi({
  description: 'Number of public reviews (not hidden, verified or unverified).',
});
export const RatingDistribution = z.object({
  1: z.number().int(),
  2: z.number().int(),
  3: z.number().int(),
  4: z.number().int(),
  5: z.number().int(),
}).openapi({ description: 'Number of public reviews per rating.' });

/**
 * The Universal Commerce Protocol's Rating (what agents read): `value` is `average_rating`, `count`
 * is `review_count`; null without reviews.
 */
export const UcpRating = z.object({
  value: z.number().openapi({ example: 4.63 }),
  scale_min: z.literal(1),
  scale_max: z.literal(5),
  count: z.number().int(),
}).nullable().openapi('UcpRating', {
  description:
    "The rating in the Universal Commerce Protocol's shape: `value` = `average_rating`, `count` = `review_count`; null without reviews.",
});

/** The UCP rating of public figures. */
export function ucpRating(average: number | null, count: number): z.infer<typeof UcpRating> {
  return average === null || count === 0 ? null : { value: average, scale_min: 1, scale_max: 5, count };
}

/** A public review item, as plaudit.public_review_json writes it, key for key. */
export const PublicReview = z.object({
  id: z.string().uuid(),
  rating: z.number().int(),
  title: z.string().nullable(),
  content: z.string(),
  reviewer_name: z.string(),
  verification_status: VerificationStatus.openapi({
    description: '`verified` or `unverified`: nothing else is public.',
  }),
  verification_method: z.enum(['email', 'purchase_proof', 'manual', 'invitation']).nullable().openapi({
    description: 'How a verified review was verified; null for an unverified one.',
  }),
  source: ReviewSource,
  source_platform: SourcePlatform,
  incentivized: z.boolean().openapi({
    description: 'Whether the reviewer was offered something for the review (a discount, a gift …).',
  }),
  product: z.object({ external_id: z.string(), name: z.string() }).nullable().openapi({
    description:
      "The product reviewed (the business's own id and the product's name), or null for a review of the business.",
  }),
  media: z.array(ReviewMedia.omit({ is_hidden: true }).openapi('PublicReviewMedia')).openapi({
    description: 'The photos and videos the public may see, in upload order.',
  }),
  reply: ReviewReply.nullable().openapi({ description: "The business's public reply, or null." }),
  helpful_count: z.number().int().openapi({
    description: 'How many visitors found the review helpful (`POST /public/reviews/{slug}/{reviewId}/helpful`).',
  }),
  language: ReviewLanguage,
  attributes: z.record(z.string(), z.union([z.string(), z.number().int()])).openapi({
    description:
      "The answers to the form's `scale` fields (a label) and `rating` fields (1–5 stars), by field key; the other custom fields stay private.",
    example: { fit: 'True to size', quality: 4 },
  }),
  created_at: z.string(),
}).openapi('PublicReview');

/** The public summary of one scale or rating field's answers (plaudit.attribute_summary). */
export const AttributeSummary = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(['scale', 'rating']),
  count: z.number().int().openapi({ description: 'How many public reviews answered it.' }),
  average: z.number().optional().openapi({ description: "A rating field's mean stars, to 2 decimals." }),
  distribution: z.record(z.string(), z.number().int()).openapi({
    description: 'Public reviews per answer: every label of a scale in its order, or stars 1 to 5, zeros included.',
    example: { 'Runs small': 3, 'True to size': 12, 'Runs large': 1 },
  }),
}).openapi('AttributeSummary');
export const AttributeSummaries = z.array(AttributeSummary).openapi({
  description:
    "The answers to the forms' scale and rating fields, each field answered at least once, as the newest form that has it defines it.",
});

export const SlugParams = z.object({
  slug: z.string().min(1).max(200).openapi({
    param: { name: 'slug', in: 'path' },
    example: 'acme',
    description: "The business's public slug",
  }),
});

/** The orders of a public review list. */
export const REVIEW_SORTS = ['newest', 'oldest', 'highest', 'lowest', 'helpful'] as const;

/** A public review list's page, order and filters; anything else answers 400. */
export const PublicReviewQuery = PaginationQuery.extend({
  sort: z.enum(REVIEW_SORTS).default('newest').openapi({
    description:
      '`newest` (the default), `oldest`, `highest` and `lowest` (rating, then newest first), `helpful` (most `helpful_count` first, then newest first).',
  }),
  rating: z.enum(['1', '2', '3', '4', '5']).transform(Number).optional().openapi({
    description: 'Only reviews of this rating, 1 to 5.',
  }),
  has_media: z.enum(['true']).transform(() => true).optional().openapi({
    description: '`true`: only reviews with photos or videos the public may see.',
  }),
  language: LanguageCode.optional().openapi({
    description: 'Only reviews written in this language (ISO 639-1, such as `de`).',
  }),
  reader_language: LanguageCode.optional().openapi({
    description:
      "The reader's language (ISO 639-1): reviews written in it come first, each part in the order asked. The widget sends its `data-language` or the browser's language.",
  }),
});
/**
 * A list's query with its answer filters: `attribute.<key>=<label or stars>` (at most 5), which a
 * zod object cannot declare (its keys are the forms'), read from the query string as sent.
 */
export type PublicReviewListQuery = z.infer<typeof PublicReviewQuery> & { attributes?: Record<string, string> };

export const ATTRIBUTE_FILTER_NOTE =
  ' Filter by an answer to a `scale` or `rating` field with `attribute.<key>=<label or stars>` (such as `attribute.fit=True%20to%20size`, `attribute.quality=5`; up to 5, all must match).';

/** A list's validated query with the answer filters of its query string as sent. */
export function withAttributeFilters(
  q: z.infer<typeof PublicReviewQuery>,
  query: Record<string, string>,
): PublicReviewListQuery {
  const attributes = attributeFilters(query);
  return attributes ? { ...q, attributes } : q;
}

/** The answer filters of a query string (`attribute.<key>=<answer>`), or a 400 naming the bad one. */
export function attributeFilters(query: Record<string, string>): Record<string, string> | undefined {
  const filters: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    const key = /^attribute\.(.*)$/s.exec(name)?.[1];
    if (key === undefined) continue;
    if (!/^[a-z][a-z0-9_]{0,49}$/.test(key)) {
      throw new ApiError(400, `${name}: must name a field key of a-z, 0-9 and _, starting with a letter`);
    }
    if (value.length < 1 || value.length > 100) throw new ApiError(400, `${name}: must be 1 to 100 characters`);
    filters[key] = value;
  }
  if (Object.keys(filters).length > 5) throw new ApiError(400, 'attribute: at most 5 answers can be filtered by');
  return Object.keys(filters).length ? filters : undefined;
}

/** What a public review list answers without a query string. */
export const FIRST_REVIEW_PAGE: PublicReviewListQuery = PublicReviewQuery.parse({});

/** What selects one page of a list among the answers of one version: for its ETag. */
export function listVariant(q: PublicReviewListQuery): string {
  return `${q.page}:${q.limit}:${q.sort}:${q.rating ?? ''}:${q.has_media ? 'media' : ''}:${q.language ?? ''}:${
    q.reader_language ?? ''
  }${q.attributes ? `:${JSON.stringify(Object.entries(q.attributes).sort())}` : ''}`;
}
export type { Pagination };

/** The 404 of the public routes. */
export const BUSINESS_NOT_FOUND = 'Business not found';
export const notFound = () => new ApiError(404, BUSINESS_NOT_FOUND);

export const cachingHeaders = {
  ETag: { description: 'Changes when anything in the answer may have changed', schema: { type: 'string' as const } },
  'Cache-Control': {
    description: '`public, max-age=30, stale-while-revalidate=300`',
    schema: { type: 'string' as const },
  },
};
export const notModified = {
  description: 'Not modified: the `If-None-Match` ETag is current',
  headers: cachingHeaders,
};
export const publicDescription =
  'Public: no API key; any site may call it (CORS `*`). Answers carry `ETag` and `Cache-Control`; a request with a current `If-None-Match` gets 304 without any review being read.';

/** The version of the public data, as plaudit_public reads it, in one statement. */
export async function publicVersion(sql: Sql, slug: string) {
  const [row] = await sql<{ v: string | null }[]>`select plaudit.public_read_version(${slug}) as v`;
  return row.v;
}

/** The version of the answers that show one product (the public data's, naming the product), in one statement. */
export async function productVersion(sql: Sql, slug: string, externalId: string) {
  const [row] = await sql<
    { v: string | null }[]
  >`select plaudit.public_read_product_version(${slug}, ${externalId}) as v`;
  return row.v;
}

/** The 304 of a public read, typed as the routes declare it (no content). */
// deno-lint-ignore ban-types -- Hono's type of an answer without content
export const notModifiedAnswer = (answer: Response) => answer as unknown as TypedResponse<{}, 304, string>;
