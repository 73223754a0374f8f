// Review requests: single and bulk creation, list, details with the event timeline, statistics,
// per-organization settings (daily quota, reminders) and the suppression list. The database
// decides (supabase/migrations/20261125001100_review_requests.sql): these handlers validate shapes and translate.
//
// Compliance: nothing here selects, filters or routes recipients by the rating they are
// expected to give (review gating), which the FTC rule on consumer reviews (2024) and Google's
// policy prohibit. Every request gets the same e-mail and the same review page.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { sha256 } from '../api-keys/format.ts';
import type { Tx } from '../db/client.ts';
import { ApiError } from '../http/errors.ts';
import type { AppEnv } from '../http/env.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../http/pagination.ts';
import { errorResponseSpec, iso, json, OrgItemParams, OrgParams, Timestamp } from '../http/schemas.ts';
import { keyRoute, router } from './define.ts';

export const REVIEW_REQUEST_STATUSES = [
  'queued', 'sent', 'delivered', 'opened', 'clicked', 'completed', 'bounced', 'complained', 'unsubscribed', 'failed',
] as const;

const Status = z.enum(REVIEW_REQUEST_STATUSES).openapi({
  description: 'Lifecycle: `queued` → `sent` (the transport accepted it) → `delivered` → `opened` → `clicked` → `completed` (a review was written), or `bounced`, `complained`, `unsubscribed`, `failed` (not sent: a permanent send failure, or the address is suppressed). Never moves backwards.',
});

const MAX_SEND_AHEAD_DAYS = 90;

const ReviewRequestInput = z.object({
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
    .openapi({ description: 'Your reference (an order number, say). A second request with the same external_id is refused and never sent.' }),
  locale: z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'must be a language code such as en or de-DE').default('en')
    .openapi({ description: 'Language of the e-mail: `en` and `de` have their own texts; others get English.' }),
}).openapi('ReviewRequestInput');

type RequestInput = z.infer<typeof ReviewRequestInput>;

const ReviewRequestEvent = z.object({
  type: z.string().openapi({ description: 'A status (`queued`, `sent`, …), or `soft_bounced`, `delivery_delayed`, `reminder_queued`, `reminder_sent`.' }),
  occurred_at: Timestamp,
  data: z.record(z.string(), z.unknown()),
}).openapi('ReviewRequestEvent');

const ReviewRequest = z.object({
  id: z.string().uuid(),
  email: z.string(),
  name: z.string(),
  form_id: z.string().uuid(),
  order_id: z.string().nullable(),
  external_id: z.string().nullable(),
  locale: z.string(),
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
  events: z.array(ReviewRequestEvent).openapi({ description: 'The timeline, oldest first. Each provider event appears once.' }),
}).openapi('ReviewRequest');

const BulkInput = z.object({
  requests: z.array(z.unknown()).min(1).max(1000).openapi({
    description: '1 to 1,000 objects shaped as `ReviewRequestInput`; each is validated on its own.',
  }),
}).openapi('BulkReviewRequestInput');

const BulkResult = z.object({
  accepted: z.number().int(),
  data: z.array(ReviewRequest),
  rejected: z.array(z.object({ index: z.number().int(), message: z.string() })),
}).openapi('BulkReviewRequestResult');

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const IsoDate = z.string().refine(
  (s) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(s) && !Number.isNaN(Date.parse(s)),
  'must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
);

const ListQuery = PaginationQuery.extend({
  status: Status.optional(),
  email: z.string().trim().min(1).max(320).optional().openapi({ description: 'Exactly this address (any case).' }),
  form_id: z.string().uuid().optional(),
  external_id: z.string().trim().min(1).max(200).optional(),
  startDate: IsoDate.optional().openapi({ description: 'Created on or after (a date means from 00:00 UTC).' }),
  endDate: IsoDate.optional().openapi({ description: 'Created on or before (a date means the whole day, UTC).' }),
});

const StatsQuery = z.object({
  startDate: z.string().regex(DATE, 'must be a date, YYYY-MM-DD').optional()
    .openapi({ description: 'First day (UTC); default: 29 days before endDate.' }),
  endDate: z.string().regex(DATE, 'must be a date, YYYY-MM-DD').optional()
    .openapi({ description: 'Last day (UTC), inclusive; default: today.' }),
});

const STAGES = ['requested', 'sent', 'delivered', 'opened', 'clicked', 'completed', 'bounced', 'complained', 'unsubscribed', 'failed'] as const;

