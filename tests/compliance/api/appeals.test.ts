// Appeals (EU DSA Art. 20) over HTTP: the statement of reasons' mail links to the appeal form
// (through the real SMTP capture), which shows the ground and takes the reviewer's words once
// (empty, too long or not text: 422), in the trail and acknowledged by mail; `GET …/appeals` (the
// pagination envelope) and `GET …/appeals/:id` show it with its review and statement; a member
// signed in decides it (`PATCH`; an API key gets 403); reversing shows the review again, in the
// trail, mailed to the reviewer with the link to the business's review policy page (none while
// its profile is off); a decided appeal is 409; other tenants get 403 or 404. The statement's mail
// and the form say until when one may appeal (six months from the statement); past it the link
// answers 410 with the day it ended, takes nothing, and the hidden review's address says so.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { linkIn, local, mailWorker, postForm, waitForMail } from '../../helpers/review-requests.ts';
import { createForm, postReviews } from '../../helpers/reviews.ts';
import { addMember, asSession, personEmail, type Session, signIn } from '../../helpers/sessions.ts';
import type { TestWorker } from '../../helpers/worker.ts';

let t: Tenant;
let other: Tenant;
let ids: string[];
let worker: TestWorker;
let member: Session;
let appealUrl: string;

const orgPath = (tenant: Tenant, rest: string) => `/api/v1/organizations/${tenant.org.id}${rest}`;
const reviewer = (i: number) => `r${i}-appeals-${t.org.id}@example.com`;

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  worker = await mailWorker([t.org.id]);
  const email = personEmail('appeals');
  await addMember(t, email, 'member', 'Mia Member');
  member = await signIn(email);
  ids = await postReviews((await createForm(api, t)).id, `appeals-${t.org.id}`, [
    [1, 'Bad', 'Terrible service from the manager', 'Ann'],
    [2, 'Meh', 'Slow', 'Bob'],
    [1, 'Late', 'Appealed too late', 'Cy'],
  ]);
  for (const id of ids) {
    const hidden = await api('PATCH', orgPath(t, `/reviews/${id}/moderate`), {
      key: t.keys.write,
      body: { action: 'hide', reason: 'Names a member of staff' },
    });
    expect(hidden.status).toBe(200);
  }
  const [mail] = await waitForMail((to) => to === reviewer(0), 1);
  appealUrl = local(linkIn(mail.text, /\/appeals\//));
});
afterAll(async () => {
  await worker?.stop();
});

