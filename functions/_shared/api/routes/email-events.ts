// The e-mail provider's event webhook: delivered, bounced, complained (and delayed, opened,
// clicked where the provider tracks them) for the messages the worker sent. Resend's format,
// signed the Svix / Standard Webhooks way: `svix-id`, `svix-timestamp`, `svix-signature` (or the
// `webhook-*` names) with HMAC-SHA256 over `id.timestamp.body`, keyed with the base64 part of
// EMAIL_WEBHOOK_SECRET (`whsec_…`, the provider's signing secret, an environment variable of the
// API). Compared in constant time; a timestamp more than 5 minutes off is refused (replay).
// Without EMAIL_WEBHOOK_SECRET the endpoint answers 503: events are never taken unsigned.
// An event for a message id that no outbox row carries yet answers 404, so that the provider
// delivers it again: it may have overtaken the worker's record of the send.
import { z } from '@hono/zod-openapi';
import { errorBody } from '../http/errors.ts';
import { errorResponseSpec, json } from '../http/schemas.ts';
import { env } from '../../core/runtime.ts';
import { verifyStandardSignature } from '../../core/webhooks/signing.ts';
import { publicRoute, router } from './define.ts';
import { runAsPublic } from '../../core/db/roles.ts';
import { asJson } from '../../core/db/client.ts';

const TYPES: Record<string, string> = {
  'email.delivered': 'delivered',
  'email.bounced': 'bounced',
  'email.complained': 'complained',
  'email.delivery_delayed': 'delivery_delayed',
  'email.opened': 'opened',
  'email.clicked': 'clicked',
};

const Receipt = z.object({
  received: z.boolean(),
  outcome: z.string().openapi({
    description:
      "`applied`, `recorded`, `duplicate`, or `ignored` (not a review request's message, or an event type not tracked).",
  }),
}).openapi('EmailEventReceipt');

interface ProviderEvent {
  type?: string;
  created_at?: string;
  data?: { email_id?: string; bounce?: { type?: string; subType?: string; message?: string } };
}

export const emailEvents = router().openapi(
  publicRoute({
    method: 'post',
    path: '/email-events',
    operationId: 'emailEvents.receive',
    tags: ['Review requests'],
    summary: 'Receive e-mail provider events',
    description:
      'For the e-mail provider, not for API clients: Resend-format events (`email.delivered`, `email.bounced`, `email.complained`, `email.delivery_delayed`, `email.opened`, `email.clicked`) signed with the Svix / Standard Webhooks headers and the secret in `EMAIL_WEBHOOK_SECRET`. A repeated event (same id) applies once; events may arrive in any order. An event for a message id not known yet answers 404, so that the provider delivers it again. A hard bounce or a complaint puts the address on the suppression list; a transient bounce is only recorded.',
    responses: {
      200: json(Receipt, 'The event was taken'),
      400: errorResponseSpec('Not a JSON event'),
      401: errorResponseSpec('Missing or wrong signature'),
      404: errorResponseSpec(
        "No message with this `data.email_id` is known yet (the event may have overtaken the send's record): the provider should deliver it again",
      ),
      503: errorResponseSpec('EMAIL_WEBHOOK_SECRET is not configured'),
    },
  }),
  async (c) => {
    const secret = env('EMAIL_WEBHOOK_SECRET');
    if (!secret) {
      return c.json(errorBody(503, 'E-mail events are not configured: set EMAIL_WEBHOOK_SECRET'), 503);
    }
    const body = await c.req.text();
    const h = (name: string) => c.req.header(`svix-${name}`) ?? c.req.header(`webhook-${name}`) ?? null;
    const ok = await verifyStandardSignature(secret, body, {
      id: h('id'),
      timestamp: h('timestamp'),
      signature: h('signature'),
    });
    if (!ok) return c.json(errorBody(401, 'Invalid or missing webhook signature'), 401);
    let event: ProviderEvent;
    try {
      event = JSON.parse(body);
    } catch {
      return c.json(errorBody(400, 'Malformed JSON in request body'), 400);
    }
    let type = TYPES[event.type ?? ''];
    const messageId = event.data?.email_id;
    if (!type || !messageId) return c.json({ received: true, outcome: 'ignored' }, 200);
    if (type === 'bounced' && /transient|soft|temporary/i.test(event.data?.bounce?.type ?? '')) type = 'soft_bounced';
    const occurred = event.created_at && !Number.isNaN(Date.parse(event.created_at))
      ? new Date(event.created_at)
      : new Date();
    const data: Record<string, unknown> = {};
    if (event.data?.bounce) {
      data.bounce = {
        type: event.data.bounce.type ?? null,
        sub_type: event.data.bounce.subType ?? null,
        message: event.data.bounce.message?.slice(0, 300) ?? null,
      };
    }
    const [row] = await runAsPublic(c.var.sql, (tx) =>
      tx<{ outcome: string }[]>`
      select plaudit.record_email_provider_event(${messageId}, ${type}, ${h('id')}, ${occurred}, ${
        tx.json(asJson(data))
      }) as outcome`, { onPrimary: true });
    // The event may have overtaken the worker's record of the message id: not 2xx, so that the
    // provider delivers it again later instead of it being lost.
    if (row.outcome === 'unknown') {
      return c.json(errorBody(404, 'The e-mail id is not known yet; deliver the event again later'), 404);
    }
    return c.json({ received: true, outcome: row.outcome }, 200);
  },
);
