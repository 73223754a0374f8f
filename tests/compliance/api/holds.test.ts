// Review bombing holds and duplicates over HTTP: one- and two-star reviews of the business sent
// from six client addresses (X-Forwarded-For to a server of the file's own) make a burst when the
// worker looks (its clock given); the same number from ONE address does not. The admins get the
// mail (through the real SMTP capture), an endpoint gets `reviews.burst_detected`, the public
// profile and embed carry the notice's flag; a new review is held as pending; `GET …/holds` and
// `GET …/holds/:id` show the hold; a member releases it (an API key gets 403; twice: 409), then
// approves the held review as manual verification does. A duplicate text is held and read side
// by side with the review it repeats. Other tenants get 403 or 404 on every route.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { z } from '@hono/zod-openapi';
import { smtpTransport } from '../../../functions/_shared/core/email/transport.ts';
import { EVENT_DATA } from '../../../functions/_shared/api/routes/webhooks/events.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { waitForMail } from '../../helpers/review-requests.ts';
import { createForm, freshIp, ownApiServer, submit } from '../../helpers/reviews.ts';
import { addMember, asSession, personEmail, type Session, signIn } from '../../helpers/sessions.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';

const server = ownApiServer();
let t: Tenant;
let other: Tenant;
let formId: string;
let otherFormId: string;
let worker: TestWorker;
let receiver: Receiver;
let member: Session;
let adminEmail: string;
let clock = new Date();
let holdId: string;

const orgPath = (tenant: Tenant, rest: string) => `/api/v1/organizations/${tenant.org.id}${rest}`;
const LONG = 'The order came two weeks late, the box was crushed and nobody answered my three e-mails about it.';

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
  adminEmail = personEmail('holds-admin');
  await addMember(t, adminEmail, 'admin', 'Ada Admin');
  const memberEmail = personEmail('holds-member');
  await addMember(t, memberEmail, 'member', 'Mo Member');
  // The worker sends the sign-in mail too; it looks for bursts at the clock the test sets.
  worker = await startWorker([t.org.id, other.org.id], {
    email: { transport: 'smtp', smtpUrl: inject('devMailSmtpUrl'), from: 'Plaudit <no-reply@plaudit.test>' },
  }, { emailTransport: smtpTransport(inject('devMailSmtpUrl')), now: () => clock });
  member = await signIn(memberEmail);
  formId = (await createForm(server.call, t)).id;
  otherFormId = (await createForm(server.call, other)).id;
  receiver = await startReceiver();
  const hook = await api('POST', orgPath(t, '/webhooks'), {
    key: t.keys.admin,
    body: { url: `${receiver.url}/bursts`, events: ['reviews.burst_detected'] },
  });
  expect(hook.status).toBe(201);
  // Twelve one-star reviews of t's business from six addresses; twelve of other's from one.
  const ips = Array.from({ length: 6 }, () => freshIp());
  const lone = freshIp();
  for (let i = 0; i < 12; i++) {
    const a = await submit(server.call, formId, { rating: 1, content: `Awful ${i}` }, ips[i % 6]);
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const b = await submit(server.call, otherFormId, { rating: 1, content: `Awful ${i}` }, lone);
    expect(b.status, JSON.stringify(b.body)).toBe(201);
  }
  const [{ latest }] = await db<{ latest: Date }[]>`
    select max(created_at) as latest from plaudit.reviews where org_id in (${t.org.id}, ${other.org.id})`;
  clock = new Date(latest.getTime() + 1000);
  // drain() looks for bursts at once, then sends what the hold queued.
  await worker.worker.drain();
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

describe('a burst', () => {
  it('opens a hold for six addresses, none for one, mails the admins and emits reviews.burst_detected', async () => {
    const holds = await db<{ id: string; org_id: string; subject: string }[]>`
      select id, org_id, subject from plaudit.review_holds where org_id in (${t.org.id}, ${other.org.id})`;
    expect(holds.map((h) => [h.org_id, h.subject])).toEqual([[t.org.id, 'business']]);
    holdId = holds[0].id;
    const [mail] = await waitForMail((to) => to === adminEmail, 1);
    expect(mail.subject).toBe(`Unusual number of low ratings for ${t.org.name}`);
    expect(mail.text).toContain(`received 12 one- and two-star reviews from 6 addresses in the hour to`);
    expect(mail.text).toContain(`/app/o/${t.org.id}/holds/${holdId}`);
    const [delivery] = await receiver.waitFor(1, 30_000, (r) => r.path === '/bursts');
    const body = JSON.parse(delivery.body);
    expect(body.event).toBe('reviews.burst_detected');
    const parsed = (EVENT_DATA['reviews.burst_detected'] as z.ZodObject).strict().safeParse(body.data);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(body.data).toMatchObject({
      hold_id: holdId,
      subject: { kind: 'business', product_id: null, group: null, name: t.org.name },
      figures: { low_ratings: 12, client_addresses: 6, low_ratings_without_busiest_address: 10 },
    });
  });

  it('marks the public profile and embed, and holds a new review of the subject as pending', async () => {
    for (const path of ['profiles', 'embed']) {
      const res = await api('GET', `/api/v1/public/${path}/${t.org.slug}`);
      expect(res.status).toBe(200);
      expect(res.body.checking_recent_reviews, path).toBe(true);
      const calm = await api('GET', `/api/v1/public/${path}/${other.org.slug}`);
      expect(calm.body.checking_recent_reviews, path).toBe(false);
    }
    const held = await submit(server.call, formId, { rating: 5, content: 'Honestly fine' });
    expect(held.status).toBe(201);
    expect(held.body.verification_status).toBe('pending');
    const approve = await api('POST', orgPath(t, '/verification/approve'), {
      key: t.keys.write,
      body: { review_id: held.body.id },
    });
    expect(approve.status).toBe(409);
    expect(approve.body).toEqual(
      errorBody(
        409,
        'Conflict',
        'This review is held while an unusual number of recent reviews is checked: release the hold first',
      ),
    );
  });
});

