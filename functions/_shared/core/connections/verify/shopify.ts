// Shopify: `X-Shopify-Hmac-Sha256` is the base64 HMAC-SHA256 of the raw body, keyed with the
// app's webhook secret; the topic is `X-Shopify-Topic`, the delivery id `X-Shopify-Webhook-Id`.
import { fromBase64, macs } from './hmac.ts';
import type { DeliveryIds, Headers, SignatureClaim, SignatureInput } from './types.ts';

export function shopifySignature({ body, header }: SignatureInput): SignatureClaim {
  const given = header('x-shopify-hmac-sha256');
  if (!given) return { ok: false, reason: 'missing X-Shopify-Hmac-Sha256' };
  return { ok: true, signed: body, signatures: macs([fromBase64(given)]), wrong: 'wrong signature' };
}

export function shopifyIds(header: Headers): DeliveryIds {
  return { deliveryId: header('x-shopify-webhook-id') ?? null, topic: header('x-shopify-topic') ?? null };
}
