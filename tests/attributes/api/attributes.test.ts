// Attribute ratings over HTTP: a form's scale and rating fields (their definitions checked), an
// answer outside its scale refused naming the field and storing nothing, the answers public as
// `attributes` while other custom fields stay private, the business's and a product group's
// summaries counted from the counters (hiding a review takes it out), the lists filtered by an
// answer, and another organization's answers never counted nor reachable.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { createForm, freshIp, ownApiServer, submit, submitOk } from '../../helpers/reviews.ts';
import { createProduct } from '../../helpers/products.ts';

const server = ownApiServer();
const { call } = server;
const FIT = ['Runs small', 'True to size', 'Runs large'];
const FIELDS = [
  { key: 'fit', label: 'How does it fit?', type: 'scale', scale: FIT },
  { key: 'quality', label: 'Quality', type: 'rating' },
  { key: 'note', label: 'A private note', type: 'text' },
];

let a: Tenant;
let b: Tenant;
let formId: string;
let otherFormId: string;
const reviews: Record<string, string> = {};

const pub = (t: Tenant, rest: string) => `/api/v1/public${rest.replace('{slug}', t.org.slug)}`;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
  await Promise.all(
    [a, b].map((t) =>
      call('PATCH', `/api/v1/organizations/${t.org.id}/public-profile`, { key: t.keys.admin, body: { enabled: true } })
    ),
  );
  await createProduct(call, a, { external_id: 'SHOE-40', name: 'Shoe 40', group: 'shoe' });
  await createProduct(call, a, { external_id: 'SHOE-41', name: 'Shoe 41', group: 'shoe' });
  await createProduct(call, a, { external_id: 'HAT', name: 'Hat' });
  await createProduct(call, b, { external_id: 'SHOE-40', name: 'Their shoe' });
  formId = (await createForm(call, a, { custom_fields: FIELDS })).id;
  otherFormId = (await createForm(call, b, { custom_fields: FIELDS })).id;
  const answers: [string, string | null, Record<string, unknown>][] = [
    ['business-small', null, { fit: 'Runs small', quality: 3, note: 'secret words' }],
    ['business-true', null, { fit: 'True to size', quality: 5 }],
    ['shoe40-true', 'SHOE-40', { fit: 'True to size', quality: 4, note: 'secret words' }],
    ['shoe41-true', 'SHOE-41', { fit: 'True to size', quality: '5' }],
    ['shoe41-large', 'SHOE-41', { fit: 'Runs large' }],
    ['hat-plain', 'HAT', { note: 'secret words' }],
  ];
  for (const [name, product, custom] of answers) {
    reviews[name] = (await submitOk(call, formId, {
      custom_fields: custom,
      ...(product ? { product_external_id: product } : {}),
    })).id;
  }
  // Another business's answers to the same keys, about a product of the same external id.
  for (const fit of ['Runs small', 'Runs small']) {
    await submitOk(call, otherFormId, { custom_fields: { fit, quality: 1 }, product_external_id: 'SHOE-40' });
  }
});

