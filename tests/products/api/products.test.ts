import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';

let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
});

const productsPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}/products`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let serial = 0;
const externalId = (prefix = 'P') => `${prefix}-${++serial}-${Math.random().toString(36).slice(2, 8)}`;

async function createProduct(t: Tenant, body: Record<string, unknown> = {}) {
  const res = await api('POST', productsPath(t), {
    key: t.keys.write,
    body: { external_id: externalId(), name: 'Mug', ...body },
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe('POST /organizations/:orgId/products', () => {
  it('adds a product with every field, answered in the contract’s shape', async () => {
    const fields = {
      name: 'Stoneware mug',
      url: 'https://shop.example/mug',
      image_url: 'http://cdn.example/mug.jpg',
      sku: 'SKU-1',
      gtin: '4006381333931',
      mpn: 'MPN-1',
      brand: 'Acme',
      group: 'mugs',
    };
    const res = await api('POST', productsPath(a), {
      key: a.keys.write,
      body: { external_id: ' MUG-001 ', ...fields },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      external_id: 'MUG-001',
      ...fields,
      archived: false,
      review_count: 0,
      average_rating: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(Object.keys(res.body)).toEqual([
      'id',
      'external_id',
      'name',
      'url',
      'image_url',
      'sku',
      'gtin',
      'mpn',
      'brand',
      'group',
      'archived',
      'review_count',
      'average_rating',
      'created_at',
      'updated_at',
    ]);
    const [row] = await db`select org_id, group_key from plaudit.products where id = ${res.body.id}`;
    expect(row).toEqual({ org_id: a.org.id, group_key: 'mugs' });
  });

  it('keeps markup in a name as text', async () => {
    const name = '<script>alert(1)</script> & <b>bold</b>';
    const product = await createProduct(a, { name });
    expect(product.name).toBe(name);
    expect((await api('GET', `${productsPath(a)}/${product.id}`, { key: a.keys.read })).body.name).toBe(name);
  });

  it('409 for an external_id the organization uses already; another organization may use it', async () => {
    const product = await createProduct(a);
    const res = await api('POST', productsPath(a), {
      key: a.keys.write,
      body: { external_id: product.external_id, name: 'Again' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(errorBody(409, 'Conflict', 'external_id: a product with this external_id exists already'));
    await createProduct(b, { external_id: product.external_id });
  });

  it('422 for a GTIN whose check digit is wrong, decided by the database', async () => {
    const res = await api('POST', productsPath(a), {
      key: a.keys.write,
      body: { external_id: externalId(), name: 'Mug', gtin: '4006381333932' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      errorBody(422, 'Unprocessable Entity', 'gtin: must be 8, 12, 13 or 14 digits with a valid check digit'),
    );
    expect(res.body.errors).toEqual([
      { field: 'gtin', code: 'invalid', message: 'must be 8, 12, 13 or 14 digits with a valid check digit' },
    ]);
  });

  it('422 naming each field that fails validation', async () => {
    // Messages are matched as patterns: the URL's rule is written escaped.
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ name: 'Mug' }, 'external_id: is required'],
      [{ external_id: 'x'.repeat(201), name: 'Mug' }, 'external_id: must be at most 200 characters'],
      [{ external_id: 'E', name: '' }, 'name: must not be empty'],
      [{ external_id: 'E', name: 'n'.repeat(501) }, 'name: must be at most 500 characters'],
      [
        { external_id: 'E', name: 'Mug', gtin: '12345' },
        'gtin: must be 8, 12, 13 or 14 digits with a valid check digit',
      ],
      [{ external_id: 'E', name: 'Mug', image_url: 'javascript:alert(1)' }, /^image_url: must be an http\(s\) URL$/],
      [
        { external_id: 'E', name: 'Mug', url: `https://shop.example/${'p'.repeat(2000)}` },
        'url: must be at most 2000 characters',
      ],
      [{ external_id: 'E', name: 'Mug', group: 'g'.repeat(201) }, 'group: must be at most 200 characters'],
      [{ external_id: 'E', name: 'Mug', archived: 'yes' }, 'archived: must be a boolean'],
    ];
    for (const [body, message] of cases) {
      const res = await api('POST', productsPath(a), { key: a.keys.write, body });
      expect(res.body, JSON.stringify(body)).toEqual(errorBody(422, 'Unprocessable Entity', message));
    }
  });

  it("needs the write scope, a key, and the key's own organization", async () => {
    const body = { external_id: externalId(), name: 'Mug' };
    expect((await api('POST', productsPath(a), { key: a.keys.read, body })).body)
      .toEqual(errorBody(403, 'Forbidden', /write scope/));
    expect((await api('POST', productsPath(a), { body })).status).toBe(401);
    expect((await api('POST', productsPath(b), { key: a.keys.admin, body })).body)
      .toEqual(errorBody(403, 'Forbidden', /another organization/));
  });
});

