import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});
const path = (suffix = '') => `/api/v1/organizations/${t.org.id}${suffix}`;

describe('GET /organizations/:orgId', () => {
  it('answers the organization', async () => {
    const res = await api('GET', path(), { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: t.org.id,
      name: t.org.name,
      slug: t.org.slug,
      website: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });
});

describe('PATCH /organizations/:orgId', () => {
  it('changes name and website, and nothing else', async () => {
    const res = await api('PATCH', path(), {
      key: t.keys.admin,
      body: { name: 'Renamed Inc', website: 'https://renamed.example', slug: 'stolen', id: 'x' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: t.org.id,
      name: 'Renamed Inc',
      website: 'https://renamed.example',
      slug: t.org.slug,
    });
    const [row] = await db`select name, slug, website from plaudit.organizations where id = ${t.org.id}`;
    expect(row).toEqual({ name: 'Renamed Inc', slug: t.org.slug, website: 'https://renamed.example' });
  });

  it('clears the website with null and leaves absent fields alone', async () => {
    const res = await api('PATCH', path(), { key: t.keys.admin, body: { website: null } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed Inc', website: null });
  });

  it.each([
    [{ name: '' }, /name/],
    [{ name: 'x'.repeat(201) }, /name/],
    [{ name: 42 }, /name/],
    [{ website: 'ftp://example.com' }, /website/],
    [{ website: 'not a url' }, /website/],
  ])('422 naming the field for %j', async (body, field) => {
    const res = await api('PATCH', path(), { key: t.keys.admin, body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', field));
  });

  it('400 for unparseable JSON, and nothing changes', async () => {
    const res = await api('PATCH', path(), {
      key: t.keys.admin,
      rawBody: '{"name": "Broken',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'Bad Request', /Malformed JSON/));
    const [row] = await db`select name from plaudit.organizations where id = ${t.org.id}`;
    expect(row.name).toBe('Renamed Inc');
  });

  it('413 for a body over 64 KiB', async () => {
    const res = await api('PATCH', path(), { key: t.keys.admin, body: { name: 'x', padding: 'y'.repeat(65 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(errorBody(413, 'Payload Too Large', /64 KiB/));
  });

  it('415 for a body that is not JSON', async () => {
    const res = await api('PATCH', path(), {
      key: t.keys.admin,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual(errorBody(415, 'Unsupported Media Type'));
  });
});

describe('members and invitations', () => {
  it('lists members with the pagination envelope', async () => {
    await db`insert into plaudit.members (org_id, email, name, role, created_at)
             select ${t.org.id}, 'member' || i || '@example.com', 'Member ' || i, 'member',
                    now() + i * interval '1 second'
             from generate_series(1, 5) i`;
    const res = await api('GET', path('/members?limit=2&page=3'), { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 5, page: 3, limit: 2, totalPages: 3 });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toEqual({
      id: expect.any(String),
      email: 'member5@example.com',
      name: 'Member 5',
      role: 'member',
      created_at: expect.any(String),
    });
  });

  it('invites an address: 201, stored with a hashed token and an expiry', async () => {
    const res = await api('POST', path('/invitations'), {
      key: t.keys.admin,
      body: { email: 'New.Person@example.com', role: 'admin' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      email: 'New.Person@example.com',
      role: 'admin',
      status: 'pending',
      expires_at: expect.any(String),
      created_at: expect.any(String),
    });
    const days = (Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);
    expect(JSON.stringify(res.body)).not.toMatch(/token/);
    const [row] =
      await db`select octet_length(token_hash) as n, invited_by_key_id from plaudit.invitations where id = ${res.body.id}`;
    expect(row).toEqual({ n: 32, invited_by_key_id: t.keyIds.admin });
    const list = await api('GET', path('/invitations'), { key: t.keys.read });
    expect(list.body.data.map((i: { id: string }) => i.id)).toContain(res.body.id);
  });

  it('409 for an address with an open invitation (any case) or already a member', async () => {
    const again = await api('POST', path('/invitations'), {
      key: t.keys.admin,
      body: { email: 'new.person@EXAMPLE.com', role: 'member' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(errorBody(409, 'Conflict', /open invitation/));
    const member = await api('POST', path('/invitations'), {
      key: t.keys.admin,
      body: { email: 'member1@example.com', role: 'member' },
    });
    expect(member.status).toBe(409);
    expect(member.body).toEqual(errorBody(409, 'Conflict', /already a member/));
  });

  it('withdraws an open invitation once: 204, then 409; read and write keys cannot', async () => {
    const inv = await api('POST', path('/invitations'), {
      key: t.keys.admin,
      body: { email: 'withdrawn@example.com', role: 'member' },
    });
    const item = path(`/invitations/${inv.body.id}`);
    expect((await api('DELETE', item, { key: t.keys.write })).status).toBe(403);
    const res = await api('DELETE', item, { key: t.keys.admin });
    expect(res.status).toBe(204);
    const list = await api('GET', path('/invitations?limit=100'), { key: t.keys.read });
    expect(list.body.data.find((i: { id: string }) => i.id === inv.body.id).status).toBe('revoked');
    const again = await api('DELETE', item, { key: t.keys.admin });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(errorBody(409, 'Conflict', 'This invitation was withdrawn already'));
    // The address can be invited again, with a new link.
    expect(
      (await api('POST', path('/invitations'), {
        key: t.keys.admin,
        body: { email: 'withdrawn@example.com', role: 'member' },
      })).status,
    ).toBe(201);
  });

  it('409 for an accepted invitation, which stays accepted', async () => {
    const inv = await api('POST', path('/invitations'), {
      key: t.keys.admin,
      body: { email: 'joined@example.com', role: 'member' },
    });
    await db`update plaudit.invitations set accepted_at = now() where id = ${inv.body.id}`;
    const res = await api('DELETE', path(`/invitations/${inv.body.id}`), { key: t.keys.admin });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(errorBody(409, 'Conflict', 'This invitation was accepted already'));
    const [row] = await db`select revoked_at from plaudit.invitations where id = ${inv.body.id}`;
    expect(row.revoked_at).toBeNull();
  });

  it("404 for an unknown invitation or another organization's, which stays open", async () => {
    const other = await createTenant();
    const theirs = await api('POST', `/api/v1/organizations/${other.org.id}/invitations`, {
      key: other.keys.admin,
      body: { email: 'theirs@example.com', role: 'member' },
    });
    for (const id of [theirs.body.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await api('DELETE', path(`/invitations/${id}`), { key: t.keys.admin });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorBody(404, 'Not Found', 'Invitation not found'));
    }
    expect((await api('DELETE', path('/invitations/not-a-uuid'), { key: t.keys.admin })).status).toBe(400);
    const [row] = await db`select revoked_at from plaudit.invitations where id = ${theirs.body.id}`;
    expect(row.revoked_at).toBeNull();
  });

  it.each([
    [{ email: 'not-an-email', role: 'member' }, /email/],
    [{ email: 'a@example.com', role: 'owner' }, /role/],
    [{ role: 'member' }, /email/],
  ])('422 for %j', async (body, field) => {
    const res = await api('POST', path('/invitations'), { key: t.keys.admin, body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', field));
  });
});
