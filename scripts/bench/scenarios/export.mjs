// export: a CSV export of 1,000,000 reviews (BENCH_EXPORT_ROWS) through the product path (POST
// …/exports, the worker generating chunks in SQL, the streamed download) next to
// `COPY (same query) TO STDOUT CSV` through psql on the same database. Also samples the API's
// and the worker's memory while the file streams, to show that it stays flat.
import { startWorkerProcess } from '../../lib/worker-process.mjs';
import { copyThroughPsql, rssMb } from '../copy.mjs';

// The export's select list, exactly as plaudit.export_step renders it (guard included).
const SAME_QUERY = (orgId) => `
  select id::text, rating::text, plaudit.csv_guard(title), plaudit.csv_guard(content),
         plaudit.csv_guard(reviewer_name), plaudit.csv_guard(reviewer_email), verification_status,
         is_hidden::text, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), form_id::text
  from plaudit.reviews
  where org_id = '${orgId}' and not is_hidden
  order by created_at, id`;

async function seed(sql, rows, log) {
  const [org] =
    await sql`insert into plaudit.organizations (name, slug) values ('Export bench', 'export-bench') returning id`;
  const [form] =
    await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Bench form') returning id`;
  const [key] = await sql`select key from plaudit.issue_api_key(${org.id}, 'bench write key', 'write')`;
  log(`seeding ${rows} reviews (triggers off for the seed)`);
  const started = Date.now();
  // Realistic text with some of everything the CSV writer must handle.
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`
      insert into plaudit.reviews (org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                                   verification_status, created_at)
      select ${org.id}, ${form.id}, 1 + g % 5,
             case when g % 3 = 0 then null else 'Review title ' || g end,
             (array['Great product, fast delivery. Would buy again!',
                    '=SUM(A1) and "quoted" words',
                    E'Two lines:\nstill the same review, with commas',
                    'A plain, longer review that says the service was friendly and the parcel arrived on time.',
                    'Très bien 👍 — emoji and accents'])[1 + g % 5] || ' #' || g,
             'Reviewer ' || g, 'reviewer' || g || '@example.com', 'verified',
             timestamptz '2025-01-01 00:00:00+00' + g * interval '20 seconds'
      from generate_series(1, ${rows}) g`;
  });
  await sql`analyze plaudit.reviews`;
  log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { orgId: org.id, key: key.key };
}

