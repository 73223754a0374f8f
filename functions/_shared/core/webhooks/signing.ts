// Webhook signatures, as a receiver checks them (the service itself signs inside the database,
// see plaudit.webhook_signatures in supabase/schema.sql, so the secret never leaves it):
//   x-webhook-signature  lowercase hex HMAC-SHA256 of the exact body, keyed with the secret
//                        string `whsec_…` as given at registration;
//   webhook-signature    Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
//                        keyed with the base64-decoded part of the secret after `whsec_`.
// Comparisons of signatures are constant-time.

import { base64Decode, base64Encode, timingSafeEqual, toHex } from '../bytes.ts';

export { base64Decode, base64Encode, timingSafeEqual };

const encoder = new TextEncoder();

async function hmac(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, data as BufferSource));
}

/** The x-webhook-signature value: hex HMAC-SHA256 of the body with the secret string. */
export async function hexSignature(secret: string, body: string | Uint8Array): Promise<string> {
  return toHex(await hmac(encoder.encode(secret), typeof body === 'string' ? encoder.encode(body) : body));
}

/** One Standard Webhooks signature, `v1,<base64>`. */
export async function standardSignature(
  secret: string,
  id: string,
  timestamp: number | string,
  body: string,
): Promise<string> {
  const key = base64Decode(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  return `v1,${base64Encode(await hmac(key, encoder.encode(`${id}.${timestamp}.${body}`)))}`;
}

export async function verifyHexSignature(secret: string, body: string, header: string | null): Promise<boolean> {
  if (!header) return false;
  return timingSafeEqual(await hexSignature(secret, body), header.trim().toLowerCase());
}

/**
 * Verifies Standard Webhooks headers: one of the space-separated `v1,` signatures must match,
 * and the timestamp must be within `toleranceSeconds` of now (replay protection).
 */
export async function verifyStandardSignature(
  secret: string,
  body: string,
  headers: { id: string | null; timestamp: string | null; signature: string | null },
  { toleranceSeconds = 300, nowSeconds = Math.floor(Date.now() / 1000) } = {},
): Promise<boolean> {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return false;
  const expected = await standardSignature(secret, id, timestamp, body);
  let ok = false;
  for (const candidate of signature.split(' ')) ok = timingSafeEqual(expected, candidate) || ok;
  return ok;
}
