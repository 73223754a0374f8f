// The organization's Review: its schema, and the one way to read one (plaudit.review_json writes it).
import { IMPORT_FORMATS } from '../../../core/imports/formats.ts';
import { THUMBNAIL_LONGEST_SIDE } from '../../../core/media/limits.ts';
import { z } from '@hono/zod-openapi';
import type { Tx } from '../../../core/db/client.ts';
import { ApiError } from '../../http/errors.ts';
import { type JsonText, jsonText } from '../../http/json-text.ts';
import { Timestamp } from '../../http/schemas.ts';

export const VerificationStatus = z.enum(['unverified', 'pending', 'verified', 'rejected']).openapi({
  description:
    '`unverified`: the form does not verify; `pending`: waiting for the e-mail link, a matching order or manual approval; `verified`; `rejected`.',
});

export const VerificationMethod = z.enum(['email', 'purchase_proof', 'manual', 'invitation']);

export const ReviewSource = z.enum(['form', 'invitation', 'import']).openapi({
  description:
    "Where the review came from: `form`, sent through the API or a hosted form; `invitation`, written on a review request's page; `import`, imported from another platform (`source_platform` names it).",
});

export const SourcePlatform = z.enum(IMPORT_FORMATS).nullable().openapi({
  description:
    'For an imported review, the platform it came from (its import format: Judge.me, Yotpo, Okendo, Loox, Shopify Product Reviews or Plaudit); `null` otherwise.',
});

export const INCENTIVE_TYPES = ['discount', 'gift', 'points', 'free_product', 'sweepstake', 'other'] as const;

/** What a business offers for a review: on a form or a review request, and kept by each review they collect. */
export const Incentive = z.object({
  type: z.enum(INCENTIVE_TYPES),
  description: z.string().trim().min(1).max(500).openapi({
    description: 'What the reviewer receives, in words the public may read (1 to 500 characters).',
    example: '10% off your next order',
  }),
}).strict().openapi('Incentive', {
  description:
    'An incentive offered for a review. Reviews collected with one are labelled as incentivized wherever they are shown.',
});

export const ReviewReply = z.object({
  content: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
}).openapi('ReviewReply');

export const ReviewProduct = z.object({
  id: z.string().uuid(),
  external_id: z.string().openapi({ description: 'Your own id of the product.' }),
  name: z.string(),
}).openapi('ReviewProduct');

export const ReviewMedia = z.object({
  id: z.string().uuid(),
  type: z.enum(['image', 'video']),
  url: z.string().openapi({
    description: 'Where the file is served: an image re-encoded as JPEG without metadata, a video as sent.',
  }),
  thumbnail_url: z.string().nullable().openapi({
    description: `An image's thumbnail (≤ ${THUMBNAIL_LONGEST_SIDE} px); null for a video.`,
  }),
  width: z.number().int().nullable().openapi({ description: "The stored image's width in pixels; null for a video." }),
  height: z.number().int().nullable().openapi({
    description: "The stored image's height in pixels; null for a video.",
  }),
  is_hidden: z.boolean().openapi({
    description: 'Hidden items are not public: their `url` answers 404 to the public.',
  }),
  created_at: Timestamp,
}).openapi('ReviewMedia');

/** A language as a list's query names it: ISO 639-1, any case (`DE` is `de`). */
export const LanguageCode = z.string().regex(/^[A-Za-z]{2}$/, 'must be an ISO 639-1 language code such as de')
  .transform((s) => s.toLowerCase());

/** The language a review is written in, as every route answers it. */
export const ReviewLanguage = z.string().regex(/^[a-z]{2}$/).nullable().openapi({
  description:
    'The language the review is written in (ISO 639-1, such as `en` or `de`), told from its title and text when it was submitted or imported; `null` when the text is too short to tell.',
  example: 'en',
});

export const Review = z.object({
  id: z.string().uuid(),
  rating: z.number().int().min(1).max(5),
  title: z.string().nullable(),
  content: z.string(),
  reviewer_name: z.string().openapi({ description: "The reviewer's name; `Anonymous` once their address was erased." }),
  reviewer_email: z.string().nullable().openapi({
    description: "The reviewer's address; `null` once it was erased at their request (`POST …/privacy/erasures`).",
  }),
  verification_status: VerificationStatus,
  verification_method: VerificationMethod.nullable().openapi({
    description:
      "How the status was decided, once `verified` or `rejected` (null before): `email`, the reviewer's e-mail link; `purchase_proof`, an order number matched a loaded order; `manual`, a member or a key approved or rejected it; `invitation`, written from a review request's link.",
  }),
  verification_at: Timestamp.nullable().openapi({ description: 'When the status was decided; null before.' }),
  source: ReviewSource,
  source_platform: SourcePlatform,
  imported_as_verified: z.boolean().nullable().openapi({
    description:
      "For an imported review, whether the platform it came from called it verified: kept as that platform said, never as Plaudit's verification (an imported review is `unverified`); `null` otherwise.",
  }),
  incentive: Incentive.nullable().openapi({
    description:
      "What was offered for this review when it was written (its review request's, else its form's), or `null`. Later changes to the form do not change it.",
  }),
  is_hidden: z.boolean(),
  created_at: Timestamp,
  form_id: z.string().uuid(),
  order_id: z.string().nullable().openapi({
    description:
      "The order the review was written for, when it came through an order's review request (a shop connection's, or one given `order_id`): `GET …/orders/{orderId}` shows its timeline; `null` otherwise.",
  }),
  product: ReviewProduct.nullable().openapi({
    description: 'The product reviewed, from your catalog; `null` for a review of the business.',
  }),
  language: ReviewLanguage,
  custom_fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).openapi({
    description:
      "The reviewer's answers to the form's custom fields, keyed by field key (text, number or boolean by the field's type); `{}` when there are none. Returned to the organization only: public routes, the widget and the profile pages never show them.",
    example: { product: 'Mug', would_recommend: true },
  }),
  media: z.array(ReviewMedia).openapi({ description: "The review's photos and videos, in upload order." }),
  reply: ReviewReply.nullable().openapi({ description: "The business's public reply, or null." }),
}).openapi('Review');

export type ReviewBody = z.infer<typeof Review>;

export const REVIEW_NOT_FOUND = 'Review not found';

/**
 * The review of the tenant's transaction as the organization's Review, written by PostgreSQL
 * (plaudit.review_json, the one writer of that shape), or 404.
 */
export async function loadReview(db: Tx, id: string): Promise<JsonText<ReviewBody>> {
  const [row] = await db<{ body: string }[]>`
    select plaudit.review_json(r, (select rr from plaudit.review_replies rr where rr.review_id = r.id)) as body
      from plaudit.reviews r where r.id = ${id}`;
  if (!row) throw new ApiError(404, REVIEW_NOT_FOUND);
  return jsonText(row.body);
}
