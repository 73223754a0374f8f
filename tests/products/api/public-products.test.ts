// The public reads of products over HTTP: a product's summary, reviews, JSON-LD and the ratings
// batch, each over the product's group; the business's public figures and lists without reviews
// of products; sort and filters; ETag/304; another organization's products never reachable.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { createForm, ownApiServer, submitOk } from '../../helpers/reviews.ts';

const server = ownApiServer();
const call = server.call;
const orgPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}`;

let a: Tenant;
let b: Tenant;
let off: Tenant;
const pub = (t: Tenant, rest: string) => `/api/v1/public/products/${t.org.slug}${rest}`;

async function product(t: Tenant, body: Record<string, unknown>) {
  const res = await call('POST', `${orgPath(t)}/products`, { key: t.keys.write, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

beforeAll(async () => {
  [a, b, off] = await Promise.all([createTenant(), createTenant(), createTenant()]);
  await product(a, {
    external_id: 'MUG-BLUE',
    name: 'Mug <script>alert(1)</script> & "blue"',
    group: 'mug',
    url: 'https://shop.example/mug',
    image_url: 'https://shop.example/mug.jpg',
    sku: 'SKU-1',
    gtin: '4006381333931',
    brand: 'Acme',
  });
  await product(a, { external_id: 'MUG-RED', name: 'Mug red', group: 'mug' });
  await product(a, { external_id: 'HAT', name: 'Hat' });
  await product(a, { external_id: 'QUIET', name: 'Quiet' });
  await product(b, { external_id: 'MUG-BLUE', name: 'Their mug' });
  const form = await createForm(call, a);
  // Business: 5 and 3. Blue mug: 4, 2. Red mug: 5. Hat: 1.
  for (
    const [rating, product_external_id] of [[5, null], [4, 'MUG-BLUE'], [3, null], [2, 'MUG-BLUE'], [5, 'MUG-RED'], [
      1,
      'HAT',
    ]] as const
  ) {
    await submitOk(call, form.id, {
      rating,
      title: `Rated ${rating}`,
      ...(product_external_id ? { product_external_id } : {}),
    });
  }
  // The red mug leaves the catalog: its reviews stay in the group's.
  await call('PATCH', `${orgPath(a)}/products/${(await listProduct(a, 'MUG-RED')).id}`, {
    key: a.keys.write,
    body: { archived: true },
  });
  await product(off, { external_id: 'MUG-BLUE', name: 'Hidden' });
  await call('PATCH', `${orgPath(off)}/public-profile`, { key: off.keys.admin, body: { enabled: false } });
});

async function listProduct(t: Tenant, externalId: string) {
  const res = await call('GET', `${orgPath(t)}/products?external_id=${externalId}`, { key: t.keys.read });
  return res.body.data[0] as { id: string; review_count: number; average_rating: number | null };
}

describe('business and products apart', () => {
  it('the profile counts and lists reviews of the business only', async () => {
    const profile = await call('GET', `/api/v1/public/profiles/${a.org.slug}`);
    expect(profile.body).toMatchObject({
      review_count: 2,
      average_rating: 4,
      rating_distribution: { 1: 0, 2: 0, 3: 1, 4: 0, 5: 1 },
    });
    const list = await call('GET', `/api/v1/public/profiles/${a.org.slug}/reviews`);
    expect(list.body.meta.total).toBe(2);
    expect(list.body.data.map((r: { rating: number; product: unknown }) => [r.rating, r.product])).toEqual([
      [3, null],
      [5, null],
    ]);
  });

  it('the embed and the widget list count and show reviews of the business only', async () => {
    const embed = await call('GET', `/api/v1/public/embed/${a.org.slug}`);
    expect(embed.body.review_count).toBe(2);
    expect(embed.body.reviews.map((r: { rating: number }) => r.rating)).toEqual([3, 5]);
    const widget = await call('GET', `/api/v1/public/reviews/${a.org.slug}`);
    expect(widget.body.meta.total).toBe(2);
  });

  it("the catalog's figures read the product's counters", async () => {
    expect(await listProduct(a, 'MUG-BLUE')).toMatchObject({ review_count: 2, average_rating: 3 });
  });
});

describe('GET /public/products/:slug/:externalId', () => {
  it("answers the product with its group's figures (archived members included)", async () => {
    const res = await call('GET', pub(a, '/MUG-BLUE'));
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.body).toEqual({
      checking_recent_reviews: false,
      external_id: 'MUG-BLUE',
      name: 'Mug <script>alert(1)</script> & "blue"',
      url: 'https://shop.example/mug',
      image_url: 'https://shop.example/mug.jpg',
      average_rating: 3.67,
      review_count: 3,
      rating_distribution: { 1: 0, 2: 1, 3: 0, 4: 1, 5: 1 },
      rating: { value: 3.67, scale_min: 1, scale_max: 5, count: 3 },
      attributes: [],
    });
    expect((await call('GET', pub(a, '/MUG-RED'))).body.review_count).toBe(3);
    expect((await call('GET', pub(a, '/HAT'))).body).toMatchObject({ review_count: 1, average_rating: 1 });
    expect((await call('GET', pub(a, '/QUIET'))).body).toMatchObject({
      review_count: 0,
      average_rating: null,
      rating: null,
    });
  });

  it('answers 404 for an unknown product, slug, another organization or a disabled profile', async () => {
    for (const path of [pub(a, '/NOPE'), '/api/v1/public/products/no-such-shop-x/MUG-BLUE', pub(off, '/MUG-BLUE')]) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual(errorBody(404, 'Not Found', 'Product not found'));
    }
    expect((await call('GET', pub(b, '/MUG-BLUE'))).body.name).toBe('Their mug');
  });

  it('answers 304 to a current ETag, and a new ETag once the product changes', async () => {
    const first = await call('GET', pub(a, '/HAT'));
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=300');
    expect((await call('GET', pub(a, '/HAT'), { headers: { 'if-none-match': etag } })).status).toBe(304);
    const hat = await listProduct(a, 'HAT');
    await call('PATCH', `${orgPath(a)}/products/${hat.id}`, { key: a.keys.write, body: { name: 'Hat!' } });
    const after = await call('GET', pub(a, '/HAT'), { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.body.name).toBe('Hat!');
  });
});

describe('GET /public/products/:slug/:externalId/reviews', () => {
  const ratings = async (query: string) =>
    (await call('GET', pub(a, `/MUG-BLUE/reviews${query}`))).body.data.map((r: { rating: number }) => r.rating);

  it("lists the group's public reviews, each naming its product", async () => {
    const res = await call('GET', pub(a, '/MUG-BLUE/reviews'));
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 3, page: 1, limit: 20, totalPages: 1 });
    expect(res.body.data.map((r: { product: unknown }) => r.product)).toEqual([
      { external_id: 'MUG-RED', name: 'Mug red' },
      { external_id: 'MUG-BLUE', name: 'Mug <script>alert(1)</script> & "blue"' },
      { external_id: 'MUG-BLUE', name: 'Mug <script>alert(1)</script> & "blue"' },
    ]);
  });

  it('sorts and filters', async () => {
    expect(await ratings('')).toEqual([5, 2, 4]);
    expect(await ratings('?sort=helpful')).toEqual([5, 2, 4]);
    expect(await ratings('?sort=oldest')).toEqual([4, 2, 5]);
    expect(await ratings('?sort=highest')).toEqual([5, 4, 2]);
    expect(await ratings('?sort=lowest')).toEqual([2, 4, 5]);
    expect(await ratings('?rating=4')).toEqual([4]);
    expect((await call('GET', pub(a, '/MUG-BLUE/reviews?rating=4'))).body.meta.total).toBe(1);
    expect(await ratings('?has_media=true')).toEqual([]);
    expect(await ratings('?sort=highest&limit=1&page=2')).toEqual([4]);
  });

  it('refuses other values with 400', async () => {
    for (const query of ['sort=best', 'rating=6', 'rating=0', 'has_media=false', 'has_media=1', 'page=0']) {
      const res = await call('GET', pub(a, `/MUG-BLUE/reviews?${query}`));
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual(errorBody(400, 'Bad Request'));
    }
  });

  it('answers 404 for an unknown product or a disabled profile, and 304 to a current ETag', async () => {
    expect((await call('GET', pub(a, '/NOPE/reviews'))).status).toBe(404);
    expect((await call('GET', pub(off, '/MUG-BLUE/reviews'))).status).toBe(404);
    const first = await call('GET', pub(a, '/MUG-BLUE/reviews?sort=lowest'));
    const etag = first.headers.get('etag')!;
    expect((await call('GET', pub(a, '/MUG-BLUE/reviews?sort=lowest'), { headers: { 'if-none-match': etag } })).status)
      .toBe(304);
    expect((await call('GET', pub(a, '/MUG-BLUE/reviews?sort=highest'), { headers: { 'if-none-match': etag } })).status)
      .toBe(200);
  });

  it("a moderation of a product's review gives its reads a new ETag, and the hidden review leaves them", async () => {
    await product(a, { external_id: 'LAMP', name: 'Lamp' });
    const review = await submitOk(call, (await createForm(call, a)).id, { rating: 4, product_external_id: 'LAMP' });
    const [list, summary] = await Promise.all([call('GET', pub(a, '/LAMP/reviews')), call('GET', pub(a, '/LAMP'))]);
    expect((list.body as { data: { id: string }[] }).data.map((r) => r.id)).toEqual([review.id]);
    const hidden = await call('PATCH', `${orgPath(a)}/reviews/${review.id}/moderate`, {
      key: a.keys.write,
      body: { action: 'hide', reason: 'Spam' },
    });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);
    for (const [path, before] of [['/LAMP/reviews', list], ['/LAMP', summary]] as const) {
      const after = await call('GET', pub(a, path), { headers: { 'if-none-match': before.headers.get('etag')! } });
      expect(after.status, path).toBe(200);
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    }
    expect((await call('GET', pub(a, '/LAMP/reviews'))).body).toMatchObject({ data: [], meta: { total: 0 } });
    expect((await call('GET', pub(a, '/LAMP'))).body).toMatchObject({ review_count: 0, average_rating: null });
  });
});

describe('sort and filters on the business lists', () => {
  it('sort, rating and has_media on both lists; other values 400', async () => {
    for (const list of [`/api/v1/public/profiles/${a.org.slug}/reviews`, `/api/v1/public/reviews/${a.org.slug}`]) {
      const ratings = async (q: string) =>
        (await call('GET', `${list}?${q}`)).body.data.map((r: { rating: number }) => r.rating);
      expect(await ratings('sort=lowest')).toEqual([3, 5]);
      expect(await ratings('sort=highest')).toEqual([5, 3]);
      expect(await ratings('sort=oldest')).toEqual([5, 3]);
      expect(await ratings('rating=3')).toEqual([3]);
      expect(await ratings('has_media=true')).toEqual([]);
      expect((await call('GET', `${list}?sort=random`)).status).toBe(400);
    }
  });
});

describe('GET /public/products/:slug/ratings', () => {
  it('answers each known product over its group, in the order asked', async () => {
    const res = await call('GET', pub(a, '/ratings?ids=HAT,NOPE,MUG-RED,HAT'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          external_id: 'HAT',
          average_rating: 1,
          review_count: 1,
          rating: { value: 1, scale_min: 1, scale_max: 5, count: 1 },
        },
        {
          external_id: 'MUG-RED',
          average_rating: 3.67,
          review_count: 3,
          rating: { value: 3.67, scale_min: 1, scale_max: 5, count: 3 },
        },
      ],
    });
    expect((await call('GET', pub(b, '/ratings?ids=MUG-BLUE'))).body.data).toEqual([
      { external_id: 'MUG-BLUE', average_rating: null, review_count: 0, rating: null },
    ]);
  });

  it('refuses no ids, more than 100, an empty or overlong id with 400; 404 for a disabled profile', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `P${i}`).join(',');
    for (const query of ['', 'ids=', `ids=${many}`, 'ids=A,,B', `ids=${'x'.repeat(201)}`]) {
      const res = await call('GET', pub(a, `/ratings?${query}`));
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual(errorBody(400, 'Bad Request'));
    }
    expect((await call('GET', pub(off, '/ratings?ids=MUG-BLUE'))).status).toBe(404);
  });
});

describe('GET /public/products/:slug/:externalId/jsonld', () => {
  it("is a group's schema.org ProductGroup, as Google documents variants: the group's rating and reviews, each variant a Product", async () => {
    const res = await call('GET', pub(a, '/MUG-BLUE/jsonld'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/ld\+json/);
    expect(res.headers.get('etag')).toBeTruthy();
    // Newest first: the red mug's 5, then the blue mug's 2 and 4.
    const review = [5, 2, 4].map((rating) => ({
      '@type': 'Review',
      author: { '@type': 'Person', name: expect.any(String) },
      datePublished: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      name: `Rated ${rating}`,
      reviewBody: expect.any(String),
      reviewRating: { '@type': 'Rating', ratingValue: rating, bestRating: 5, worstRating: 1 },
    }));
    const hasVariant = [
      {
        '@type': 'Product',
        name: 'Mug <script>alert(1)</script> & "blue"',
        url: 'https://shop.example/mug',
        image: 'https://shop.example/mug.jpg',
        sku: 'SKU-1',
        gtin: '4006381333931',
      },
      // Archived: its reviews are still the group's.
      { '@type': 'Product', name: 'Mug red' },
    ];
    const aggregateRating = {
      '@type': 'AggregateRating',
      ratingValue: 3.67,
      reviewCount: 3,
      bestRating: 5,
      worstRating: 1,
    };
    // Key for key: the rating and the reviews are the group's, never a variant's.
    expect(res.body).toStrictEqual({
      '@context': 'https://schema.org',
      '@type': 'ProductGroup',
      name: 'Mug <script>alert(1)</script> & "blue"',
      productGroupID: 'mug',
      image: 'https://shop.example/mug.jpg',
      brand: { '@type': 'Brand', name: 'Acme' },
      aggregateRating,
      review,
      hasVariant,
    });
    // Each product of the group answers the same group, under its own name.
    expect((await call('GET', pub(a, '/MUG-RED/jsonld'))).body).toStrictEqual({
      '@context': 'https://schema.org',
      '@type': 'ProductGroup',
      name: 'Mug red',
      productGroupID: 'mug',
      aggregateRating,
      review,
      hasVariant,
    });
  });

  it('is a Product for a product without a group, its rating its own', async () => {
    const ld = (await call('GET', pub(a, '/HAT/jsonld'))).body;
    expect(ld).toStrictEqual({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: expect.stringMatching(/^Hat/), // another test renames it
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 1, reviewCount: 1, bestRating: 5, worstRating: 1 },
      review: [{
        '@type': 'Review',
        author: { '@type': 'Person', name: expect.any(String) },
        datePublished: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        name: 'Rated 1',
        reviewBody: expect.any(String),
        reviewRating: { '@type': 'Rating', ratingValue: 1, bestRating: 5, worstRating: 1 },
      }],
    });
  });

  it('leaves the rating and reviews out without reviews; 404 for an unknown product', async () => {
    const ld = (await call('GET', pub(a, '/QUIET/jsonld'))).body;
    expect(ld).toEqual({ '@context': 'https://schema.org', '@type': 'Product', name: 'Quiet' });
    expect((await call('GET', pub(a, '/NOPE/jsonld'))).status).toBe(404);
    expect((await call('GET', pub(off, '/MUG-BLUE/jsonld'))).status).toBe(404);
  });
});

describe('the public review item', () => {
  it("matches the document's PublicReview on every public list, key for key and in order", async () => {
    const doc = (await call('GET', '/api/v1/openapi.json')).body;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    const valid = ajv.getSchema('openapi#/components/schemas/PublicReview')!;
    const keys = Object.keys(doc.components.schemas.PublicReview.properties);
    const lists = [
      `/api/v1/public/profiles/${a.org.slug}/reviews`,
      `/api/v1/public/reviews/${a.org.slug}`,
      pub(a, '/MUG-BLUE/reviews'),
    ];
    const items = [(await call('GET', `/api/v1/public/embed/${a.org.slug}`)).body.reviews];
    for (const list of lists) items.push((await call('GET', list)).body.data);
    for (const item of items.flat()) {
      expect(valid(item), JSON.stringify(valid.errors)).toBe(true);
      expect(Object.keys(item)).toEqual(keys);
    }
    expect(items.flat().length).toBe(2 + 2 + 2 + 3);
  });
});
