// Every public answer is filed under its organization's cache key (Surrogate-Key for Varnish and
// Fastly, Cache-Tag for Cloudflare), 304s and the 404s of a known organization included, so that
// the worker's purge empties it (docs/scaling.md); an answer that shows one product under the
// product's key too; keyed and session answers never are.
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../helpers/http.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { createForm, postReviews } from '../../helpers/reviews.ts';

const orgPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}`;

/** What a public answer of `t` carries: its organization's key in both headers, then its product's, if it shows one. */
function expectKeysOf(res: { headers: Headers }, t: Tenant, productId?: string) {
  const keys = [`org-${t.org.id}`, ...(productId ? [`product-${productId}`] : [])];
  expect(res.headers.get('surrogate-key')).toBe(keys.join(' '));
  expect(res.headers.get('cache-tag')).toBe(keys.join(','));
}

function expectNoKeys(res: { headers: Headers }) {
  expect(res.headers.get('surrogate-key')).toBeNull();
  expect(res.headers.get('cache-tag')).toBeNull();
}

let shown: Tenant;
let off: Tenant;
let mugId: string;
beforeAll(async () => {
  shown = await createTenant();
  const form = await createForm(api, shown);
  // Fixtures through the submission's SQL, with a rate bucket of their own: the shared server's
  // per-address submission budget stays for the tests of submitting.
  await postReviews(form.id, `keys-${shown.org.slug}`, [[5, null, 'Lovely.', 'Ann']]);
  // A product with a review, and the Google feed on: the product reads and the feed have something to show.
  const product = await api('POST', `${orgPath(shown)}/products`, {
    key: shown.keys.write,
    body: { external_id: 'MUG', name: 'Mug' },
  });
  expect(product.status).toBe(201);
  mugId = product.body.id;
  await postReviews(form.id, `keys-mug-${shown.org.slug}`, [[4, null, 'A fine mug.', 'Bo']], 'MUG');
  const feed = await api('PATCH', `${orgPath(shown)}/public-profile`, {
    key: shown.keys.admin,
    body: { google_product_feed: true },
  });
  expect(feed.status).toBe(200);
  off = await createTenant();
  const res = await api('PATCH', `${orgPath(off)}/public-profile`, { key: off.keys.admin, body: { enabled: false } });
  expect(res.status).toBe(200);
});

// Each public answer by its path, and whether it shows one product (the mug); `?page=1&limit=5`
// takes the router where the bare path takes the fast reads. Answers that list products (the
// ratings of many, the catalog, the Google feed) are the organization's: docs/scaling.md.
const PUBLIC_ANSWERS = [
  ['the embed configuration', (slug: string) => `/api/v1/public/embed/${slug}`, false],
  ["the widget's reviews (fast path)", (slug: string) => `/api/v1/public/reviews/${slug}`, false],
  ["the widget's reviews (router)", (slug: string) => `/api/v1/public/reviews/${slug}?page=1&limit=5`, false],
  ['the public profile', (slug: string) => `/api/v1/public/profiles/${slug}`, false],
  ["the profile's reviews (fast path)", (slug: string) => `/api/v1/public/profiles/${slug}/reviews`, false],
  ["the profile's reviews (router)", (slug: string) => `/api/v1/public/profiles/${slug}/reviews?page=1&limit=5`, false],
  ['the profile page', (slug: string) => `/p/${slug}`, false],
  ['the transparency report', (slug: string) => `/api/v1/public/transparency/${slug}`, false],
  ['the transparency page', (slug: string) => `/p/${slug}/transparency`, false],
  ["the profile page's second rating filter", (slug: string) => `/p/${slug}?rating=5`, false],
  ["a product's summary", (slug: string) => `/api/v1/public/products/${slug}/MUG`, true],
  ["a product's reviews (fast path)", (slug: string) => `/api/v1/public/products/${slug}/MUG/reviews`, true],
  [
    "a product's reviews (router)",
    (slug: string) => `/api/v1/public/products/${slug}/MUG/reviews?page=1&limit=5`,
    true,
  ],
  ["a product's JSON-LD", (slug: string) => `/api/v1/public/products/${slug}/MUG/jsonld`, true],
  ["a product's page", (slug: string) => `/p/${slug}/products/MUG`, true],
  ["the business's fragment", (slug: string) => `/api/v1/public/fragments/${slug}.html`, false],
  ["a product's fragment", (slug: string) => `/api/v1/public/fragments/${slug}/products/MUG.html?limit=3`, true],
  ['the ratings of products', (slug: string) => `/api/v1/public/products/${slug}/ratings?ids=MUG`, false],
  ['the catalog page', (slug: string) => `/p/${slug}/products`, false],
  ['the Google product feed', (slug: string) => `/api/v1/public/feeds/${slug}/google-product-reviews.xml`, false],
] as const;

describe.each(PUBLIC_ANSWERS)('%s', (_, path, showsProduct) => {
  it(`is filed under its organization${showsProduct ? ' and its product' : ''}, and so is its 304`, async () => {
    const product = showsProduct ? mugId : undefined;
    const res = await api('GET', path(shown.org.slug));
    expect(res.status).toBe(200);
    expectKeysOf(res, shown, product);
    const again = await api('GET', path(shown.org.slug), { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expectKeysOf(again, shown, product);
  });

  it('has no key for an unknown business', async () => {
    const res = await api('GET', path('no-such-business-anywhere'));
    expect(res.status).toBe(404);
    expectNoKeys(res);
  });
});

describe('the 404 of a known business', () => {
  it.each([
    `/api/v1/public/profiles/{slug}`,
    `/api/v1/public/profiles/{slug}/reviews`,
    `/api/v1/public/profiles/{slug}/reviews?page=2`,
    `/p/{slug}`,
    `/api/v1/public/feeds/{slug}/google-product-reviews.xml`,
  ])('of a switched-off profile (%s) is filed under it, so that switching it on purges it', async (path) => {
    const res = await api('GET', path.replace('{slug}', off.org.slug));
    expect(res.status).toBe(404);
    expectKeysOf(res, off);
  });

  it('past the last page of a profile page is filed under it', async () => {
    const res = await api('GET', `/p/${shown.org.slug}?page=9`);
    expect(res.status).toBe(404);
    expectKeysOf(res, shown);
  });
});

describe('the sitemaps', () => {
  it('carry the key of their own, which lists every organization', async () => {
    const res = await api('GET', '/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('surrogate-key')).toBe('sitemap');
    expect(res.headers.get('cache-tag')).toBe('sitemap');
  });
});

describe('answers that are never cached in shared caches', () => {
  it('a keyed read carries no key, on the router and on the fast path', async () => {
    for (const path of [orgPath(shown), `${orgPath(shown)}/reviews`, `${orgPath(shown)}/reviews?limit=5`]) {
      const res = await api('GET', path, { key: shown.keys.read });
      expect(res.status).toBe(200);
      expectNoKeys(res);
    }
  });

  it('the dashboard carries no key', async () => {
    const res = await api('GET', '/app');
    expect(res.status).toBe(200);
    expectNoKeys(res);
  });
});
