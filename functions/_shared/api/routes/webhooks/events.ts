// What a webhook delivery carries: `{"event","timestamp","data"}`, one shape of `data` per event
// type. The database writes the events (plaudit.emit_event in the triggers); these schemas
// document them (the OpenAPI document's `webhooks`, the SDK's types) and give the test event its
// sample, and tests/api/webhook-events.test.ts checks every real event against them.
import { IMPORT_FORMATS } from '../../../core/imports/formats.ts';
import { z } from '@hono/zod-openapi';
import { ChainHead, Timestamp } from '../../http/schemas.ts';
import { Filters } from '../exports.ts';
import { HoldFigures, HoldSubject } from '../holds.ts';
import { ReviewProduct, ReviewReply, VerificationStatus } from '../reviews/shape.ts';
import { REPORT_KINDS, REPORT_REASONS } from '../../../core/db/shopper-signals.ts';

const Id = z.string().uuid();
const Answers = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
// The review's product, the same object as the Review's `product`.
const Product = ReviewProduct.nullable().openapi({
  description: 'The product reviewed, as the Review names it; `null` for a review of the business.',
});

export const EVENT_DATA = {
  'review.created': z.object({
    id: Id,
    form_id: Id,
    product: Product,
    rating: z.number().int().min(1).max(5),
    title: z.string().nullable(),
    content: z.string(),
    reviewer_name: z.string(),
    verification_status: VerificationStatus,
    custom_fields: Answers.openapi({ description: "Answers to the form's custom fields, keyed by field key." }),
    created_at: Timestamp,
  }).openapi('ReviewCreatedData', { description: "A review was submitted. Never carries the reviewer's e-mail." }),
  'review.moderated': z.object({
    id: Id,
    form_id: Id,
    product: Product,
    action: z.enum(['hide', 'unhide', 'hide_media', 'unhide_media']).openapi({
      description:
        '`hide` and `unhide` change the review; `hide_media` and `unhide_media` one of its photos or videos.',
    }),
    is_hidden: z.boolean().openapi({ description: 'Whether the review is hidden.' }),
    media: z.object({ id: Id, type: z.enum(['image', 'video']), is_hidden: z.boolean() }).optional().openapi({
      description: 'The photo or video hidden or shown (`hide_media`, `unhide_media` only).',
    }),
    reason: z.string().nullable(),
    actor: z.string().openapi({ description: 'Who made the change: `api_key:<key id>`, or `database:<user>`.' }),
    moderated_at: Timestamp,
    moderation_chain: ChainHead,
  }).openapi('ReviewModeratedData', { description: 'A review was hidden or shown again.' }),
  'review.verified': z.object({
    id: Id,
    form_id: Id,
    product: Product,
    verification_status: VerificationStatus,
    previous_status: VerificationStatus,
    method: z.enum(['email', 'purchase_proof', 'manual', 'invitation']).nullable(),
    reason: z.string().nullable(),
    actor: z.string(),
    verified_at: Timestamp,
  }).openapi('ReviewVerifiedData', {
    description: "A review's verification status changed: verified, or rejected.",
  }),
  'review.replied': z.object({
    id: Id,
    form_id: Id,
    product: Product,
    action: z.enum(['created', 'updated', 'withdrawn']),
    reply: ReviewReply.nullable().openapi({ description: 'The reply as it is now; null once withdrawn.' }),
    actor: z.string(),
    replied_at: Timestamp,
  }).openapi('ReviewRepliedData', {
    description: "The business's public reply to a review was written, edited or withdrawn.",
  }),
  'review.anonymized': z.object({
    id: Id,
    form_id: Id,
    product: Product,
    reviewer_name: z.literal('Anonymous'),
    content_removed: z.boolean().openapi({
      description: "Whether the title and text were removed too (`[removed at the reviewer's request]`).",
    }),
    anonymized_at: Timestamp,
    moderation_chain: ChainHead,
  }).openapi('ReviewAnonymizedData', {
    description:
      "A reviewer's address was erased at their request: the review keeps its rating, dates and state, without the reviewer's name, address or answers. Forget what you stored of them.",
  }),
  'review.reported': z.object({
    id: Id,
    form_id: Id,
    product: Product,
    report_id: Id.openapi({ description: 'The report, as `GET …/reports` lists it.' }),
    reason: z.enum(REPORT_REASONS),
    details: z.string().nullable(),
    kind: z.enum(REPORT_KINDS).openapi({ description: '`illegal` (a notice under EU DSA Art. 16) or `policy`.' }),
    legal_ground: z.string().nullable().openapi({ description: 'The law the reporter names for an illegal review.' }),
    reported_at: Timestamp,
  }).openapi('ReviewReportedData', {
    description:
      "A visitor reported a published review. The review stays as it was; the reporter's network and e-mail addresses are never sent.",
  }),
  'question.created': z.object({
    id: Id,
    product: Product,
    question: z.string(),
    asker_name: z.string(),
    created_at: Timestamp,
  }).openapi('QuestionCreatedData', {
    description:
      "A shopper's question was confirmed by its asker and is published (`product` null: about the business). Never the asker's address.",
  }),
  'question.answered': z.object({
    id: Id,
    product: Product,
    question: z.string(),
    answer: z.object({
      id: Id,
      content: z.string(),
      author: z.enum(['business', 'verified_buyer']),
      author_name: z.string(),
      created_at: Timestamp,
    }),
  }).openapi('QuestionAnsweredData', {
    description: 'A question got an answer, from the business or a verified buyer. Never an address.',
  }),
  'export.completed': z.object({
    id: Id,
    format: z.enum(['csv', 'json']),
    status: z.literal('completed'),
    filters: Filters,
    row_count: z.number().int(),
    created_at: Timestamp,
    completed_at: Timestamp,
    expires_at: Timestamp,
    download_url: z.string().openapi({ description: "The file's URL, the same as the export resource's." }),
  }).openapi('ExportCompletedData', { description: 'An export finished; its file can be downloaded.' }),
  'import.completed': z.object({
    id: Id,
    format: z.enum(IMPORT_FORMATS),
    dry_run: z.boolean(),
    status: z.literal('completed'),
    total_rows: z.number().int(),
    imported: z.number().int(),
    duplicates: z.number().int(),
    rejected: z.array(z.object({ row: z.number().int(), message: z.string() })).openapi({
      description: 'The first 100 rows refused, in file order.',
    }),
    rejected_count: z.number().int().openapi({ description: 'Every row refused.' }),
    created_at: Timestamp,
    completed_at: Timestamp,
  }).openapi('ImportCompletedData', {
    description:
      'An import finished: the one event it sends, whatever the number of reviews it brought (no `review.created` for them).',
  }),
  'order.skipped': z.object({
    order_id: z.string(),
    connection_id: Id.nullable(),
    platform: z.enum(['shopify', 'woocommerce', 'stripe', 'webhook']).nullable(),
    reason: z.enum(['no_email', 'suppressed', 'too_old', 'automation_off', 'excluded']),
    at: Timestamp,
  }).openapi('OrderSkippedData', {
    description:
      "An order of a connection reached the automation's trigger (or arrived over 90 days old) and makes no review request; `reason` says why.",
  }),
  'review_request.canceled': z.object({
    id: Id,
    order_id: z.string(),
    connection_id: Id.nullable(),
    external_id: z.string().nullable(),
    canceled_at: Timestamp,
  }).openapi('ReviewRequestCanceledData', {
    description:
      'The order a review request was made for was cancelled or fully refunded before the request was sent: it never will be.',
  }),
  'reviews.burst_detected': z.object({
    hold_id: Id,
    subject: HoldSubject,
    started_at: Timestamp,
    figures: HoldFigures,
  }).openapi('ReviewsBurstDetectedData', {
    description:
      'An unusual number of one- and two-star reviews of one subject: new reviews of it are held as pending until a member releases the hold (`POST …/holds/{hold_id}/release`).',
  }),
  'webhook.test': z.object({
    webhook_id: Id,
    message: z.string(),
  }).openapi('WebhookTestData', { description: 'Sent by `POST …/webhooks/{id}/test` without an event.' }),
} as const;

