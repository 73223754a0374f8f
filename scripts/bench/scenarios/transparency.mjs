// transparency: the public transparency report of one business with 100,000 reviews written over
// the last year (BENCH_TRANSPARENCY_REVIEWS) and 1,000 hides, over HTTP, fresh (200) and
// revalidated (304), next to the least the report must do: one count of that year's reviews
// through the same index, as plain SQL. Each figure is the median of BENCH_TRANSPARENCY_RUNS calls
// made one after another (the report is read one reader at a time; caches do the rest).
import { positive, timedMedian } from '../stats.mjs';

async function seed(sql, reviews, log) {
  const [org] = await sql`
    insert into plaudit.organizations (name, slug) values ('Transparency bench', 'transparency-bench') returning id`;
  const [form] = await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Bench') returning id`;
  log(`seeding ${reviews} reviews over the last year and 1,000 hides`);
  await sql`
    insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status,
                                 verification_method, is_hidden, created_at, incentive, source)
    select ${org.id}, ${form.id}, 1 + g % 5, 'Review ' || g, 'Reviewer', 'r' || g || '@example.com',
           (array['unverified', 'verified', 'pending', 'rejected'])[1 + g % 4],
           case when g % 4 in (1, 3) then (array['email', 'purchase_proof', 'manual'])[1 + g % 3] end,
           g % 50 = 0, now() - (g % 720) * interval '12 hours',
           case when g % 10 = 0 then '{"type":"gift","description":"A tote bag"}'::jsonb end,
           case when g % 7 = 0 then 'invitation' else 'form' end
      from generate_series(1, ${reviews}) g`;
  const [one] = await sql`select id from plaudit.reviews where org_id = ${org.id} limit 1`;
  for (let i = 0; i < 1000; i++) {
    await sql`select plaudit.append_moderation_entry(${org.id}, ${one.id}, 'hide', ${`Reason ${
      i % 7
    }`}, 'database:bench')`;
  }
  await sql`analyze plaudit.reviews`;
  await sql`analyze plaudit.moderation_trail`;
  return org.id;
}

const scenario = {
  name: 'transparency',
  description:
    'the transparency report of a business with 100,000 reviews in a year, fresh and revalidated, next to a bare count of the same year',
  async run(ctx) {
    const { stack } = ctx;
    const reviews = positive(ctx.env, 'BENCH_TRANSPARENCY_REVIEWS', 100_000);
    const runs = positive(ctx.env, 'BENCH_TRANSPARENCY_RUNS', 15);
    const orgId = await seed(stack.sql, reviews, ctx.log);
    const url = `${stack.api.url}/api/v1/public/transparency/transparency-bench`;
    let etag = '';
    const fresh = await timedMedian(runs, async () => {
      const res = await fetch(url);
      if (res.status !== 200) throw new Error(`the report answered ${res.status}`);
      etag = res.headers.get('etag') ?? '';
      await res.arrayBuffer();
    });
    const revalidated = await timedMedian(runs, async () => {
      const res = await fetch(url, { headers: { 'if-none-match': etag } });
      if (res.status !== 304) throw new Error(`a revalidation answered ${res.status}`);
    });
    const count = await timedMedian(runs, () =>
      stack.sql`
        select count(*) from plaudit.reviews
         where org_id = ${orgId}
           and created_at >= (date_trunc('month', now() at time zone 'UTC') - interval '11 months') at time zone 'UTC'`);
    const perSecond = (ms) => 1000 / ms;
    return {
      rows: [
        { name: `GET /public/transparency/:slug, 200 (calls/s; median ${fresh.toFixed(1)} ms)`, rps: perSecond(fresh) },
        {
          name: `the same with a current If-None-Match, 304 (calls/s; median ${revalidated.toFixed(1)} ms)`,
          rps: perSecond(revalidated),
        },
        {
          name: `count(*) of the year's reviews, plain SQL (calls/s; median ${count.toFixed(1)} ms)`,
          rps: perSecond(count),
        },
      ],
      ratios: [
        { name: 'report (200) time ÷ bare count time', value: fresh / count },
        { name: 'revalidation (304) time ÷ report (200) time', value: revalidated / fresh },
      ],
    };
  },
};

export default scenario;
