// WooCommerce, Stripe and any shop (the `webhook` platform) end to end: each platform's signed
// events make the order and its one request at the trigger's own time plus the delay; cancellations
// and refunds cancel it; skips say why; catalog and privacy events reach the catalog and erasure.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTenant, db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm, postForm } from '../../helpers/review-requests.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';
import { automate, connect, deliver, fixture, getOrder, send, stripeEvent } from '../../helpers/connections.ts';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
/** WooCommerce's `_gmt` times: UTC without a zone. */
const gmt = (days: number) => ago(days).slice(0, 19);
const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY).toISOString();

const workers: TestWorker[] = [];
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
});

async function tenant(platform: string, products: string[]) {
  const t = await createTenant();
  workers.push(await startWorker([t.org.id]));
  const form = await createForm(t);
  const c = await connect(t, platform);
  for (const p of products) {
    await db`insert into plaudit.products (org_id, external_id, name) values (${t.org.id}, ${p}, ${'Product ' + p})`;
  }
  await automate(t, form.id, { delay_days: 5 });
  return { t, form, c, domain: `${t.org.slug}.example.com` };
}

describe('WooCommerce', () => {
  function wooOrder(domain: string, number: string, status: string) {
    const o = fixture('woocommerce-order');
    o.id = Number(number);
    o.number = number;
    o.status = status;
    o.billing.email = `john@${domain}`;
    o.date_created_gmt = gmt(3);
    o.date_paid_gmt = gmt(3);
    o.date_modified_gmt = gmt(1);
    return o;
  }

  it('completed is the fulfilment (and the delivered trigger falls back to it); cancelled cancels', async () => {
    const { t, c, domain, form } = await tenant('woocommerce', ['93', '22']);
    await automate(t, form.id, { trigger: 'delivered' });
    const o = wooOrder(domain, '727', 'pending');
    expect(await deliver(t, c, o, { topic: 'order.created' })).toBe('accepted');
    expect(await deliver(t, c, { ...o, status: 'on-hold' }, { topic: 'order.updated' })).toBe('ignored');
    expect(await deliver(t, c, { ...o, status: 'processing' }, { topic: 'order.updated' })).toBe('accepted');
    const completedAt = gmt(1);
    await deliver(t, c, { ...o, status: 'completed', date_completed_gmt: completedAt }, { topic: 'order.updated' });
    const res = await getOrder(t, '727');
    expect(res.body).toMatchObject({
      order_id: '727',
      platform: 'woocommerce',
      status: 'fulfilled',
      name: 'John Doe',
      items: [
        { product_external_id: '93', quantity: 2, refunded: false },
        { product_external_id: '22', quantity: 1, refunded: false },
      ],
      review_request: { status: 'queued', send_at: plusDays(`${completedAt}Z`, 5) },
      skipped: null,
    });
    await deliver(t, c, { id: 727 }, { topic: 'order.deleted' });
    expect((await getOrder(t, '727')).body.review_request.status).toBe('canceled');
  });

  it('automation off: the order reaching the trigger is skipped, and says so', async () => {
    const { t, c, domain } = await tenant('woocommerce', ['93']);
    const off = await (await import('../../helpers/http.ts')).api(
      'PATCH',
      `/api/v1/organizations/${t.org.id}/review-requests/automation`,
      { key: t.keys.admin, body: { enabled: false } },
    );
    expect(off.body.enabled).toBe(false);
    await deliver(t, c, wooOrder(domain, '801', 'completed'), { topic: 'order.updated' });
    expect((await getOrder(t, '801')).body.skipped).toEqual({ reason: 'automation_off', at: expect.any(String) });
  });

  it('product events fill the catalog with the permalink, SKU and first image; a delete archives', async () => {
    const { t, c } = await tenant('woocommerce', []);
    const p = fixture('woocommerce-product');
    await deliver(t, c, p, { topic: 'product.created' });
    await deliver(t, c, { id: 93 }, { topic: 'product.deleted' });
    const [row] = await db`select name, url, image_url, sku, archived from plaudit.products
                           where org_id = ${t.org.id} and external_id = '93'`;
    expect(row).toEqual({
      name: 'Premium Quality',
      url: p.permalink,
      image_url: p.images[0].src,
      sku: 'PQ-19',
      archived: true,
    });
  });
});

