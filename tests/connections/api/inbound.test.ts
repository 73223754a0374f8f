// The platforms' inbound door: the signature over the raw body is the only credential. A missing,
// wrong or stale signature, or a disconnected connection, answers 401 and stores nothing; unknown
// ids 404; WooCommerce's unsigned ping 200, recording nothing; a signed event that cannot be read
// answers 4xx (never 5xx) and is recorded as refused; each connection has its own rate limit (429,
// the platform delivers again).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { ownApiServer } from '../../helpers/reviews.ts';
import {
  connect,
  fixture,
  lastEvents,
  send,
  signed,
  stripeEvent,
  type TestConnection,
} from '../../helpers/connections.ts';

const stored = async (c: TestConnection) =>
  (await db`select count(*)::integer as n from plaudit.connection_events where connection_id = ${c.id}`)[0].n;

async function allFour(t: Tenant) {
  return {
    shopify: await connect(t, 'shopify'),
    woocommerce: await connect(t, 'woocommerce'),
    stripe: await connect(t, 'stripe'),
    webhook: await connect(t, 'webhook'),
  };
}

const payloads: Record<string, () => any> = {
  shopify: () => fixture('shopify-order'),
  woocommerce: () => fixture('woocommerce-order'),
  stripe: () => stripeEvent('stripe-checkout-session-completed'),
  webhook: () => fixture('webhook-order'),
};

describe('signatures', () => {
  it('each platform: a missing or wrong signature answers 401 and stores nothing; the right one 200', async () => {
    const t = await createTenant();
    for (const [platform, c] of Object.entries(await allFour(t))) {
      const body = JSON.stringify(payloads[platform]());
      const unsigned = await api('POST', c.inbound, { rawBody: body, headers: { 'content-type': 'application/json' } });
      expect(unsigned.status, platform).toBe(401);
      const named = platform === 'stripe' ? undefined : 'delivery-named-by-the-wrong-one'; // Stripe's: the body's
      const wrong = await send(c, body, {
        id: named,
        secret: platform === 'webhook' ? `whsec_${btoa('another secret of 24 b!')}` : 'whsec_wrong',
      });
      expect(wrong.status, platform).toBe(401);
      // The signature of another body.
      const tampered = await api('POST', c.inbound, { rawBody: body.replace('"', ' "'), headers: signed(c, body) });
      expect(tampered.status, platform).toBe(401);
      expect(await stored(c), platform).toBe(0);
      // The event is stored in the call that answers the secret, and rolled back: not even the stamp stays.
      const [conn] = await db`select last_event_at from plaudit.connections where id = ${c.id}`;
      expect(conn.last_event_at, platform).toBeNull();
      // The delivery id a wrong signature named is not taken: the platform's signed delivery is accepted.
      const ok = await send(c, body, { id: named });
      expect(ok.status, platform).toBe(200);
      expect(ok.body.outcome, platform).toBe('accepted');
      expect(await stored(c), platform).toBe(1);
    }
  });

  it("another platform's signature header is read as that platform's and stores nothing unless the connection's holds", async () => {
    const t = await createTenant();
    const { shopify, stripe } = await allFour(t);
    const body = JSON.stringify(payloads.shopify());
    // Shopify's headers, signed with the Stripe connection's own secret: not Stripe's signature.
    const asShopify = await api('POST', stripe.inbound, {
      rawBody: body,
      headers: signed({ ...shopify, secret: stripe.secret }, body),
    });
    expect(asShopify.status).toBe(401);
    expect(asShopify.body.message).toBe('Invalid webhook signature: missing Stripe-Signature');
    expect(await stored(stripe)).toBe(0);
    // The connection's own signature with another platform's header beside it: read and stored as its own.
    const event = payloads.stripe();
    const stripeBody = JSON.stringify(event);
    const both = await api('POST', stripe.inbound, {
      rawBody: stripeBody,
      headers: { ...signed(shopify, stripeBody), ...signed(stripe, stripeBody) },
    });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body).toEqual({ received: true, outcome: 'accepted' });
    const [row] = await db`select delivery_id, topic from plaudit.connection_events where connection_id = ${stripe.id}`;
    expect(row).toEqual({ delivery_id: event.id, topic: event.type });
  });

  it('Stripe and Standard Webhooks signatures older than 300 seconds are replays: 401, nothing stored', async () => {
    const t = await createTenant();
    const { stripe, webhook } = await allFour(t);
    const old = Math.floor(Date.now() / 1000) - 400;
    expect((await send(stripe, payloads.stripe(), { at: old })).status).toBe(401);
    expect((await send(webhook, payloads.webhook(), { at: old })).status).toBe(401);
    expect((await send(webhook, payloads.webhook(), { at: old + 800 })).status).toBe(401);
    expect(await stored(stripe) + await stored(webhook)).toBe(0);
  });

  it("unknown and malformed connection ids answer 404; another connection's secret does not sign for it", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const mine = await connect(t, 'shopify');
    const theirs = await connect(other, 'shopify');
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const res = await api('POST', `/api/v1/connections/${id}/events`, { rawBody: '{}', headers: signed(mine, '{}') });
      expect(res.status).toBe(404);
    }
    const body = JSON.stringify(payloads.shopify());
    const crossed = await api('POST', theirs.inbound, { rawBody: body, headers: signed(mine, body) });
    expect(crossed.status).toBe(401);
    expect(await stored(theirs)).toBe(0);
  });

  it("WooCommerce's unsigned form-encoded ping answers 200 and records nothing", async () => {
    const t = await createTenant();
    const c = await connect(t, 'woocommerce');
    const ping = await api('POST', c.inbound, {
      rawBody: 'webhook_id=15',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(ping.status).toBe(200);
    expect(ping.body).toEqual({ received: true, outcome: 'ping' });
    expect(await stored(c)).toBe(0);
    const [conn] = await db`select last_event_at from plaudit.connections where id = ${c.id}`;
    expect(conn.last_event_at).toBeNull();
  });
});

