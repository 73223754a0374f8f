// One normalizer per platform, chosen by the connection's platform; also the topic of an event
// whose platform puts it in the body (Stripe's `type`, the webhook platform's `type`).
import type { Platform } from '../platforms.ts';
import { obj } from './read.ts';
import { normalizeShopify } from './shopify.ts';
import { normalizeStripe } from './stripe.ts';
import type { Action, EventContext } from './types.ts';
import { normalizeWebhook } from './webhook.ts';
import { normalizeWooCommerce } from './woocommerce.ts';

export { Refusal } from './types.ts';
export type { Action, ConnectionSettings, EventContext, OrderFacts, ProductFacts } from './types.ts';

export const NORMALIZERS: Record<Platform, (body: unknown, ctx: EventContext) => Action[]> = {
  shopify: normalizeShopify,
  woocommerce: normalizeWooCommerce,
  stripe: normalizeStripe,
  webhook: normalizeWebhook,
};

/** The event's delivery id and topic where the platform puts them in the body (Stripe). */
export function idsInBody(platform: Platform, body: unknown): { deliveryId?: string; topic?: string } {
  const o = obj(body);
  const str = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : undefined;
  if (platform === 'stripe') return { deliveryId: str(o?.id), topic: str(o?.type) };
  if (platform === 'webhook') return { topic: str(o?.type) };
  return {};
}