describe('Stripe', () => {
  it('a completed checkout is a paid order, its products from metadata, sent at the event time plus the delay', async () => {
    const { t, c, domain } = await tenant('stripe', ['SKU-A', 'SKU-B']);
    const created = Math.floor(Date.now() / 1000) - 86_400;
    const e = stripeEvent('stripe-checkout-session-completed', (x) => {
      x.created = created;
      x.data.object.customer_details.email = `jenny@${domain}`;
    });
    expect(await deliver(t, c, e)).toBe('accepted');
    const res = await getOrder(t, 'ORDER-5001');
    expect(res.body).toMatchObject({
      order_id: 'ORDER-5001',
      platform: 'stripe',
      status: 'paid',
      email: `jenny@${domain}`,
      items: [
        { product_external_id: 'SKU-A', quantity: 1, refunded: false },
        { product_external_id: 'SKU-B', quantity: 1, refunded: false },
      ],
      review_request: { status: 'queued', send_at: plusDays(new Date(created * 1000).toISOString(), 5) },
    });
    const [request] = await db`select locale from plaudit.review_requests where org_id = ${t.org.id}`;
    expect(request.locale).toBe('de');
    // A partial refund names no product and is ignored; a full refund cancels the request.
    const partial = stripeEvent('stripe-charge-refunded', (x) => {
      x.data.object.refunded = false;
      x.data.object.amount_refunded = 500;
    });
    expect(await deliver(t, c, partial)).toBe('ignored');
    expect(await deliver(t, c, stripeEvent('stripe-charge-refunded'))).toBe('accepted');
    const after = await getOrder(t, 'ORDER-5001');
    expect(after.body.status).toBe('refunded');
    expect(after.body.review_request.status).toBe('canceled');
  });

  it('without client_reference_id the order is the session id; a suppressed address is skipped', async () => {
    const { t, c, domain } = await tenant('stripe', []);
    await db`insert into plaudit.email_suppressions (org_id, email, reason) values (${t.org.id}, ${`gone@${domain}`}, 'manual')`;
    const e = stripeEvent('stripe-checkout-session-completed', (x) => {
      x.data.object.client_reference_id = null;
      x.data.object.metadata = {};
      x.data.object.customer_details.email = `gone@${domain}`;
    });
    await deliver(t, c, e);
    const res = await getOrder(t, 'cs_test_a1b2c3');
    expect(res.body.items).toEqual([]);
    expect(res.body.skipped).toEqual({ reason: 'suppressed', at: expect.any(String) });
  });
});

