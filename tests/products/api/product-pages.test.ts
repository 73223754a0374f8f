// The product pages over HTTP: /p/:slug/products (the catalog with stars, paged; archived products
// only with reviews of their own) and /p/:slug/products/:externalId (the group's summary and bars,
// reviews paged with sort and star filter, the same Product JSON-LD as the `jsonld` route); both
// with ETag/304 and the profile page's Cache-Control, 404s, markup in names as text, the sitemap's
// entries, and the business's profile page with its sort and its link to the products, still
// about the business only.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { syncProducts } from '../../helpers/products.ts';
import { createForm } from '../../helpers/review-requests.ts';
import { ownApiServer, postReviews, type ReviewSpec } from '../../helpers/reviews.ts';

const server = ownApiServer();
const call = server.call;
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });
const orgPath = (x: Tenant) => `/api/v1/organizations/${x.org.id}`;

const MUG = 'Mug <script>alert(1)</script> & "blue"';
const ODD_ID = 'a/b c?d';
const FILLERS = Array.from({ length: 22 }, (_, i) => `P-${String(i + 1).padStart(2, '0')}`);

let a: Tenant;
let b: Tenant;
let none: Tenant;
let off: Tenant;

const productPage = (x: Tenant, id: string, query = '') =>
  `/p/${x.org.slug}/products/${encodeURIComponent(id)}${query}`;

/** The JSON-LD of a page. */
function jsonLd(html: string) {
  const m = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]);
}

/** The ratings of the page's reviews, in order. */
const ratingsOf = (html: string) =>
  [...html.matchAll(
    /<article class="review"[^>]*>\n<div class="stars-row" role="img" aria-label="Rated (\d) out of 5" style=/g,
  )]
    .map((m) => Number(m[1]));

beforeAll(async () => {
  [a, b, none, off] = await Promise.all([createTenant(), createTenant(), createTenant(), createTenant()]);
  await syncProducts(a, [
    {
      external_id: 'MUG-BLUE',
      name: MUG,
      group: 'mug',
      url: 'https://shop.example/mug',
      image_url: 'https://shop.example/mug.jpg',
      sku: 'SKU-1',
      gtin: '4006381333931',
      brand: 'Acme',
    },
    { external_id: 'MUG-RED', name: 'Mug red', group: 'mug', image_url: 'http://shop.example/red.jpg' },
    { external_id: 'OLD', name: 'Old thing' },
    { external_id: ODD_ID, name: 'Odd id' },
    ...FILLERS.map((external_id) => ({ external_id, name: `Filler ${external_id}` })),
  ], server.url);
  await syncProducts(b, [{ external_id: 'THEIRS', name: 'Their product' }], server.url);
  await syncProducts(off, [{ external_id: 'HIDDEN', name: 'Hidden' }], server.url);
  const form = await createForm(a, {});
  // The mug group: 12 reviews (two pages), 10 of the blue mug, 2 of the red one.
  const blue: ReviewSpec[] = [5, 4, 5, 1, 5, 3, 5, 4, 5, 2].map((
    r,
    i,
  ) => [r, `Blue ${i}`, `Blue text ${i}`, `Ann ${i}`]);
  await postReviews(form.id, `${a.org.slug}-blue`, blue, 'MUG-BLUE');
  await postReviews(
    form.id,
    `${a.org.slug}-red`,
    [[5, null, 'Red text 0', 'Bo'], [4, null, 'Red text 1', 'Bo']],
    'MUG-RED',
  );
  await postReviews(form.id, `${a.org.slug}-biz`, [[3, 'Shop', 'About the shop itself.', 'Cy'], [
    1,
    null,
    'Slow.',
    'Di',
  ]]);
  // Both leave the catalog: the red mug keeps its reviews (listed), the old thing has none (not listed).
  for (const id of ['MUG-RED', 'OLD']) {
    const [p] = (await call('GET', `${orgPath(a)}/products?external_id=${id}`, { key: a.keys.read })).body.data;
    expect(
      (await call('PATCH', `${orgPath(a)}/products/${p.id}`, { key: a.keys.write, body: { archived: true } })).status,
    )
      .toBe(200);
  }
  await call('PATCH', `${orgPath(off)}/public-profile`, { key: off.keys.admin, body: { enabled: false } });
});

