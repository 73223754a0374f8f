// Statements of reasons (EU DSA Art. 17) over HTTP: hiding a review by moderation or by a report's
// decision writes a statement (the facts, the ground — the policy, or the law a notice named —
// whether automated means decided) and mails it to a reviewer with an address, with a link to
// appeal (through the real SMTP capture); `GET …/reviews/:id/statements` lists them; a review
// without an address gets a statement but no mail; the public address of a hidden review answers
// 410 with the ground and nothing of the review; other tenants get 403 or 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { linkIn, mailWorker, waitForMail } from '../../helpers/review-requests.ts';
import { createForm, freshIp, ownApiServer, postReviews } from '../../helpers/reviews.ts';
import type { TestWorker } from '../../helpers/worker.ts';

const server = ownApiServer();
const call = server.call;

let t: Tenant;
let other: Tenant;
let ids: string[];
let worker: TestWorker;

const orgPath = (tenant: Tenant, rest: string) => `/api/v1/organizations/${tenant.org.id}${rest}`;
const reviewerOf = (i: number) => `r${i}-statements-${t.org.id}@example.com`;

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  ids = await postReviews((await createForm(call, t)).id, `statements-${t.org.id}`, [
    [1, 'Rude', 'The cashier is an idiot, call him on 555 0100', 'Ann'],
    [1, 'Libel', 'The owner Jo Bloggs steals from customers', 'Bob'],
    [5, 'Fine', 'Nice shop', 'Cy'],
  ]);
  worker = await mailWorker([t.org.id]);
});
afterAll(async () => {
  await worker?.stop();
});

