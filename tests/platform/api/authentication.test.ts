import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';

let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
});

const orgPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}`;

describe('401: every way a key can be wrong', () => {
  it('no Authorization header', async () => {
    const res = await api('GET', orgPath(a));
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorBody(401, 'Unauthorized', /Missing API key/));
    expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it.each([
    ['not a bearer', 'Basic dXNlcjpwYXNz'],
    ['empty bearer', 'Bearer '],
    ['wrong prefix', `Bearer sk_${'a'.repeat(38)}`],
    ['too short', 'Bearer rk_abc'],
  ])('malformed: %s', async (_, header) => {
    const res = await api('GET', orgPath(a), { headers: { authorization: header } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorBody(401, 'Unauthorized', /Malformed API key/));
  });

  it('mistyped key (checksum fails) is refused before any query', async () => {
    const key = a.keys.read;
    const typo = key.slice(0, 12) + (key[12] === 'x' ? 'y' : 'x') + key.slice(13);
    const before = await db`select last_used_at from plaudit.api_keys where id = ${a.keyIds.read}`;
    const res = await api('GET', orgPath(a), { key: typo });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorBody(401, 'Unauthorized', /Malformed API key/));
    const after = await db`select last_used_at from plaudit.api_keys where id = ${a.keyIds.read}`;
    expect(after).toEqual(before);
  });

  it('well-formed but unknown key', async () => {
    const [{ key }] = await db`
      select 'rk_' || b || plaudit.api_key_checksum(b) as key from (select plaudit.random_base62(32) as b) x`;
    const res = await api('GET', orgPath(a), { key });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorBody(401, 'Unauthorized', /Invalid API key/));
  });

  it('revoked key', async () => {
    const t = await createTenant();
    expect((await api('GET', orgPath(t), { key: t.keys.read })).status).toBe(200);
    const del = await api('DELETE', `${orgPath(t)}/api-keys/${t.keyIds.read}`, { key: t.keys.admin });
    expect(del.status).toBe(204);
    const res = await api('GET', orgPath(t), { key: t.keys.read });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorBody(401, 'Unauthorized', /Invalid API key/));
  });

  it('rotated-out key', async () => {
    const t = await createTenant();
    const rotated = await api('POST', `${orgPath(t)}/api-keys/${t.keyIds.write}/rotate`, { key: t.keys.admin });
    expect(rotated.status).toBe(201);
    expect((await api('GET', orgPath(t), { key: t.keys.write })).status).toBe(401);
    expect((await api('GET', orgPath(t), { key: rotated.body.key })).status).toBe(200);
  });
});

describe('403: another organization, or too low a scope', () => {
  it('a valid key on another organization', async () => {
    const res = await api('GET', orgPath(b), { key: a.keys.admin });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(errorBody(403, 'Forbidden', /another organization/));
  });

  it.each(
    [
      ['read', 'PATCH', '', { name: 'x' }],
      ['write', 'PATCH', '', { name: 'x' }],
      ['read', 'POST', '/api-keys', { name: 'k', scope: 'read' }],
      ['write', 'POST', '/api-keys', { name: 'k', scope: 'read' }],
      ['write', 'POST', '/invitations', { email: 'x@example.com', role: 'member' }],
    ] as const,
  )('%s key on %s %s needs admin', async (scope, method, suffix, body) => {
    const res = await api(method, orgPath(a) + suffix, { key: a.keys[scope], body });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(
      errorBody(403, 'Forbidden', new RegExp(`needs an API key with the admin scope; this key has ${scope}`)),
    );
  });

  it('revoking and rotating keys need admin, and a refused attempt leaves the key working', async () => {
    for (const scope of ['read', 'write'] as const) {
      for (const [method, suffix] of [['DELETE', ''], ['POST', '/rotate']] as const) {
        const res = await api(method, `${orgPath(a)}/api-keys/${a.keyIds.read}${suffix}`, { key: a.keys[scope] });
        expect(res.status).toBe(403);
        expect(res.body).toEqual(
          errorBody(403, 'Forbidden', new RegExp(`needs an API key with the admin scope; this key has ${scope}`)),
        );
      }
    }
    expect((await api('GET', orgPath(a), { key: a.keys.read })).status).toBe(200);
  });

  it('read scope is enough for every GET', async () => {
    for (const suffix of ['', '/members', '/invitations', '/api-keys']) {
      expect((await api('GET', orgPath(a) + suffix, { key: a.keys.read })).status).toBe(200);
    }
  });

  it('a forbidden write changes nothing', async () => {
    const res = await api('PATCH', orgPath(b), { key: a.keys.admin, body: { name: 'Hijacked' } });
    expect(res.status).toBe(403);
    const [row] = await db`select name from plaudit.organizations where id = ${b.org.id}`;
    expect(row.name).toBe(b.org.name);
  });
});

describe('400: path parameters', () => {
  it('an orgId that is not a UUID', async () => {
    const res = await api('GET', '/api/v1/organizations/not-a-uuid', { key: a.keys.read });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'Bad Request', /orgId/));
  });
});