async function runExport(ctx, state, format = 'csv') {
  const { stack } = ctx;
  const worker = await startWorkerProcess({
    databaseUrl: stack.authenticatorUrl,
    stdio: 'ignore',
    env: { PLAUDIT_ENV: 'production', EMAIL_TRANSPORT: 'none', WORKER_ORG_IDS: state.orgId },
  });
  try {
    const base = `${stack.api.url}/api/v1/organizations/${state.orgId}/exports`;
    const headers = { authorization: `Bearer ${state.key}`, 'content-type': 'application/json' };
    const started = performance.now();
    const created = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ format }) });
    const job = await created.json();
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${JSON.stringify(job)}`);
    let status;
    for (;;) {
      status = await (await fetch(`${base}/${job.id}`, { headers })).json();
      if (status.status === 'completed' || status.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (status.status !== 'completed') throw new Error(`export ${status.status}: ${status.error}`);
    if (status.row_count !== state.rows) throw new Error(`exported ${status.row_count} rows of ${state.rows}`);
    const generatedMs = performance.now() - started;
    // The database's own clock: queue wait (creation → first step) and generation (first step →
    // completion), to tell the SQL's time from the worker's and the polling's.
    const [clock] = await stack.sql`
      select extract(epoch from started_at - created_at) * 1000 as wait_ms,
             extract(epoch from completed_at - started_at) * 1000 as sql_ms
      from plaudit.exports where id = ${job.id}`;
    ctx.log(
      `generated in ${(generatedMs / 1000).toFixed(2)} s: ${
        (Number(clock.wait_ms) / 1000).toFixed(2)
      } s until the first step, ${(Number(clock.sql_ms) / 1000).toFixed(2)} s from the first step to completion`,
    );

    const rss = {
      apiBefore: rssMb(stack.api.child.pid),
      apiMax: 0,
      workerBefore: rssMb(worker.child.pid),
      workerMax: 0,
    };
    const sampler = setInterval(() => {
      rss.apiMax = Math.max(rss.apiMax, rssMb(stack.api.child.pid));
      rss.workerMax = Math.max(rss.workerMax, rssMb(worker.child.pid));
    }, 50);
    const downloadStarted = performance.now();
    const res = await fetch(`${base}/${job.id}/download`, { headers });
    if (res.status !== 200) throw new Error(`download answered ${res.status}`);
    let bytes = 0;
    for await (const chunk of res.body) bytes += chunk.length;
    clearInterval(sampler);
    const downloadMs = performance.now() - downloadStarted;
    if (bytes !== status.byte_size) throw new Error(`downloaded ${bytes} bytes of ${status.byte_size}`);
    const memory = {
      file_mb: Number((bytes / 1048576).toFixed(1)),
      api_rss_mb_before: Number(rss.apiBefore.toFixed(1)),
      api_rss_mb_max_during_download: Number(rss.apiMax.toFixed(1)),
      worker_rss_mb_before: Number(rss.workerBefore.toFixed(1)),
      worker_rss_mb_max: Number(rss.workerMax.toFixed(1)),
    };
    ctx.log(
      `file ${memory.file_mb} MB in ${
        (downloadMs / 1000).toFixed(2)
      } s; API RSS ${memory.api_rss_mb_before} → max ${memory.api_rss_mb_max_during_download} MB during the download; worker ${memory.worker_rss_mb_before} → ${memory.worker_rss_mb_max} MB`,
    );
    return { generatedMs, downloadMs, memory };
  } finally {
    await worker.stop();
  }
}

const scenario = {
  name: 'export',
  description:
    'CSV export of 1,000,000 reviews (SQL chunks + streamed download) vs COPY (same query) TO STDOUT CSV; the JSON export beside it',
  async setup(ctx) {
    const rows = Number(ctx.env.BENCH_EXPORT_ROWS ?? 1_000_000);
    const seeded = await seed(ctx.stack.sql, rows, ctx.log);
    const state = { ...seeded, rows, query: SAME_QUERY(seeded.orgId), last: null };
    ctx.log('COPY warm-up');
    await copyThroughPsql(ctx.stack.superuserUrl, state.query);
    return state;
  },
  measurements: [
    {
      key: 'copy',
      name: 'COPY (same query) TO STDOUT CSV, rows/s',
      async run(ctx, state) {
        const copy = await copyThroughPsql(ctx.stack.superuserUrl, state.query);
        return { rps: state.rows / copy.seconds, bytes: copy.bytes };
      },
    },
    {
      key: 'generate',
      name: 'export: generated in SQL chunks, rows/s',
      async run(ctx, state) {
        state.last = await runExport(ctx, state);
        return { rps: state.rows / (state.last.generatedMs / 1000), memory: state.last.memory };
      },
    },
    {
      // The same export (the measurement before) counted with its streamed download.
      key: 'end-to-end',
      name: 'export: generated + streamed download, rows/s',
      async run(_ctx, state) {
        const { generatedMs, downloadMs } = state.last;
        return { rps: state.rows / ((generatedMs + downloadMs) / 1000) };
      },
    },
    {
      // The JSON file: each review the organization's Review (plaudit.review_json, with its reply),
      // beside the CSV file of the same reviews.
      key: 'generate-json',
      name: 'JSON export: generated in SQL chunks, rows/s',
      async run(ctx, state) {
        const json = await runExport(ctx, state, 'json');
        return { rps: state.rows / (json.generatedMs / 1000), memory: json.memory };
      },
    },
  ],
  ratios: [
    { name: 'export ÷ COPY', of: 'generate', over: 'copy', target: 0.7 },
    { name: 'JSON export ÷ CSV export', of: 'generate-json', over: 'generate' },
    { name: 'export with download ÷ COPY', of: 'end-to-end', over: 'copy' },
  ],
};

export default scenario;
