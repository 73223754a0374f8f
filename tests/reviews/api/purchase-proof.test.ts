// Verifying a review by purchase proof: the organization's orders (POST …/orders) and a review's
// order id matched against them.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { createForm, ownApiServer, submit, submitOk } from '../../helpers/reviews.ts';
import { provenance, sha256hex, verifiedEvents } from '../../helpers/verification.ts';

const server = ownApiServer();
const call = server.call;

const orgPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}`;

let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
});

describe('purchase proof', () => {
  let form: { id: string };
  beforeAll(async () => {
    form = await createForm(call, a, { verification_mode: 'purchase_proof' });
    const res = await call('POST', `${orgPath(a)}/orders`, {
      key: a.keys.write,
      body: {
        orders: [
          { order_id: 'A-1001', email: 'Buyer@Example.com', purchased_at: '2026-11-01T10:00:00Z' },
          { order_id: 'A-1002' },
          { order_id: 'A-1003', email: 'other@example.com', purchased_at: '2026-11-02' },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: 3, inserted: 3, updated: 0 });
    expect(
      (await call('POST', `${orgPath(b)}/orders`, { key: b.keys.write, body: { orders: [{ order_id: 'B-9' }] } }))
        .status,
    ).toBe(200);
  });

  it('a matching order (and its e-mail, case-insensitively) verifies at once; only a hash of the id is kept', async () => {
    const review = await submitOk(call, form.id, { order_id: ' A-1001 ', reviewer_email: 'buyer@example.com' });
    expect(review.verification_status).toBe('verified');
    const p = await provenance(review.id);
    expect(p).toMatchObject({
      verification_method: 'purchase_proof',
      verification_key_id: null,
      verification_token_id: null,
      verification_order_hash: sha256hex(`${a.org.id}:A-1001`),
    });
    expect(p.verification_at).toBeInstanceOf(Date);
    // The Review says so: in the submission's answer, the review, and the list (written by PostgreSQL).
    const said = { verification_method: 'purchase_proof', verification_at: p.verification_at.toISOString() };
    expect(review).toMatchObject(said);
    expect((await call('GET', `${orgPath(a)}/reviews/${review.id}`, { key: a.keys.read })).body).toMatchObject(said);
    const listed = await call('GET', `${orgPath(a)}/reviews?verification_status=verified&limit=100`, {
      key: a.keys.read,
    });
    expect(listed.body.data.find((r: { id: string }) => r.id === review.id)).toMatchObject(said);
    const [{ found }] =
      await db`select count(*)::integer as found from plaudit.reviews where id = ${review.id} and to_jsonb(reviews.*)::text like '%A-1001%'`;
    expect(found).toBe(0);
    // An order without an e-mail matches any reviewer.
    expect((await submitOk(call, form.id, { order_id: 'A-1002' })).verification_status).toBe('verified');
  });

  it("no order, an unknown order, another organization's order or another e-mail: pending", async () => {
    for (
      const extra of [{}, { order_id: 'A-404' }, { order_id: 'B-9' }, {
        order_id: 'A-1003',
        reviewer_email: 'buyer@example.com',
      }]
    ) {
      const review = await submitOk(call, form.id, extra);
      expect(review.verification_status, JSON.stringify(extra)).toBe('pending');
      expect(review).toMatchObject({ verification_method: null, verification_at: null });
      expect((await provenance(review.id)).verification_order_hash).toBeNull();
    }
  });

  it('POST …/verification/verify with order_id verifies a pending review later', async () => {
    const review = await submitOk(call, form.id, { reviewer_email: 'other@example.com' });
    const verify = (body: unknown, t = a) =>
      call('POST', `${orgPath(t)}/verification/verify`, { key: t.keys.write, body });
    expect((await verify({ review_id: review.id, order_id: 'A-404' })).body)
      .toEqual(errorBody(422, 'Unprocessable Entity', /^order_id: does not match an order of this organization/));
    expect((await verify({ review_id: review.id, order_id: 'A-1001' })).body)
      .toEqual(errorBody(422, 'Unprocessable Entity', /^order_id: does not match/));
    expect((await verify({ review_id: review.id, order_id: 'B-9' }, b)).status).toBe(404);
    const ok = await verify({ review_id: review.id, order_id: 'A-1003' });
    expect(ok.status).toBe(200);
    expect(ok.body.verification_status).toBe('verified');
    expect(await provenance(review.id)).toMatchObject({
      verification_method: 'purchase_proof',
      verification_key_id: a.keyIds.write,
      verification_order_hash: sha256hex(`${a.org.id}:A-1003`),
    });
    expect((await verify({ review_id: review.id, order_id: 'A-1003' })).body)
      .toEqual(errorBody(409, 'Conflict', /^Only a pending review can be verified; this one is verified$/));
    expect(await verifiedEvents(review.id)).toEqual([
      expect.objectContaining({ verification_status: 'verified', method: 'purchase_proof' }),
    ]);
  });

  it('order_id on a review whose form does not use purchase proof is refused', async () => {
    const manual = await createForm(call, a, { verification_mode: 'manual' });
    const review = await submitOk(call, manual.id);
    const res = await call('POST', `${orgPath(a)}/verification/verify`, {
      key: a.keys.write,
      body: { review_id: review.id, order_id: 'A-1002' },
    });
    expect(res.body).toEqual(
      errorBody(422, 'Unprocessable Entity', /^order_id: the review's form does not use purchase-proof verification$/),
    );
  });
});

describe('POST …/orders', () => {
  it('upserts: new ones inserted, known ones updated, a repeated id keeps its last occurrence', async () => {
    const t = await createTenant();
    const load = (orders: unknown) => call('POST', `${orgPath(t)}/orders`, { key: t.keys.write, body: { orders } });
    expect((await load([{ order_id: 'X1', email: 'x@example.com' }])).body).toEqual({
      received: 1,
      inserted: 1,
      updated: 0,
    });
    const res = await load([{ order_id: 'X1' }, { order_id: 'X2', email: 'first@example.com' }, {
      order_id: 'X2',
      email: 'last@example.com',
    }]);
    expect(res.body).toEqual({ received: 3, inserted: 1, updated: 1 });
    const rows = await db`select order_id, email from plaudit.orders where org_id = ${t.org.id} order by order_id`;
    expect(rows).toEqual([{ order_id: 'X1', email: null }, { order_id: 'X2', email: 'last@example.com' }]);
  });

  it('takes 1,000 orders in a body beyond 64 KiB, refuses 1,001 and invalid rows', async () => {
    const t = await createTenant();
    const orders = Array.from(
      { length: 1000 },
      (_, i) => ({
        order_id: `ORDER-${i}-${'x'.repeat(80)}`,
        email: `c${i}@example.com`,
        purchased_at: '2026-10-10T10:10:10Z',
      }),
    );
    expect(JSON.stringify({ orders }).length).toBeGreaterThan(64 * 1024);
    const res = await call('POST', `${orgPath(t)}/orders`, { key: t.keys.write, body: { orders } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: 1000, inserted: 1000, updated: 0 });
    const tooMany = await call('POST', `${orgPath(t)}/orders`, {
      key: t.keys.write,
      body: { orders: [...orders, { order_id: 'one-more' }] },
    });
    expect(tooMany.body).toEqual(errorBody(422, 'Unprocessable Entity', /^orders:/));
    for (
      const [orders, message] of [
        [[], /^orders:/],
        [[{ order_id: '' }], /^orders\.0\.order_id:/],
        [[{ order_id: 'a' }, { order_id: 'b', email: 'nope' }], /^orders\.1\.email:/],
        [[{ order_id: 'a', purchased_at: 'last week' }], /^orders\.0\.purchased_at:/],
      ] as const
    ) {
      const bad = await call('POST', `${orgPath(t)}/orders`, { key: t.keys.write, body: { orders } });
      expect(bad.body).toEqual(errorBody(422, 'Unprocessable Entity', message));
    }
  });

  it('413 past 1 MiB; a submission past 64 KiB too', async () => {
    const t = await createTenant();
    const orders = Array.from({ length: 1000 }, (_, i) => ({ order_id: `${i}-${'y'.repeat(1100)}` }));
    expect(JSON.stringify({ orders }).length).toBeGreaterThan(1024 * 1024);
    const big = await call('POST', `${orgPath(t)}/orders`, { key: t.keys.write, body: { orders } });
    expect(big.status).toBe(413);
    expect(big.body).toEqual(errorBody(413, 'Payload Too Large', /1 MiB/));
    const review = await call('POST', '/api/v1/reviews', {
      body: { form_id: crypto.randomUUID(), content: 'x'.repeat(70_000) },
    });
    expect(review.status).toBe(413);
    expect(review.body).toEqual(errorBody(413, 'Payload Too Large', /64 KiB/));
  });

  it("needs the write scope and the key's own organization", async () => {
    const body = { orders: [{ order_id: 'Z' }] };
    expect((await call('POST', `${orgPath(a)}/orders`, { key: a.keys.read, body })).status).toBe(403);
    expect((await call('POST', `${orgPath(a)}/orders`, { key: b.keys.admin, body })).status).toBe(403);
    expect((await call('POST', `${orgPath(a)}/orders`, { body })).status).toBe(401);
  });
});

describe('submission of a purchase-proof form without orders loaded', () => {
  it('stays pending', async () => {
    const t = await createTenant();
    const f = await createForm(call, t, { verification_mode: 'purchase_proof' });
    const res = await submit(call, f.id, { order_id: 'anything' });
    expect(res.status).toBe(201);
    expect(res.body.verification_status).toBe('pending');
  });
});
