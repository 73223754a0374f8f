// The review policy page over HTTP: /p/:slug/policy and its markdown twin are written from the
// business's settings (turn one and the sentence changes: a form's verification, its incentive, a
// ground named when hiding); the business's own sections (`review_policy` of …/public-profile)
// stay text on the page and in the twin, whatever markup they hold; the page is linked from the
// profile, the transparency page, the hosted form, the pages of a review request's e-mail and the
// statement of reasons; another tenant can neither read nor change the setting; a disabled profile
// has no policy page, and no page or mail links to it.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { createForm, postReviews } from '../../helpers/reviews.ts';
import { mdText } from '../../../functions/_shared/api/pages/markdown.ts';
import { statementOfReasonsEmail } from '../../../functions/_shared/core/email/statement-template.ts';

let t: Tenant;
let other: Tenant;
let form: { id: string; submission_url: string };
const settings = (tenant: Tenant) => `/api/v1/organizations/${tenant.org.id}/public-profile`;
const policy = async (suffix = '') => {
  const res = await api('GET', `/p/${t.org.slug}/policy${suffix}`);
  expect(res.status, String(res.body)).toBe(200);
  return res.body as string;
};
const patchForm = async (body: Record<string, unknown>) => {
  const res = await api('PATCH', `/api/v1/organizations/${t.org.id}/review-forms/${form.id}`, {
    key: t.keys.write,
    body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
  form = await createForm(api, t, { verification_mode: 'email' });
});

describe('the policy follows the settings', () => {
  it("says how the forms verify, and changes when a form's verification changes", async () => {
    const before = await policy();
    expect(before).toContain('published once the reviewer confirms their e-mail address');
    expect(before).toContain(`${t.org.name} does not check that a reviewer bought from it`);
    await patchForm({ verification_mode: 'purchase_proof' });
    const after = await policy();
    expect(after).toContain('published once their order number matches an order of the business');
    expect(after).not.toContain('published once the reviewer confirms their e-mail address');
    expect(after).not.toContain('does not check that a reviewer bought from it');
    expect(after).toContain('A review marked verified passed one of these checks');
  });

  it('says so plainly when no form verifies anything', async () => {
    await createForm(api, other, { verification_mode: 'none' });
    const html = (await api('GET', `/p/${other.org.slug}/policy`)).body as string;
    expect(html).toContain('are published as soon as they are written, marked unverified.');
    expect(html).toContain(
      `${other.org.name} does not check reviews before they are published: each one is marked unverified.`,
    );
    expect(html).not.toContain('A review marked verified passed');
  });

  it("says whether a reward is offered, and which, after the form's incentive changes", async () => {
    expect(await policy()).toContain(`${t.org.name} offers no reward for a review written on its forms.`);
    await patchForm({ incentive: { type: 'discount', description: '10% off <your> next order' } });
    const html = await policy();
    expect(html).toContain(
      'offers a reward for a review written on some of its forms: a discount (10% off &lt;your&gt; next order).',
    );
    expect(await policy('.md')).toContain('a discount \\(10\\% off \\<your\\> next order\\)\\.');
  });

  it('lists the grounds named when hiding reviews', async () => {
    expect(await policy()).toContain('No review was hidden in the last 12 months.');
    const [id] = await postReviews(form.id, `policy-${t.org.id}`, [[1, null, 'Call Jo on 555 0100', 'Ann']]);
    const hidden = await api('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${id}/moderate`, {
      key: t.keys.write,
      body: {
        action: 'hide',
        reason: 'Shares a phone number',
        ground: { type: 'policy', text: 'Clause 3: no personal data' },
      },
    });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);
    const html = await policy();
    expect(html).toContain('<li>Policy: Clause 3: no personal data (1 review)</li>');
    expect(html).not.toContain('555 0100');
    const [mail] = await db<{ slug: string }[]>`
      select data ->> 'org_slug' as slug from plaudit.email_outbox
       where org_id = ${t.org.id} and template = 'statement_of_reasons'`;
    expect(mail.slug).toBe(t.org.slug);
  });
});

