// A claimed batch of a shop's events: order events are applied a run in one call, each on its own,
// so that one that fails (a refund of an order not known yet) is left for its retry while the
// others are recorded; a product event between them is applied in its place.
import { afterAll, describe, expect, it } from 'vitest';
import { createTenant, db } from '../../helpers/db.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';
import { automate, connect, fixture, getOrder, processed, send } from '../../helpers/connections.ts';

const workers: TestWorker[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
});

const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().replace('.000Z', 'Z');

describe('A batch of connection events', () => {
  it('records every event but the one that fails, a product event in its place', async () => {
    const t = await createTenant();
    const form = await createForm(t);
    const c = await connect(t, 'shopify');
    await automate(t, form.id, { delay_days: 7 });
    const order = (name: string) => {
      const o = fixture('shopify-order');
      o.name = name;
      o.id = Number(name.replace(/\D/g, '')) * 1000 + 7;
      o.email = `jon+${o.id}@example.com`;
      o.customer.email = o.email;
      o.created_at = ago(3);
      return o;
    };
    const first = order('#1401');
    const second = order('#1402');
    const refund = { ...fixture('shopify-refund'), order_id: 999_999_001 };
    const product = { ...fixture('shopify-product'), id: 632910392 };
    // Stored before the worker starts, so that it claims them in one batch.
    const sent = [];
    for (
      const [payload, topic] of [
        [first, 'orders/create'],
        [second, 'orders/fulfilled'],
        [refund, 'refunds/create'],
        [product, 'products/update'],
        [{ ...first, fulfillment_status: 'fulfilled' }, 'orders/fulfilled'],
      ] as const
    ) {
      const res = await send(c, payload, { topic });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      sent.push(res.deliveryId);
    }
    const w = await startWorker([t.org.id]);
    workers.push(w);
    const [created, fulfilled, refunded, updated, firstFulfilled] = sent;
    for (const id of [created, fulfilled, updated, firstFulfilled]) expect(await processed(t, c, id)).toBe('accepted');

    const [left] = await db`select processed_at, attempts from plaudit.connection_events
                             where connection_id = ${c.id} and delivery_id = ${refunded}`;
    expect(left).toEqual({ processed_at: null, attempts: 1 });
    expect(w.logs).toContainEqual(expect.objectContaining({
      msg: 'connection event not processed',
      error: 'order_id: no order of this connection has this platform id yet',
    }));
    const [known] =
      await db`select name from plaudit.products where org_id = ${t.org.id} and external_id = '632910392'`;
    expect(known.name).toBe(product.title);
    for (const name of ['#1401', '#1402']) {
      const res = await getOrder(t, name);
      expect(res.body.status).toBe('fulfilled');
      expect(res.body.review_request.status).toBe('queued');
    }
    expect((await getOrder(t, '#1401')).body.events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['created', 'fulfilled']),
    );
  });
});