describe("a product's page", () => {
  it("shows the group's numbers and reviews, and the jsonld route's Product, consistent with them", async () => {
    const summary = (await call('GET', `/api/v1/public/products/${a.org.slug}/MUG-BLUE`)).body;
    expect(summary).toMatchObject({ review_count: 12, average_rating: 4 });
    const res = await get(productPage(a, 'MUG-BLUE'));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=300, stale-while-revalidate=600');
    expect(res.headers.get('etag')).toMatch(/^W\//);
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="index, follow">');
    expect(html).toContain(`<link rel="canonical" href="${server.url}${productPage(a, 'MUG-BLUE')}">`);
    expect(html).toContain(`<link rel="next" href="${server.url}${productPage(a, 'MUG-BLUE', '?page=2')}">`);
    expect(html).toContain('<h1>Mug &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;blue&quot;</h1>');
    expect(html).toContain('<img src="https://shop.example/mug.jpg" alt="Mug &lt;script&gt;');
    expect(html).toContain('<div class="avg">4.0</div>');
    expect(html).toContain('<p class="count">12 reviews</p>');
    expect(html).toContain(`<a href="${server.url}/p/${a.org.slug}">← Reviews of `);
    expect(html).not.toContain('About the shop itself.');
    expect(html).not.toContain('<script>alert');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(ratingsOf(html)).toHaveLength(10);

    const ld = jsonLd(html);
    const route = await call('GET', `/api/v1/public/products/${a.org.slug}/MUG-BLUE/jsonld`);
    expect(ld).toEqual(route.body);
    // The group's schema.org ProductGroup, whose aggregate is what the page shows, each variant a Product.
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'ProductGroup',
      name: MUG,
      productGroupID: 'mug',
      image: 'https://shop.example/mug.jpg',
      brand: { '@type': 'Brand', name: 'Acme' },
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4, reviewCount: 12, bestRating: 5, worstRating: 1 },
      hasVariant: [
        {
          '@type': 'Product',
          name: MUG,
          url: 'https://shop.example/mug',
          image: 'https://shop.example/mug.jpg',
          sku: 'SKU-1',
          gtin: '4006381333931',
        },
        { '@type': 'Product', name: 'Mug red' },
      ],
    });
    expect(ld.aggregateRating.ratingValue.toFixed(1)).toBe(/<div class="avg">([\d.]+)<\/div>/.exec(html)![1]);
    expect(ld.review).toHaveLength(10);
    for (const r of ld.review) {
      expect(r).toMatchObject({ '@type': 'Review', author: { '@type': 'Person', name: expect.any(String) } });
      expect(r.reviewRating).toMatchObject({ '@type': 'Rating', bestRating: 5, worstRating: 1 });
      expect(r.datePublished).toMatch(/^\d{4}-\d\d-\d\d$/);
    }
  });

  it('takes a picture given as http as it is, and shows it on the page and in its JSON-LD over https', async () => {
    const stored = await call('GET', `${orgPath(a)}/products?external_id=MUG-RED`, { key: a.keys.read });
    expect(stored.body.data[0].image_url).toBe('http://shop.example/red.jpg');
    const html = await (await get(productPage(a, 'MUG-RED'))).text();
    expect(html).toContain('<img src="https://shop.example/red.jpg" alt="Mug red"');
    expect(html).not.toContain('http://shop.example/red.jpg');
    expect(jsonLd(html).image).toBe('https://shop.example/red.jpg');
  });

  it('sorts and filters by query, each variant canonical to the plain page, and pages ten at a time', async () => {
    const lowest = await (await get(productPage(a, 'MUG-BLUE', '?sort=lowest'))).text();
    expect(ratingsOf(lowest).slice(0, 3)).toEqual([1, 2, 3]);
    expect(lowest).toContain('aria-current="page">Lowest rated</a>');
    expect(lowest).toContain(`<link rel="canonical" href="${server.url}${productPage(a, 'MUG-BLUE')}">`);
    const highest = await (await get(productPage(a, 'MUG-BLUE', '?sort=highest'))).text();
    expect(ratingsOf(highest).slice(0, 6)).toEqual([5, 5, 5, 5, 5, 5]);
    const fives = await (await get(productPage(a, 'MUG-BLUE', '?rating=5&sort=oldest'))).text();
    expect(ratingsOf(fives)).toEqual([5, 5, 5, 5, 5, 5]);
    // The filter's links keep the sort, the sort's links keep the filter.
    expect(fives).toContain(`href="${server.url}${productPage(a, 'MUG-BLUE', '?rating=4&amp;sort=oldest')}"`);
    expect(fives).toContain(`href="${server.url}${productPage(a, 'MUG-BLUE', '?rating=5&amp;sort=lowest')}"`);
    const second = await (await get(productPage(a, 'MUG-BLUE', '?page=2'))).text();
    expect(ratingsOf(second)).toHaveLength(2);
    expect(second).toContain('Page 2 of 2');
    expect((await get(productPage(a, 'MUG-BLUE', '?page=3'))).status).toBe(404);
    for (const q of ['?sort=votes', '?sort=best', '?rating=6', '?page=0', '?page=x']) {
      const res = await get(productPage(a, 'MUG-BLUE', q));
      expect(res.status, q).toBe(400);
      expect(res.headers.get('x-robots-tag')).toBe('noindex');
    }
  });

  it('revalidates by ETag, and a new review shows at the next revalidation', async () => {
    const first = await get(productPage(a, 'HAT-NEW'));
    expect(first.status).toBe(404);
    await syncProducts(a, [{ external_id: 'HAT-NEW', name: 'Hat' }], server.url);
    const res = await get(productPage(a, 'HAT-NEW'));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('No reviews yet.');
    const etag = res.headers.get('etag')!;
    const again = await get(productPage(a, 'HAT-NEW'), { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=300, stale-while-revalidate=600');
    const form = await createForm(a, {});
    await postReviews(form.id, `${a.org.slug}-hat`, [[4, null, 'A warm hat.', 'Eve']], 'HAT-NEW');
    const changed = await get(productPage(a, 'HAT-NEW'), { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain('A warm hat.');
  });

  it("answers a noindex 404 for an unknown product, another business's, a switched-off profile or an unknown slug", async () => {
    for (
      const path of [
        productPage(a, 'NO-SUCH'),
        productPage(a, 'THEIRS'),
        productPage(off, 'HIDDEN'),
        '/p/no-such-business-here/products/MUG-BLUE',
        productPage(a, 'x'.repeat(201)),
      ]
    ) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('x-robots-tag')).toBe('noindex');
      expect(await res.text()).toContain('<meta name="robots" content="noindex">');
    }
  });

  it('takes a URL-encoded external id, and an archived product keeps its page', async () => {
    const odd = await get(productPage(a, ODD_ID));
    expect(odd.status).toBe(200);
    expect(await odd.text()).toContain('<h1>Odd id</h1>');
    const old = await get(productPage(a, 'OLD'));
    expect(old.status).toBe(200);
  });
});

