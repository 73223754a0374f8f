// Shopify write-back against a real HTTP server that speaks the Admin GraphQL API's shape: the
// exact mutation and variables, one call for a burst of reviews of several products, the
// rating's removal when a product has no published review left, retries of a failing shop,
// Shopify's refusals recorded, and no call for shops that are not `<name>.myshopify.com`,
// connections without a token, or products that are not Shopify's.
import { afterEach, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createProduct } from '../../helpers/products.ts';
import { type Answer, eventually, type ReceivedRequest, type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { createForm, postReviews } from '../../helpers/reviews.ts';
import { startWorker } from '../../helpers/worker.ts';

const TOKEN = 'shpat_write-back-token-0123456789';
const GRAPHQL_PATH = '/admin/api/2025-10/graphql.json';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** What a request carried, checked against the GraphQL shape metafieldsSet documents. */
interface ShopifyCall {
  metafields: { ownerId: string; namespace: string; key: string; type: string; value: string }[];
  deletions: { ownerId: string; namespace: string; key: string }[];
}

function readCall(r: ReceivedRequest): ShopifyCall {
  expect(r.method).toBe('POST');
  expect(r.path).toBe(GRAPHQL_PATH);
  expect(r.headers['x-shopify-access-token']).toBe(TOKEN);
  expect(r.headers['content-type']).toBe('application/json');
  const { query, variables } = JSON.parse(r.body);
  expect(query).toMatch(/^mutation \w+\(\$metafields: \[MetafieldsSetInput!\]!/);
  expect(query).toMatch(/metafieldsSet\(metafields: \$metafields\)/);
  expect(query).toMatch(/userErrors \{ field message code \}/);
  expect(variables.metafields.length).toBeLessThanOrEqual(25);
  if (variables.deletions) expect(query).toMatch(/metafieldsDelete\(metafields: \$deletions\)/);
  return { metafields: variables.metafields, deletions: variables.deletions ?? [] };
}

/** Shopify's answer to a valid call: the metafields set, no user errors. */
function shopifyOk(r: ReceivedRequest): Answer {
  const { metafields, deletions } = readCall(r);
  const data: Record<string, unknown> = {
    metafieldsSet: {
      metafields: metafields.map(({ ownerId, namespace, key }) => ({ ownerId, namespace, key })),
      userErrors: [],
    },
  };
  if (deletions.length) data.metafieldsDelete = { deletedMetafields: deletions, userErrors: [] };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data }) };
}

async function shop(respond: Receiver['respond'] = shopifyOk) {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  return r;
}

async function worker(t: Tenant, r: Receiver) {
  const w = await startWorker([t.org.id], { shopifyApiUrl: r.url });
  cleanups.push(() => w.stop());
  return w;
}

async function connection(t: Tenant, { domain = 'acme-bikes.myshopify.com', token = TOKEN as string | null } = {}) {
  const [c] = await db`
    insert into plaudit.connections (org_id, platform, name, settings, secret, access_token)
    values (${t.org.id}, 'shopify', 'Shop', ${db.json({ shop_domain: domain })}, 'shpss_secret', ${token})
    returning id`;
  return c.id as string;
}

async function writeBacks(t: Tenant) {
  return await db`select w.status, w.attempts, w.rating, w.rating_count, w.last_error, p.external_id
                    from plaudit.shopify_write_backs w join plaudit.products p on p.id = w.product_id
                   where w.org_id = ${t.org.id} order by w.created_at, p.external_id`;
}

const settled = (rows: readonly { status?: unknown }[]) =>
  rows.length > 0 && rows.every((w) => w.status === 'sent' || w.status === 'failed');

/** A shop with a catalog of two Shopify products and one of elsewhere, and a form to review them with. */
async function business() {
  const t = await createTenant();
  const form = await createForm(api, t);
  const n = Math.floor(Math.random() * 1e9);
  const [a, b] = [String(7000000000 + n), String(8000000000 + n)];
  await createProduct(api, t, { external_id: a });
  await createProduct(api, t, { external_id: b });
  await createProduct(api, t, { external_id: `SKU-${n}` });
  return { t, form, a, b, other: `SKU-${n}` };
}

