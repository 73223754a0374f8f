// The fine print under a review form says when the review is published, and it is true for each
// setting: at once (mode `none`, or an invitation's address), once the address is confirmed
// (`email`) or the order found (`purchase_proof`), once the business has read it (`manual`), and,
// while the worker holds the subject's new reviews for a check (a burst), once a person has checked
// it (and an invitation's note then promises no verification at once). Neither of the last two
// promises "whatever its rating": a person decides them.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { syncProducts } from '../../helpers/products.ts';
import { createForm, linkIn, local, mailWorker, waitForMail } from '../../helpers/review-requests.ts';
import type { TestWorker } from '../../helpers/worker.ts';

let t: Tenant;
let name: string;
const workers: TestWorker[] = [];

beforeAll(async () => {
  t = await createTenant();
  name = t.org.name;
  await syncProducts(t, [{ external_id: 'MUG', name: 'Blue mug' }]);
});
afterAll(() => Promise.all(workers.map((w) => w.stop())));

/** The fine print of the page at `url`, its tags stripped. */
async function finePrintAt(url: string) {
  const html = await (await fetch(url)).text();
  const fine = /<p class="fine">(.*?)<\/p>/s.exec(html);
  expect(fine, html).not.toBeNull();
  return fine![1].replace(/<[^>]+>/g, '').replace(/&#39;/g, "'");
}

const formUrl = (id: string, product?: string) =>
  `${inject('apiUrl')}/forms/${id}${product ? `?product=${encodeURIComponent(product)}` : ''}`;

/** Sends one review request and answers its landing page's address. */
async function landingFor(formId: string, email: string) {
  const res = await api('POST', `/api/v1/organizations/${t.org.id}/review-requests`, {
    key: t.keys.write,
    body: { email, name: 'Ann', form_id: formId },
  });
  expect(res.status).toBe(201);
  const [mail] = await waitForMail((x) => x === email, 1);
  return local(linkIn(mail.text, /\/t\/c\/[^?\s]+$/).replace('/t/c/', '/r/'));
}

const AT_ONCE = 'Your review is published as you write it, whatever its rating.';

describe("a review form's fine print", () => {
  it('says when the review is published for each verification mode', async () => {
    const said: Record<string, string> = {};
    for (const mode of ['none', 'email', 'purchase_proof', 'manual']) {
      const form = await createForm(t, { verification_mode: mode });
      said[mode] = (await finePrintAt(formUrl(form.id))).split(' Reviews are collected')[0];
    }
    expect(said).toEqual({
      none: AT_ONCE,
      email: 'Once you confirm your address, your review is published as you write it, whatever its rating.',
      purchase_proof: `Once ${name} finds your order, your review is published as you write it, whatever its rating.`,
      manual: `${name} reads each review before publishing it: yours is published as you write it, or not at all.`,
    });
  });

  it("says an invitation's review is published at once, unless the business reads each first", async () => {
    workers.push(await mailWorker([t.org.id]));
    const email = await createForm(t, { verification_mode: 'email' });
    const manual = await createForm(t, { verification_mode: 'manual' });
    expect(await finePrintAt(await landingFor(email.id, `ann@${t.org.slug}.example.com`))).toContain(AT_ONCE);
    expect(await finePrintAt(await landingFor(manual.id, `bea@${t.org.slug}.example.com`))).toContain(
      `${name} reads each review before publishing it`,
    );
  });

  it("says a held subject's review is published once checked, and the others' as usual", async () => {
    const form = await createForm(t, { verification_mode: 'none' });
    const held = `${name} is checking an unusual number of recent reviews: yours is published as you write it ` +
      'once a person has checked it, or not at all.';
    const [hold] = await db`
      insert into plaudit.review_holds (org_id, subject, started_at, figures)
      select ${t.org.id}, plaudit.review_subject(p.id), now(), '{}'
        from plaudit.products p where p.org_id = ${t.org.id} and p.external_id = 'MUG'
      returning id`;
    try {
      expect(await finePrintAt(formUrl(form.id, 'MUG'))).toContain(held);
      expect(await finePrintAt(formUrl(form.id))).toContain(AT_ONCE);
    } finally {
      await db`update plaudit.review_holds set released_at = now(), released_by = 'test' where id = ${hold.id}`;
    }
    expect(await finePrintAt(formUrl(form.id, 'MUG'))).toContain(AT_ONCE);
  });

  it("says an invitation's review waits for the check while the business's reviews are held", async () => {
    const form = await createForm(t, { verification_mode: 'email' });
    const landing = await landingFor(form.id, `cat@${t.org.slug}.example.com`);
    const [hold] = await db`
      insert into plaudit.review_holds (org_id, subject, started_at, figures)
      values (${t.org.id}, 'business', now(), '{}') returning id`;
    try {
      const html = await (await fetch(landing)).text();
      expect(html).not.toContain('no confirmation e-mail needed');
      expect(await finePrintAt(landing)).toContain(`${name} is checking an unusual number of recent reviews`);
    } finally {
      await db`update plaudit.review_holds set released_at = now(), released_by = 'test' where id = ${hold.id}`;
    }
    expect(await (await fetch(landing)).text()).toContain('no confirmation e-mail needed');
  });
});