describe('the catalog page', () => {
  const catalog = (x: Tenant, query = '') => get(`/p/${x.org.slug}/products${query}`);
  const names = (html: string) =>
    [...html.matchAll(/<li class="card">(?:<img [^>]*>)?<div><a href="([^"]+)">([^<]*)<\/a>/g)].map((m) => m[2]);

  it('lists the products by name with their stars, 24 a page, archived ones only with reviews', async () => {
    const res = await catalog(a);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=300, stale-while-revalidate=600');
    const first = await res.text();
    expect(first).toContain('<meta name="robots" content="index, follow">');
    expect(first).toContain(`<link rel="canonical" href="${server.url}/p/${a.org.slug}/products">`);
    const second = await (await catalog(a, '?page=2')).text();
    const all = [...names(first), ...names(second)];
    expect(names(first)).toHaveLength(24);
    expect(all).toContain('Mug &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;blue&quot;');
    expect(all).toContain('Mug red');
    expect(all).not.toContain('Old thing');
    // By name: the fillers in their order, the hat before the odd one.
    const fillers = all.filter((n) => n.startsWith('Filler'));
    expect(fillers).toEqual(FILLERS.map((id) => `Filler ${id}`));
    expect(all.indexOf('Hat')).toBeLessThan(all.indexOf('Odd id'));
    const html = first + second;
    expect(html).not.toContain('<script>alert');
    // Each card: the image with its alt and fixed size, the group's figures, a link to its page.
    expect(html).toContain(
      '<img src="https://shop.example/mug.jpg" alt="Mug &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;blue&quot;" width="96" height="96" loading="lazy">',
    );
    expect(html).toContain(`<a href="${server.url}${productPage(a, 'MUG-BLUE')}">`);
    expect(html).toContain(`<a href="${server.url}${productPage(a, ODD_ID)}">`);
    expect(html).toMatch(/aria-label="Rated 4\.0 out of 5" style="--fill:80%">★★★★☆<\/span> 4\.0 · 12 reviews/);
    expect(html).toMatch(/>Mug red<\/a><p>[^]*?12 reviews<\/p><p class="gone">No longer sold<\/p>/);
    // A picture given as http is shown over https (the pages load https pictures only).
    expect(html).toContain('<img src="https://shop.example/red.jpg" alt="Mug red" width="96" height="96"');
    expect(html).not.toContain('http://shop.example/red.jpg');
    expect((await catalog(a, '?page=3')).status).toBe(404);
    expect((await catalog(a, '?page=0')).status).toBe(400);
  });

  it('revalidates by ETag; a business without products, a switched-off profile or an unknown slug is a 404', async () => {
    const res = await catalog(a);
    const again = await catalog(a, '');
    expect(again.headers.get('etag')).toBe(res.headers.get('etag'));
    expect((await get(`/p/${a.org.slug}/products`, { 'if-none-match': res.headers.get('etag')! })).status).toBe(304);
    for (const x of [none, off]) expect((await catalog(x)).status).toBe(404);
    expect((await get('/p/no-such-business-here/products')).status).toBe(404);
  });
});

