// Invited reviews count as verified: a review written from a review-request e-mail's link, with
// the address the request went to, is verified by the invitation (provenance `invitation`, in the
// moderation trail as reviewer:invitation), no confirmation mail goes out, and the public page and
// the widget's data say so. Another address, or a form whose reviews need approval, follow the
// form's own verification.
import { afterAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createForm, linkIn, local, mailWorker, postForm, waitForMail } from '../../helpers/review-requests.ts';
import type { TestWorker } from '../../helpers/worker.ts';

const workers: TestWorker[] = [];
afterAll(() => Promise.all(workers.map((w) => w.stop())));

/** Sends one review request and answers its landing page's address. */
async function landingFor(t: Tenant, formId: string, email: string) {
  expect(
    (await api('POST', `/api/v1/organizations/${t.org.id}/review-requests`, {
      key: t.keys.write,
      body: { email, name: 'Ann', form_id: formId },
    })).status,
  ).toBe(201);
  const [mail] = await waitForMail((x) => x === email, 1);
  return local(linkIn(mail.text, /\/t\/c\/[^?\s]+$/).replace('/t/c/', '/r/'));
}

async function reviewOf(t: Tenant, content: string) {
  const [r] = await db`select id, verification_status, verification_method from plaudit.reviews
                       where org_id = ${t.org.id} and content = ${content}`;
  return r;
}

describe('invited reviews', () => {
  it('are verified by the invitation, with no confirmation mail, and shown as such', async () => {
    const t = await createTenant();
    const form = await createForm(t, { verification_mode: 'email' });
    workers.push(await mailWorker([t.org.id]));
    const to = `ann@${t.org.slug}.example.com`;
    const landing = await landingFor(t, form.id, to);
    expect(await (await fetch(landing)).text()).toContain('no confirmation e-mail needed');

    const sent = await postForm(landing, {
      rating: '5',
      content: 'Invited and happy.',
      reviewer_name: 'Ann',
      reviewer_email: to,
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toContain('Your review has been received.');
    const review = await reviewOf(t, 'Invited and happy.');
    expect(review).toMatchObject({ verification_status: 'verified', verification_method: 'invitation' });

    const history = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${review.id}/moderation-history`, {
      key: t.keys.read,
    });
    expect(history.body.data).toEqual([expect.objectContaining({ action: 'verify', actor: 'reviewer:invitation' })]);
    const [outbox] = await db`select status, last_error from plaudit.email_outbox
                              where org_id = ${t.org.id} and template = 'review_verification'`;
    expect(outbox).toEqual({ status: 'failed', last_error: 'cancelled: verified by invitation' });

    const embed = await api('GET', `/api/v1/public/embed/${t.org.slug}`);
    expect(embed.body.reviews).toEqual([
      expect.objectContaining({ verification_method: 'invitation', verification_status: 'verified' }),
    ]);
    expect(await (await fetch(local(`http://x/p/${t.org.slug}`))).text()).toContain(
      '<span class="badge">Verified by invitation</span>',
    );
  });

  it("another address follows the form's own verification; a form needing approval stays pending", async () => {
    const t = await createTenant();
    const emailForm = await createForm(t, { verification_mode: 'email' });
    const manualForm = await createForm(t, { verification_mode: 'manual' });
    workers.push(await mailWorker([t.org.id]));

    const first = await landingFor(t, emailForm.id, `bob@${t.org.slug}.example.com`);
    expect(
      (await postForm(first, {
        rating: '4',
        content: 'Sent from another address.',
        reviewer_name: 'Bob',
        reviewer_email: `someone-else@${t.org.slug}.example.com`,
      })).status,
    ).toBe(201);
    expect(await reviewOf(t, 'Sent from another address.')).toMatchObject({
      verification_status: 'pending',
      verification_method: null,
    });

    const to = `cy@${t.org.slug}.example.com`;
    const second = await landingFor(t, manualForm.id, to);
    expect(
      (await postForm(second, { rating: '3', content: 'Needs approval.', reviewer_name: 'Cy', reviewer_email: to }))
        .status,
    ).toBe(201);
    expect(await reviewOf(t, 'Needs approval.')).toMatchObject({
      verification_status: 'pending',
      verification_method: null,
    });
  });
});
