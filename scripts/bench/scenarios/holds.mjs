// Review bombing holds and duplicates (docs/compliance.md): what the checks cost.
//
// submission-checks: plaudit.submit_review as the route runs it (the burst hold and duplicate
// checks included: an open hold on the subject, a reused order, a text 90 % alike among the
// organization's last 90 days by pg_trgm) next to the same function with the two checks taken out,
// made on the throwaway stack from the function's own text. Both pipelined in pgbench, on an
// organization of BENCH_REVIEWS reviews written from a vocabulary of 200 words (so the trigram index
// finds real candidates), each submission a new text of 16 such words.
//
// burst-detection: one call of plaudit.detect_review_bursts a cycle, 1 client, on the same
// organization with an arrival per review (one a minute over the BENCH_REVIEWS minutes to now), looked at
// inside that history: the time a worker's cycle spends on it.
//
//   BENCH_REVIEWS=100000
import { positive } from '../stats.mjs';

const WORDS = `great good bad slow fast mug cup tea coffee warm cold lid handle color blue red green shipping box
  parcel late early price cheap expensive quality broke cracked lovely perfect awful service staff friendly rude answer
  email refund return size small large heavy light gift daughter son wife husband friend office kitchen morning evening
  daily weekly again never always would buy recommend stars design glaze shiny matte chip dishwasher microwave safe
  hot handle grip soft hard smell taste clean dirty order website checkout easy hard week month year ago arrived
  packaging plastic paper recycled thanks happy sad disappointed impressed surprised expected better worse best worst
  really very quite somewhat barely totally simply truly honestly maybe probably the and but with for from this that
  it was is are were had has have not our my your their shop store brand team support chat phone call waited days
  hours minutes replaced second third first set pair four two one more less most least fine okay nice cute ugly
  strong weak bright dark thin thick tall short round square pretty solid loose tight noisy quiet fragile sturdy`
  .split(/\s+/).filter(Boolean).slice(0, 200);
const VOCABULARY = `array[${WORDS.map((w) => `'${w}'`).join(',')}]`;
/** Sixteen words of the vocabulary for the integer expression `n`, the same for the same n. */
const wordsOf = (n) =>
  `(select string_agg((${VOCABULARY})[1 + abs(hashint8extended((${n})::bigint * 16 + k, 0)) % ${WORDS.length}], ' ' order by k)
      from generate_series(1, 16) k)`;

