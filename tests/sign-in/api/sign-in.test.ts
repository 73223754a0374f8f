// Members sign in by e-mail (a one-time link and a 6-digit code in one real mail, sent by the
// worker over SMTP into the capture), then act through /api/v1 with the session cookie and its
// CSRF token: the same routes, tenant and row-level security as an API key.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { mailWorker } from '../../helpers/review-requests.ts';
import { freshIp, ownApiServer } from '../../helpers/reviews.ts';
import {
  addMember,
  asSession,
  personEmail,
  type Session,
  sessionCookie,
  signIn,
  signInMail,
} from '../../helpers/sessions.ts';
import type { TestWorker } from '../../helpers/worker.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

let a: Tenant;
let b: Tenant;
let worker: TestWorker;
const owner = personEmail('owner');
const staff = personEmail('staff');

beforeAll(async () => {
  a = await createTenant();
  b = await createTenant();
  await addMember(a, owner, 'owner', 'Olga Owner');
  await addMember(a, staff, 'member');
  worker = await mailWorker([a.org.id, b.org.id]);
});
afterAll(async () => {
  await worker.stop();
});

describe('asking for a sign-in mail', () => {
  it('mails a member a one-time link and a 6-digit code, and answers an unknown address alike', async () => {
    const email = personEmail('asker');
    await addMember(a, email, 'admin');
    const known = await api('POST', '/api/v1/auth/sign-in', { body: { email: email.toUpperCase() } });
    const unknown = await api('POST', '/api/v1/auth/sign-in', { body: { email: personEmail('nobody') } });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);

    const { mail, code } = await signInMail(email);
    expect(mail.subject).toBe(`Your Plaudit sign-in code: ${code}`);
    expect(mail.text).toMatch(/Sign in to Plaudit: http:\/\/[^\s]+\/app\/sign-in#token=[0-9A-Za-z]{43}\n/);
    expect(mail.html).toContain(`>${code}</p>`);
    // Only hashes are kept: neither the code nor the link's token is stored in the clear.
    const [stored] = await db`select * from plaudit.sign_in_challenges where email = ${email}`;
    expect(stored.token_hash).toHaveLength(32);
    expect(JSON.stringify(stored)).not.toContain(code);
  });

  it('queues nothing for an address that belongs to nobody', async () => {
    const nobody = personEmail('nobody');
    expect((await api('POST', '/api/v1/auth/sign-in', { body: { email: nobody } })).status).toBe(202);
    const [{ n }] = await db`select count(*)::int as n from plaudit.email_outbox where to_address = ${nobody}`;
    expect(n).toBe(0);
  });

  it('refuses what is not an e-mail address (422, naming the field)', async () => {
    const res = await api('POST', '/api/v1/auth/sign-in', { body: { email: 'not an address' } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe('email');
  });
});

describe('signing in', () => {
  it('with the link: a session in an HttpOnly, SameSite=Lax cookie, the session stored hashed', async () => {
    await api('POST', '/api/v1/auth/sign-in', { body: { email: owner } });
    const { token } = await signInMail(owner);
    const res = await api('POST', '/api/v1/auth/verify', { body: { token } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      email: owner,
      name: 'Olga Owner',
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_at: expect.any(String),
      idle_expires_at: expect.any(String),
      organizations: [{ id: a.org.id, name: a.org.name, slug: a.org.slug, role: 'owner', scope: 'admin' }],
    });
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^plaudit_session=[0-9A-Za-z]{43}; /);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).not.toMatch(/Secure/); // http here; https sets Secure and the __Host- prefix
    const cookieToken = sessionCookie(res).split('=')[1];
    const [{ n }] = await db`select count(*)::int as n from plaudit.sessions where token_hash = ${sha256(cookieToken)}`;
    expect(n).toBe(1);
    // The session answers GET /auth/session, no-store.
    const me = await api('GET', '/api/v1/auth/session', { headers: { cookie: sessionCookie(res) } });
    expect(me.status).toBe(200);
    expect(me.headers.get('cache-control')).toBe('no-store');
    expect(me.body.csrf_token).toBe(res.body.csrf_token);
  });

  it('refuses a used link, an older mail once signed in, and an expired link (401)', async () => {
    const email = personEmail('reuse');
    await addMember(a, email, 'member');
    await api('POST', '/api/v1/auth/sign-in', { body: { email } });
    const first = await signInMail(email, 1);
    await api('POST', '/api/v1/auth/sign-in', { body: { email } });
    const second = await signInMail(email, 2);
    expect((await api('POST', '/api/v1/auth/verify', { body: { token: second.token } })).status).toBe(200);

    const used = await api('POST', '/api/v1/auth/verify', { body: { token: second.token } });
    expect(used.status).toBe(401);
    expect(used.body).toEqual(errorBody(401, 'Unauthorized', 'This sign-in link was used already: ask for a new mail'));
    const older = await api('POST', '/api/v1/auth/verify', { body: { token: first.token } });
    expect(older.status).toBe(401);
    expect(older.headers.get('set-cookie')).toBeNull();

    await api('POST', '/api/v1/auth/sign-in', { body: { email } });
    const third = await signInMail(email, 3);
    await db`update plaudit.sign_in_challenges set expires_at = now() - interval '1 second'
             where token_hash = ${sha256(third.token)}`;
    const expired = await api('POST', '/api/v1/auth/verify', { body: { token: third.token } });
    expect(expired.body).toEqual(errorBody(401, 'Unauthorized', 'This sign-in link has expired: ask for a new mail'));
    const unknown = await api('POST', '/api/v1/auth/verify', { body: { token: 'x'.repeat(43) } });
    expect(unknown.status).toBe(401);
  });

  it('with the code: the right one signs in; five wrong ones lock the mail, even for the right code', async () => {
    const email = personEmail('coder');
    await addMember(a, email, 'member');
    await api('POST', '/api/v1/auth/sign-in', { body: { email } });
    const first = await signInMail(email, 1);
    const wrong = first.code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) {
      const res = await api('POST', '/api/v1/auth/verify', { body: { email, code: wrong } });
      expect(res.status).toBe(401);
    }
    const fifth = await api('POST', '/api/v1/auth/verify', { body: { email, code: wrong } });
    expect(fifth.body).toEqual(errorBody(429, 'Too Many Requests', 'Too many wrong codes: ask for a new sign-in mail'));
    expect((await api('POST', '/api/v1/auth/verify', { body: { email, code: first.code } })).status).toBe(429);

    await api('POST', '/api/v1/auth/sign-in', { body: { email } });
    const second = await signInMail(email, 2);
    const ok = await api('POST', '/api/v1/auth/verify', { body: { email: email.toUpperCase(), code: second.code } });
    expect(ok.status).toBe(200);
    expect(ok.body.organizations.map((o: { role: string }) => o.role)).toEqual(['member']);
  });

  it('refuses a body with neither a token nor an address and a code (422)', async () => {
    const res = await api('POST', '/api/v1/auth/verify', { body: { email: owner } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe('code');
    expect((await api('POST', '/api/v1/auth/verify', { body: { email: owner, code: '12ab56' } })).status).toBe(422);
  });
});

// Each address may ask for 3 mails a minute: the owner signs in once more and keeps the session.
let ownerSession: Session;

describe('a session reaches the API like a key', () => {
  let staffSession: Session;
  beforeAll(async () => {
    ownerSession = await signIn(owner, 2);
    staffSession = await signIn(staff);
  });

  it("reads and writes its organization as plaudit_api with the role's scope", async () => {
    const org = await asSession(ownerSession, 'GET', `/api/v1/organizations/${a.org.id}`);
    expect(org.status).toBe(200);
    expect(org.body.id).toBe(a.org.id);
    const list = await asSession(ownerSession, 'GET', `/api/v1/organizations/${a.org.id}/reviews`);
    expect(list.status).toBe(200);
    const form = await asSession(staffSession, 'POST', `/api/v1/organizations/${a.org.id}/review-forms`, {
      body: { name: 'Made by a member' },
    });
    expect(form.status).toBe(201);
    // member → write: the admin routes are refused.
    const key = await asSession(staffSession, 'POST', `/api/v1/organizations/${a.org.id}/api-keys`, {
      body: { name: 'nope', scope: 'read' },
    });
    expect(key.body).toEqual(
      errorBody(403, 'Forbidden', 'This action needs the admin scope; your role acts with write'),
    );
    const byOwner = await asSession(ownerSession, 'POST', `/api/v1/organizations/${a.org.id}/api-keys`, {
      body: { name: 'made in the dashboard', scope: 'read' },
    });
    expect(byOwner.status).toBe(201);
  });

  it('refuses a state change without its CSRF token or with a wrong one, and changes nothing', async () => {
    const count = async () =>
      (await db`select count(*)::int as n from plaudit.review_forms where org_id = ${a.org.id}`)[0].n;
    const before = await count();
    for (const csrf of [false, 'wrong', staffSession.csrf]) {
      const res = await asSession(ownerSession, 'POST', `/api/v1/organizations/${a.org.id}/review-forms`, {
        body: { name: 'forged' },
        csrf,
      });
      expect(res.body).toEqual(
        errorBody(
          403,
          'Forbidden',
          'Missing or wrong CSRF token: send X-CSRF-Token with the csrf_token of GET /api/v1/auth/session',
        ),
      );
    }
    expect(await count()).toBe(before);
  });

  it('names the member in the moderation trail', async () => {
    const form = await asSession(ownerSession, 'POST', `/api/v1/organizations/${a.org.id}/review-forms`, {
      body: { name: 'Trail form' },
    });
    const submitted = await api('POST', '/api/v1/reviews', {
      headers: { 'x-forwarded-for': freshIp() },
      body: {
        form_id: form.body.id,
        rating: 4,
        content: 'Good coffee, friendly staff.',
        reviewer_name: 'Kim',
        reviewer_email: 'kim@customer.example',
      },
    });
    expect(submitted.status).toBe(201);
    const hidden = await asSession(
      ownerSession,
      'PATCH',
      `/api/v1/organizations/${a.org.id}/reviews/${submitted.body.id}/moderate`,
      { body: { action: 'hide', reason: 'Spam' } },
    );
    expect(hidden.status).toBe(200);
    const [{ id: memberId }] = await db`select id from plaudit.members where email = ${owner}`;
    const [entry] = await db`select actor from plaudit.moderation_trail where review_id = ${submitted.body.id}
                             order by seq desc limit 1`;
    expect(entry.actor).toBe(`member:${memberId}`);
  });

  it('never reaches another organization: every organization route of B answers 403', async () => {
    const doc = (await api('GET', '/api/v1/openapi.json')).body;
    let tried = 0;
    for (const [path, ops] of Object.entries<Record<string, { security?: unknown[] }>>(doc.paths)) {
      if (!path.includes('{orgId}')) continue;
      for (const [method, op] of Object.entries(ops)) {
        if (!op.security?.length) continue;
        const url = '/api/v1' + path.replace(/^\/api\/v1/, '').replace('{orgId}', b.org.id)
          .replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        const res = await asSession(ownerSession, method.toUpperCase(), url, {
          body: ['post', 'put', 'patch'].includes(method) ? {} : undefined,
        });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.message, `${method} ${path}`).toBe('You are not a member of this organization');
        tried += 1;
      }
    }
    expect(tried).toBeGreaterThan(40);
  });

  it('is refused on /me, which belongs to keys', async () => {
    const res = await asSession(ownerSession, 'GET', '/api/v1/me');
    expect(res.status).toBe(403);
  });
});

