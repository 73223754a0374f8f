// Shoppers' signals over HTTP: a helpful vote counts once per visitor (its address, or an IPv6 /64) and
// shows on public answers at once (ETag, CDN purge, sort=helpful); a report is taken (202), reaches
// the business as an open report with its event, and hides nothing; both only on published reviews,
// both limited per address; the address is stored nowhere.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { createForm, freshIp, ownApiServer, postReviews } from '../../helpers/reviews.ts';

const server = ownApiServer();
const call = server.call;

let t: Tenant;
let other: Tenant;
const ids: Record<'old' | 'mid' | 'new' | 'hidden' | 'pending' | 'others', string> = {} as never;

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  const open = await createForm(call, t);
  const manual = await createForm(call, t, { verification_mode: 'manual' });
  [ids.old, ids.mid, ids.new, ids.hidden] = await postReviews(open.id, `signals-${t.org.id}`, [
    [5, 'Old', 'The oldest review', 'Ann'],
    [4, 'Mid', 'The middle review', 'Bob'],
    [3, 'New', 'The newest review', 'Cy'],
    [2, 'Hidden', 'A hidden review', 'Di'],
  ]);
  [ids.pending] = await postReviews(manual.id, `signals-pending-${t.org.id}`, [[1, null, 'Awaiting a check', 'Ed']]);
  [ids.others] = await postReviews((await createForm(call, other)).id, `signals-${other.org.id}`, [
    [5, null, "Another business's review", 'Flo'],
  ]);
  // Submitted one after the other: the feed's newest first is new, mid, old.
  const hide = await call('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${ids.hidden}/moderate`, {
    key: t.keys.write,
    body: { action: 'hide', reason: 'Off topic' },
  });
  expect(hide.status).toBe(200);
});

const visitor = (ip = freshIp(), agent = 'Mozilla/5.0 Firefox/130') => ({
  'x-forwarded-for': ip,
  'user-agent': agent,
});
const helpful = (reviewId: string, headers: Record<string, string> = visitor(), slug = t.org.slug) =>
  call('POST', `/api/v1/public/reviews/${slug}/${reviewId}/helpful`, { headers });
const report = (reviewId: string, body: unknown, headers: Record<string, string> = visitor(), slug = t.org.slug) =>
  call('POST', `/api/v1/public/reviews/${slug}/${reviewId}/reports`, { body, headers });
/** The address's window of votes or reports, full now and in the next minute: refused whenever the minute turns. */
async function fillWindows(kind: 'helpful' | 'report', ip: string) {
  const bucket = `${kind}:${createHash('sha256').update(ip).digest('hex')}`;
  await db`insert into plaudit.rate_limit_counters (bucket, window_start, hits)
           select ${bucket}, date_trunc('minute', now()) + make_interval(mins => m), 20 from generate_series(0, 1) m
           on conflict (bucket, window_start) do update set hits = 20`;
}

const feed = (query = '', headers: Record<string, string> = {}) =>
  call('GET', `/api/v1/public/profiles/${t.org.slug}/reviews${query}`, { headers });

