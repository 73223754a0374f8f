// google-feed: the Google Product Ratings feed of 100,000 product reviews (BENCH_FEED_ROWS) over
// HTTP, next to `COPY (the same rows) TO STDOUT CSV` through psql on the same database. Also
// samples the API's memory while the feed streams (it must stay flat) and counts the API
// process's CPU time per feed: hosted Edge Functions allow about 2 s of CPU a request.
import { copyThroughPsql, rssMb } from '../copy.mjs';
import { cpuTicks } from '../cpu.mjs';

// The rows the feed reads, with the columns it writes, in its order.
const SAME_ROWS = (orgId) => `
  select r.id::text, r.reviewer_name, r.verification_status, r.verification_method, r.created_at, r.title, r.content,
         r.rating, p.external_id, p.name, p.url, p.gtin, p.mpn, p.sku, p.brand
  from plaudit.reviews r join plaudit.products p on p.id = r.product_id
  where r.org_id = '${orgId}' and r.product_id is not null and not r.is_hidden
    and r.verification_status in ('verified', 'unverified')
  order by r.product_id, r.created_at, r.id`;

async function seed(sql, rows, log) {
  const [org] = await sql`
    insert into plaudit.organizations (name, slug) values ('Feed bench & Co', 'feed-bench') returning id`;
  const [form] =
    await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Bench form') returning id`;
  await sql`insert into plaudit.public_profiles (org_id, google_product_feed) values (${org.id}, true)`;
  log(`seeding 1,000 products and ${rows} product reviews (triggers off for the seed)`);
  const started = Date.now();
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`
      insert into plaudit.products (org_id, external_id, name, url, gtin, mpn, sku, brand)
      select ${org.id}, 'SKU-' || g, 'Product ' || g || ' <deluxe> & more', 'https://shop.example/p/' || g,
             case when g % 2 = 0 then '4006381333931' end, 'MPN-' || g, 'SKU-' || g, 'Brand ' || (g % 7)
      from generate_series(1, 1000) g`;
    await tx`
      insert into plaudit.reviews (org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                                   verification_status, verification_method, product_id, created_at)
      select ${org.id}, ${form.id}, 1 + g % 5,
             case when g % 3 = 0 then null else 'Review title ' || g end,
             (array['Great product, fast delivery. Would buy again!',
                    'Markup <b>stays</b> text & so does ]]>',
                    E'Two lines:\nstill the same review, with commas',
                    'A plain, longer review that says the product works and the parcel arrived on time.',
                    'Très bien 👍 — emoji and accents'])[1 + g % 5] || ' #' || g,
             'Reviewer ' || g, 'reviewer' || g || '@example.com',
             case when g % 4 = 0 then 'unverified' else 'verified' end,
             case when g % 4 = 0 then null else (array['email', 'purchase_proof', 'invitation'])[1 + g % 3] end,
             (select id from plaudit.products where org_id = ${org.id} and external_id = 'SKU-' || (1 + g % 1000)),
             timestamptz '2025-01-01 00:00:00+00' + g * interval '20 seconds'
      from generate_series(1, ${rows}) g`;
  });
  await sql`select plaudit.rebuild_review_statistics(${org.id})`;
  await sql`analyze plaudit.reviews`;
  await sql`analyze plaudit.products`;
  log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { orgId: org.id };
}

/** Fetches the whole feed, sampling the API's memory and counting its CPU time. */
async function fetchFeed(ctx, state, encoding) {
  const pid = ctx.stack.api.child.pid;
  const rss = { before: rssMb(pid), max: 0 };
  const sampler = setInterval(() => (rss.max = Math.max(rss.max, rssMb(pid))), 50);
  const ticks = cpuTicks(pid);
  const started = performance.now();
  const res = await fetch(`${ctx.stack.api.url}/api/v1/public/feeds/feed-bench/google-product-reviews.xml`, {
    headers: { 'accept-encoding': encoding },
  });
  if (res.status !== 200) throw new Error(`the feed answered ${res.status}`);
  // Counted on the wire: fetch would gunzip the gzip answer, so its bytes come as the body's stream.
  let bytes = 0;
  let reviews = 0;
  let tail = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body) {
    bytes += chunk.length;
    const text = tail + decoder.decode(chunk, { stream: true });
    reviews += (text.match(/<review>/g) ?? []).length;
    tail = text.slice(-7); // shorter than '<review>': a match is never counted twice
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (reviews !== state.rows) throw new Error(`the feed held ${reviews} reviews of ${state.rows}`);
  const apiCpuMs = ((cpuTicks(pid) ?? ticks) - ticks) * 10;
  const memory = { api_rss_mb_before: Number(rss.before.toFixed(1)), api_rss_mb_max: Number(rss.max.toFixed(1)) };
  ctx.log(
    `${encoding}: ${(bytes / 1048576).toFixed(1)} MB (as decoded) in ${
      seconds.toFixed(2)
    } s; API CPU ${apiCpuMs} ms; ` +
      `API RSS ${memory.api_rss_mb_before} → max ${memory.api_rss_mb_max} MB`,
  );
  return { rps: state.rows / seconds, api_cpu_ms: apiCpuMs, memory };
}

const scenario = {
  name: 'google-feed',
  description:
    'Google feed of 100,000 product reviews (SQL pages of XML, streamed) vs COPY (the same rows) TO STDOUT CSV; gzip beside it',
  async setup(ctx) {
    const rows = Number(ctx.env.BENCH_FEED_ROWS ?? 100_000);
    const seeded = await seed(ctx.stack.sql, rows, ctx.log);
    const state = { ...seeded, rows, query: SAME_ROWS(seeded.orgId) };
    ctx.log('COPY warm-up');
    await copyThroughPsql(ctx.stack.superuserUrl, state.query);
    return state;
  },
  measurements: [
    {
      key: 'copy',
      name: 'COPY (the same rows) TO STDOUT CSV, rows/s',
      async run(ctx, state) {
        const copy = await copyThroughPsql(ctx.stack.superuserUrl, state.query);
        return { rps: state.rows / copy.seconds, bytes: copy.bytes };
      },
    },
    {
      key: 'feed',
      name: 'Google feed, streamed, rows/s',
      run: (ctx, state) => fetchFeed(ctx, state, 'identity'),
    },
    {
      key: 'feed-gzip',
      name: 'Google feed, streamed with gzip, rows/s',
      run: (ctx, state) => fetchFeed(ctx, state, 'gzip'),
    },
  ],
  ratios: [
    { name: 'Google feed ÷ COPY', of: 'feed', over: 'copy', target: 0.5 },
    { name: 'gzip ÷ identity', of: 'feed-gzip', over: 'feed' },
  ],
};

export default scenario;