export type EventName = keyof typeof EVENT_DATA;

const envelope = <E extends EventName>(event: E, name: string) =>
  z.object({
    event: z.literal(event),
    timestamp: Timestamp.openapi({ description: 'When the event happened.' }),
    data: EVENT_DATA[event],
  }).openapi(name);

export const WEBHOOK_EVENTS = {
  'review.created': envelope('review.created', 'ReviewCreatedEvent'),
  'review.moderated': envelope('review.moderated', 'ReviewModeratedEvent'),
  'review.verified': envelope('review.verified', 'ReviewVerifiedEvent'),
  'review.replied': envelope('review.replied', 'ReviewRepliedEvent'),
  'review.anonymized': envelope('review.anonymized', 'ReviewAnonymizedEvent'),
  'review.reported': envelope('review.reported', 'ReviewReportedEvent'),
  'question.created': envelope('question.created', 'QuestionCreatedEvent'),
  'question.answered': envelope('question.answered', 'QuestionAnsweredEvent'),
  'export.completed': envelope('export.completed', 'ExportCompletedEvent'),
  'import.completed': envelope('import.completed', 'ImportCompletedEvent'),
  'order.skipped': envelope('order.skipped', 'OrderSkippedEvent'),
  'review_request.canceled': envelope('review_request.canceled', 'ReviewRequestCanceledEvent'),
  'reviews.burst_detected': envelope('reviews.burst_detected', 'ReviewsBurstDetectedEvent'),
  'webhook.test': envelope('webhook.test', 'WebhookTestEvent'),
} as const;