async function seed(ctx) {
  const { stack } = ctx;
  if (stack.holdsSeed) return stack.holdsSeed;
  const sql = stack.sql;
  const count = positive(ctx.env, 'BENCH_REVIEWS', 100_000);
  const started = Date.now();
  ctx.log(`seeding ${count.toLocaleString('en')} reviews of 200 words' texts, with their arrivals`);
  const [org] =
    await sql`insert into plaudit.organizations (name, slug) values ('Bench holds', 'bench-holds') returning id`;
  const [form] = await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Form') returning id`;
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx.unsafe(`
      insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status,
                                   created_at)
      select '${org.id}', '${form.id}', 1 + i % 5, ${wordsOf('i')}, 'Reviewer ' || i, 'r' || i || '@example.com',
             'unverified', now() - make_interval(mins => ${count} - i)
        from generate_series(1, ${count}) i`);
    // In bulk through the sketch index's pending list, merged once by the vacuum below: the index
    // takes a submission's hashes into its tree at once (fastupdate off), which row by row here took minutes.
    await tx`alter index plaudit.review_arrivals_sketch set (fastupdate = on)`;
    await tx`
      insert into plaudit.review_arrivals (review_id, org_id, subject, rating, client_key, created_at, sketch)
      select r.id, r.org_id, 'business', r.rating, sha256(convert_to(r.reviewer_email, 'UTF8')), r.created_at,
             plaudit.text_sketch(r.content)
        from plaudit.reviews r where r.org_id = ${org.id}`;
    await tx`alter index plaudit.review_arrivals_sketch set (fastupdate = off)`;
  });
  await sql`select plaudit.rebuild_review_statistics(${org.id})`;
  await sql`vacuum (analyze) plaudit.reviews, plaudit.review_arrivals`;
  ctx.log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // The same functions without the two checks: the stored submission's text with their statements
  // taken out, behind a copy of the public plaudit.submit_review that calls it.
  const [{ def }] = await sql`
    select pg_get_functiondef('plaudit.store_submitted_review(plaudit.review_submission,text,integer,text,uuid)'::regprocedure) as def`;
  const unchecked = def
    .replace('FUNCTION plaudit.store_submitted_review(', 'FUNCTION plaudit.bench_store_submitted_review_unchecked(')
    .replace(/select \* into held from plaudit\.submission_hold\([^;]*;/, '')
    .replace(/perform plaudit\.record_submission\([^;]*;/, '')
    .replace(/if held\.reason is not null then[\s\S]*?end if;/, '');
  if (/submission_hold|record_submission|held\./.test(unchecked)) {
    throw new Error('could not take the checks out of plaudit.store_submitted_review');
  }
  await sql.unsafe(unchecked);
  const [{ def: wrapper }] = await sql`
    select pg_get_functiondef('plaudit.submit_review(plaudit.review_submission,text,integer,text)'::regprocedure) as def`;
  await sql.unsafe(
    wrapper
      .replace('FUNCTION plaudit.submit_review(', 'FUNCTION plaudit.bench_submit_review_unchecked(')
      .replace('plaudit.store_submitted_review(', 'plaudit.bench_store_submitted_review_unchecked('),
  );
  await sql`grant execute on function plaudit.bench_submit_review_unchecked(plaudit.review_submission,text,integer,text)
            to plaudit_public`;
  const last = new Date().toISOString();
  stack.holdsSeed = { orgId: org.id, formId: form.id, last, count };
  return stack.holdsSeed;
}

/** pgbench's script: one submission a transaction, as the route sends it, through `fn`. */
const submitScript = (fn, formId) =>
  [
    '\\set n random(1, 2000000000)',
    '\\startpipeline',
    'begin;',
    'set local role plaudit_public;',
    `select * from plaudit.${fn}(jsonb_populate_record(null::plaudit.review_submission, jsonb_build_object('form_id', '${formId}', 'rating', 4 + :n % 2, 'title', 'Bench', 'content', ${
      wordsOf(':n').replace(/\s+/g, ' ')
    }, 'reviewer_name', 'Bench', 'reviewer_email', 'p' || :n || '@example.com', 'order_id', 'B' || :n, 'honeypot', false)), 'submit:' || encode(sha256(convert_to(:n::text, 'UTF8')), 'hex'), 1000000000, 'http://127.0.0.1');`,
    'commit;',
    '\\endpipeline',
  ].join('\n') + '\n';

export const submissionChecks = {
  name: 'submission-checks',
  description:
    'plaudit.submit_review with the burst hold and duplicate checks next to the same function without them (pgbench, pipelined)',

  async setup(ctx) {
    const s = await seed(ctx);
    return {
      checked: submitScript('submit_review', s.formId),
      unchecked: submitScript('bench_submit_review_unchecked', s.formId),
    };
  },

  measurements: [
    {
      key: 'checked',
      name: 'submit_review, with the checks',
      run: (ctx, s) => ctx.pgbench({ url: ctx.stack.authenticatorUrl, script: s.checked }),
    },
    {
      key: 'unchecked',
      name: 'the same, without them',
      run: (ctx, s) => ctx.pgbench({ url: ctx.stack.authenticatorUrl, script: s.unchecked }),
    },
  ],

  ratios: [{ name: 'with the checks ÷ without', of: 'checked', over: 'unchecked', target: 0.85 }],
};

export const burstDetection = {
  name: 'burst-detection',
  description: "plaudit.detect_review_bursts, one worker cycle's call, 1 client, inside the seeded history",

  async setup(ctx) {
    const s = await seed(ctx);
    const now = `'${s.last}'::timestamptz - interval '1 day'`;
    // Once for real first: it forgets the client addresses older than 30 days, which a worker does
    // once for each arrival; the measured calls then roll back only their own work.
    await ctx.stack.sql.unsafe(`select count(*) from plaudit.detect_review_bursts(${now}, null)`);
    const script = [
      'begin;',
      'set local role plaudit_worker;',
      `select count(*) from plaudit.detect_review_bursts(${now}, null);`,
      'rollback;',
    ].join('\n') + '\n';
    return { script };
  },

  measurements: [
    {
      key: 'detect',
      name: 'detect_review_bursts, 1 client',
      run: (ctx, s) => ctx.pgbench({ url: ctx.stack.superuserUrl, script: s.script, clients: 1, threads: 1 }),
    },
  ],

  ratios: [],
};

export default [submissionChecks, burstDetection];
