// Exports of questions (`kind: questions`): published questions (hidden ones with include_hidden,
// pending ones never) with their visible answers, as CSV or as a JSON array of Question objects,
// made by the worker in chunks as review exports are.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Question } from '../../../functions/_shared/api/routes/questions/shape.ts';
import { parseCsv } from '../../helpers/csv.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { eventually } from '../../helpers/receiver.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';

let t: Tenant;
let w: TestWorker | undefined;
const N = 25;

async function exported(body: Record<string, unknown>) {
  const res = await api('POST', `/api/v1/organizations/${t.org.id}/exports`, { key: t.keys.write, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.kind).toBe('questions');
  const done = await eventually(
    async () => {
      const job = await api('GET', `/api/v1/organizations/${t.org.id}/exports/${res.body.id}`, { key: t.keys.read });
      return job.body.status === 'completed' && job.body;
    },
    30_000,
    'export to finish',
  );
  const file = await fetch(`${inject('apiUrl')}${new URL(done.download_url).pathname}`, {
    headers: { authorization: `Bearer ${t.keys.read}` },
  });
  return { job: done, text: await file.text() };
}

beforeAll(async () => {
  t = await createTenant();
  const [mug] = await db`
    insert into plaudit.products (org_id, external_id, name) values (${t.org.id}, 'MUG-X', '=HYPERLINK("x")')
    returning id`;
  // Every fifth hidden, every seventh still pending; every third about the mug.
  await db`
    insert into plaudit.questions (org_id, product_id, question, asker_name, asker_email, status,
                                   confirmation_token_hash, confirmed_at, created_at)
    select ${t.org.id}, case when g % 3 = 0 then ${mug.id}::uuid end, '+Question number ' || g || ', "quoted"',
           'Asker ' || g, 'asker' || g || '@example.com',
           case when g % 7 = 0 then 'pending' when g % 5 = 0 then 'hidden' else 'published' end,
           sha256(convert_to(${t.org.id}::text || g, 'UTF8')), case when g % 7 <> 0 then now() end,
           timestamptz '2026-02-01 00:00:00+00' + g * interval '1 hour'
      from generate_series(1, ${N}) g`;
  await db`
    insert into plaudit.question_answers (org_id, question_id, author, author_name, content, is_hidden)
    select q.org_id, q.id, 'business', 'Shop', 'Answer to ' || q.question, false from plaudit.questions q
     where q.org_id = ${t.org.id}
    union all
    select q.org_id, q.id, 'business', 'Shop', 'A hidden answer', true from plaudit.questions q
     where q.org_id = ${t.org.id}`;
  w = await startWorker([t.org.id]);
});

afterAll(async () => {
  await w?.stop();
});

describe('questions exports', () => {
  it('writes published questions as CSV, with visible answers, guarded against formulas', async () => {
    const { job, text } = await exported({ kind: 'questions', format: 'csv' });
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([
      'id',
      'product_external_id',
      'product_name',
      'question',
      'asker_name',
      'asker_email',
      'status',
      'created_at',
      'answers',
    ]);
    const published = Array.from({ length: N }, (_, i) => i + 1).filter((g) => g % 7 !== 0 && g % 5 !== 0);
    expect(rows.slice(1).map((r) => r[3])).toEqual(published.map((g) => `'+Question number ${g}, "quoted"`));
    expect(job.row_count).toBe(published.length);
    const mugRow = rows.find((r) => r[1] === 'MUG-X')!;
    expect(mugRow[2]).toBe(`'=HYPERLINK("x")`);
    expect(mugRow[8]).toBe(`Shop (business): Answer to ${mugRow[3].slice(1)}`);
    expect(text).not.toContain('A hidden answer');
  });

  it('writes JSON as an array of Question objects; include_hidden adds the hidden ones', async () => {
    const { text } = await exported({ kind: 'questions', format: 'json', filters: { include_hidden: true } });
    const items = JSON.parse(text);
    expect(items.length).toBe(Array.from({ length: N }, (_, i) => i + 1).filter((g) => g % 7 !== 0).length);
    for (const item of items) expect(Question.strict().parse(item)).toEqual(item);
    expect(items.some((q: any) => q.status === 'hidden')).toBe(true);
    expect(items.some((q: any) => q.status === 'pending')).toBe(false);
  });

  it('refuses review-only filters for questions', async () => {
    const res = await api('POST', `/api/v1/organizations/${t.org.id}/exports`, {
      key: t.keys.write,
      body: { kind: 'questions', format: 'csv', filters: { rating: 5 } },
    });
    expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity'));
    expect(res.body.errors).toEqual([
      { field: 'filters', code: 'invalid', message: 'rating and form_id filter reviews only' },
    ]);
    const kind = await api('POST', `/api/v1/organizations/${t.org.id}/exports`, {
      key: t.keys.write,
      body: { kind: 'answers', format: 'csv' },
    });
    expect(kind.status).toBe(422);
    expect(kind.body.errors[0].field).toBe('kind');
  });
});
