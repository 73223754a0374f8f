// privacy-erasure: `POST …/privacy/erasures` for an address with 1,000 reviews
// (BENCH_ERASURE_PER_ADDRESS) in an organization of 100,000 (BENCH_ERASURE_REVIEWS), each review
// with its review.created event in the outbox (the 30 days of events an erasure reads), timed
// over HTTP for five addresses one after the other. Target: at most 2 s an erasure.
import { positive } from '../stats.mjs';

const ADDRESSES = 5;

const scenario = {
  name: 'privacy-erasure',
  description: 'erasure of an address with 1,000 reviews among 100,000, with their events, over HTTP (target ≤ 2 s)',
  async run(ctx) {
    const { stack } = ctx;
    const sql = stack.sql;
    const total = positive(ctx.env, 'BENCH_ERASURE_REVIEWS', 100_000);
    const perAddress = positive(ctx.env, 'BENCH_ERASURE_PER_ADDRESS', 1_000);
    if (perAddress * ADDRESSES > total) throw new Error('BENCH_ERASURE_REVIEWS must hold five addresses');
    const [org] = await sql`insert into plaudit.organizations (name, slug) values ('Erasure bench', 'erasure-bench')
                            returning id`;
    const [form] = await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Bench') returning id`;
    const [key] = await sql`select key from plaudit.issue_api_key(${org.id}, 'bench admin key', 'admin')`;
    ctx.log(`seeding ${total.toLocaleString('en')} reviews and their events, ${ADDRESSES} addresses of ${perAddress}`);
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      // The first ADDRESSES × perAddress reviews belong to the addresses erased, the rest to one each.
      await tx`
        insert into plaudit.reviews (org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                                     custom_fields, verification_status, created_at)
        select ${org.id}, ${form.id}, 1 + i % 5, 'Review ' || i, 'A bench review about a mug, number ' || i,
               'Reviewer ' || i,
               case when i <= ${ADDRESSES * perAddress} then 'erase-' || (1 + (i - 1) / ${perAddress}) || '@example.com'
                    else 'reviewer-' || i || '@example.com' end,
               jsonb_build_object('city', 'Oslo'), 'unverified',
               timestamptz '2026-01-01 00:00:00+00' + make_interval(secs => i * 60)
          from generate_series(1, ${total}::integer) i`;
      await tx`
        insert into plaudit.events (org_id, type, data, created_at)
        select r.org_id, 'review.created',
               jsonb_build_object('id', r.id, 'form_id', r.form_id, 'product', null, 'rating', r.rating,
                                  'title', r.title, 'content', r.content, 'reviewer_name', r.reviewer_name,
                                  'verification_status', r.verification_status, 'custom_fields', r.custom_fields,
                                  'created_at', plaudit.iso_utc(r.created_at)),
               now()
          from plaudit.reviews r where r.org_id = ${org.id}`;
    });
    await sql`select plaudit.rebuild_review_statistics(${org.id})`;
    await sql`vacuum (analyze) plaudit.reviews, plaudit.events`;

    const url = `${stack.api.url}/api/v1/organizations/${org.id}/privacy/erasures`;
    const seconds = [];
    for (let k = 1; k <= ADDRESSES; k++) {
      const started = performance.now();
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: `erase-${k}@example.com`, redact_content: k % 2 === 0 }),
      });
      const body = await res.json();
      seconds.push((performance.now() - started) / 1000);
      if (res.status !== 200 || body.reviews !== perAddress) {
        throw new Error(`erasure ${k} answered ${res.status}: ${JSON.stringify(body)}`);
      }
    }
    const [{ valid }] = await sql`select valid from plaudit.verify_moderation_chain(${org.id})`;
    if (!valid) throw new Error('the moderation chain does not verify after the erasures');
    const sorted = [...seconds].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    ctx.log(`erasures: ${seconds.map((s) => s.toFixed(2)).join(' s, ')} s`);
    return {
      rows: [
        {
          name: `erasure of ${perAddress} reviews, median of ${ADDRESSES} (reviews/s; ${median.toFixed(2)} s)`,
          rps: perAddress / median,
        },
        { name: `the slowest (reviews/s; ${sorted.at(-1).toFixed(2)} s)`, rps: perAddress / sorted.at(-1) },
      ],
      ratios: [{ name: 'slowest erasure ÷ 2 s budget (≤ 1 meets it)', value: sorted.at(-1) / 2 }],
    };
  },
};

export default scenario;
