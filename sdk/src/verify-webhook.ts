// Checks that a webhook delivery comes from Plaudit, with Web Crypto only (any runtime):
//   Standard Webhooks  webhook-signature: space-separated `v1,<base64 HMAC-SHA256 of
//                      "id.timestamp.body">`, keyed with the base64 part of `whsec_…`; the
//                      timestamp is signed, so old deliveries (replays) are refused;
//   the contract's     x-webhook-signature: hex HMAC-SHA256 of the body keyed with the secret
//                      string (and x-webhook-signature-previous during a secret rotation).
import type { WebhookEvent } from './webhook-events.ts';
import { encoder, hexSignature, standardSignature } from './webhook-signature.ts';

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, in seconds (300 by default). */
  toleranceSeconds?: number;
  /** The current time (ms since the epoch, or a Date); the clock by default. */
  now?: number | Date;
  /**
   * Which signature to check: `standard` (webhook-signature, timestamp signed), `hex`
   * (x-webhook-signature), or `auto` (default): standard when its headers are there, else hex.
   */
  scheme?: 'auto' | 'standard' | 'hex';
}

function header(headers: WebhookHeaders, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v.join(' ') : v ?? null;
  }
  return null;
}

/** Compares two strings in time that depends on their length only. */
function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Verifies a delivery and answers its parsed event; throws WebhookVerificationError otherwise.
 * Pass the body exactly as received (before any JSON parsing), the request's headers, and the
 * endpoint's secret (or several while you rotate it).
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | string[],
  { toleranceSeconds = 300, now, scheme = 'auto' }: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const secrets = (Array.isArray(secret) ? secret : [secret]).filter(Boolean);
  if (!secrets.length) throw new WebhookVerificationError('No secret given');
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const standard = header(headers, 'webhook-signature');
  const hex = [header(headers, 'x-webhook-signature'), header(headers, 'x-webhook-signature-previous')]
    .filter((h): h is string => Boolean(h)).map((h) => h.trim().toLowerCase());
  const useStandard = scheme === 'standard' || (scheme === 'auto' && standard !== null);

  if (useStandard && (!id || !timestamp || !standard)) {
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature');
  }
  if (timestamp !== null || useStandard) {
    if (!/^\d+$/.test(timestamp ?? '')) throw new WebhookVerificationError('Invalid webhook-timestamp');
    const nowSeconds = Math.floor(Number(now ?? Date.now()) / 1000);
    const age = nowSeconds - Number(timestamp);
    if (age > toleranceSeconds) throw new WebhookVerificationError('The webhook-timestamp is too old');
    if (age < -toleranceSeconds) throw new WebhookVerificationError('The webhook-timestamp is in the future');
  }

  let ok = false;
  if (useStandard) {
    const candidates = standard!.split(' ').filter((s) => s.startsWith('v1,')).map((s) => s.slice(3));
    for (const s of secrets) {
      const expected = await standardSignature(s, id!, timestamp!, body);
      if (expected === null) throw new WebhookVerificationError('The secret is not a whsec_ secret');
      for (const c of candidates) ok = safeEqual(expected, c) || ok;
    }
  } else {
    if (!hex.length) throw new WebhookVerificationError('No webhook signature header');
    for (const s of secrets) {
      const expected = await hexSignature(s, body);
      for (const c of hex) ok = safeEqual(expected, c) || ok;
    }
  }
  if (!ok) throw new WebhookVerificationError('No signature matches');

  try {
    return JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody)) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('The body is not JSON');
  }
}
