// A Shopify shop end to end: its signed webhooks make the order, its timeline and exactly one
// review request at the first fulfilment's own time plus the delay, whatever repeats or comes out
// of order; delivery as the trigger; refunds drop products or cancel; the catalog follows its
// products; GDPR webhooks erase.
import { afterAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';
import { EVENT_DATA } from '../../../functions/_shared/api/routes/webhooks/events.ts';
import { automate, connect, deliver, fixture, getOrder, lastEvents, send } from '../../helpers/connections.ts';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString().replace('.000Z', 'Z');
const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY).toISOString();

const workers: TestWorker[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
});

async function shop() {
  const t = await createTenant();
  workers.push(await startWorker([t.org.id]));
  const form = await createForm(t);
  const c = await connect(t, 'shopify');
  await db`insert into plaudit.products (org_id, external_id, name) values
    (${t.org.id}, '632910392', 'IPod Nano'), (${t.org.id}, '921728736', 'IPod Touch')`;
  await automate(t, form.id, { delay_days: 7 });
  return { t, form, c, domain: `${t.org.slug}.example.com` };
}

/** The fixture's order, for this shop's customer, created `days` ago. */
function order(domain: string, name: string, createdDaysAgo = 3) {
  const o = fixture('shopify-order');
  o.name = name;
  o.id = Number(name.replace(/\D/g, '')) * 1000 + 7;
  o.email = `jon@${domain}`;
  o.customer.email = o.email;
  o.created_at = ago(createdDaysAgo);
  o.processed_at = o.created_at;
  o.updated_at = o.created_at;
  return o;
}

function fulfillment(o: any, at: string, shipment: string | null = null) {
  const f = fixture('shopify-fulfillment');
  f.order_id = o.id;
  f.name = `${o.name}.1`;
  f.created_at = at;
  f.updated_at = at;
  f.shipment_status = shipment;
  return f;
}

async function requestsOf(t: Tenant, orderId: string) {
  return await db`select id, status, send_at, external_id from plaudit.review_requests
                  where org_id = ${t.org.id} and order_id = ${orderId}`;
}

describe('Shopify', () => {
  it('an order makes one request at the first fulfilment plus the delay, whatever repeats', async () => {
    const { t, c, domain } = await shop();
    const o = order(domain, '#1001');
    expect(await deliver(t, c, o, { topic: 'orders/create' })).toBe('accepted');
    const fulfilledAt = ago(1);
    const f = fulfillment(o, fulfilledAt);
    const first = await send(c, f, { topic: 'fulfillments/create' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, outcome: 'accepted' });
    const again = await send(c, f, { topic: 'fulfillments/create', id: first.deliveryId });
    expect(again.body).toEqual({ received: true, outcome: 'duplicate' });
    // A second fulfilment, and the whole order's fulfilment, later: still one request.
    expect(await deliver(t, c, fulfillment(o, ago(0.5)), { topic: 'fulfillments/create' })).toBe('accepted');
    expect(await deliver(t, c, { ...o, fulfillments: [f] }, { topic: 'orders/fulfilled' })).toBe('accepted');

    const requests = await requestsOf(t, '#1001');
    expect(requests).toHaveLength(1);
    expect(requests[0].external_id).toBe(`order:${c.id}:#1001`);
    const res = await getOrder(t, '#1001');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      order_id: '#1001',
      connection_id: c.id,
      platform: 'shopify',
      email: `jon@${domain}`,
      name: 'John Smith',
      status: 'fulfilled',
      // Each item with the catalog's product of its id, for the dashboard to name.
      items: [
        {
          product_external_id: '632910392',
          quantity: 1,
          refunded: false,
          product: { id: expect.any(String), name: 'IPod Nano', image_url: null },
        },
        {
          product_external_id: '921728736',
          quantity: 1,
          refunded: false,
          product: { id: expect.any(String), name: 'IPod Touch', image_url: null },
        },
      ],
      events: [
        { type: 'created', occurred_at: expect.any(String), received_at: expect.any(String) },
        { type: 'fulfilled', occurred_at: new Date(fulfilledAt).toISOString(), received_at: expect.any(String) },
        { type: 'fulfilled', occurred_at: new Date(fulfilledAt).toISOString(), received_at: expect.any(String) },
        { type: 'fulfilled', occurred_at: expect.any(String), received_at: expect.any(String) },
      ],
      review_request: { id: requests[0].id, status: 'queued', send_at: plusDays(fulfilledAt, 7) },
      skipped: null,
    });
    const list = await api('GET', `/api/v1/organizations/${t.org.id}/orders?status=fulfilled&connection_id=${c.id}`, {
      key: t.keys.read,
    });
    expect(list.body.data.map((x: any) => x.order_id)).toEqual(['#1001']);
    expect(list.body.meta).toMatchObject({ total: 1 });
    // Purchase proof takes the order's name with or without #.
    const [proof] = await db`select plaudit.purchase_proof_refusal(${t.org.id}, '1001', ${`jon@${domain}`}, null) as r`;
    expect(proof.r).toBeNull();
  });
});