describe('ending sessions', () => {
  it('signs out: the cookie is cleared and the old one no longer works', async () => {
    const email = personEmail('leaver');
    await addMember(a, email, 'admin');
    const session = await signIn(email);
    expect((await asSession(session, 'POST', '/api/v1/auth/sign-out', { csrf: false })).status).toBe(403);
    const out = await asSession(session, 'POST', '/api/v1/auth/sign-out');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/plaudit_session=; .*Max-Age=0/);
    const after = await asSession(session, 'GET', `/api/v1/organizations/${a.org.id}`);
    expect(after.body).toEqual(errorBody(401, 'Unauthorized', 'Your session has ended: sign in again'));
    expect((await asSession(session, 'GET', '/api/v1/auth/session')).status).toBe(401);
  });

  it('signs out everywhere: every session of the person ends, others stay', async () => {
    const email = personEmail('everywhere');
    await addMember(a, email, 'admin');
    const one = await signIn(email, 1);
    const two = await signIn(email, 2);
    const other = ownerSession;
    expect((await asSession(two, 'POST', '/api/v1/auth/sign-out-everywhere')).status).toBe(204);
    for (const s of [one, two]) {
      expect((await asSession(s, 'GET', `/api/v1/organizations/${a.org.id}/reviews`)).status).toBe(401);
    }
    expect((await asSession(other, 'GET', `/api/v1/organizations/${a.org.id}/reviews`)).status).toBe(200);
  });

  it('ends a session unused for 7 days, and any session 30 days after sign-in', async () => {
    const email = personEmail('idle');
    await addMember(a, email, 'admin');
    const idle = await signIn(email, 1);
    const old = await signIn(email, 2);
    const hash = (s: Session) => sha256(s.cookie.split('=')[1]);
    await db`update plaudit.sessions set last_seen_at = now() - interval '7 days 1 minute' where token_hash = ${
      hash(idle)
    }`;
    await db`update plaudit.sessions set expires_at = now() - interval '1 second' where token_hash = ${hash(old)}`;
    for (const s of [idle, old]) {
      expect((await asSession(s, 'GET', `/api/v1/organizations/${a.org.id}`)).status).toBe(401);
      expect((await asSession(s, 'GET', `/api/v1/organizations/${a.org.id}/reviews`)).status).toBe(401);
    }
  });

  it('a removed member keeps a session that reaches nothing', async () => {
    const email = personEmail('removed');
    const id = await addMember(a, email, 'member');
    const session = await signIn(email);
    expect((await asSession(ownerSession, 'DELETE', `/api/v1/organizations/${a.org.id}/members/${id}`)).status)
      .toBe(204);
    const res = await asSession(session, 'GET', `/api/v1/organizations/${a.org.id}/reviews`);
    expect(res.body.message).toBe('You are not a member of this organization');
  });
});

