// summaries: the summary of a product with 10,000 published reviews (BENCH_SUMMARY_REVIEWS), made
// by the worker (Deno, as npm start runs it): its own figure (read, summarized, saved; target ≤ 5 s)
// from its log line, the CPU seconds the worker spent on it (what a busy machine does not inflate),
// the worker's peak memory (VmHWM) beside an idle worker's, and next to it the
// reference: the same reviews read by plaudit.review_summary_inputs alone, in one statement. The
// reviews are the real ones of tests/fixtures/reviews/, cycled (each copy numbered).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startWorkerProcess } from '../../lib/worker-process.mjs';
import { median, positive } from '../stats.mjs';

const FIXTURE = path.join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'tests',
  'fixtures',
  'reviews',
  'womens-clothing.jsonl',
);

/** The CPU seconds a process has used, user and system (Linux: /proc/<pid>/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Peak resident memory of a process, in MB (Linux: VmHWM). */
function peakMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

async function organization(sql, name) {
  const [org] = await sql`insert into plaudit.organizations (name, slug) values (${name}, ${`${name}-${Date.now()}`})
                          returning id`;
  const [form] = await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Bench') returning id`;
  const [product] = await sql`insert into plaudit.products (org_id, external_id, name)
                              values (${org.id}, 'DRESS', 'Dress') returning id`;
  return { id: org.id, formId: form.id, productId: product.id };
}

/** A worker pinned to one organization, its stdout in a file: answers the file and the process. */
async function worker(ctx, orgId) {
  const file = path.join(os.tmpdir(), `plaudit-bench-summaries-${process.pid}-${orgId}.log`);
  const fd = fs.openSync(file, 'w');
  const started = performance.now();
  const w = await startWorkerProcess({
    databaseUrl: ctx.stack.authenticatorUrl,
    stdio: fd,
    env: { PLAUDIT_ENV: 'development', EMAIL_TRANSPORT: 'none', WORKER_ORG_IDS: orgId },
  });
  return { ...w, file, fd, started };
}

async function waitForLine(file, text, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const line = fs.readFileSync(file, 'utf8').split('\n').find((l) => l.includes(text));
    if (line) return JSON.parse(line);
    if (Date.now() > deadline) throw new Error(`no "${text}" in the worker's log within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const scenario = {
  name: 'summaries',
  description:
    'the summary of a product with 10,000 real reviews made by the worker (target ≤ 5 s) and its peak memory, next to reading the same reviews in one statement',
  async run(ctx) {
    const n = positive(ctx.env, 'BENCH_SUMMARY_REVIEWS', 10_000);
    const data = fs.readFileSync(FIXTURE, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const sql = ctx.stack.sql;
    const runs = [];
    for (let round = 1; round <= ctx.rounds; round++) {
      // An idle worker's peak: the worker's own memory, before any summary.
      const idleOrg = await organization(sql, `bench-summaries-idle-${round}`);
      const idle = await worker(ctx, idleOrg.id);
      await new Promise((r) => setTimeout(r, 2000));
      const idleMb = peakMb(idle.child.pid);
      await idle.stop();
      fs.closeSync(idle.fd);

      const org = await organization(sql, `bench-summaries-${round}`);
      await sql`
        insert into plaudit.reviews (org_id, form_id, product_id, rating, title, content, reviewer_name, verification_status)
        select ${org.id}, ${org.formId}, ${org.productId}, (d ->> 'rating')::smallint, left(d ->> 'title', 200),
               left(d ->> 'text', 4990) || ' (' || g || ')', 'Reviewer ' || g, 'unverified'
          from generate_series(1, ${n}) g,
               lateral (select ${sql.json(data)}::jsonb -> ((g - 1) % ${data.length})) x(d)`;
      const readStarted = performance.now();
      const rows = await sql`select count(*)::integer as n, sum(length(content))::bigint as chars
                               from plaudit.review_summary_inputs(${org.id}, ${org.productId}, null)`;
      const readS = (performance.now() - readStarted) / 1000;
      if (rows[0].n !== n) throw new Error(`${rows[0].n} published reviews, not ${n}`);

      const w = await worker(ctx, org.id);
      try {
        // From its start: the summary is the first thing the started worker does.
        const cpuBefore = cpuSeconds(w.child.pid);
        const made = await waitForLine(w.file, '"review summary made"');
        const cpu = cpuSeconds(w.child.pid) - cpuBefore;
        const mb = peakMb(w.child.pid);
        const [summary] = await sql`select jsonb_array_length(body -> 'sentences') as sentences,
                                           jsonb_array_length(body -> 'topics') as topics
                                      from plaudit.review_summaries where org_id = ${org.id}`;
        ctx.log(
          `round ${round}: made in ${made.ms} ms, the worker's CPU ${cpu.toFixed(2)} s ` +
            `(${summary.sentences} sentences, ${summary.topics} topics), ` +
            `peak ${mb.toFixed(0)} MB (idle worker ${idleMb.toFixed(0)} MB), read alone ${readS.toFixed(2)} s`,
        );
        runs.push({ s: made.ms / 1000, cpu, mb, idleMb, readS });
      } finally {
        await w.stop();
        fs.closeSync(w.fd);
      }
    }
    const m = (f) => median(runs.map(f));
    const [s, cpu, mb, idleMb, readS] = [
      m((r) => r.s),
      m((r) => r.cpu),
      m((r) => r.mb),
      m((r) => r.idleMb),
      m((r) => r.readS),
    ];
    return {
      rows: [
        { name: `summary made by the worker (reviews/s; ${s.toFixed(2)} s)`, rps: n / s },
        { name: `  the same reviews read alone, one statement (reviews/s; ${readS.toFixed(2)} s)`, rps: n / readS },
        { name: `  the worker's CPU for it (reviews/s of CPU; ${cpu.toFixed(2)} s)`, rps: n / cpu },
        { name: `  worker's peak memory ${mb.toFixed(0)} MB, idle ${idleMb.toFixed(0)} MB (reviews/s n/a)`, rps: 0 },
      ],
      ratios: [
        // Higher is better, as the other ratios: 5 s over the summary's seconds, at least 1 within the target.
        {
          name: `5 s ÷ the summary's seconds (target ≥ 1: made in 5 s or less)`,
          value: 5 / s,
          target: 1,
          pass: s <= 5,
        },
        { name: `5 s ÷ the worker's CPU seconds for it`, value: 5 / cpu, target: 1, pass: cpu <= 5 },
        { name: `summary ÷ reading its reviews alone`, value: s / readS },
      ],
    };
  },
};

export default scenario;
