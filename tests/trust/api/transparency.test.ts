// The transparency report over HTTP: every figure of a dataset built to know them (reviews of
// every month, state, verification method, source and incentive; hides in three months with
// their reasons; forms of each mode), its caching (ETag, 304, cache keys), and its 404s.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';

const orgPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}`;
const reportPath = (t: Tenant) => `/api/v1/public/transparency/${t.org.slug}`;

let t: Tenant;
const forms: Record<string, string> = {};

/** The first day of the month `k` months before this one, plus `days` (UTC), as SQL computes it. */
const monthAgo = (k: number, days = 2) =>
  db`(date_trunc('month', now() at time zone 'UTC') - ${k} * interval '1 month' + ${days} * interval '1 day') at time zone 'UTC'`;

async function review(k: number, form: string, fields: Record<string, unknown> = {}) {
  const [{ at }] = await db`select ${monthAgo(k)} as at`;
  const row = {
    org_id: t.org.id,
    form_id: forms[form],
    rating: 4,
    content: `Written ${k} months ago`,
    reviewer_name: 'Ann',
    reviewer_email: 'ann@example.com',
    verification_status: 'unverified',
    created_at: at,
    ...fields,
  };
  const [r] = await db`insert into plaudit.reviews ${db(row)} returning id`;
  return r.id as string;
}

/** A hide recorded `k` months ago, chained as plaudit.append_moderation_entry chains one (with a past date). */
async function hideRecorded(k: number, reviewId: string, reason: string | null) {
  await db`
    with head as (
      select h.last_seq + 1 as seq, h.last_hash, ${monthAgo(k, 5)} as at
        from plaudit.moderation_chain_heads h where h.org_id = ${t.org.id}
    ), entry as (
      insert into plaudit.moderation_trail (org_id, seq, review_id, action, reason, actor, created_at, previous_hash, hash)
      select ${t.org.id}, head.seq, ${reviewId}, 'hide', ${reason}, 'database:test', head.at, head.last_hash,
             plaudit.moderation_entry_hash(head.last_hash, ${t.org.id}, head.seq, ${reviewId}, 'hide', ${reason},
                                           'database:test', head.at)
        from head
      returning seq, hash, created_at
    )
    update plaudit.moderation_chain_heads h set last_seq = entry.seq, last_hash = entry.hash, updated_at = entry.created_at
      from entry where h.org_id = ${t.org.id}`;
}

beforeAll(async () => {
  t = await createTenant();
  for (const mode of ['none', 'email', 'purchase_proof', 'manual']) {
    const res = await api('POST', `${orgPath(t)}/review-forms`, {
      key: t.keys.write,
      body: { name: mode, verification_mode: mode },
    });
    forms[mode] = res.body.id;
  }
  // Neither an inactive nor a deleted form counts among the forms.
  const inactive = await api('POST', `${orgPath(t)}/review-forms`, {
    key: t.keys.write,
    body: { name: 'off', verification_mode: 'manual', is_active: false },
  });
  expect(inactive.status).toBe(201);
  const deleted = await api('POST', `${orgPath(t)}/review-forms`, { key: t.keys.write, body: { name: 'gone' } });
  await api('DELETE', `${orgPath(t)}/review-forms/${deleted.body.id}`, { key: t.keys.write });
  const product = await api('POST', `${orgPath(t)}/products`, {
    key: t.keys.write,
    body: { external_id: 'MUG', name: 'Mug' },
  });
  await db`insert into plaudit.public_profiles (org_id, embed_min_rating) values (${t.org.id}, 3)`;
  await db`insert into plaudit.moderation_chain_heads (org_id, last_seq, last_hash)
           values (${t.org.id}, 0, '\\x0000000000000000000000000000000000000000000000000000000000000000')`;

  // Older than the twelve months: counted all time only.
  await review(14, 'none');
  await review(13, 'none', { is_hidden: true });
  // The twelve months: one published review per verification method, an import, a product's review.
  await review(1, 'email', { verification_status: 'verified', verification_method: 'email' });
  await review(2, 'purchase_proof', {
    verification_status: 'verified',
    verification_method: 'purchase_proof',
    incentive: db.json({ type: 'discount', description: '10% off' }),
  });
  await review(3, 'manual', { verification_status: 'verified', verification_method: 'manual' });
  await review(4, 'none', {
    verification_status: 'verified',
    verification_method: 'invitation',
    source: 'invitation',
    incentive: db.json({ type: 'gift', description: 'A tote bag' }),
  });
  await review(5, 'none', { source: 'import', source_platform: 'judgeme', imported_as_verified: true });
  await review(1, 'none', { product_id: product.body.id });
  // Not published: waiting, rejected, and hidden in three months with their reasons.
  await review(6, 'email', { verification_status: 'pending' });
  await review(7, 'manual', { verification_status: 'rejected', verification_method: 'manual' });
  const eight = await review(8, 'none', { is_hidden: true });
  await hideRecorded(8, eight, 'Offensive language');
  // Hidden again later, by SQL without a reason (a review hidden twice counts twice).
  await hideRecorded(7, eight, null);
  await hideRecorded(9, await review(9, 'none', { is_hidden: true }), 'Personal data');
  await hideRecorded(9, await review(9, 'none', { is_hidden: true }), 'Offensive language');
  // This month: written and hidden through the API.
  const sent = await api('POST', '/api/v1/reviews', {
    body: {
      form_id: forms.none,
      rating: 1,
      content: 'Buy cheap watches',
      reviewer_name: 'Bot',
      reviewer_email: 'b@example.com',
    },
  });
  const hidden = await api('PATCH', `${orgPath(t)}/reviews/${sent.body.id}/moderate`, {
    key: t.keys.write,
    body: { action: 'hide', reason: 'Spam' },
  });
  expect(hidden.status).toBe(200);
});

describe('GET /public/transparency/:slug', () => {
  it('answers every figure as the data holds it', async () => {
    const res = await api('GET', reportPath(t));
    expect(res.status).toBe(200);
    const [since] = await db`
      select to_char(date_trunc('month', now() at time zone 'UTC') - interval '11 months', 'YYYY-MM-DD') as day`;
    const months = await db`
      select to_char(date_trunc('month', now() at time zone 'UTC') - k * interval '1 month', 'YYYY-MM') as m
        from generate_series(11, 0, -1) k`;
    const month = (k: number) => months[11 - k].m as string;
    const [head] = await db`select last_seq, encode(last_hash, 'hex') as hash
                            from plaudit.moderation_chain_heads where org_id = ${t.org.id}`;
    expect(head.last_seq).toBe('5');
    const chain = await api('GET', `${orgPath(t)}/moderation-chain`, { key: t.keys.read });
    expect(chain.body).toMatchObject({ valid: true });

    const r = res.body;
    expect(r).toMatchObject({
      slug: t.org.slug,
      name: t.org.name,
      url: expect.stringMatching(new RegExp(`/p/${t.org.slug}/transparency$`)),
      period: { since: since.day, months: 12 },
      received: { all_time: 14, last_12_months: 12 },
      published: { all_time: 7, last_12_months: 6 },
      not_published_last_12_months: { pending: 1, rejected: 1, hidden: 4 },
      verification_last_12_months: { email: 1, purchase_proof: 1, manual: 1, invitation: 1, unverified: 2 },
      shares_last_12_months: {
        verified: { count: 4, share: 0.6667 },
        incentivized: { count: 2, share: 0.3333 },
        imported: { count: 1, share: 0.1667 },
      },
      ordering: {
        default: 'newest',
        orders: ['newest', 'oldest', 'highest', 'lowest', 'helpful'],
        by_payment: false,
        by_rating_only_when_chosen: true,
        widget_min_rating: 3,
        statement: expect.stringContaining('Nothing is ordered by payment, and nothing by rating unless the reader'),
      },
      publication: {
        all_published: false,
        forms_by_verification_mode: { none: 1, email: 1, purchase_proof: 1, manual: 1 },
        statement: expect.stringContaining('published only after the business approves each one'),
      },
      moderation_chain: {
        entries: 5,
        head: head.hash,
        check_url: expect.stringContaining(
          `/api/v1/organizations/${t.org.id}/moderation-chain?entries=5&head=${head.hash}`,
        ),
      },
    });
    expect(r.ordering.statement).toContain('widget shows only reviews rated 3 or more');
    const expected = months.map(({ m }) => ({ month: m, hidden: 0, reasons: [] as unknown[] }));
    expected[11 - 9] = {
      month: month(9),
      hidden: 2,
      reasons: [{ reason: 'Offensive language', count: 1 }, { reason: 'Personal data', count: 1 }],
    };
    expected[11 - 8] = { month: month(8), hidden: 1, reasons: [{ reason: 'Offensive language', count: 1 }] };
    expected[11 - 7] = { month: month(7), hidden: 1, reasons: [{ reason: 'No reason given', count: 1 }] };
    expected[11] = { month: month(0), hidden: 1, reasons: [{ reason: 'Spam', count: 1 }] };
    expect(r.hidden_by_month).toEqual(expected);
    // The sums agree with each other: received = published + what is not.
    const n = r.not_published_last_12_months;
    expect(r.published.last_12_months + n.pending + n.rejected + n.hidden).toBe(r.received.last_12_months);
  });

  it('is cached: ETag, Cache-Control and the cache key; a new review changes the ETag', async () => {
    const first = await api('GET', reportPath(t));
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect(first.headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=300');
    expect(first.headers.get('surrogate-key')).toBe(`org-${t.org.id}`);
    const again = await api('GET', reportPath(t), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    // A review waiting for verification is received, not published: the report changes all the same.
    const pending = await api('POST', '/api/v1/reviews', {
      body: {
        form_id: forms.email,
        rating: 5,
        content: 'Waiting.',
        reviewer_name: 'Cy',
        reviewer_email: 'c@example.com',
      },
    });
    expect(pending.body.verification_status).toBe('pending');
    const after = await api('GET', reportPath(t), { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.body.received.all_time).toBe(first.body.received.all_time + 1);
    expect(after.body.published).toEqual(first.body.published);
  });

  it('404 for an unknown slug and for a disabled profile; an empty business has zeros', async () => {
    expect((await api('GET', '/api/v1/public/transparency/no-such-business')).body)
      .toEqual(errorBody(404, 'Not Found', 'Business not found'));
    const off = await createTenant();
    await api('PATCH', `${orgPath(off)}/public-profile`, { key: off.keys.admin, body: { enabled: false } });
    expect((await api('GET', reportPath(off))).status).toBe(404);
    const empty = await createTenant();
    const res = await api('GET', reportPath(empty));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      received: { all_time: 0, last_12_months: 0 },
      published: { all_time: 0, last_12_months: 0 },
      shares_last_12_months: { verified: { count: 0, share: null } },
      publication: {
        all_published: true,
        forms_by_verification_mode: { none: 0, email: 0, purchase_proof: 0, manual: 0 },
      },
      moderation_chain: { entries: 0, head: null },
    });
    expect(res.body.hidden_by_month).toHaveLength(12);
  });
});
