// The team: an organization's admins change roles and remove members; owners are made and
// unmade by owners only; the last owner can never be demoted or removed (the database refuses,
// whoever asks). Through a key and through members' sessions alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { mailWorker } from '../../helpers/review-requests.ts';
import { addMember, asSession, personEmail, type Session, signIn } from '../../helpers/sessions.ts';
import type { TestWorker } from '../../helpers/worker.ts';

let t: Tenant;
let worker: TestWorker;
const ids: Record<string, string> = {};
const sessions: Record<string, Session> = {};
const path = (rest = '') => `/api/v1/organizations/${t.org.id}/members${rest}`;

beforeAll(async () => {
  t = await createTenant();
  worker = await mailWorker([t.org.id]);
  for (const role of ['owner', 'admin', 'member'] as const) {
    const email = personEmail(role);
    ids[role] = await addMember(t, email, role);
    sessions[role] = await signIn(email);
  }
});
afterAll(async () => {
  await worker.stop();
});

const roleOf = async (id: string) => (await db`select role from plaudit.members where id = ${id}`)[0]?.role;

describe('changing roles', () => {
  it('an admin promotes a member to admin and back (200, the member in the answer)', async () => {
    const up = await asSession(sessions.admin, 'PATCH', path(`/${ids.member}`), { body: { role: 'admin' } });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ id: ids.member, role: 'admin' });
    const down = await asSession(sessions.admin, 'PATCH', path(`/${ids.member}`), { body: { role: 'member' } });
    expect(down.body.role).toBe('member');
  });

  it('a signed-in admin may not make, change or remove an owner (403); an owner may', async () => {
    const make = await asSession(sessions.admin, 'PATCH', path(`/${ids.member}`), { body: { role: 'owner' } });
    expect(make.body).toEqual(errorBody(403, 'Forbidden', 'Only an owner can make, change or remove an owner'));
    const unmake = await asSession(sessions.admin, 'PATCH', path(`/${ids.owner}`), { body: { role: 'admin' } });
    expect(unmake.status).toBe(403);
    const remove = await asSession(sessions.admin, 'DELETE', path(`/${ids.owner}`));
    expect(remove.status).toBe(403);
    expect(await roleOf(ids.owner)).toBe('owner');
    expect(await roleOf(ids.member)).toBe('member');

    const byOwner = await asSession(sessions.owner, 'PATCH', path(`/${ids.admin}`), { body: { role: 'owner' } });
    expect(byOwner.body.role).toBe('owner');
    expect((await asSession(sessions.owner, 'PATCH', path(`/${ids.admin}`), { body: { role: 'admin' } })).status)
      .toBe(200);
  });

  it('a member (write) may not change the team (403)', async () => {
    const res = await asSession(sessions.member, 'PATCH', path(`/${ids.admin}`), { body: { role: 'member' } });
    expect(res.body).toEqual(
      errorBody(403, 'Forbidden', 'This action needs the admin scope; your role acts with write'),
    );
  });

  it('the last owner cannot be demoted or removed (409), by a session or a key; nothing changes', async () => {
    const message = 'An organization keeps at least one owner: make another member owner first';
    const demote = await asSession(sessions.owner, 'PATCH', path(`/${ids.owner}`), { body: { role: 'admin' } });
    expect(demote.body).toEqual(errorBody(409, 'Conflict', message));
    const remove = await api('DELETE', path(`/${ids.owner}`), { key: t.keys.admin });
    expect(remove.body).toEqual(errorBody(409, 'Conflict', message));
    expect(await roleOf(ids.owner)).toBe('owner');
  });

  it('refuses an unknown role (422) and an unknown member (404)', async () => {
    const bad = await asSession(sessions.owner, 'PATCH', path(`/${ids.member}`), { body: { role: 'king' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('role');
    const unknown = await asSession(sessions.owner, 'DELETE', path('/00000000-0000-4000-8000-000000000000'));
    expect(unknown.body).toEqual(errorBody(404, 'Not Found', 'Member not found'));
  });
});

describe('removing members', () => {
  it('an admin removes a member (204): they are gone from the list and their session reaches nothing', async () => {
    const email = personEmail('leaving');
    const id = await addMember(t, email, 'member');
    const leaving = await signIn(email);
    expect((await asSession(sessions.admin, 'DELETE', path(`/${id}`))).status).toBe(204);
    const list = await asSession(sessions.admin, 'GET', path());
    expect(list.body.data.map((m: { id: string }) => m.id)).not.toContain(id);
    expect((await asSession(leaving, 'GET', `/api/v1/organizations/${t.org.id}`)).status).toBe(403);
  });

  it('with two owners, one may step down; deleting the organization takes its owners with it', async () => {
    const other = await createTenant();
    const first = await addMember(other, personEmail('first'), 'owner');
    const second = await addMember(other, personEmail('second'), 'owner');
    expect(
      (await api('PATCH', `/api/v1/organizations/${other.org.id}/members/${first}`, {
        key: other.keys.admin,
        body: { role: 'member' },
      })).status,
    ).toBe(200);
    expect(
      (await api('DELETE', `/api/v1/organizations/${other.org.id}/members/${second}`, { key: other.keys.admin }))
        .status,
    ).toBe(409);
    await db`delete from plaudit.organizations where id = ${other.org.id}`;
    const [{ n }] = await db`select count(*)::int as n from plaudit.members where org_id = ${other.org.id}`;
    expect(n).toBe(0);
  });
});
