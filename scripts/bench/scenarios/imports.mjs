// imports: a Judge.me CSV of 100,000 reviews (BENCH_IMPORT_ROWS) over 1,000 products, uploaded to
// `POST …/imports` (read, checked and staged by the API) and applied by plaudit.run_imports (what
// the worker calls), next to the same reviews written by one INSERT … SELECT into plaudit.reviews
// (its indexes and triggers on; target: import ÷ INSERT … SELECT ≥ 0.5) and COPY of the same rows
// into a table of the file's columns through psql (target ≥ 0.25). BENCH_ROUNDS repeats the three
// in turn, each round a new organization; the ratios are the rounds' medians, each round listed.
import { copyIntoTable } from '../copy.mjs';
import { median, positive } from '../stats.mjs';

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

/**
 * The same reviews written by one `INSERT … SELECT` into `plaudit.reviews` itself, its indexes,
 * constraints and triggers on: the imported rows copied into a second organization with the same
 * products (made first, not timed), as the import writes them (source `import`, their keys). What
 * the import could approach if it did nothing but write its reviews. Answers seconds.
 */
async function insertSelect(sql, fromOrg, round) {
  const [org] = await sql`insert into plaudit.organizations (name, slug)
                          values ('Import bench reference', ${`import-bench-reference-${round}`}) returning id`;
  const [form] = await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Reference')
                           returning id`;
  await sql`insert into plaudit.products (org_id, external_id, name, archived)
            select ${org.id}, p.external_id, p.name, p.archived from plaudit.products p where p.org_id = ${fromOrg}`;
  const started = performance.now();
  await sql`
    insert into plaudit.reviews (org_id, form_id, product_id, rating, title, content, reviewer_name, reviewer_email,
                                 custom_fields, verification_status, is_hidden, created_at, source, source_platform,
                                 imported_as_verified, import_key)
    select ${org.id}, ${form.id}, q.id, r.rating, r.title, r.content, r.reviewer_name, r.reviewer_email, '{}',
           'unverified', r.is_hidden, r.created_at, 'import', r.source_platform, r.imported_as_verified, r.import_key
      from plaudit.reviews r
      join plaudit.products p on p.id = r.product_id
      join plaudit.products q on q.org_id = ${org.id} and q.external_id = p.external_id
     where r.org_id = ${fromOrg}
     order by r.created_at, r.id`;
  return (performance.now() - started) / 1000;
}

/** One import of `csv` into an organization of its own: answers the upload's and the whole import's seconds. */
async function importOnce(ctx, csv, rows, round) {
  const { stack } = ctx;
  const sql = stack.sql;
  const [org] = await sql`insert into plaudit.organizations (name, slug)
                          values ('Import bench', ${`import-bench-${round}`}) returning id`;
  const [key] = await sql`select key from plaudit.issue_api_key(${org.id}, 'bench write key', 'write')`;
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
  return { orgId: org.id, staged, total };
}

const spread = (values) => values.map((v) => v.toFixed(2)).join(', ');

const scenario = {
  name: 'imports',
  description:
    'a Judge.me CSV of 100,000 reviews uploaded and applied, next to INSERT … SELECT of the same reviews into plaudit.reviews and COPY of the same rows',
  async run(ctx) {
    const rows = positive(ctx.env, 'BENCH_IMPORT_ROWS', 100_000);
    const csv = judgeme(rows);
    ctx.log(`${rows.toLocaleString('en')} rows, ${(csv.length / 1024 / 1024).toFixed(1)} MB, ${ctx.rounds} round(s)`);
    // Each round: the import, then the same reviews by INSERT … SELECT, then COPY, one after the other.
    const runs = [];
    for (let round = 1; round <= ctx.rounds; round++) {
      const imported = await importOnce(ctx, csv, rows, round);
      const insert = await insertSelect(ctx.stack.sql, imported.orgId, round);
      const copy = await copyIntoTable(ctx.stack.superuserUrl, COPY_TABLE, csv, { header: true });
      ctx.log(
        `round ${round}: staged ${imported.staged.toFixed(2)} s, applied ${
          (imported.total - imported.staged).toFixed(2)
        } s, INSERT … SELECT ${insert.toFixed(2)} s, COPY ${copy.toFixed(2)} s`,
      );
      runs.push({ ...imported, insert, copy });
    }
    const m = (f) => median(runs.map(f));
    const [total, staged, insert, copy] = [m((r) => r.total), m((r) => r.staged), m((r) => r.insert), m((r) => r.copy)];
    const overInsert = runs.map((r) => r.insert / r.total);
    const overCopy = runs.map((r) => r.copy / r.total);
    return {
      rows: [
        { name: `import, upload to applied (rows/s; ${total.toFixed(2)} s)`, rps: rows / total },
        { name: `  the upload: read, checked, staged (rows/s; ${staged.toFixed(2)} s)`, rps: rows / staged },
        { name: `  applied by run_imports (rows/s; ${(total - staged).toFixed(2)} s)`, rps: rows / (total - staged) },
        { name: `INSERT … SELECT of the same reviews (rows/s; ${insert.toFixed(2)} s)`, rps: rows / insert },
        { name: `COPY of the same rows (rows/s; ${copy.toFixed(2)} s)`, rps: rows / copy },
      ],
      ratios: [
        {
          name: `import ÷ INSERT … SELECT (rounds: ${spread(overInsert)})`,
          value: median(overInsert),
          target: 0.5,
          pass: median(overInsert) >= 0.5,
        },
        {
          name: `import ÷ COPY (rounds: ${spread(overCopy)})`,
          value: median(overCopy),
          target: 0.25,
          pass: median(overCopy) >= 0.25,
        },
      ],
    };
  },
};

export default scenario;
