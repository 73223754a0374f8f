// What the review-request routes share: the shapes of the API and the helpers that fill them.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { asJson, type Tx } from '../../../core/db/client.ts';
import { ApiError } from '../../http/errors.ts';
import type { TenantEnv } from '../../http/env.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import { iso, Timestamp } from '../../http/schemas.ts';
import { Incentive } from '../reviews/shape.ts';

export const REVIEW_REQUEST_STATUSES = [
  'queued',
  'sent',
  'delivered',
  'opened',
  'clicked',
  'completed',
  'bounced',
  'complained',
  'unsubscribed',
  'failed',
  'canceled',
] as const;

export const Status = z.enum(REVIEW_REQUEST_STATUSES).openapi({
  description:
    'Lifecycle: `queued` → `sent` (the transport accepted it) → `delivered` → `opened` → `clicked` → `completed` (a review was written), or `bounced`, `complained`, `unsubscribed`, `failed` (not sent: a permanent send failure, or the address is suppressed), `canceled` (not sent: the order it was made for was cancelled or refunded first). Never moves backwards.',
});

export const MAX_SEND_AHEAD_DAYS = 90;
export const MAX_REQUEST_PRODUCTS = 20;

export const RequestedProduct = z.object({
  external_id: z.string(),
  name: z.string().openapi({ description: "The product's name now (markup is text)." }),
}).openapi('ReviewRequestProduct');

export const ReviewRequestInput = z.object({
  email: z.string().trim().max(320).email(),
  name: z.string().trim().min(1).max(200),
  form_id: z.string().uuid().openapi({ description: 'The review form the recipient is asked to fill in.' }),
  order_id: z.string().trim().min(1).max(200).optional()
    .openapi({ description: 'Carried to the review (purchase-proof forms verify with it).' }),
  send_at: z.iso.datetime({ offset: true }).optional().refine(
    (s) => s === undefined || Date.parse(s) <= Date.now() + MAX_SEND_AHEAD_DAYS * 86_400_000,
    `must be at most ${MAX_SEND_AHEAD_DAYS} days ahead`,
  ).openapi({ description: 'When to send (ISO 8601); now when left out or in the past.' }),
  external_id: z.string().trim().min(1).max(200).optional()
    .openapi({
      description:
        'Your reference (an order number, say). A second request with the same external_id is refused and never sent.',
    }),
  locale: z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'must be a language code such as en or de-DE').default('en')
    .openapi({ description: 'Language of the e-mail: `en` and `de` have their own texts; others get English.' }),
  products: z.array(z.string().trim().min(1).max(200)).min(1).max(MAX_REQUEST_PRODUCTS).optional().openapi({
    description:
      `Up to ${MAX_REQUEST_PRODUCTS} \`external_id\`s of your products, each once, none archived: the e-mail names them and the request's page asks the customer to rate each one, and the business. Every review written there is verified by \`invitation\`.`,
  }),
  incentive: Incentive.nullable().optional().openapi({
    description:
      "What you offer for a review written through this request, or null (then the form's incentive, if any, applies). Each review written there keeps it and is labelled as incentivized.",
  }),
}).openapi('ReviewRequestInput', {
  example: {
    email: 'ada@example.net',
    name: 'Ada',
    form_id: '6f1c2a9e-3b7d-4c5e-9a8b-1d2e3f4a5b6c',
    order_id: 'A-1001',
    external_id: 'order-1001',
    products: ['MUG-BLUE', 'TEE-M'],
  },
});

export type RequestInput = z.infer<typeof ReviewRequestInput>;

