import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { createForm, ownApiServer, submitOk } from '../../helpers/reviews.ts';

const server = ownApiServer();
const call = server.call;

const orgPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}`;

type Made = { id: string; rating: number; created_at: string; language: string | null };

/**
 * A business with: 5 visible reviews (ratings 5, 4, 4, 2, 1), one hidden (5), one pending (3),
 * one rejected (1), and one verified by approval (3).
 */
async function business() {
  const t = await createTenant();
  const open = await createForm(call, t);
  const manual = await createForm(call, t, { verification_mode: 'manual' });
  const visible: Made[] = [];
  for (const rating of [5, 4, 4, 2, 1]) {
    visible.push(await submitOk(call, open.id, { rating, title: `Rated ${rating}` }));
  }
  const hidden = await submitOk(call, open.id, { rating: 5 });
  expect(
    (await call('PATCH', `${orgPath(t)}/reviews/${hidden.id}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'x' },
    })).status,
  ).toBe(200);
  const pending = await submitOk(call, manual.id, { rating: 3 });
  const rejected = await submitOk(call, manual.id, { rating: 1 });
  expect(
    (await call('POST', `${orgPath(t)}/verification/reject`, { key: t.keys.write, body: { review_id: rejected.id } }))
      .status,
  ).toBe(200);
  const approved = await submitOk(call, manual.id, { rating: 3 });
  expect(
    (await call('POST', `${orgPath(t)}/verification/approve`, { key: t.keys.write, body: { review_id: approved.id } }))
      .status,
  ).toBe(200);
  return { t, open, manual, visible: [...visible, approved], hidden, pending, rejected };
}

let biz: Awaited<ReturnType<typeof business>>;
beforeAll(async () => {
  biz = await business();
});