const Stats = z.object({
  startDate: z.string(),
  endDate: z.string(),
  total: z.number().int().openapi({ description: 'Requests created in the range.' }),
  by_status: z.object(Object.fromEntries(REVIEW_REQUEST_STATUSES.map((s) => [s, z.number().int()])) as Record<typeof REVIEW_REQUEST_STATUSES[number], z.ZodNumber>),
  sent: z.number().int().openapi({ description: 'Requests whose e-mail was sent (the denominator of the rates).' }),
  delivery_rate: z.number(),
  open_rate: z.number(),
  click_rate: z.number(),
  completion_rate: z.number(),
  daily: z.array(z.object({
    date: z.string(),
    ...Object.fromEntries(STAGES.map((s) => [s, z.number().int()])) as Record<typeof STAGES[number], z.ZodNumber>,
  })).openapi({ description: 'One entry per UTC day of the range, zeros included: how many of the range\'s requests were created (`requested`), sent, delivered, opened, clicked, completed, bounced… that day.' }),
}).openapi('ReviewRequestStats');

const Settings = z.object({
  daily_quota: z.number().int(),
  used_today: z.number().int(),
  remaining_today: z.number().int(),
  reminders_enabled: z.boolean(),
  reminder_delay_days: z.number().int(),
  reminder_max: z.number().int(),
}).openapi('ReviewRequestSettings');

const SettingsPatch = z.object({
  daily_quota: z.number().int().min(1).max(100_000).optional(),
  reminders_enabled: z.boolean().optional(),
  reminder_delay_days: z.number().int().min(1).max(60).optional(),
  reminder_max: z.number().int().min(1).max(2).optional(),
}).openapi('ReviewRequestSettingsPatch');

const Suppression = z.object({
  id: z.string().uuid(),
  email: z.string(),
  reason: z.enum(['unsubscribed', 'bounced', 'complained', 'manual']),
  request_id: z.string().uuid().nullable(),
  created_at: Timestamp,
}).openapi('Suppression');

const SuppressionInput = z.object({ email: z.string().trim().max(320).email() }).openapi('SuppressionInput');
const SuppressionQuery = PaginationQuery.extend({ email: z.string().trim().min(1).max(320).optional() });

const IdempotencyHeaders = z.object({
  'idempotency-key': z.string().min(1).max(255).optional().openapi({
    param: { name: 'idempotency-key', in: 'header' },
    description: 'Makes a retried call safe: a repeated key answers the first call\'s result and sends nothing again (kept 24 hours, per organization).',
  }),
});

// ---------------------------------------------------------------------------------------------

type RequestRow = {
  id: string; email: string; name: string; form_id: string; order_id: string | null; external_id: string | null;
  locale: string; status: z.infer<typeof Status>; send_at: Date; created_at: Date; sent_at: Date | null;
  delivered_at: Date | null; opened_at: Date | null; clicked_at: Date | null; completed_at: Date | null;
  review_id: string | null; open_count: number; click_count: number; reminders_sent: number;
  events: { type: string; occurred_at: string; data: Record<string, unknown> }[];
};

function toRequest(r: RequestRow): z.infer<typeof ReviewRequest> {
  return {
    id: r.id, email: r.email, name: r.name, form_id: r.form_id, order_id: r.order_id, external_id: r.external_id,
    locale: r.locale, status: r.status, send_at: iso(r.send_at)!, created_at: iso(r.created_at)!,
    sent_at: iso(r.sent_at), delivered_at: iso(r.delivered_at), opened_at: iso(r.opened_at),
    clicked_at: iso(r.clicked_at), completed_at: iso(r.completed_at), review_id: r.review_id,
    open_count: r.open_count, click_count: r.click_count, reminders_sent: r.reminders_sent,
    events: (r.events ?? []).map((e) => ({ type: e.type, occurred_at: iso(e.occurred_at)!, data: e.data ?? {} })),
  };
}

function selectRequests(db: Tx) {
  return db`
    select q.id, q.email, q.name, q.form_id, q.order_id, q.external_id, q.locale, q.status, q.send_at,
           q.created_at, q.sent_at, q.delivered_at, q.opened_at, q.clicked_at, q.completed_at, q.review_id,
           q.open_count, q.click_count, q.reminders_sent,
           coalesce((select jsonb_agg(jsonb_build_object('type', e.type, 'occurred_at', e.occurred_at, 'data', e.data)
                                      order by e.occurred_at, e.id)
                     from plaudit.review_request_events e
                     where e.org_id = q.org_id and e.request_id = q.id), '[]') as events
    from plaudit.review_requests q`;
}