describe('a hide writes a statement of reasons and mails it to the reviewer', () => {
  it('by moderation: the reason as the facts, on the business’s policy, decided by a person', async () => {
    const hidden = await call('PATCH', orgPath(t, `/reviews/${ids[0]}/moderate`), {
      key: t.keys.write,
      body: { action: 'hide', reason: 'Insults a member of staff and shares <his> phone number' },
    });
    expect(hidden.status).toBe(200);
    const res = await call('GET', orgPath(t, `/reviews/${ids[0]}/statements`), { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [{
        id: expect.any(String),
        review_id: ids[0],
        restriction: 'hidden',
        facts: 'Insults a member of staff and shares <his> phone number',
        automated: false,
        ground: { type: 'policy', text: `${t.org.name}'s review policy` },
        source: 'moderation',
        report_id: null,
        actor: `api_key:${t.keyIds.write}`,
        mailed: true,
        created_at: expect.stringMatching(/Z$/),
      }],
    });
    const [mail] = await waitForMail((to) => to === reviewerOf(0), 1);
    expect(mail.subject).toBe(`Your review on ${t.org.name} has been hidden: the reasons`);
    expect(mail.text).toContain('Facts: Insults a member of staff and shares <his> phone number');
    expect(mail.text).toContain(`Ground: ${t.org.name}'s review policy`);
    expect(mail.text).toContain('Automated means: none; a person at the business decided.');
    expect(mail.html).toContain('&lt;his&gt;');
    const appeal = new URL(linkIn(mail.text, /\/appeals\//));
    expect(appeal.pathname).toMatch(/^\/appeals\/[0-9A-Za-z]{43}$/);
    // The token is kept only as its hash.
    const [{ n }] = await db`select count(*)::integer as n from plaudit.review_statements
                              where appeal_token_hash = sha256(convert_to(${appeal.pathname.slice(9)}, 'UTF8'))`;
    expect(n).toBe(1);
  });

  it("by a notice's decision: the law the notice named is the ground; no reporter's address reaches the reviewer", async () => {
    const reporter = `reporter-${t.org.slug}@reporters.example.com`;
    const reported = await call('POST', `/api/v1/public/reviews/${t.org.slug}/${ids[1]}/reports`, {
      body: {
        reason: 'other',
        kind: 'illegal',
        legal_ground: 'Defamation (Criminal Code §186)',
        email: reporter,
        good_faith: true,
      },
      headers: { 'x-forwarded-for': freshIp(), 'user-agent': 'Mozilla/5.0' },
    });
    expect(reported.status).toBe(202);
    const [{ id: reportId }] = await db`select id from plaudit.review_reports where review_id = ${ids[1]}`;
    const decided = await call('PATCH', orgPath(t, `/reports/${reportId}`), {
      key: t.keys.write,
      body: { status: 'resolved', decision: 'hidden', resolution: 'An accusation of a crime without any proof.' },
    });
    expect(decided.status).toBe(200);
    const res = await call('GET', orgPath(t, `/reviews/${ids[1]}/statements`), { key: t.keys.read });
    expect(res.body.data).toEqual([expect.objectContaining({
      facts: `report ${reportId}: An accusation of a crime without any proof.`,
      ground: { type: 'law', text: 'Defamation (Criminal Code §186)' },
      source: 'report',
      report_id: reportId,
      automated: false,
    })]);
    const [mail] = await waitForMail((to) => to === reviewerOf(1), 1);
    expect(mail.text).toContain('Ground: the law — Defamation (Criminal Code §186)');
    expect(mail.text).not.toContain(reporter);
  });

  it('by moderation naming its ground: the clause or the law given', async () => {
    const [id] = await postReviews((await createForm(call, t)).id, `statements-ground-${t.org.id}`, [
      [1, null, 'Phone me on 555 0100', 'Eve'],
    ]);
    const hidden = await call('PATCH', orgPath(t, `/reviews/${id}/moderate`), {
      key: t.keys.write,
      body: {
        action: 'hide',
        reason: 'A phone number',
        ground: { type: 'policy', text: 'Review policy §3: no personal data' },
      },
    });
    expect(hidden.status).toBe(200);
    const res = await call('GET', orgPath(t, `/reviews/${id}/statements`), { key: t.keys.read });
    expect(res.body.data).toEqual([expect.objectContaining({
      facts: 'A phone number',
      ground: { type: 'policy', text: 'Review policy §3: no personal data' },
      source: 'moderation',
    })]);
    const refused = await call('PATCH', orgPath(t, `/reviews/${id}/moderate`), {
      key: t.keys.write,
      body: { action: 'unhide', reason: 'x', ground: { type: 'treaty', text: 'x' } },
    });
    expect(refused.status).toBe(422);
  });

  it('an automatic hold says so: automated means decided', async () => {
    await db.begin(async (tx) => {
      await tx`select plaudit.set_restriction('automatic', 'policy', 'Unusual burst of one-star reviews', true)`;
      await tx`select set_config('plaudit.moderation_reason', 'Held while an unusual number of reviews is checked', true)`;
      await tx`update plaudit.reviews set is_hidden = true where id = ${ids[2]}`;
    });
    const res = await call('GET', orgPath(t, `/reviews/${ids[2]}/statements`), { key: t.keys.read });
    expect(res.body.data).toEqual([expect.objectContaining({
      source: 'automatic',
      automated: true,
      ground: { type: 'policy', text: 'Unusual burst of one-star reviews' },
    })]);
    const [mail] = await waitForMail((to) => to === reviewerOf(2), 1);
    expect(mail.text).toContain('Automated means: the decision was taken automatically.');
  });
});

describe('the public address of a hidden review', () => {
  it('answers 410 with the ground and nothing of the review; a published one leads to its place; others 404', async () => {
    const gone = await fetch(`${server.url}/p/${t.org.slug}/reviews/${ids[1]}`, { redirect: 'manual' });
    expect(gone.status).toBe(410);
    const html = await gone.text();
    expect(html).toContain('This review was removed');
    expect(html).toContain('under the law: Defamation (Criminal Code §186)');
    expect(html).not.toContain('Jo Bloggs');
    expect(html).not.toContain('Libel');

    const [visible] = await postReviews((await createForm(call, t)).id, `statements-visible-${t.org.id}`, [
      [4, 'Good', 'Fine coffee', 'Di'],
    ]);
    const published = await fetch(`${server.url}/p/${t.org.slug}/reviews/${visible}`, { redirect: 'manual' });
    expect(published.status).toBe(303);
    expect(published.headers.get('location')).toBe(`/p/${t.org.slug}#review-${visible}`);
    for (const path of [`/p/${other.org.slug}/reviews/${ids[1]}`, `/p/${t.org.slug}/reviews/not-a-uuid`]) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(404);
    }
  });
});

describe('tenancy and bad input', () => {
  it("another organization's key gets 403; another organization's review 404; a malformed id 400", async () => {
    const foreign = await call('GET', orgPath(t, `/reviews/${ids[0]}/statements`), { key: other.keys.admin });
    expect(foreign.status).toBe(403);
    const notTheirs = await call('GET', orgPath(other, `/reviews/${ids[0]}/statements`), { key: other.keys.read });
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body).toEqual(errorBody(404, 'Not Found', /^Review not found$/));
    const malformed = await call('GET', orgPath(t, '/reviews/nope/statements'), { key: t.keys.read });
    expect(malformed.status).toBe(400);
    expect((await call('GET', orgPath(t, `/reviews/${ids[0]}/statements`))).status).toBe(401);
  });
});
