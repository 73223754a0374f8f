// Shopify's webhooks (REST payloads, as its docs show them) read into actions. Orders are known
// by their `name` (`#1001`, what the customer sees) and by their numeric id, which refunds and
// fulfillments name; items by `product_id`.
import { country, defined, email, idText, items, locale, need, obj, text, time } from './read.ts';
import type { Action, EventContext, OrderEventType, OrderFacts, ProductFacts } from './types.ts';
import { Refusal } from './types.ts';
import type { Json } from './read.ts';

const ORDER_TOPICS: Record<string, OrderEventType> = {
  'orders/create': 'created',
  'orders/paid': 'paid',
  'orders/fulfilled': 'fulfilled',
  'orders/partially_fulfilled': 'fulfilled',
  'orders/cancelled': 'cancelled',
};

function orderFacts(o: Json): OrderFacts {
  const customer = obj(o.customer) ?? {};
  const address = obj(o.shipping_address) ?? obj(o.billing_address) ?? {};
  const person = [text(customer.first_name, 100), text(customer.last_name, 100)].filter(Boolean).join(' ');
  const orderId = idText(o.name, 'name') ?? idText(o.order_number, 'order_number');
  if (!orderId) throw new Refusal('name: the order has no name');
  return defined({
    order_id: orderId,
    platform_order_id: idText(o.id, 'id'),
    email: email(o.email) ?? email(o.contact_email) ?? email(customer.email),
    name: text(person) ?? text(address.name),
    locale: locale(o.customer_locale) ?? locale(customer.locale),
    country: country(address.country_code) ?? country(obj(o.billing_address)?.country_code),
    items: items(o.line_items, (i) => i.product_id, 'line_items'),
  });
}

/** When the order's event happened, by the field Shopify stamps it with. */
function orderTime(o: Json, type: OrderEventType, ctx: EventContext): string {
  const fulfillments = Array.isArray(o.fulfillments) ? o.fulfillments.map(obj).filter(Boolean) as Json[] : [];
  const firstFulfilment = fulfillments.map((f) => time(f.created_at)).filter(Boolean).sort()[0];
  const at = type === 'created'
    ? time(o.created_at)
    : type === 'paid'
    ? time(o.processed_at) ?? time(o.updated_at)
    : type === 'fulfilled'
    ? firstFulfilment ?? time(o.updated_at)
    : time(o.cancelled_at) ?? time(o.updated_at);
  return at ?? ctx.receivedAt;
}

/** A fulfillment names its order as `#1001.1`: the order's name and the fulfilment's number. */
function fulfilmentOrder(f: Json): OrderFacts {
  const name = idText(f.name, 'name');
  const orderId = name?.replace(/\.\d+$/, '');
  const platformId = idText(f.order_id, 'order_id');
  if (!orderId && !platformId) throw new Refusal('order_id: the fulfillment names no order');
  return defined({ order_id: orderId, platform_order_id: platformId, email: email(f.email) });
}

function product(p: Json, ctx: EventContext): ProductFacts {
  const id = idText(p.id, 'id');
  if (!id) throw new Refusal('id: the product has no id');
  const variants = Array.isArray(p.variants) ? p.variants.map(obj).filter(Boolean) as Json[] : [];
  const images = Array.isArray(p.images) ? p.images.map(obj).filter(Boolean) as Json[] : [];
  const handle = text(p.handle, 200);
  const shop = ctx.settings.shop_domain;
  return defined({
    external_id: id,
    name: text(p.title, 200) ?? `Product ${id}`,
    url: shop && handle ? `https://${shop}/products/${encodeURIComponent(handle)}` : undefined,
    image_url: text(obj(p.image)?.src, 2048) ?? text(images[0]?.src, 2048),
    sku: variants.map((v) => text(v.sku, 100)).find(Boolean),
    gtin: variants.map((v) => text(v.barcode, 14)).find((b) => b && /^\d{8,14}$/.test(b)),
  });
}

export function normalizeShopify(body: unknown, ctx: EventContext): Action[] {
  const o = need(body, 'body');
  const type = ORDER_TOPICS[ctx.topic];
  if (type) return [{ kind: 'order', type, occurredAt: orderTime(o, type, ctx), order: orderFacts(o) }];
  switch (ctx.topic) {
    case 'fulfillments/create':
      return [{
        kind: 'order',
        type: 'fulfilled',
        occurredAt: time(o.created_at) ?? ctx.receivedAt,
        order: fulfilmentOrder(o),
      }];
    case 'fulfillments/update':
      if (o.shipment_status !== 'delivered') return [{ kind: 'ignored' }];
      return [{
        kind: 'order',
        type: 'delivered',
        occurredAt: time(o.updated_at) ?? ctx.receivedAt,
        order: fulfilmentOrder(o),
      }];
    case 'refunds/create': {
      const platformId = idText(o.order_id, 'order_id');
      if (!platformId) throw new Refusal('order_id: the refund names no order');
      const lines = Array.isArray(o.refund_line_items) ? o.refund_line_items : [];
      const refunded = lines.map((l) => idText(obj(obj(l)?.line_item)?.product_id, 'refund_line_items.product_id'))
        .filter((x): x is string => Boolean(x));
      if (refunded.length === 0) return [{ kind: 'ignored' }]; // a refund of shipping or an amount alone
      return [{
        kind: 'order',
        type: 'partially_refunded',
        occurredAt: time(o.created_at) ?? ctx.receivedAt,
        order: { platform_order_id: platformId, refunded_items: refunded.slice(0, 100) },
      }];
    }
    case 'products/create':
    case 'products/update':
      return [{ kind: 'product', product: product(o, ctx), deleted: false }];
    case 'products/delete': {
      const id = idText(o.id, 'id');
      if (!id) throw new Refusal('id: the product has no id');
      return [{ kind: 'product', product: { external_id: id }, deleted: true }];
    }
    case 'customers/redact':
    case 'customers/data_request': {
      const address = email(obj(o.customer)?.email);
      if (!address) return [{ kind: 'ignored' }];
      return [
        ctx.topic === 'customers/redact' ? { kind: 'erase', email: address } : {
          kind: 'data_request',
          email: address,
        },
      ];
    }
    case 'shop/redact':
      return [{ kind: 'erase', email: null }];
    default:
      return [{ kind: 'ignored' }];
  }
}
