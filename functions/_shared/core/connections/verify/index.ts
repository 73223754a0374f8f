// One verifier per platform (a module each), chosen by the connection's platform.
import type { Platform } from '../platforms.ts';
import { shopifyIds, verifyShopify } from './shopify.ts';
import { standardIds, verifyStandardWebhook } from './standard.ts';
import { verifyStripe } from './stripe.ts';
import type { DeliveryIds, Headers, Verdict, VerifyInput } from './types.ts';
import { verifyWooCommerce, wooCommerceIds } from './woocommerce.ts';

export { isWooCommercePing } from './woocommerce.ts';
export type { DeliveryIds, Headers, Verdict, VerifyInput } from './types.ts';

export const VERIFIERS: Record<Platform, (input: VerifyInput) => Promise<Verdict>> = {
  shopify: verifyShopify,
  woocommerce: verifyWooCommerce,
  stripe: verifyStripe,
  webhook: verifyStandardWebhook,
};

/** The delivery id and topic each platform's headers name, as its verifier answers them once it holds. */
export const HEADER_IDS: Record<Platform, (header: Headers) => DeliveryIds> = {
  shopify: shopifyIds,
  woocommerce: wooCommerceIds,
  stripe: () => ({ deliveryId: null, topic: null }),
  webhook: standardIds,
};

/**
 * The platform whose signature header a request carries, if any: the inbound route reads the
 * event as that platform's before it knows the connection's, so that it stores it in the call
 * that answers the connection's secret (and stores nothing when the platforms differ).
 */
export function signedAs(header: Headers): Platform | null {
  if (header('x-shopify-hmac-sha256')) return 'shopify';
  if (header('x-wc-webhook-signature')) return 'woocommerce';
  if (header('stripe-signature')) return 'stripe';
  if (header('webhook-signature')) return 'webhook';
  return null;
}
