// The MACs the platforms' headers carry, decoded to bytes for the database's comparison (Shopify,
// WooCommerce and Standard Webhooks in base64, Stripe in hex); what does not decode is no MAC.
import { base64Decode } from '../../bytes.ts';

const encoder = new TextEncoder();

export function fromBase64(text: string): Uint8Array | null {
  try {
    return base64Decode(text.trim());
  } catch {
    return null;
  }
}

export function fromHex(text: string): Uint8Array | null {
  const hex = text.trim();
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return null;
  return Uint8Array.from(hex.match(/../g)!, (b) => parseInt(b, 16));
}

/** The MACs that decode, dropping the others. */
export const macs = (values: (Uint8Array | null)[]) => values.filter((v): v is Uint8Array => v !== null);

/** Concatenates a text prefix and the body's bytes (Stripe signs `t.body`, Standard Webhooks `id.timestamp.body`). */
export function prefixed(prefix: string, body: Uint8Array): Uint8Array {
  const head = encoder.encode(prefix);
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}
