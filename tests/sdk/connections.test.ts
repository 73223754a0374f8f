// The SDK's connections, orders and automation namespaces against the API under test: a shop
// connected, read back without its secrets, renamed, its last events, removed; the automation
// read and changed; orders listed and read by the id the customer sees; an admin's routes refused
// to a read key with the SDK's own error.
import { describe, expect, it } from 'vitest';
import { NotFoundError, PermissionError } from '../../sdk/src/index.ts';
import { send, type TestConnection } from '../helpers/connections.ts';
import { createTenant } from '../helpers/db.ts';
import { eventually } from '../helpers/receiver.ts';
import { createForm } from '../helpers/review-requests.ts';
import { startWorker } from '../helpers/worker.ts';
import { client } from './helpers.ts';

describe('plaudit.connections, plaudit.orders, plaudit.automation', () => {
  it('connects a shop, reads it without secrets, renames it, lists its events and removes it', async () => {
    const t = await createTenant();
    const plaudit = client(t, 'admin');
    const shop = await plaudit.connections.create({
      platform: 'shopify',
      shop_domain: `${t.org.slug}.myshopify.com`,
      webhook_secret: 'shpss_sdk-secret',
      access_token: 'shpat_sdk-token',
    });
    expect(shop).toMatchObject({ platform: 'shopify', status: 'active', last_event_at: null });
    expect(shop.inbound_url).toMatch(new RegExp(`/api/v1/connections/${shop.id}/events$`));
    expect(JSON.stringify(await plaudit.connections.get(shop.id))).not.toMatch(/shpss_|shpat_/);

    const { data } = await plaudit.connections.list();
    expect(data.map((c) => c.id)).toEqual([shop.id]);
    expect(await plaudit.connections.update(shop.id, { name: 'Main store' })).toMatchObject({ name: 'Main store' });

    const c: TestConnection = {
      id: shop.id,
      platform: 'shopify',
      secret: 'shpss_sdk-secret',
      inbound: `/api/v1/connections/${shop.id}/events`,
    };
    expect((await send(c, { id: 1, name: '#1' }, { topic: 'app/uninstalled' })).status).toBe(200);
    const { events } = await plaudit.connections.test(shop.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ topic: 'app/uninstalled' });

    await plaudit.connections.delete(shop.id);
    await expect(plaudit.connections.get(shop.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client(t, 'read').connections.list()).rejects.toBeInstanceOf(PermissionError);
  });

  it('reads and changes the automation, and reads orders by the id the customer sees', async () => {
    const t = await createTenant();
    const plaudit = client(t, 'admin');
    expect(await plaudit.automation.get()).toEqual({
      enabled: false,
      trigger: 'fulfilled',
      delay_days: 7,
      form_id: null,
      exclude_products: [],
    });
    const form = await createForm(t);
    expect(await plaudit.automation.update({ enabled: true, form_id: form.id, delay_days: 3 })).toMatchObject({
      enabled: true,
      form_id: form.id,
      delay_days: 3,
    });

    const worker = await startWorker([t.org.id]);
    try {
      const shop = await plaudit.connections.create({ platform: 'webhook' });
      const c: TestConnection = {
        id: shop.id,
        platform: 'webhook',
        secret: shop.signing_secret!,
        inbound: `/api/v1/connections/${shop.id}/events`,
      };
      const event = {
        type: 'order.created',
        timestamp: new Date().toISOString(),
        data: { order_id: '#A-1', email: 'ada@example.com', items: [{ product_external_id: 'MUG-1' }] },
      };
      expect((await send(c, event)).status).toBe(200);
      await eventually(
        async () => (await plaudit.orders.list({ connection_id: shop.id })).data.length === 1,
        15_000,
        'the order',
      );
      const order = await plaudit.orders.get('#A-1');
      expect(order).toMatchObject({ order_id: '#A-1', status: 'created', review_request: null, skipped: null });
      expect(order.events.map((e) => e.type)).toEqual(['created']);
      expect((await plaudit.orders.list({ status: 'paid' })).data).toEqual([]);
    } finally {
      await worker.stop();
    }
  });
});
