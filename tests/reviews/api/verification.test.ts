// Verifying a review by the reviewer's e-mail link (end to end, and by the key with the token),
// and a member's manual approval or rejection.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { createForm, ownApiServer, submitOk } from '../../helpers/reviews.ts';
import { provenance, sha256hex, trail, verificationEmail, verifiedEvents } from '../../helpers/verification.ts';

const server = ownApiServer();
const call = server.call;

const orgPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}`;

let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
});

describe('e-mail verification, end to end', () => {
  let form: { id: string };
  beforeAll(async () => {
    form = await createForm(call, a, { verification_mode: 'email' });
  });

  it('submission: pending, a single-use token stored as a hash, and the e-mail in the outbox', async () => {
    const review = await submitOk(call, form.id, { reviewer_name: 'Grace', reviewer_email: 'grace@example.com' });
    expect(review.verification_status).toBe('pending');
    const mail = await verificationEmail(review.id);
    expect(mail).toMatchObject({ to_address: 'grace@example.com', template: 'review_verification', locale: 'en' });
    expect(mail.data).toEqual({
      review_id: review.id,
      reviewer_name: 'Grace',
      token: expect.stringMatching(/^[0-9A-Za-z]{43}$/),
      verify_url: `${server.url}/api/v1/public/verifications/${mail.data.token}`,
    });
    const [token] =
      await db`select token_hash, expires_at, used_at from plaudit.review_verification_tokens where review_id = ${review.id}`;
    expect(Buffer.from(token.token_hash).toString('hex')).toBe(sha256hex(mail.data.token));
    expect(token.used_at).toBeNull();
    const days = (token.expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    // Not public until verified.
    const [stats] =
      await db`select coalesce(sum(public_count), 0)::integer as n from plaudit.review_statistics where org_id = ${a.org.id}`;
    expect(stats.n).toBe(0);
  });

  it('opening the e-mailed link verifies nothing: it leads to a page whose button confirms, once', async () => {
    const review = await submitOk(call, form.id);
    const { data } = await verificationEmail(review.id);
    for (const method of ['HEAD', 'GET']) {
      const open = await fetch(data.verify_url, { method, redirect: 'manual' });
      expect(open.status).toBe(303);
      expect(open.headers.get('location')).toBe(`${server.url}/verify/${data.token}`);
      expect(open.headers.get('cache-control')).toBe('no-store');
    }
    // What a link scanner or a person opening the mail gets: a page with a button, nothing changed.
    const page = await fetch(data.verify_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html; charset=UTF-8/i);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain(
      `<form method="post" action="/verify/${data.token}"><button type="submit">Confirm my review</button></form>`,
    );
    expect((await provenance(review.id)).verification_status).toBe('pending');
    expect(await trail(review.id)).toEqual([]);

    const confirmed = await fetch(`${server.url}/verify/${data.token}`, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toMatch(/<h1>Your review is confirmed<\/h1>/);
    const p = await provenance(review.id);
    expect(p).toMatchObject({
      verification_status: 'verified',
      verification_method: 'email',
      verification_key_id: null,
    });
    const [token] = await db`select id, used_at from plaudit.review_verification_tokens where review_id = ${review.id}`;
    expect(p.verification_token_id).toBe(token.id);
    expect(token.used_at).toBeInstanceOf(Date);
    expect(await trail(review.id)).toEqual([{ action: 'verify', reason: null, actor: 'reviewer:email_link' }]);
    expect(await verifiedEvents(review.id)).toEqual([expect.objectContaining({
      id: review.id,
      verification_status: 'verified',
      previous_status: 'pending',
      method: 'email',
      actor: 'reviewer:email_link',
    })]);

    const again = await fetch(`${server.url}/verify/${data.token}`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(await again.text()).toMatch(/already used/);
  });

  it('POST on the API path verifies once and answers JSON, errors in the contract format', async () => {
    const review = await submitOk(call, form.id);
    const { data } = await verificationEmail(review.id);
    const res = await call('POST', `/api/v1/public/verifications/${data.token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'verified' });
    expect((await provenance(review.id)).verification_status).toBe('verified');
    const again = await call('POST', `/api/v1/public/verifications/${data.token}`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'This verification link has already been used',
    });
  });

  it('expired, unknown and malformed links are refused and change nothing', async () => {
    const review = await submitOk(call, form.id);
    const { data } = await verificationEmail(review.id);
    await db`update plaudit.review_verification_tokens set expires_at = now() - interval '1 second' where review_id = ${review.id}`;
    const expired = await fetch(`${server.url}/verify/${data.token}`, { method: 'POST' });
    expect(expired.status).toBe(410);
    expect(await expired.text()).toMatch(/<h1>This link has expired<\/h1>/);
    expect((await call('POST', `/api/v1/public/verifications/${data.token}`)).body).toEqual({
      statusCode: 410,
      error: 'Gone',
      message: 'This verification link has expired: links are valid for 7 days',
    });
    const unknown = await call('POST', `/api/v1/public/verifications/${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Verification link not found' });
    const malformed = await call('GET', '/api/v1/public/verifications/not-a-token!');
    expect(malformed.status).toBe(404);
    expect(malformed.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Verification link not found' });
    expect((await fetch(`${server.url}/verify/not-a-token!`)).status).toBe(404);
    expect((await provenance(review.id)).verification_status).toBe('pending');
  });

  it('POST …/verification/verify with the token verifies on behalf of the key', async () => {
    const review = await submitOk(call, form.id);
    const { data } = await verificationEmail(review.id);
    const res = await call('POST', `${orgPath(a)}/verification/verify`, {
      key: a.keys.write,
      body: { review_id: review.id, token: data.token },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: review.id, verification_status: 'verified' });
    expect(await provenance(review.id)).toMatchObject({
      verification_method: 'email',
      verification_key_id: a.keyIds.write,
    });
    expect(await trail(review.id)).toEqual([{ action: 'verify', reason: null, actor: `api_key:${a.keyIds.write}` }]);
    const again = await call('POST', `${orgPath(a)}/verification/verify`, {
      key: a.keys.write,
      body: { review_id: review.id, token: data.token },
    });
    expect(again.body).toEqual(errorBody(409, 'Conflict', /^token: has already been used$/));
    // The link is spent too: its page says so, and a POST is refused.
    expect((await fetch(data.verify_url)).status).toBe(409);
    expect((await fetch(data.verify_url, { method: 'POST' })).status).toBe(409);
  });

  it('refuses a wrong, foreign or expired token, and another organization', async () => {
    const [r1, r2] = [await submitOk(call, form.id), await submitOk(call, form.id)];
    const t1 = (await verificationEmail(r1.id)).data.token;
    const t2 = (await verificationEmail(r2.id)).data.token;
    const verify = (body: unknown, t = a, key = t.keys.write) =>
      call('POST', `${orgPath(t)}/verification/verify`, { key, body });

    expect((await verify({ review_id: r1.id, token: 'nope' })).body).toEqual(
      errorBody(422, 'Unprocessable Entity', /^token: is not a verification token of this review$/),
    );
    expect((await verify({ review_id: r1.id, token: t2 })).body).toEqual(
      errorBody(422, 'Unprocessable Entity', /^token: is not a verification token of this review$/),
    );
    expect((await verify({ review_id: r1.id })).body).toEqual(
      errorBody(422, 'Unprocessable Entity', /^token: send either token/),
    );
    expect((await verify({ review_id: r1.id, token: t1, order_id: 'x' })).body).toEqual(
      errorBody(422, 'Unprocessable Entity', /^token: send either token/),
    );
    expect((await verify({ review_id: 'x', token: t1 })).body).toEqual(
      errorBody(422, 'Unprocessable Entity', /^review_id:/),
    );
    expect((await verify({ review_id: r1.id, token: t1 }, a, a.keys.read)).status).toBe(403);
    expect((await verify({ review_id: r1.id, token: t1 }, a, b.keys.admin)).status).toBe(403);
    const foreign = await verify({ review_id: r1.id, token: t1 }, b);
    expect(foreign.body).toEqual(errorBody(404, 'Not Found', /^Review not found$/));
    expect((await verify({ review_id: crypto.randomUUID(), token: t1 })).status).toBe(404);

    await db`update plaudit.review_verification_tokens set expires_at = now() - interval '1 second' where review_id = ${r2.id}`;
    expect((await verify({ review_id: r2.id, token: t2 })).body).toEqual(
      errorBody(422, 'Unprocessable Entity', /^token: has expired/),
    );
    expect((await provenance(r1.id)).verification_status).toBe('pending');
    expect((await provenance(r2.id)).verification_status).toBe('pending');
  });

  it('a token of a review that was rejected meanwhile no longer verifies', async () => {
    const review = await submitOk(call, form.id);
    const { data } = await verificationEmail(review.id);
    expect(
      (await call('POST', `${orgPath(a)}/verification/reject`, { key: a.keys.write, body: { review_id: review.id } }))
        .status,
    ).toBe(200);
    const res = await call('POST', `${orgPath(a)}/verification/verify`, {
      key: a.keys.write,
      body: { review_id: review.id, token: data.token },
    });
    expect(res.body).toEqual(
      errorBody(409, 'Conflict', /^Only a pending review can be verified; this one is rejected$/),
    );
    const page = await fetch(data.verify_url);
    expect(page.status).toBe(409);
    expect(await page.text()).toMatch(/does not need confirming any more/);
    const link = await call('POST', `/api/v1/public/verifications/${data.token}`);
    expect(link.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'This review does not need verifying any more',
    });
  });
});

describe('manual approval and rejection', () => {
  let form: { id: string };
  beforeAll(async () => {
    form = await createForm(call, a, { verification_mode: 'manual' });
  });
  const decide = (action: 'approve' | 'reject', body: unknown, t = a, key = t.keys.write) =>
    call('POST', `${orgPath(t)}/verification/${action}`, { key, body });

  it('approve: pending → verified with provenance, trail and event; twice → 409', async () => {
    const review = await submitOk(call, form.id, { rating: 2 });
    expect(review.verification_status).toBe('pending');
    const res = await decide('approve', { review_id: review.id, reason: 'Checked the receipt' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: review.id,
      verification_status: 'verified',
      verification_method: 'manual',
      verification_at: (await provenance(review.id)).verification_at.toISOString(),
      is_hidden: false,
    });
    expect(await provenance(review.id)).toMatchObject({
      verification_method: 'manual',
      verification_key_id: a.keyIds.write,
      verification_reason: 'Checked the receipt',
    });
    expect(await trail(review.id)).toEqual([{
      action: 'approve',
      reason: 'Checked the receipt',
      actor: `api_key:${a.keyIds.write}`,
    }]);
    expect(await verifiedEvents(review.id)).toEqual([
      expect.objectContaining({
        verification_status: 'verified',
        previous_status: 'pending',
        method: 'manual',
        reason: 'Checked the receipt',
      }),
    ]);
    const again = await decide('approve', { review_id: review.id });
    expect(again.body).toEqual(
      errorBody(409, 'Conflict', /^Only a pending review can be approved; this one is verified$/),
    );
    const history = await call('GET', `${orgPath(a)}/reviews/${review.id}/moderation-history`, { key: a.keys.read });
    expect(history.body.data.map((e: { action: string }) => e.action)).toEqual(['approve']);
  });

  it('reject: pending → rejected; then neither approve nor reject', async () => {
    const review = await submitOk(call, form.id);
    const res = await decide('reject', { review_id: review.id, reason: 'Not a customer' });
    expect(res.body).toMatchObject({ verification_status: 'rejected', verification_method: 'manual' });
    expect(await trail(review.id)).toEqual([{
      action: 'reject',
      reason: 'Not a customer',
      actor: `api_key:${a.keyIds.write}`,
    }]);
    expect(await verifiedEvents(review.id)).toEqual([
      expect.objectContaining({ verification_status: 'rejected', previous_status: 'pending' }),
    ]);
    expect((await decide('reject', { review_id: review.id })).body).toEqual(
      errorBody(409, 'Conflict', /^Only a pending review can be rejected; this one is rejected$/),
    );
    expect((await decide('approve', { review_id: review.id })).body).toEqual(
      errorBody(409, 'Conflict', /this one is rejected$/),
    );
  });

  it('an unverified review (mode none) is not pending: 409', async () => {
    const open = await createForm(call, a);
    const review = await submitOk(call, open.id);
    expect((await decide('approve', { review_id: review.id })).body).toEqual(
      errorBody(409, 'Conflict', /this one is unverified$/),
    );
    expect((await decide('reject', { review_id: review.id })).status).toBe(409);
  });

  it('404 for unknown and foreign reviews, 403 for read keys and other organizations, 422 for bad bodies', async () => {
    const review = await submitOk(call, form.id);
    for (const action of ['approve', 'reject'] as const) {
      expect((await decide(action, { review_id: crypto.randomUUID() })).body).toEqual(
        errorBody(404, 'Not Found', /^Review not found$/),
      );
      expect((await decide(action, { review_id: review.id }, b)).body).toEqual(
        errorBody(404, 'Not Found', /^Review not found$/),
      );
      expect((await decide(action, { review_id: review.id }, a, a.keys.read)).status).toBe(403);
      expect((await decide(action, { review_id: review.id }, a, b.keys.admin)).status).toBe(403);
      expect((await decide(action, { review_id: review.id, reason: 'x'.repeat(1001) })).body).toEqual(
        errorBody(422, 'Unprocessable Entity', /^reason:/),
      );
      expect((await decide(action, {})).body).toEqual(errorBody(422, 'Unprocessable Entity', /^review_id:/));
    }
    expect((await provenance(review.id)).verification_status).toBe('pending');
  });

  it('a pending review is hidden from the public until approved, and counted once approved', async () => {
    const t = await createTenant();
    const f = await createForm(call, t, { verification_mode: 'manual' });
    const review = await submitOk(call, f.id, { rating: 3 });
    const stats = async () =>
      (await db`select coalesce(sum(public_count), 0)::integer as n, coalesce(sum(rating_3), 0)::integer as r3 from plaudit.review_statistics where org_id = ${t.org.id}`)[
        0
      ];
    expect(await stats()).toEqual({ n: 0, r3: 0 });
    expect((await decide('approve', { review_id: review.id }, t)).status).toBe(200);
    expect(await stats()).toEqual({ n: 1, r3: 1 });
  });
});