describe('Shopify, out of order and partial', () => {
  it('a fulfilment before the order still makes one request; the order arriving after keeps it fulfilled', async () => {
    const { t, c, domain } = await shop();
    const o = order(domain, '#1002');
    const at = ago(1);
    expect(await deliver(t, c, fulfillment(o, at), { topic: 'fulfillments/create' })).toBe('accepted');
    expect(await deliver(t, c, o, { topic: 'orders/create' })).toBe('accepted');
    expect(await deliver(t, c, o, { topic: 'orders/paid' })).toBe('accepted');
    const res = await getOrder(t, '#1002');
    expect(res.body.status).toBe('fulfilled');
    expect(res.body.review_request.send_at).toBe(plusDays(at, 7));
    expect(res.body.events.map((e: any) => e.type)).toEqual(['created', 'paid', 'fulfilled']);
    expect(await requestsOf(t, '#1002')).toHaveLength(1);
  });

  it('orders/partially_fulfilled is the trigger: the first fulfilment of any item counts', async () => {
    const { t, c, domain } = await shop();
    const o = order(domain, '#1003');
    const at = ago(2);
    o.fulfillment_status = 'partial';
    o.fulfillments = [{ id: 1, created_at: at, status: 'success' }];
    expect(await deliver(t, c, o, { topic: 'orders/partially_fulfilled' })).toBe('accepted');
    expect((await getOrder(t, '#1003')).body.review_request.send_at).toBe(plusDays(at, 7));
  });

  it('with the delivered trigger, the request waits for the delivered shipment status', async () => {
    const { t, c, domain, form } = await shop();
    await automate(t, form.id, { trigger: 'delivered', delay_days: 3 });
    const o = order(domain, '#1004');
    await deliver(t, c, o, { topic: 'orders/create' });
    await deliver(t, c, fulfillment(o, ago(2)), { topic: 'fulfillments/create' });
    expect((await getOrder(t, '#1004')).body.review_request).toBeNull();
    expect(await deliver(t, c, fulfillment(o, ago(2), 'in_transit'), { topic: 'fulfillments/update' })).toBe(
      'ignored',
    );
    const deliveredAt = ago(1);
    await deliver(t, c, fulfillment(o, deliveredAt, 'delivered'), { topic: 'fulfillments/update' });
    const res = await getOrder(t, '#1004');
    expect(res.body.status).toBe('delivered');
    expect(res.body.review_request.send_at).toBe(plusDays(deliveredAt, 3));
  });
});

