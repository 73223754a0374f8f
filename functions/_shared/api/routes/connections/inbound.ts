// The inbound door of shop connections: POST /connections/:id/events, for the platforms, not for API clients. No API
// key: the platform's signature over the raw body is the credential, and the connection decides the tenant. The route
// reads, the platform's way (core/connections/verify), what was signed and the MACs sent, and the database checks them
// with the connection's secret, which never leaves it (plaudit.inbound_connection_event): no role a request runs as
// reads a secret. Unknown ids answer 404; a disconnected connection, a missing, wrong or stale signature 401; none of
// them stores anything. A signed event is read at once with its platform's normalizer (what cannot be read answers 4xx,
// recorded as refused), stored once per delivery id and answered 200: the worker applies it
// (worker/lanes/connections.ts). One transaction and one round trip a request: the event, read as the platform whose
// signature header it carries, is stored in the call that checks its signature, only when it holds (a request signed
// its connection's platform's way with another platform's header too makes a second call). Each connection has a rate
// limit of its own, answered 429 with Retry-After so the platform delivers again later.
import { z } from '@hono/zod-openapi';
import { runAsPublic } from '../../../core/db/roles.ts';
import { asJson } from '../../../core/db/client.ts';
import { toHex } from '../../../core/bytes.ts';
import { isUuid } from '../../../core/uuid.ts';
import {
  HEADER_IDS,
  isWooCommercePing,
  type SignatureClaim,
  SIGNATURES,
  signedAs,
} from '../../../core/connections/verify/index.ts';
import { idsInBody, NORMALIZERS, Refusal } from '../../../core/connections/normalize/index.ts';
import type { Platform } from '../../../core/connections/platforms.ts';
import { errorBody } from '../../http/errors.ts';
import { errorResponseSpec, json } from '../../http/schemas.ts';
import { MemoryRateLimiter, retryAfter, setRateLimitHeaders } from '../../middleware/rate-limit/index.ts';
import { publicRoute, router } from '../define.ts';
import { payloadProblem } from './bounds.ts';

const Receipt = z.object({
  received: z.boolean(),
  outcome: z.string().openapi({
    description:
      "`accepted` (stored; the worker applies it), `duplicate` (a delivery id seen before: nothing changes), `ignored` (a topic not understood) or `ping` (WooCommerce's unsigned ping: nothing is recorded).",
  }),
}).openapi('ConnectionEventReceipt');

const Params = z.object({ id: z.string().openapi({ description: 'The connection’s id.' }) });

/** Per connection, in this instance's memory: platforms retry a 429, so nothing is lost. */
const limiter = new MemoryRateLimiter();

/** The inbound route's clock in Unix seconds; tests of the replay window may replace it. */
let clock = () => Math.floor(Date.now() / 1000);
export function setInboundClock(next: (() => number) | null) {
  clock = next ?? (() => Math.floor(Date.now() / 1000));
}

const decoder = new TextDecoder('utf-8', { fatal: true });

