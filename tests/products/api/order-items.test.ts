// Orders' items and purchase proof of products: an order lists the products bought by their
// external ids (kept as given), and a purchase-proof review of a product is verified only by an
// order holding that product or one of its group; an order without items is "items unknown".
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { createProduct, type Product } from '../../helpers/products.ts';
import { createForm, ownApiServer, submitOk } from '../../helpers/reviews.ts';
import { provenance } from '../../helpers/verification.ts';

const server = ownApiServer();
const call = server.call;

const orgPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}`;
const loadOrders = (t: Tenant, orders: unknown) =>
  call('POST', `${orgPath(t)}/orders`, { key: t.keys.write, body: { orders } });
const itemsOf = (t: Tenant, orderId: string) =>
  db`select position, product_external_id, quantity from plaudit.order_items
      where org_id = ${t.org.id} and order_id = ${orderId} order by position`;
const NOT_HELD = 'order_id: the order does not hold the reviewed product or a product of its group';

let a: Tenant;
let b: Tenant;
let form: { id: string };
let mugSmall: Product;
let mugLarge: Product;
let tee: Product;
let lamp: Product;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
  form = await createForm(call, a, { verification_mode: 'purchase_proof' });
  [mugSmall, mugLarge, tee, lamp] = await Promise.all([
    createProduct(call, a, { external_id: 'MUG-S', group: 'mug' }),
    createProduct(call, a, { external_id: 'MUG-L', group: 'mug' }),
    createProduct(call, a, { external_id: 'TEE' }),
    createProduct(call, a, { external_id: 'LAMP' }),
  ]);
  // Another organization whose catalog and orders use the same ids.
  await createProduct(call, b, { external_id: 'TEE' });
  expect((await loadOrders(b, [{ order_id: 'B-1', items: [{ product_external_id: 'TEE' }] }])).status).toBe(200);
  const loaded = await loadOrders(a, [
    { order_id: 'O-MUG-L', items: [{ product_external_id: 'MUG-L', quantity: 2 }] },
    { order_id: 'O-TEE', items: [{ product_external_id: 'TEE' }, { product_external_id: 'NOT-IN-CATALOG' }] },
    { order_id: 'O-NO-ITEMS' },
    { order_id: 'O-UNKNOWN', items: [{ product_external_id: 'SOON' }] },
  ]);
  expect(loaded.body).toEqual({ received: 4, inserted: 4, updated: 0 });
});

describe('POST …/orders with items', () => {
  it('keeps each item as given, unknown external ids included, quantity 1 by default', async () => {
    expect(await itemsOf(a, 'O-TEE')).toEqual([
      { position: 0, product_external_id: 'TEE', quantity: 1 },
      { position: 1, product_external_id: 'NOT-IN-CATALOG', quantity: 1 },
    ]);
    expect(await itemsOf(a, 'O-MUG-L')).toEqual([{ position: 0, product_external_id: 'MUG-L', quantity: 2 }]);
  });

  it('loading an order again replaces its items; left out, it has none', async () => {
    const t = await createTenant();
    expect(
      (await loadOrders(t, [{ order_id: 'R', items: [{ product_external_id: 'X' }, { product_external_id: 'Y' }] }]))
        .status,
    ).toBe(200);
    expect((await loadOrders(t, [{ order_id: 'R', items: [{ product_external_id: ' Z ', quantity: 3 }] }])).body)
      .toEqual({ received: 1, inserted: 0, updated: 1 });
    expect(await itemsOf(t, 'R')).toEqual([{ position: 0, product_external_id: 'Z', quantity: 3 }]);
    // Repeated in one request, the last occurrence's items win.
    await loadOrders(t, [{ order_id: 'R', items: [{ product_external_id: 'first' }] }, {
      order_id: 'R',
      items: [{ product_external_id: 'last' }],
    }]);
    expect(await itemsOf(t, 'R')).toEqual([{ position: 0, product_external_id: 'last', quantity: 1 }]);
    await loadOrders(t, [{ order_id: 'R' }]);
    expect(await itemsOf(t, 'R')).toEqual([]);
  });

  it('takes 100 items and refuses bad ones, naming the field', async () => {
    const t = await createTenant();
    const hundred = Array.from({ length: 100 }, (_, i) => ({ product_external_id: `P-${i}`, quantity: 10_000 }));
    expect((await loadOrders(t, [{ order_id: 'BIG', items: hundred }])).status).toBe(200);
    expect(await itemsOf(t, 'BIG')).toHaveLength(100);
    const ok = { order_id: 'fine' };
    for (
      const [items, field] of [
        [[...hundred, { product_external_id: 'one-more' }], 'orders.3.items'],
        [[{ product_external_id: '' }], 'orders.3.items.0.product_external_id'],
        [[{ quantity: 2 }], 'orders.3.items.0.product_external_id'],
        [[{ product_external_id: 'x'.repeat(201) }], 'orders.3.items.0.product_external_id'],
        [[{ product_external_id: 'A' }, { product_external_id: 'B', quantity: 0 }], 'orders.3.items.1.quantity'],
        [[{ product_external_id: 'A', quantity: 10_001 }], 'orders.3.items.0.quantity'],
        [[{ product_external_id: 'A', quantity: 1.5 }], 'orders.3.items.0.quantity'],
        [[{ product_external_id: 'A', quantity: '2' }], 'orders.3.items.0.quantity'],
        ['MUG', 'orders.3.items'],
      ] as const
    ) {
      const res = await loadOrders(t, [ok, ok, ok, { order_id: 'bad', items }]);
      expect(res.body, JSON.stringify(items).slice(0, 80)).toEqual(
        errorBody(422, 'Unprocessable Entity', new RegExp(`^${field.replaceAll('.', '\\.')}: `)),
      );
    }
  });
});

describe('purchase proof of a product at submission', () => {
  const review = (order_id: string, product_external_id?: string) =>
    submitOk(call, form.id, { order_id, ...(product_external_id ? { product_external_id } : {}) });

  it('an order holding the product, or a product of its group, verifies', async () => {
    expect((await review('O-MUG-L', 'MUG-L')).verification_status).toBe('verified');
    expect((await review('O-MUG-L', 'MUG-S')).verification_status).toBe('verified');
    expect((await review('O-TEE', 'TEE')).verification_status).toBe('verified');
  });

  it('an order listing items without the product (nor its group) leaves the review pending, saying why', async () => {
    for (const [order, product] of [['O-TEE', mugSmall], ['O-MUG-L', tee], ['O-UNKNOWN', lamp]] as const) {
      const r = await review(order, product.external_id);
      expect(r.verification_status, `${order} ${product.external_id}`).toBe('pending');
      expect(await provenance(r.id)).toMatchObject({
        verification_method: null,
        verification_order_hash: null,
        verification_reason: NOT_HELD,
      });
    }
  });

  it('an order loaded without items verifies any product, and a business review verifies by order alone', async () => {
    expect((await review('O-NO-ITEMS', 'LAMP')).verification_status).toBe('verified');
    expect((await review('O-TEE')).verification_status).toBe('verified');
  });

  it("another organization's order never matches, even with the same ids", async () => {
    const r = await review('B-1', 'TEE');
    expect(r.verification_status).toBe('pending');
    expect((await provenance(r.id)).verification_reason).toMatch(/^order_id: does not match an order/);
  });

  it('an item the catalog learns later counts from then on', async () => {
    const soon = await createProduct(call, a, { external_id: 'SOON' });
    expect((await review('O-UNKNOWN', soon.external_id)).verification_status).toBe('verified');
  });
});

describe('POST …/verification/verify with the order of a product review', () => {
  const verify = (t: Tenant, body: unknown) =>
    call('POST', `${orgPath(t)}/verification/verify`, { key: t.keys.write, body });

  it('refuses an order without the product, then verifies with one holding its group', async () => {
    const pending = await submitOk(call, form.id, { product_external_id: mugSmall.external_id });
    expect(pending.verification_status).toBe('pending');
    expect((await verify(a, { review_id: pending.id, order_id: 'O-TEE' })).body)
      .toEqual(errorBody(422, 'Unprocessable Entity', new RegExp(`^${NOT_HELD}$`)));
    expect((await verify(b, { review_id: pending.id, order_id: 'B-1' })).status).toBe(404);
    const ok = await verify(a, { review_id: pending.id, order_id: 'O-MUG-L' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ verification_status: 'verified', verification_method: 'purchase_proof' });
    expect(ok.body.product).toEqual({ id: mugSmall.id, external_id: 'MUG-S', name: mugSmall.name });
    expect((await provenance(pending.id)).verification_reason).toBeNull();
  });

  it('an order without items verifies a product review; a review refused at submission verifies later', async () => {
    const refused = await submitOk(call, form.id, { product_external_id: mugLarge.external_id, order_id: 'O-TEE' });
    expect(refused.verification_status).toBe('pending');
    const ok = await verify(a, { review_id: refused.id, order_id: 'O-NO-ITEMS' });
    expect(ok.status).toBe(200);
    expect(ok.body.verification_status).toBe('verified');
  });
});
