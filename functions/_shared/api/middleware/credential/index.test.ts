import { Hono } from 'hono';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../../core/config.ts';
import type { AppEnv } from '../../http/env.ts';
import { credential } from './index.ts';

// app.request() tests against the real database: the API's login for the middleware, the owner
// for fixtures (npm test provides both).
const ready = !!process.env.TEST_API_DATABASE_URL && !!process.env.TEST_DATABASE_URL;

/** An app with one read route and one write route that records a row, then answers `status`. */
function app(sql: postgres.Sql) {
  const a = new Hono<AppEnv>();
  a.use('*', async (c, next) => {
    c.set('sql', sql);
    c.set('config', { rateLimitPerMinute: 600, publicUrl: 'http://localhost' } as Config);
    await next();
  });
  a.get('/orgs/:orgId/who', credential({ scope: 'read' }), async (c) => {
    const [row] = await c.var.db`select current_user as role, current_setting('plaudit.org_id') as org`;
    return c.json(row);
  });
  a.post('/orgs/:orgId/forms/:status', credential({ scope: 'write' }), async (c) => {
    await c.var.db`insert into plaudit.review_forms (org_id, name) values (${
      c.var.caller!.orgId
    }, 'made in a request')`;
    const status = Number(c.req.param('status'));
    return c.json({ status }, status as 201);
  });
  return a;
}

describe('credential without the database', () => {
  // A pool that fails the test if the middleware asks it anything.
  const untouchable = { reserve: () => Promise.reject(new Error('the database was asked')) } as unknown as postgres.Sql;

  it('answers 401 for a missing or malformed key before any query', async () => {
    const missing = await app(untouchable).request('/orgs/x/who');
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Missing API key: send Authorization: Bearer rk_…',
    });
    for (const header of ['Basic abc', 'Bearer ', 'Bearer rk_short', `Bearer rk_${'a'.repeat(38)}`]) {
      const res = await app(untouchable).request('/orgs/x/who', { headers: { authorization: header } });
      expect(res.status).toBe(401);
      expect((await res.json()).message).toBe('Malformed API key: expected Authorization: Bearer rk_…');
    }
  });
});

describe.skipIf(!ready)('credential with the database', () => {
  const owner = postgres(process.env.TEST_DATABASE_URL ?? 'postgres://unused', {
    max: 1,
    prepare: false,
    onnotice: () => {},
  });
  const api = postgres(process.env.TEST_API_DATABASE_URL ?? 'postgres://unused', {
    max: 2,
    prepare: false,
    onnotice: () => {},
  });
  let org: string;
  let other: string;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    [{ id: org }] = await owner`insert into plaudit.organizations (name, slug) values ('Auth A', ${
      'auth-a-' + suffix
    }) returning id`;
    [{ id: other }] = await owner`insert into plaudit.organizations (name, slug) values ('Auth B', ${
      'auth-b-' + suffix
    }) returning id`;
    for (const scope of ['read', 'write']) {
      [{ key: keys[scope] }] = await owner`select key from plaudit.issue_api_key(${org}, ${scope}, ${scope})`;
    }
  });
  afterAll(async () => {
    await owner.end();
    await api.end();
  });

  const bearer = (scope: string) => ({ authorization: `Bearer ${keys[scope]}` });
  const forms = async () =>
    (await owner`select count(*)::int as n from plaudit.review_forms where org_id = ${org}`)[0].n;

  it("runs the handler as plaudit_api with the key's organization as the tenant", async () => {
    const res = await app(api).request(`/orgs/${org}/who`, { headers: bearer('read') });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ role: 'plaudit_api', org });
    expect(res.headers.get('x-ratelimit-limit')).toBe('600');
  });

  it('refuses another organization (403), a path that is not a UUID (400), an unknown key (401), a low scope (403)', async () => {
    const foreign = await app(api).request(`/orgs/${other}/who`, { headers: bearer('read') });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).message).toBe('This API key belongs to another organization');
    const notUuid = await app(api).request('/orgs/acme/who', { headers: bearer('read') });
    expect(notUuid.status).toBe(400);
    expect((await notUuid.json()).message).toBe('orgId: must be a UUID');
    const revoked = `rk_${'0'.repeat(32)}`;
    const { checksum } = await import('../../api-keys/format.ts');
    const unknown = await app(api).request(`/orgs/${org}/who`, {
      headers: { authorization: `Bearer ${revoked}${checksum('0'.repeat(32))}` },
    });
    expect(unknown.status).toBe(401);
    const low = await app(api).request(`/orgs/${org}/forms/201`, { method: 'POST', headers: bearer('read') });
    expect(low.status).toBe(403);
    expect((await low.json()).message).toBe('This action needs an API key with the write scope; this key has read');
  });

  it('commits a write that answers a success and rolls back one that answers an error', async () => {
    const before = await forms();
    expect((await app(api).request(`/orgs/${org}/forms/422`, { method: 'POST', headers: bearer('write') })).status)
      .toBe(422);
    expect(await forms()).toBe(before);
    expect((await app(api).request(`/orgs/${org}/forms/201`, { method: 'POST', headers: bearer('write') })).status)
      .toBe(201);
    expect(await forms()).toBe(before + 1);
  });
});