describe("the business's profile page", () => {
  it('stays about the business, sorts by query, and links to the products when it has some', async () => {
    const html = await (await get(`/p/${a.org.slug}`)).text();
    expect(html).toContain('<p class="count">2 reviews</p>');
    expect(html).toContain('About the shop itself.');
    expect(html).not.toContain('Blue text');
    expect(html).toContain(`<a href="${server.url}/p/${a.org.slug}/products">Products of `);
    expect(ratingsOf(html)).toEqual([1, 3]);
    const lowest = await (await get(`/p/${a.org.slug}?sort=highest`)).text();
    expect(ratingsOf(lowest)).toEqual([3, 1]);
    expect(lowest).toContain(`<link rel="canonical" href="${server.url}/p/${a.org.slug}">`);
    expect((await get(`/p/${a.org.slug}?sort=random`)).status).toBe(400);
    expect(await (await get(`/p/${none.org.slug}`)).text()).not.toContain('/products');
  });
});

describe('the sitemap', () => {
  it("lists each enabled profile's catalog and listed products' pages", async () => {
    const sitemap = await (await get('/sitemap.xml')).text();
    const base = `${server.url}/p/${a.org.slug}`;
    expect(sitemap).toContain(`<loc>${base}</loc>`);
    expect(sitemap).toContain(`<loc>${base}/products</loc>`);
    expect(sitemap).toContain(`<loc>${base}/products/MUG-BLUE</loc>`);
    expect(sitemap).toContain(`<loc>${base}/products/MUG-RED</loc>`);
    expect(sitemap).toContain(`<loc>${base}/products/${encodeURIComponent(ODD_ID)}</loc>`);
    expect(sitemap).not.toContain(`<loc>${base}/products/OLD</loc>`);
    expect(sitemap).not.toContain(`/p/${none.org.slug}/products`);
    expect(sitemap).not.toContain(`/p/${off.org.slug}`);
    // The profile first, then its catalog, then its products.
    expect(sitemap.indexOf(`<loc>${base}</loc>`)).toBeLessThan(sitemap.indexOf(`<loc>${base}/products</loc>`));
    expect(sitemap.indexOf(`<loc>${base}/products</loc>`)).toBeLessThan(
      sitemap.indexOf(`<loc>${base}/products/MUG-BLUE</loc>`),
    );
  });
});

describe('an erased review', () => {
  it("is left out of the Product's structured data, on the page and the jsonld route, its stars still counted", async () => {
    const e = await createTenant();
    await syncProducts(e, [{ external_id: 'CUP', name: 'Cup' }], server.url);
    const form = await createForm(e, {});
    const tag = `${e.org.slug}-erased`;
    // r0-<tag> is erased with its text; r1-<tag> stays.
    await postReviews(form.id, tag, [[1, 'Gone', 'Erase me', 'Eve'], [5, 'Kept', 'A fine cup', 'Kim']], 'CUP');
    const erasure = await call('POST', `${orgPath(e)}/privacy/erasures`, {
      key: e.keys.admin,
      body: { email: `r0-${tag}@example.com`, redact_content: true },
    });
    expect(erasure.status).toBe(200);

    const html = await (await get(productPage(e, 'CUP'))).text();
    // The page still shows it as it reads now.
    expect(html).toContain('[removed at the reviewer&#39;s request]');
    const ld = jsonLd(html);
    expect(ld.aggregateRating).toMatchObject({ ratingValue: 3, reviewCount: 2 });
    expect(ld.review.map((r: { reviewBody: string }) => r.reviewBody)).toEqual(['A fine cup']);
    const route = await call('GET', `/api/v1/public/products/${e.org.slug}/CUP/jsonld`);
    expect(route.status).toBe(200);
    expect(route.body).toEqual(ld);
  });
});
