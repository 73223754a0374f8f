// Builds a webhook delivery as Plaudit would send it (body, headers, both signatures), so that an
// integrator's receiver can be tested without the service: what verifyWebhook accepts, and the
// same headers the service's worker sends.
import type { TestWebhookEvent } from './webhook-events.ts';
import { encoder, hexSignature, standardSignature } from './webhook-signature.ts';

export interface SignTestWebhookOptions {
  /** The `webhook-id` (a fresh `msg_…` by default): receivers drop repeats by it. */
  id?: string;
  /** When it is signed (ms since the epoch, or a Date); the clock by default. */
  now?: number | Date;
  /** Also sign with the secret being rotated out, as the service does for 24 hours after a rotation. */
  previousSecret?: string;
  /** The `x-webhook-attempt` header, 1 by default. */
  attempt?: number;
}

/** A delivery to POST to a receiver: the body exactly as signed, and its headers. */
export interface SignedTestWebhook {
  body: string;
  headers: Record<string, string>;
}

/**
 * Signs an event (or a raw body, sent as is) with an endpoint's `whsec_…` secret, for tests of a
 * receiver. Never sign real events with it: the service signs its deliveries itself.
 */
export async function signTestWebhook(
  event: TestWebhookEvent | string,
  secret: string,
  { id = `msg_${crypto.randomUUID().replaceAll('-', '')}`, now, previousSecret, attempt = 1 }: SignTestWebhookOptions =
    {},
): Promise<SignedTestWebhook> {
  const at = new Date(now ?? Date.now());
  // The service's key order: event, timestamp, data.
  const body = typeof event === 'string'
    ? event
    : JSON.stringify({ event: event.event, timestamp: event.timestamp ?? at.toISOString(), data: event.data });
  const bytes = encoder.encode(body);
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const secrets = previousSecret ? [secret, previousSecret] : [secret];
  const standard: string[] = [];
  for (const s of secrets) {
    const signature = await standardSignature(s, id, timestamp, bytes);
    if (signature === null) throw new TypeError('The secret is not a whsec_ secret');
    standard.push(`v1,${signature}`);
  }
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Plaudit-Webhooks/1.0',
    'x-webhook-signature': await hexSignature(secret, bytes),
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': standard.join(' '),
    'x-webhook-event': typeof event === 'string' ? eventOf(body) : event.event,
    'x-webhook-attempt': String(attempt),
  };
  if (previousSecret) headers['x-webhook-signature-previous'] = await hexSignature(previousSecret, bytes);
  return { body, headers };
}

/** The `event` of a raw body, or '' when it names none. */
function eventOf(body: string): string {
  try {
    const event = (JSON.parse(body) as { event?: unknown })?.event;
    return typeof event === 'string' ? event : '';
  } catch {
    return '';
  }
}