describe('GET and POST …/holds', () => {
  it('lists the holds in the pagination envelope and reads one with its figures and held reviews', async () => {
    const res = await api('GET', orgPath(t, '/holds?status=open'), { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 1, page: 1, limit: 20, totalPages: 1 });
    const [hold] = res.body.data;
    expect(hold).toMatchObject({
      id: holdId,
      status: 'open',
      subject: { kind: 'business', name: t.org.name },
      started_at: clock.toISOString(),
      figures: { low_ratings: 12, reviews: 12, client_addresses: 6, hourly_median_28_days: 0 },
      released_at: null,
      released_by: null,
      held_reviews: [{ content: 'Honestly fine', verification_status: 'pending' }],
    });
    expect((await api('GET', orgPath(t, `/holds/${holdId}`), { key: t.keys.read })).body).toEqual(hold);
    expect((await api('GET', orgPath(t, '/holds?status=released'), { key: t.keys.read })).body.data).toEqual([]);
    expect((await api('GET', orgPath(t, '/holds?status=shut'), { key: t.keys.read })).status).toBe(400);
  });

  it('is released by a member only, once; the held review then waits for a person to approve it', async () => {
    const byKey = await api('POST', orgPath(t, `/holds/${holdId}/release`), { key: t.keys.admin });
    expect(byKey.status).toBe(403);
    expect(byKey.body).toEqual(
      errorBody(403, 'Forbidden', 'Holds are released by a member of the team, signed in to the dashboard'),
    );
    const res = await asSession(member, 'POST', orgPath(t, `/holds/${holdId}/release`));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'released', released_by: expect.stringMatching(/^member:/) });
    const [held] = res.body.held_reviews;
    expect(held.verification_status).toBe('pending');
    const twice = await asSession(member, 'POST', orgPath(t, `/holds/${holdId}/release`));
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual(errorBody(409, 'Conflict', 'Hold is already released'));
    const trail = await db`select action, actor from plaudit.moderation_trail
                            where org_id = ${t.org.id} and action in ('burst_detected', 'hold', 'release_hold')
                            order by seq`;
    expect(trail).toEqual([
      { action: 'burst_detected', actor: 'system:burst_detection' },
      { action: 'hold', actor: 'system:submission_checks' },
      { action: 'release_hold', actor: res.body.released_by },
    ]);
    const approved = await asSession(member, 'POST', orgPath(t, '/verification/approve'), {
      body: { review_id: held.id, reason: 'A real customer' },
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ verification_status: 'verified', verification_method: 'manual' });
    const profile = await api('GET', `/api/v1/public/profiles/${t.org.slug}`);
    expect(profile.body.checking_recent_reviews).toBe(false);
  });

  it('never deleted a review: every one of the burst is still there, still published', async () => {
    const [{ n, published }] = await db<{ n: number; published: number }[]>`
      select count(*)::int as n, count(*) filter (where verification_status = 'unverified')::int as published
        from plaudit.reviews where org_id = ${t.org.id}`;
    expect({ n, published }).toEqual({ n: 13, published: 12 });
  });
});

describe('duplicates', () => {
  it('holds a repeated text as pending and shows it beside the review it repeats', async () => {
    const first = await submit(server.call, otherFormId, { rating: 2, content: LONG });
    expect(first.body.verification_status).toBe('unverified');
    const copy = await submit(server.call, otherFormId, { rating: 2, content: LONG.replace('three', '3') });
    expect(copy.body.verification_status).toBe('pending');
    const res = await api('GET', orgPath(other, `/reviews/${copy.body.id}/held`), { key: other.keys.read });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      review_id: copy.body.id,
      reason: 'duplicate_text',
      hold_id: null,
      resolved_at: null,
      review: { id: copy.body.id, content: LONG.replace('three', '3') },
      duplicate_of: { id: first.body.id, content: LONG },
    });
    expect(res.body.similarity).toBeGreaterThanOrEqual(0.9);
    expect(res.body.similarity).toBeLessThan(1);
    const never = await api('GET', orgPath(other, `/reviews/${first.body.id}/held`), { key: other.keys.read });
    expect(never.status).toBe(404);
    expect(never.body).toEqual(errorBody(404, 'Not Found', 'No held review with this id in this organization'));
  });
});

describe('other tenants', () => {
  it('get 404 for a hold or held review of another organization, and 403 with its key', async () => {
    const [{ id: heldId }] = await db<{ id: string }[]>`
      select review_id as id from plaudit.held_reviews where org_id = ${other.org.id}`;
    expect((await api('GET', orgPath(other, `/holds/${holdId}`), { key: other.keys.read })).status).toBe(404);
    expect((await api('GET', orgPath(t, `/reviews/${heldId}/held`), { key: t.keys.read })).status).toBe(404);
    expect((await api('GET', orgPath(other, '/holds'), { key: other.keys.read })).body.data).toEqual([]);
    for (
      const [method, path] of [['GET', '/holds'], ['GET', `/holds/${holdId}`], ['POST', `/holds/${holdId}/release`]]
    ) {
      expect((await api(method, orgPath(t, path), { key: other.keys.admin })).status, path).toBe(403);
    }
    const otherMember = await asSession(member, 'POST', orgPath(other, `/holds/${holdId}/release`));
    expect([403, 404]).toContain(otherMember.status);
  });
});