describe('signed events that cannot be read', () => {
  it('answer 4xx, never 5xx, and are recorded as refused for the test endpoint', async () => {
    const t = await createTenant();
    const c = await connect(t, 'shopify');
    const hook = await connect(t, 'webhook');
    const tooMany = fixture('shopify-order');
    tooMany.line_items = Array.from({ length: 101 }, (_, i) => ({ product_id: i + 1, quantity: 1 }));
    const cases: [TestConnection, string, Record<string, unknown>, number][] = [
      [c, '{"name": "#1", ', { topic: 'orders/create' }, 400],
      [c, '\u00ff\u00fe binary', { topic: 'orders/create' }, 400],
      [c, JSON.stringify(tooMany), { topic: 'orders/create' }, 422],
      [c, JSON.stringify({ ...fixture('shopify-order'), name: 'x'.repeat(201) }), { topic: 'orders/create' }, 422],
      [c, JSON.stringify({ note: 'x'.repeat(20_001) }), { topic: 'orders/create' }, 422],
      [c, JSON.stringify([1, 2]), { topic: 'orders/create' }, 422],
      [c, JSON.stringify(fixture('shopify-order')), { headers: { 'x-shopify-topic': '' } }, 400],
      [hook, JSON.stringify({ type: 'order.created', data: { email: 'x@example.com' } }), {}, 422],
      [hook, JSON.stringify({ type: 'customer.redact', data: { email: 'not an address' } }), {}, 422],
    ];
    for (const [conn, body, d, status] of cases) {
      const res = await send(conn, body, d as any);
      expect(res.status, body.slice(0, 60)).toBe(status);
      expect(res.body.statusCode).toBe(status);
    }
    const outcomes = (await lastEvents(t, c)).map((e) => e.outcome);
    expect(outcomes).toHaveLength(7);
    expect(outcomes.every((o) => o.startsWith('refused: '))).toBe(true);
    expect(outcomes).toContain('refused: line_items: at most 100 items');
    expect(outcomes).toContain('refused: body: malformed JSON');
    const [{ n }] = await db`select count(*)::integer as n from plaudit.connection_events
                             where org_id = ${t.org.id} and payload is not null`;
    expect(n).toBe(0);
  });

  it('a body over the size limit answers 413', async () => {
    const t = await createTenant();
    const c = await connect(t, 'shopify');
    const body = JSON.stringify({ notes: Array.from({ length: 40 }, () => 'x'.repeat(15_000)) });
    const res = await send(c, body, { topic: 'orders/create' });
    expect(res.status).toBe(413);
  });
});

describe('rate limit per connection', () => {
  const server = ownApiServer({ CONNECTION_EVENTS_PER_MINUTE: '3' });

  it('answers 429 with Retry-After past the limit, for that connection only; nothing is lost', async () => {
    const t = await createTenant();
    const c = await connect(t, 'webhook');
    const other = await connect(t, 'webhook');
    const post = (conn: TestConnection, body: string, id = randomUUID()) =>
      server.call('POST', conn.inbound, { rawBody: body, headers: signed(conn, body, { id }) });
    const body = JSON.stringify(fixture('webhook-order'));
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await post(c, body)).status);
    expect(answers).toEqual([200, 200, 200, 429]);
    const limited = await post(c, body);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await post(other, body)).status).toBe(200);
    expect(await stored(c)).toBe(3);
  });
});
