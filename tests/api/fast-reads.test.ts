// The fast reads (functions/_shared/api/fast-reads/) answer byte for byte what Hono's path
// answers: the same status, headers, body and log line, for a success and for every refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../functions/_shared/api/app.ts';
import { checksum } from '../../functions/_shared/api/api-keys/format.ts';
import { fastReads } from '../../functions/_shared/api/fast-reads/index.ts';
import { MemoryRateLimiter } from '../../functions/_shared/api/middleware/rate-limit/index.ts';
import type { LogLine } from '../../functions/_shared/api/middleware/request-log/index.ts';
import { loadConfig } from '../../functions/_shared/core/config.ts';
import { createSql } from '../../functions/_shared/core/db/client.ts';
import { createTenant, type Tenant } from '../helpers/db.ts';
import { postReviews } from '../helpers/reviews.ts';

const sql = createSql(process.env.TEST_API_DATABASE_URL!, { max: 2 });
const config = loadConfig({ databaseUrl: 'unused', environment: 'production' });
const env = { remoteAddr: { hostname: '203.0.113.7' } };

const honoLines: LogLine[] = [];
const fastLines: LogLine[] = [];
const hono = createApp({ sql, config, log: (l) => honoLines.push(l), fastReads: false });
const fast = fastReads({ sql, config, log: (l) => fastLines.push(l), limiter: new MemoryRateLimiter() });

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
async function both(path: string, headers: Record<string, string>) {
  const h = await answerOf(await hono.request(path, { headers }, env), honoLines.at(-1));
  const answered = await fast(new Request(`http://localhost${path}`, { headers }), env);
  expect(answered, 'the fast reads answer it').toBeInstanceOf(Response);
  const f = await answerOf(answered!, fastLines.at(-1));
  return { h, f };
}

/**
 * Equal but for the request id's value (a new UUID each) and what the first request changed: one
 * more request of the key's window counted, and a 429's Retry-After a second on.
 */
function expectSame({ h, f }: { h: Answer; f: Answer }, { counted = true } = {}) {
  const dropped = ['x-request-id', 'retry-after', 'x-ratelimit-remaining'];
  const rest = (a: Answer) => ({
    ...a,
    headers: Object.fromEntries(Object.entries(a.headers).filter(([k]) => !dropped.includes(k))),
  });
  expect(rest(f)).toEqual(rest(h));
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  if (uuid.test(h.headers['x-request-id'])) expect(f.headers['x-request-id']).toMatch(uuid);
  else expect(f.headers['x-request-id']).toBe(h.headers['x-request-id']);
  const remaining = (a: Answer) => Number(a.headers['x-ratelimit-remaining']);
  if (h.headers['x-ratelimit-remaining'] !== undefined) {
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
  afterAll(() => sql.end());

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

  it("another organization's (403) and an unknown key (401)", async () => {
    const foreign = await both(`/api/v1/organizations/${other.org.id}`, bearer(t.keys.read));
    expect(foreign.h.status).toBe(403);
    expectSame(foreign);
    const foreignReview = await both(`/api/v1/organizations/${other.org.id}/reviews/${reviewId}`, bearer(t.keys.read));
    expect(foreignReview.h.status).toBe(403);
    expectSame(foreignReview);
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
  });

  it('leaves to Hono what it does not answer, and the app then answers as without it', async () => {
    const app = createApp({ sql, config, log: () => {} });
    const cases: [string, RequestInit][] = [
      [`/api/v1/organizations/not-a-uuid`, { headers: bearer(t.keys.read) }],
      [`/api/v1/organizations/${t.org.id}/reviews/not-a-uuid`, { headers: bearer(t.keys.read) }],
      [`/api/v1/organizations/${t.org.id}`, { headers: bearer('rk_malformed') }],
      [`/api/v1/organizations/${t.org.id}`, {}],
      [`/api/v1/organizations/${t.org.id}?x=1`, { headers: bearer(t.keys.read) }],
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