describe("the business's own sections", () => {
  const OWN = '<script>alert(1)</script> **Bold** [click](javascript:alert(1))\n<b>line two</b>\n\n# Second paragraph';

  it('are saved, read back and shown as text on the page and in the twin', async () => {
    const res = await api('PATCH', settings(t), { key: t.keys.admin, body: { review_policy: OWN } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.review_policy).toBe(OWN);
    expect((await api('GET', settings(t), { key: t.keys.read })).body.review_policy).toBe(OWN);
    const html = await policy();
    expect(html).toContain(`<h2>More from ${t.org.name}</h2>`);
    expect(html).toContain(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; **Bold** [click](javascript:alert(1))\n&lt;b&gt;line two&lt;/b&gt;</p><p># Second paragraph</p>',
    );
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>line');
    const md = await policy('.md');
    expect(md).toContain(
      `\n\n${mdText('<script>alert(1)</script> **Bold** [click](javascript:alert(1)) <b>line two</b>')}\n`,
    );
    expect(md).toContain('\\<\\/script\\>');
    expect(md).toContain('\n\n\\# Second paragraph\n');
    expect(md).not.toContain('[click](');
  });

  it('are bounded, and removed with null', async () => {
    for (const review_policy of ['   ', 'x'.repeat(10_001), 42]) {
      const res = await api('PATCH', settings(t), { key: t.keys.admin, body: { review_policy } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', /review_policy/));
    }
    expect((await api('GET', settings(t), { key: t.keys.read })).body.review_policy).toBe(OWN);
    const res = await api('PATCH', settings(t), { key: t.keys.admin, body: { review_policy: null } });
    expect(res.body.review_policy).toBeNull();
    expect(await policy()).not.toContain('More from');
  });

  it("cannot be read or changed with another organization's key", async () => {
    await api('PATCH', settings(t), { key: t.keys.admin, body: { review_policy: 'Ours' } });
    const read = await api('GET', settings(t), { key: other.keys.admin });
    expect(read.status).toBe(403);
    expect(JSON.stringify(read.body)).not.toContain('Ours');
    const write = await api('PATCH', settings(t), { key: other.keys.admin, body: { review_policy: 'Theirs' } });
    expect(write.status).toBe(403);
    expect((await api('GET', settings(t), { key: t.keys.read })).body.review_policy).toBe('Ours');
    expect((await api('GET', settings(other), { key: other.keys.read })).body.review_policy).toBeNull();
    expect(await api('GET', `/p/${other.org.slug}/policy`).then((r) => r.body)).not.toContain('Ours');
  });
});

describe('where the policy is linked from', () => {
  it('the profile page, the transparency page, the hosted form, the statement mail and llms.txt', async () => {
    const url = `/p/${t.org.slug}/policy`;
    for (const path of [`/p/${t.org.slug}`, `/p/${t.org.slug}/transparency`, new URL(form.submission_url).pathname]) {
      const res = await api('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toContain(`${url}"`);
    }
    expect((await api('GET', `/p/${t.org.slug}/llms.txt`)).body).toContain(`${url}.md>`);
    const mail = statementOfReasonsEmail({
      orgName: 'Acme',
      publicUrl: 'https://reviews.example',
      data: { org_slug: t.org.slug, appeal_token: 'x'.repeat(43), ground: { type: 'policy', text: 'Clause 3' } },
    } as never);
    expect(mail.text).toContain(`Acme's review policy: https://reviews.example${url}`);
    expect(mail.html).toContain(`href="https://reviews.example${url}"`);
  });

  it("the pages of a review request's e-mail, with or without products, but not while the profile is off", async () => {
    const orgPath = `/api/v1/organizations/${t.org.id}`;
    const product = await api('POST', `${orgPath}/products`, {
      key: t.keys.write,
      body: { external_id: 'POLICY-MUG', name: 'Mug' },
    });
    expect(product.status, JSON.stringify(product.body)).toBe(201);
    const landing = async (products?: string[]) => {
      const created = await api('POST', `${orgPath}/review-requests`, {
        key: t.keys.write,
        body: { email: `policy-${crypto.randomUUID()}@example.com`, name: 'Kim', form_id: form.id, products },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const [{ token }] = await db`select plaudit.review_request_token(${created.body.id}) as token`;
      const res = await api('GET', `/r/${token}?c=1`);
      expect(res.status).toBe(200);
      return res.body as string;
    };
    const link = new RegExp(`<a href="[^"]*/p/${t.org.slug}/policy">the review policy of ${t.org.name}</a>`);
    const single = await landing();
    expect(single).toContain('name="rating"');
    expect(single).toMatch(link);
    const withProducts = await landing(['POLICY-MUG']);
    expect(withProducts).toContain('Rate each product');
    expect(withProducts).toMatch(link);
    await api('PATCH', settings(t), { key: t.keys.admin, body: { enabled: false } });
    try {
      for (const html of [await landing(), await landing(['POLICY-MUG'])]) {
        expect(html).toContain('name="rating"');
        expect(html).not.toContain('/policy');
      }
    } finally {
      await api('PATCH', settings(t), { key: t.keys.admin, body: { enabled: true } });
    }
  });

  it('is not there while the profile is off, and 404s for an unknown slug', async () => {
    await api('PATCH', settings(other), { key: other.keys.admin, body: { enabled: false } });
    for (const path of [`/p/${other.org.slug}/policy`, `/p/${other.org.slug}/policy.md`, '/p/no-such-shop-x/policy']) {
      expect((await api('GET', path)).status, path).toBe(404);
    }
    // The statement of reasons of a review it hides names no page either.
    const [id] = await postReviews((await createForm(api, other)).id, `policy-off-${other.org.id}`, [
      [1, null, 'Rude words', 'Bea'],
    ]);
    const hidden = await api('PATCH', `/api/v1/organizations/${other.org.id}/reviews/${id}/moderate`, {
      key: other.keys.write,
      body: { action: 'hide', reason: 'Rude' },
    });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);
    const [mail] = await db<{ slug: string | null }[]>`
      select data ->> 'org_slug' as slug from plaudit.email_outbox
       where org_id = ${other.org.id} and template = 'statement_of_reasons'`;
    expect(mail.slug).toBeNull();
  });
});