describe('scale and rating fields', () => {
  it('are kept as defined: a scale with its labels in order, a rating with nothing more', async () => {
    const res = await call('GET', `/api/v1/organizations/${a.org.id}/review-forms/${formId}`, { key: a.keys.read });
    expect(res.body.custom_fields).toEqual([
      { key: 'fit', label: 'How does it fit?', type: 'scale', required: false, scale: FIT },
      { key: 'quality', label: 'Quality', type: 'rating', required: false },
      { key: 'note', label: 'A private note', type: 'text', required: false },
    ]);
  });

  it.each([
    [{ key: 'fit', label: 'Fit', type: 'scale' }, 'custom_fields.0.scale', 'is required for a scale field'],
    [{ key: 'fit', label: 'Fit', type: 'scale', scale: ['Only one'] }, 'custom_fields.0.scale', null],
    [
      { key: 'fit', label: 'Fit', type: 'scale', scale: ['1', '2', '3', '4', '5', '6', '7', '8'] },
      'custom_fields.0.scale',
      null,
    ],
    [
      { key: 'fit', label: 'Fit', type: 'scale', scale: ['Small', 'Small'] },
      'custom_fields.0.scale',
      'must not repeat a label',
    ],
    [
      { key: 'q', label: 'Quality', type: 'rating', scale: ['a', 'b'] },
      'custom_fields.0.scale',
      'is only allowed for a scale field',
    ],
  ])('refuses the definition %j', async (field, path, message) => {
    const res = await call('POST', `/api/v1/organizations/${a.org.id}/review-forms`, {
      key: a.keys.write,
      body: { name: 'Bad', custom_fields: [field] },
    });
    expect(res.status).toBe(422);
    const error = res.body.errors.find((e: { field: string }) => e.field === path);
    expect(error, JSON.stringify(res.body)).toBeDefined();
    if (message) expect(error.message).toBe(message);
  });

  it('refuses in the database a definition the API would refuse', async () => {
    const [row] = await db`select
      plaudit.custom_field_definitions_are_valid('[{"key":"fit","label":"Fit","type":"scale","scale":["a"]}]') as one,
      plaudit.custom_field_definitions_are_valid('[{"key":"fit","label":"Fit","type":"scale","scale":["a","b"]}]') as two,
      plaudit.custom_field_definitions_are_valid('[{"key":"q","label":"Q","type":"rating","scale":["a","b"]}]') as rated`;
    expect(row).toEqual({ one: false, two: true, rated: false });
  });
});

describe('an answer outside its scale', () => {
  it.each([
    [{ fit: 'Huge' }, 'custom_fields.fit: must be one of Runs small, True to size, Runs large'],
    [{ quality: 6 }, 'custom_fields.quality: must be a whole number of stars from 1 to 5'],
    [{ quality: 2.5 }, 'custom_fields.quality: must be a whole number of stars from 1 to 5'],
    [{ quality: 'good' }, 'custom_fields.quality: must be a whole number of stars from 1 to 5'],
  ])('%j is refused with 422 naming the field, and nothing is stored', async (custom, message) => {
    const [{ n: before }] = await db`select count(*)::int as n from plaudit.reviews where org_id = ${a.org.id}`;
    const res = await submit(call, formId, { custom_fields: custom });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity'));
    expect(res.body.message).toBe(message);
    const [{ n: after }] = await db`select count(*)::int as n from plaudit.reviews where org_id = ${a.org.id}`;
    expect(after).toBe(before);
  });
});

describe('public review items', () => {
  it('carry the scale and rating answers as attributes, stars as numbers, and never the other fields', async () => {
    const res = await call('GET', pub(a, '/profiles/{slug}/reviews'));
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.data.map((r: any) => [r.id, r.attributes]));
    expect(byId[reviews['business-small']]).toEqual({ fit: 'Runs small', quality: 3 });
    expect(byId[reviews['business-true']]).toEqual({ fit: 'True to size', quality: 5 });
    const product = await call('GET', pub(a, '/products/{slug}/SHOE-41/reviews'));
    expect(product.body.data.map((r: any) => r.attributes)).toEqual(
      expect.arrayContaining([{ fit: 'True to size', quality: 5 }, { fit: 'Runs large' }]),
    );
    const hat = await call('GET', pub(a, '/products/{slug}/HAT/reviews'));
    expect(hat.body.data.map((r: any) => r.attributes)).toEqual([{}]);
    for (
      const path of [
        '/profiles/{slug}/reviews',
        '/reviews/{slug}',
        '/products/{slug}/SHOE-40/reviews',
        '/products/{slug}/HAT/reviews',
      ]
    ) {
      const text = JSON.stringify((await call('GET', pub(a, path))).body);
      expect(text, path).not.toMatch(/secret words|"note"|custom_fields/);
    }
  });

  it('leave the organization its answers as they were', async () => {
    const res = await call('GET', `/api/v1/organizations/${a.org.id}/reviews/${reviews['shoe40-true']}`, {
      key: a.keys.read,
    });
    expect(res.body.custom_fields).toEqual({ fit: 'True to size', quality: 4, note: 'secret words' });
  });
});

