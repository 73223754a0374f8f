// Meta's product review feed (CSV) and the review feeds' report over HTTP: 404 until switched on,
// then one row per published product review in Meta's columns, incentivized and
// has_verified_purchase on every row, no e-mail address, hostile text kept a cell; the report's
// counts by reason; ETag / 304 and gzip as the Google feed.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../functions/_shared/core/csv.ts';
import { META_REVIEW_FEED_COLUMNS } from '../../../functions/_shared/api/routes/review-feeds.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { createForm, ownApiServer, postReviews } from '../../helpers/reviews.ts';

const server = ownApiServer({ PUBLIC_URL: 'https://reviews.example.com' });
const call = server.call;
const feed = (t: Tenant) => `/api/v1/public/feeds/${t.org.slug}/meta-product-reviews.csv`;
const report = (t: Tenant) => `/api/v1/public/feeds/${t.org.slug}/report`;
const HOSTILE = '=HYPERLINK("https://evil.example"),"quoted"\r\nnew line; semi';

let a: Tenant;
let b: Tenant;
let ids: { mug: string[]; business: string[]; hidden: string; pending: string };

async function settings(t: Tenant, body: Record<string, unknown>) {
  const res = await call('PATCH', `/api/v1/organizations/${t.org.id}/public-profile`, { key: t.keys.admin, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
  for (const t of [a, b]) {
    const res = await call('POST', `/api/v1/organizations/${t.org.id}/products`, {
      key: t.keys.write,
      body: { external_id: 'MUG 1', name: 'Blue, "big" mug', gtin: '4006381333931', sku: 'SKU-1' },
    });
    expect(res.status).toBe(201);
  }
  const form = (await createForm(call, a)).id;
  const mug = await postReviews(form, 'meta-mug', [
    [5, 'Great', HOSTILE, 'Ada'],
    [4, null, 'Fine mug', 'Bob'],
    [2, 'Hidden', 'Hidden later', 'Cy'],
  ], 'MUG 1');
  const business = await postReviews(form, 'meta-biz', [[3, 'Shop', 'About the shop', 'Dee']]);
  const pendingForm = (await createForm(call, a, { verification_mode: 'email' })).id;
  const [pending] = await postReviews(
    pendingForm,
    'meta-pending',
    [[1, 'Pending', 'Not verified yet', 'Eve']],
    'MUG 1',
  );
  await call('PATCH', `/api/v1/organizations/${a.org.id}/reviews/${mug[2]}/moderate`, {
    key: a.keys.write,
    body: { action: 'hide', reason: 'test' },
  });
  // A verified purchase with an incentive, as fixture (the review's own rules forbid rewriting it;
  // it stays public either way, so no counter changes).
  await db.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`update plaudit.reviews set incentive = ${tx.json({ type: 'discount', description: '10% off' })},
                    verification_status = 'verified', verification_method = 'purchase_proof'
              where id = ${mug[0]}`;
  });
  const formB = (await createForm(call, b)).id;
  await postReviews(formB, 'meta-b', [[5, 'Theirs', 'Another shop', 'Zed']], 'MUG 1');
  ids = { mug: mug.slice(0, 2), business, hidden: mug[2], pending };
});

describe('GET /public/feeds/:slug/meta-product-reviews.csv', () => {
  it('answers 404 while the setting is off (the default), and for an unknown slug', async () => {
    expect((await call('GET', `/api/v1/organizations/${a.org.id}/public-profile`, { key: a.keys.read })).body)
      .toMatchObject({ meta_review_feed: false });
    for (const path of [feed(a), '/api/v1/public/feeds/no-such-shop-x/meta-product-reviews.csv']) {
      const res = await call('GET', path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorBody(404, 'Not Found', 'Feed not found'));
    }
  });

  it("holds one row per published product review in Meta's columns, and nothing else", async () => {
    await settings(a, { meta_review_feed: true });
    const res = await call('GET', feed(a));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = res.body as string;
    const { rows } = parseCsv(text, ',');
    expect(rows[0]).toEqual([...META_REVIEW_FEED_COLUMNS]);
    const records = rows.slice(1).map((r) => Object.fromEntries(META_REVIEW_FEED_COLUMNS.map((c, i) => [c, r[i]])));
    expect(records.map((r) => r.reviewID).sort()).toEqual([...ids.mug].sort());
    for (const r of records) {
      expect(['true', 'false']).toContain(r.incentivized);
      expect(['true', 'false']).toContain(r.has_verified_purchase);
      expect(r['store.id']).toBe(a.org.slug);
      expect(r['product.name']).toBe('Blue, "big" mug');
      expect(r['product.url']).toBe(`https://reviews.example.com/p/${a.org.slug}/products/MUG%201`);
      expect(JSON.parse(r['product.productIdentifiers.gtins'])).toEqual(['4006381333931']);
    }
    const hostile = records.find((r) => r.reviewID === ids.mug[0])!;
    // A formula is defused with an apostrophe; quotes, commas and line breaks stay inside the cell.
    expect(hostile.content).toBe(`'${HOSTILE}`);
    expect(hostile).toMatchObject({ incentivized: 'true', has_verified_purchase: 'true', rating: '5' });
    expect(records.find((r) => r.reviewID === ids.mug[1])).toMatchObject({
      incentivized: 'false',
      has_verified_purchase: 'false',
      title: '',
    });
    expect(text).not.toMatch(/@example\.com/);
    for (const id of [ids.hidden, ids.pending, ...ids.business]) expect(text).not.toContain(id);
  });

  it('answers 304 to a current ETag and gzips when asked', async () => {
    const first = await call('GET', feed(a));
    const etag = first.headers.get('etag')!;
    expect((await call('GET', feed(a), { headers: { 'if-none-match': etag } })).status).toBe(304);
    const res = await fetch(`${server.url}${feed(a)}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // fetch undoes the encoding itself (the Google feed's test reads the raw bytes too).
    expect(await res.text()).toBe(first.body);
  });
});

describe('GET /public/feeds/:slug/report', () => {
  it('answers 404 while no feed is on', async () => {
    const res = await call('GET', report(b));
    expect(res.status).toBe(404);
  });

  it('counts, per feed, the reviews in and those left out by reason', async () => {
    await settings(a, { meta_review_feed: true, google_product_feed: false });
    const res = await call('GET', report(a));
    expect(res.status).toBe(200);
    const counts = { included: 2, left_out: { no_product_id: 1, hidden: 1, not_published: 1 } };
    expect(res.body).toEqual({ google: { published: false, ...counts }, meta: { published: true, ...counts } });
    expect((await call('GET', report(a), { headers: { 'if-none-match': res.headers.get('etag')! } })).status)
      .toBe(304);
    // The Google feed's figures are the same reviews: its setting only says whether it answers.
    await settings(b, { google_product_feed: true });
    expect((await call('GET', report(b))).body.google).toEqual({
      published: true,
      included: 1,
      left_out: { no_product_id: 0, hidden: 0, not_published: 0 },
    });
  });
});
