// What the webhook routes share: event types, the shapes of endpoints and deliveries, the URL check.
import { z } from '@hono/zod-openapi';
import type { Tx } from '../../../core/db/client.ts';
import { ApiError } from '../../http/errors.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import { iso, OrgItemParams, Timestamp, Uuid } from '../../http/schemas.ts';
import { resolveHost } from '../../../core/net/dns.ts';
import { assertSafeWebhookUrl, type Resolver, UnsafeUrlError } from '../../../core/net/ssrf.ts';
import { env } from '../../../core/runtime.ts';
import type { Environment } from '../../../core/config.ts';

export const EVENT_TYPES = [
  'review.created',
  'review.moderated',
  'review.verified',
  'review.replied',
  'review.anonymized',
  'review.reported',
  'question.created',
  'question.answered',
  'export.completed',
  'import.completed',
  'order.skipped',
  'review_request.canceled',
  'reviews.burst_detected',
] as const;
export const TEST_EVENT = 'webhook.test' as const;

export const EventType = z.enum(EVENT_TYPES);
export const Subscription = z.enum([...EVENT_TYPES, '*']);

/** The resolver the URL checks use; tests may replace it. */
let resolver: Resolver = resolveHost;
export function setWebhookResolver(r: Resolver) {
  resolver = r;
}

export function webhookResolver(): Resolver {
  return resolver;
}

export function timeoutMs(): number {
  const n = Number(env('WEBHOOK_TIMEOUT_MS') ?? 15_000);
  return Number.isFinite(n) && n > 0 ? n : 15_000;
}

export async function checkUrl(url: string, environment: Environment) {
  try {
    await assertSafeWebhookUrl(url, { environment, resolve: resolver });
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw new ApiError(422, `url: ${err.message}`);
    throw err;
  }
}

export const WebhookUrl = z.string().trim().min(1).max(2048)
  .openapi({
    example: 'https://example.com/hooks/plaudit',
    description:
      'Where events are POSTed. A deployed service accepts only https URLs whose host resolves to public addresses.',
  });

export const Events = z.array(Subscription).min(1).max(20)
  .refine((a) => new Set(a).size === a.length, 'must not repeat an event')
  .openapi({
    example: ['review.created', 'review.verified'],
    description: 'Event types to receive; `*` receives all.',
  });

export const WebhookInput = z.object({
  url: WebhookUrl,
  events: Events,
  description: z.string().max(500).optional(),
}).openapi('WebhookInput', {
  example: { url: 'https://acme.example/hooks/plaudit', events: ['review.created', 'review.verified'] },
});

export const WebhookPatch = z.object({
  url: WebhookUrl.optional(),
  events: Events.optional(),
  description: z.string().max(500).nullable().optional(),
  enabled: z.boolean().optional().openapi({
    description: 'false stops deliveries (queued ones are cancelled); true resumes with new events.',
  }),
}).openapi('WebhookPatch', { example: { events: ['*'], enabled: true } });

export const Webhook = z.object({
  id: Uuid,
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  disabled_at: Timestamp.nullable(),
  failing_since: Timestamp.nullable()
    .openapi({
      description:
        'Since when every attempt has failed (timed out, could not connect or answered other than 2xx); null once one succeeds. While set, one delivery at a time is sent; after 5 days the endpoint is disabled.',
    }),
  slow_since: Timestamp.nullable()
    .openapi({
      description:
        "Since when attempts have taken the service's slow limit (WEBHOOK_SLOW_MS, 5 s by default) or longer; null once one is faster. Slow and failing endpoints share a limited number of a worker's concurrent calls.",
    }),
  secret_rotated_at: Timestamp.nullable(),
  previous_secret_expires_at: Timestamp.nullable()
    .openapi({ description: 'Until then, deliveries are also signed with the secret that was rotated out.' }),
  created_at: Timestamp,
  updated_at: Timestamp,
}).openapi('Webhook');