export const ReviewRequestEvent = z.object({
  type: z.string().openapi({
    description:
      'A status (`queued`, `sent`, …), or `soft_bounced`, `delivery_delayed`, `reminder_queued`, `reminder_sent`.',
  }),
  occurred_at: Timestamp,
  data: z.object({
    send_at: Timestamp.optional().openapi({ description: '`queued`: the e-mail goes out at this time.' }),
    reason: z.enum(['suppressed', 'send_failed']).optional().openapi({ description: '`failed`: why.' }),
    suppression_reason: z.string().optional().openapi({ description: '`failed` for a suppressed address: why it is.' }),
    error: z.string().optional().openapi({ description: "`failed` to send: the transport's error, shortened." }),
    reminder: z.number().int().optional().openapi({
      description: '`reminder_queued`, `reminder_sent`: which reminder.',
    }),
    review_id: z.string().uuid().optional().openapi({ description: '`completed`: the review written.' }),
    email_id: z.string().optional().openapi({ description: '`sent`: the message id.' }),
    bounce: z.object({ type: z.string().nullable(), sub_type: z.string().nullable(), message: z.string().nullable() })
      .optional().openapi({ description: '`bounced`, `soft_bounced`: what the provider said.' }),
  }).openapi({ description: 'What the event carries; which fields depends on `type`.' }),
}).openapi('ReviewRequestEvent');

export const ReviewRequest = z.object({
  id: z.string().uuid(),
  email: z.string(),
  name: z.string(),
  form_id: z.string().uuid(),
  products: z.array(RequestedProduct).openapi({
    description: 'The products the request asks about, in the order given; `[]` for a request about the business only.',
  }),
  order_id: z.string().nullable(),
  external_id: z.string().nullable(),
  locale: z.string(),
  incentive: Incentive.nullable().openapi({ description: 'What the request offers for a review, or null.' }),
  status: Status,
  send_at: Timestamp,
  created_at: Timestamp,
  sent_at: Timestamp.nullable(),
  delivered_at: Timestamp.nullable(),
  opened_at: Timestamp.nullable(),
  clicked_at: Timestamp.nullable(),
  completed_at: Timestamp.nullable(),
  review_id: z.string().uuid().nullable(),
  open_count: z.number().int(),
  click_count: z.number().int(),
  reminders_sent: z.number().int(),
  events: z.array(ReviewRequestEvent).openapi({
    description: 'The timeline, oldest first. Each provider event appears once.',
  }),
}).openapi('ReviewRequest');

export const BulkInput = z.object({
  // Each row is validated on its own (a bad row is listed in `rejected`, not a 422 for the call);
  // the document shows the row's shape.
  requests: z.array(z.unknown().openapi({ $ref: '#/components/schemas/ReviewRequestInput' } as never)).min(1)
    .max(1000).openapi({
      description: '1 to 1,000 review requests; each is validated on its own.',
    }),
}).openapi('BulkReviewRequestInput', {
  example: {
    requests: [{
      email: 'ada@example.net',
      name: 'Ada',
      form_id: '6f1c2a9e-3b7d-4c5e-9a8b-1d2e3f4a5b6c',
      external_id: 'order-1001',
    }, {
      email: 'bo@example.net',
      name: 'Bo',
      form_id: '6f1c2a9e-3b7d-4c5e-9a8b-1d2e3f4a5b6c',
      external_id: 'order-1002',
      locale: 'de',
    }],
  },
});

export const BulkResult = z.object({
  accepted: z.number().int(),
  data: z.array(ReviewRequest),
  rejected: z.array(z.object({ index: z.number().int(), message: z.string() })),
}).openapi('BulkReviewRequestResult');

export const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const IsoDate = z.string().refine(
  (s) =>
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(s) && !Number.isNaN(Date.parse(s)),
  'must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
);

export const ListQuery = PaginationQuery.extend({
  status: Status.optional(),
  email: z.string().trim().min(1).max(320).optional().openapi({
    description: 'Exactly this address (any case); an erased address is found by it too.',
  }),
  form_id: z.string().uuid().optional().openapi({ description: 'Only requests for this form.' }),
  external_id: z.string().trim().min(1).max(200).optional()
    .openapi({ description: 'The request with this id of your own system.' }),
  startDate: IsoDate.optional().openapi({ description: 'Created on or after (a date means from 00:00 UTC).' }),
  endDate: IsoDate.optional().openapi({ description: 'Created on or before (a date means the whole day, UTC).' }),
});