describe('sign-in limits, on a server of their own', () => {
  const server = ownApiServer();

  it('limits each address to 3 a minute and each client to 10, known address or not', async () => {
    const member = personEmail('limited');
    await addMember(a, member, 'member');
    for (const email of [member, personEmail('nobody')]) {
      const ip = freshIp();
      const answers: number[] = [];
      for (let i = 0; i < 4; i++) {
        answers.push(
          (await server.call('POST', '/api/v1/auth/sign-in', { body: { email }, headers: { 'x-forwarded-for': ip } }))
            .status,
        );
      }
      expect(answers).toEqual([202, 202, 202, 429]);
    }
    const ip = freshIp();
    const answers: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await server.call('POST', '/api/v1/auth/sign-in', {
        body: { email: personEmail('spray') },
        headers: { 'x-forwarded-for': ip },
      });
      answers.push(res.status);
    }
    expect(answers.slice(0, 10).every((s) => s === 202)).toBe(true);
    expect(answers[10]).toBe(429);
  });

  it('keeps self-service sign-up off by default', async () => {
    expect((await server.call('GET', '/api/v1/auth/options')).body).toEqual({ sign_up: false });
    const res = await server.call('POST', '/api/v1/auth/sign-up', {
      body: { organization_name: 'Pop-up', slug: 'pop-up-off', email: personEmail() },
    });
    expect(res.status).toBe(404);
    const [{ n }] = await db`select count(*)::int as n from plaudit.organizations where slug = 'pop-up-off'`;
    expect(n).toBe(0);
  });
});

