// node scripts/bench/feed-cpu.mjs: where a Google feed page's time goes, in CPU of one PostgreSQL
// backend (read from /proc/<pid>/stat, so the machine's load does not count; run as the user the
// cluster runs as, or root): the feed's page of 5,000 reviews (plaudit.google_product_feed_page)
// next to the same page built from each review's element kept beside it (a table standing in for
// what triggers would keep: the review's parts without its product's, joined at read), with and
// without the ordered aggregate, and COPY of the same rows. Seeds google-feed's 100,000 reviews on
// a throwaway stack; prints the CPU ms a page of each, five rounds of ten, and their minimum.
import fs from 'node:fs';
import postgres from 'postgres';
import { createStack } from './stack.mjs';
import googleFeed from './scenarios/google-feed.mjs';

const stack = createStack({ log: (m) => console.error(m) });
await stack.start();
try {
  const ctx = { stack, env: { BENCH_FEED_ROWS: '100000' }, log: (m) => console.error(m) };
  const state = await googleFeed.setup(ctx);
  const sql = postgres(stack.superuserUrl, { max: 1 });
  const [{ pid }] = await sql`select pg_backend_pid() as pid`;
  const cpu = () => {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  };
  const org = state.orgId;
  const page = `'https://shop.example/p/feed-bench/products/'`;
  // Kept elements: each review's own parts, as a trigger would keep them (product part joined at read).
  await sql.unsafe(`create table kept as
    select r.id, r.product_id, r.created_at,
      '<review><review_id>' || r.id::text || '</review_id><reviewer>' || case when btrim(r.reviewer_name) = '' or r.reviewer_name='Anonymous' then '<name is_anonymous="true">Anonymous</name>' else '<name>' || plaudit.xml_text(r.reviewer_name) || '</name>' end || '</reviewer><is_verified_purchase>' || (r.verification_status='verified' and r.verification_method in ('purchase_proof','invitation'))::text || '</is_verified_purchase><is_incentivized_review>false</is_incentivized_review><review_timestamp>' || to_char(r.created_at at time zone 'UTC','YYYY-MM-DD"T"HH24:MI:SS"Z"') || '</review_timestamp>' || plaudit.xml_element_or_nothing('title', plaudit.xml_text(r.title)) || plaudit.xml_element_or_nothing('content', plaudit.xml_text(r.content)) || '<review_url type="singleton">' as head,
      '</review_url>' as mid,
      '<ratings><overall min="1" max="5">' || r.rating || '</overall></ratings>' as ratings,
      '<is_spam>false</is_spam><collection_method>unsolicited</collection_method></review>' as tail
    from plaudit.reviews r where r.org_id = '${org}' and r.product_id is not null`);
  await sql.unsafe(`create index on kept (product_id, created_at, id); analyze kept`);
  const statements = {
    'feed page (google_product_feed_page)':
      `select reviews from plaudit.google_product_feed_page('feed-bench', ${page}, null, null, null, 5000)`,
    'kept elements, one string_agg':
      `with pg as materialized (select * from kept order by product_id, created_at, id limit 5000),
      prod as materialized (select pr.id, ${page} || pr.external_id as url, '<products><product><product_name>' || plaudit.xml_text(pr.name) || '</product_name></product></products>' as products from plaudit.products pr where pr.id in (select product_id from pg))
      select length(string_agg(k.head || p.url || k.mid || k.ratings || p.products || k.tail, '' order by k.product_id, k.created_at, k.id)) from pg k join prod p on p.id = k.product_id`,
    'kept elements, rows (no aggregate)':
      `with pg as materialized (select * from kept order by product_id, created_at, id limit 5000),
      prod as materialized (select pr.id, ${page} || pr.external_id as url, '<products><product><product_name>' || plaudit.xml_text(pr.name) || '</product_name></product></products>' as products from plaudit.products pr where pr.id in (select product_id from pg))
      select sum(length(k.head || p.url || k.mid || k.ratings || p.products || k.tail)) from pg k join prod p on p.id = k.product_id`,
    'kept elements, string_agg without ORDER BY':
      `with pg as materialized (select * from kept order by product_id, created_at, id limit 5000),
      prod as materialized (select pr.id, ${page} || pr.external_id as url, '<products><product><product_name>' || plaudit.xml_text(pr.name) || '</product_name></product></products>' as products from plaudit.products pr where pr.id in (select product_id from pg))
      select length(string_agg(k.head || p.url || k.mid || k.ratings || p.products || k.tail, '')) from pg k join prod p on p.id = k.product_id`,
    'COPY the same rows to /dev/null': `copy (${state.query} limit 5000) to '/dev/null' csv`,
  };
  for (const [name, q] of Object.entries(statements)) {
    await sql.unsafe(q);
    const rounds = [];
    for (let r = 0; r < 5; r++) {
      const a = cpu();
      for (let i = 0; i < 10; i++) await sql.unsafe(q);
      rounds.push((cpu() - a) / 10);
    }
    console.log(`${name}: CPU ms a page of 5,000, rounds: ${rounds.join(', ')}; min ${Math.min(...rounds)}`);
  }
  await sql.end();
} finally {
  await stack.stop();
}