async function loadRequests(db: Tx, ids: string[]): Promise<z.infer<typeof ReviewRequest>[]> {
  if (ids.length === 0) return [];
  const rows = await db<RequestRow[]>`${selectRequests(db)} where q.id = any(${ids}::uuid[])`;
  const byId = new Map(rows.map((r) => [r.id, toRequest(r)]));
  return ids.map((id) => byId.get(id)!).filter(Boolean);
}

type CreatedRow = { idx: number; id: string | null; error: string | null };

function secondsToUtcMidnight() {
  const now = new Date();
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** Creates the rows (already validated) in one call; a quota refusal becomes 429. */
async function createRequests(c: Context<AppEnv>, rows: (RequestInput & { index: number })[]) {
  const db = c.var.db;
  try {
    return await db<CreatedRow[]>`
      select idx, id, error from plaudit.create_review_requests(${db.json(rows as never)}, ${c.var.config.publicUrl})`;
  } catch (err) {
    if ((err as { code?: string }).code === '54000') {
      c.header('Retry-After', String(secondsToUtcMidnight()));
      throw new ApiError(429, (err as Error).message);
    }
    throw err;
  }
}

function issueMessage(issues: z.core.$ZodIssue[]) {
  return issues.map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`).join('; ');
}

function dateRange(q: { startDate?: string; endDate?: string }) {
  const start = q.startDate ? new Date(DATE.test(q.startDate) ? `${q.startDate}T00:00:00Z` : q.startDate) : undefined;
  const end = q.endDate
    ? new Date(DATE.test(q.endDate) ? Date.parse(`${q.endDate}T00:00:00Z`) + 86_400_000 : Date.parse(q.endDate) + 1)
    : undefined;
  if (start && end && start.getTime() >= end.getTime()) throw new ApiError(400, 'startDate: must not be after endDate');
  return { start, end };
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

export const reviewRequests = router()
  .openapi(
    keyRoute('write', {
      method: 'post', path: '/organizations/{orgId}/review-requests', tags: ['Review requests'],
      summary: 'Send one review request e-mail',
      description: 'Queues the e-mail (now, or at `send_at`) and answers the request with its timeline. An address on the suppression list is never mailed: the request is stored as `failed` with the reason in its timeline. Counts against the daily quota (429 beyond it, with `Retry-After`). A repeated `external_id` answers 409 and sends nothing.',
      request: {
        params: OrgParams,
        body: { required: true, content: { 'application/json': { schema: ReviewRequestInput } } },
      },
      responses: {
        201: json(ReviewRequest, 'The request'),
        404: errorResponseSpec('No active review form with this id in this organization'),
        409: errorResponseSpec('A request with this external_id exists already'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const [row] = await createRequests(c, [{ ...input, index: 0 }]);
      if (row.error) {
        throw new ApiError(row.error.startsWith('form_id') ? 404 : row.error.startsWith('external_id') ? 409 : 422, row.error);
      }
      const [request] = await loadRequests(c.var.db, [row.id!]);
      return c.json(request, 201);
    },
  )
  .openapi(
    keyRoute('write', {
      method: 'post', path: '/organizations/{orgId}/review-requests/bulk', tags: ['Review requests'],
      summary: 'Send bulk review requests',
      description: 'Up to 1,000 requests (body up to 1 MiB), each validated on its own: valid rows are accepted (`data`), the others are listed in `rejected` with their index and the reason. Rows with an `external_id` already used (or repeated in the call) are rejected and never sent twice. With an `Idempotency-Key` header, a repeated call answers the first call\'s result and sends nothing (the same key with another body: 422). The daily quota applies to the accepted rows as a whole: a call that would exceed it accepts nothing and answers 429.',
      request: {
        params: OrgParams,
        headers: IdempotencyHeaders,
        body: { required: true, content: { 'application/json': { schema: BulkInput } } },
      },
      responses: {
        202: json(BulkResult, 'Which rows were accepted and why others were refused'),
        422: errorResponseSpec('The body is not `{"requests":[…]}` with 1–1,000 items, or the Idempotency-Key was used with another body'),
      },
    }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const body = c.req.valid('json');
      const key = c.req.valid('header')['idempotency-key'];
      const db = c.var.db;

      if (key) {
        const hash = sha256(JSON.stringify(body));
        const [claimed] = await db<{ key: string }[]>`
          insert into plaudit.idempotency_keys (org_id, key, route, request_hash)
          values (${orgId}, ${key}, 'review-requests/bulk', ${hash})
          on conflict (org_id, key) do nothing returning key`;
        if (!claimed) {
          const [prev] = await db<{ request_hash: Uint8Array; status_code: number | null; response: unknown; route: string }[]>`
            select request_hash, status_code, response, route from plaudit.idempotency_keys
            where org_id = ${orgId} and key = ${key}`;
          if (prev.route !== 'review-requests/bulk' || hex(new Uint8Array(prev.request_hash)) !== hex(hash)) {
            throw new ApiError(422, 'Idempotency-Key: this key was already used with another request body');
          }
          c.header('Idempotent-Replayed', 'true');
          return c.json(prev.response as z.infer<typeof BulkResult>, 202);
        }
      }

      const rejected: { index: number; message: string }[] = [];
      const valid: (RequestInput & { index: number })[] = [];
      body.requests.forEach((raw, index) => {
        const parsed = ReviewRequestInput.safeParse(raw);
        if (parsed.success) valid.push({ ...parsed.data, index });
        else rejected.push({ index, message: issueMessage(parsed.error.issues) });
      });
      const created = valid.length ? await createRequests(c, valid) : [];
      const ids: string[] = [];
      for (const row of created) {
        if (row.error) rejected.push({ index: row.idx, message: row.error });
        else ids.push(row.id!);
      }
      rejected.sort((a, b) => a.index - b.index);
      const data = await loadRequests(db, ids);
      const result = { accepted: data.length, data, rejected };
      if (key) {
        await db`
          update plaudit.idempotency_keys set status_code = 202, response = ${db.json(result as never)}
          where org_id = ${orgId} and key = ${key}`;
      }
      return c.json(result, 202);
    },
  )
  .openapi(
    keyRoute('read', {
      method: 'get', path: '/organizations/{orgId}/review-requests', tags: ['Review requests'],
      summary: 'List requests',
      description: 'Newest first. Filters combine with AND.',
      request: { params: OrgParams, query: ListQuery },
      responses: { 200: json(Paginated(ReviewRequest), 'A page of requests') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const db = c.var.db;
      const { start, end } = dateRange(q);
      const conditions = [];
      if (q.status) conditions.push(db`status = ${q.status}`);
      if (q.email) conditions.push(db`lower(email) = lower(${q.email})`);
      if (q.form_id) conditions.push(db`form_id = ${q.form_id}`);
      if (q.external_id) conditions.push(db`external_id = ${q.external_id}`);
      if (start) conditions.push(db`created_at >= ${start}`);
      if (end) conditions.push(db`created_at < ${end}`);
      const where = conditions.length ? conditions.reduce((a, b) => db`${a} and ${b}`) : db`true`;
      const [rows, [{ total }]] = await Promise.all([
        db<RequestRow[]>`
          ${selectRequests(db)}
          join (select id from plaudit.review_requests where ${where}
                order by created_at desc, id desc limit ${q.limit} offset ${offset(q)}) page on page.id = q.id
          order by q.created_at desc, q.id desc`,
        db<{ total: number }[]>`select count(*)::integer as total from plaudit.review_requests where ${where}`,
      ]);
      return c.json(paginate(rows.map(toRequest), total, q), 200);
    },
  )
  .openapi(
    keyRoute('read', {
      method: 'get', path: '/organizations/{orgId}/review-requests/stats', tags: ['Review requests'],
      summary: 'Get aggregate request statistics',
      description: 'For the requests created from `startDate` to `endDate` (UTC days, inclusive; default the last 30 days, at most 366): counts per status (every status, 0 included), the delivery, open, click and completion rates as fractions 0–1 of the requests sent, and a daily series.',
      request: { params: OrgParams, query: StatsQuery },
      responses: { 200: json(Stats, 'The statistics') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const today = new Date().toISOString().slice(0, 10);
      const endDate = q.endDate ?? today;
      const startDate = q.startDate ?? new Date(Date.parse(`${endDate}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
      if (Number.isNaN(Date.parse(`${startDate}T00:00:00Z`)) || Number.isNaN(Date.parse(`${endDate}T00:00:00Z`))) {
        throw new ApiError(400, 'startDate, endDate: must be valid dates');
      }
      const days = (Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000 + 1;
      if (days < 1) throw new ApiError(400, 'startDate: must not be after endDate');
      if (days > 366) throw new ApiError(400, 'startDate: the range may span at most 366 days');
      const db = c.var.db;
      const start = new Date(`${startDate}T00:00:00Z`);
      const end = new Date(Date.parse(`${endDate}T00:00:00Z`) + 86_400_000);
      const [statusRows, [totals], dailyRows] = await Promise.all([
        db<{ status: string; n: number }[]>`
          select status, count(*)::integer as n from plaudit.review_requests
          where created_at >= ${start} and created_at < ${end} group by status`,
        db<{ sent: number; delivered: number; opened: number; clicked: number; completed: number }[]>`
          select count(sent_at)::integer as sent, count(delivered_at)::integer as delivered,
                 count(opened_at)::integer as opened, count(clicked_at)::integer as clicked,
                 (count(completed_at) filter (where sent_at is not null))::integer as completed
          from plaudit.review_requests where created_at >= ${start} and created_at < ${end}`,
        db<{ date: string; stage: string; n: number }[]>`
          select to_char((k.at at time zone 'UTC')::date, 'YYYY-MM-DD') as date, k.stage, count(*)::integer as n
          from plaudit.review_requests q
          cross join lateral (values ('requested', q.created_at), ('sent', q.sent_at), ('delivered', q.delivered_at),
                                     ('opened', q.opened_at), ('clicked', q.clicked_at), ('completed', q.completed_at),
                                     ('bounced', q.bounced_at), ('complained', q.complained_at),
                                     ('unsubscribed', q.unsubscribed_at), ('failed', q.failed_at)) k(stage, at)
          where q.created_at >= ${start} and q.created_at < ${end}
            and k.at is not null and k.at >= ${start} and k.at < ${end}
          group by 1, 2`,
      ]);
      const by_status = Object.fromEntries(REVIEW_REQUEST_STATUSES.map((s) => [s, 0])) as Record<typeof REVIEW_REQUEST_STATUSES[number], number>;
      for (const r of statusRows) by_status[r.status as keyof typeof by_status] = r.n;
      const total = statusRows.reduce((n, r) => n + r.n, 0);
      const rate = (n: number) => (totals.sent ? Math.round((Math.min(n, totals.sent) / totals.sent) * 10_000) / 10_000 : 0);
      const daily = Array.from({ length: days }, (_, i) => {
        const date = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
        return { date, ...Object.fromEntries(STAGES.map((s) => [s, 0])) } as { date: string } & Record<typeof STAGES[number], number>;
      });
      const byDate = new Map(daily.map((d) => [d.date, d]));
      for (const r of dailyRows) {
        const d = byDate.get(r.date);
        if (d) d[r.stage as typeof STAGES[number]] = r.n;
      }
      return c.json({
        startDate, endDate, total, by_status, sent: totals.sent,
        delivery_rate: rate(totals.delivered), open_rate: rate(totals.opened), click_rate: rate(totals.clicked),
        completion_rate: rate(totals.completed), daily,
      }, 200);
    },
  )
  .openapi(
    keyRoute('read', {
      method: 'get', path: '/organizations/{orgId}/review-requests/settings', tags: ['Review requests'],
      summary: 'Get review request settings',
      description: 'The daily quota (and today\'s use, UTC) and the reminder settings. Reminders are off by default.',
      request: { params: OrgParams },
      responses: { 200: json(Settings, 'The settings') },
    }),
    async (c) => c.json(await loadSettings(c.var.db), 200),
  )
  .openapi(
    keyRoute('admin', {
      method: 'patch', path: '/organizations/{orgId}/review-requests/settings', tags: ['Review requests'],
      summary: 'Change review request settings',
      description: '`daily_quota` (1–100,000 requests per UTC day), `reminders_enabled`, `reminder_delay_days` (1–60: a reminder goes out this many days after the request, and after the previous reminder, while no review came), `reminder_max` (1 or 2). Fields left out stay as they are.',
      request: {
        params: OrgParams,
        body: { required: true, content: { 'application/json': { schema: SettingsPatch } } },
      },
      responses: {
        200: json(Settings, 'The settings after the change'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const patch = c.req.valid('json');
      const db = c.var.db;
      const changes: Record<string, unknown> = {};
      for (const k of ['daily_quota', 'reminders_enabled', 'reminder_delay_days', 'reminder_max'] as const) {
        if (patch[k] !== undefined) changes[k] = patch[k];
      }
      if (Object.keys(changes).length) {
        await db`
          insert into plaudit.review_request_settings ${db({ org_id: orgId, ...changes })}
          on conflict (org_id) do update set ${db({ ...changes, updated_at: new Date() })}`;
      }
      return c.json(await loadSettings(db), 200);
    },
  )
  .openapi(
    keyRoute('read', {
      method: 'get', path: '/organizations/{orgId}/review-requests/{id}', tags: ['Review requests'],
      summary: 'Get request details and delivery status',
      request: { params: OrgItemParams },
      responses: {
        200: json(ReviewRequest, 'The request and its timeline'),
        404: errorResponseSpec('No request with this id in this organization'),
      },
    }),
    async (c) => {
      const [request] = await loadRequests(c.var.db, [c.req.valid('param').id]);
      if (!request) throw new ApiError(404, 'Review request not found');
      return c.json(request, 200);
    },
  )
  .openapi(
    keyRoute('read', {
      method: 'get', path: '/organizations/{orgId}/suppressions', tags: ['Review requests'],
      summary: 'List the suppression list',
      description: 'Addresses that never get review requests (or reminders) from this organization: unsubscribed, hard-bounced, complained, or added by hand. Newest first.',
      request: { params: OrgParams, query: SuppressionQuery },
      responses: { 200: json(Paginated(Suppression), 'A page of suppressed addresses') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const db = c.var.db;
      const where = q.email ? db`lower(email) = lower(${q.email})` : db`true`;
      const [rows, [{ total }]] = await Promise.all([
        db<(Omit<z.infer<typeof Suppression>, 'created_at'> & { created_at: Date })[]>`
          select id, email, reason, request_id, created_at from plaudit.email_suppressions where ${where}
          order by created_at desc, id desc limit ${q.limit} offset ${offset(q)}`,
        db<{ total: number }[]>`select count(*)::integer as total from plaudit.email_suppressions where ${where}`,
      ]);
      return c.json(paginate(rows.map((r) => ({ ...r, created_at: iso(r.created_at)! })), total, q), 200);
    },
  )
  .openapi(
    keyRoute('write', {
      method: 'post', path: '/organizations/{orgId}/suppressions', tags: ['Review requests'],
      summary: 'Suppress an address',
      description: 'Adds an address by hand (reason `manual`); e-mails still queued for it are withdrawn. An address already on the list answers 409.',
      request: {
        params: OrgParams,
        body: { required: true, content: { 'application/json': { schema: SuppressionInput } } },
      },
      responses: {
        201: json(Suppression, 'The entry'),
        409: errorResponseSpec('The address is on the list already'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const { email } = c.req.valid('json');
      const db = c.var.db;
      const [row] = await db<(Omit<z.infer<typeof Suppression>, 'created_at'> & { created_at: Date })[]>`
        insert into plaudit.email_suppressions (org_id, email, reason) values (${orgId}, ${email}, 'manual')
        on conflict (org_id, lower(email)) do nothing
        returning id, email, reason, request_id, created_at`;
      if (!row) throw new ApiError(409, 'This address is on the suppression list already');
      return c.json({ ...row, created_at: iso(row.created_at)! }, 201);
    },
  )
  .openapi(
    keyRoute('write', {
      method: 'delete', path: '/organizations/{orgId}/suppressions/{id}', tags: ['Review requests'],
      summary: 'Lift a suppression',
      description: 'The address may get review requests again (requests made before stay as they are).',
      request: { params: OrgItemParams },
      responses: {
        204: { description: 'Lifted' },
        404: errorResponseSpec('No entry with this id in this organization'),
      },
    }),
    async (c) => {
      const rows = await c.var.db`delete from plaudit.email_suppressions where id = ${c.req.valid('param').id} returning id`;
      if (rows.length === 0) throw new ApiError(404, 'Suppression not found');
      return c.body(null, 204);
    },
  );

async function loadSettings(db: Tx): Promise<z.infer<typeof Settings>> {
  const [row] = await db<{
    daily_quota: number; reminders_enabled: boolean; reminder_delay_days: number; reminder_max: number; used_today: number;
  }[]>`
    select coalesce(s.daily_quota, 1000) as daily_quota, coalesce(s.reminders_enabled, false) as reminders_enabled,
           coalesce(s.reminder_delay_days, 3) as reminder_delay_days, coalesce(s.reminder_max, 1) as reminder_max,
           coalesce((select u.requests from plaudit.review_request_usage u
                     where u.org_id = (select plaudit.current_org_id()) and u.day = (now() at time zone 'UTC')::date), 0)::integer as used_today
    from (select 1) one left join plaudit.review_request_settings s on true`;
  return { ...row, remaining_today: Math.max(row.daily_quota - row.used_today, 0) };
}
