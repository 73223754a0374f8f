// Reviews of products over HTTP: a submission names the product by either id, refusals name the
// field, the list filters by product, and the product's counts follow its published reviews.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { createForm, ownApiServer, submit, submitOk } from '../../helpers/reviews.ts';
import { createProduct as createProductOf, type Product } from '../../helpers/products.ts';

const server = ownApiServer();
const call = server.call;

let a: Tenant;
let b: Tenant;
let formId: string;
let mug: Product;
let archived: Product;
let theirs: Product;

const orgPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}`;
const createProduct = (t: Tenant, body: Record<string, unknown> = {}) => createProductOf(call, t, body);

const getProduct = async (t: Tenant, id: string) =>
  (await call('GET', `${orgPath(t)}/products/${id}`, { key: t.keys.read })).body as Product;
const listIds = async (query: string) =>
  ((await call('GET', `${orgPath(a)}/reviews?${query}`, { key: a.keys.read })).body.data as { id: string }[])
    .map((r) => r.id);

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
  formId = (await createForm(call, a)).id;
  [mug, archived, theirs] = await Promise.all([
    createProduct(a, { name: 'Mug "blue"' }),
    createProduct(a, { archived: true }),
    createProduct(b),
  ]);
});

describe('POST /reviews of a product', () => {
  it('takes the product by its external id and answers it in the Review', async () => {
    const review = await submitOk(call, formId, { product_external_id: mug.external_id }) as any;
    expect(review.product).toEqual({ id: mug.id, external_id: mug.external_id, name: 'Mug "blue"' });
    // After the form and the order the review was written for (null here), as the Review lists them.
    expect(
      Object.keys(review).slice(Object.keys(review).indexOf('form_id'), Object.keys(review).indexOf('form_id') + 3),
    )
      .toEqual(['form_id', 'order_id', 'product']);
  });

  it('takes the product by its id', async () => {
    const review = await submitOk(call, formId, { product_id: mug.id }) as any;
    expect(review.product).toEqual({ id: mug.id, external_id: mug.external_id, name: 'Mug "blue"' });
  });

  it('answers product null for a review of the business', async () => {
    expect((await submitOk(call, formId) as any).product).toBeNull();
  });

  it.each([
    [
      'both ids',
      () => ({ product_id: mug.id, product_external_id: mug.external_id }),
      'product_id: give product_id or product_external_id, not both',
    ],
    [
      'an unknown external id',
      () => ({ product_external_id: 'NO-SUCH' }),
      'product_external_id: no such product in this organization',
    ],
    [
      'an unknown id',
      () => ({ product_id: '00000000-0000-4000-8000-000000000000' }),
      'product_id: no such product in this organization',
    ],
    [
      'another organization’s product by id',
      () => ({ product_id: theirs.id }),
      'product_id: no such product in this organization',
    ],
    [
      'another organization’s product by external id',
      () => ({ product_external_id: theirs.external_id }),
      'product_external_id: no such product in this organization',
    ],
    [
      'an archived product',
      () => ({ product_external_id: archived.external_id }),
      'product_external_id: the product is archived and takes no new reviews',
    ],
  ])('refuses %s with 422 naming the field', async (_, overrides, message) => {
    const res = await submit(call, formId, overrides());
    expect(res.status).toBe(422);
    expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', `^${message}$`));
  });
});

describe('GET /reviews by product', () => {
  it('filters by product_id and product_external_id, on both lists', async () => {
    const product = await createProduct(a);
    const ofProduct = [
      (await submitOk(call, formId, { product_id: product.id })).id,
      (await submitOk(call, formId, { product_external_id: product.external_id })).id,
    ].reverse();
    await submitOk(call, formId);
    expect(await listIds(`product_id=${product.id}`)).toEqual(ofProduct);
    expect(await listIds(`product_external_id=${encodeURIComponent(product.external_id)}`)).toEqual(ofProduct);
    const forKey = await call('GET', `/api/v1/reviews?product_id=${product.id}`, { key: a.keys.read });
    expect(forKey.body.data.map((r: { id: string }) => r.id)).toEqual(ofProduct);
    expect(forKey.body.meta.total).toBe(2);
  });

  it('finds nothing for another organization’s product', async () => {
    expect(await listIds(`product_id=${theirs.id}`)).toEqual([]);
    expect(await listIds(`product_external_id=${encodeURIComponent(theirs.external_id)}`)).toEqual([]);
  });

  it('refuses a product_id that is not a UUID', async () => {
    const res = await call('GET', `${orgPath(a)}/reviews?product_id=nope`, { key: a.keys.read });
    expect(res.status).toBe(400);
  });
});

describe('a product’s counts and its deletion', () => {
  it('counts published reviews, and a hidden review leaves the counts', async () => {
    const product = await createProduct(a);
    expect(await getProduct(a, product.id)).toMatchObject({ review_count: 0, average_rating: null });
    const ratings = [5, 4, 4];
    const ids = [];
    for (const rating of ratings) ids.push((await submitOk(call, formId, { product_id: product.id, rating })).id);
    expect(await getProduct(a, product.id)).toMatchObject({ review_count: 3, average_rating: 4.33 });
    const hide = await call('PATCH', `${orgPath(a)}/reviews/${ids[0]}/moderate`, {
      key: a.keys.write,
      body: { action: 'hide', reason: 'Off-topic' },
    });
    expect(hide.status).toBe(200);
    expect(await getProduct(a, product.id)).toMatchObject({ review_count: 2, average_rating: 4 });
    const list = await call('GET', `${orgPath(a)}/products?external_id=${encodeURIComponent(product.external_id)}`, {
      key: a.keys.read,
    });
    expect(list.body.data[0]).toMatchObject({ review_count: 2, average_rating: 4 });
    const patched = await call('PATCH', `${orgPath(a)}/products/${product.id}`, {
      key: a.keys.write,
      body: { archived: true },
    });
    expect(patched.body).toMatchObject({ archived: true, review_count: 2, average_rating: 4 });
  });

  it('counts no pending review', async () => {
    const product = await createProduct(a);
    const manual = await createForm(call, a, { verification_mode: 'manual' });
    await submitOk(call, manual.id, { product_id: product.id });
    expect(await getProduct(a, product.id)).toMatchObject({ review_count: 0, average_rating: null });
  });

  it('refuses to delete a product with reviews (409) and deletes one without', async () => {
    const product = await createProduct(a);
    await submitOk(call, formId, { product_id: product.id });
    const refused = await call('DELETE', `${orgPath(a)}/products/${product.id}`, { key: a.keys.write });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(
      errorBody(409, 'Conflict', '^The product has reviews: archive it with \\{"archived":true\\} instead$'),
    );
    const bare = await createProduct(a);
    expect((await call('DELETE', `${orgPath(a)}/products/${bare.id}`, { key: a.keys.write })).status).toBe(204);
  });
});
