// HMAC-SHA256 over the raw bytes of an inbound event, the one primitive the platforms' schemes
// share (Shopify and WooCommerce in base64, Stripe in hex); comparisons are constant-time.
import { base64Encode, timingSafeEqual, toHex } from '../../bytes.ts';

const encoder = new TextEncoder();

export async function hmacSha256(key: string | Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const raw = typeof key === 'string' ? encoder.encode(key) : key;
  const k = await crypto.subtle.importKey('raw', raw as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, data as BufferSource));
}

export const hmacBase64 = async (key: string, data: Uint8Array) => base64Encode(await hmacSha256(key, data));
export const hmacHex = async (key: string, data: Uint8Array) => toHex(await hmacSha256(key, data));

export { timingSafeEqual };

/** Concatenates a text prefix and the body's bytes (Stripe signs `t.body`). */
export function prefixed(prefix: string, body: Uint8Array): Uint8Array {
  const head = encoder.encode(prefix);
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}
