// Shop connections in tests: connecting a tenant's shop, the platforms' fixtures, events signed as
// each platform documents (Shopify and WooCommerce: base64 HMAC-SHA256 with node:crypto; Stripe:
// its library's test header; the `webhook` platform: the Standard Webhooks library), and waiting
// for the worker to have processed a delivery.
import { createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import type { Tenant } from './db.ts';
import { api, type ApiResponse } from './http.ts';
import { eventually } from './receiver.ts';

const FIXTURES = path.join(process.cwd(), 'tests', 'fixtures', 'connections');

/** A fixture, parsed afresh (tests change it). */
export const fixture = (name: string): any => JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));

export const connectionsPath = (t: Tenant, rest = '') => `/api/v1/organizations/${t.org.id}/connections${rest}`;

export interface TestConnection {
  id: string;
  platform: string;
  secret: string;
  inbound: string;
}

const SECRETS: Record<string, () => string> = {
  shopify: () => `shpss_${randomUUID().replaceAll('-', '')}`,
  woocommerce: () => `wc_${randomUUID().replaceAll('-', '')}`,
  stripe: () => `whsec_${randomUUID().replaceAll('-', '')}`,
};

/** Connects a shop of the platform to the tenant; answers it with the secret that signs its events. */
export async function connect(
  t: Tenant,
  platform: string,
  fields: Record<string, unknown> = {},
): Promise<TestConnection> {
  const secret = SECRETS[platform]?.();
  const body = {
    platform,
    ...(platform === 'shopify' ? { shop_domain: `${t.org.slug}.myshopify.com`, webhook_secret: secret } : {}),
    ...(platform === 'woocommerce' ? { store_url: `https://${t.org.slug}.example.com`, webhook_secret: secret } : {}),
    ...(platform === 'stripe' ? { webhook_secret: secret } : {}),
    ...fields,
  };
  const res = await api('POST', connectionsPath(t), { key: t.keys.admin, body });
  expect(res.status).toBe(201);
  return {
    id: res.body.id,
    platform,
    secret: res.body.signing_secret ?? secret!,
    inbound: `/api/v1/connections/${res.body.id}/events`,
  };
}

/** The automation on, with the tenant's form, and the changes given. */
export async function automate(t: Tenant, formId: string, patch: Record<string, unknown> = {}) {
  const res = await api('PATCH', `/api/v1/organizations/${t.org.id}/review-requests/automation`, {
    key: t.keys.admin,
    body: { enabled: true, form_id: formId, ...patch },
  });
  expect(res.status).toBe(200);
  return res.body;
}

const stripe = new Stripe('sk_test_unused');
const hmacBase64 = (secret: string, body: string) => createHmac('sha256', secret).update(body, 'utf8').digest('base64');

export interface Delivery {
  topic?: string;
  id?: string;
  /** Unix seconds the signature is made at (Stripe, Standard Webhooks); now by default. */
  at?: number;
  /** Signs with another secret. */
  secret?: string;
  headers?: Record<string, string>;
}

/** The headers a platform sends with the body, signed. */
export function signed(c: TestConnection, body: string, d: Delivery = {}): Record<string, string> {
  const secret = d.secret ?? c.secret;
  const id = d.id ?? randomUUID();
  const at = d.at ?? Math.floor(Date.now() / 1000);
  const json = { 'content-type': 'application/json' };
  switch (c.platform) {
    case 'shopify':
      return {
        ...json,
        'x-shopify-hmac-sha256': hmacBase64(secret, body),
        'x-shopify-topic': d.topic ?? 'orders/create',
        'x-shopify-webhook-id': id,
        'x-shopify-shop-domain': 'shop.myshopify.com',
      };
    case 'woocommerce':
      return {
        ...json,
        'x-wc-webhook-signature': hmacBase64(secret, body),
        'x-wc-webhook-topic': d.topic ?? 'order.created',
        'x-wc-webhook-delivery-id': id,
        'x-wc-webhook-source': 'https://shop.example.com/',
      };
    case 'stripe':
      return {
        ...json,
        'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: at }),
      };
    default: {
      const signature = new Webhook(secret).sign(id, new Date(at * 1000), body);
      return { ...json, 'webhook-id': id, 'webhook-timestamp': String(at), 'webhook-signature': signature };
    }
  }
}

/** Sends a platform's event, signed as the platform does; answers the API's answer and the delivery id. */
export async function send(
  c: TestConnection,
  payload: unknown,
  d: Delivery = {},
): Promise<ApiResponse & { deliveryId: string }> {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const deliveryId = d.id ?? (c.platform === 'stripe' ? (payload as any).id : randomUUID());
  const headers = { ...signed(c, body, { ...d, id: deliveryId }), ...d.headers };
  const res = await api('POST', c.inbound, { rawBody: body, headers });
  return { ...res, deliveryId };
}

/** The connection's last events, as the test endpoint answers them. */
export async function lastEvents(t: Tenant, c: TestConnection): Promise<any[]> {
  const res = await api('POST', connectionsPath(t, `/${c.id}/test`), { key: t.keys.admin });
  expect(res.status).toBe(200);
  return res.body.events;
}

/** Waits until the worker has processed the delivery; answers its outcome. */
export async function processed(t: Tenant, c: TestConnection, deliveryId: string): Promise<string> {
  return await eventually(
    async () => {
      const event = (await lastEvents(t, c)).find((e) => e.delivery_id === deliveryId && e.processed_at);
      return event?.outcome;
    },
    15_000,
    `delivery ${deliveryId} processed`,
  );
}

/** Sends an event and waits for the worker to have processed it; answers the outcome. */
export async function deliver(t: Tenant, c: TestConnection, payload: unknown, d: Delivery = {}): Promise<string> {
  const res = await send(c, payload, d);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return await processed(t, c, res.deliveryId);
}

export async function getOrder(t: Tenant, orderId: string) {
  return await api('GET', `/api/v1/organizations/${t.org.id}/orders/${encodeURIComponent(orderId)}`, {
    key: t.keys.read,
  });
}

/** A Stripe event of the fixture's kind with an id of its own. */
export function stripeEvent(name: string, change: (e: any) => void = () => {}) {
  const e = fixture(name);
  e.id = `evt_${randomUUID().replaceAll('-', '')}`;
  change(e);
  return e;
}
