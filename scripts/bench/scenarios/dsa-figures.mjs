// dsa-figures: the yearly DSA transparency figures (GET …/transparency/dsa?year=, the same SQL the
// public transparency page calls) of one business with a year of 100,000 reviews
// (BENCH_DSA_REVIEWS) and 5,000 notices (BENCH_DSA_NOTICES), next to the least a recount from the
// trail must do: a bare count(*) of that year's moderation trail entries. The route's SQL runs as
// the route runs it: as plaudit_api, under the tenant's RLS, in a transaction naming the tenant.
// Target (issue 31): the figures take at most twice the bare count, reported as count ÷ figures ≥ 0.5.
// The trail is seeded directly (a verification entry a review, an entry a hide, an appeal and its
// decision), each entry with a made-up hash: the figures never read a hash, and appending 100,000
// entries one at a time through the chain would only slow the seeding. Each figure is the median
// of BENCH_DSA_RUNS calls made one after another, after one to warm up.
import { positive, timedMedian } from '../stats.mjs';

async function seed(sql, { reviews, notices, year }, log) {
  const [org] = await sql`
    insert into plaudit.organizations (name, slug) values ('DSA bench', 'dsa-bench') returning id`;
  const [form] = await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Bench') returning id`;
  const since = `${year}-01-01T00:00:00Z`;
  log(`seeding ${reviews} reviews and their trail in ${year}, ${notices} notices, their statements and appeals`);
  await sql`
    insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status,
                                 verification_method, created_at)
    select ${org.id}::uuid, ${form.id}, 1 + g % 5, 'Review ' || g, 'Reviewer', 'r' || g || '@example.com', 'verified', 'email',
           ${since}::timestamptz + (g % 360) * interval '1 day' + (g % 1440) * interval '1 minute'
      from generate_series(1, ${reviews}) g`;
  // Notices of the year: a fifth illegal; nine in ten decided, 2 to 72 hours later, four in ten hidden.
  await sql`
    insert into plaudit.review_reports (org_id, review_id, reason, reporter_hash, kind, legal_ground, good_faith, status,
                                        decision, resolution, resolved_at, resolved_by, created_at)
    select ${org.id}::uuid, r.id, 'other', sha256(('n' || r.n)::bytea),
           case when r.n % 5 = 0 then 'illegal' else 'policy' end,
           case when r.n % 5 = 0 then 'Defamation law' end, true,
           case when r.n % 10 = 0 then 'open' else 'resolved' end,
           case when r.n % 10 = 0 then null when r.n % 10 < 5 then 'hidden' else 'kept' end,
           case when r.n % 10 = 0 then null else 'Decided' end,
           case when r.n % 10 = 0 then null else r.created_at + (2 + r.n % 70) * interval '1 hour' end,
           case when r.n % 10 = 0 then null else 'member:bench' end,
           r.created_at + interval '1 hour'
      from (select id, created_at, row_number() over (order by created_at) as n
              from plaudit.reviews where org_id = ${org.id} order by created_at limit ${notices}) r`;
  // A statement for every hide: the notices' and as many again on the business's own initiative
  // (moderation by a person, or automatic holds), on a few grounds.
  await sql`
    insert into plaudit.review_statements (org_id, review_id, facts, automated, ground_type, ground, source, report_id,
                                           actor, appeal_token_hash, created_at)
    select ${org.id}::uuid, p.review_id, 'Facts', false, 'policy', 'Clause ' || (p.n % 4), 'report', p.id, 'member:bench',
           sha256(('s' || p.id)::bytea), p.resolved_at
      from (select id, review_id, resolved_at, row_number() over () as n from plaudit.review_reports
             where org_id = ${org.id} and decision = 'hidden') p
    union all
    select ${org.id}::uuid, r.id, 'Facts', r.n % 3 = 0, case when r.n % 7 = 0 then 'law' else 'policy' end,
           'Clause ' || (r.n % 6), case when r.n % 3 = 0 then 'automatic' else 'moderation' end, null, 'member:bench',
           sha256(('o' || r.id)::bytea), r.created_at + interval '3 hours'
      from (select id, created_at, row_number() over (order by created_at desc) as n
              from plaudit.reviews where org_id = ${org.id} order by created_at desc limit ${notices / 2}) r`;
  // An appeal against one statement in five, four in five decided.
  await sql`
    insert into plaudit.review_appeals (org_id, review_id, statement_id, text, status, resolution, decided_at, decided_by,
                                        created_at)
    select ${org.id}::uuid, s.review_id, s.id, 'I was fair',
           case when s.n % 5 = 0 then 'open' when s.n % 2 = 0 then 'upheld' else 'reversed' end,
           case when s.n % 5 = 0 then null else 'Reasons' end,
           case when s.n % 5 = 0 then null else s.created_at + interval '2 days' end,
           case when s.n % 5 = 0 then null else 'member:bench' end,
           s.created_at + interval '1 day'
      from (select id, review_id, created_at, row_number() over (order by created_at) as n
              from plaudit.review_statements where org_id = ${org.id}) s
     where s.n % 5 = 1`;
  // The year's trail: a verification a review, a hide a statement, an appeal and its decision.
  await sql`
    insert into plaudit.moderation_trail (org_id, seq, review_id, action, reason, actor, created_at, previous_hash, hash)
    select ${org.id}::uuid, row_number() over (order by e.at), e.review_id, e.action, e.reason, 'database:bench', e.at,
           sha256(('p' || e.review_id || e.action)::bytea), sha256(('h' || e.review_id || e.action)::bytea)
      from (select id as review_id, 'verify' as action, null as reason, created_at as at
              from plaudit.reviews where org_id = ${org.id}
            union all
            select review_id, 'hide', facts, created_at from plaudit.review_statements where org_id = ${org.id}
            union all
            select review_id, 'appeal', null, created_at from plaudit.review_appeals where org_id = ${org.id}
            union all
            select review_id, case status when 'upheld' then 'uphold_appeal' else 'reverse_appeal' end, resolution,
                   decided_at
              from plaudit.review_appeals where org_id = ${org.id} and decided_at is not null) e`;
  for (const t of ['reviews', 'review_reports', 'review_statements', 'review_appeals', 'moderation_trail']) {
    await sql.unsafe(`analyze plaudit.${t}`);
  }
  const [{ n }] = await sql`select count(*)::int as n from plaudit.moderation_trail where org_id = ${org.id}`;
  return { orgId: org.id, trail: n };
}

