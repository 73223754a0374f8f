import { z } from '@hono/zod-openapi';
import type { Tx } from '../db/client.ts';
import { ApiError } from '../http/errors.ts';
import { offset, paginate, Paginated, PaginationQuery } from '../http/pagination.ts';
import { errorResponseSpec, iso, json, OrgItemParams, OrgParams, Timestamp, Uuid } from '../http/schemas.ts';
import { resolveHost } from '../net/dns.ts';
import { assertSafeWebhookUrl, type Resolver, UnsafeUrlError } from '../net/ssrf.ts';
import { env } from '../runtime.ts';
import { sendDelivery, type SignedDelivery } from '../webhooks/send.ts';
import type { Environment } from '../config.ts';
import { keyRoute, router } from './define.ts';

export const EVENT_TYPES = ['review.created', 'review.moderated', 'review.verified', 'export.completed'] as const;
const TEST_EVENT = 'webhook.test';

const EventType = z.enum(EVENT_TYPES);
const Subscription = z.enum([...EVENT_TYPES, '*']);

/** The resolver the URL checks use; tests may replace it. */
let resolver: Resolver = resolveHost;
export function setWebhookResolver(r: Resolver) {
  resolver = r;
}

function timeoutMs(): number {
  const n = Number(env('WEBHOOK_TIMEOUT_MS') ?? 15_000);
  return Number.isFinite(n) && n > 0 ? n : 15_000;
}

async function checkUrl(url: string, environment: Environment) {
  try {
    await assertSafeWebhookUrl(url, { environment, resolve: resolver });
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw new ApiError(422, `url: ${err.message}`);
    throw err;
  }
}

const WebhookUrl = z.string().trim().min(1).max(2048)
  .openapi({ example: 'https://example.com/hooks/plaudit', description: 'Where events are POSTed. A deployed service accepts only https URLs whose host resolves to public addresses.' });

const Events = z.array(Subscription).min(1).max(20)
  .refine((a) => new Set(a).size === a.length, 'must not repeat an event')
  .openapi({ example: ['review.created', 'review.verified'], description: 'Event types to receive; `*` receives all.' });

const WebhookInput = z.object({
  url: WebhookUrl,
  events: Events,
  description: z.string().max(500).optional(),
}).openapi('WebhookInput');

const WebhookPatch = z.object({
  url: WebhookUrl.optional(),
  events: Events.optional(),
  description: z.string().max(500).nullable().optional(),
  enabled: z.boolean().optional().openapi({ description: 'false stops deliveries (queued ones are cancelled); true resumes with new events.' }),
}).openapi('WebhookPatch');

const Webhook = z.object({
  id: Uuid,
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  disabled_at: Timestamp.nullable(),
  failing_since: Timestamp.nullable()
    .openapi({ description: 'Since when every attempt has failed (timed out, could not connect or answered other than 2xx); null once one succeeds. While set, one delivery at a time is sent; after 5 days the endpoint is disabled.' }),
  slow_since: Timestamp.nullable()
    .openapi({ description: 'Since when attempts have taken the service\'s slow limit (WEBHOOK_SLOW_MS, 5 s by default) or longer; null once one is faster. Slow and failing endpoints share a limited number of a worker\'s concurrent calls.' }),
  secret_rotated_at: Timestamp.nullable(),
  previous_secret_expires_at: Timestamp.nullable()
    .openapi({ description: 'Until then, deliveries are also signed with the secret that was rotated out.' }),
  created_at: Timestamp,
  updated_at: Timestamp,
}).openapi('Webhook');

const NewWebhook = Webhook.extend({
  secret: z.string().openapi({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'The signing secret. Shown only in this answer: store it now.',
  }),
}).openapi('NewWebhook');

const RotatedSecret = z.object({
  id: Uuid,
  secret: z.string().openapi({ description: 'The new signing secret, shown only here.' }),
  previous_secret_expires_at: Timestamp.openapi({ description: 'The old secret also signs until then (24 hours).' }),
}).openapi('RotatedWebhookSecret');

