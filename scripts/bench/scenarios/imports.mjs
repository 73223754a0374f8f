// imports: a Judge.me CSV of 100,000 reviews (BENCH_IMPORT_ROWS) over 1,000 products, uploaded to
// `POST …/imports` (read, checked and staged by the API) and applied by plaudit.run_imports (what
// the worker calls), next to COPY of the same rows into a table of the reviews' columns through
// psql on the same database. Target: import rows/s ÷ COPY rows/s ≥ 0.25.
import { copyIntoTable } from '../copy.mjs';
import { positive } from '../stats.mjs';

const HEADER = 'title,body,rating,review_date,source,curated,reviewer_name,reviewer_email,product_id,product_handle,' +
  'reply,reply_date,picture_urls,ip_address,location';

function judgeme(rows) {
  const lines = [HEADER];
  for (let i = 1; i <= rows; i++) {
    const day = new Date(Date.UTC(2020, 0, 1) + i * 600_000).toISOString().slice(0, 19).replace('T', ' ');
    lines.push([
      `Review ${i}`,
      `"A mug that keeps tea warm for ${i % 97} minutes, ""really"", number ${i}"`,
      1 + (i % 5),
      `${day} UTC`,
      'web',
      i % 50 === 0 ? 'spam' : 'ok',
      `Reviewer ${i}`,
      `reviewer${i}@example.com`,
      `sku-${i % 1000}`,
      `mug-${i % 1000}`,
      i % 10 === 0 ? `"Thank you, reviewer ${i}!"` : '',
      i % 10 === 0 ? day.slice(0, 10) : '',
      '',
      '192.0.2.1',
      'Oslo',
    ].join(','));
  }
  return lines.join('\n') + '\n';
}

/** A table of the file's columns, for COPY of the same rows. */
const COPY_TABLE = `create temp table bench_reviews (title text, body text, rating integer, review_date text,
  source text, curated text, reviewer_name text, reviewer_email text, product_id text, product_handle text, reply text,
  reply_date text, picture_urls text, ip_address text, location text)`;

const scenario = {
  name: 'imports',
  description: 'a Judge.me CSV of 100,000 reviews uploaded and applied, next to COPY of the same rows',
  async run(ctx) {
    const { stack } = ctx;
    const sql = stack.sql;
    const rows = positive(ctx.env, 'BENCH_IMPORT_ROWS', 100_000);
    const csv = judgeme(rows);
    const [org] = await sql`insert into plaudit.organizations (name, slug) values ('Import bench', 'import-bench')
                            returning id`;
    const [key] = await sql`select key from plaudit.issue_api_key(${org.id}, 'bench write key', 'write')`;
    ctx.log(`${rows.toLocaleString('en')} rows, ${(csv.length / 1024 / 1024).toFixed(1)} MB`);

    const started = performance.now();
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'judgeme.csv');
    const res = await fetch(`${stack.api.url}/api/v1/organizations/${org.id}/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}` },
      body: form,
    });
    const job = await res.json();
    if (res.status !== 202) throw new Error(`POST imports answered ${res.status}: ${JSON.stringify(job)}`);
    const staged = (performance.now() - started) / 1000;
    await sql`select plaudit.run_imports(600000, 5000)`;
    const total = (performance.now() - started) / 1000;
    const [done] = await sql`select status, imported, duplicates, error from plaudit.imports where id = ${job.id}`;
    if (done.status !== 'completed' || done.imported !== rows) {
      throw new Error(`the import did not complete: ${JSON.stringify(done)}`);
    }
    ctx.log(`uploaded and staged in ${staged.toFixed(2)} s, applied in ${(total - staged).toFixed(2)} s`);
    const copy = await copyIntoTable(stack.superuserUrl, COPY_TABLE, csv, { header: true });
    return {
      rows: [
        { name: `import, upload to applied (rows/s; ${total.toFixed(2)} s)`, rps: rows / total },
        { name: `  the upload: read, checked, staged (rows/s; ${staged.toFixed(2)} s)`, rps: rows / staged },
        { name: `  applied by run_imports (rows/s; ${(total - staged).toFixed(2)} s)`, rps: rows / (total - staged) },
        { name: `COPY of the same rows (rows/s; ${copy.toFixed(2)} s)`, rps: rows / copy },
      ],
      ratios: [{ name: 'import ÷ COPY', value: (rows / total) / (rows / copy), target: 0.25, pass: total / copy <= 4 }],
    };
  },
};

export default scenario;
