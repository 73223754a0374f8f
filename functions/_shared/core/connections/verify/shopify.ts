// Shopify: `X-Shopify-Hmac-Sha256` is the base64 HMAC-SHA256 of the raw body, keyed with the
// app's webhook secret; the topic is `X-Shopify-Topic`, the delivery id `X-Shopify-Webhook-Id`.
import { hmacBase64, timingSafeEqual } from './hmac.ts';
import type { DeliveryIds, Headers, Verdict, VerifyInput } from './types.ts';

export async function verifyShopify({ secret, body, header }: VerifyInput): Promise<Verdict> {
  const given = header('x-shopify-hmac-sha256');
  if (!given) return { ok: false, reason: 'missing X-Shopify-Hmac-Sha256' };
  if (!timingSafeEqual(await hmacBase64(secret, body), given.trim())) {
    return { ok: false, reason: 'wrong signature' };
  }
  return { ok: true, ...shopifyIds(header) };
}

export function shopifyIds(header: Headers): DeliveryIds {
  return { deliveryId: header('x-shopify-webhook-id') ?? null, topic: header('x-shopify-topic') ?? null };
}
