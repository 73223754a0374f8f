// Reading reviews: the list (newest first, filters, the counter's total, the key's own list), one
// review, and the document's review routes.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { jpegWithGps, mp4, upload } from '../../helpers/media.ts';
import { createForm, ownApiServer, submitOk } from '../../helpers/reviews.ts';

const server = ownApiServer();
const call = server.call;

const reviewsPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}/reviews`;

describe('reading reviews', () => {
  let t: Tenant;
  let other: Tenant;
  let forms: { id: string }[];
  let made: { id: string; rating: number; created_at: string }[];
  beforeAll(async () => {
    [t, other] = await Promise.all([createTenant(), createTenant()]);
    forms = [await createForm(call, t), await createForm(call, t, { verification_mode: 'manual' })];
    made = [];
    const specs = [
      { form: 0, rating: 5, content: 'Blue teapot, wonderful glaze' },
      { form: 0, rating: 4, content: 'Green teapot, decent' },
      { form: 1, rating: 1, content: 'Broken handle on arrival' },
      { form: 0, rating: 3, content: 'Average plate' },
      { form: 1, rating: 5, content: 'Wonderful service and fast shipping' },
      { form: 0, rating: 2, content: 'Slow delivery of the teapot' },
    ];
    for (const s of specs) {
      made.push(await submitOk(call, forms[s.form].id, { rating: s.rating, content: s.content, title: null }));
    }
    await submitOk(call, (await createForm(call, other)).id);
  });

  const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);
  const newestFirst = () => [...made].reverse().map((r) => r.id);

  it('lists newest first with the pagination envelope', async () => {
    const res = await call('GET', reviewsPath(t), { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 6, page: 1, limit: 20, totalPages: 1 });
    expect(ids(res)).toEqual(newestFirst());
    expect(res.body.data[0]).toEqual({
      id: made[5].id,
      rating: 2,
      title: null,
      content: 'Slow delivery of the teapot',
      reviewer_name: 'Ada',
      reviewer_email: expect.stringMatching(/@example\.com$/),
      verification_status: 'unverified',
      verification_method: null,
      verification_at: null,
      source: 'form',
      source_platform: null,
      imported_as_verified: null,
      incentive: null,
      is_hidden: false,
      created_at: made[5].created_at,
      form_id: forms[0].id,
      order_id: null,
      product: null,
      language: 'en',
      custom_fields: {},
      media: [],
      reply: null,
    });
    const p2 = await call('GET', `${reviewsPath(t)}?limit=4&page=2`, { key: t.keys.read });
    expect(p2.body.meta).toEqual({ total: 6, page: 2, limit: 4, totalPages: 2 });
    expect(ids(p2)).toEqual(newestFirst().slice(4));
    const beyond = await call('GET', `${reviewsPath(t)}?limit=4&page=9`, { key: t.keys.read });
    expect(beyond.body).toEqual({ data: [], meta: { total: 6, page: 9, limit: 4, totalPages: 2 } });
  });

  it.each([
    ['rating=5', (r: { rating: number }, i: number) => r.rating === 5 && i >= 0],
    ['min_rating=3', (r: { rating: number }) => r.rating >= 3],
    ['max_rating=2', (r: { rating: number }) => r.rating <= 2],
    ['min_rating=2&max_rating=4', (r: { rating: number }) => r.rating >= 2 && r.rating <= 4],
  ])('filters by %s', async (query, keep) => {
    const res = await call('GET', `${reviewsPath(t)}?${query}`, { key: t.keys.read });
    expect(res.status).toBe(200);
    const expected = [...made].reverse().filter((r, i) => keep(r, i)).map((r) => r.id);
    expect(ids(res)).toEqual(expected);
    expect(res.body.meta.total).toBe(expected.length);
  });

  it('filters by form, status, hidden, text and dates', async () => {
    const byForm = await call('GET', `${reviewsPath(t)}?form_id=${forms[1].id}`, { key: t.keys.read });
    expect(ids(byForm)).toEqual([made[4].id, made[2].id]);
    const pending = await call('GET', `${reviewsPath(t)}?verification_status=pending`, { key: t.keys.read });
    expect(ids(pending)).toEqual([made[4].id, made[2].id]);
    const unverified = await call('GET', `${reviewsPath(t)}?verification_status=unverified&rating=5`, {
      key: t.keys.read,
    });
    expect(ids(unverified)).toEqual([made[0].id]);

    const hid = await call('PATCH', `${reviewsPath(t)}/${made[1].id}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'spam' },
    });
    expect(hid.status).toBe(200);
    const hidden = await call('GET', `${reviewsPath(t)}?is_hidden=true`, { key: t.keys.read });
    expect(ids(hidden)).toEqual([made[1].id]);
    expect(hidden.body.meta.total).toBe(1);
    const visible = await call('GET', `${reviewsPath(t)}?is_hidden=false`, { key: t.keys.read });
    expect(visible.body.meta.total).toBe(5);
    await call('PATCH', `${reviewsPath(t)}/${made[1].id}/moderate`, {
      key: t.keys.write,
      body: { action: 'unhide', reason: 'ok' },
    });

    const text = await call('GET', `${reviewsPath(t)}?q=teapot`, { key: t.keys.read });
    expect(ids(text)).toEqual([made[5].id, made[1].id, made[0].id]);
    const words = await call('GET', `${reviewsPath(t)}?q=${encodeURIComponent('WONDERFUL teapot')}`, {
      key: t.keys.read,
    });
    expect(ids(words)).toEqual([made[0].id]);

    const today = new Date().toISOString().slice(0, 10);
    const day = await call('GET', `${reviewsPath(t)}?startDate=${today}&endDate=${today}`, { key: t.keys.read });
    expect(day.body.meta.total).toBe(6);
    const past = await call('GET', `${reviewsPath(t)}?endDate=2020-01-01`, { key: t.keys.read });
    expect(past.body.meta.total).toBe(0);
    const since = await call('GET', `${reviewsPath(t)}?startDate=${encodeURIComponent(made[3].created_at)}`, {
      key: t.keys.read,
    });
    expect(ids(since)).toEqual(newestFirst().slice(0, 3));
    const until = await call('GET', `${reviewsPath(t)}?endDate=${encodeURIComponent(made[1].created_at)}`, {
      key: t.keys.read,
    });
    expect(ids(until)).toEqual([made[1].id, made[0].id]);
  });

  it('filters to reviews with photos or videos, hidden ones included', async () => {
    const withMedia = () => call('GET', `${reviewsPath(t)}?has_media=true`, { key: t.keys.read });
    expect(ids(await withMedia())).toEqual([]);
    const photo = await upload(made[3].id, await jpegWithGps(40, 30), { key: t.keys.write, baseUrl: server.url });
    expect(photo.status).toBe(201);
    const video = await upload(made[0].id, mp4(), { key: t.keys.write, baseUrl: server.url, name: 'clip.mp4' });
    expect(video.status).toBe(201);
    const hid = await call('PATCH', `${reviewsPath(t)}/${made[0].id}/media/${video.body.id}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'Shows a face' },
    });
    expect(hid.status).toBe(200);
    const res = await withMedia();
    expect(ids(res)).toEqual([made[3].id, made[0].id]);
    expect(res.body.meta.total).toBe(2);
    const rated = await call('GET', `${reviewsPath(t)}?has_media=true&rating=5`, { key: t.keys.read });
    expect(ids(rated)).toEqual([made[0].id]);
    // Another organization's list holds none of them.
    const theirs = await call('GET', `${reviewsPath(other)}?has_media=true`, { key: other.keys.read });
    expect(theirs.body.data).toEqual([]);
  });

  it.each([
    'rating=6',
    'rating=x',
    'min_rating=0',
    'max_rating=9',
    'verification_status=approved',
    'is_hidden=yes',
    'has_media=false',
    'form_id=abc',
    'startDate=yesterday',
    'endDate=2026-13-45',
    'q=',
    'limit=0',
    'page=0',
    'min_rating=4&max_rating=2',
    'startDate=2026-02-02&endDate=2026-02-01',
  ])('400 for %s', async (query) => {
    const res = await call('GET', `${reviewsPath(t)}?${query}`, { key: t.keys.read });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'Bad Request', new RegExp(`^${query.split('=')[0]}`)));
  });

  it('meta.total of an unfiltered list comes from the counter, not from counting', async () => {
    await db`update plaudit.review_statistics set total_count = total_count + 1000
             where org_id = ${t.org.id} and slot = (select min(slot) from plaudit.review_statistics where org_id = ${t.org.id})`;
    try {
      const unfiltered = await call('GET', reviewsPath(t), { key: t.keys.read });
      expect(unfiltered.body.meta.total).toBe(1006);
      const filtered = await call('GET', `${reviewsPath(t)}?min_rating=1`, { key: t.keys.read });
      expect(filtered.body.meta.total).toBe(6);
    } finally {
      await db`select plaudit.rebuild_review_statistics(${t.org.id})`;
    }
    expect((await call('GET', reviewsPath(t), { key: t.keys.read })).body.meta.total).toBe(6);
  });

  it("GET /api/v1/reviews lists the key's own organization", async () => {
    const res = await call('GET', '/api/v1/reviews?limit=2', { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 6, page: 1, limit: 2, totalPages: 3 });
    expect(ids(res)).toEqual(newestFirst().slice(0, 2));
    const filtered = await call('GET', '/api/v1/reviews?rating=1', { key: t.keys.read });
    expect(ids(filtered)).toEqual([made[2].id]);
    expect((await call('GET', '/api/v1/reviews')).status).toBe(401);
  });

  it("gets one review; 404 for another organization's or an unknown id; 403 for another organization", async () => {
    const res = await call('GET', `${reviewsPath(t)}/${made[0].id}`, { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(made[0].id);
    for (const id of [crypto.randomUUID(), made[0].id]) {
      const miss = await call('GET', `${reviewsPath(other)}/${id}`, { key: other.keys.read });
      expect(miss.status).toBe(404);
      expect(miss.body).toEqual(errorBody(404, 'Not Found', /^Review not found$/));
    }
    const forbidden = await call('GET', `${reviewsPath(t)}/${made[0].id}`, { key: other.keys.admin });
    expect(forbidden.body).toEqual(errorBody(403, 'Forbidden', /another organization/));
    expect((await call('GET', reviewsPath(t), { key: other.keys.read })).status).toBe(403);
    expect((await call('GET', `${reviewsPath(t)}/not-a-uuid`, { key: t.keys.read })).status).toBe(400);
    // Another organization's list never shows these reviews.
    const theirs = await call('GET', reviewsPath(other), { key: other.keys.read });
    expect(theirs.body.meta.total).toBe(1);
    expect(ids(theirs)).not.toContain(made[0].id);
  });
});

describe('OpenAPI document', () => {
  it('documents every review, form, verification and public-data route, with its scope', async () => {
    const res = await call('GET', '/api/v1/openapi.json');
    const paths = res.body.paths as Record<string, Record<string, { 'x-required-scope'?: string; security?: unknown }>>;
    const expected: [string, string, string | null][] = [
      ['/api/v1/reviews', 'post', null],
      ['/api/v1/reviews', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/reviews', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/reviews/{id}', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/reviews/{id}/moderate', 'patch', 'write'],
      ['/api/v1/organizations/{orgId}/reviews/{id}/moderation-history', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/review-forms', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/review-forms', 'post', 'write'],
      ['/api/v1/organizations/{orgId}/review-forms/{id}', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/review-forms/{id}', 'patch', 'write'],
      ['/api/v1/organizations/{orgId}/review-forms/{id}', 'delete', 'write'],
      ['/api/v1/organizations/{orgId}/verification/verify', 'post', 'write'],
      ['/api/v1/organizations/{orgId}/verification/approve', 'post', 'write'],
      ['/api/v1/organizations/{orgId}/verification/reject', 'post', 'write'],
      ['/api/v1/organizations/{orgId}/orders', 'post', 'write'],
      ['/api/v1/organizations/{orgId}/public-profile', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/public-profile', 'patch', 'admin'],
      ['/api/v1/public/embed/{slug}', 'get', null],
      ['/api/v1/public/reviews/{slug}', 'get', null],
      ['/api/v1/public/profiles/{slug}', 'get', null],
      ['/api/v1/public/profiles/{slug}/reviews', 'get', null],
      ['/api/v1/public/verifications/{token}', 'get', null],
    ];
    for (const [path, method, scope] of expected) {
      const op = paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op['x-required-scope'], `${method} ${path}`).toBe(scope ?? undefined);
      expect(op.security, `${method} ${path}`).toEqual(scope ? [{ ApiKey: [] }, { Session: [] }] : []);
    }
    const schemas = res.body.components.schemas;
    for (
      const name of [
        'Review',
        'ReviewSubmission',
        'ReviewForm',
        'ModerationEntry',
        'PublicReview',
        'PublicProfile',
        'PublicEmbed',
        'PublicProfileSettings',
      ]
    ) {
      expect(schemas[name], name).toBeDefined();
    }
    expect(Object.keys(schemas.Review.properties)).toEqual([
      'id',
      'rating',
      'title',
      'content',
      'reviewer_name',
      'reviewer_email',
      'verification_status',
      'verification_method',
      'verification_at',
      'source',
      'source_platform',
      'imported_as_verified',
      'incentive',
      'is_hidden',
      'created_at',
      'form_id',
      'order_id',
      'product',
      'language',
      'custom_fields',
      'media',
      'reply',
    ]);
    expect(schemas.PublicReview.properties.reviewer_email).toBeUndefined();
    expect(schemas.PublicReview.properties.custom_fields).toBeUndefined();
  });
});