export const StatsQuery = z.object({
  startDate: z.string().regex(DATE, 'must be a date, YYYY-MM-DD').optional()
    .openapi({ description: 'First day (UTC); default: 29 days before endDate.' }),
  endDate: z.string().regex(DATE, 'must be a date, YYYY-MM-DD').optional()
    .openapi({ description: 'Last day (UTC), inclusive; default: today.' }),
});

// The funnel's stages: every status after `queued`, which counts as `requested`.
export const STAGES = ['requested', ...REVIEW_REQUEST_STATUSES.slice(1)] as const;

export const Stats = z.object({
  startDate: z.string(),
  endDate: z.string(),
  total: z.number().int().openapi({ description: 'Requests created in the range.' }),
  by_status: z.object(
    Object.fromEntries(REVIEW_REQUEST_STATUSES.map((s) => [s, z.number().int()])) as Record<
      typeof REVIEW_REQUEST_STATUSES[number],
      z.ZodNumber
    >,
  ),
  sent: z.number().int().openapi({ description: 'Requests whose e-mail was sent (the denominator of the rates).' }),
  delivery_rate: z.number(),
  open_rate: z.number(),
  click_rate: z.number(),
  completion_rate: z.number(),
  daily: z.array(z.object({
    date: z.string(),
    ...Object.fromEntries(STAGES.map((s) => [s, z.number().int()])) as Record<typeof STAGES[number], z.ZodNumber>,
  })).openapi({
    description:
      "One entry per UTC day of the range, zeros included: how many of the range's requests were created (`requested`), sent, delivered, opened, clicked, completed, bounced… that day.",
  }),
}).openapi('ReviewRequestStats');

export const Settings = z.object({
  daily_quota: z.number().int(),
  used_today: z.number().int(),
  remaining_today: z.number().int(),
  reminders_enabled: z.boolean(),
  reminder_delay_days: z.number().int(),
  reminder_max: z.number().int(),
}).openapi('ReviewRequestSettings');

export const SettingsPatch = z.object({
  daily_quota: z.number().int().min(1).max(100_000).optional(),
  reminders_enabled: z.boolean().optional(),
  reminder_delay_days: z.number().int().min(1).max(60).optional(),
  reminder_max: z.number().int().min(1).max(2).optional(),
}).openapi('ReviewRequestSettingsPatch', { example: { reminders_enabled: true, reminder_delay_days: 7 } });

export const Suppression = z.object({
  id: z.string().uuid(),
  email: z.string().nullable().openapi({
    description: 'The address; `null` for an erased one, which is kept only as a hash (`reason` `erased`).',
  }),
  reason: z.enum(['unsubscribed', 'bounced', 'complained', 'manual', 'erased']),
  request_id: z.string().uuid().nullable(),
  created_at: Timestamp,
}).openapi('Suppression');

export const SuppressionInput = z.object({ email: z.string().trim().max(320).email() }).openapi('SuppressionInput', {
  example: { email: 'no-mail@example.net' },
});
export const SuppressionQuery = PaginationQuery.extend({
  email: z.string().trim().min(1).max(320).optional().openapi({
    description: 'Exactly this address (any case); an erased address is found by it too.',
  }),
});

// ---------------------------------------------------------------------------------------------

export type RequestRow = {
  id: string;
  email: string;
  name: string;
  form_id: string;
  products: z.infer<typeof RequestedProduct>[];
  order_id: string | null;
  external_id: string | null;
  locale: string;
  incentive: z.infer<typeof Incentive> | null;
  status: z.infer<typeof Status>;
  send_at: Date;
  created_at: Date;
  sent_at: Date | null;
  delivered_at: Date | null;
  opened_at: Date | null;
  clicked_at: Date | null;
  completed_at: Date | null;
  review_id: string | null;
  open_count: number;
  click_count: number;
  reminders_sent: number;
  events: { type: string; occurred_at: string; data: Record<string, unknown> }[];
};

