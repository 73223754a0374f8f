// One signature scheme per platform (a module each), chosen by the platform a request's header
// names and then by the connection's: each reads what the platform signs and the MACs it sent,
// and the database checks them with the connection's secret, which never leaves it
// (plaudit.inbound_connection_event).
import type { Platform } from '../platforms.ts';
import { shopifyIds, shopifySignature } from './shopify.ts';
import { standardIds, standardSignature } from './standard.ts';
import { stripeSignature } from './stripe.ts';
import type { DeliveryIds, Headers, SignatureClaim, SignatureInput } from './types.ts';
import { wooCommerceIds, wooCommerceSignature } from './woocommerce.ts';

export { isWooCommercePing } from './woocommerce.ts';
export type { DeliveryIds, Headers, SignatureClaim, SignatureInput } from './types.ts';

export const SIGNATURES: Record<Platform, (input: SignatureInput) => SignatureClaim> = {
  shopify: shopifySignature,
  woocommerce: wooCommerceSignature,
  stripe: stripeSignature,
  webhook: standardSignature,
};

/** The delivery id and topic each platform's headers name. */
export const HEADER_IDS: Record<Platform, (header: Headers) => DeliveryIds> = {
  shopify: shopifyIds,
  woocommerce: wooCommerceIds,
  stripe: () => ({ deliveryId: null, topic: null }),
  webhook: standardIds,
};

/**
 * The platform whose signature header a request carries, if any: the inbound route reads the
 * event as that platform's before it knows the connection's, so that the call that checks its
 * signature stores it (and checks and stores nothing when the platforms differ).
 */
export function signedAs(header: Headers): Platform | null {
  if (header('x-shopify-hmac-sha256')) return 'shopify';
  if (header('x-wc-webhook-signature')) return 'woocommerce';
  if (header('stripe-signature')) return 'stripe';
  if (header('webhook-signature')) return 'webhook';
  return null;
}