describe('summaries', () => {
  it("the business's counts its own reviews' answers, each scale's labels in order", async () => {
    const res = await call('GET', pub(a, '/profiles/{slug}'));
    expect(res.status).toBe(200);
    expect(res.body.attributes).toEqual([
      {
        key: 'fit',
        label: 'How does it fit?',
        type: 'scale',
        count: 2,
        distribution: { 'Runs small': 1, 'True to size': 1, 'Runs large': 0 },
      },
      {
        key: 'quality',
        label: 'Quality',
        type: 'rating',
        count: 2,
        average: 4,
        distribution: { '1': 0, '2': 0, '3': 1, '4': 0, '5': 1 },
      },
    ]);
  });

  it("a product's counts its group's answers, and no other organization's", async () => {
    const res = await call('GET', pub(a, '/products/{slug}/SHOE-40'));
    expect(res.status).toBe(200);
    expect(res.body.attributes).toEqual([
      {
        key: 'fit',
        label: 'How does it fit?',
        type: 'scale',
        count: 3,
        distribution: { 'Runs small': 0, 'True to size': 2, 'Runs large': 1 },
      },
      {
        key: 'quality',
        label: 'Quality',
        type: 'rating',
        count: 2,
        average: 4.5,
        distribution: { '1': 0, '2': 0, '3': 0, '4': 1, '5': 1 },
      },
    ]);
    const hat = await call('GET', pub(a, '/products/{slug}/HAT'));
    expect(hat.body.attributes).toEqual([]);
    const theirs = await call('GET', pub(b, '/products/{slug}/SHOE-40'));
    expect(theirs.body.attributes[0]).toMatchObject({ key: 'fit', count: 2, distribution: { 'Runs small': 2 } });
  });

  it('follow moderation: a hidden review leaves the counts, and comes back with them', async () => {
    const moderate = (action: string) =>
      call('PATCH', `/api/v1/organizations/${a.org.id}/reviews/${reviews['shoe41-large']}/moderate`, {
        key: a.keys.write,
        body: { action, reason: 'checking' },
      });
    expect((await moderate('hide')).status).toBe(200);
    let res = await call('GET', pub(a, '/products/{slug}/SHOE-41'));
    expect(res.body.attributes[0]).toMatchObject({ count: 2, distribution: { 'Runs large': 0 } });
    expect((await moderate('unhide')).status).toBe(200);
    res = await call('GET', pub(a, '/products/{slug}/SHOE-41'));
    expect(res.body.attributes[0]).toMatchObject({ count: 3, distribution: { 'Runs large': 1 } });
  });
});

