// node scripts/bench/vote-cpu.mjs: where a helpful vote's time goes, in CPU of one PostgreSQL
// backend (read from /proc/<pid>/stat, so the machine's load does not count; run as the user the
// cluster runs as, or root): plaudit.vote_helpful whole, then its steps one at a time (the rate
// limit's hit, the review's lookup, the visitor's hashes, the vote's row, the review's update with
// and without its triggers), each a new visitor on one of 1,000 reviews. Prints µs a call of each,
// ROUNDS rounds (default 3) of N calls (default 2,000) interleaved, and the EXPLAIN (ANALYZE,
// BUFFERS) of the review's update.
import fs from 'node:fs';
import crypto from 'node:crypto';
import postgres from 'postgres';
import { createStack } from './stack.mjs';
import { seedOrganization } from './scenarios/reviews.mjs';

const N = Number(process.env.N ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const stack = createStack({ log: (m) => console.error(m) });
await stack.start();
try {
  const ctx = { stack, env: {}, log: (m) => console.error(m) };
  const seed = await seedOrganization(ctx, 'vote-cpu', Number(process.env.REVIEWS ?? 20000));
  const sql = postgres(stack.superuserUrl, { max: 1, onnotice: () => {} });
  const [{ pid }] = await sql`select pg_backend_pid() as pid`;
  const cpu = () => {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10_000; // µs (100 Hz ticks)
  };
  const ids =
    (await sql`select id from plaudit.reviews where org_id = ${seed.orgId} order by created_at desc limit 1000`)
      .map((r) => r.id);
  let seq = 0;
  const visitor = () => crypto.createHash('sha256').update(`v${++seq}`).digest();
  const review = () => ids[seq % ids.length];
  const steps = {
    'vote_helpful (whole)': () =>
      sql`select * from plaudit.vote_helpful(${
        'helpful:b' + (seq % 50)
      }, 1000000000, 'vote-cpu', ${review()}, ${visitor()})`,
    'hit_rate_limit': () => sql`select * from plaudit.hit_rate_limit(${'helpful:b' + (++seq % 50)}, 1000000000)`,
    'signal_target': () =>
      sql`select * from plaudit.signal_target(${'helpful:b' + (++seq % 50)}, 1000000000, 'vote-cpu', ${review()})`,
    'visitor_hashes': () => sql`select plaudit.visitor_hashes(${review()}, ${visitor()})`,
    'insert review_votes': () =>
      sql`insert into plaudit.review_votes (review_id, org_id, visitor_hash) values (${review()}, ${seed.orgId}, ${visitor()})`,
    'update reviews helpful_count (triggers)': () =>
      sql`update plaudit.reviews set helpful_count = helpful_count + 1 where id = ${ids[++seq % ids.length]}`,
    'update reviews helpful_count (no triggers)': () =>
      sql.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        await tx`update plaudit.reviews set helpful_count = helpful_count + 1 where id = ${ids[++seq % ids.length]}`;
      }),
    'public_version_delta statistics': () =>
      sql`select plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(${seed.orgId})))`,
    'select 1 (floor)': () => sql`select 1`,
  };
  if (process.env.STEPS) { for (const k of Object.keys(steps)) if (!k.includes(process.env.STEPS)) delete steps[k]; }
  const results = Object.fromEntries(Object.keys(steps).map((k) => [k, []]));
  for (const f of Object.values(steps)) for (let i = 0; i < 200; i++) await f();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, f] of Object.entries(steps)) {
      const t0 = cpu();
      for (let i = 0; i < N; i++) await f();
      results[name].push(Math.round((cpu() - t0) / N));
    }
  }
  for (const [name, r] of Object.entries(results)) console.log(`${name.padEnd(44)} ${r.join(', ')} µs/call`);
  const plan = await sql.unsafe(`explain (analyze, buffers, verbose)
    update plaudit.reviews set helpful_count = helpful_count + 1 where id = '${ids[7]}'`);
  console.log(plan.map((r) => r['QUERY PLAN']).join('\n'));
  const plan2 = await sql.unsafe(`explain (analyze, buffers)
    select * from plaudit.vote_helpful('helpful:x', 1000000000, 'vote-cpu', '${ids[9]}', '\\x00')`);
  console.log(plan2.map((r) => r['QUERY PLAN']).join('\n'));
  await sql.end();
} finally {
  await stack.stop();
}