/** Any delivery's body, told apart by `event`. */
export const WebhookEvent = z.discriminatedUnion('event', [
  WEBHOOK_EVENTS['review.created'],
  WEBHOOK_EVENTS['review.moderated'],
  WEBHOOK_EVENTS['review.verified'],
  WEBHOOK_EVENTS['review.replied'],
  WEBHOOK_EVENTS['review.anonymized'],
  WEBHOOK_EVENTS['review.reported'],
  WEBHOOK_EVENTS['question.created'],
  WEBHOOK_EVENTS['question.answered'],
  WEBHOOK_EVENTS['export.completed'],
  WEBHOOK_EVENTS['import.completed'],
  WEBHOOK_EVENTS['order.skipped'],
  WEBHOOK_EVENTS['review_request.canceled'],
  WEBHOOK_EVENTS['reviews.burst_detected'],
  WEBHOOK_EVENTS['webhook.test'],
]);

/** The test event's data for an event type: the type's shape, with sample values. */
export function sampleData(event: EventName, endpointId: string, orgId: string): z.infer<typeof EVENT_DATA[EventName]> {
  const reviewId = '00000000-0000-4000-8000-000000000001';
  const formId = '00000000-0000-4000-8000-000000000002';
  const product = { id: '00000000-0000-4000-8000-000000000005', external_id: 'MUG-S', name: 'Sample mug' };
  const exportId = '00000000-0000-4000-8000-000000000003';
  const now = new Date().toISOString();
  switch (event) {
    case 'review.created':
      return {
        id: reviewId,
        form_id: formId,
        product,
        rating: 5,
        title: 'Great service',
        content: 'Quick and friendly. Would order again.',
        reviewer_name: 'Sample Reviewer',
        verification_status: 'unverified',
        custom_fields: { product: 'Sample product' },
        created_at: now,
      };
    case 'review.moderated':
      return {
        id: reviewId,
        form_id: formId,
        product,
        action: 'hide',
        is_hidden: true,
        reason: 'Sample moderation',
        actor: 'api_key:00000000-0000-4000-8000-000000000004',
        moderated_at: now,
        moderation_chain: { entries: 1, head: '0'.repeat(64) },
      };
    case 'review.verified':
      return {
        id: reviewId,
        form_id: formId,
        product,
        verification_status: 'verified',
        previous_status: 'pending',
        method: 'manual',
        reason: null,
        actor: 'api_key:00000000-0000-4000-8000-000000000004',
        verified_at: now,
      };
    case 'review.replied':
      return {
        id: reviewId,
        form_id: formId,
        product,
        action: 'created',
        reply: { content: 'Thank you for your kind words!', created_at: now, updated_at: now },
        actor: 'api_key:00000000-0000-4000-8000-000000000004',
        replied_at: now,
      };
    case 'review.anonymized':
      return {
        id: reviewId,
        form_id: formId,
        product,
        reviewer_name: 'Anonymous',
        content_removed: false,
        anonymized_at: now,
        moderation_chain: { entries: 2, head: '0'.repeat(64) },
      };
    case 'import.completed':
      return {
        id: exportId,
        format: 'judgeme',
        dry_run: false,
        status: 'completed',
        total_rows: 3,
        imported: 2,
        duplicates: 0,
        rejected: [{ row: 4, message: 'rating: must be a whole number from 1 to 5, not "9"' }],
        rejected_count: 1,
        created_at: now,
        completed_at: now,
      };
    case 'review.reported':
      return {
        id: reviewId,
        form_id: formId,
        product,
        report_id: '00000000-0000-4000-8000-000000000006',
        reason: 'spam',
        details: 'The same text is on every product.',
        kind: 'policy',
        legal_ground: null,
        reported_at: now,
      };
    case 'question.created':
      return {
        id: reviewId,
        product,
        question: 'Is it dishwasher safe?',
        asker_name: 'Sample Shopper',
        created_at: now,
      };
    case 'question.answered':
      return {
        id: reviewId,
        product,
        question: 'Is it dishwasher safe?',
        answer: {
          id: '00000000-0000-4000-8000-000000000007',
          content: 'Yes, up to 60 °C.',
          author: 'business',
          author_name: 'Sample shop',
          created_at: now,
        },
      };
    case 'export.completed':
      return {
        id: exportId,
        format: 'csv',
        status: 'completed',
        filters: {},
        row_count: 42,
        created_at: now,
        completed_at: now,
        expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        download_url: `https://plaudit.example/api/v1/organizations/${orgId}/exports/${exportId}/download`,
      };
    case 'order.skipped':
      return {
        order_id: '#1001',
        connection_id: '00000000-0000-4000-8000-000000000007',
        platform: 'shopify',
        reason: 'no_email',
        at: now,
      };
    case 'review_request.canceled':
      return {
        id: '00000000-0000-4000-8000-000000000008',
        order_id: '#1001',
        connection_id: '00000000-0000-4000-8000-000000000007',
        external_id: 'order:00000000-0000-4000-8000-000000000007:#1001',
        canceled_at: now,
      };
    case 'reviews.burst_detected':
      return {
        hold_id: '00000000-0000-4000-8000-000000000009',
        subject: { kind: 'product', product_id: product.id, group: null, name: product.name },
        started_at: now,
        figures: {
          low_ratings: 14,
          reviews: 15,
          client_addresses: 9,
          low_ratings_without_busiest_address: 12,
          hourly_median_28_days: 0,
          window_start: new Date(Date.now() - 3_600_000).toISOString(),
          window_end: now,
          thresholds: { min_reviews: 10, min_addresses: 5, median_factor: 5, min_low_share: 0.5 },
        },
      };
    case 'webhook.test':
      return {
        webhook_id: endpointId,
        message: 'A test event from Plaudit: your endpoint is reachable and verifies signatures.',
      };
  }
}