describe('GET /api/v1/public/profiles/:slug', () => {
  it('answers the profile with aggregates of the public reviews only', async () => {
    const res = await call('GET', `/api/v1/public/profiles/${biz.t.org.slug}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      slug: biz.t.org.slug,
      url: `${server.url}/p/${biz.t.org.slug}`,
      name: biz.t.org.name,
      description: null,
      website: null,
      logo_url: null,
      average_rating: 3.17,
      review_count: 6,
      rating_distribution: { 1: 1, 2: 1, 3: 1, 4: 2, 5: 1 },
      rating: { value: 3.17, scale_min: 1, scale_max: 5, count: 6 },
      // One hidden, one approved, one rejected: three trail entries (tests/reviews/api/moderation-chain.test.ts).
      moderation_chain: { entries: 3, head: expect.stringMatching(/^[0-9a-f]{64}$/) },
      // No scale or rating field answered (tests/attributes/api/attributes.test.ts).
      attributes: [],
      checking_recent_reviews: false,
    });
    expect(res.headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=300');
    expect(res.headers.get('etag')).toMatch(/^W\/"[\w-]+"$/);
    expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('takes its aggregates from the statistics table, never from counting reviews', async () => {
    const t = await createTenant();
    const form = await createForm(call, t);
    await submitOk(call, form.id, { rating: 4 });
    await db`update plaudit.review_statistics set public_count = public_count + 10, rating_sum = rating_sum + 50, rating_5 = rating_5 + 10
             where org_id = ${t.org.id} and slot = (select min(slot) from plaudit.review_statistics where org_id = ${t.org.id})`;
    try {
      const res = await call('GET', `/api/v1/public/profiles/${t.org.slug}`);
      expect(res.body).toMatchObject({ review_count: 11, average_rating: 4.91, rating_distribution: { 4: 1, 5: 10 } });
    } finally {
      await db`select plaudit.rebuild_review_statistics(${t.org.id})`;
    }
    expect((await call('GET', `/api/v1/public/profiles/${t.org.slug}`)).body).toMatchObject({
      review_count: 1,
      average_rating: 4,
    });
  });

  it('an organization without reviews: count 0, average null', async () => {
    const t = await createTenant();
    const res = await call('GET', `/api/v1/public/profiles/${t.org.slug}`);
    expect(res.body).toMatchObject({
      review_count: 0,
      average_rating: null,
      rating_distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 },
      rating: null,
    });
  });

  it('404 for an unknown slug', async () => {
    for (
      const path of [
        '/api/v1/public/profiles/no-such-business',
        '/api/v1/public/profiles/no-such-business/reviews',
        '/api/v1/public/embed/no-such-business',
        '/api/v1/public/reviews/no-such-business',
      ]
    ) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual(errorBody(404, 'Not Found', /^Business not found$/));
      expect(res.headers.get('etag')).toBeNull();
    }
  });
});

describe('public review feeds', () => {
  it('/public/profiles/:slug/reviews: only visible, verified or unverified reviews, newest first, no e-mail', async () => {
    const res = await call('GET', `/api/v1/public/profiles/${biz.t.org.slug}/reviews`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 6, page: 1, limit: 20, totalPages: 1 });
    expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([...biz.visible].reverse().map((r) => r.id));
    expect(res.body.data[1]).toEqual({
      id: biz.visible[4].id,
      rating: 1,
      title: 'Rated 1',
      content: expect.any(String),
      reviewer_name: 'Ada',
      verification_status: 'unverified',
      verification_method: null,
      source: 'form',
      source_platform: null,
      incentivized: false,
      product: null,
      media: [],
      reply: null,
      helpful_count: 0,
      language: biz.visible[4].language,
      attributes: {},
      created_at: biz.visible[4].created_at,
    });
    expect(res.body.data[0].verification_status).toBe('verified');
    const ids = res.body.data.map((r: { id: string }) => r.id);
    for (const r of [biz.hidden, biz.pending, biz.rejected]) expect(ids).not.toContain(r.id);
    const page = await call('GET', `/api/v1/public/profiles/${biz.t.org.slug}/reviews?limit=4&page=2`);
    expect(page.body.meta).toEqual({ total: 6, page: 2, limit: 4, totalPages: 2 });
    expect(page.body.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(4));
    expect((await call('GET', `/api/v1/public/profiles/${biz.t.org.slug}/reviews?limit=500`)).status).toBe(400);
  });

  it("/public/reviews/:slug: the widget's reviews, at or above the embed min_rating", async () => {
    const all = await call('GET', `/api/v1/public/reviews/${biz.t.org.slug}`);
    expect(all.body.meta.total).toBe(6);
    expect(
      (await call('PATCH', `${orgPath(biz.t)}/public-profile`, {
        key: biz.t.keys.admin,
        body: { embed: { min_rating: 4 } },
      })).status,
    ).toBe(200);
    const res = await call('GET', `/api/v1/public/reviews/${biz.t.org.slug}?limit=2`);
    expect(res.body.meta).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
    expect(res.body.data.map((r: { rating: number }) => r.rating)).toEqual([4, 4]);
    const page2 = await call('GET', `/api/v1/public/reviews/${biz.t.org.slug}?limit=2&page=2`);
    expect(page2.body.data.map((r: { id: string }) => r.id)).toEqual([biz.visible[0].id]);
    await call('PATCH', `${orgPath(biz.t)}/public-profile`, {
      key: biz.t.keys.admin,
      body: { embed: { min_rating: 1 } },
    });
  });

  it('no public answer contains a reviewer e-mail address', async () => {
    const slug = biz.t.org.slug;
    for (
      const path of [
        `/api/v1/public/profiles/${slug}`,
        `/api/v1/public/profiles/${slug}/reviews`,
        `/api/v1/public/embed/${slug}`,
        `/api/v1/public/reviews/${slug}`,
      ]
    ) {
      const res = await call('GET', path);
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toMatch(/@example\.com|reviewer_email/);
    }
  });
});

describe('GET /api/v1/public/embed/:slug', () => {
  it('answers the embed settings with the slug, name and aggregate', async () => {
    const res = await call('GET', `/api/v1/public/embed/${biz.t.org.slug}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      slug: biz.t.org.slug,
      url: `${server.url}/p/${biz.t.org.slug}`,
      name: biz.t.org.name,
      layout: 'list',
      theme: 'light',
      checking_recent_reviews: false,
      max_reviews: 10,
      min_rating: 1,
      average_rating: 3.17,
      review_count: 6,
      enabled: true,
      // The widget draws from this one answer: its first reviews come with it.
      reviews: expect.any(Array),
      script_url: expect.stringMatching(new RegExp(`^${server.url}/embed/v1/widget\\.[0-9a-f]{16}\\.js$`)),
      snippet:
        `<div id="service-widget" data-slug="${biz.t.org.slug}" style="display:block;height:480px"><a href="${server.url}/p/${biz.t.org.slug}">Reviews of ${biz.t.org.name}</a></div>\n` +
        `<script async src="${res.body.script_url}"></script>`,
    });
    expect(res.body.reviews).toHaveLength(6);
    expect(res.body.reviews.map((r: { rating: number }) => r.rating).sort()).toEqual([1, 2, 3, 4, 4, 5]);
  });
});