describe('the public lists filter by an answer', () => {
  it('by a label of a scale, on the business and on a product, with the total of the filtered list', async () => {
    const business = await call('GET', pub(a, '/profiles/{slug}/reviews?attribute.fit=Runs%20small'));
    expect(business.status).toBe(200);
    expect(business.body.data.map((r: any) => r.id)).toEqual([reviews['business-small']]);
    expect(business.body.meta.total).toBe(1);
    const product = await call('GET', pub(a, '/products/{slug}/SHOE-40/reviews?attribute.fit=True%20to%20size'));
    expect(product.body.data.map((r: any) => r.id).sort()).toEqual(
      [reviews['shoe40-true'], reviews['shoe41-true']].sort(),
    );
    expect(product.body.meta.total).toBe(2);
    const embed = await call('GET', pub(a, '/reviews/{slug}?attribute.fit=True%20to%20size'));
    expect(embed.body.data.map((r: any) => r.id)).toEqual([reviews['business-true']]);
  });

  it('by stars, several answers at once, all of which must match', async () => {
    const five = await call('GET', pub(a, '/products/{slug}/SHOE-40/reviews?attribute.quality=5'));
    expect(five.body.data.map((r: any) => r.id)).toEqual([reviews['shoe41-true']]);
    const both = await call(
      'GET',
      pub(a, '/products/{slug}/SHOE-40/reviews?attribute.quality=4&attribute.fit=Runs%20large'),
    );
    expect(both.body).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it("never reaches another organization's reviews", async () => {
    const res = await call('GET', pub(a, '/products/{slug}/SHOE-40/reviews?attribute.fit=Runs%20small'));
    expect(res.body).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it('answers 400 to a filter that names no possible field, or too many', async () => {
    const bad = await call('GET', pub(a, '/profiles/{slug}/reviews?attribute.Fit!=x'));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(errorBody(400, 'Bad Request'));
    expect(bad.body.message).toBe('attribute.Fit!: must name a field key of a-z, 0-9 and _, starting with a letter');
    const many = await call(
      'GET',
      pub(a, `/profiles/{slug}/reviews?${['a', 'b', 'c', 'd', 'e', 'f'].map((k) => `attribute.${k}=1`).join('&')}`),
    );
    expect(many.status).toBe(400);
    expect(many.body.message).toBe('attribute: at most 5 answers can be filtered by');
  });
});

describe("the product's JSON-LD", () => {
  it('gives each rating aspect an AggregateRating with reviewAspect, and each review its aspects', async () => {
    const res = await call('GET', pub(a, '/products/{slug}/SHOE-41/jsonld'));
    expect(res.status).toBe(200);
    const ld = typeof res.body === 'string' ? JSON.parse(res.body) : res.body;
    expect(ld.aggregateRating).toEqual([
      { '@type': 'AggregateRating', ratingValue: 5, reviewCount: 3, bestRating: 5, worstRating: 1 },
      {
        '@type': 'AggregateRating',
        reviewAspect: 'Quality',
        ratingValue: 4.5,
        ratingCount: 2,
        bestRating: 5,
        worstRating: 1,
      },
    ]);
    const rated = ld.review.find((r: any) => Array.isArray(r.reviewRating));
    expect(rated.reviewRating).toContainEqual({
      '@type': 'Rating',
      reviewAspect: 'Quality',
      ratingValue: expect.any(Number),
      bestRating: 5,
      worstRating: 1,
    });
    // A review without an aspect keeps its one Rating.
    expect(ld.review.some((r: any) => !Array.isArray(r.reviewRating))).toBe(true);
  });
});

describe('the hosted form', () => {
  it('asks a scale as a group of radios and a rating as stars, and keeps the answers', async () => {
    const res = await fetch(`${server.url}/forms/${formId}`);
    const html = await res.text();
    expect(html).toContain('<legend>How does it fit? <span class="hint">(optional)</span></legend>');
    expect(html).toContain('<input type="radio" name="cf_fit" value="Runs small" id="f-cf_fit">');
    expect(html).toContain('<input type="radio" name="cf_quality" value="5"');
    const posted = await fetch(`${server.url}/forms/${formId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshIp() },
      body: new URLSearchParams({
        rating: '4',
        content: 'Posted from the hosted form with answers',
        reviewer_name: 'Hal',
        reviewer_email: 'hal@example.com',
        cf_fit: 'Runs large',
        cf_quality: '2',
      }).toString(),
      redirect: 'manual',
    });
    expect(posted.status, await posted.text()).toBeLessThan(400);
    const [row] = await db`select attributes from plaudit.reviews where org_id = ${a.org.id} and reviewer_name = 'Hal'`;
    expect(row.attributes).toEqual({ fit: 'Runs large', quality: 2 });
  });

  it('says which answer is outside its scale', async () => {
    const res = await fetch(`${server.url}/forms/${formId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshIp() },
      body: new URLSearchParams({
        rating: '4',
        content: 'Posted with a fit the form does not know',
        reviewer_name: 'Ivy',
        reviewer_email: 'ivy@example.com',
        cf_fit: 'Huge',
      }).toString(),
    });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('How does it fit?: choose one of the answers.');
  });
});

describe("the product widget's fragment", () => {
  it('draws the answers as the widget does, and carries them in its state for the widget to adopt', async () => {
    const res = await fetch(`${server.url}/api/v1/public/fragments/${a.org.slug}/products/SHOE-41.html`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<dl class="at"><div><dt>How does it fit?</dt><dd><ul class="bars"><li class="ab">');
    expect(html).toContain('<span>True to size</span>');
    // The state is JSON in an attribute, its quotes escaped.
    expect(html.replaceAll('&quot;', '"').replaceAll('&#34;', '"')).toContain('"attributes":[{"key":"fit"');
  });
});
