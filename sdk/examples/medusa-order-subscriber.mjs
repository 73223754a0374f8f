// A Medusa (v2) subscriber that tells Plaudit about the store's orders, so that every customer is
// asked for a review once, at the right time. Plaudit's side is a `webhook` connection:
//
//   const shop = await plaudit.connections.create({ platform: 'webhook', name: 'Medusa store' });
//   // shop.inbound_url → PLAUDIT_INBOUND_URL, shop.signing_secret (shown once) → PLAUDIT_SIGNING_SECRET
//
// Copy this file to src/subscribers/ of the Medusa application (and `npm install standardwebhooks`).
// Each event is POSTed as {"type","timestamp","data"} and signed with Standard Webhooks; its
// webhook-id is made of the Medusa event and its record, so a repeated event changes nothing.
//
// To try it without Medusa, post an order kept in a file (the shape `query.graph` answers):
//
//   PLAUDIT_INBOUND_URL=… PLAUDIT_SIGNING_SECRET=whsec_… node medusa-order-subscriber.mjs order.json order.placed
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';

/** Medusa's events and the order events Plaudit understands. */
const TYPES = {
  'order.placed': 'order.created',
  'order.fulfillment_created': 'order.fulfilled',
  'order.canceled': 'order.cancelled',
};

/** The fields of an order the event needs, as Medusa's query.graph names them. */
const ORDER_FIELDS = [
  'id',
  'display_id',
  'email',
  'created_at',
  'shipping_address.first_name',
  'shipping_address.last_name',
  'shipping_address.country_code',
  'items.product_id',
  'items.quantity',
];

/** Plaudit's event for a Medusa order: `order_id` is what the customer sees (Medusa's display id). */
export function plauditEvent(medusaEvent, order, at = new Date()) {
  const type = TYPES[medusaEvent];
  if (!type) throw new Error(`Plaudit has no event for Medusa's ${medusaEvent}`);
  const address = order.shipping_address ?? {};
  const name = [address.first_name, address.last_name].filter(Boolean).join(' ');
  return {
    type,
    timestamp: at.toISOString(),
    data: {
      order_id: String(order.display_id ?? order.id),
      email: order.email,
      ...(name ? { name } : {}),
      ...(address.country_code ? { country: address.country_code.toUpperCase() } : {}),
      items: (order.items ?? []).filter((i) => i.product_id).map((i) => ({
        product_external_id: i.product_id,
        quantity: i.quantity ?? 1,
      })),
    },
  };
}

/** Signs the event with the connection's secret and POSTs it; answers Plaudit's `{received, outcome}`. */
export async function postToPlaudit(event, deliveryId, {
  inboundUrl = process.env.PLAUDIT_INBOUND_URL,
  secret = process.env.PLAUDIT_SIGNING_SECRET,
} = {}) {
  if (!inboundUrl || !secret) throw new Error('Set PLAUDIT_INBOUND_URL and PLAUDIT_SIGNING_SECRET');
  const body = JSON.stringify(event);
  const at = new Date();
  const res = await fetch(inboundUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': deliveryId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(deliveryId, at, body),
    },
    body,
  });
  // Throwing makes Medusa's event bus try the subscriber again later.
  if (!res.ok) throw new Error(`Plaudit answered ${res.status}: ${await res.text()}`);
  return await res.json();
}

/** The subscriber: reads the order the event names and posts it. */
export default async function plauditOrders({ event, container }) {
  const query = container.resolve('query');
  const orderId = event.data.order_id ?? event.data.id;
  const { data: [order] } = await query.graph({ entity: 'order', fields: ORDER_FIELDS, filters: { id: orderId } });
  if (!order) return;
  await postToPlaudit(plauditEvent(event.name, order), `medusa:${event.name}:${event.data.id}`);
}

export const config = { event: Object.keys(TYPES) };

// Run directly: post an order from a file.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, medusaEvent = 'order.placed'] = process.argv.slice(2);
  if (!file) throw new Error('usage: node medusa-order-subscriber.mjs order.json [order.placed]');
  const order = JSON.parse(readFileSync(file, 'utf8'));
  const answer = await postToPlaudit(plauditEvent(medusaEvent, order), `medusa:${medusaEvent}:${order.id}`);
  console.log(`${medusaEvent} of order ${order.display_id ?? order.id}: ${answer.outcome}`);
}