export const connectionInbound = router().openapi(
  publicRoute({
    method: 'post',
    path: '/connections/{id}/events',
    operationId: 'connections.receiveEvent',
    tags: ['Connections'],
    summary: 'Receive a shop platform’s event',
    description:
      'For the shop platforms, not for API clients: the connection’s `inbound_url`. Signed the platform’s way over the raw body (Shopify `X-Shopify-Hmac-Sha256`, WooCommerce `X-WC-Webhook-Signature`, Stripe `Stripe-Signature`, the `webhook` platform Standard Webhooks), Stripe and Standard Webhooks signatures at most 300 s old. A delivery id seen before answers 200 and changes nothing; topics not understood answer 200 and are ignored.',
    request: { params: Params },
    responses: {
      200: json(Receipt, 'The event was taken'),
      400: errorResponseSpec(
        'The body is not JSON, or the platform’s delivery id or topic is missing (recorded as refused)',
      ),
      401: errorResponseSpec(
        'Missing, wrong or stale signature, or the connection is disconnected (nothing is stored)',
      ),
      404: errorResponseSpec('No such connection'),
      413: errorResponseSpec('The body is too large'),
      422: errorResponseSpec(
        'A signed event that cannot be read: a field of the wrong kind or out of bounds (recorded as refused)',
      ),
      429: errorResponseSpec('Too many events for this connection this minute: deliver again after Retry-After'),
    },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) return c.json(errorBody(404, 'Connection not found'), 404);
    const decision = limiter.hit(`connection:${id}`, c.var.config.connectionEventsPerMinute);
    setRateLimitHeaders(c, decision);
    if (!decision.allowed) {
      c.header('Retry-After', retryAfter(decision));
      return c.json(errorBody(429, 'Too many events for this connection; deliver again later'), 429);
    }
    const body = new Uint8Array(await c.req.arrayBuffer());
    const header = (name: string) => c.req.header(name);
    const claimOf = (platform: Platform) => SIGNATURES[platform]({ body, header, nowSeconds: clock() });
    // Read as the platform whose signature it carries, the event is stored in the call that checks
    // its signature, and only when the signature holds.
    const claimed = signedAs(header);
    let claim: SignatureClaim | null = claimed ? claimOf(claimed) : null;
    let event = claimed && claim?.ok ? readEvent(claimed, body, header) : null;
    // Each call is its own transaction, in one round trip (begin, role, call, commit pipelined):
    // it stores nothing unless the signature holds, so there is nothing to roll back.
    const call = (platform: Platform | null, e: InboundEvent | null) => {
      const signed = claim?.ok && e ? claim : null;
      return runAsPublic(
        c.var.sql,
        (tx) =>
          tx<{ platform: Platform; status: string; signature_holds: boolean | null; outcome: string | null }[]>`
          select platform, status, signature_holds, outcome from plaudit.inbound_connection_event(${id}, ${platform},
            ${signed ? signed.signed : null},
            array(select decode(m, 'hex') from unnest(${signed ? signed.signatures.map(toHex) : []}::text[]) m),
            ${e ? e.deliveryId : null}, ${e?.topic ?? null}, ${e && !e.settled ? tx.json(asJson(e.payload)) : null},
            ${e?.settled ?? null})`,
        { onPrimary: true },
      );
    };
    let [conn] = await call(event ? claimed : null, event);
    if (!conn) return c.json(errorBody(404, 'Connection not found'), 404);
    if (conn.platform === 'woocommerce' && isWooCommercePing(header, body)) {
      return c.json({ received: true, outcome: 'ping' }, 200);
    }
    if (conn.status !== 'active') return c.json(errorBody(401, 'The connection is disconnected'), 401);
    if (conn.platform !== claimed) {
      // Signed the connection's platform's way, with another's header too (or none): read and
      // checked as its own, in a second call (the first stored nothing).
      claim = claimOf(conn.platform);
      event = claim.ok ? readEvent(conn.platform, body, header) : null;
      if (event) [conn] = await call(conn.platform, event);
      if (!conn) return c.json(errorBody(404, 'Connection not found'), 404);
    }
    if (!claim?.ok) return c.json(errorBody(401, `Invalid webhook signature: ${claim?.reason}`), 401);
    if (!conn.signature_holds) return c.json(errorBody(401, `Invalid webhook signature: ${claim.wrong}`), 401);
    if (event!.problem) {
      return c.json(errorBody(event!.status, `The event cannot be read: ${event!.problem}`), event!.status);
    }
    return c.json({ received: true, outcome: conn.outcome! }, 200);
  },
);

/** A signed event as the route stores it: what its platform's headers and body say, and what is wrong with it. */
interface InboundEvent {
  deliveryId: string;
  topic: string;
  payload: unknown;
  /** `ignored` (nothing in it the worker uses) or `refused: <why>`, recorded without the payload; null: accepted. */
  settled: string | null;
  problem?: string;
  status: 400 | 422;
}

/**
 * Reads an event as `platform` sends it: JSON, its delivery id and topic (headers or body), the
 * bounds, then the platform's normalizer, as a check. What is wrong is recorded as its refusal.
 */
function readEvent(platform: Platform, body: Uint8Array, header: (name: string) => string | undefined): InboundEvent {
  const ids = HEADER_IDS[platform](header);
  let payload: unknown;
  let problem: string | undefined;
  try {
    payload = JSON.parse(decoder.decode(body));
  } catch {
    problem = 'body: malformed JSON';
  }
  const inBody = problem ? {} : idsInBody(platform, payload);
  // An empty header is no header.
  const deliveryId = ids.deliveryId?.trim() || inBody.deliveryId;
  const topic = ids.topic?.trim() || inBody.topic;
  if (!problem && !deliveryId) problem = 'the delivery id is missing';
  if (!problem && !topic) problem = 'the topic is missing';
  let status: 400 | 422 = 400;
  let settled: string | null = null;
  if (!problem) {
    status = 422;
    problem = payloadProblem(payload);
  }
  if (!problem) {
    try {
      const actions = NORMALIZERS[platform](payload, {
        topic: topic!,
        receivedAt: new Date().toISOString(),
        settings: {},
      });
      if (actions.every((a) => a.kind === 'ignored')) settled = 'ignored';
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      problem = err.message;
    }
  }
  if (problem) settled = `refused: ${problem}`;
  return {
    deliveryId: deliveryId || `unnamed:${crypto.randomUUID()}`,
    topic: topic || 'unknown',
    payload,
    settled,
    problem,
    status,
  };
}
