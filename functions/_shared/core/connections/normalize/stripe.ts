// Stripe's events read into actions: a completed Checkout Session is a paid order (its id the
// session's `client_reference_id`, else the session id; its products the external ids listed in
// `metadata.plaudit_products`), and a charge refunded in full refunds the order its payment
// intent paid. Its time is the event's `created`.
import { defined, email, idText, locale, need, obj, text, time } from './read.ts';
import type { Action, EventContext } from './types.ts';
import { Refusal } from './types.ts';

export function normalizeStripe(body: unknown, ctx: EventContext): Action[] {
  const event = need(body, 'body');
  const object = need(obj(event.data)?.object, 'data.object');
  const at = time(event.created) ?? ctx.receivedAt;
  switch (ctx.topic) {
    case 'checkout.session.completed': {
      const sessionId = idText(object.id, 'data.object.id');
      if (!sessionId) throw new Refusal('data.object.id: the session has no id');
      const details = obj(object.customer_details) ?? {};
      const listed = text(obj(object.metadata)?.plaudit_products, 5000);
      const products = listed ? [...new Set(listed.split(',').map((s) => s.trim()).filter(Boolean))] : [];
      if (products.length > 100) throw new Refusal('metadata.plaudit_products: at most 100 products');
      if (products.some((p) => p.length > 200)) {
        throw new Refusal('metadata.plaudit_products: ids of at most 200 characters');
      }
      // A delayed payment method completes the session unpaid: the order exists, not yet paid.
      const paid = object.payment_status === undefined || object.payment_status !== 'unpaid';
      return [{
        kind: 'order',
        type: paid ? 'paid' : 'created',
        occurredAt: at,
        order: defined({
          order_id: idText(object.client_reference_id, 'data.object.client_reference_id') ?? sessionId,
          platform_order_id: idText(object.payment_intent, 'data.object.payment_intent'),
          email: email(details.email) ?? email(object.customer_email),
          name: text(details.name),
          locale: locale(object.locale),
          country: typeof obj(details.address)?.country === 'string'
            ? String(obj(details.address)!.country).toUpperCase().slice(0, 2)
            : undefined,
          items: products.map((p) => ({ product_external_id: p })),
        }),
      }];
    }
    case 'charge.refunded': {
      if (object.refunded !== true) return [{ kind: 'ignored' }]; // a partial refund names no product
      const intent = idText(object.payment_intent, 'data.object.payment_intent');
      if (!intent) return [{ kind: 'ignored' }];
      return [{ kind: 'order', type: 'refunded', occurredAt: at, order: { platform_order_id: intent } }];
    }
    default:
      return [{ kind: 'ignored' }];
  }
}
