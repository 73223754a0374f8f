// One verifier per platform (a module each), chosen by the connection's platform.
import type { Platform } from '../platforms.ts';
import { verifyShopify } from './shopify.ts';
import { verifyStandardWebhook } from './standard.ts';
import { verifyStripe } from './stripe.ts';
import type { Verdict, VerifyInput } from './types.ts';
import { verifyWooCommerce } from './woocommerce.ts';

export { isWooCommercePing } from './woocommerce.ts';
export type { Headers, Verdict, VerifyInput } from './types.ts';

export const VERIFIERS: Record<Platform, (input: VerifyInput) => Promise<Verdict>> = {
  shopify: verifyShopify,
  woocommerce: verifyWooCommerce,
  stripe: verifyStripe,
  webhook: verifyStandardWebhook,
};
