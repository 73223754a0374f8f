// A review submitted by a reviewer (POST /api/v1/reviews): what is stored, validation, duplicates,
// the honeypot, the per-address limit and CORS.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { createForm, freshIp, ownApiServer, reviewBody, submit, submitOk } from '../../helpers/reviews.ts';
import type { ReviewSubmission } from '../../../functions/_shared/core/db/review-submission.ts';

const server = ownApiServer();
const call = server.call;

let a: Tenant;
let b: Tenant;
let formA: { id: string };
beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
  [formA] = await Promise.all([createForm(call, a), createForm(call, b)]);
});

const reviewsPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}/reviews`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Waits until the current minute has at least `seconds` left, so a burst stays in one window. */
async function awayFromMinuteBoundary(seconds = 10) {
  const left = 60 - (Date.now() / 1000) % 60;
  if (left < seconds) await new Promise((r) => setTimeout(r, (left + 0.5) * 1000));
}

describe('POST /api/v1/reviews (public submission)', () => {
  it('stores a review of a `none` form as unverified and answers the Review shape', async () => {
    const body = reviewBody(formA.id, { rating: 4, title: '  Solid  ', content: '  Sturdy and warm.  ' });
    const res = await call('POST', '/api/v1/reviews', { body, headers: { 'x-forwarded-for': freshIp() } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      rating: 4,
      title: 'Solid',
      content: 'Sturdy and warm.',
      reviewer_name: 'Ada',
      reviewer_email: body.reviewer_email,
      verification_status: 'unverified',
      verification_method: null,
      verification_at: null,
      source: 'form',
      source_platform: null,
      imported_as_verified: null,
      incentive: null,
      is_hidden: false,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      form_id: formA.id,
      order_id: null,
      product: null,
      language: null,
      custom_fields: {},
      media: [],
      reply: null,
      media_upload: {
        token: expect.stringMatching(/^mu_[\w-]{43}$/),
        expires_at: expect.stringMatching(/Z$/),
        max_files: 6,
        max_bytes: 100 * 1024 * 1024,
      },
    });
    // The token works for 24 hours from the submission.
    const lasts = Date.parse(res.body.media_upload.expires_at) - Date.parse(res.body.created_at);
    expect(lasts).toBeGreaterThan(24 * 3600_000 - 5000);
    expect(lasts).toBeLessThanOrEqual(24 * 3600_000);
    const [row] =
      await db`select org_id, custom_fields, verification_method from plaudit.reviews where id = ${res.body.id}`;
    expect(row).toEqual({ org_id: a.org.id, custom_fields: {}, verification_method: null });
  });

  it('writes review.created to the outbox in the same transaction, without the e-mail', async () => {
    const review = await submitOk(call, formA.id, { rating: 3 });
    const events =
      await db`select type, data from plaudit.events where org_id = ${a.org.id} and data->>'id' = ${review.id}`;
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('review.created');
    expect(events[0].data).toEqual({
      id: review.id,
      form_id: formA.id,
      product: null,
      rating: 3,
      title: 'Great',
      content: expect.any(String),
      reviewer_name: 'Ada',
      verification_status: 'unverified',
      custom_fields: {},
      created_at: review.created_at,
    });
  });

  it('ignores fields the client must not set', async () => {
    const review = await submitOk(call, formA.id, {
      id: '00000000-0000-4000-8000-000000000000',
      org_id: b.org.id,
      is_hidden: true,
      verification_status: 'verified',
      created_at: '2001-01-01T00:00:00Z',
    });
    expect(review).toMatchObject({ verification_status: 'unverified', is_hidden: false });
    expect(review.id).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(review.created_at.startsWith('2001')).toBe(false);
    const [row] = await db`select org_id, is_hidden, verification_status from plaudit.reviews where id = ${review.id}`;
    expect(row).toEqual({ org_id: a.org.id, is_hidden: false, verification_status: 'unverified' });
  });

  it("validates custom fields against the form and keeps only the form's keys", async () => {
    const form = await createForm(call, a, {
      custom_fields: [
        { key: 'product', label: 'Product', type: 'select', required: true, options: ['Mug', 'Plate'] },
        { key: 'visits', label: 'Visits', type: 'number' },
        { key: 'again', label: 'Again?', type: 'boolean' },
        { key: 'headline', label: 'Headline', type: 'text' },
        { key: 'story', label: 'Story', type: 'textarea' },
      ],
    });
    const ok = await submitOk(call, form.id, {
      custom_fields: { product: 'Mug', visits: 3, again: false, headline: '  Hi ', story: '', extra: 'dropped' },
    });
    const [row] = await db`select custom_fields from plaudit.reviews where id = ${ok.id}`;
    expect(row.custom_fields).toEqual({ product: 'Mug', visits: 3, again: false, headline: 'Hi' });

    for (
      const [fields, message] of [
        [{}, /^custom_fields\.product: is required$/],
        [{ product: '  ' }, /^custom_fields\.product: is required$/],
        [{ product: 'Cup' }, /^custom_fields\.product: must be one of Mug, Plate$/],
        [{ product: 'Mug', visits: '3' }, /^custom_fields\.visits: must be a number$/],
        [{ product: 'Mug', again: 'yes' }, /^custom_fields\.again: must be true or false$/],
        [
          { product: 'Mug', headline: 'x'.repeat(501) },
          /^custom_fields\.headline: must be a text of at most 500 characters$/,
        ],
        [
          { product: 'Mug', story: 'x'.repeat(5001) },
          /^custom_fields\.story: must be a text of at most 5000 characters$/,
        ],
      ] as const
    ) {
      const res = await submit(call, form.id, { custom_fields: fields });
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', message));
    }
  });

  it.each([
    [{ rating: 0 }, /^rating:/],
    [{ rating: 6 }, /^rating:/],
    [{ rating: 4.5 }, /^rating:/],
    [{ rating: '5' }, /^rating:/],
    [{ rating: undefined }, /^rating:/],
    [{ content: '' }, /^content:/],
    [{ content: '   ' }, /^content:/],
    [{ content: 'x'.repeat(5001) }, /^content:/],
    [{ reviewer_name: '' }, /^reviewer_name:/],
    [{ reviewer_name: 'x'.repeat(201) }, /^reviewer_name:/],
    [{ reviewer_email: 'not-an-email' }, /^reviewer_email:/],
    [{ reviewer_email: undefined }, /^reviewer_email:/],
    [{ title: 'x'.repeat(201) }, /^title:/],
    [{ form_id: 'nope' }, /^form_id:/],
    [{ custom_fields: [1, 2] }, /^custom_fields:/],
    [{ order_id: 'x'.repeat(201) }, /^order_id:/],
  ])('422 naming the field for %j', async (overrides, message) => {
    const res = await submit(call, formA.id, overrides);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', message));
  });

  it('400 for malformed JSON', async () => {
    const res = await call('POST', '/api/v1/reviews', {
      rawBody: '{"form_id":',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'Bad Request', /Malformed JSON/));
  });

  it('404 for an unknown, inactive or deleted form', async () => {
    const inactive = await createForm(call, a, { is_active: false });
    const deleted = await createForm(call, a);
    expect(
      (await call('DELETE', `/api/v1/organizations/${a.org.id}/review-forms/${deleted.id}`, { key: a.keys.write }))
        .status,
    ).toBe(204);
    for (const id of [crypto.randomUUID(), inactive.id, deleted.id]) {
      const res = await submit(call, id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorBody(404, 'Not Found', /^Review form not found$/));
    }
  });

  it('stores the same e-mail, form and text once within 24 hours (409), case-insensitively', async () => {
    const first = reviewBody(formA.id);
    expect((await submit(call, formA.id, first)).status).toBe(201);
    const again = await submit(call, formA.id, {
      ...first,
      reviewer_email: first.reviewer_email.toUpperCase(),
      rating: 1,
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(errorBody(409, 'Conflict', /already submitted/));
    // Other text, another form, another address: all fine.
    expect((await submit(call, formA.id, { ...first, content: `${first.content}!` })).status).toBe(201);
    const otherForm = await createForm(call, a);
    expect((await submit(call, otherForm.id, { ...first, form_id: otherForm.id })).status).toBe(201);
    expect((await submit(call, formA.id, { ...first, reviewer_email: 'someone.else@example.com' })).status).toBe(201);
    const [{ n }] =
      await db`select count(*)::integer as n from plaudit.reviews where content = ${first.content} and form_id = ${formA.id}`;
    expect(n).toBe(2);
  });

  it('the duplicate rule holds under concurrency: 10 identical submissions store one', async () => {
    const body = reviewBody(formA.id);
    const results = await Promise.all(Array.from({ length: 10 }, () => submit(call, formA.id, body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
  });

  it('the same text after 24 hours is a new review', async () => {
    const body = reviewBody(formA.id);
    await db`
      insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status, created_at)
      values (${a.org.id}, ${formA.id}, 5, ${body.content}, 'Ada', ${body.reviewer_email}, 'unverified', now() - interval '25 hours')`;
    expect((await submit(call, formA.id, body)).status).toBe(201);
  });

  it('honeypot: a filled website_url gets a convincing 201 and nothing is stored', async () => {
    const before = await db`select count(*)::integer as n from plaudit.reviews where org_id = ${a.org.id}`;
    const res = await submit(call, formA.id, { website_url: 'http://spam.example' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(UUID),
      verification_status: 'unverified',
      verification_method: null,
      verification_at: null,
      is_hidden: false,
      form_id: formA.id,
    });
    const after = await db`select count(*)::integer as n from plaudit.reviews where org_id = ${a.org.id}`;
    expect(after[0].n).toBe(before[0].n);
    expect(await db`select 1 from plaudit.reviews where id = ${res.body.id}`).toHaveLength(0);
    // The trap still validates like the real thing, and an empty trap field is no trap.
    expect((await submit(call, crypto.randomUUID(), { website_url: 'x' })).status).toBe(404);
    expect((await submit(call, formA.id, { website_url: '' })).status).toBe(201);
  });

  it('limits submissions per client address, counting refused ones, keyed by a hash of the address', async () => {
    await awayFromMinuteBoundary();
    const ip = freshIp();
    const remaining: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await submit(call, crypto.randomUUID(), {}, ip);
      expect(res.status).toBe(404);
      expect(res.headers.get('x-ratelimit-limit')).toBe('20');
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining[0]).toBe('19');
    expect(remaining[19]).toBe('0');
    const limited = await submit(call, formA.id, {}, ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(errorBody(429, 'Too Many Requests', /20 requests per minute/));
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // Another address is not affected.
    expect((await submit(call, formA.id)).status).toBe(201);
    const hash = createHash('sha256').update(ip).digest('hex');
    const buckets = await db`select bucket from plaudit.rate_limit_counters where bucket like ${
      '%' + ip + '%'
    } or bucket = ${'submit:' + hash}`;
    expect(buckets.map((r) => r.bucket)).toEqual([`submit:${hash}`]);
  });

  it('CORS: any site may submit (preflight and answer), but not use the authenticated list', async () => {
    const origin = { origin: 'https://shop.example' };
    const preflight = await call('OPTIONS', '/api/v1/reviews', {
      headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const res = await submit(call, formA.id, {}, freshIp());
    expect(res.status).toBe(201);
    const posted = await call('POST', '/api/v1/reviews', {
      body: reviewBody(formA.id),
      headers: { ...origin, 'x-forwarded-for': freshIp() },
    });
    expect(posted.headers.get('access-control-allow-origin')).toBe('*');
    expect(posted.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');

    const listPreflight = await call('OPTIONS', '/api/v1/reviews', {
      headers: { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(listPreflight.headers.get('access-control-allow-origin')).toBeNull();
    const list = await call('GET', '/api/v1/reviews', { key: a.keys.read, headers: origin });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-allow-origin')).toBeNull();
    const org = await call('GET', reviewsPath(a), { key: a.keys.read, headers: origin });
    expect(org.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends the review as plaudit.review_submission, field for field: the API, the hosted form and a request page alike', async () => {
    // Every field of the TypeScript type, typed: a field missing here, or one the type lacks, does not check.
    const every: ReviewSubmission = {
      form_id: null,
      rating: 5,
      title: null,
      content: 'x',
      reviewer_name: 'A',
      reviewer_email: 'a@example.com',
      custom_fields: null,
      order_id: null,
      honeypot: false,
      product_id: null,
      product_external_id: null,
      language: null,
    };
    const attributes = await db<{ name: string }[]>`
      select a.attname as name from pg_attribute a
       where a.attrelid = 'plaudit.review_submission'::regclass and a.attnum > 0 and not a.attisdropped
       order by a.attnum`;
    expect(attributes.map((a) => a.name)).toEqual(Object.keys(every));
    // One composite input beside the request's context, and no other way in.
    const signatures = await db<{ signature: string }[]>`
      select p.oid::regprocedure::text as signature from pg_proc p
       where p.pronamespace = 'plaudit'::regnamespace and p.proname in ('submit_review', 'submit_requested_review')
       order by 1`;
    expect(signatures.map((s) => s.signature)).toEqual([
      'plaudit.submit_requested_review(text,plaudit.review_submission,text,integer,text)',
      'plaudit.submit_review(plaudit.review_submission,text,integer,text)',
    ]);
  });
});