export function toRequest(r: RequestRow): z.infer<typeof ReviewRequest> {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    form_id: r.form_id,
    products: r.products ?? [],
    order_id: r.order_id,
    external_id: r.external_id,
    locale: r.locale,
    incentive: r.incentive,
    status: r.status,
    send_at: iso(r.send_at)!,
    created_at: iso(r.created_at)!,
    sent_at: iso(r.sent_at),
    delivered_at: iso(r.delivered_at),
    opened_at: iso(r.opened_at),
    clicked_at: iso(r.clicked_at),
    completed_at: iso(r.completed_at),
    review_id: r.review_id,
    open_count: r.open_count,
    click_count: r.click_count,
    reminders_sent: r.reminders_sent,
    events: (r.events ?? []).map((e) => ({ type: e.type, occurred_at: iso(e.occurred_at)!, data: e.data ?? {} })),
  };
}

export function selectRequests(db: Tx) {
  return db`
    select q.id, q.email, q.name, q.form_id, q.order_id, q.external_id, q.locale, q.incentive, q.status, q.send_at,
           q.created_at, q.sent_at, q.delivered_at, q.opened_at, q.clicked_at, q.completed_at, q.review_id,
           q.open_count, q.click_count, q.reminders_sent,
           coalesce((select jsonb_agg(jsonb_build_object('external_id', p.external_id, 'name', p.name)
                                      order by rp.position)
                     from plaudit.review_request_products rp
                     join plaudit.products p on p.id = rp.product_id and p.org_id = rp.org_id
                     where rp.org_id = q.org_id and rp.request_id = q.id), '[]') as products,
           coalesce((select jsonb_agg(jsonb_build_object('type', e.type, 'occurred_at', e.occurred_at, 'data', e.data)
                                      order by e.occurred_at, e.id)
                     from plaudit.review_request_events e
                     where e.org_id = q.org_id and e.request_id = q.id), '[]') as events
    from plaudit.review_requests q`;
}

export async function loadRequests(db: Tx, ids: string[]): Promise<z.infer<typeof ReviewRequest>[]> {
  if (ids.length === 0) return [];
  const rows = await db<RequestRow[]>`${selectRequests(db)} where q.id = any(${ids}::uuid[])`;
  const byId = new Map(rows.map((r) => [r.id, toRequest(r)]));
  return ids.map((id) => byId.get(id)!).filter(Boolean);
}

export type CreatedRow = { idx: number; id: string | null; error: string | null };

export function secondsToUtcMidnight() {
  const now = new Date();
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** Creates the rows (already validated) in one call; a quota refusal becomes 429. */
export async function createRequests(c: Context<TenantEnv>, rows: (RequestInput & { index: number })[]) {
  const db = c.var.db;
  try {
    return await db<CreatedRow[]>`
      select idx, id, error from plaudit.create_review_requests(${db.json(asJson(rows))}, ${c.var.config.publicUrl})`;
  } catch (err) {
    if ((err as { code?: string }).code === '54000') {
      c.header('Retry-After', String(secondsToUtcMidnight()));
      throw new ApiError(429, (err as Error).message);
    }
    throw err;
  }
}

export function issueMessage(issues: z.core.$ZodIssue[]) {
  return issues.map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`).join('; ');
}

export function dateRange(q: { startDate?: string; endDate?: string }) {
  const start = q.startDate ? new Date(DATE.test(q.startDate) ? `${q.startDate}T00:00:00Z` : q.startDate) : undefined;
  const end = q.endDate
    ? new Date(DATE.test(q.endDate) ? Date.parse(`${q.endDate}T00:00:00Z`) + 86_400_000 : Date.parse(q.endDate) + 1)
    : undefined;
  if (start && end && start.getTime() >= end.getTime()) throw new ApiError(400, 'startDate: must not be after endDate');
  return { start, end };
}

export const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
