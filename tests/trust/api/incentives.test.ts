// Incentives: forms and review requests say what they offer for a review; each review they collect
// keeps it as it was (a later change to the form rewrites no history); public items say
// `incentivized`, and the Google feed's is_incentivized_review follows it.
import { describe, expect, inject, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { postForm, requestsPath } from '../../helpers/review-requests.ts';

const formsPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}/review-forms`;
const DISCOUNT = { type: 'discount', description: '10% off your next order' };
const GIFT = { type: 'gift', description: 'A tote bag' };

async function form(t: Tenant, body: Record<string, unknown> = {}) {
  const res = await api('POST', formsPath(t), { key: t.keys.write, body: { name: 'Form', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; incentive: unknown };
}

async function submit(formId: string, content: string, extra: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/v1/reviews', {
    body: { form_id: formId, rating: 5, content, reviewer_name: 'Al', reviewer_email: 'al@example.com', ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; incentive: unknown };
}

const INVALID: [unknown, string][] = [
  [
    { type: 'bribe', description: 'x' },
    'incentive.type: must be one of: "discount", "gift", "points", "free_product", "sweepstake", "other"',
  ],
  [{ type: 'gift' }, 'incentive.description: is required'],
  [{ type: 'gift', description: '   ' }, 'incentive.description: must not be empty'],
  [{ type: 'gift', description: 'x'.repeat(501) }, 'incentive.description: must be at most 500 characters'],
  [{ type: 'gift', description: 'x', value: 5 }, 'incentive: is not a known field'],
  ['a discount', 'incentive: must be an object'],
];

describe('incentives on forms', () => {
  it('are taken on create and update, answered on every read, cleared with null', async () => {
    const t = await createTenant();
    const plain = await form(t);
    expect(plain.incentive).toBeNull();
    const offered = await form(t, { incentive: { type: 'discount', description: '  10% off your next order ' } });
    expect(offered.incentive).toEqual(DISCOUNT);
    const one = await api('GET', `${formsPath(t)}/${offered.id}`, { key: t.keys.read });
    expect(one.body.incentive).toEqual(DISCOUNT);
    const patched = await api('PATCH', `${formsPath(t)}/${plain.id}`, { key: t.keys.write, body: { incentive: GIFT } });
    expect(patched.body.incentive).toEqual(GIFT);
    const untouched = await api('PATCH', `${formsPath(t)}/${plain.id}`, { key: t.keys.write, body: { name: 'New' } });
    expect(untouched.body.incentive).toEqual(GIFT);
    const cleared = await api('PATCH', `${formsPath(t)}/${plain.id}`, { key: t.keys.write, body: { incentive: null } });
    expect(cleared.body.incentive).toBeNull();
  });

  it.each(INVALID)('422 for %j: %s, and nothing changes', async (incentive, message) => {
    const t = await createTenant();
    const created = await api('POST', formsPath(t), { key: t.keys.write, body: { name: 'F', incentive } });
    expect(created.status).toBe(422);
    expect(created.body).toEqual(errorBody(422, 'Unprocessable Entity', message));
    const f = await form(t, { incentive: GIFT });
    const patched = await api('PATCH', `${formsPath(t)}/${f.id}`, { key: t.keys.write, body: { incentive } });
    expect(patched.status).toBe(422);
    expect(patched.body.message).toBe(message);
    const [row] = await db`select incentive from plaudit.review_forms where id = ${f.id}`;
    expect(row.incentive).toEqual(GIFT);
  });

  it('the database refuses a malformed incentive, whoever writes it', async () => {
    const t = await createTenant();
    const f = await form(t);
    await expect(db`update plaudit.review_forms set incentive = '{"type":"gift","description":""}' where id = ${f.id}`)
      .rejects.toThrow('violates check constraint');
  });
});

describe('incentives on reviews', () => {
  it("each review keeps its form's incentive as it was; public items say incentivized", async () => {
    const t = await createTenant();
    const offered = await form(t, { incentive: DISCOUNT });
    const plain = await form(t);
    const first = await submit(offered.id, 'With a discount.');
    expect(first.incentive).toEqual(DISCOUNT);
    expect((await submit(plain.id, 'For nothing.')).incentive).toBeNull();

    // The form changes; the review written before keeps what it was written with.
    await api('PATCH', `${formsPath(t)}/${offered.id}`, { key: t.keys.write, body: { incentive: GIFT } });
    const again = await api('GET', `/api/v1/organizations/${t.org.id}/reviews/${first.id}`, { key: t.keys.read });
    expect(again.body.incentive).toEqual(DISCOUNT);
    expect((await submit(offered.id, 'With a gift.')).incentive).toEqual(GIFT);

    const pub = await api('GET', `/api/v1/public/profiles/${t.org.slug}/reviews`);
    expect(pub.body.data.map((r: Record<string, unknown>) => [r.content, r.incentivized])).toEqual([
      ['With a gift.', true],
      ['For nothing.', false],
      ['With a discount.', true],
    ]);
    expect(pub.body.data[0]).not.toHaveProperty('incentive');
    await expect(db`update plaudit.reviews set incentive = null where id = ${first.id}`)
      .rejects.toThrow('a review cannot be rewritten');
  });

  it("a request's incentive goes to the reviews written through it, else the form's", async () => {
    const t = await createTenant();
    const offered = await form(t, { incentive: DISCOUNT });
    const own = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: 'bea@example.com', name: 'Bea', form_id: offered.id, incentive: GIFT },
    });
    expect(own.status).toBe(201);
    expect(own.body.incentive).toEqual(GIFT);
    const none = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: 'cy@example.com', name: 'Cy', form_id: offered.id },
    });
    expect(none.body.incentive).toBeNull();
    for (const [request, email] of [[own.body.id, 'bea@example.com'], [none.body.id, 'cy@example.com']]) {
      const [{ token }] = await db`select plaudit.review_request_token(${request}) as token`;
      const sent = await postForm(`${inject('apiUrl')}/r/${token}`, {
        rating: '5',
        content: `From ${email}`,
        reviewer_name: 'Bea',
        reviewer_email: email,
      });
      expect(sent.status).toBe(201);
    }
    const rows = await db`select content, incentive from plaudit.reviews where org_id = ${t.org.id} order by content`;
    expect(rows.map((r) => ({ ...r }))).toEqual([
      { content: 'From bea@example.com', incentive: GIFT },
      { content: 'From cy@example.com', incentive: DISCOUNT },
    ]);
  });

  it('requests refuse a malformed incentive with 422, one by one in bulk', async () => {
    const t = await createTenant();
    const f = await form(t);
    const bad = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: 'a@example.com', name: 'A', form_id: f.id, incentive: { type: 'cash', description: '5 €' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(INVALID[0][1]);
    const bulk = await api('POST', requestsPath(t, '/bulk'), {
      key: t.keys.write,
      body: {
        requests: [
          {
            email: 'b@example.com',
            name: 'B',
            form_id: f.id,
            incentive: { type: 'points', description: '100 points' },
          },
          { email: 'c@example.com', name: 'C', form_id: f.id, incentive: { type: 'points', description: '' } },
        ],
      },
    });
    expect(bulk.status).toBe(202);
    expect(bulk.body.data.map((r: { incentive: unknown }) => r.incentive)).toEqual([
      { type: 'points', description: '100 points' },
    ]);
    expect(bulk.body.rejected).toEqual([
      { index: 1, message: 'incentive.description: Too small: expected string to have >=1 characters' },
    ]);
  });

  it("shows in the Google feed's is_incentivized_review", async () => {
    const t = await createTenant();
    const profile = await api('PATCH', `/api/v1/organizations/${t.org.id}/public-profile`, {
      key: t.keys.admin,
      body: { google_product_feed: true },
    });
    expect(profile.status).toBe(200);
    const product = await api('POST', `/api/v1/organizations/${t.org.id}/products`, {
      key: t.keys.write,
      body: { external_id: 'MUG', name: 'Mug', url: 'https://shop.example/mug' },
    });
    expect(product.status, JSON.stringify(product.body)).toBe(201);
    const offered = await form(t, { incentive: DISCOUNT });
    const plain = await form(t);
    const paid = await submit(offered.id, 'Mug, with a discount.', { product_external_id: 'MUG' });
    const free = await submit(plain.id, 'Mug, for nothing.', { product_external_id: 'MUG' });
    const res = await fetch(`${inject('apiUrl')}/api/v1/public/feeds/${t.org.slug}/google-product-reviews.xml`);
    expect(res.status).toBe(200);
    const xml = await res.text();
    const flag = (id: string) =>
      new RegExp(`<review_id>${id}</review_id>.*?<is_incentivized_review>(.*?)<`, 's').exec(xml)?.[1];
    expect(flag(paid.id)).toBe('true');
    expect(flag(free.id)).toBe('false');
  });
});
