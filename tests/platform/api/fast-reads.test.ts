// The fast reads (functions/_shared/api/fast-reads/) answer byte for byte what Hono's path
// answers: the same status, headers, body and log line, for a success and for every refusal, on
// every route that declares a one-statement read (taken from the app's declarations).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../functions/_shared/api/app.ts';
import { checksum } from '../../../functions/_shared/api/api-keys/format.ts';
import { declaredReads, fastReads } from '../../../functions/_shared/api/fast-reads/index.ts';
import { MemoryRateLimiter } from '../../../functions/_shared/api/middleware/rate-limit/index.ts';
import type { LogLine } from '../../../functions/_shared/api/middleware/request-log/index.ts';
import { loadConfig } from '../../../functions/_shared/core/config.ts';
import { createSql } from '../../../functions/_shared/core/db/client.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { postReviews } from '../../helpers/reviews.ts';

const sql = createSql(process.env.TEST_API_DATABASE_URL!, { max: 2 });
const config = loadConfig({ databaseUrl: 'unused', environment: 'production' });
const env = { remoteAddr: { hostname: '203.0.113.7' } };

const honoLines: LogLine[] = [];
const fastLines: LogLine[] = [];
const hono = createApp({ sql, config, log: (l) => honoLines.push(l), fastReads: false });
const fast = fastReads({ sql, config, log: (l) => fastLines.push(l), limiter: new MemoryRateLimiter(), app: hono });
afterAll(() => sql.end());

/** A well-formed key (its checksum right) that no organization has. */
function unknownKey() {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const body = Array.from({ length: 32 }, () => alphabet[Math.floor(Math.random() * 62)]).join('');
  return `rk_${body}${checksum(body)}`;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  log: LogLine;
}

async function answerOf(res: Response, line: LogLine | undefined): Promise<Answer> {
  const headers = Object.fromEntries(res.headers);
  const { time: _t, ms: _m, request_id, ...log } = line ?? {};
  expect(request_id).toBe(headers['x-request-id']);
  return { status: res.status, headers, body: await res.text(), log };
}

/** The same request through Hono, then through the fast reads (which must answer it). */
async function both(path: string, headers: Record<string, string>, from = env) {
  const h = await answerOf(await hono.request(path, { headers }, from), honoLines.at(-1));
  const answered = await fast(new Request(`http://localhost${path}`, { headers }), from);
  expect(answered, 'the fast reads answer it').toBeInstanceOf(Response);
  const f = await answerOf(answered!, fastLines.at(-1));
  return { h, f };
}

/**
 * Equal but for the request id's value (a new UUID each) and what the first request changed: one
 * more request of the key's window counted, and a 429's Retry-After a second on.
 */
