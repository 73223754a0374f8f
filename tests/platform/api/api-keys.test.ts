import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';

let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
});
const keysPath = (tenant = t) => `/api/v1/organizations/${tenant.org.id}/api-keys`;

describe('POST /api-keys', () => {
  it('creates a key: the full key once, only its hash stored', async () => {
    const res = await api('POST', keysPath(), {
      key: t.keys.admin,
      body: { name: 'CI', scope: 'write', rate_limit_per_minute: 120 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'CI',
      scope: 'write',
      prefix: res.body.key.slice(0, 11),
      key: expect.stringMatching(/^rk_[0-9A-Za-z]{38}$/),
      rate_limit_per_minute: 120,
      created_at: expect.any(String),
    });
    const rows =
      await db`select to_jsonb(k)::text as row, encode(key_hash, 'hex') as hash from plaudit.api_keys k where id = ${res.body.id}`;
    expect(rows[0].row).not.toContain(res.body.key);
    const [{ expected }] =
      await db`select encode(sha256(convert_to(${res.body.key}::text, 'UTF8')), 'hex') as expected`;
    expect(rows[0].hash).toBe(expected);
    expect((await api('GET', `/api/v1/organizations/${t.org.id}`, { key: res.body.key })).status).toBe(200);
  });

  it.each([
    [{ scope: 'read' }, /name/],
    [{ name: 'x', scope: 'owner' }, /scope/],
    [{ name: '', scope: 'read' }, /name/],
    [{ name: 'x', scope: 'read', rate_limit_per_minute: 0 }, /rate_limit_per_minute/],
    [{ name: 'x', scope: 'read', rate_limit_per_minute: 1.5 }, /rate_limit_per_minute/],
  ])('422 naming the field for %j', async (body, field) => {
    const res = await api('POST', keysPath(), { key: t.keys.admin, body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', field));
  });
});

describe('GET /api-keys', () => {
  it('lists active keys with prefixes only, newest first', async () => {
    const res = await api('GET', `${keysPath()}?limit=100`, { key: t.keys.read });
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/rk_[0-9A-Za-z]{38}/);
    expect(text).not.toMatch(/hash/);
    for (const k of res.body.data) {
      expect(Object.keys(k).sort()).toEqual([
        'created_at',
        'expires_at',
        'id',
        'last_used_at',
        'name',
        'prefix',
        'rate_limit_per_minute',
        'scope',
      ]);
      expect(k.prefix).toMatch(/^rk_[0-9A-Za-z]{8}$/);
    }
    const times = res.body.data.map((k: { created_at: string }) => k.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(res.body.data.find((k: { id: string }) => k.id === t.keyIds.admin).last_used_at).not.toBeNull();
  });

  it("never lists another organization's keys", async () => {
    const res = await api('GET', `${keysPath()}?limit=100`, { key: t.keys.read });
    const ids = res.body.data.map((k: { id: string }) => k.id);
    for (const id of Object.values(other.keyIds)) expect(ids).not.toContain(id);
  });
});

describe('pagination', () => {
  it('computes totalPages and answers an empty page past the end', async () => {
    const p = await createTenant(); // 3 keys
    await db`select plaudit.issue_api_key(${p.org.id}, 'extra ' || i, 'read') from generate_series(1, 4) i`;
    const cases: [string, object, number][] = [
      ['?limit=3', { total: 7, page: 1, limit: 3, totalPages: 3 }, 3],
      ['?limit=3&page=3', { total: 7, page: 3, limit: 3, totalPages: 3 }, 1],
      ['?limit=3&page=4', { total: 7, page: 4, limit: 3, totalPages: 3 }, 0],
      ['?limit=7', { total: 7, page: 1, limit: 7, totalPages: 1 }, 7],
      ['', { total: 7, page: 1, limit: 20, totalPages: 1 }, 7],
    ];
    for (const [query, meta, n] of cases) {
      const res = await api('GET', keysPath(p) + query, { key: p.keys.read });
      expect(res.body.meta).toEqual(meta);
      expect(res.body.data).toHaveLength(n);
    }
  });

  it('totalPages is 0 when there are no items', async () => {
    const res = await api('GET', `/api/v1/organizations/${t.org.id}/invitations`, { key: t.keys.read });
    expect(res.body).toEqual({ data: [], meta: { total: 0, page: 1, limit: 20, totalPages: 0 } });
  });

  it.each(['page=0', 'page=-1', 'page=abc', 'page=1.5', 'limit=0', 'limit=101', 'limit=x'])('400 for %s', async (q) => {
    const res = await api('GET', `${keysPath()}?${q}`, { key: t.keys.read });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'Bad Request', new RegExp(q.split('=')[0])));
  });
});

describe('DELETE /api-keys/:id', () => {
  it('revokes: 204, the key then gets 401 and leaves the list', async () => {
    const [k] = await db`select id, key from plaudit.issue_api_key(${t.org.id}, 'temp', 'read')`;
    const res = await api('DELETE', `${keysPath()}/${k.id}`, { key: t.keys.admin });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expect((await api('GET', `/api/v1/organizations/${t.org.id}`, { key: k.key })).status).toBe(401);
    const list = await api('GET', `${keysPath()}?limit=100`, { key: t.keys.read });
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(k.id);
    expect((await api('DELETE', `${keysPath()}/${k.id}`, { key: t.keys.admin })).status).toBe(404);
  });

  it("404 for another organization's key id, which stays active", async () => {
    const res = await api('DELETE', `${keysPath()}/${other.keyIds.read}`, { key: t.keys.admin });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorBody(404, 'Not Found', /API key not found/));
    expect((await api('GET', `/api/v1/organizations/${other.org.id}`, { key: other.keys.read })).status).toBe(200);
  });

  it('400 for an id that is not a UUID', async () => {
    const res = await api('DELETE', `${keysPath()}/nope`, { key: t.keys.admin });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'Bad Request', /id/));
  });
});