describe('Shopify refunds and cancellations', () => {
  it('a partial refund drops the refunded product; a cancellation cancels the request not sent yet', async () => {
    const { t, c, domain } = await shop();
    const o = order(domain, '#1005');
    await deliver(t, c, o, { topic: 'orders/create' });
    await deliver(t, c, fulfillment(o, ago(1)), { topic: 'fulfillments/create' });
    const [request] = await requestsOf(t, '#1005');
    const named = () =>
      db`select p.external_id from plaudit.review_request_products rp join plaudit.products p on p.id = rp.product_id
         where rp.request_id = ${request.id} order by rp.position`;
    expect((await named()).map((r) => r.external_id)).toEqual(['632910392', '921728736']);
    const refund = fixture('shopify-refund');
    refund.order_id = o.id;
    expect(await deliver(t, c, refund, { topic: 'refunds/create' })).toBe('accepted');
    expect((await named()).map((r) => r.external_id)).toEqual(['632910392']);
    expect((await getOrder(t, '#1005')).body.items[1]).toEqual({
      product_external_id: '921728736',
      quantity: 1,
      refunded: true,
      product: { id: expect.any(String), name: 'IPod Touch', image_url: null },
    });
    await deliver(t, c, { ...o, cancelled_at: ago(0.5) }, { topic: 'orders/cancelled' });
    const res = await getOrder(t, '#1005');
    expect(res.body.status).toBe('cancelled');
    expect(res.body.review_request.status).toBe('canceled');
    const [event] =
      await db`select data from plaudit.events where org_id = ${t.org.id} and type = 'review_request.canceled'`;
    expect(event.data).toMatchObject({ id: request.id, order_id: '#1005', connection_id: c.id });
    expect(EVENT_DATA['review_request.canceled'].strict().safeParse(event.data).success).toBe(true);
  });

  it('refunds of every item refund the order and cancel its request', async () => {
    const { t, c, domain } = await shop();
    const o = order(domain, '#1006');
    await deliver(t, c, o, { topic: 'orders/create' });
    await deliver(t, c, fulfillment(o, ago(1)), { topic: 'fulfillments/create' });
    const refund = fixture('shopify-refund');
    refund.order_id = o.id;
    refund.refund_line_items.push({ line_item: { product_id: 632910392 }, quantity: 1 });
    await deliver(t, c, refund, { topic: 'refunds/create' });
    const res = await getOrder(t, '#1006');
    expect(res.body.status).toBe('refunded');
    expect(res.body.review_request.status).toBe('canceled');
  });
});

describe('Shopify skips', () => {
  it('no e-mail, an order over 90 days old on arrival (by its own time), only excluded products', async () => {
    const { t, c, domain, form } = await shop();
    await automate(t, form.id, { exclude_products: ['632910392', '921728736'] });
    const noEmail = order(domain, '#1101');
    delete noEmail.email;
    delete noEmail.contact_email;
    delete noEmail.customer.email;
    await deliver(t, c, noEmail, { topic: 'orders/fulfilled' });
    const old = order(domain, '#1102', 100);
    await deliver(t, c, old, { topic: 'orders/create' });
    await deliver(t, c, order(domain, '#1103'), { topic: 'orders/fulfilled' });
    const reasons = await Promise.all(
      ['#1101', '#1102', '#1103'].map(async (id) => (await getOrder(t, id)).body.skipped),
    );
    expect(reasons).toEqual([
      { reason: 'no_email', at: expect.any(String) },
      { reason: 'too_old', at: expect.any(String) },
      { reason: 'excluded', at: expect.any(String) },
    ]);
    const skipped = await db`select data from plaudit.events
                             where org_id = ${t.org.id} and type = 'order.skipped' order by created_at`;
    expect(skipped.map((e) => e.data.order_id)).toEqual(['#1101', '#1102', '#1103']);
    for (const e of skipped) expect(EVENT_DATA['order.skipped'].strict().safeParse(e.data).success).toBe(true);
  });
});