describe('POST /api/v1/public/reviews/:slug/:reviewId/helpful', () => {
  it('counts one vote per address: a repeat changes nothing, another address is another visitor', async () => {
    const me = visitor();
    const [before] = await db`select updated_at from plaudit.reviews where id = ${ids.mid}`;
    const first = await helpful(ids.mid, me);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ helpful_count: 1 });
    expect(first.headers.get('x-ratelimit-limit')).toBe('20');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('19');
    expect((await helpful(ids.mid, me)).body).toEqual({ helpful_count: 1 });
    expect((await helpful(ids.mid)).body).toEqual({ helpful_count: 2 });
    // The review itself did not change: its updated_at stays.
    const [row] = await db`select helpful_count, updated_at from plaudit.reviews where id = ${ids.mid}`;
    expect(row).toEqual({ helpful_count: 2, updated_at: before.updated_at });
  });

  it('counts one vote per address however often its user agent changes, and per IPv6 /64', async () => {
    const [{ helpful_count: before }] = await db`select helpful_count from plaudit.reviews where id = ${ids.mid}`;
    const ip = freshIp();
    for (const browser of ['Firefox/130', 'Chrome/129', 'Safari/17', 'Edge/128', 'curl/8', '']) {
      expect((await helpful(ids.mid, visitor(ip, browser))).body).toEqual({ helpful_count: before + 1 });
    }
    const prefix = `2001:db8:${((Math.random() * 0xffff) | 0).toString(16)}:7`;
    for (const host of ['::1', ':1:2:3:4', ':ffff:0:0:9']) {
      expect((await helpful(ids.mid, visitor(`${prefix}${host}`))).body).toEqual({ helpful_count: before + 2 });
    }
    const [{ n }] = await db`select count(*)::int as n from plaudit.review_votes where review_id = ${ids.mid}`;
    expect(n).toBe(before + 2);
  });

  it('stores no address: only a keyed hash of the visitor, and a hashed rate bucket', async () => {
    const ip = freshIp();
    expect((await helpful(ids.old, visitor(ip))).status).toBe(200);
    const votes =
      await db`select encode(visitor_hash, 'hex') as h from plaudit.review_votes where review_id = ${ids.old}`;
    expect(votes).toHaveLength(1);
    const digest = createHash('sha256').update(ip).digest('hex');
    expect(votes[0].h).toMatch(/^[0-9a-f]{64}$/);
    expect(votes[0].h).not.toBe(digest);
    const buckets = await db`select bucket from plaudit.rate_limit_counters where bucket like ${'%' + ip + '%'}
                              or bucket = ${'helpful:' + createHash('sha256').update(ip).digest('hex')}`;
    expect(buckets.map((b) => b.bucket)).toEqual([`helpful:${createHash('sha256').update(ip).digest('hex')}`]);
  });

  it('shows on public answers at once: helpful_count, a new ETag, sort=helpful, a CDN purge', async () => {
    const before = await feed();
    expect(before.status).toBe(200);
    const etag = before.headers.get('etag')!;
    await db`update plaudit.cdn_purges set status = 'sent' where org_id = ${t.org.id} and status = 'pending'`;
    expect((await helpful(ids.new)).status).toBe(200);
    const after = await feed('', { 'if-none-match': etag });
    expect(after.status).toBe(200);
    const counts = Object.fromEntries(after.body.data.map((r: any) => [r.id, r.helpful_count]));
    expect(counts[ids.new]).toBe(1);
    const [pending] = await db`select count(*)::int as n from plaudit.cdn_purges
                                where org_id = ${t.org.id} and status = 'pending'`;
    expect(pending.n).toBe(1);
    // Most helpful first, ties newest first.
    const sorted = await feed('?sort=helpful');
    const order = sorted.body.data.map((r: any) => [r.id, r.helpful_count]);
    expect(order).toEqual([[ids.mid, 4], [ids.new, 1], [ids.old, 1]]);
    const embed = await call('GET', `/api/v1/public/reviews/${t.org.slug}?sort=helpful&limit=1`);
    expect(embed.body.data.map((r: any) => r.id)).toEqual([ids.mid]);
  });

  it('answers 404 for a review that is not published under this slug, and counts nothing', async () => {
    const missing = errorBody(404, 'Not Found', /^Review not found$/);
    for (
      const [id, slug] of [[ids.hidden, t.org.slug], [ids.pending, t.org.slug], [ids.others, t.org.slug], [
        crypto.randomUUID(),
        t.org.slug,
      ], [ids.old, 'no-such-business']]
    ) {
      const res = await helpful(id, visitor(), slug);
      expect(res.status, `${id} ${slug}`).toBe(404);
      expect(res.body).toEqual(missing);
    }
    const [row] = await db`select sum(helpful_count)::int as n from plaudit.reviews
                            where id = any (${[ids.hidden, ids.pending, ids.others]}::uuid[])`;
    expect(row.n).toBe(0);
  });

  it('answers 400 for a malformed review id, naming it', async () => {
    const res = await call('POST', `/api/v1/public/reviews/${t.org.slug}/not-a-uuid/helpful`, { headers: visitor() });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'Bad Request', /reviewId/));
  });

  it('lets any site vote and report (CORS preflight and answer)', async () => {
    const origin = 'https://shop.example';
    for (const path of [`${ids.old}/helpful`, `${ids.old}/reports`]) {
      const preflight = await call('OPTIONS', `/api/v1/public/reviews/${t.org.slug}/${path}`, {
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    }
    const res = await helpful(ids.old, { ...visitor(), origin });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('POST /api/v1/public/reviews/:slug/:reviewId/reports', () => {
  it('takes a report (202): open for the business, with its event; the review stays published', async () => {
    const me = visitor();
    const res = await report(ids.old, { reason: 'fake', details: '  Never sold here.  ', extra: 'ignored' }, me);
    expect(res.status).toBe(202);
    expect(res.body).toBe('');
    // A repeat while it is open is taken and changes nothing.
    expect((await report(ids.old, { reason: 'spam' }, me)).status).toBe(202);
    const rows = await db`select reason, details, status, octet_length(reporter_hash) as hash_bytes
                            from plaudit.review_reports where review_id = ${ids.old}`;
    expect(rows).toEqual([{ reason: 'fake', details: 'Never sold here.', status: 'open', hash_bytes: 32 }]);
    const events = await db`select data from plaudit.events where type = 'review.reported' and org_id = ${t.org.id}`;
    expect(events.map((e) => e.data)).toEqual([{
      id: ids.old,
      form_id: expect.any(String),
      product: null,
      report_id: expect.any(String),
      reason: 'fake',
      details: 'Never sold here.',
      kind: 'policy',
      legal_ground: null,
      reported_at: expect.stringMatching(/Z$/),
    }]);
    const page = await feed();
    expect(page.body.data.map((r: any) => r.id)).toContain(ids.old);
    const [review] = await db`select is_hidden from plaudit.reviews where id = ${ids.old}`;
    expect(review.is_hidden).toBe(false);
  });

  it('keeps one open report per address and review: another user agent, or twelve, answer 202 and add nothing', async () => {
    const ip = freshIp();
    const first = await report(ids.mid, { reason: 'spam', details: 'First' }, visitor(ip));
    expect(first.status).toBe(202);
    for (let i = 0; i < 11; i++) {
      const again = await report(ids.mid, { reason: 'fake', details: `Again ${i}` }, visitor(ip, `Agent/${i}`));
      expect(again.status).toBe(202);
    }
    const rows =
      await db`select details from plaudit.review_reports where review_id = ${ids.mid} and details like 'First%'
                           or review_id = ${ids.mid} and details like 'Again%'`;
    expect(rows).toEqual([{ details: 'First' }]);
    // Another address reports on its own.
    expect((await report(ids.mid, { reason: 'spam', details: 'Again elsewhere' })).status).toBe(202);
  });

  it('refuses what is not a report (422, naming the field) and stores nothing', async () => {
    const before = await db`select count(*)::int as n from plaudit.review_reports where org_id = ${t.org.id}`;
    const cases: [unknown, RegExp][] = [
      [{}, /^reason: /],
      [{ reason: 'boring' }, /^reason: /],
      [{ reason: 'spam', details: 'x'.repeat(2001) }, /^details: /],
      [{ reason: 'spam', details: 7 }, /^details: /],
    ];
    for (const [body, message] of cases) {
      const res = await report(ids.mid, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', message));
    }
    const malformed = await call('POST', `/api/v1/public/reviews/${t.org.slug}/${ids.mid}/reports`, {
      rawBody: '{"reason":',
      headers: { ...visitor(), 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(errorBody(400, 'Bad Request', 'Malformed JSON in request body'));
    const after = await db`select count(*)::int as n from plaudit.review_reports where org_id = ${t.org.id}`;
    expect(after[0].n).toBe(before[0].n);
  });

  it('answers 404 for a review that is not published under this slug', async () => {
    for (const id of [ids.hidden, ids.pending, ids.others]) {
      const res = await report(id, { reason: 'spam' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorBody(404, 'Not Found', /^Review not found$/));
    }
  });
});

describe('the per-address limit of votes and reports', () => {
  it('answers 429 with the headers and Retry-After past the limit, and counts nothing', async () => {
    const ip = freshIp();
    await fillWindows('helpful', ip);
    const limited = await helpful(ids.old, visitor(ip));
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(errorBody(429, 'Too Many Requests', /^Rate limit of 20 requests per minute exceeded/));
    expect(limited.headers.get('x-ratelimit-limit')).toBe('20');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Reports have a window of their own, as full: refused too, and stored nowhere.
    await fillWindows('report', ip);
    const before = await db`select count(*)::int as n from plaudit.review_reports`;
    const refused = await report(ids.new, { reason: 'spam' }, visitor(ip));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect((await db`select count(*)::int as n from plaudit.review_reports`)[0].n).toBe(before[0].n);
    // Another address is not affected.
    expect((await report(ids.new, { reason: 'spam' })).status).toBe(202);
  });
});

describe("the pages' forms: /p/:slug/reviews/:reviewId/helpful and /report", () => {
  const form = (path: string, fields: Record<string, string>, ip = freshIp()) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip, 'user-agent': 'Pages/1' },
      body: new URLSearchParams(fields),
    });
  const pagePath = (id: string, what: string) => `/p/${t.org.slug}/reviews/${id}/${what}`;

  it('counts the vote and sends the visitor back to the list it came from, never elsewhere', async () => {
    const [{ helpful_count: before }] = await db`select helpful_count from plaudit.reviews where id = ${ids.old}`;
    const res = await form(pagePath(ids.old, 'helpful'), { back: `/p/${t.org.slug}?sort=helpful&helpful=x&page=1` });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      `/p/${t.org.slug}?sort=helpful&page=1&helpful=${ids.old}#review-${ids.old}`,
    );
    const [{ helpful_count: after }] = await db`select helpful_count from plaudit.reviews where id = ${ids.old}`;
    expect(after).toBe(before + 1);
    for (const back of ['https://evil.example/p/x', '//evil.example', `/p/${other.org.slug}`, '/app', '']) {
      const away = await form(pagePath(ids.old, 'helpful'), { back });
      expect(away.headers.get('location'), back).toMatch(new RegExp(`^/p/${t.org.slug}\\?helpful=`));
    }
  });

  it('answers a page of its own for a review that is not published, and when the address is past its limit', async () => {
    const hidden = await form(pagePath(ids.hidden, 'helpful'), {});
    expect(hidden.status).toBe(404);
    expect(await hidden.text()).toContain('Review not found');
    expect((await form(pagePath('not-a-uuid', 'report'), { reason: 'spam' })).status).toBe(404);
    // The report form of a review that is not published here shows nothing of it.
    for (const [slug, id] of [[t.org.slug, ids.hidden], [other.org.slug, ids.mid]]) {
      const page = await fetch(`${server.url}/p/${slug}/reviews/${id}/report`);
      expect(page.status).toBe(404);
      expect(await page.text()).not.toContain('The review you are reporting');
    }
    const ip = freshIp();
    await fillWindows('report', ip);
    const limited = await form(pagePath(ids.mid, 'report'), { reason: 'spam' }, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.text()).toContain('Wait a minute');
  });

  it('asks again for a report without a reason (422) and takes one with it', async () => {
    const missing = await form(pagePath(ids.new, 'report'), { details: 'Odd' });
    expect(missing.status).toBe(422);
    const html = await missing.text();
    expect(html).toContain('Choose what is wrong with the review.');
    expect(html).toContain('>Odd</textarea>');
    // Asked again under the review it is about.
    expect(html).toContain('<figcaption id="reported-title">The review you are reporting</figcaption>');
    const taken = await form(pagePath(ids.new, 'report'), { reason: 'conflict_of_interest', details: 'The owner' });
    expect(taken.status).toBe(200);
    expect(await taken.text()).toContain('Thank you for your report');
    const rows = await db`select reason, details from plaudit.review_reports where review_id = ${ids.new}
                           and reason = 'conflict_of_interest'`;
    expect(rows).toEqual([{ reason: 'conflict_of_interest', details: 'The owner' }]);
  });
});
