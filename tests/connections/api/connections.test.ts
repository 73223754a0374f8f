// Connections over HTTP: made by admins, one per platform with its own fields; secrets are never
// answered after creation (a `webhook` connection's is made by the service and shown once); a
// deleted connection's events answer 404; bad input is a 4xx that changes nothing; the automation
// settings; the orders list's filters.
import { describe, expect, it } from 'vitest';
import { createTenant, db } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { connect, connectionsPath, fixture, send } from '../../helpers/connections.ts';

const KEYS = ['created_at', 'id', 'inbound_url', 'last_event_at', 'name', 'platform', 'settings', 'status'];

describe('creating connections', () => {
  it("answers each platform's connection; only a webhook connection gets a secret, made by the service, once", async () => {
    const t = await createTenant();
    const shopify = await api('POST', connectionsPath(t), {
      key: t.keys.admin,
      body: {
        platform: 'shopify',
        shop_domain: 'Acme.myshopify.com',
        webhook_secret: 'shpss_1',
        access_token: 'shpat_1',
      },
    });
    expect(shopify.status).toBe(201);
    expect(Object.keys(shopify.body).sort()).toEqual(KEYS);
    expect(shopify.body).toMatchObject({
      platform: 'shopify',
      name: 'acme.myshopify.com',
      status: 'active',
      last_event_at: null,
      settings: { shop_domain: 'acme.myshopify.com', write_back: true },
    });
    expect(shopify.body.inbound_url).toMatch(new RegExp(`/api/v1/connections/${shopify.body.id}/events$`));
    const hook = await api('POST', connectionsPath(t), {
      key: t.keys.admin,
      body: { platform: 'webhook', name: 'Medusa' },
    });
    expect(hook.status).toBe(201);
    expect(hook.body.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(hook.body.signing_secret.slice(6), 'base64')).toHaveLength(24);
    const woo = await connect(t, 'woocommerce');
    const stripe = await connect(t, 'stripe');

    const list = await api('GET', connectionsPath(t), { key: t.keys.admin });
    expect(list.body.meta).toMatchObject({ total: 4 });
    const text = JSON.stringify(list.body) +
      JSON.stringify((await api('GET', connectionsPath(t, `/${hook.body.id}`), { key: t.keys.admin })).body);
    for (const secret of ['shpss_1', 'shpat_1', hook.body.signing_secret, woo.secret, stripe.secret]) {
      expect(text).not.toContain(secret);
    }
    expect(list.body.data.every((c: any) => Object.keys(c).sort().join() === KEYS.join())).toBe(true);
  });

  it('refuses what does not fit its platform with a 422 that stores nothing; admins only', async () => {
    const t = await createTenant();
    const bad = [
      { platform: 'magento' },
      { platform: 'shopify', shop_domain: 'acme.com', webhook_secret: 'x' },
      { platform: 'shopify', shop_domain: 'acme.myshopify.com' },
      { platform: 'woocommerce', store_url: 'ftp://shop', webhook_secret: 'x' },
      { platform: 'stripe', webhook_secret: 'sk_live_x' },
      { platform: 'webhook', name: 'x'.repeat(201) },
    ];
    for (const body of bad) {
      const res = await api('POST', connectionsPath(t), { key: t.keys.admin, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity'));
    }
    const write = await api('POST', connectionsPath(t), { key: t.keys.write, body: { platform: 'webhook' } });
    expect(write.status).toBe(403);
    expect((await api('GET', connectionsPath(t), { key: t.keys.read })).status).toBe(403);
    const [{ n }] = await db`select count(*)::integer as n from plaudit.connections where org_id = ${t.org.id}`;
    expect(n).toBe(0);
  });
});

describe('changing and deleting connections', () => {
  it("patches the name, the secret and the status; a disconnected connection's events answer 401", async () => {
    const t = await createTenant();
    const c = await connect(t, 'shopify');
    const wrong = await api('PATCH', connectionsPath(t, `/${c.id}`), {
      key: t.keys.admin,
      body: { store_url: 'https://x.example' },
    });
    expect(wrong.status).toBe(422);
    const renamed = await api('PATCH', connectionsPath(t, `/${c.id}`), {
      key: t.keys.admin,
      body: { name: 'Main shop', status: 'disconnected', access_token: 'shpat_2' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Main shop', status: 'disconnected', settings: { write_back: true } });
    const o = fixture('shopify-order');
    expect((await send(c, o, { topic: 'orders/create' })).status).toBe(401);
    await api('PATCH', connectionsPath(t, `/${c.id}`), {
      key: t.keys.admin,
      body: { status: 'active', webhook_secret: 'shpss_new' },
    });
    expect((await send(c, o, { topic: 'orders/create' })).status).toBe(401);
    expect((await send({ ...c, secret: 'shpss_new' }, o, { topic: 'orders/create' })).status).toBe(200);
  });

  it('DELETE answers 204; the connection is gone and its events answer 404; its orders stay', async () => {
    const t = await createTenant();
    const c = await connect(t, 'webhook');
    const order = {
      type: 'order.created',
      timestamp: new Date().toISOString(),
      data: { order_id: 'K-1', email: 'k@example.com' },
    };
    expect((await send(c, order)).status).toBe(200);
    await db`insert into plaudit.orders (org_id, order_id, connection_id) values (${t.org.id}, 'K-2', ${c.id})`;
    const del = await api('DELETE', connectionsPath(t, `/${c.id}`), { key: t.keys.admin });
    expect(del.status).toBe(204);
    expect((await api('DELETE', connectionsPath(t, `/${c.id}`), { key: t.keys.admin })).status).toBe(404);
    expect((await api('GET', connectionsPath(t, `/${c.id}`), { key: t.keys.admin })).status).toBe(404);
    expect((await api('POST', connectionsPath(t, `/${c.id}/test`), { key: t.keys.admin })).status).toBe(404);
    const after = await send(c, order);
    expect(after.status).toBe(404);
    expect((await api('GET', connectionsPath(t), { key: t.keys.admin })).body.data).toEqual([]);
    const [{ n }] = await db`select count(*)::integer as n from plaudit.orders where org_id = ${t.org.id}`;
    expect(n).toBe(1);
    const [row] = await db`select secret, access_token from plaudit.connections where id = ${c.id}`;
    expect(row).toEqual({ secret: null, access_token: null });
  });
});

describe('the automation settings', () => {
  it("answers the defaults, takes changes within bounds and refuses another organization's form", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const path = `/api/v1/organizations/${t.org.id}/review-requests/automation`;
    const initial = await api('GET', path, { key: t.keys.admin });
    expect(initial.body).toEqual({
      enabled: false,
      trigger: 'fulfilled',
      delay_days: 7,
      form_id: null,
      exclude_products: [],
    });
    expect((await api('PATCH', path, { key: t.keys.admin, body: { enabled: true } })).status).toBe(422);
    expect((await api('PATCH', path, { key: t.keys.admin, body: { delay_days: 91 } })).status).toBe(422);
    expect((await api('PATCH', path, { key: t.keys.admin, body: { trigger: 'shipped' } })).status).toBe(422);
    const theirs = await createForm(other);
    expect((await api('PATCH', path, { key: t.keys.admin, body: { form_id: theirs.id } })).status).toBe(422);
    const form = await createForm(t);
    const res = await api('PATCH', path, {
      key: t.keys.admin,
      body: {
        enabled: true,
        form_id: form.id,
        trigger: 'delivered',
        delay_days: 0,
        exclude_products: ['GIFT', 'GIFT'],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      enabled: true,
      trigger: 'delivered',
      delay_days: 0,
      form_id: form.id,
      exclude_products: ['GIFT'],
    });
    expect((await api('GET', path, { key: t.keys.write })).status).toBe(403);
  });
});

describe('orders', () => {
  it('lists orders newest first with filters; an unknown order answers 404', async () => {
    const t = await createTenant();
    const c = await connect(t, 'webhook');
    await db`insert into plaudit.orders (org_id, order_id, email, connection_id, platform, status, created_at) values
      (${t.org.id}, 'A-1', 'ann@example.com', ${c.id}, 'webhook', 'paid', now() - interval '2 minutes'),
      (${t.org.id}, 'A-2', 'Bob@example.com', ${c.id}, 'webhook', 'fulfilled', now() - interval '1 minute'),
      (${t.org.id}, 'A-3', 'bob@example.com', null, null, null, now())`;
    const ids = async (q: string) =>
      (await api('GET', `/api/v1/organizations/${t.org.id}/orders${q}`, { key: t.keys.read })).body.data.map((o: any) =>
        o.order_id
      );
    expect(await ids('')).toEqual(['A-3', 'A-2', 'A-1']);
    expect(await ids('?status=paid')).toEqual(['A-1']);
    expect(await ids('?email=BOB@example.com')).toEqual(['A-3', 'A-2']);
    expect(await ids(`?connection_id=${c.id}&limit=1`)).toEqual(['A-2']);
    expect((await api('GET', `/api/v1/organizations/${t.org.id}/orders?status=lost`, { key: t.keys.read })).status)
      .toBe(400);
    const missing = await api('GET', `/api/v1/organizations/${t.org.id}/orders/nope`, { key: t.keys.read });
    expect(missing.status).toBe(404);
  });
});