describe('Shopify catalog and privacy', () => {
  it('product events upsert the catalog from the first variant that has a SKU or barcode; a delete archives', async () => {
    const { t, c } = await shop();
    const p = fixture('shopify-product');
    p.id = 777001;
    expect(await deliver(t, c, p, { topic: 'products/create' })).toBe('accepted');
    const [row] = await db`select name, url, image_url, sku, gtin, archived from plaudit.products
                           where org_id = ${t.org.id} and external_id = '777001'`;
    expect(row).toEqual({
      name: 'IPod Nano - 8GB',
      url: `https://${t.org.slug}.myshopify.com/products/ipod-nano`,
      image_url: p.image.src,
      sku: 'IPOD2008RED',
      gtin: '4006381333931',
      archived: false,
    });
    await deliver(t, c, { ...p, title: 'IPod Nano' }, { topic: 'products/update' });
    await deliver(t, c, { id: 777001 }, { topic: 'products/delete' });
    const [after] =
      await db`select name, archived from plaudit.products where org_id = ${t.org.id} and external_id = '777001'`;
    expect(after).toEqual({ name: 'IPod Nano', archived: true });
  });

  it('customers/redact erases the address as the erasure route does; data requests are recorded; shop/redact erases all', async () => {
    const { t, c, domain } = await shop();
    const o = order(domain, '#1201');
    const other = order(domain, '#1202');
    other.email = `kim@${domain}`;
    other.customer.email = other.email;
    await deliver(t, c, o, { topic: 'orders/fulfilled' });
    await deliver(t, c, other, { topic: 'orders/fulfilled' });
    expect(await requestsOf(t, '#1201')).toHaveLength(1);
    const redact = { shop_id: 954889, shop_domain: `${t.org.slug}.myshopify.com`, customer: { id: 1, email: o.email } };
    expect(await deliver(t, c, { ...redact, orders_to_redact: [o.id] }, { topic: 'customers/redact' })).toBe(
      'accepted',
    );
    expect(await requestsOf(t, '#1201')).toHaveLength(0);
    expect((await getOrder(t, '#1201')).body.email).toBeNull();
    const [erasure] = await db`select count(*)::integer as n from plaudit.privacy_erasures where org_id = ${t.org.id}`;
    expect(erasure.n).toBe(1);
    const [suppressed] = await db`select reason from plaudit.email_suppressions
                                  where org_id = ${t.org.id} and email_key = plaudit.email_key(${t.org.id}, ${o.email})`;
    expect(suppressed.reason).toBe('erased');
    await deliver(t, c, { ...redact, customer: { id: 2, email: other.email }, data_request: { id: 9 } }, {
      topic: 'customers/data_request',
    });
    const [asked] =
      await db`select count(*)::integer as n from plaudit.privacy_data_requests where org_id = ${t.org.id}`;
    expect(asked.n).toBe(1);

    expect(await deliver(t, c, { shop_id: 954889, shop_domain: redact.shop_domain }, { topic: 'shop/redact' })).toBe(
      'accepted',
    );
    expect((await getOrder(t, '#1202')).body.email).toBeNull();
    expect(await requestsOf(t, '#1202')).toHaveLength(0);
  });
});

describe('Shopify events without effect', () => {
  it('topics not understood answer 200 and are ignored; the test endpoint shows every outcome', async () => {
    const { t, c, domain } = await shop();
    const res = await send(c, { id: 1 }, { topic: 'carts/create' });
    expect(res.body).toEqual({ received: true, outcome: 'ignored' });
    const o = order(domain, '#1301');
    const first = await send(c, o, { topic: 'orders/create' });
    await send(c, o, { topic: 'orders/create', id: first.deliveryId });
    const bad = await send(c, { ...o, line_items: 'none' }, { topic: 'orders/create' });
    expect(bad.status).toBe(422);
    const events = await lastEvents(t, c);
    expect(events.map((e) => e.outcome)).toEqual([
      'refused: line_items: must be an array',
      'duplicate',
      expect.stringMatching(/^accepted$/),
      'ignored',
    ]);
  });
});
