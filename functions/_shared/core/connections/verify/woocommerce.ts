// WooCommerce: `X-WC-Webhook-Signature` is the base64 HMAC-SHA256 of the raw body with the
// webhook's secret (Shopify's scheme); topic `X-WC-Webhook-Topic`, delivery `X-WC-Webhook-Delivery-ID`.
// When a webhook is saved, WooCommerce pings its URL with a form-encoded `webhook_id=…` body and
// no signature: that ping is answered 200 and records nothing (isWooCommercePing).
import { fromBase64, macs } from './hmac.ts';
import type { DeliveryIds, Headers, SignatureClaim, SignatureInput } from './types.ts';

export function wooCommerceSignature({ body, header }: SignatureInput): SignatureClaim {
  const given = header('x-wc-webhook-signature');
  if (!given) return { ok: false, reason: 'missing X-WC-Webhook-Signature' };
  return { ok: true, signed: body, signatures: macs([fromBase64(given)]), wrong: 'wrong signature' };
}

export function wooCommerceIds(header: Headers): DeliveryIds {
  return { deliveryId: header('x-wc-webhook-delivery-id') ?? null, topic: header('x-wc-webhook-topic') ?? null };
}

/** The unsigned form-encoded ping WooCommerce sends when a webhook is saved. */
export function isWooCommercePing(header: Headers, body: Uint8Array): boolean {
  if (header('x-wc-webhook-signature')) return false;
  if (!(header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) return false;
  if (body.length > 200) return false;
  return /^webhook_id=\d+$/.test(new TextDecoder().decode(body).trim());
}
