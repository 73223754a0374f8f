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
  created_at: z.string(),
}).openapi('PublicReview');

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
export type PublicReviewListQuery = z.infer<typeof PublicReviewQuery>;

/** What a public review list answers without a query string. */
export const FIRST_REVIEW_PAGE: PublicReviewListQuery = PublicReviewQuery.parse({});

/** What selects one page of a list among the answers of one version: for its ETag. */
export function listVariant(q: PublicReviewListQuery): string {
  return `${q.page}:${q.limit}:${q.sort}:${q.rating ?? ''}:${q.has_media ? 'media' : ''}:${q.language ?? ''}:${
    q.reader_language ?? ''
  }`;
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