describe('caching: ETag, Cache-Control, 304', () => {
  it('revalidates with 304 until the public reviews change, per page', async () => {
    const t = await createTenant();
    const form = await createForm(call, t);
    const manual = await createForm(call, t, { verification_mode: 'manual' });
    await submitOk(call, form.id);
    const paths = [
      `/api/v1/public/profiles/${t.org.slug}`,
      `/api/v1/public/profiles/${t.org.slug}/reviews`,
      `/api/v1/public/embed/${t.org.slug}`,
      `/api/v1/public/reviews/${t.org.slug}`,
    ];
    const etags: Record<string, string> = {};
    for (const path of paths) {
      const res = await call('GET', path);
      etags[path] = res.headers.get('etag')!;
      const again = await call('GET', path, { headers: { 'if-none-match': etags[path] } });
      expect(again.status, path).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.get('etag')).toBe(etags[path]);
      expect(again.headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=300');
    }
    expect(new Set(Object.values(etags)).size).toBe(4);
    const page2 = await call('GET', `${paths[1]}?page=2`);
    expect(page2.headers.get('etag')).not.toBe(etags[paths[1]]);

    // A pending review changes nothing public: still 304.
    await submitOk(call, manual.id);
    for (const path of paths) {
      expect((await call('GET', path, { headers: { 'if-none-match': etags[path] } })).status).toBe(304);
    }
    // A new visible review changes every answer.
    await submitOk(call, form.id);
    for (const path of paths) {
      const res = await call('GET', path, { headers: { 'if-none-match': etags[path] } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('etag')).not.toBe(etags[path]);
      etags[path] = res.headers.get('etag')!;
    }
    // So do settings and the organization's name.
    await call('PATCH', `${orgPath(t)}/public-profile`, { key: t.keys.admin, body: { embed: { theme: 'dark' } } });
    const embed = await call('GET', paths[2], { headers: { 'if-none-match': etags[paths[2]] } });
    expect(embed.status).toBe(200);
    expect(embed.body.theme).toBe('dark');
    await call('PATCH', orgPath(t), { key: t.keys.admin, body: { name: 'Renamed Inc' } });
    const renamed = await call('GET', paths[2], { headers: { 'if-none-match': embed.headers.get('etag')! } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Renamed Inc');
    // A hide changes them too.
    const [visible] = (await call('GET', `${orgPath(t)}/reviews?limit=1`, { key: t.keys.read })).body.data;
    const before = await call('GET', paths[0]);
    await call('PATCH', `${orgPath(t)}/reviews/${visible.id}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'x' },
    });
    const after = await call('GET', paths[0], { headers: { 'if-none-match': before.headers.get('etag')! } });
    expect(after.status).toBe(200);
    expect(after.body.review_count).toBe(before.body.review_count - 1);
  });

  it('a stale or unrelated If-None-Match gets the full answer', async () => {
    const res = await call('GET', `/api/v1/public/embed/${biz.t.org.slug}`, {
      headers: { 'if-none-match': 'W/"stale"' },
    });
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe(biz.t.org.slug);
  });
});

describe('CORS on public routes', () => {
  it('any origin may read, with the headers the widget needs exposed', async () => {
    const res = await call('GET', `/api/v1/public/embed/${biz.t.org.slug}`, {
      headers: { origin: 'https://shop.example' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('ETag');
    const preflight = await call('OPTIONS', `/api/v1/public/reviews/${biz.t.org.slug}`, {
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/If-None-Match/i);
    const authenticated = await call('GET', `${orgPath(biz.t)}/public-profile`, {
      key: biz.t.keys.read,
      headers: { origin: 'https://shop.example' },
    });
    expect(authenticated.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('public-profile settings', () => {
  it('GET answers the defaults until changed; PATCH changes only what it sends, inside embed too', async () => {
    const t = await createTenant();
    const defaults = {
      enabled: true,
      display_name: null,
      description: null,
      website: null,
      logo_url: null,
      embed: { layout: 'list', theme: 'light', max_reviews: 10, min_rating: 1 },
      google_product_feed: false,
      meta_review_feed: false,
      media_moderation: 'auto',
      review_policy: null,
      ask_buyers: true,
    };
    const get = await call('GET', `${orgPath(t)}/public-profile`, { key: t.keys.read });
    expect(get.status).toBe(200);
    expect(get.body).toEqual(defaults);
    expect((await call('PATCH', `${orgPath(t)}/public-profile`, { key: t.keys.admin, body: {} })).body).toEqual(
      defaults,
    );

    const patched = await call('PATCH', `${orgPath(t)}/public-profile`, {
      key: t.keys.admin,
      body: {
        display_name: 'Acme Pottery',
        description: 'Mugs and plates',
        website: 'https://acme.example',
        logo_url: 'https://acme.example/logo.png',
        embed: { layout: 'grid', max_reviews: 6 },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      enabled: true,
      display_name: 'Acme Pottery',
      description: 'Mugs and plates',
      website: 'https://acme.example',
      logo_url: 'https://acme.example/logo.png',
      embed: { layout: 'grid', theme: 'light', max_reviews: 6, min_rating: 1 },
      google_product_feed: false,
      meta_review_feed: false,
      media_moderation: 'auto',
      review_policy: null,
      ask_buyers: true,
    });
    const second = await call('PATCH', `${orgPath(t)}/public-profile`, {
      key: t.keys.admin,
      body: { embed: { theme: 'dark' }, description: null },
    });
    expect(second.body).toMatchObject({
      display_name: 'Acme Pottery',
      description: null,
      embed: { layout: 'grid', theme: 'dark', max_reviews: 6 },
    });
    expect((await call('GET', `${orgPath(t)}/public-profile`, { key: t.keys.read })).body).toEqual(second.body);

    const profile = await call('GET', `/api/v1/public/profiles/${t.org.slug}`);
    expect(profile.body).toMatchObject({
      name: 'Acme Pottery',
      description: null,
      website: 'https://acme.example',
      logo_url: 'https://acme.example/logo.png',
    });
    expect((await call('GET', `/api/v1/public/embed/${t.org.slug}`)).body).toMatchObject({
      name: 'Acme Pottery',
      layout: 'grid',
      theme: 'dark',
      max_reviews: 6,
    });

    // Null display_name falls back to the organization's name.
    await call('PATCH', `${orgPath(t)}/public-profile`, { key: t.keys.admin, body: { display_name: null } });
    expect((await call('GET', `/api/v1/public/profiles/${t.org.slug}`)).body.name).toBe(t.org.name);
  });

  it('disabling the profile makes the profile routes 404 while the widget keeps working', async () => {
    const t = await createTenant();
    await submitOk(call, (await createForm(call, t)).id);
    const res = await call('PATCH', `${orgPath(t)}/public-profile`, { key: t.keys.admin, body: { enabled: false } });
    expect(res.body.enabled).toBe(false);
    for (const path of [`/api/v1/public/profiles/${t.org.slug}`, `/api/v1/public/profiles/${t.org.slug}/reviews`]) {
      const off = await call('GET', path);
      expect(off.status).toBe(404);
      expect(off.body).toEqual(errorBody(404, 'Not Found', /^Business not found$/));
    }
    expect((await call('GET', `/api/v1/public/embed/${t.org.slug}`)).status).toBe(200);
    expect((await call('GET', `/api/v1/public/reviews/${t.org.slug}`)).body.meta.total).toBe(1);
    await call('PATCH', `${orgPath(t)}/public-profile`, { key: t.keys.admin, body: { enabled: true } });
    expect((await call('GET', `/api/v1/public/profiles/${t.org.slug}`)).status).toBe(200);
  });

  it.each([
    [{ enabled: 'yes' }, /^enabled:/],
    [{ display_name: '' }, /^display_name:/],
    [{ description: 'x'.repeat(2001) }, /^description:/],
    [{ website: 'ftp://acme.example' }, /^website:/],
    [{ logo_url: 'http://acme.example/logo.png' }, /^logo_url: must be an https URL$/],
    [{ embed: { layout: 'masonry' } }, /^embed\.layout:/],
    [{ embed: { theme: 'blue' } }, /^embed\.theme:/],
    [{ embed: { max_reviews: 0 } }, /^embed\.max_reviews:/],
    [{ embed: { max_reviews: 101 } }, /^embed\.max_reviews:/],
    [{ embed: { min_rating: 6 } }, /^embed\.min_rating:/],
  ])('422 naming the field for %j', async (body, message) => {
    const res = await call('PATCH', `${orgPath(biz.t)}/public-profile`, { key: biz.t.keys.admin, body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', message));
  });

  it("read for GET, admin for PATCH, and only the key's own organization", async () => {
    const other = await createTenant();
    expect(
      (await call('PATCH', `${orgPath(biz.t)}/public-profile`, { key: biz.t.keys.write, body: { enabled: false } }))
        .body,
    )
      .toEqual(errorBody(403, 'Forbidden', /admin scope/));
    expect((await call('GET', `${orgPath(biz.t)}/public-profile`, { key: other.keys.admin })).status).toBe(403);
    expect(
      (await call('PATCH', `${orgPath(biz.t)}/public-profile`, { key: other.keys.admin, body: { enabled: false } }))
        .status,
    ).toBe(403);
    expect((await call('GET', `${orgPath(biz.t)}/public-profile`)).status).toBe(401);
    expect((await call('GET', `/api/v1/public/profiles/${biz.t.org.slug}`)).status).toBe(200);
  });
});