describe('POST /api-keys/:id/rotate', () => {
  it('issues a new key with the same name, scope and limit; the old one gets 401 at once', async () => {
    const [k] = await db`select id, key from plaudit.issue_api_key(${t.org.id}, 'rotating', 'write', 77)`;
    const res = await api('POST', `${keysPath()}/${k.id}/rotate`, { key: t.keys.admin });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'rotating', scope: 'write', rate_limit_per_minute: 77 });
    expect(res.body.id).not.toBe(k.id);
    expect(res.body.key).not.toBe(k.key);
    expect((await api('GET', `/api/v1/organizations/${t.org.id}`, { key: k.key })).status).toBe(401);
    expect((await api('GET', `/api/v1/organizations/${t.org.id}`, { key: res.body.key })).status).toBe(200);
    const [old] = await db`select revoked_at, replaced_by from plaudit.api_keys where id = ${k.id}`;
    expect(old.revoked_at).not.toBeNull();
    expect(old.replaced_by).toBe(res.body.id);
  });

  it('with a grace period, both keys work until it ends; the old one is listed with its end and can be cut short', async () => {
    const [k] = await db`select id, key from plaudit.issue_api_key(${t.org.id}, 'fleet', 'read')`;
    const res = await api('POST', `${keysPath()}/${k.id}/rotate`, {
      key: t.keys.admin,
      body: { expires_in_seconds: 3600 },
    });
    expect(res.status).toBe(201);
    const [old] = await db`select revoked_at, now() as now from plaudit.api_keys where id = ${k.id}`;
    expect(old.revoked_at.getTime() - old.now.getTime()).toBeGreaterThan(3500_000);
    expect(res.body.previous_key_expires_at).toBe(old.revoked_at.toISOString());
    for (const key of [k.key, res.body.key]) {
      expect((await api('GET', `/api/v1/organizations/${t.org.id}`, { key })).status).toBe(200);
    }
    const list = await api('GET', `${keysPath()}?limit=100`, { key: t.keys.read });
    const listed = list.body.data.find((x: any) => x.id === k.id);
    expect(listed.expires_at).toBe(res.body.previous_key_expires_at);
    expect(list.body.data.find((x: any) => x.id === res.body.id).expires_at).toBeNull();
    // Rotated once: its successor is the key to rotate next.
    expect((await api('POST', `${keysPath()}/${k.id}/rotate`, { key: t.keys.admin })).status).toBe(404);
    expect((await api('DELETE', `${keysPath()}/${k.id}`, { key: t.keys.admin })).status).toBe(204);
    expect((await api('GET', `/api/v1/organizations/${t.org.id}`, { key: k.key })).status).toBe(401);
    expect((await api('GET', `/api/v1/organizations/${t.org.id}`, { key: res.body.key })).status).toBe(200);
  });

  it('422 naming expires_in_seconds for a grace period out of 0–86,400', async () => {
    const [k] = await db`select id from plaudit.issue_api_key(${t.org.id}, 'patient', 'read')`;
    for (const value of [86_401, -1, 1.5, '60']) {
      const res = await api('POST', `${keysPath()}/${k.id}/rotate`, {
        key: t.keys.admin,
        body: { expires_in_seconds: value },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: any) => e.field)).toEqual(['expires_in_seconds']);
    }
    const [still] = await db`select revoked_at from plaudit.api_keys where id = ${k.id}`;
    expect(still.revoked_at).toBeNull();
  });

  it("404 for a revoked key and for another organization's key", async () => {
    const [k] = await db`select id from plaudit.issue_api_key(${t.org.id}, 'gone', 'read')`;
    await api('DELETE', `${keysPath()}/${k.id}`, { key: t.keys.admin });
    expect((await api('POST', `${keysPath()}/${k.id}/rotate`, { key: t.keys.admin })).status).toBe(404);
    expect((await api('POST', `${keysPath()}/${other.keyIds.write}/rotate`, { key: t.keys.admin })).status).toBe(404);
    expect((await api('GET', `/api/v1/organizations/${other.org.id}`, { key: other.keys.write })).status).toBe(200);
  });
});

describe('GET /me', () => {
  it('tells a key its organization, name and scope, and nothing of other keys', async () => {
    const res = await api('GET', '/api/v1/me', { key: t.keys.write });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      organization_id: t.org.id,
      api_key: { id: t.keyIds.write, name: 'write key', scope: 'write', prefix: t.keys.write.slice(0, 11) },
    });
    expect((await api('GET', '/api/v1/me', { key: other.keys.read })).body.organization_id).toBe(other.org.id);
    expect((await api('GET', '/api/v1/me')).status).toBe(401);
  });
});
