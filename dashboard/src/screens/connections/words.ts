// The Connections screens' words: platforms by name, what each event's outcome and each skipped
// order's reason mean in plain words, and an order's events as a shop owner says them.

import { type RequestStatus, STATUS_LABEL } from '../../ui/request-status.ts';

export type Platform = 'shopify' | 'woocommerce' | 'stripe' | 'webhook';

export const PLATFORMS: readonly (readonly [Platform, string, string])[] = [
  ['shopify', 'Shopify', 'Orders, fulfilments, refunds and products from your Shopify store.'],
  ['woocommerce', 'WooCommerce', 'Orders and products from your WordPress shop.'],
  ['stripe', 'Stripe', 'Paid Checkout sessions and refunds, for shops that sell through Stripe Checkout.'],
  ['webhook', 'Any other shop', 'Medusa, Saleor, Vendure or your own: events signed with Standard Webhooks.'],
];

export const platformName = (p: string | null | undefined) =>
  PLATFORMS.find(([v]) => v === p)?.[1] ?? (p ? p : 'Loaded through the API');

/** An inbound event's outcome, as the last-events panel says it. */
export function outcomeText(outcome: string): string {
  if (outcome === 'accepted') return 'Accepted';
  if (outcome === 'duplicate') return 'Already received (a repeat, ignored)';
  if (outcome === 'ignored') return 'Not an event Plaudit uses (ignored)';
  if (outcome.startsWith('refused: ')) return `Refused: ${outcome.slice('refused: '.length)}`;
  return outcome;
}

export function outcomeTone(outcome: string): 'good' | 'warn' | 'bad' | 'plain' {
  if (outcome === 'accepted') return 'good';
  if (outcome.startsWith('refused')) return 'bad';
  return 'plain';
}

/** Why an order made no review request, in the words a shop owner reads. */
export const SKIP_REASONS: Record<string, string> = {
  no_email: 'The order has no e-mail address, so there is nobody to ask.',
  suppressed: 'The customer’s address is on the suppression list (they unsubscribed, bounced or complained).',
  too_old: 'The order was more than 90 days old when it reached Plaudit.',
  automation_off: 'Automatic review requests were off when the order reached its trigger.',
  excluded: 'Every product of the order is excluded from review requests.',
};

export const skipText = (reason: string) => SKIP_REASONS[reason] ?? reason;

/** An order's status and timeline events. */
export const ORDER_EVENTS: Record<string, string> = {
  created: 'Order placed',
  paid: 'Paid',
  fulfilled: 'Shipped (fulfilled)',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refunded: 'Refunded in full',
  partially_refunded: 'Partly refunded',
};

export const orderEventText = (type: string) => ORDER_EVENTS[type] ?? type;

export const TRIGGERS: readonly (readonly ['fulfilled' | 'delivered' | 'paid', string, string])[] = [
  ['fulfilled', 'When it ships', 'The first fulfilment of any of the order’s items (a partial shipment counts).'],
  [
    'delivered',
    'When it is delivered',
    'Shopify’s “delivered” shipment status, or your own shop’s order.delivered event. Other platforms fall back to shipping.',
  ],
  ['paid', 'When it is paid', 'For things used at once: downloads, tickets, services.'],
];

/** A review request's status in the requests section's words. */
export const requestStatus = (s: string) => STATUS_LABEL[s as RequestStatus] ?? s;