function expectSame({ h, f }: { h: Answer; f: Answer }, { counted = true } = {}) {
  const dropped = ['x-request-id', 'retry-after', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
  const rest = (a: Answer) => ({
    ...a,
    headers: Object.fromEntries(Object.entries(a.headers).filter(([k]) => !dropped.includes(k))),
  });
  expect(rest(f)).toEqual(rest(h));
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  if (uuid.test(h.headers['x-request-id'])) expect(f.headers['x-request-id']).toMatch(uuid);
  else expect(f.headers['x-request-id']).toBe(h.headers['x-request-id']);
  const remaining = (a: Answer) => Number(a.headers['x-ratelimit-remaining']);
  const reset = (a: Answer) => Number(a.headers['x-ratelimit-reset']);
  // The rate window may turn between the two requests: the second is then the new window's first.
  const turned = h.headers['x-ratelimit-reset'] !== undefined && reset(f) !== reset(h);
  if (turned) {
    expect(reset(f)).toBeGreaterThan(reset(h));
    const limit = Number(f.headers['x-ratelimit-limit']);
    // Counted by a limiter of its own (`counted: false`: each side's), the second request is the
    // first of its new window whether or not it counts itself; by the shared one, it counts.
    if (counted) expect(remaining(f)).toBe(limit - 1);
    else expect([limit - 1, limit]).toContain(remaining(f));
  } else if (h.headers['x-ratelimit-remaining'] !== undefined) {
    expect(remaining(f)).toBe(counted && remaining(h) > 0 ? remaining(h) - 1 : remaining(h));
  }
  if (h.headers['retry-after'] !== undefined) {
    expect(Math.abs(Number(f.headers['retry-after']) - Number(h.headers['retry-after']))).toBeLessThanOrEqual(1);
  }
}

describe('fast reads answer as the Hono path does', () => {
  let t: Tenant;
  let other: Tenant;
  let reviewId: string;
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    [t, other] = await Promise.all([createTenant(), createTenant()]);
    const form = await hono.request(`/api/v1/organizations/${t.org.id}/review-forms`, {
      method: 'POST',
      headers: { ...bearer(t.keys.write), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Form' }),
    }, env);
    expect(form.status).toBe(201);
    [reviewId] = await postReviews((await form.json()).id, `fast-${t.org.slug}`, [[4, 'Good', 'It works.', 'Ann']]);
  });

  it('the organization (200), the id in capitals too, and a caller-given request id', async () => {
    const ok = await both(`/api/v1/organizations/${t.org.id}`, bearer(t.keys.read));
    expect(ok.h.status).toBe(200);
    expect(JSON.parse(ok.h.body).id).toBe(t.org.id);
    expectSame(ok);
    expectSame(await both(`/api/v1/organizations/${t.org.id.toUpperCase()}`, bearer(t.keys.admin)));
    const traced = await both(`/api/v1/organizations/${t.org.id}`, { ...bearer(t.keys.read), 'x-request-id': 'abc.1' });
    expect(traced.f.headers['x-request-id']).toBe('abc.1');
    expectSame(traced);
  });

  it('one review (200) and a review of another id (404)', async () => {
    const ok = await both(`/api/v1/organizations/${t.org.id}/reviews/${reviewId}`, bearer(t.keys.read));
    expect(ok.h.status).toBe(200);
    expect(JSON.parse(ok.h.body).id).toBe(reviewId);
    expectSame(ok);
    const missing = await both(`/api/v1/organizations/${t.org.id}/reviews/${crypto.randomUUID()}`, bearer(t.keys.read));
    expect(missing.h.status).toBe(404);
    expectSame(missing);
  });

  it("the list's first page (200), newest first with replies and the page's meta", async () => {
    // 22 reviews: a full page and a second one; a reply on one of the page.
    const many = await createTenant();
    const form = await hono.request(`/api/v1/organizations/${many.org.id}/review-forms`, {
      method: 'POST',
      headers: { ...bearer(many.keys.write), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Form' }),
    }, env);
    const ids = await postReviews(
      (await form.json()).id,
      `list-${many.org.slug}`,
      Array.from({ length: 22 }, (_, i) => [1 + (i % 5), `Title ${i}`, `Text ${i} "quoted" é`, `Name ${i}`] as const),
    );
    const reply = await hono.request(`/api/v1/organizations/${many.org.id}/reviews/${ids[21]}/reply`, {
      method: 'PUT',
      headers: { ...bearer(many.keys.write), 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Thank you!' }),
    }, env);
    expect(reply.status).toBe(200);
    const ok = await both(`/api/v1/organizations/${many.org.id}/reviews`, bearer(many.keys.read));
    expect(ok.h.status).toBe(200);
    const page = JSON.parse(ok.f.body);
    expect(page.data).toHaveLength(20);
    expect(page.data[0].id).toBe(ids[21]);
    expect(page.data[0].reply.content).toBe('Thank you!');
    expect(page.meta).toEqual({ total: 22, page: 1, limit: 20, totalPages: 2 });
    expectSame(ok);
    // The defaults spelt out (the SDK asks `?page=1`) are the same first page.
    for (const query of ['?page=1', '?limit=20', '?page=1&limit=20', '?limit=20&page=1']) {
      const spelt = await both(`/api/v1/organizations/${many.org.id}/reviews${query}`, bearer(many.keys.read));
      expect(spelt.f.body, query).toBe(ok.f.body);
      expectSame(spelt);
    }
    // Another tenant's list: its own (empty) page, never these reviews.
    const empty = await both(`/api/v1/organizations/${other.org.id}/reviews`, bearer(other.keys.read));
    expect(JSON.parse(empty.f.body)).toEqual({ data: [], meta: { total: 0, page: 1, limit: 20, totalPages: 0 } });
    expectSame(empty);
  });

  it("another organization's (403) and an unknown key (401)", async () => {
    const foreign = await both(`/api/v1/organizations/${other.org.id}`, bearer(t.keys.read));
    expect(foreign.h.status).toBe(403);
    expectSame(foreign);
    const foreignReview = await both(`/api/v1/organizations/${other.org.id}/reviews/${reviewId}`, bearer(t.keys.read));
    expect(foreignReview.h.status).toBe(403);
    expectSame(foreignReview);
    const foreignList = await both(`/api/v1/organizations/${other.org.id}/reviews`, bearer(t.keys.read));
    expect(foreignList.h.status).toBe(403);
    expectSame(foreignList);
    const unknown = await both(`/api/v1/organizations/${t.org.id}`, bearer(unknownKey()));
    expect(unknown.h.status).toBe(401);
    // Each side's limiter counted the address's failure once.
    expectSame(unknown, { counted: false });
  });

  it('a key over its limit (429)', async () => {
    const limited = await createTenant({ rateLimit: 1 });
    const first = await hono.request(
      `/api/v1/organizations/${limited.org.id}`,
      { headers: bearer(limited.keys.read) },
      env,
    );
    expect(first.status).toBe(200);
    const over = await both(`/api/v1/organizations/${limited.org.id}`, bearer(limited.keys.read));
    expect(over.h.status).toBe(429);
    expect(over.f.headers['retry-after']).toMatch(/^\d+$/);
    expectSame(over);
    const overList = await both(`/api/v1/organizations/${limited.org.id}/reviews`, bearer(limited.keys.read));
    expect(overList.h.status).toBe(429);
    expectSame(overList);
  });

  it('leaves to Hono what it does not answer, and the app then answers as without it', async () => {
    const app = createApp({ sql, config, log: () => {} });
    const cases: [string, RequestInit][] = [
      [`/api/v1/organizations/not-a-uuid`, { headers: bearer(t.keys.read) }],
      [`/api/v1/organizations/${t.org.id}/reviews/not-a-uuid`, { headers: bearer(t.keys.read) }],
      [`/api/v1/organizations/${t.org.id}`, { headers: bearer('rk_malformed') }],
      [`/api/v1/organizations/${t.org.id}`, {}],
      [`/api/v1/organizations/${t.org.id}?x=1`, { headers: bearer(t.keys.read) }],
      [`/api/v1/organizations/${t.org.id}/reviews?page=2`, { headers: bearer(t.keys.read) }],
      [`/api/v1/organizations/${t.org.id}/reviews?page=01`, { headers: bearer(t.keys.read) }],
      [`/api/v1/organizations/${t.org.id}/reviews?page=1&page=1`, { headers: bearer(t.keys.read) }],
      [`/api/v1/organizations/${t.org.id}/reviews?page=1&rating=5`, { headers: bearer(t.keys.read) }],
      [`/api/v1/organizations/${t.org.id}/reviews?limit=0`, { headers: bearer(t.keys.read) }],
      [`/api/v1/organizations/${t.org.id}/reviews`, { headers: bearer('rk_malformed') }],
      [`/api/v1/organizations/${t.org.id}`, { method: 'HEAD', headers: bearer(t.keys.read) }],
      [`/api/v1/organizations/${t.org.id}/`, { headers: bearer(t.keys.read) }],
    ];
    for (const [path, init] of cases) {
      expect(fast(new Request(`http://localhost${path}`, init), env), path).toBeUndefined();
      const [a, b] = [await app.request(path, init, env), await hono.request(path, init, env)];
      expect([a.status, await a.text()], path).toEqual([b.status, await b.text()]);
    }
    // Through the app, a fast read answers what Hono answers.
    const path = `/api/v1/organizations/${t.org.id}`;
    const [a, b] = [
      await app.request(path, { headers: bearer(t.keys.read) }, env),
      await hono.request(path, { headers: bearer(t.keys.read) }, env),
    ];
    expect([a.status, a.headers.get('content-type'), await a.text()]).toEqual([
      b.status,
      b.headers.get('content-type'),
      await b.text(),
    ]);
  });
});

/** Waits until the current minute has at least `seconds` left, so a burst stays in one window. */
async function awayFromMinuteBoundary(seconds = 8) {
  const left = 60 - (Date.now() / 1000) % 60;
  if (left < seconds) await new Promise((r) => setTimeout(r, (left + 0.5) * 1000));
}

describe('the public review feeds answer as the Hono path does', () => {
  let t: Tenant;
  let off: Tenant;
  // An address of their own: each side's limiter has counted the same requests from it.
  const visitor = { remoteAddr: { hostname: '198.51.100.4' } };
  const feeds = (slug: string) => [`/api/v1/public/reviews/${slug}`, `/api/v1/public/profiles/${slug}/reviews`];

  beforeAll(async () => {
    [t, off] = await Promise.all([createTenant(), createTenant()]);
    for (const tenant of [t, off]) {
      const form = await hono.request(`/api/v1/organizations/${tenant.org.id}/review-forms`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.keys.write}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Form' }),
      }, env);
      expect(form.status).toBe(201);
      await postReviews((await form.json()).id, `feed-${tenant.org.slug}`, [[5, 'Great', 'Lovely.', 'Bo']]);
    }
    const disabled = await hono.request(`/api/v1/organizations/${off.org.id}/public-profile`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${off.keys.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: false }),
    }, env);
    expect(disabled.status).toBe(200);
  });

  it('a page (200) with its ETag, Cache-Control and CORS headers, and its revalidation (304)', async () => {
    for (const path of feeds(t.org.slug)) {
      const ok = await both(path, {}, visitor);
      expect(ok.h.status, path).toBe(200);
      expect(JSON.parse(ok.h.body).data[0].title).toBe('Great');
      expect(ok.h.headers['etag']).toMatch(/^W\//);
      expect(ok.h.headers['cache-control']).toBe('public, max-age=30, stale-while-revalidate=300');
      expect(ok.h.headers['access-control-allow-origin']).toBe('*');
      expect(ok.h.headers['access-control-expose-headers']).toContain('ETag');
      expect(ok.h.headers['x-ratelimit-limit']).toBe(String(config.publicRateLimitPerMinute));
      expect(ok.h.log.route).toBe(
        path.includes('profiles') ? '/api/v1/public/profiles/:slug/reviews' : '/api/v1/public/reviews/:slug',
      );
      // Each side's limiter counted the address once.
      expectSame(ok, { counted: false });
      const etag = ok.h.headers['etag'];
      const fresh = await both(
        path,
        { 'if-none-match': etag, origin: 'https://shop.example', 'x-request-id': 'w.1' },
        visitor,
      );
      expect(fresh.h.status).toBe(304);
      expect(fresh.h.body).toBe('');
      expect(fresh.h.headers['etag']).toBe(etag);
      expectSame(fresh, { counted: false });
      const stale = await both(path, { 'if-none-match': 'W/"other"' }, visitor);
      expect(stale.h.status).toBe(200);
      expectSame(stale, { counted: false });
    }
  });

  it('an unknown slug and a disabled profile (404)', async () => {
    for (const path of [...feeds('no-such-business-1'), ...feeds(off.org.slug)]) {
      const missing = await both(path, {}, visitor);
      const disabledEmbed = path === `/api/v1/public/reviews/${off.org.slug}`;
      if (!disabledEmbed) expect(missing.h.status, path).toBe(404);
      expectSame(missing, { counted: false });
      const revalidated = await both(path, { 'if-none-match': '*' }, visitor);
      expectSame(revalidated, { counted: false });
    }
  });

  it("the per-address limit (429), counted in the app's one limiter by both paths", async () => {
    const small = loadConfig({ databaseUrl: 'unused', environment: 'production', publicRateLimitPerMinute: 2 });
    const limitedHono = createApp({ sql, config: small, log: (l) => honoLines.push(l), fastReads: false });
    const limitedFast = fastReads({
      sql,
      config: small,
      log: (l) => fastLines.push(l),
      limiter: new MemoryRateLimiter(),
      app: limitedHono,
    });
    await awayFromMinuteBoundary();
    const path = feeds(t.org.slug)[1];
    const twice = async () => {
      const h = await answerOf(await limitedHono.request(path, {}, env), honoLines.at(-1));
      const answered = await limitedFast(new Request(`http://localhost${path}`), env);
      expect(answered).toBeInstanceOf(Response);
      return { h, f: await answerOf(answered!, fastLines.at(-1)) };
    };
    for (let i = 0; i < 2; i++) expectSame(await twice(), { counted: false });
    const over = await twice();
    expect(over.h.status).toBe(429);
    expect(over.f.headers['retry-after']).toMatch(/^\d+$/);
    expect(over.h.headers['access-control-allow-origin']).toBeUndefined();
    expectSame(over, { counted: false });

    // Through one app: what Hono answers (a query string) and what the fast path answers share a window.
    const app = createApp({ sql, config: small, log: () => {} });
    const statuses: number[] = [];
    for (const p of [`${path}?page=1`, path, path, `${path}?page=1`]) {
      statuses.push((await app.request(p, {}, env)).status);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  it('leaves to Hono what it does not answer, and a failed statement is not counted twice', async () => {
    const app = createApp({ sql, config, log: () => {} });
    const other = { remoteAddr: { hostname: '203.0.113.99' } };
    const slug = t.org.slug;
    const cases: [string, RequestInit][] = [
      [`/api/v1/public/reviews/${slug}?page=1`, {}],
      [`/api/v1/public/profiles/${slug}/reviews?limit=5`, {}],
      [`/api/v1/public/reviews/${'a'.repeat(201)}`, {}],
      [`/api/v1/public/reviews/a%00b`, {}],
      [`/api/v1/public/reviews/${slug}/`, {}],
      [`/api/v1/public/reviews/${slug}`, { method: 'HEAD' }],
      [`/api/v1/public/reviews/${slug}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
      }],
      [`/api/v1/public/profiles/${slug}`, {}],
      [`/api/v1/public/embed/${slug}`, {}],
    ];
    for (const [path, init] of cases) {
      expect(fast(new Request(`http://localhost${path}`, init), other), path).toBeUndefined();
      const [a, b] = [await app.request(path, init, other), await hono.request(path, init, other)];
      const headers = (r: Response) =>
        Object.fromEntries([...r.headers].filter(([k]) => !['x-request-id', 'x-ratelimit-remaining'].includes(k)));
      expect([a.status, headers(a), await a.text()], path).toEqual([b.status, headers(b), await b.text()]);
    }
    // A statement that fails is handed to Hono without the address's hit.
    const limiter = new MemoryRateLimiter();
    const broken = createSql('postgres://nobody@127.0.0.1:1/none', { max: 1 });
    const failing = fastReads({ sql: broken, config, log: () => {}, limiter, app: hono });
    expect(await failing(new Request(`http://localhost/api/v1/public/reviews/${slug}`), other)).toBeUndefined();
    expect(limiter.peek('203.0.113.99', 600).remaining).toBe(600);
    await broken.end();
  });
});

describe('every declared one-statement read', () => {
  const declared = declaredReads(hono);
  let t: Tenant;
  let other: Tenant;
  let reviewId: string;
  const visitor = { remoteAddr: { hostname: '198.51.100.9' } };

  beforeAll(async () => {
    [t, other] = await Promise.all([createTenant(), createTenant()]);
    const form = await hono.request(`/api/v1/organizations/${t.org.id}/review-forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.keys.write}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Form' }),
    }, env);
    [reviewId] = await postReviews((await form.json()).id, `declared-${t.org.slug}`, [[5, 'Yes', 'Fine.', 'Cy']]);
    // The product of {externalId}, in both tenants (the other's answers for its own).
    for (const tenant of [t, other]) {
      const made = await hono.request(`/api/v1/organizations/${tenant.org.id}/products`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.keys.write}`, 'content-type': 'application/json' },
        body: JSON.stringify({ external_id: 'MUG-1', name: 'Mug' }),
      }, env);
      expect(made.status).toBe(201);
    }
  });

  /** The route's path for `tenant`: each parameter a value of its (a new parameter needs one here). */
  function pathOf(path: string, tenant: Tenant) {
    const values: Record<string, string> = {
      orgId: tenant.org.id,
      id: reviewId,
      slug: tenant.org.slug,
      externalId: 'MUG-1',
    };
    return path.replace(/\{(\w+)\}/g, (_, name: string) => {
      expect(values[name], `a sample value for {${name}}`).toBeDefined();
      return values[name];
    });
  }

  it("are the organization, one review, the list, the two public feeds and a product's reviews", () => {
    expect(declared.map((r) => r.route).sort()).toEqual([
      '/api/v1/organizations/:orgId',
      '/api/v1/organizations/:orgId/reviews',
      '/api/v1/organizations/:orgId/reviews/:id',
      '/api/v1/public/products/:slug/:externalId/reviews',
      '/api/v1/public/profiles/:slug/reviews',
      '/api/v1/public/reviews/:slug',
    ]);
  });

  it('answer as Hono does: a success, each declared query string, and the refusals', async () => {
    for (const r of declared) {
      const path = pathOf(r.path, t);
      if (r.read.access === 'credential') {
        const key = { authorization: `Bearer ${t.keys.read}` };
        for (const query of r.queries) {
          const ok = await both(query ? `${path}?${query}` : path, key);
          expect(ok.h.status, `${path}?${query}`).toBe(200);
          expectSame(ok);
        }
        const foreign = await both(pathOf(r.path, other), key);
        expect(foreign.h.status, r.route).toBe(403);
        expectSame(foreign);
        const unknown = await both(path, { authorization: `Bearer ${unknownKey()}` });
        expect(unknown.h.status, r.route).toBe(401);
        expectSame(unknown, { counted: false });
      } else {
        const ok = await both(path, {}, visitor);
        expect(ok.h.status, path).toBe(200);
        expectSame(ok, { counted: false });
        const fresh = await both(path, { 'if-none-match': ok.h.headers['etag'] }, visitor);
        expect(fresh.h.status, path).toBe(304);
        expectSame(fresh, { counted: false });
        const missing = await both(path.replace(t.org.slug, 'no-such-business-2'), {}, visitor);
        expect(missing.h.status, path).toBe(404);
        expectSame(missing, { counted: false });
      }
    }
  });

  it('a middleware the fast path cannot honour stops it from starting', () => {
    const app = createApp({ sql, config, log: () => {}, fastReads: false });
    expect(() => fastReads({ sql, config, log: () => {}, limiter: new MemoryRateLimiter(), app })).not.toThrow();
    app.use('*', async (c, next) => {
      await next();
      c.res.headers.set('X-New-Header', 'yes');
    });
    expect(() => fastReads({ sql, config, log: () => {}, limiter: new MemoryRateLimiter(), app }))
      .toThrow(/cannot honour a middleware on \/\*, before \/api\/v1\/organizations\/:orgId/);
  });
});
