// The two signatures a Plaudit webhook delivery carries, with Web Crypto only (any runtime). The
// service computes the same ones in the database (plaudit.webhook_signatures):
//   webhook-signature    Standard Webhooks: base64 HMAC-SHA256 of "id.timestamp.body", keyed with
//                        the base64-decoded part of the secret after `whsec_`;
//   x-webhook-signature  lowercase hex HMAC-SHA256 of the body, keyed with the secret string.

export const encoder = new TextEncoder();

async function hmac(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, data as BufferSource));
}

/** The key of the standard signature, or null when the secret is not `whsec_<base64>`. */
function standardKey(secret: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(secret.replace(/^whsec_/, '')), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

const toBase64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** The base64 signature of a `v1,<base64>` entry; null when the secret is not a `whsec_` secret. */
export async function standardSignature(
  secret: string,
  id: string,
  timestamp: string,
  body: Uint8Array,
): Promise<string | null> {
  const key = standardKey(secret);
  if (!key) return null;
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  return toBase64(await hmac(key, signed));
}

/** The x-webhook-signature value. */
export async function hexSignature(secret: string, body: Uint8Array): Promise<string> {
  return toHex(await hmac(encoder.encode(secret), body));
}
