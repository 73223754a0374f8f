// WooCommerce's webhooks (REST API v3 resources) read into actions. Orders are known by their
// `number` (what the customer sees) and their `id`; `order.updated` means what its `status` says.
// Times are the `_gmt` fields (UTC without a zone).
import { country, defined, email, idText, items, locale, need, obj, text, time } from './read.ts';
import type { Json } from './read.ts';
import type { Action, EventContext, OrderEventType, ProductFacts } from './types.ts';
import { Refusal } from './types.ts';

const BY_STATUS: Record<string, OrderEventType> = {
  processing: 'paid',
  completed: 'fulfilled',
  cancelled: 'cancelled',
  refunded: 'refunded',
};

function order(o: Json, type: OrderEventType, ctx: EventContext): Action {
  const billing = obj(o.billing) ?? {};
  const shipping = obj(o.shipping) ?? {};
  const orderId = idText(o.number, 'number') ?? idText(o.id, 'id');
  if (!orderId) throw new Refusal('number: the order has no number');
  const person = [text(billing.first_name, 100), text(billing.last_name, 100)].filter(Boolean).join(' ');
  const at = type === 'created'
    ? time(o.date_created_gmt)
    : type === 'paid'
    ? time(o.date_paid_gmt) ?? time(o.date_modified_gmt)
    : type === 'fulfilled'
    ? time(o.date_completed_gmt) ?? time(o.date_modified_gmt)
    : time(o.date_modified_gmt);
  // WooCommerce keeps no customer locale; a multilingual plugin's meta `wpml_language` is read.
  const meta = Array.isArray(o.meta_data) ? o.meta_data.map(obj).filter(Boolean) as Json[] : [];
  return {
    kind: 'order',
    type,
    occurredAt: at ?? ctx.receivedAt,
    order: defined({
      order_id: orderId,
      platform_order_id: idText(o.id, 'id'),
      email: email(billing.email),
      name: text(person),
      locale: locale(meta.find((m) => m.key === 'wpml_language')?.value),
      country: country(shipping.country) ?? country(billing.country),
      items: items(o.line_items, (i) => i.product_id, 'line_items'),
    }),
  };
}

function product(p: Json, ctx: EventContext): ProductFacts {
  const id = idText(p.id, 'id');
  if (!id) throw new Refusal('id: the product has no id');
  const images = Array.isArray(p.images) ? p.images.map(obj).filter(Boolean) as Json[] : [];
  const store = ctx.settings.store_url?.replace(/\/+$/, '');
  return defined({
    external_id: id,
    name: text(p.name, 200) ?? `Product ${id}`,
    url: text(p.permalink, 2048) ?? (store ? `${store}/?p=${encodeURIComponent(id)}` : undefined),
    image_url: text(images[0]?.src, 2048),
    sku: text(p.sku, 100),
    gtin: [text(p.global_unique_id, 14)].find((b) => b && /^\d{8,14}$/.test(b)),
  });
}

export function normalizeWooCommerce(body: unknown, ctx: EventContext): Action[] {
  const o = need(body, 'body');
  switch (ctx.topic) {
    case 'order.created':
      return [order(o, 'created', ctx)];
    case 'order.updated': {
      const type = BY_STATUS[String(o.status ?? '')];
      return type ? [order(o, type, ctx)] : [{ kind: 'ignored' }];
    }
    case 'order.deleted': {
      const id = idText(o.id, 'id');
      if (!id) throw new Refusal('id: the deletion names no order');
      return [{ kind: 'order', type: 'cancelled', occurredAt: ctx.receivedAt, order: { platform_order_id: id } }];
    }
    case 'product.created':
    case 'product.updated':
      return [{ kind: 'product', product: product(o, ctx), deleted: false }];
    case 'product.deleted': {
      const id = idText(o.id, 'id');
      if (!id) throw new Refusal('id: the product has no id');
      return [{ kind: 'product', product: { external_id: id }, deleted: true }];
    }
    default:
      return [{ kind: 'ignored' }];
  }
}
