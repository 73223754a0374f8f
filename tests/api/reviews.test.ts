import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../helpers/db.ts';
import { errorBody } from '../helpers/http.ts';
import { createForm, freshIp, ownApiServer, reviewBody, submit, submitOk } from '../helpers/reviews.ts';

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
      is_hidden: false,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      form_id: formA.id,
      custom_fields: {},
      reply: null,
    });
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
});

describe('reading reviews', () => {
  let t: Tenant;
  let other: Tenant;
  let forms: { id: string }[];
  let made: { id: string; rating: number; created_at: string }[];
  beforeAll(async () => {
    [t, other] = await Promise.all([createTenant(), createTenant()]);
    forms = [await createForm(call, t), await createForm(call, t, { verification_mode: 'manual' })];
    made = [];
    const specs = [
      { form: 0, rating: 5, content: 'Blue teapot, wonderful glaze' },
      { form: 0, rating: 4, content: 'Green teapot, decent' },
      { form: 1, rating: 1, content: 'Broken handle on arrival' },
      { form: 0, rating: 3, content: 'Average plate' },
      { form: 1, rating: 5, content: 'Wonderful service and fast shipping' },
      { form: 0, rating: 2, content: 'Slow delivery of the teapot' },
    ];
    for (const s of specs) {
      made.push(await submitOk(call, forms[s.form].id, { rating: s.rating, content: s.content, title: null }));
    }
    await submitOk(call, (await createForm(call, other)).id);
  });

  const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);
  const newestFirst = () => [...made].reverse().map((r) => r.id);

  it('lists newest first with the pagination envelope', async () => {
    const res = await call('GET', reviewsPath(t), { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 6, page: 1, limit: 20, totalPages: 1 });
    expect(ids(res)).toEqual(newestFirst());
    expect(res.body.data[0]).toEqual({
      id: made[5].id,
      rating: 2,
      title: null,
      content: 'Slow delivery of the teapot',
      reviewer_name: 'Ada',
      reviewer_email: expect.stringMatching(/@example\.com$/),
      verification_status: 'unverified',
      verification_method: null,
      verification_at: null,
      is_hidden: false,
      created_at: made[5].created_at,
      form_id: forms[0].id,
      custom_fields: {},
      reply: null,
    });
    const p2 = await call('GET', `${reviewsPath(t)}?limit=4&page=2`, { key: t.keys.read });
    expect(p2.body.meta).toEqual({ total: 6, page: 2, limit: 4, totalPages: 2 });
    expect(ids(p2)).toEqual(newestFirst().slice(4));
    const beyond = await call('GET', `${reviewsPath(t)}?limit=4&page=9`, { key: t.keys.read });
    expect(beyond.body).toEqual({ data: [], meta: { total: 6, page: 9, limit: 4, totalPages: 2 } });
  });

  it.each([
    ['rating=5', (r: { rating: number }, i: number) => r.rating === 5 && i >= 0],
    ['min_rating=3', (r: { rating: number }) => r.rating >= 3],
    ['max_rating=2', (r: { rating: number }) => r.rating <= 2],
    ['min_rating=2&max_rating=4', (r: { rating: number }) => r.rating >= 2 && r.rating <= 4],
  ])('filters by %s', async (query, keep) => {
    const res = await call('GET', `${reviewsPath(t)}?${query}`, { key: t.keys.read });
    expect(res.status).toBe(200);
    const expected = [...made].reverse().filter((r, i) => keep(r, i)).map((r) => r.id);
    expect(ids(res)).toEqual(expected);
    expect(res.body.meta.total).toBe(expected.length);
  });

  it('filters by form, status, hidden, text and dates', async () => {
    const byForm = await call('GET', `${reviewsPath(t)}?form_id=${forms[1].id}`, { key: t.keys.read });
    expect(ids(byForm)).toEqual([made[4].id, made[2].id]);
    const pending = await call('GET', `${reviewsPath(t)}?verification_status=pending`, { key: t.keys.read });
    expect(ids(pending)).toEqual([made[4].id, made[2].id]);
    const unverified = await call('GET', `${reviewsPath(t)}?verification_status=unverified&rating=5`, {
      key: t.keys.read,
    });
    expect(ids(unverified)).toEqual([made[0].id]);

    const hid = await call('PATCH', `${reviewsPath(t)}/${made[1].id}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'spam' },
    });
    expect(hid.status).toBe(200);
    const hidden = await call('GET', `${reviewsPath(t)}?is_hidden=true`, { key: t.keys.read });
    expect(ids(hidden)).toEqual([made[1].id]);
    expect(hidden.body.meta.total).toBe(1);
    const visible = await call('GET', `${reviewsPath(t)}?is_hidden=false`, { key: t.keys.read });
    expect(visible.body.meta.total).toBe(5);
    await call('PATCH', `${reviewsPath(t)}/${made[1].id}/moderate`, {
      key: t.keys.write,
      body: { action: 'unhide', reason: 'ok' },
    });

    const text = await call('GET', `${reviewsPath(t)}?q=teapot`, { key: t.keys.read });
    expect(ids(text)).toEqual([made[5].id, made[1].id, made[0].id]);
    const words = await call('GET', `${reviewsPath(t)}?q=${encodeURIComponent('WONDERFUL teapot')}`, {
      key: t.keys.read,
    });
    expect(ids(words)).toEqual([made[0].id]);

    const today = new Date().toISOString().slice(0, 10);
    const day = await call('GET', `${reviewsPath(t)}?startDate=${today}&endDate=${today}`, { key: t.keys.read });
    expect(day.body.meta.total).toBe(6);
    const past = await call('GET', `${reviewsPath(t)}?endDate=2020-01-01`, { key: t.keys.read });
    expect(past.body.meta.total).toBe(0);
    const since = await call('GET', `${reviewsPath(t)}?startDate=${encodeURIComponent(made[3].created_at)}`, {
      key: t.keys.read,
    });
    expect(ids(since)).toEqual(newestFirst().slice(0, 3));
    const until = await call('GET', `${reviewsPath(t)}?endDate=${encodeURIComponent(made[1].created_at)}`, {
      key: t.keys.read,
    });
    expect(ids(until)).toEqual([made[1].id, made[0].id]);
  });

  it.each([
    'rating=6',
    'rating=x',
    'min_rating=0',
    'max_rating=9',
    'verification_status=approved',
    'is_hidden=yes',
    'form_id=abc',
    'startDate=yesterday',
    'endDate=2026-13-45',
    'q=',
    'limit=0',
    'page=0',
    'min_rating=4&max_rating=2',
    'startDate=2026-02-02&endDate=2026-02-01',
  ])('400 for %s', async (query) => {
    const res = await call('GET', `${reviewsPath(t)}?${query}`, { key: t.keys.read });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'Bad Request', new RegExp(`^${query.split('=')[0]}`)));
  });

  it('meta.total of an unfiltered list comes from the counter, not from counting', async () => {
    await db`update plaudit.review_statistics set total_count = total_count + 1000
             where org_id = ${t.org.id} and slot = (select min(slot) from plaudit.review_statistics where org_id = ${t.org.id})`;
    try {
      const unfiltered = await call('GET', reviewsPath(t), { key: t.keys.read });
      expect(unfiltered.body.meta.total).toBe(1006);
      const filtered = await call('GET', `${reviewsPath(t)}?min_rating=1`, { key: t.keys.read });
      expect(filtered.body.meta.total).toBe(6);
    } finally {
      await db`select plaudit.rebuild_review_statistics(${t.org.id})`;
    }
    expect((await call('GET', reviewsPath(t), { key: t.keys.read })).body.meta.total).toBe(6);
  });

  it("GET /api/v1/reviews lists the key's own organization", async () => {
    const res = await call('GET', '/api/v1/reviews?limit=2', { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 6, page: 1, limit: 2, totalPages: 3 });
    expect(ids(res)).toEqual(newestFirst().slice(0, 2));
    const filtered = await call('GET', '/api/v1/reviews?rating=1', { key: t.keys.read });
    expect(ids(filtered)).toEqual([made[2].id]);
    expect((await call('GET', '/api/v1/reviews')).status).toBe(401);
  });

  it("gets one review; 404 for another organization's or an unknown id; 403 for another organization", async () => {
    const res = await call('GET', `${reviewsPath(t)}/${made[0].id}`, { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(made[0].id);
    for (const id of [crypto.randomUUID(), made[0].id]) {
      const miss = await call('GET', `${reviewsPath(other)}/${id}`, { key: other.keys.read });
      expect(miss.status).toBe(404);
      expect(miss.body).toEqual(errorBody(404, 'Not Found', /^Review not found$/));
    }
    const forbidden = await call('GET', `${reviewsPath(t)}/${made[0].id}`, { key: other.keys.admin });
    expect(forbidden.body).toEqual(errorBody(403, 'Forbidden', /another organization/));
    expect((await call('GET', reviewsPath(t), { key: other.keys.read })).status).toBe(403);
    expect((await call('GET', `${reviewsPath(t)}/not-a-uuid`, { key: t.keys.read })).status).toBe(400);
    // Another organization's list never shows these reviews.
    const theirs = await call('GET', reviewsPath(other), { key: other.keys.read });
    expect(theirs.body.meta.total).toBe(1);
    expect(ids(theirs)).not.toContain(made[0].id);
  });
});

describe('moderation and its trail', () => {
  let t: Tenant;
  let form: { id: string };
  beforeAll(async () => {
    t = await createTenant();
    form = await createForm(call, t);
  });
  const moderate = (id: string, body: unknown, key = t.keys.write) =>
    call('PATCH', `${reviewsPath(t)}/${id}/moderate`, { key, body });

  it('hides and unhides with a reason; 409 when nothing would change; each change in the history', async () => {
    const review = await submitOk(call, form.id);
    const hide = await moderate(review.id, { action: 'hide', reason: 'Off-topic' });
    expect(hide.status).toBe(200);
    expect(hide.body).toMatchObject({ id: review.id, is_hidden: true, verification_status: 'unverified' });
    const again = await moderate(review.id, { action: 'hide', reason: 'again' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(errorBody(409, 'Conflict', /^Review is already hidden$/));
    const unhide = await moderate(review.id, { action: 'unhide', reason: 'Appeal accepted' }, t.keys.admin);
    expect(unhide.body.is_hidden).toBe(false);
    const twice = await moderate(review.id, { action: 'unhide', reason: 'x' });
    expect(twice.body).toEqual(errorBody(409, 'Conflict', /^Review is not hidden$/));

    const history = await call('GET', `${reviewsPath(t)}/${review.id}/moderation-history`, { key: t.keys.read });
    expect(history.status).toBe(200);
    expect(history.body).toEqual({
      data: [
        {
          id: expect.stringMatching(UUID),
          action: 'unhide',
          reason: 'Appeal accepted',
          actor: `api_key:${t.keyIds.admin}`,
          created_at: expect.stringMatching(/Z$/),
        },
        {
          id: expect.stringMatching(UUID),
          action: 'hide',
          reason: 'Off-topic',
          actor: `api_key:${t.keyIds.write}`,
          created_at: expect.stringMatching(/Z$/),
        },
      ],
      meta: { total: 2, page: 1, limit: 20, totalPages: 1 },
    });
    const page = await call('GET', `${reviewsPath(t)}/${review.id}/moderation-history?limit=1&page=2`, {
      key: t.keys.read,
    });
    expect(page.body.data.map((e: { action: string }) => e.action)).toEqual(['hide']);

    const events = await db`
      select data from plaudit.events where org_id = ${t.org.id} and type = 'review.moderated' and data->>'id' = ${review.id}
      order by created_at, (data->>'moderated_at')`;
    expect(events.map((e) => [e.data.action, e.data.is_hidden, e.data.reason])).toEqual([
      ['hide', true, 'Off-topic'],
      ['unhide', false, 'Appeal accepted'],
    ]);
    expect(events[0].data.actor).toBe(`api_key:${t.keyIds.write}`);
  });

  it('refuses a bad body (422), a read key (403), another organization (403) and foreign ids (404)', async () => {
    const review = await submitOk(call, form.id);
    for (
      const [body, message] of [
        [{ action: 'hide' }, /^reason:/],
        [{ action: 'hide', reason: '' }, /^reason:/],
        [{ action: 'delete', reason: 'x' }, /^action:/],
        [{ reason: 'x' }, /^action:/],
        [{ action: 'hide', reason: 'x'.repeat(1001) }, /^reason:/],
      ] as const
    ) {
      const res = await moderate(review.id, body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', message));
    }
    expect((await moderate(review.id, { action: 'hide', reason: 'x' }, t.keys.read)).body)
      .toEqual(errorBody(403, 'Forbidden', /write scope/));
    const stranger = await createTenant();
    const cross = await call('PATCH', `${reviewsPath(t)}/${review.id}/moderate`, {
      key: stranger.keys.admin,
      body: { action: 'hide', reason: 'x' },
    });
    expect(cross.status).toBe(403);
    for (const id of [review.id, crypto.randomUUID()]) {
      const res = await call('PATCH', `${reviewsPath(stranger)}/${id}/moderate`, {
        key: stranger.keys.write,
        body: { action: 'hide', reason: 'x' },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorBody(404, 'Not Found', /^Review not found$/));
      const history = await call('GET', `${reviewsPath(stranger)}/${id}/moderation-history`, {
        key: stranger.keys.read,
      });
      expect(history.status).toBe(404);
    }
    const [row] = await db`select is_hidden from plaudit.reviews where id = ${review.id}`;
    expect(row.is_hidden).toBe(false);
    expect(await db`select 1 from plaudit.moderation_trail where review_id = ${review.id}`).toHaveLength(0);
  });

  it('50 concurrent toggles leave the state, the trail, the events and the statistics consistent', async () => {
    const review = await submitOk(call, form.id, { rating: 4 });
    const actions = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? 'hide' : 'unhide'));
    const results = await Promise.all(
      actions.map((action) => moderate(review.id, { action, reason: `toggle ${action}` })),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(ok.length).toBeGreaterThan(0);

    const trail =
      await db`select action, seq from plaudit.moderation_trail where review_id = ${review.id} order by seq`;
    expect(trail).toHaveLength(ok.length);
    trail.forEach((e, i) => expect(e.action).toBe(i % 2 === 0 ? 'hide' : 'unhide'));
    const [state] = await db`select is_hidden from plaudit.reviews where id = ${review.id}`;
    expect(state.is_hidden).toBe(trail.length % 2 === 1);
    const okHides = ok.filter((r) => r.body.is_hidden).length;
    expect(okHides - (ok.length - okHides)).toBe(state.is_hidden ? 1 : 0);
    const [{ n }] =
      await db`select count(*)::integer as n from plaudit.events where type = 'review.moderated' and data->>'id' = ${review.id}`;
    expect(n).toBe(ok.length);
    const [chain] = await db`select * from plaudit.verify_moderation_chain(${t.org.id})`;
    expect(chain).toMatchObject({ valid: true, problem: null });
    const [stats] =
      await db`select sum(public_count)::integer as c, sum(rating_4)::integer as r4 from plaudit.review_statistics where org_id = ${t.org.id}`;
    const [truth] =
      await db`select count(*)::integer as c, count(*) filter (where rating = 4)::integer as r4 from plaudit.reviews
                             where org_id = ${t.org.id} and not is_hidden and verification_status in ('verified', 'unverified')`;
    expect(stats).toEqual(truth);
  });

  it('the database refuses to delete or rewrite a review, even for its owner', async () => {
    const review = await submitOk(call, form.id);
    await expect(db`delete from plaudit.reviews where id = ${review.id}`).rejects.toThrow(/reviews cannot be deleted/);
    await expect(db`update plaudit.reviews set content = 'rewritten' where id = ${review.id}`).rejects.toThrow(
      /cannot be rewritten/,
    );
    await expect(db`update plaudit.reviews set verification_status = 'verified' where id = ${review.id}`).rejects
      .toThrow(/only move from pending/);
    expect((await call('DELETE', `${reviewsPath(t)}/${review.id}`, { key: t.keys.admin })).status).toBe(405);
  });
});

describe('OpenAPI document', () => {
  it('documents every review, form, verification and public-data route, with its scope', async () => {
    const res = await call('GET', '/api/v1/openapi.json');
    const paths = res.body.paths as Record<string, Record<string, { 'x-required-scope'?: string; security?: unknown }>>;
    const expected: [string, string, string | null][] = [
      ['/api/v1/reviews', 'post', null],
      ['/api/v1/reviews', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/reviews', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/reviews/{id}', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/reviews/{id}/moderate', 'patch', 'write'],
      ['/api/v1/organizations/{orgId}/reviews/{id}/moderation-history', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/review-forms', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/review-forms', 'post', 'write'],
      ['/api/v1/organizations/{orgId}/review-forms/{id}', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/review-forms/{id}', 'patch', 'write'],
      ['/api/v1/organizations/{orgId}/review-forms/{id}', 'delete', 'write'],
      ['/api/v1/organizations/{orgId}/verification/verify', 'post', 'write'],
      ['/api/v1/organizations/{orgId}/verification/approve', 'post', 'write'],
      ['/api/v1/organizations/{orgId}/verification/reject', 'post', 'write'],
      ['/api/v1/organizations/{orgId}/orders', 'post', 'write'],
      ['/api/v1/organizations/{orgId}/public-profile', 'get', 'read'],
      ['/api/v1/organizations/{orgId}/public-profile', 'patch', 'admin'],
      ['/api/v1/public/embed/{slug}', 'get', null],
      ['/api/v1/public/reviews/{slug}', 'get', null],
      ['/api/v1/public/profiles/{slug}', 'get', null],
      ['/api/v1/public/profiles/{slug}/reviews', 'get', null],
      ['/api/v1/public/verifications/{token}', 'get', null],
    ];
    for (const [path, method, scope] of expected) {
      const op = paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op['x-required-scope'], `${method} ${path}`).toBe(scope ?? undefined);
      expect(op.security, `${method} ${path}`).toEqual(scope ? [{ ApiKey: [] }, { Session: [] }] : []);
    }
    const schemas = res.body.components.schemas;
    for (
      const name of [
        'Review',
        'ReviewSubmission',
        'ReviewForm',
        'ModerationEntry',
        'PublicReview',
        'PublicProfile',
        'PublicEmbed',
        'PublicProfileSettings',
      ]
    ) {
      expect(schemas[name], name).toBeDefined();
    }
    expect(Object.keys(schemas.Review.properties)).toEqual([
      'id',
      'rating',
      'title',
      'content',
      'reviewer_name',
      'reviewer_email',
      'verification_status',
      'verification_method',
      'verification_at',
      'is_hidden',
      'created_at',
      'form_id',
      'custom_fields',
      'reply',
    ]);
    expect(schemas.PublicReview.properties.reviewer_email).toBeUndefined();
    expect(schemas.PublicReview.properties.custom_fields).toBeUndefined();
  });
});