const rating = (externalId: string, value: string) => ({
  ownerId: `gid://shopify/Product/${externalId}`,
  namespace: 'reviews',
  key: 'rating',
  type: 'rating',
  value: JSON.stringify({ value, scale_min: '1.0', scale_max: '5.0' }),
});
const count = (externalId: string, n: number) => ({
  ownerId: `gid://shopify/Product/${externalId}`,
  namespace: 'reviews',
  key: 'rating_count',
  type: 'number_integer',
  value: String(n),
});

describe('published reviews of a Shopify product set its rating metafields', () => {
  it('coalesces a burst of reviews into one metafieldsSet call naming every product, and logs it sent', async () => {
    const { t, form, a, b, other } = await business();
    const shopId = await connection(t);
    await connection(t, { token: null }); // without a token: nothing to write with
    await postReviews(form.id, `wb-a-${a}`, [[5, null, 'Great bike.', 'Ann'], [4, null, 'Good bike.', 'Bob']], a);
    await postReviews(form.id, `wb-a2-${a}`, [[4, null, 'Fine bike.', 'Cy']], a);
    await postReviews(form.id, `wb-b-${b}`, [[3, null, 'Fair.', 'Dee']], b);
    await postReviews(form.id, `wb-o-${b}`, [[5, null, 'Not a Shopify product.', 'Eve']], other);
    // One pending write-back per Shopify product, however many reviews came.
    expect((await writeBacks(t)).map((w) => [w.external_id, w.status])).toEqual([[a, 'pending'], [b, 'pending']]);

    const r = await shop();
    await worker(t, r);
    await eventually(async () => settled(await writeBacks(t)), 10_000, 'the write-backs');
    expect(r.requests).toHaveLength(1);
    const call = readCall(r.requests[0]);
    expect(call.deletions).toEqual([]);
    expect(call.metafields).toHaveLength(4);
    expect(call.metafields).toEqual(expect.arrayContaining([
      rating(a, '4.3'), // (5 + 4 + 4) / 3
      count(a, 3),
      rating(b, '3.0'),
      count(b, 1),
    ]));
    expect(
      (await writeBacks(t)).map((w) => [w.external_id, w.status, w.attempts, w.rating, w.rating_count, w.last_error]),
    )
      .toEqual([[a, 'sent', 1, '4.3', 3, null], [b, 'sent', 1, '3.0', 1, null]]);

    // The connection's write-back log, as the dashboard reads it (admin), newest first.
    const logPath = `/api/v1/organizations/${t.org.id}/connections/${shopId}/write-backs`;
    const log = await api('GET', logPath, { key: t.keys.admin });
    expect(log.status).toBe(200);
    expect(log.body.meta.total).toBe(2);
    expect(
      log.body.data.map((w: any) => [w.product_external_id, w.status, w.rating, w.rating_count, w.last_error]).sort(),
    )
      .toEqual([[a, 'sent', '4.3', 3, null], [b, 'sent', '3.0', 1, null]]);
    expect(Object.keys(log.body.data[0]).sort()).toEqual([
      'attempts',
      'created_at',
      'id',
      'last_error',
      'next_attempt_at',
      'product_external_id',
      'rating',
      'rating_count',
      'sent_at',
      'status',
    ]);
    expect((await api('GET', logPath, { key: t.keys.read })).status).toBe(403);
    const stranger = await createTenant();
    const foreign = await api('GET', `/api/v1/organizations/${stranger.org.id}/connections/${shopId}/write-backs`, {
      key: stranger.keys.admin,
    });
    expect(foreign.status).toBe(404);
  });

  it('removes the rating of a product whose last published review is hidden, and keeps its count at 0', async () => {
    const { t, form, a } = await business();
    await connection(t);
    const [reviewId] = await postReviews(form.id, `wb-h-${a}`, [[2, null, 'Broke fast.', 'Ann']], a);
    const r = await shop();
    await worker(t, r);
    await r.waitFor(1);
    await eventually(async () => settled(await writeBacks(t)), 10_000, 'the first write-back');

    const hidden = await api('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'Spam' },
    });
    expect(hidden.status).toBe(200);
    const [, second] = await r.waitFor(2);
    expect(readCall(second)).toEqual({
      metafields: [count(a, 0)],
      deletions: [{ ownerId: `gid://shopify/Product/${a}`, namespace: 'reviews', key: 'rating' }],
    });
    await eventually(async () => (await writeBacks(t)).at(-1)?.status === 'sent', 10_000, 'recorded');
    expect((await writeBacks(t)).at(-1)).toMatchObject({ rating: null, rating_count: 0 });
  });

  it('retries a shop that answers 503 or throttles, on the webhooks schedule, until it takes the call', async () => {
    const { t, form, a } = await business();
    await connection(t);
    await postReviews(form.id, `wb-r-${a}`, [[5, null, 'Superb.', 'Ann']], a);
    const throttled = JSON.stringify({ errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }] });
    const r = await shop((req, i) => {
      readCall(req);
      if (i === 0) return { status: 503, body: 'unavailable' };
      if (i === 1) return { status: 200, headers: { 'content-type': 'application/json' }, body: throttled };
      return shopifyOk(req);
    });
    const w = await worker(t, r);
    await eventually(async () => settled(await writeBacks(t)), 15_000, 'the write-back');
    expect(r.requests).toHaveLength(3);
    expect(new Set(r.requests.map((q) => q.body)).size).toBe(1); // the same call each time
    expect(await writeBacks(t)).toMatchObject([{ status: 'sent', attempts: 3, rating: '5.0', rating_count: 1 }]);
    const lines = w.logs.filter((l) => l.msg === 'shopify write-back');
    expect(lines.map((l) => l.outcome)).toEqual(['retry', 'retry', 'sent']);
    expect(lines[0].error).toBe('Shopify answered 503');
    expect(lines[1].error).toBe('THROTTLED: Throttled');
    expect(JSON.stringify(w.logs)).not.toContain(TOKEN);
  });

  it("records Shopify's user errors as a failure and does not try again", async () => {
    const { t, form, a } = await business();
    await connection(t);
    await postReviews(form.id, `wb-u-${a}`, [[4, null, 'Nice.', 'Ann']], a);
    const r = await shop((req) => {
      readCall(req);
      const data = {
        metafieldsSet: {
          metafields: [],
          userErrors: [{ field: ['metafields', '0', 'ownerId'], message: 'Owner does not exist', code: 'INVALID' }],
        },
      };
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data }) };
    });
    await worker(t, r);
    await eventually(async () => settled(await writeBacks(t)), 10_000, 'the write-back');
    expect(await writeBacks(t)).toMatchObject([{
      status: 'failed',
      attempts: 1,
      last_error: 'Shopify refused: metafields.0.ownerId: Owner does not exist',
    }]);
    expect(r.requests).toHaveLength(1);
  });

  it('never calls a shop whose domain is not <name>.myshopify.com', async () => {
    const { t, form, a } = await business();
    await connection(t, { domain: '169.254.169.254' });
    await postReviews(form.id, `wb-s-${a}`, [[4, null, 'Nice.', 'Ann']], a);
    const r = await shop();
    await worker(t, r);
    await eventually(async () => settled(await writeBacks(t)), 10_000, 'the write-back');
    expect(await writeBacks(t)).toMatchObject([{
      status: 'failed',
      last_error: 'the shop domain is not <name>.myshopify.com',
    }]);
    expect(r.requests).toHaveLength(0);
  });
});
