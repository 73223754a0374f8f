// A review sent by a reviewer: public, no credential, limited per client IP.
import { z } from '@hono/zod-openapi';
import { apiErrorFromDb, refusalInRow } from '../../http/db-errors.ts';
import { answerJsonText, jsonText } from '../../http/json-text.ts';
import { errorResponseSpec, json, jsonBody } from '../../http/schemas.ts';
import { setRateLimitHeaders, submissionContext, tooManyRequests } from '../../middleware/rate-limit/index.ts';
import { submitReview } from '../../../core/db/review-submission.ts';
import { publicRoute, router } from '../define.ts';
import { Review } from './shape.ts';
import { MediaUpload, uploadGrant } from '../media/upload-token.ts';
import { newUploadToken } from '../../api-keys/upload-token.ts';
import { UPLOAD_TOKEN_HOURS } from '../../../core/media/limits.ts';

/** The stored review with the reviewer's right to add photos and videos to it. */
const SubmittedReview = Review.extend({ media_upload: MediaUpload }).openapi('SubmittedReview');
type SubmittedReviewBody = z.infer<typeof SubmittedReview>;

const ReviewSubmission = z.object({
  form_id: z.string().uuid(),
  rating: z.number().int().min(1).max(5),
  title: z.string().trim().max(200).nullable().optional(),
  content: z.string().trim().min(1).max(5000),
  reviewer_name: z.string().trim().min(1).max(200),
  reviewer_email: z.string().trim().max(320).email(),
  custom_fields: z.record(z.string(), z.unknown()).optional()
    .openapi({
      additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
      description:
        "Answers to the form's custom fields, keyed by field key. Keys the form does not define are ignored.",
    }),
  order_id: z.string().trim().min(1).max(200).optional()
    .openapi({ description: "For purchase-proof forms: the order id, checked against the organization's orders." }),
  website_url: z.string().max(2048).optional().openapi({
    description: 'Leave out or empty. A trap for bots: a submission that fills it is answered as usual but not stored.',
  }),
  product_external_id: z.string().trim().min(1).max(200).optional().openapi({
    description:
      "A review of this product of the form's organization, by your own id of it; leave out for a review of the business. An unknown or archived product is refused (422).",
  }),
  product_id: z.string().uuid().optional().openapi({
    description: "The same as `product_external_id`, by the product's `id`; give one of the two, not both.",
  }),
}).refine((s) => s.product_id === undefined || s.product_external_id === undefined, {
  path: ['product_id'],
  message: 'give product_id or product_external_id, not both',
}).openapi('ReviewSubmission', {
  example: {
    form_id: '6f1c2a9e-3b7d-4c5e-9a8b-1d2e3f4a5b6c',
    rating: 5,
    title: 'Lovely mug',
    content: 'Arrived quickly and keeps the coffee warm.',
    reviewer_name: 'Ada L.',
    reviewer_email: 'ada@example.net',
    custom_fields: { product: 'Mug' },
  },
});

export const reviewSubmission = router()
  .openapi(
    publicRoute({
      method: 'post',
      path: '/reviews',
      operationId: 'reviews.submit',
      tags: ['Reviews'],
      summary: 'Submit a new review',
      description:
        `Public: no API key. Validated against the form (custom fields, lengths, e-mail, rating 1–5). The status follows the form's verification mode: \`none\` → \`unverified\`; \`email\` → \`pending\` and a verification link is e-mailed; \`purchase_proof\` → \`verified\` when \`order_id\` matches an order (and its e-mail, when it has one), else \`pending\`; \`manual\` → \`pending\`. A review of a product names it by \`product_external_id\` or \`product_id\`. Limited per client IP (\`SUBMIT_RATE_LIMIT_PER_MINUTE\`). The same e-mail, form and text within 24 hours is stored once (409). The answer's \`media_upload\` holds the token that adds photos and videos to this review for ${UPLOAD_TOKEN_HOURS} hours (\`POST /reviews/{id}/media\`). Fields such as \`is_hidden\` or \`verification_status\` are ignored.`,
      request: { body: jsonBody(ReviewSubmission) },
      responses: {
        201: json(SubmittedReview, 'The stored review, and the token to add photos and videos to it'),
        400: errorResponseSpec('Malformed JSON'),
        404: errorResponseSpec('Unknown, inactive or deleted form'),
        409: errorResponseSpec('The same review was already submitted within 24 hours'),
        422: errorResponseSpec('A field failed validation; the message names it'),
        429: errorResponseSpec('Too many submissions from this address'),
      },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const context = submissionContext(c);
      const upload = newUploadToken();
      const row = await submitReview(
        c.var.sql,
        {
          form_id: input.form_id,
          rating: input.rating,
          title: input.title || null,
          content: input.content,
          reviewer_name: input.reviewer_name,
          reviewer_email: input.reviewer_email,
          custom_fields: input.custom_fields ?? null,
          order_id: input.order_id ?? null,
          honeypot: Boolean(input.website_url?.trim()),
          product_id: input.product_id ?? null,
          product_external_id: input.product_external_id ?? null,
        },
        context,
        upload.hash,
      );
      const decision = {
        limit: context.rateLimit,
        remaining: row.rate_remaining,
        reset: Number(row.rate_reset),
        allowed: row.rate_allowed,
      };
      setRateLimitHeaders(c, decision);
      // The shared 429 answer (with Retry-After) is untyped for this route's response map.
      if (!decision.allowed) return tooManyRequests(c, decision);
      const refused = refusalInRow(row);
      if (refused) {
        throw apiErrorFromDb(refused) ?? new Error(`submit_review answered ${row.error_code}: ${row.error_message}`);
      }
      const grant = uploadGrant(upload.token, row.media_expires_at);
      return answerJsonText(
        c,
        jsonText<SubmittedReviewBody>(`${row.review!.slice(0, -1)},"media_upload":${grant}}`),
        201,
      );
    },
  );
