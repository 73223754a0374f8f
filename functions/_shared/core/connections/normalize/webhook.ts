// The `webhook` platform: any shop sends `{"type","timestamp","data"}`; orders carry
// `{"order_id","email","name"?,"locale"?,"country"?,"items":[{"product_external_id","quantity"?,
// "refunded"?}]}`, products the catalog's product fields, customer.redact `{"email"}`.
import { country, defined, email, idText, items, locale, need, text, time } from './read.ts';
import type { Action, EventContext, OrderEventType } from './types.ts';
import { Refusal } from './types.ts';

const ORDER_TYPES: Record<string, OrderEventType> = {
  'order.created': 'created',
  'order.paid': 'paid',
  'order.fulfilled': 'fulfilled',
  'order.delivered': 'delivered',
  'order.cancelled': 'cancelled',
  'order.refunded': 'refunded',
};

export function normalizeWebhook(body: unknown, ctx: EventContext): Action[] {
  const event = need(body, 'body');
  const data = need(event.data, 'data');
  const at = time(event.timestamp) ?? ctx.receivedAt;
  const type = ORDER_TYPES[ctx.topic];
  if (type) {
    const orderId = idText(data.order_id, 'data.order_id');
    if (!orderId) throw new Refusal('data.order_id: required');
    const given = items(data.items, (i) => i.product_external_id, 'data.items');
    return [{
      kind: 'order',
      type,
      occurredAt: at,
      order: defined({
        order_id: orderId,
        email: email(data.email),
        name: text(data.name),
        locale: locale(data.locale),
        country: country(data.country),
        items: given,
      }),
    }];
  }
  switch (ctx.topic) {
    case 'product.upserted': {
      const id = idText(data.external_id, 'data.external_id');
      if (!id) throw new Refusal('data.external_id: required');
      return [{
        kind: 'product',
        deleted: false,
        product: defined({
          external_id: id,
          name: text(data.name, 200) ?? `Product ${id}`,
          url: text(data.url, 2048),
          image_url: text(data.image_url, 2048),
          sku: text(data.sku, 100),
          gtin: text(data.gtin, 14),
        }),
      }];
    }
    case 'product.deleted': {
      const id = idText(data.external_id, 'data.external_id');
      if (!id) throw new Refusal('data.external_id: required');
      return [{ kind: 'product', product: { external_id: id }, deleted: true }];
    }
    case 'customer.redact': {
      const address = email(data.email);
      if (!address) throw new Refusal('data.email: must be an e-mail address');
      return [{ kind: 'erase', email: address }];
    }
    default:
      return [{ kind: 'ignored' }];
  }
}