describe('GET /organizations/:orgId/products', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await createTenant();
    for (
      const [external_id, name, group] of [['A-1', 'Blue 50% mug', 'mug'], ['A-2', 'Red mug', 'mug'], [
        'A-3',
        'Plate',
        null,
      ]]
    ) {
      await createProduct(t, { external_id, name, group });
    }
  });

  it('lists newest first with the pagination envelope, and only the organization’s products', async () => {
    await createProduct(b, { name: 'Stranger mug' });
    const res = await api('GET', `${productsPath(t)}?limit=2`, { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: any) => p.external_id)).toEqual(['A-3', 'A-2']);
    expect(res.body.meta).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
    const second = await api('GET', `${productsPath(t)}?limit=2&page=2`, { key: t.keys.read });
    expect(second.body.data.map((p: any) => p.external_id)).toEqual(['A-1']);
  });

  it('filters by q (a part of the name, wildcards as text), external_id and group', async () => {
    const ids = async (query: string) =>
      (await api('GET', `${productsPath(t)}?${query}`, { key: t.keys.read })).body.data.map((p: any) => p.external_id);
    expect(await ids('q=MUG')).toEqual(['A-2', 'A-1']);
    expect(await ids('q=50%25')).toEqual(['A-1']);
    expect(await ids('q=_')).toEqual([]);
    expect(await ids('external_id=A-2')).toEqual(['A-2']);
    expect(await ids('group=mug')).toEqual(['A-2', 'A-1']);
    expect(await ids('group=mug&q=red')).toEqual(['A-2']);
  });

  it('filters by archived: false for products on sale, true for archived ones, both without it', async () => {
    const c = await createTenant();
    await createProduct(c, { external_id: 'ON-SALE' });
    await createProduct(c, { external_id: 'OLD', archived: true });
    const ids = async (query: string) =>
      (await api('GET', `${productsPath(c)}?${query}`, { key: c.keys.read })).body.data.map((p: any) => p.external_id);
    expect(await ids('archived=false')).toEqual(['ON-SALE']);
    expect(await ids('archived=true')).toEqual(['OLD']);
    expect(await ids('')).toEqual(['OLD', 'ON-SALE']);
    const bad = await api('GET', `${productsPath(c)}?archived=yes`, { key: c.keys.read });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^archived: /);
  });

  it('400 for bad query parameters; 403 for another organization', async () => {
    const res = await api('GET', `${productsPath(t)}?limit=0`, { key: t.keys.read });
    expect(res.body).toEqual(errorBody(400, 'Bad Request', 'limit: must be at least 1'));
    const long = await api('GET', `${productsPath(t)}?q=${'q'.repeat(201)}`, { key: t.keys.read });
    expect(long.body).toEqual(errorBody(400, 'Bad Request', 'q: must be at most 200 characters'));
    expect((await api('GET', productsPath(t), { key: a.keys.read })).status).toBe(403);
  });
});