const scenario = {
  name: 'dsa-figures',
  description:
    "the DSA figures of a year of 100,000 reviews and 5,000 notices, as the route's SQL runs them, next to a bare count of the year's trail entries (target ≤ 2×)",
  async run(ctx) {
    const { stack } = ctx;
    const reviews = positive(ctx.env, 'BENCH_DSA_REVIEWS', 100_000);
    const notices = positive(ctx.env, 'BENCH_DSA_NOTICES', 5_000);
    const runs = positive(ctx.env, 'BENCH_DSA_RUNS', 25);
    const year = new Date().getUTCFullYear() - 1;
    const { orgId, trail } = await seed(stack.sql, { reviews, notices, year }, ctx.log);
    const figures = await timedMedian(runs, () =>
      stack.sql.begin(async (tx) => {
        await tx`set local role plaudit_api`;
        await tx`select set_config('plaudit.org_id', ${orgId}, true)`;
        const [row] = await tx`select plaudit.dsa_transparency(${year}) as report`;
        if (row.report.notices.received.total !== notices) {
          throw new Error(`the figures counted ${row.report.notices.received.total} notices, not ${notices}`);
        }
      }));
    const count = await timedMedian(runs, () =>
      stack.sql.begin(async (tx) => {
        await tx`
          select count(*) from plaudit.moderation_trail
           where org_id = ${orgId}
             and created_at >= make_timestamptz(${year}, 1, 1, 0, 0, 0, 'UTC')
             and created_at < make_timestamptz(${year + 1}, 1, 1, 0, 0, 0, 'UTC')`;
      }));
    const perSecond = (ms) => 1000 / ms;
    return {
      rows: [
        {
          name: `plaudit.dsa_transparency(${year}) as plaudit_api (calls/s; median ${figures.toFixed(1)} ms)`,
          rps: perSecond(figures),
        },
        {
          name: `count(*) of the year's ${trail} trail entries, plain SQL (calls/s; median ${count.toFixed(1)} ms)`,
          rps: perSecond(count),
        },
      ],
      ratios: [
        {
          name: 'bare count time ÷ DSA figures time',
          value: count / figures,
          target: 0.5,
          pass: count / figures >= 0.5,
        },
        { name: 'DSA figures time ÷ bare count time (target ≤ 2)', value: figures / count },
      ],
    };
  },
};

export default scenario;
