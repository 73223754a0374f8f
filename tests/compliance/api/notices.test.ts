// Notices under the EU's Digital Services Act (Art. 16) over HTTP: a report says whether the review
// is illegal (naming the law, in good faith) or against the policy; a reporter who leaves an
// address is mailed an acknowledgement at once and the decision on resolution (through the real
// SMTP capture); the decision `hidden` hides the review in the trail; the reporter's address never
// reaches the business's API, the event or the public, and is covered by the data report and erasure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { mailWorker, waitForMail } from '../../helpers/review-requests.ts';
import { createForm, freshIp, ownApiServer, postReviews } from '../../helpers/reviews.ts';
import type { TestWorker } from '../../helpers/worker.ts';

const server = ownApiServer();
const call = server.call;

let t: Tenant;
let other: Tenant;
let reviewIds: string[];
let worker: TestWorker;

const reportsOf = (tenant: Tenant) => `/api/v1/organizations/${tenant.org.id}/reports`;
const report = (tenant: Tenant, reviewId: string, body: unknown) =>
  call('POST', `/api/v1/public/reviews/${tenant.org.slug}/${reviewId}/reports`, {
    body,
    headers: { 'x-forwarded-for': freshIp(), 'user-agent': 'Mozilla/5.0' },
  });
const reporter = (name: string) => `${name}-${t.org.slug}@reporters.example.com`;

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  reviewIds = await postReviews((await createForm(call, t)).id, `notices-${t.org.id}`, [
    [1, 'Awful', 'My neighbour Jo Bloggs at 3 High Street is a thief', 'Ann'],
    [5, null, 'Best shop ever', 'Bob'],
    [2, 'Meh', 'Slow <b>delivery</b>', 'Cy'],
  ]);
  worker = await mailWorker([t.org.id]);
});
afterAll(async () => {
  await worker?.stop();
});