export const NewWebhook = Webhook.extend({
  secret: z.string().openapi({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'The signing secret. Shown only in this answer: store it now.',
  }),
}).openapi('NewWebhook');

export const RotatedSecret = z.object({
  id: Uuid,
  secret: z.string().openapi({ description: 'The new signing secret, shown only here.' }),
  previous_secret_expires_at: Timestamp.openapi({ description: 'The old secret also signs until then (24 hours).' }),
}).openapi('RotatedWebhookSecret');

export const Attempt = z.object({
  attempt: z.number().int(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  response_snippet: z.string().nullable().openapi({ description: 'The first KiB of the answer.' }),
  created_at: Timestamp,
}).openapi('WebhookAttempt');

export const Delivery = z.object({
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

export const DeliveryWithPayload = Delivery.extend({
  payload: z.string().openapi({ description: 'The exact body sent.' }),
}).openapi('WebhookDeliveryDetail');

export const TestInput = z.object({
  event: z.enum([TEST_EVENT, ...EVENT_TYPES]).optional()
    .openapi({ description: 'Send a sample of this event instead of `webhook.test`.' }),
}).openapi('WebhookTestInput', { example: { event: 'review.created' } });

export const DeliveryParams = OrgItemParams.extend({
  deliveryId: Uuid.openapi({ param: { name: 'deliveryId', in: 'path' }, description: 'The id of the delivery' }),
});

export const DeliveryQuery = PaginationQuery.extend({
  status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']).optional()
    .openapi({ description: 'Only deliveries in this state.' }),
});

export type EndpointRow = {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  slow_since: Date | null;
  secret_rotated_at: Date | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  secret?: string;
};

export const ENDPOINT_COLUMNS =
  'id, url, description, events, enabled, disabled_reason, disabled_at, failing_since, slow_since, secret_rotated_at, previous_secret_expires_at, created_at, updated_at';

export function toWebhook(r: EndpointRow) {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: r.events,
    enabled: r.enabled,
    disabled_reason: r.disabled_reason,
    disabled_at: iso(r.disabled_at),
    failing_since: iso(r.failing_since),
    slow_since: iso(r.slow_since),
    secret_rotated_at: iso(r.secret_rotated_at),
    previous_secret_expires_at: r.previous_secret_expires_at && r.previous_secret_expires_at.getTime() > Date.now()
      ? iso(r.previous_secret_expires_at)
      : null,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

export type DeliveryRow = {
  id: string;
  endpoint_id: string;
  event_type: string;
  event_id: string | null;
  message_id: string;
  is_test: boolean;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attempts: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
  payload?: string;
  attempt_log: {
    attempt: number;
    status_code: number | null;
    duration_ms: number;
    error: string | null;
    response_snippet: string | null;
    created_at: string;
  }[];
};

export function toDelivery(r: DeliveryRow) {
  return {
    id: r.id,
    webhook_id: r.endpoint_id,
    event: r.event_type,
    event_id: r.event_id,
    message_id: r.message_id,
    is_test: r.is_test,
    status: r.status,
    attempts: r.attempts,
    next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    last_status_code: r.last_status_code,
    last_error: r.last_error,
    delivered_at: iso(r.delivered_at),
    created_at: iso(r.created_at)!,
    attempt_log: (r.attempt_log ?? []).map((a) => ({ ...a, created_at: iso(a.created_at)! })),
  };
}

export async function loadEndpoint(db: Tx, id: string): Promise<EndpointRow> {
  const [row] = await db.unsafe<EndpointRow[]>(
    `select ${ENDPOINT_COLUMNS} from plaudit.webhook_endpoints where id = $1`,
    [id],
  );
  if (!row) throw new ApiError(404, 'Webhook not found');
  return row;
}

export function deliveriesQuery(
  db: Tx,
  where: {
    endpointId: string;
    deliveryId?: string;
    status?: string;
    limit?: number;
    offset?: number;
    payload?: boolean;
  },
) {
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