const Attempt = z.object({
  attempt: z.number().int(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  response_snippet: z.string().nullable().openapi({ description: 'The first KiB of the answer.' }),
  created_at: Timestamp,
}).openapi('WebhookAttempt');

const Delivery = z.object({
  id: Uuid,
  webhook_id: Uuid,
  event: z.string(),
  event_id: Uuid.nullable(),
  message_id: z.string().openapi({ description: 'The `webhook-id` header: the same on every attempt and redelivery.' }),
  is_test: z.boolean(),
  status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']),
  attempts: z.number().int(),
  next_attempt_at: Timestamp.nullable(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  delivered_at: Timestamp.nullable(),
  created_at: Timestamp,
  attempt_log: z.array(Attempt),
}).openapi('WebhookDelivery');

const DeliveryWithPayload = Delivery.extend({
  payload: z.string().openapi({ description: 'The exact body sent.' }),
}).openapi('WebhookDeliveryDetail');

const TestInput = z.object({
  event: z.enum([TEST_EVENT, ...EVENT_TYPES]).optional()
    .openapi({ description: 'Send a sample of this event instead of `webhook.test`.' }),
}).openapi('WebhookTestInput');

const DeliveryParams = OrgItemParams.extend({
  deliveryId: Uuid.openapi({ param: { name: 'deliveryId', in: 'path' } }),
});

const DeliveryQuery = PaginationQuery.extend({
  status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']).optional(),
});

type EndpointRow = {
  id: string; url: string; description: string | null; events: string[]; enabled: boolean;
  disabled_reason: string | null; disabled_at: Date | null; failing_since: Date | null;
  slow_since: Date | null; secret_rotated_at: Date | null;
  previous_secret_expires_at: Date | null; created_at: Date; updated_at: Date; secret?: string;
};

const ENDPOINT_COLUMNS = 'id, url, description, events, enabled, disabled_reason, disabled_at, failing_since, slow_since, secret_rotated_at, previous_secret_expires_at, created_at, updated_at';

function toWebhook(r: EndpointRow) {
  return {
    id: r.id, url: r.url, description: r.description, events: r.events, enabled: r.enabled,
    disabled_reason: r.disabled_reason, disabled_at: iso(r.disabled_at),
    failing_since: iso(r.failing_since), slow_since: iso(r.slow_since),
    secret_rotated_at: iso(r.secret_rotated_at),
    previous_secret_expires_at: r.previous_secret_expires_at && r.previous_secret_expires_at.getTime() > Date.now()
      ? iso(r.previous_secret_expires_at) : null,
    created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)!,
  };
}

type DeliveryRow = {
  id: string; endpoint_id: string; event_type: string; event_id: string | null; message_id: string;
  is_test: boolean; status: 'pending' | 'succeeded' | 'failed' | 'cancelled'; attempts: number;
  next_attempt_at: Date; last_status_code: number | null; last_error: string | null;
  delivered_at: Date | null; created_at: Date; payload?: string;
  attempt_log: { attempt: number; status_code: number | null; duration_ms: number; error: string | null; response_snippet: string | null; created_at: string }[];
};

function toDelivery(r: DeliveryRow) {
  return {
    id: r.id, webhook_id: r.endpoint_id, event: r.event_type, event_id: r.event_id, message_id: r.message_id,
    is_test: r.is_test, status: r.status, attempts: r.attempts,
    next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    last_status_code: r.last_status_code, last_error: r.last_error,
    delivered_at: iso(r.delivered_at), created_at: iso(r.created_at)!,
    attempt_log: (r.attempt_log ?? []).map((a) => ({ ...a, created_at: iso(a.created_at)! })),
  };
}

async function loadEndpoint(db: Tx, id: string): Promise<EndpointRow> {
  const [row] = await db.unsafe<EndpointRow[]>(
    `select ${ENDPOINT_COLUMNS} from plaudit.webhook_endpoints where id = $1`, [id],
  );
  if (!row) throw new ApiError(404, 'Webhook not found');
  return row;
}

function deliveriesQuery(db: Tx, where: { endpointId: string; deliveryId?: string; status?: string; limit?: number; offset?: number; payload?: boolean }) {
  return db<DeliveryRow[]>`
    select d.id, d.endpoint_id, d.event_type, d.event_id, d.message_id, d.is_test, d.status, d.attempts,
           d.next_attempt_at, d.last_status_code, d.last_error, d.delivered_at, d.created_at,
           ${where.payload ? db`d.payload,` : db``}
           coalesce((select json_agg(json_build_object(
                       'attempt', a.attempt, 'status_code', a.status_code, 'duration_ms', a.duration_ms,
                       'error', a.error, 'response_snippet', a.response_snippet, 'created_at', a.created_at)
                     order by a.created_at, a.id)
                     from plaudit.webhook_delivery_attempts a where a.delivery_id = d.id), '[]') as attempt_log
    from plaudit.webhook_deliveries d
    where d.endpoint_id = ${where.endpointId}
      ${where.deliveryId ? db`and d.id = ${where.deliveryId}` : db``}
      ${where.status ? db`and d.status = ${where.status}` : db``}
    order by d.created_at desc, d.id
    ${where.limit ? db`limit ${where.limit} offset ${where.offset ?? 0}` : db``}`;
}

function sampleData(event: string, endpointId: string, orgId: string): Record<string, unknown> {
  const reviewId = '00000000-0000-4000-8000-000000000001';
  const formId = '00000000-0000-4000-8000-000000000002';
  const now = new Date().toISOString();
  switch (event) {
    case 'review.created':
      return { id: reviewId, form_id: formId, rating: 5, title: 'Great service', content: 'Quick and friendly. Would order again.', reviewer_name: 'Sample Reviewer', verification_status: 'unverified', is_hidden: false, created_at: now };
    case 'review.moderated':
      return { id: reviewId, action: 'hide', is_hidden: true, reason: 'Sample moderation', created_at: now };
    case 'review.verified':
      return { id: reviewId, verification_status: 'verified', previous_status: 'pending', created_at: now };
    case 'export.completed':
      return { id: '00000000-0000-4000-8000-000000000003', format: 'csv', status: 'completed', row_count: 42, filters: {}, completed_at: now, download_path: `/api/v1/organizations/${orgId}/exports/00000000-0000-4000-8000-000000000003/download` };
    default:
      return { webhook_id: endpointId, message: 'A test event from Plaudit: your endpoint is reachable and verifies signatures.' };
  }
}

export const webhooks = router()
  .openapi(
    keyRoute('write', {
      method: 'post', path: '/organizations/{orgId}/webhooks', tags: ['Webhooks'],
      summary: 'Register a webhook endpoint',
      description: 'Answers the signing secret (`whsec_…`) once. Each delivery is a POST of `{"event","timestamp","data"}` signed with it: `x-webhook-signature` (hex HMAC-SHA256 of the body, keyed with the secret string) and the Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`.',
      request: {
        params: OrgParams,
        body: { required: true, content: { 'application/json': { schema: WebhookInput } } },
      },
      responses: {
        201: json(NewWebhook, 'The endpoint, with its secret'),
        422: errorResponseSpec('A field failed validation, or the URL is not allowed'),
      },
    }),
    async (c) => {
      const { orgId } = c.req.valid('param');
      const input = c.req.valid('json');
      await checkUrl(input.url, c.var.config.environment);
      const db = c.var.db;
      const [created] = await db<{ id: string; secret: string }[]>`
        select id, secret from plaudit.create_webhook_endpoint(
          ${orgId}, ${input.url}, ${db.array(input.events)}::text[], ${input.description ?? null})`;
      const row = await loadEndpoint(db, created.id);
      return c.json({ ...toWebhook(row), secret: created.secret }, 201);
    },
  )
  .openapi(
    keyRoute('read', {
      method: 'get', path: '/organizations/{orgId}/webhooks', tags: ['Webhooks'],
      summary: 'List registered webhooks',
      description: 'Newest first. Secrets are never shown.',
      request: { params: OrgParams, query: PaginationQuery },
      responses: { 200: json(Paginated(Webhook), 'A page of webhooks') },
    }),
    async (c) => {
      const page = c.req.valid('query');
      const db = c.var.db;
      const [rows, [{ total }]] = await Promise.all([
        db.unsafe<EndpointRow[]>(
          `select ${ENDPOINT_COLUMNS} from plaudit.webhook_endpoints order by created_at desc, id limit $1 offset $2`,
          [page.limit, offset(page)],
        ),
        db<{ total: number }[]>`select count(*)::integer as total from plaudit.webhook_endpoints`,
      ]);
      return c.json(paginate(rows.map(toWebhook), total, page), 200);
    },
  )
  .openapi(
    keyRoute('read', {
      method: 'get', path: '/organizations/{orgId}/webhooks/{id}', tags: ['Webhooks'],
      summary: 'Get a webhook',
      request: { params: OrgItemParams },
      responses: { 200: json(Webhook, 'The webhook'), 404: errorResponseSpec('No such webhook') },
    }),
    async (c) => c.json(toWebhook(await loadEndpoint(c.var.db, c.req.valid('param').id)), 200),
  )
  .openapi(
    keyRoute('write', {
      method: 'patch', path: '/organizations/{orgId}/webhooks/{id}', tags: ['Webhooks'],
      summary: 'Change, enable or disable a webhook',
      description: 'Fields left out stay as they are. `enabled: false` cancels what is queued for the endpoint; `enabled: true` re-enables an endpoint disabled by you, by a 410 answer or after 5 days of failures.',
      request: {
        params: OrgItemParams,
        body: { required: true, content: { 'application/json': { schema: WebhookPatch } } },
      },
      responses: {
        200: json(Webhook, 'The updated webhook'),
        404: errorResponseSpec('No such webhook'),
        422: errorResponseSpec('A field failed validation, or the URL is not allowed'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const patch = c.req.valid('json');
      const db = c.var.db;
      await loadEndpoint(db, id);
      if (patch.url !== undefined) await checkUrl(patch.url, c.var.config.environment);
      const changes: Record<string, unknown> = {};
      if (patch.url !== undefined) changes.url = patch.url;
      if (patch.description !== undefined) changes.description = patch.description;
      if (patch.enabled !== undefined) changes.enabled = patch.enabled;
      if (Object.keys(changes).length) {
        await db`update plaudit.webhook_endpoints set ${db(changes)} where id = ${id}`;
      }
      if (patch.events !== undefined) {
        await db`update plaudit.webhook_endpoints set events = ${db.array(patch.events)}::text[] where id = ${id}`;
      }
      return c.json(toWebhook(await loadEndpoint(db, id)), 200);
    },
  )
  .openapi(
    keyRoute('write', {
      method: 'delete', path: '/organizations/{orgId}/webhooks/{id}', tags: ['Webhooks'],
      summary: 'Delete a webhook',
      description: 'Deliveries stop at once; the delivery log goes with it.',
      request: { params: OrgItemParams },
      responses: { 204: { description: 'Deleted' }, 404: errorResponseSpec('No such webhook') },
    }),
    async (c) => {
      const rows = await c.var.db`delete from plaudit.webhook_endpoints where id = ${c.req.valid('param').id} returning id`;
      if (rows.length === 0) throw new ApiError(404, 'Webhook not found');
      return c.body(null, 204);
    },
  )
  .openapi(
    keyRoute('write', {
      method: 'post', path: '/organizations/{orgId}/webhooks/{id}/test', tags: ['Webhooks'],
      summary: 'Send a test event',
      description: 'Delivers a signed `webhook.test` event now (or a sample of the event named in the body), once, without retries, and answers with the outcome. The attempt appears in the delivery log.',
      request: {
        params: OrgItemParams,
        body: { required: false, content: { 'application/json': { schema: TestInput } } },
      },
      responses: {
        200: json(Delivery, 'The test delivery: `status` is `succeeded` when the endpoint answered 2xx'),
        404: errorResponseSpec('No such webhook'),
        422: errorResponseSpec('A field failed validation'),
      },
    }),
    async (c) => {
      const { orgId, id } = c.req.valid('param');
      const body = c.req.header('content-type')?.includes('json') ? c.req.valid('json') : undefined;
      const event: string = body?.event ?? TEST_EVENT;
      const db = c.var.db;
      const [d] = await db<SignedDelivery[]>`
        select * from plaudit.create_test_delivery(${id}, ${event}, ${db.json(sampleData(event, id, orgId) as never)})`;
      if (!d) throw new ApiError(404, 'Webhook not found');
      const result = await sendDelivery(d, {
        environment: c.var.config.environment, timeoutMs: timeoutMs(), resolve: resolver,
      });
      await db`
        select plaudit.record_test_delivery(${d.id}, ${d.claim_token}, ${result.statusCode}, ${result.durationMs},
          ${result.error}, ${result.responseSnippet}, ${result.outcome === 'succeeded'})`;
      const [row] = await deliveriesQuery(db, { endpointId: id, deliveryId: d.id });
      return c.json(toDelivery(row), 200);
    },
  )
  .openapi(
    keyRoute('write', {
      method: 'post', path: '/organizations/{orgId}/webhooks/{id}/rotate-secret', tags: ['Webhooks'],
      summary: 'Rotate the signing secret',
      description: 'Issues a new secret, shown only in this answer. For 24 hours deliveries are signed with both: `webhook-signature` carries two `v1,` signatures, `x-webhook-signature` uses the new secret and `x-webhook-signature-previous` the old one.',
      request: { params: OrgItemParams },
      responses: { 200: json(RotatedSecret, 'The new secret'), 404: errorResponseSpec('No such webhook') },
    }),
    async (c) => {
      const [row] = await c.var.db<{ id: string; secret: string; previous_secret_expires_at: Date }[]>`
        select * from plaudit.rotate_webhook_secret(${c.req.valid('param').id})`;
      if (!row) throw new ApiError(404, 'Webhook not found');
      return c.json({ id: row.id, secret: row.secret, previous_secret_expires_at: iso(row.previous_secret_expires_at)! }, 200);
    },
  )
  .openapi(
    keyRoute('read', {
      method: 'get', path: '/organizations/{orgId}/webhooks/{id}/deliveries', tags: ['Webhooks'],
      summary: 'Delivery log',
      description: 'Deliveries to this endpoint, newest first, each with its attempts: status code, duration, error and the first KiB of the answer. Kept 30 days.',
      request: { params: OrgItemParams, query: DeliveryQuery },
      responses: { 200: json(Paginated(Delivery), 'A page of deliveries'), 404: errorResponseSpec('No such webhook') },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { status, ...page } = c.req.valid('query');
      const db = c.var.db;
      await loadEndpoint(db, id);
      const [rows, [{ total }]] = await Promise.all([
        deliveriesQuery(db, { endpointId: id, status, limit: page.limit, offset: offset(page) }),
        db<{ total: number }[]>`
          select count(*)::integer as total from plaudit.webhook_deliveries
          where endpoint_id = ${id} ${status ? db`and status = ${status}` : db``}`,
      ]);
      return c.json(paginate(rows.map(toDelivery), total, page), 200);
    },
  )
  .openapi(
    keyRoute('read', {
      method: 'get', path: '/organizations/{orgId}/webhooks/{id}/deliveries/{deliveryId}', tags: ['Webhooks'],
      summary: 'Get one delivery, with its body',
      request: { params: DeliveryParams },
      responses: { 200: json(DeliveryWithPayload, 'The delivery'), 404: errorResponseSpec('No such delivery') },
    }),
    async (c) => {
      const { id, deliveryId } = c.req.valid('param');
      const [row] = await deliveriesQuery(c.var.db, { endpointId: id, deliveryId, payload: true });
      if (!row) throw new ApiError(404, 'Delivery not found');
      return c.json({ ...toDelivery(row), payload: row.payload! }, 200);
    },
  )
  .openapi(
    keyRoute('write', {
      method: 'post', path: '/organizations/{orgId}/webhooks/{id}/deliveries/{deliveryId}/redeliver', tags: ['Webhooks'],
      summary: 'Redeliver one delivery',
      description: 'Queues the delivery again, now, with the same body and the same `webhook-id` (so a receiver that already processed it can tell), and restarts its retry schedule.',
      request: { params: DeliveryParams },
      responses: {
        202: json(Delivery, 'The delivery, queued'),
        404: errorResponseSpec('No such delivery'),
        409: errorResponseSpec('The delivery is still queued, or the endpoint is disabled'),
      },
    }),
    async (c) => {
      const { id, deliveryId } = c.req.valid('param');
      const db = c.var.db;
      const endpoint = await loadEndpoint(db, id);
      const [current] = await db<{ status: string }[]>`
        select status from plaudit.webhook_deliveries where id = ${deliveryId} and endpoint_id = ${id} for update`;
      if (!current) throw new ApiError(404, 'Delivery not found');
      if (!endpoint.enabled) throw new ApiError(409, 'The webhook is disabled; enable it first');
      if (current.status === 'pending') throw new ApiError(409, 'The delivery is already queued');
      await db`
        update plaudit.webhook_deliveries
        set status = 'pending', schedule_step = 0, next_attempt_at = now(), locked_until = null, claim_token = null
        where id = ${deliveryId}`;
      await db`select pg_notify('plaudit_outbox', 'webhook')`;
      const [row] = await deliveriesQuery(db, { endpointId: id, deliveryId });
      return c.json(toDelivery(row), 202);
    },
  );