describe('POST …/public/reviews/:slug/:reviewId/reports as a notice', () => {
  it('takes an illegal notice with its ground and address, acknowledges it by mail, and shows no address', async () => {
    const email = reporter('ida');
    const res = await report(t, reviewIds[0], {
      reason: 'personal_data',
      details: 'Names a private person and her address.',
      kind: 'illegal',
      legal_ground: 'GDPR Art. 6: personal data published without a lawful basis',
      email,
      good_faith: true,
    });
    expect(res.status).toBe(202);
    const [mail] = await waitForMail((to) => to === email, 1);
    expect(mail.subject).toBe(`We received your report of a review on ${t.org.name}`);
    expect(mail.text).toContain('Kind: Illegal content');
    expect(mail.text).toContain('Legal ground you named: GDPR Art. 6: personal data published without a lawful basis');
    expect(mail.text).toContain('1 out of 5 stars — “Awful”');
    expect(mail.text).not.toContain(`r0-notices-${t.org.id}@example.com`);

    const list = await call('GET', `${reportsOf(t)}?status=open`, { key: t.keys.read });
    const taken = list.body.data.find((r: any) => r.review_id === reviewIds[0]);
    expect(taken).toMatchObject({
      kind: 'illegal',
      legal_ground: 'GDPR Art. 6: personal data published without a lawful basis',
      status: 'open',
      decision: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(email);
    const [event] = await db`select data from plaudit.events
                              where org_id = ${t.org.id} and type = 'review.reported' and data ->> 'report_id' = ${taken.id}`;
    expect(event.data).toMatchObject({ kind: 'illegal', legal_ground: expect.stringMatching(/^GDPR/) });
    expect(JSON.stringify(event.data)).not.toContain(email);
    // Public review pages and answers never carry it.
    const page = await fetch(`${server.url}/p/${t.org.slug}`);
    expect(await page.text()).not.toContain(email);
  });

  it('takes a policy report without an address (the default kind), and mails nobody', async () => {
    const res = await report(t, reviewIds[1], { reason: 'fake' });
    expect(res.status).toBe(202);
    const [row] = await db`select kind, legal_ground, reporter_email, good_faith from plaudit.review_reports
                            where review_id = ${reviewIds[1]}`;
    expect(row).toEqual({ kind: 'policy', legal_ground: null, reporter_email: null, good_faith: null });
    const [{ n }] = await db`select count(*)::integer as n from plaudit.email_outbox
                              where org_id = ${t.org.id} and template = 'report_received'`;
    expect(n).toBe(1);
  });

  it('refuses a notice without its ground or good faith, or with a bad address or kind (422), storing nothing', async () => {
    const illegal = { reason: 'offensive', kind: 'illegal', legal_ground: 'Criminal code §130', good_faith: true };
    const cases: [unknown, RegExp][] = [
      [{ ...illegal, legal_ground: undefined }, /^legal_ground: /],
      [{ ...illegal, legal_ground: '   ' }, /^legal_ground: /],
      [{ ...illegal, legal_ground: 'x'.repeat(501) }, /^legal_ground: /],
      [{ ...illegal, good_faith: undefined }, /^good_faith: /],
      [{ ...illegal, good_faith: false }, /^good_faith: /],
      [{ ...illegal, good_faith: 'yes' }, /^good_faith: /],
      [{ ...illegal, email: 'not an address' }, /^email: /],
      [{ ...illegal, email: `${'a'.repeat(320)}@example.com` }, /^email: /],
      [{ ...illegal, kind: 'criminal' }, /^kind: /],
      [{ reason: 'spam', good_faith: false }, /^good_faith: /],
    ];
    for (const [body, message] of cases) {
      const res = await report(t, reviewIds[2], body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', message));
    }
    const [{ n }] = await db`select count(*)::integer as n from plaudit.review_reports where review_id = ${
      reviewIds[2]
    }`;
    expect(n).toBe(0);
  });
});

describe('PATCH …/reports/:id with a decision', () => {
  it('hides the review on `hidden`, in the trail naming the report, and mails the reporter the decision', async () => {
    const email = reporter('ida');
    const [{ id }] = await db`select id from plaudit.review_reports where review_id = ${reviewIds[0]}`;
    const res = await call('PATCH', `${reportsOf(t)}/${id}`, {
      key: t.keys.write,
      body: { status: 'resolved', decision: 'hidden', resolution: 'It names a private person: <removed>.' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'resolved',
      decision: 'hidden',
      resolution: 'It names a private person: <removed>.',
      review: { id: reviewIds[0], is_hidden: true },
    });
    const trail = await db`select action, reason, actor from plaudit.moderation_trail
                            where review_id = ${reviewIds[0]} order by seq`;
    expect(trail).toEqual([{
      action: 'hide',
      reason: `report ${id}: It names a private person: <removed>.`,
      actor: `api_key:${t.keyIds.write}`,
    }]);
    const mails = await waitForMail((to) => to === email, 2);
    const decided = mails.find((m) => m.subject.startsWith('Decision'))!;
    expect(decided.subject).toBe(`Decision on your report of a review on ${t.org.name}`);
    expect(decided.text).toContain('The review has been hidden');
    expect(decided.text).toContain('Their reasons: It names a private person: <removed>.');
    expect(decided.html).toContain('&lt;removed&gt;');
    expect(decided.html).not.toContain('<removed>');

    // Deciding it again does not hide twice: the trail keeps one entry.
    const again = await call('PATCH', `${reportsOf(t)}/${id}`, {
      key: t.keys.write,
      body: { status: 'resolved', decision: 'hidden', resolution: 'Confirmed.' },
    });
    expect(again.status).toBe(200);
    const [{ n }] = await db`select count(*)::integer as n from plaudit.moderation_trail where review_id = ${
      reviewIds[0]
    }`;
    expect(n).toBe(1);
  });

  it('keeps the review on `kept`, and says so to a reporter who left an address', async () => {
    const email = reporter('kai');
    expect((await report(t, reviewIds[2], { reason: 'spam', email })).status).toBe(202);
    await waitForMail((to) => to === email, 1);
    const [{ id }] = await db`select id from plaudit.review_reports where review_id = ${reviewIds[2]}`;
    const res = await call('PATCH', `${reportsOf(t)}/${id}`, {
      key: t.keys.write,
      body: { status: 'resolved', decision: 'kept', resolution: 'A real order, honest words.' },
    });
    expect(res.body).toMatchObject({ decision: 'kept', review: { is_hidden: false } });
    const mails = await waitForMail((to) => to === email, 2);
    expect(mails.find((m) => m.subject.startsWith('Decision'))!.text).toContain('The review stays published');
  });

  it("answers 404 for another organization's report, changing nothing", async () => {
    const [otherReview] = await postReviews((await createForm(call, other)).id, `notices-${other.org.id}`, [
      [1, null, 'Elsewhere', 'Di'],
    ]);
    expect((await report(other, otherReview, { reason: 'spam' })).status).toBe(202);
    const [{ id }] = await db`select id from plaudit.review_reports where review_id = ${otherReview}`;
    const res = await call('PATCH', `${reportsOf(t)}/${id}`, {
      key: t.keys.admin,
      body: { status: 'resolved', decision: 'hidden', resolution: 'Taken over' },
    });
    expect(res.status).toBe(404);
    const [review] = await db`select is_hidden from plaudit.reviews where id = ${otherReview}`;
    expect(review.is_hidden).toBe(false);
  });
});

describe("the reporter's address is personal data", () => {
  it('is in the data report of the address, and erasure removes it from the reports', async () => {
    const email = reporter('ida');
    const data = await call(
      'GET',
      `/api/v1/organizations/${t.org.id}/privacy/data?email=${encodeURIComponent(email)}`,
      {
        key: t.keys.admin,
      },
    );
    expect(data.status).toBe(200);
    expect(data.body.reports).toEqual([
      expect.objectContaining({ review_id: reviewIds[0], kind: 'illegal', decision: 'hidden' }),
    ]);
    const erased = await call('POST', `/api/v1/organizations/${t.org.id}/privacy/erasures`, {
      key: t.keys.admin,
      body: { email },
    });
    expect(erased.status).toBe(200);
    const [row] = await db`select reporter_email, kind from plaudit.review_reports where review_id = ${reviewIds[0]}`;
    expect(row).toEqual({ reporter_email: null, kind: 'illegal' });
    const after = await call(
      'GET',
      `/api/v1/organizations/${t.org.id}/privacy/data?email=${encodeURIComponent(email)}`,
      {
        key: t.keys.admin,
      },
    );
    expect(after.body.reports).toEqual([]);
  });
});