describe('self-service sign-up, where the operator opens it', () => {
  const server = ownApiServer({ PLAUDIT_SIGN_UP: 'open' });

  it('creates the organization with its person as owner and mails a sign-in link', async () => {
    const email = personEmail('founder');
    const slug = `founded-${Math.random().toString(36).slice(2, 8)}`;
    expect((await server.call('GET', '/api/v1/auth/options')).body).toEqual({ sign_up: true });
    const res = await server.call('POST', '/api/v1/auth/sign-up', {
      headers: { 'x-forwarded-for': freshIp() },
      body: { organization_name: 'Founded Here', slug, email, name: 'Fran' },
    });
    expect(res.status).toBe(202);
    const [member] = await db`
      select m.role, m.name, o.id as org_id from plaudit.members m join plaudit.organizations o on o.id = m.org_id
      where o.slug = ${slug}`;
    expect(member).toMatchObject({ role: 'owner', name: 'Fran' });
    const [{ n }] = await db`select count(*)::int as n from plaudit.email_outbox
                             where to_address = ${email} and template = 'sign_in'`;
    expect(n).toBe(1);
    const taken = await server.call('POST', '/api/v1/auth/sign-up', {
      headers: { 'x-forwarded-for': freshIp() },
      body: { organization_name: 'Again', slug, email: personEmail() },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('slug: is already taken');
  });
});

describe('the per-address limit and sessions, on a server of their own', () => {
  const server = ownApiServer({ PUBLIC_RATE_LIMIT_PER_MINUTE: '5' });

  it('limits a session per session, not per address; a made-up cookie is counted per address', async () => {
    const email = personEmail('busy');
    await addMember(a, email, 'admin');
    const session = await signIn(email);
    const ip = freshIp();
    const call = (path: string, cookie: string) =>
      server.call('GET', path, { headers: { cookie, 'x-forwarded-for': ip } });
    for (let i = 0; i < 8; i++) {
      const res = await call(`/api/v1/organizations/${a.org.id}/reviews`, session.cookie);
      expect(res.status).toBe(200);
    }
    const forged = `plaudit_session=${'A'.repeat(43)}`;
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await call(`/api/v1/public/profiles/${a.org.slug}`, forged)).status);
    expect(answers.at(-1)).toBe(429);
  });
});