describe('GET|PATCH|DELETE /organizations/:orgId/products/:id', () => {
  it('reads one product; another organization’s product is not found', async () => {
    const product = await createProduct(a);
    const res = await api('GET', `${productsPath(a)}/${product.id}`, { key: a.keys.read });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(product);
    const stranger = await api('GET', `${productsPath(b)}/${product.id}`, { key: b.keys.read });
    expect(stranger.body).toEqual(errorBody(404, 'Not Found', 'Product not found'));
    const bad = await api('GET', `${productsPath(a)}/not-a-uuid`, { key: a.keys.read });
    expect(bad.body).toEqual(errorBody(400, 'Bad Request', 'id: must be a UUID'));
  });

  it('changes the fields given, clears with null, archives, and keeps the others', async () => {
    const product = await createProduct(a, { brand: 'Acme', sku: 'S-1', group: 'mugs' });
    const res = await api('PATCH', `${productsPath(a)}/${product.id}`, {
      key: a.keys.write,
      body: { name: 'Renamed', brand: null, archived: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', brand: null, sku: 'S-1', group: 'mugs', archived: true });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(product.updated_at));
    const empty = await api('PATCH', `${productsPath(a)}/${product.id}`, { key: a.keys.write, body: {} });
    expect(empty.body).toEqual(res.body);
  });

  it('PATCH: 409 for an external_id another product has, 422 for a bad field, 404 elsewhere, 403 with a read key', async () => {
    const [first, second] = [await createProduct(a), await createProduct(a)];
    const path = `${productsPath(a)}/${second.id}`;
    const taken = await api('PATCH', path, { key: a.keys.write, body: { external_id: first.external_id } });
    expect(taken.body).toEqual(
      errorBody(409, 'Conflict', 'external_id: a product with this external_id exists already'),
    );
    const gtin = await api('PATCH', path, { key: a.keys.write, body: { gtin: '96385075' } });
    expect(gtin.body).toEqual(
      errorBody(422, 'Unprocessable Entity', 'gtin: must be 8, 12, 13 or 14 digits with a valid check digit'),
    );
    const name = await api('PATCH', path, { key: a.keys.write, body: { name: null } });
    expect(name.body).toEqual(errorBody(422, 'Unprocessable Entity', /^name: /));
    const stranger = await api('PATCH', `${productsPath(b)}/${second.id}`, { key: b.keys.write, body: { name: 'x' } });
    expect(stranger.body).toEqual(errorBody(404, 'Not Found', 'Product not found'));
    expect((await api('PATCH', path, { key: a.keys.read, body: { name: 'x' } })).body)
      .toEqual(errorBody(403, 'Forbidden', /write scope/));
    const [row] = await db`select name, gtin from plaudit.products where id = ${second.id}`;
    expect(row).toEqual({ name: 'Mug', gtin: null });
  });

  it('DELETE removes a product (204), never another organization’s (404), and needs the write scope', async () => {
    const product = await createProduct(a);
    const path = `${productsPath(a)}/${product.id}`;
    expect((await api('DELETE', path, { key: a.keys.read })).status).toBe(403);
    expect((await api('DELETE', `${productsPath(b)}/${product.id}`, { key: b.keys.write })).body)
      .toEqual(errorBody(404, 'Not Found', 'Product not found'));
    const res = await api('DELETE', path, { key: a.keys.write });
    expect(res.status).toBe(204);
    expect((await api('GET', path, { key: a.keys.read })).status).toBe(404);
    expect((await api('DELETE', path, { key: a.keys.write })).status).toBe(404);
  });
});

describe('PUT /organizations/:orgId/products (the bulk sync)', () => {
  it('adds 1,000 products in one call, and the same body again changes nothing', async () => {
    const t = await createTenant();
    const products = Array.from({ length: 1000 }, (_, i) => ({
      external_id: `SKU-${String(i).padStart(4, '0')}`,
      name: `Product ${i} with a name long enough to make the body large`,
      url: `https://shop.example/products/${i}`,
      image_url: `https://cdn.example/products/${i}.jpg`,
      brand: 'Acme',
      group: `group-${i % 10}`,
    }));
    const first = await api('PUT', productsPath(t), { key: t.keys.write, body: { products } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ created: 1000, updated: 0, unchanged: 0, rejected: [] });
    const [before] = await db`
      select count(*)::integer as n, max(updated_at) as last from plaudit.products where org_id = ${t.org.id}`;
    expect(before.n).toBe(1000);
    const second = await api('PUT', productsPath(t), { key: t.keys.write, body: { products } });
    expect(second.body).toEqual({ created: 0, updated: 0, unchanged: 1000, rejected: [] });
    const [after] = await db`select max(updated_at) as last from plaudit.products where org_id = ${t.org.id}`;
    expect(after.last).toEqual(before.last);
  });

  it('lands the good rows and refuses the bad ones by index, naming the field', async () => {
    const existing = await createProduct(a, { brand: 'Acme', group: 'mugs' });
    const newId = externalId('NEW');
    const res = await api('PUT', productsPath(a), {
      key: a.keys.write,
      body: {
        products: [
          { external_id: newId, name: 'New plate', gtin: '036000291452' },
          { external_id: existing.external_id, name: 'Mug, renamed', group: null },
          { external_id: externalId(), name: 'Bad GTIN', gtin: '036000291453' },
          { external_id: externalId(), name: '' },
          'not an object',
          { external_id: newId, name: 'Same id again' },
          { external_id: existing.external_id, name: 'Mug, renamed', group: null },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      created: 1,
      updated: 1,
      unchanged: 0,
      rejected: [
        { index: 2, message: 'gtin: must be 8, 12, 13 or 14 digits with a valid check digit' },
        { index: 3, message: 'name: must not be empty' },
        { index: 4, message: 'product: must be an object' },
        { index: 5, message: 'external_id: repeats the external_id of row 0' },
        { index: 6, message: 'external_id: repeats the external_id of row 1' },
      ],
    });
    const [changed] = (await api('GET', `${productsPath(a)}?external_id=${existing.external_id}`, { key: a.keys.read }))
      .body.data;
    expect(changed).toMatchObject({ id: existing.id, name: 'Mug, renamed', brand: 'Acme', group: null });
    const [added] = (await api('GET', `${productsPath(a)}?external_id=${newId}`, { key: a.keys.read })).body.data;
    expect(added).toMatchObject({ name: 'New plate', gtin: '036000291452', archived: false });
  });

  it('never touches another organization’s product of the same external_id', async () => {
    const theirs = await createProduct(b, { name: 'Theirs' });
    const res = await api('PUT', productsPath(a), {
      key: a.keys.write,
      body: { products: [{ external_id: theirs.external_id, name: 'Ours' }] },
    });
    expect(res.body).toEqual({ created: 1, updated: 0, unchanged: 0, rejected: [] });
    expect((await api('GET', `${productsPath(b)}/${theirs.id}`, { key: b.keys.read })).body.name).toBe('Theirs');
  });

  it('422 for a body that is not 1–1,000 products; 413 past 1 MiB; 403 with a read key', async () => {
    const none = await api('PUT', productsPath(a), { key: a.keys.write, body: { products: [] } });
    expect(none.body).toEqual(errorBody(422, 'Unprocessable Entity', 'products: must have at least 1 item'));
    const many = Array.from({ length: 1001 }, (_, i) => ({ external_id: `X-${i}`, name: 'x' }));
    const tooMany = await api('PUT', productsPath(a), { key: a.keys.write, body: { products: many } });
    expect(tooMany.body).toEqual(errorBody(422, 'Unprocessable Entity', 'products: must have at most 1000 items'));
    const huge = Array.from({ length: 3 }, (_, i) => ({ external_id: `H-${i}`, name: 'n'.repeat(400_000) }));
    const tooLarge = await api('PUT', productsPath(a), { key: a.keys.write, body: { products: huge } });
    expect(tooLarge.body).toEqual(errorBody(413, 'Payload Too Large', 'Request body exceeds the limit of 1 MiB'));
    const read = await api('PUT', productsPath(a), { key: a.keys.read, body: { products: [{}] } });
    expect(read.body).toEqual(errorBody(403, 'Forbidden', /write scope/));
  });
});
