// The Google Product Ratings feed over HTTP: 404 until switched on, then every published product
// review (and nothing else) as Google's schema 2.4 wants it (validated with xmllint against
// tests/fixtures/google-product-reviews-2.4.xsd), text escaped whatever it holds, only the slug's
// own reviews, the flags per verification method, and ETag / Last-Modified / gzip.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { FEED_PAGE_SIZE } from '../../../functions/_shared/api/routes/google-product-feed.ts';
import { createForm, ownApiServer } from '../../helpers/reviews.ts';
import { jpegWithGps, upload } from '../../helpers/media.ts';

const server = ownApiServer({ PUBLIC_URL: 'https://reviews.example.com' });
const call = server.call;
const SCHEMA = fileURLToPath(new URL('../../fixtures/google-product-reviews-2.4.xsd', import.meta.url));

const feedPath = (t: Tenant) => `/api/v1/public/feeds/${t.org.slug}/google-product-reviews.xml`;
const orgPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}`;

/** xmllint's verdict on a document against Google's schema: '' when valid, else its complaints. */
function schemaErrors(xml: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'feed-')), 'feed.xml');
  fs.writeFileSync(file, xml);
  const r = spawnSync('xmllint', ['--noout', '--schema', SCHEMA, file], { encoding: 'utf8' });
  return r.status === 0 ? '' : r.stderr;
}

/** The <review> elements of a feed, each as its text. */
const reviewsOf = (xml: string) => xml.match(/<review>.*?<\/review>/gs) ?? [];
const reviewWithId = (xml: string, id: string) => reviewsOf(xml).find((r) => r.includes(`<review_id>${id}<`));
/** The names of an element's children, in order. */
const childNames = (element: string) => {
  const names: string[] = [];
  let depth = 0;
  for (const [, close, name, selfClosing] of element.matchAll(/<(\/?)([a-z_]+)[^>]*?(\/?)>/g)) {
    if (close) depth -= 1;
    else {
      if (depth === 1) names.push(name);
      if (!selfClosing) depth += 1;
    }
  }
  return names;
};

async function switchFeed(t: Tenant, on: boolean, extra: Record<string, unknown> = {}) {
  const res = await call('PATCH', `${orgPath(t)}/public-profile`, {
    key: t.keys.admin,
    body: { google_product_feed: on, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.google_product_feed).toBe(on);
}

async function createProduct(t: Tenant, body: Record<string, unknown>) {
  const res = await call('POST', `${orgPath(t)}/products`, { key: t.keys.write, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; external_id: string };
}

let serial = 0;
/** A review stored as each verification path leaves it (the flows themselves are tested elsewhere). */
async function review(
  t: Tenant,
  formId: string,
  productId: string | null,
  fields: Partial<
    Record<'status' | 'method' | 'title' | 'content' | 'name', string | null> & { hidden: boolean; rating: number }
  > = {},
): Promise<string> {
  serial += 1;
  const [row] = await db`
    insert into plaudit.reviews (org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                                 verification_status, verification_method, is_hidden, product_id)
    values (${t.org.id}, ${formId}, ${fields.rating ?? 4}, ${fields.title === undefined ? 'Title' : fields.title},
            ${fields.content ?? `Review ${serial}`}, ${fields.name ?? 'Ada'}, ${`reviewer${serial}@example.com`},
            ${fields.status ?? 'verified'}, ${fields.method === undefined ? 'email' : fields.method},
            ${fields.hidden ?? false}, ${productId})
    returning id`;
  return row.id;
}

let a: Tenant;
let b: Tenant;
const ids: Record<string, string> = {};
let feed = '';
const photos: { id: string; url: string }[] = [];

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
  const [formA, formB] = await Promise.all([createForm(call, a), createForm(call, b)]);
  const mug = await createProduct(a, {
    external_id: 'MUG 1/é',
    name: 'Mug <b>bold</b> & "Co" ]]> \u0001end',
    url: 'https://shop.example/mug?a=1&b=2',
    gtin: '4006381333931',
    mpn: 'MPN-1',
    sku: 'SKU-1',
    brand: 'Acme & Sons',
  });
  const plate = await createProduct(a, { external_id: 'PLATE', name: 'Plate' });
  const theirs = await createProduct(b, { external_id: 'THEIRS', name: 'Their product' });
  ids.proof = await review(a, formA.id, mug.id, { method: 'purchase_proof', rating: 1 });
  ids.invitation = await review(a, formA.id, mug.id, { method: 'invitation', rating: 5 });
  ids.email = await review(a, formA.id, plate.id, { method: 'email', title: null });
  ids.manual = await review(a, formA.id, plate.id, { method: 'manual' });
  ids.unverified = await review(a, formA.id, plate.id, { status: 'unverified', method: null, rating: 2 });
  ids.markup = await review(a, formA.id, mug.id, {
    status: 'unverified',
    method: null,
    title: '<script>alert(1)</script>',
    content: 'Nice ]]> <![CDATA[ & \u0007bell\u001b',
    name: '<i>Eve</i> \u0002',
  });
  ids.hidden = await review(a, formA.id, mug.id, { hidden: true });
  ids.pending = await review(a, formA.id, mug.id, { status: 'pending', method: null });
  ids.rejected = await review(a, formA.id, mug.id, { status: 'rejected', method: null });
  ids.business = await review(a, formA.id, null);
  // Two photos on one review, the second hidden: only the first is in the feed.
  for (const seed of [1, 2]) {
    const photo = await upload(ids.invitation, await jpegWithGps(40, 30, seed), {
      key: a.keys.write,
      baseUrl: server.url,
    });
    expect(photo.status).toBe(201);
    photos.push(photo.body);
  }
  await call('PATCH', `/api/v1/organizations/${a.org.id}/reviews/${ids.invitation}/media/${photos[1].id}/moderate`, {
    key: a.keys.write,
    body: { action: 'hide', reason: 'A face' },
  });
  ids.theirs = await review(b, formB.id, theirs.id);
  await Promise.all([switchFeed(a, true), switchFeed(b, true)]);
  const res = await call('GET', feedPath(a));
  expect(res.status).toBe(200);
  feed = res.body;
});

describe('GET /public/feeds/:slug/google-product-reviews.xml', () => {
  it('answers 404 while the feed is off, for an unknown slug, and while the profile is off', async () => {
    const t = await createTenant();
    const notFound = errorBody(404, 'Not Found', /^Feed not found$/);
    expect((await call('GET', feedPath(t))).body).toEqual(notFound);
    expect((await call('GET', '/api/v1/public/feeds/no-such-business/google-product-reviews.xml')).body)
      .toEqual(notFound);
    await switchFeed(t, true, { enabled: false });
    const off = await call('GET', feedPath(t));
    expect(off.status).toBe(404);
    expect(off.body).toEqual(notFound);
    await switchFeed(t, true, { enabled: true });
    const empty = await call('GET', feedPath(t));
    expect(empty.status).toBe(200);
    expect(schemaErrors(empty.body)).toBe('');
    expect(empty.body).not.toContain('<reviews>');
  });

  it("is XML that Google's schema 2.4 accepts, with the business as publisher", async () => {
    expect(schemaErrors(feed)).toBe('');
    const res = await call('GET', feedPath(a));
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(feed).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<feed /);
    expect(childNames(feed.slice(feed.indexOf('<feed')))).toEqual(['version', 'aggregator', 'publisher', 'reviews']);
    expect(feed).toContain(`<publisher><name>${a.org.name}</name></publisher>`);
    expect(feed).toContain(`<!-- The product reviews of https://reviews.example.com/p/${a.org.slug} -->`);
  });

  it('holds every published product review whatever its rating, and nothing else', () => {
    const inFeed = reviewsOf(feed).map((r) => /<review_id>(.*?)</.exec(r)![1]).sort();
    expect(inFeed).toEqual([ids.proof, ids.invitation, ids.email, ids.manual, ids.unverified, ids.markup].sort());
    expect(feed).not.toContain('@example.com');
  });

  it("carries a review's visible photos as reviewer_images, after review_url", () => {
    const element = reviewWithId(feed, ids.invitation)!;
    const names = childNames(element);
    expect(names.slice(names.indexOf('review_url'), names.indexOf('review_url') + 3)).toEqual([
      'review_url',
      'reviewer_images',
      'ratings',
    ]);
    expect(element).toContain(
      `<reviewer_images><reviewer_image><url>${photos[0].url}</url></reviewer_image></reviewer_images>`,
    );
    expect(photos[0].url).toMatch(/^https:\/\/reviews\.example\.com\/api\/v1\/public\/media\//);
    expect(element).not.toContain(photos[1].id);
  });

  it("writes each review's elements in the schema's order, with the product's ids and pages", () => {
    const element = reviewWithId(feed, ids.proof)!;
    expect(childNames(element)).toEqual([
      'review_id',
      'reviewer',
      'is_verified_purchase',
      'is_incentivized_review',
      'review_timestamp',
      'title',
      'content',
      'review_url',
      'ratings',
      'products',
      'is_spam',
      'collection_method',
    ]);
    const page = 'https://reviews.example.com/p/' + a.org.slug + '/products/MUG%201%2F%C3%A9';
    expect(element).toContain(`<review_url type="singleton">${page}</review_url>`);
    expect(element).toContain('<ratings><overall min="1" max="5">1</overall></ratings>');
    expect(element).toContain(
      '<product_ids><gtins><gtin>4006381333931</gtin></gtins><mpns><mpn>MPN-1</mpn></mpns>' +
        '<skus><sku>SKU-1</sku></skus><brands><brand>Acme &amp; Sons</brand></brands></product_ids>',
    );
    expect(element).toContain('<product_url>https://shop.example/mug?a=1&amp;b=2</product_url>');
    expect(element).toContain('<is_spam>false</is_spam>');
    expect(element).toMatch(/<review_timestamp>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/review_timestamp>/);
    // A product without ids or an address of its own: no product_ids, its public page as product_url.
    const plate = reviewWithId(feed, ids.email)!;
    expect(plate).not.toContain('<product_ids>');
    expect(plate).not.toContain('<title>');
    expect(plate).toContain(`<product_url>https://reviews.example.com/p/${a.org.slug}/products/PLATE</product_url>`);
  });

  it('flags verified purchases (purchase proof, invitation) and invitations as post_fulfillment', () => {
    const flags = (id: string) => {
      const r = reviewWithId(feed, id)!;
      return [
        /<is_verified_purchase>(.*?)</.exec(r)![1],
        /<collection_method>(.*?)</.exec(r)![1],
        /<is_incentivized_review>(.*?)</.exec(r)![1],
      ];
    };
    expect(flags(ids.proof)).toEqual(['true', 'unsolicited', 'false']);
    expect(flags(ids.invitation)).toEqual(['true', 'post_fulfillment', 'false']);
    expect(flags(ids.email)).toEqual(['false', 'unsolicited', 'false']);
    expect(flags(ids.manual)).toEqual(['false', 'unsolicited', 'false']);
    expect(flags(ids.unverified)).toEqual(['false', 'unsolicited', 'false']);
  });

  it('keeps markup, ]]> and control characters as text: the document stays well-formed', () => {
    const element = reviewWithId(feed, ids.markup)!;
    expect(element).toContain('<reviewer><name>&lt;i&gt;Eve&lt;/i&gt; </name></reviewer>');
    expect(element).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(element).toContain('<content>Nice ]]&gt; &lt;![CDATA[ &amp; bell</content>');
    expect(element).toContain('<product_name>Mug &lt;b&gt;bold&lt;/b&gt; &amp; "Co" ]]&gt; end</product_name>');
    // deno-lint-ignore no-control-regex -- finding the control characters is the point
    expect(feed).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });

  it("holds only the slug's own organization's reviews", async () => {
    expect(feed).not.toContain(ids.theirs);
    const theirs = await call('GET', feedPath(b));
    expect(reviewsOf(theirs.body).map((r) => /<review_id>(.*?)</.exec(r)![1])).toEqual([ids.theirs]);
    expect(theirs.body).not.toContain(ids.proof);
  });

  it('streams a feed of many pages whole, its last page empty (a multiple of the page size)', async () => {
    const t = await createTenant();
    const form = await createForm(call, t);
    const product = await createProduct(t, { external_id: 'MANY', name: 'Many' });
    const count = 2 * FEED_PAGE_SIZE;
    await db`
      insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email,
                                   verification_status, product_id, created_at)
      select ${t.org.id}, ${form.id}, 1 + g % 5, 'Review ' || g, 'Reviewer ' || g, 'r' || g || '@example.com',
             'unverified', ${product.id}, now() - g * interval '1 second'
      from generate_series(1, ${count}) g`;
    await switchFeed(t, true);
    const res = await call('GET', feedPath(t));
    expect(res.status).toBe(200);
    expect(res.body.endsWith('\n  </reviews>\n</feed>\n')).toBe(true);
    const reviewIds = reviewsOf(res.body).map((r) => /<review_id>(.*?)</.exec(r)![1]);
    expect(reviewIds).toHaveLength(count);
    expect(new Set(reviewIds).size).toBe(count);
    expect(schemaErrors(res.body)).toBe('');
  });

  it('revalidates with ETag and Last-Modified, and moves them when a review is published', async () => {
    const first = await call('GET', feedPath(a));
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=300');
    expect(first.headers.get('vary')).toBe('Accept-Encoding');
    const again = await call('GET', feedPath(a), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await call('GET', feedPath(a), { headers: { 'if-modified-since': lastModified } })).status).toBe(304);
    expect((await call('GET', feedPath(a), { headers: { 'if-none-match': '"other"' } })).status).toBe(200);

    const [form] = await db`select form_id from plaudit.reviews where id = ${ids.proof}`;
    const [product] = await db`select product_id from plaudit.reviews where id = ${ids.proof}`;
    const added = await review(a, form.form_id, product.product_id, { method: 'invitation' });
    const changed = await call('GET', feedPath(a), { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body).toContain(`<review_id>${added}</review_id>`);
  });

  it('gzips for clients that ask, the same document', async () => {
    const res = await fetch(`${server.url}${feedPath(a)}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // fetch undoes the encoding itself; the raw bytes are checked through node:zlib below.
    const identity = await (await fetch(`${server.url}${feedPath(a)}`, { headers: { 'accept-encoding': 'identity' } }))
      .text();
    expect(await res.text()).toBe(identity);
    const raw = await rawGet(`${server.url}${feedPath(a)}`, { 'accept-encoding': 'gzip;q=1, identity;q=0.5' });
    expect(gunzipSync(raw).toString('utf8')).toBe(identity);
    const refused = await rawGet(`${server.url}${feedPath(a)}`, { 'accept-encoding': 'gzip;q=0' });
    expect(refused.toString('utf8')).toBe(identity);
  });
});

/** The body's bytes as sent, without fetch's decoding. */
async function rawGet(url: string, headers: Record<string, string>): Promise<Buffer> {
  const http = await import('node:http');
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject);
  });
}