describe('Any shop (webhook)', () => {
  it("order.* events in Plaudit's shape: one request, delivered trigger, customer.redact erases", async () => {
    const { t, c, domain, form } = await tenant('webhook', ['MUG-1', 'TEE-1']);
    await automate(t, form.id, { trigger: 'delivered' });
    const base = fixture('webhook-order');
    base.data.email = `ada@${domain}`;
    const at = (type: string, days: number) => ({ ...base, type, timestamp: ago(days) });
    await deliver(t, c, at('order.created', 4));
    await deliver(t, c, at('order.fulfilled', 3));
    expect((await getOrder(t, 'M-1001')).body.review_request).toBeNull();
    const delivered = at('order.delivered', 2);
    await deliver(t, c, delivered);
    await deliver(t, c, delivered); // a new delivery of the same event: a new delivery id, still one request
    const res = await getOrder(t, 'M-1001');
    expect(res.body).toMatchObject({
      platform: 'webhook',
      status: 'delivered',
      review_request: { status: 'queued', send_at: plusDays(delivered.timestamp, 5) },
    });
    const [{ n }] = await db`select count(*)::integer as n from plaudit.review_requests where org_id = ${t.org.id}`;
    expect(n).toBe(1);
    await deliver(t, c, { type: 'product.upserted', timestamp: ago(0), data: { external_id: 'CAP-1', name: 'Cap' } });
    await deliver(t, c, { type: 'product.deleted', timestamp: ago(0), data: { external_id: 'MUG-1' } });
    const catalog =
      await db`select external_id, archived from plaudit.products where org_id = ${t.org.id} order by external_id`;
    expect(catalog).toEqual([
      { external_id: 'CAP-1', archived: false },
      { external_id: 'MUG-1', archived: true },
      { external_id: 'TEE-1', archived: false },
    ]);
    await deliver(t, c, { type: 'customer.redact', timestamp: ago(0), data: { email: `ada@${domain}` } });
    expect((await getOrder(t, 'M-1001')).body.email).toBeNull();
  });

  it('a request is never made twice, even when the order is cancelled after it was sent', async () => {
    const { t, c, domain } = await tenant('webhook', []);
    const base = fixture('webhook-order');
    base.data.email = `bo@${domain}`;
    base.data.order_id = 'M-2';
    await deliver(t, c, { ...base, type: 'order.fulfilled', timestamp: ago(2) });
    await db`update plaudit.review_requests set status = 'sent', sent_at = now() where org_id = ${t.org.id}`;
    await deliver(t, c, { ...base, type: 'order.cancelled', timestamp: ago(1) });
    const res = await getOrder(t, 'M-2');
    expect(res.body.status).toBe('cancelled');
    expect(res.body.review_request.status).toBe('sent');
    const resend = await send(c, { ...base, type: 'order.fulfilled', timestamp: ago(0) });
    expect(resend.status).toBe(200);
  });

  it("a review written through the order's request is verified by the invitation and carries the order", async () => {
    const { t, c, domain } = await tenant('webhook', []);
    const base = fixture('webhook-order');
    base.data.email = `cy@${domain}`;
    base.data.order_id = 'M-3';
    await deliver(t, c, { ...base, type: 'order.fulfilled', timestamp: ago(1) });
    const [{ token }] = await db`select plaudit.review_request_token(id) as token from plaudit.review_requests
                                 where org_id = ${t.org.id} and order_id = 'M-3'`;
    const res = await postForm(`${inject('apiUrl')}/r/${token}`, {
      rating: '5',
      content: 'Arrived quickly, as described.',
      reviewer_name: 'Cy',
      reviewer_email: `cy@${domain}`,
    });
    expect(res.status).toBe(201);
    const [review] = await db`select verification_status, verification_method, source,
                                     verification_order_hash = plaudit.order_hash(org_id, 'M-3') as carries_order
                                from plaudit.reviews where org_id = ${t.org.id}`;
    expect(review).toEqual({
      verification_status: 'verified',
      verification_method: 'invitation',
      source: 'invitation',
      carries_order: true,
    });
    expect((await getOrder(t, 'M-3')).body.review_request.status).toBe('completed');
    // The Review names the order, so that the dashboard links the review to the order's timeline.
    const listed = await api('GET', `/api/v1/organizations/${t.org.id}/reviews`, { key: t.keys.read });
    expect(listed.body.data.map((r: { order_id: string | null }) => r.order_id)).toEqual(['M-3']);
    // customer.redact forgets the reviewer as the erasure route does: the review stays, anonymous.
    await deliver(t, c, { type: 'customer.redact', timestamp: ago(0), data: { email: `cy@${domain}` } });
    const [erased] = await db`select reviewer_name, reviewer_email from plaudit.reviews where org_id = ${t.org.id}`;
    expect(erased).toEqual({ reviewer_name: 'Anonymous', reviewer_email: null });
    const [trail] =
      await db`select actor from plaudit.moderation_trail where org_id = ${t.org.id} and action = 'anonymize'`;
    expect(trail.actor).toBe(`connection:${c.id}`);
  });

  it('items given with refunded: true drop those products from the request; all refunded cancels it', async () => {
    const { t, c, domain } = await tenant('webhook', ['MUG-1', 'TEE-1']);
    const base = fixture('webhook-order');
    base.data.email = `di@${domain}`;
    base.data.order_id = 'M-4';
    await deliver(t, c, { ...base, type: 'order.fulfilled', timestamp: ago(2) });
    const named = () =>
      db`select p.external_id from plaudit.review_request_products rp join plaudit.products p on p.id = rp.product_id
         join plaudit.review_requests q on q.id = rp.request_id where q.org_id = ${t.org.id} order by rp.position`;
    expect((await named()).map((r) => r.external_id)).toEqual(['MUG-1', 'TEE-1']);
    const partly = structuredClone(base);
    partly.data.items[1].refunded = true;
    await deliver(t, c, { ...partly, type: 'order.paid', timestamp: ago(1) });
    expect((await named()).map((r) => r.external_id)).toEqual(['MUG-1']);
    partly.data.items[0].refunded = true;
    await deliver(t, c, { ...partly, type: 'order.paid', timestamp: ago(0.5) });
    const res = await getOrder(t, 'M-4');
    expect(res.body.status).toBe('refunded');
    expect(res.body.review_request.status).toBe('canceled');
  });
});
