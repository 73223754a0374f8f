// A reviewer's rights over their address: erasure and access (docs/trust.md). Admin keys and
// admins only; each acts on the caller's organization alone (plaudit.erase_reviewer,
// plaudit.reviewer_data read the transaction's tenant).
import { z } from '@hono/zod-openapi';
import { REPORT_DECISIONS, REPORT_KINDS, REPORT_REASONS } from '../../core/db/shopper-signals.ts';
import { mediaStorage } from '../../core/media/storage.ts';
import { translateDbErrors } from '../http/db-errors.ts';
import { errorResponseSpec, json, jsonBody, OrgParams, Timestamp } from '../http/schemas.ts';
import { orgRoute, router } from './define.ts';
import { Review } from './reviews/shape.ts';

const TAGS = ['Privacy'];
const Email = z.string().trim().min(3).max(320).email();

const ErasureInput = z.object({
  email: Email.openapi({ description: "The reviewer's address, in any case." }),
  redact_content: z.boolean().default(false).openapi({
    description: "Also replace each review's title and text with `[removed at the reviewer's request]`.",
  }),
}).openapi('ErasureInput', { example: { email: 'ada@example.com', redact_content: false } });

const Erasure = z.object({
  reviews: z.number().int().openapi({ description: 'Reviews anonymized by this call.' }),
  review_requests: z.number().int().openapi({ description: 'Review requests to the address deleted by this call.' }),
  questions: z.number().int().openapi({
    description:
      'Questions the address asked that lost it and the name (and with `redact_content` their text) by this call.',
  }),
  media: z.number().int().openapi({ description: 'Photos and videos of those reviews deleted by this call.' }),
}).openapi('Erasure', { example: { reviews: 2, review_requests: 1, questions: 0, media: 0 } });

const DataQuery = z.object({ email: Email.openapi({ description: 'The address, in any case.' }) });

const ReviewerData = z.object({
  email: z.string(),
  generated_at: Timestamp,
  reviews: z.array(Review).openapi({ description: 'Their reviews, as the API answers them, oldest first.' }),
  review_requests: z.array(z.object({
    id: z.string().uuid(),
    email: z.string(),
    name: z.string(),
    form_id: z.string().uuid(),
    order_id: z.string().nullable(),
    external_id: z.string().nullable(),
    locale: z.string(),
    status: z.string(),
    review_id: z.string().uuid().nullable(),
    created_at: Timestamp,
    sent_at: Timestamp.nullable(),
    opened_at: Timestamp.nullable(),
    clicked_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
  })),
  orders: z.array(z.object({
    order_id: z.string(),
    email: z.string().nullable(),
    purchased_at: Timestamp.nullable(),
    items: z.array(z.object({ product_external_id: z.string(), quantity: z.number().int() })),
    created_at: Timestamp,
  })),
  reports: z.array(z.object({
    id: z.string().uuid(),
    review_id: z.string().uuid(),
    kind: z.enum(REPORT_KINDS),
    reason: z.enum(REPORT_REASONS),
    legal_ground: z.string().nullable(),
    details: z.string().nullable(),
    status: z.enum(['open', 'resolved']),
    decision: z.enum(REPORT_DECISIONS).nullable(),
    created_at: Timestamp,
  })).openapi({ description: 'The reports (notices) the address made of reviews, oldest first.' }),
  questions: z.array(z.object({
    id: z.string().uuid(),
    product_id: z.string().uuid().nullable(),
    question: z.string(),
    asker_name: z.string(),
    status: z.enum(['pending', 'published', 'hidden']),
    created_at: Timestamp,
  })).openapi({ description: 'The questions the address asked about the business or its products, oldest first.' }),
  emails: z.array(z.object({
    id: z.string().uuid(),
    template: z.string(),
    status: z.string(),
    created_at: Timestamp,
    sent_at: Timestamp.nullable(),
  })).openapi({ description: 'E-mails to the address, queued or sent (their template, not their text).' }),
  suppression: z.object({ reason: z.string(), created_at: Timestamp }).nullable().openapi({
    description: 'Whether the address gets no e-mail from you, and why; `erased` after an erasure.',
  }),
  erasures: z.array(z.object({
    reviews: z.number().int(),
    review_requests: z.number().int(),
    media: z.number().int(),
    redact_content: z.boolean(),
    created_at: Timestamp,
  })).openapi({ description: 'The erasures of this address, oldest first.' }),
  data_requests: z.array(z.object({ connection_id: z.string().uuid().nullable(), received_at: Timestamp })).openapi({
    description:
      "Requests for this address's data that a connected shop passed on (Shopify `customers/data_request`), oldest first.",
  }),
}).openapi('ReviewerData');

export const privacy = router()
  .openapi(
    orgRoute('admin', {
      method: 'post',
      path: '/organizations/{orgId}/privacy/erasures',
      operationId: 'privacy.erase',
      tags: TAGS,
      summary: "Erase a reviewer's address",
      description:
        "Forgets an address at its owner's request. Its reviews keep their rating, dates, product, verification and moderation state, and lose the address (`reviewer_email` `null`), the name (`Anonymous`) and the custom-field answers; with `redact_content`, their title and text too. Each is recorded in its moderation history (`anonymize`; the chain still verifies) and emits `review.anonymized`. The questions it asked keep their answers without the address and the name (and with `redact_content` their text). Its review requests and e-mails are deleted, its orders keep their ids without the address, exports holding it expire, and the address is suppressed, kept only as a hash. Repeating it changes nothing and answers zeros.",
      request: { params: OrgParams, body: jsonBody(ErasureInput) },
      responses: {
        200: json(Erasure, 'What this call removed'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { email, redact_content } = c.req.valid('json');
      const db = c.var.db;
      const [row] = await translateDbErrors(() =>
        db<{ body: z.infer<typeof Erasure> & { files: string[] } }[]>`
          select plaudit.erase_reviewer(${email}, ${redact_content}, ${c.var.caller!.actor}) as body`
      );
      const { files, ...erased } = row.body;
      // The photos' and videos' rows are gone with the transaction; their files go from the storage.
      const storage = mediaStorage(c.var.config.media);
      await Promise.allSettled(files.map((key) => storage.delete(key)));
      return c.json(erased, 200);
    },
  )
  .openapi(
    orgRoute('admin', {
      method: 'get',
      path: '/organizations/{orgId}/privacy/data',
      operationId: 'privacy.data',
      tags: TAGS,
      summary: 'Everything held about an address',
      description:
        'An access report for a reviewer: their reviews, review requests, orders, e-mails, suppression and erasures in this organization, and nothing about anyone else. After an erasure it holds only the suppression and the erasures.',
      request: { params: OrgParams, query: DataQuery },
      responses: {
        200: json(ReviewerData, 'The report'),
        400: errorResponseSpec('`email` is missing or not an address'),
      },
    }),
    async (c) => {
      const { email } = c.req.valid('query');
      const db = c.var.db;
      const [row] = await translateDbErrors(() =>
        db<{ body: z.infer<typeof ReviewerData> }[]>`select plaudit.reviewer_data(${email}) as body`
      );
      return c.json(row.body, 200);
    },
  );