describe('the appeal form', () => {
  it('shows the ground, refuses an empty, too long or non-text appeal, and takes one once', async () => {
    const page = await fetch(appealUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain(`on the ground of ${t.org.name}&#39;s review policy.`);
    expect(html).toContain('The facts given: Names a member of staff');
    const [{ until }] = await db`
      select to_char((created_at + interval '6 months') at time zone 'UTC', 'FMMonth FMDD, YYYY') as until
        from plaudit.review_statements where review_id = ${ids[0]}`;
    expect(html).toContain(`You may appeal until ${until}.`);
    for (const text of ['   ', 'x'.repeat(5001)]) {
      const refused = await postForm(appealUrl, { text });
      expect(refused.status).toBe(422);
      expect(refused.body).toContain('aria-describedby="f-text-error"');
    }
    const sent = await postForm(appealUrl, { text: 'I named nobody; <b>read it again</b>.' });
    expect(sent.status).toBe(200);
    expect(sent.body).toContain('Your appeal was sent');
    const again = await postForm(appealUrl, { text: 'Once more' });
    expect(again.status).toBe(409);
    expect((await fetch(appealUrl)).status).toBe(409);
    expect((await fetch(appealUrl.replace(/[^/]+$/, 'x'.repeat(43)))).status).toBe(404);
    const mails = await waitForMail((to) => to === reviewer(0), 2);
    const ack = mails.find((m) => m.subject.startsWith('We received your appeal'))!;
    expect(ack.text).toContain('Your appeal: I named nobody; <b>read it again</b>.');
    expect(ack.html).toContain('&lt;b&gt;read it again&lt;/b&gt;');
    const trail = await db`select action, actor from plaudit.moderation_trail where review_id = ${ids[0]} order by seq`;
    expect(trail).toEqual([
      { action: 'hide', actor: `api_key:${t.keyIds.write}` },
      { action: 'appeal', actor: 'reviewer:appeal_link' },
    ]);
  });
});

describe('the appeal window', () => {
  it('is six months from the statement, said in its mail; past it the link answers 410 and takes nothing', async () => {
    const [mail] = await waitForMail((to) => to === reviewer(2), 1);
    const [{ until }] = await db`
      select to_char((created_at + interval '6 months') at time zone 'UTC', 'FMMonth FMDD, YYYY') as until
        from plaudit.review_statements where review_id = ${ids[2]}`;
    expect(mail.text).toContain(`You can appeal this decision through ${t.org.name}'s complaint form until ${until}.`);
    const late = local(linkIn(mail.text, /\/appeals\//));
    await db`update plaudit.review_statements set created_at = '2026-01-10T12:00:00Z' where review_id = ${ids[2]}`;
    const ended = 'The time to appeal this decision ended on July 10, 2026.';
    const page = await fetch(late);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain(ended);
    const sent = await postForm(late, { text: 'Please look again' });
    expect(sent.status).toBe(410);
    expect(sent.body).toContain(ended);
    expect(await db`select id from plaudit.review_appeals where review_id = ${ids[2]}`).toEqual([]);
    const address = await fetch(new URL(`/p/${t.org.slug}/reviews/${ids[2]}`, inject('apiUrl')));
    expect(address.status).toBe(410);
    expect(await address.text()).toContain('Its author was told why, and could appeal until July 10, 2026.');
  });
});

describe('GET and PATCH …/appeals', () => {
  it('lists the appeals in the pagination envelope, each with its review and statement', async () => {
    const res = await api('GET', orgPath(t, '/appeals?status=open'), { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 1, page: 1, limit: 20, totalPages: 1 });
    const [appeal] = res.body.data;
    expect(appeal).toMatchObject({
      review_id: ids[0],
      text: 'I named nobody; <b>read it again</b>.',
      status: 'open',
      resolution: null,
      decided_by: null,
      review: { id: ids[0], is_hidden: true },
      statement: { review_id: ids[0], facts: 'Names a member of staff', automated: false },
    });
    const one = await api('GET', orgPath(t, `/appeals/${appeal.id}`), { key: t.keys.read });
    expect(one.body).toEqual(appeal);
    for (const q of ['status=closed', 'page=0']) {
      expect((await api('GET', orgPath(t, `/appeals?${q}`), { key: t.keys.read })).status).toBe(400);
    }
  });

  it('is decided by a member only: reversing shows the review again, in the trail, mailed', async () => {
    const [{ id }] = await db`select id from plaudit.review_appeals where review_id = ${ids[0]}`;
    const byKey = await api('PATCH', orgPath(t, `/appeals/${id}`), {
      key: t.keys.admin,
      body: { status: 'reversed', resolution: 'Fair words' },
    });
    expect(byKey.status).toBe(403);
    expect(byKey.body).toEqual(errorBody(403, 'Forbidden', /decided by a member of the team/));
    for (
      const body of [{ status: 'open', resolution: 'x' }, { status: 'reversed' }, { status: 'upheld', resolution: ' ' }]
    ) {
      const res = await asSession(member, 'PATCH', orgPath(t, `/appeals/${id}`), { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const res = await asSession(member, 'PATCH', orgPath(t, `/appeals/${id}`), {
      body: { status: 'reversed', resolution: 'On a second reading nobody is named.' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'reversed',
      resolution: 'On a second reading nobody is named.',
      decided_by: expect.stringMatching(/^member:/),
      review: { is_hidden: false },
    });
    const trail = await db`select action, reason from plaudit.moderation_trail where review_id = ${
      ids[0]
    } order by seq`;
    expect(trail.map((e) => e.action)).toEqual(['hide', 'appeal', 'reverse_appeal', 'unhide']);
    expect(trail[3].reason).toBe(`appeal ${id} reversed: On a second reading nobody is named.`);
    const mails = await waitForMail((to) => to === reviewer(0), 3);
    const decided = mails.find((m) => m.subject.startsWith('Decision on your appeal'))!;
    expect(decided.text).toContain('your review is shown again');
    // Where the business's review policy is, as the statement of reasons says it.
    const policy = linkIn(decided.text, /\/policy$/);
    expect(new URL(policy).pathname).toBe(`/p/${t.org.slug}/policy`);
    expect(decided.text).toContain(`${t.org.name}'s review policy: ${policy}`);
    expect(decided.html).toContain(`<a href="${policy}">${policy}</a>`);
    expect((await fetch(local(policy))).status).toBe(200);
    const twice = await asSession(member, 'PATCH', orgPath(t, `/appeals/${id}`), {
      body: { status: 'upheld', resolution: 'Changed my mind' },
    });
    expect(twice.status).toBe(409);
  });

  it('upholding keeps the review hidden; its mail names no policy page while the profile is off', async () => {
    const [mail] = await waitForMail((to) => to === reviewer(1), 1);
    expect((await postForm(local(linkIn(mail.text, /\/appeals\//)), { text: 'Please' })).status).toBe(200);
    const [{ id }] = await db`select id from plaudit.review_appeals where review_id = ${ids[1]}`;
    const off = await api('PATCH', orgPath(t, '/public-profile'), { key: t.keys.admin, body: { enabled: false } });
    expect(off.status).toBe(200);
    try {
      const res = await asSession(member, 'PATCH', orgPath(t, `/appeals/${id}`), {
        body: { status: 'upheld', resolution: 'It names the manager.' },
      });
      expect(res.body).toMatchObject({ status: 'upheld', review: { is_hidden: true } });
      const mails = await waitForMail((to) => to === reviewer(1), 3);
      const decided = mails.find((m) => m.subject.startsWith('Decision on your appeal'))!;
      expect(decided.text).toContain('your review stays hidden');
      expect(decided.text).not.toContain('review policy');
      expect(decided.html).not.toContain('/policy');
    } finally {
      await api('PATCH', orgPath(t, '/public-profile'), { key: t.keys.admin, body: { enabled: true } });
    }
  });

  it("answers 404 for another organization's appeal, and 403 to another organization's key", async () => {
    const [{ id }] = await db`select id from plaudit.review_appeals where review_id = ${ids[0]}`;
    expect((await api('GET', orgPath(other, `/appeals/${id}`), { key: other.keys.read })).status).toBe(404);
    expect((await api('GET', orgPath(t, '/appeals'), { key: other.keys.admin })).status).toBe(403);
    const own = await api('GET', orgPath(other, '/appeals'), { key: other.keys.read });
    expect(own.body.data).toEqual([]);
    expect(inject('apiUrl')).toBeTruthy();
  });
});
