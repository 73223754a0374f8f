// POST …/privacy/erasures and GET …/privacy/data over HTTP: an admin forgets a reviewer's address
// and reads everything held about it; afterwards no route, export, public answer or byte of the
// database holds the address; the chain verifies; another organization's data is untouched.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_DATA } from '../../../functions/_shared/api/routes/webhooks/events.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';
import { fetchFile, jpegWithGps, upload } from '../../helpers/media.ts';

let t: Tenant;
let other: Tenant;
let formId: string;
let address: string;
const reviewIds: string[] = [];
let bobReview: string;
let otherReview: string;
let oldExport: string;
let worker: TestWorker;
let receiver: Receiver;

const orgPath = (tenant: Tenant, rest: string) => `/api/v1/organizations/${tenant.org.id}${rest}`;

/** A review written through the submission's SQL, as a fixture (the shared server's limits stay for their tests). */
let fixtures = 0;
async function review(
  form: string,
  email: string,
  name: string,
  content: string,
  custom: Record<string, unknown> = {},
) {
  fixtures += 1;
  const review = {
    form_id: form,
    rating: 4,
    title: 'My review',
    content,
    reviewer_name: name,
    reviewer_email: email,
    custom_fields: custom,
  };
  const [row] = await db`
    select id, error_message from plaudit.submit_review(
      jsonb_populate_record(null::plaudit.review_submission, ${db.json(review as never)}),
      ${`fixture:privacy:${form}:${fixtures}`}, 1000, 'http://127.0.0.1')`;
  expect(row.error_message, row.error_message).toBeNull();
  return row.id as string;
}

async function completedExport(tenant: Tenant) {
  const job = await api('POST', orgPath(tenant, '/exports'), { key: tenant.keys.write, body: { format: 'csv' } });
  expect(job.status).toBe(201);
  await eventually(
    async () =>
      (await api('GET', orgPath(tenant, `/exports/${job.body.id}`), { key: tenant.keys.read })).body.status ===
        'completed',
    60_000,
    'the export to complete',
  );
  return job.body.id as string;
}

async function download(tenant: Tenant, id: string) {
  const res = await fetch(`${(await import('vitest')).inject('apiUrl')}${orgPath(tenant, `/exports/${id}/download`)}`, {
    headers: { authorization: `Bearer ${tenant.keys.read}` },
  });
  return { status: res.status, text: await res.text() };
}

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

const YOTPO = 'Review Title,Review Content,Review Score,Date,Product ID,Product Name,Display Name,Email\n';

/** POST …/imports of a Yotpo file; answers the job. */
async function importFile(tenant: Tenant, csv: string) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'reviews.csv');
  const res = await fetch(`${(await import('vitest')).inject('apiUrl')}${orgPath(tenant, '/imports')}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.keys.write}` },
    body: form,
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(202);
  return body;
}

async function importDone(tenant: Tenant, id: string) {
  return await eventually(
    async () => {
      const res = await api('GET', orgPath(tenant, `/imports/${id}`), { key: tenant.keys.read });
      return res.body.status === 'completed' && res.body;
    },
    60_000,
    'the import to complete',
  );
}

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
  worker = await startWorker([t.org.id, other.org.id]);
  address = `ann.${t.org.slug}@example.com`;
  const form = await api('POST', orgPath(t, '/review-forms'), {
    key: t.keys.write,
    body: { name: 'Privacy', custom_fields: [{ key: 'city', label: 'City', type: 'text' }] },
  });
  expect(form.status, JSON.stringify(form.body)).toBe(201);
  formId = form.body.id;
  reviewIds.push(await review(formId, address, 'Ann Jensen', 'Lovely mugs', { city: 'Tromsø' }));
  reviewIds.push(await review(formId, address.toUpperCase(), 'Ann', 'Second order, just as good'));
  bobReview = await review(formId, `bob.${t.org.slug}@example.com`, 'Bob', 'Fine');
  const otherForm = await api('POST', orgPath(other, '/review-forms'), { key: other.keys.write, body: { name: 'B' } });
  otherReview = await review(otherForm.body.id, address, 'Ann Jensen', 'Elsewhere');
  expect(
    (await api('POST', orgPath(t, '/review-requests'), {
      key: t.keys.write,
      body: {
        email: address,
        name: 'Ann Jensen',
        form_id: formId,
        send_at: new Date(Date.now() + 86_400_000).toISOString(),
      },
    })).status,
  ).toBe(201);
  expect(
    (await api('POST', orgPath(t, '/orders'), {
      key: t.keys.write,
      body: { orders: [{ order_id: 'A-1', email: address }] },
    })).status,
  ).toBe(200);
  oldExport = await completedExport(t);
  expect((await download(t, oldExport)).text).toContain(address);
});

describe('GET …/privacy/data', () => {
  it("answers the address's reviews, requests and orders, and nobody else's", async () => {
    const res = await api('GET', orgPath(t, `/privacy/data?email=${encodeURIComponent(address.toUpperCase())}`), {
      key: t.keys.admin,
    });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(address);
    expect(res.body.reviews.map((r: { id: string }) => r.id).sort()).toEqual([...reviewIds].sort());
    expect(res.body.reviews[0].custom_fields).toEqual({ city: 'Tromsø' });
    expect(res.body.review_requests).toHaveLength(1);
    expect(res.body.orders).toEqual([expect.objectContaining({ order_id: 'A-1', email: address })]);
    expect(res.body.suppression).toBeNull();
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('bob.');
    expect(text).not.toContain('Elsewhere');
  });

  it('is for admins only, and refuses a missing or malformed address with 400', async () => {
    for (const key of [t.keys.read, t.keys.write]) {
      const res = await api('GET', orgPath(t, `/privacy/data?email=${address}`), { key });
      expect(res.status).toBe(403);
    }
    expect((await api('GET', orgPath(t, `/privacy/data?email=${address}`), { key: other.keys.admin })).status).toBe(
      403,
    );
    for (const q of ['', '?email=', '?email=nobody']) {
      const res = await api('GET', orgPath(t, `/privacy/data${q}`), { key: t.keys.admin });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody(400, 'Bad Request', /email/));
    }
  });
});

describe('POST …/privacy/erasures', () => {
  it("removes the reviews' photos, their rows and their files", async () => {
    const erin = `erin.${t.org.slug}@example.com`;
    const id = await review(formId, erin, 'Erin', 'With a photo');
    const photo = await upload(id, await jpegWithGps(64, 48), { key: t.keys.write });
    expect(photo.status, JSON.stringify(photo.body)).toBe(201);
    expect((await fetchFile(photo.body.url)).status).toBe(200);
    // The shared test server keeps its files under the run's folder (tests/setup/api-server.ts).
    const dir = path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'media', t.org.id, id);
    expect(fs.readdirSync(dir)).toHaveLength(2);
    const res = await api('POST', orgPath(t, '/privacy/erasures'), { key: t.keys.admin, body: { email: erin } });
    expect(res.body).toEqual({ reviews: 1, review_requests: 0, questions: 0, media: 1 });
    expect((await api('GET', orgPath(t, `/reviews/${id}`), { key: t.keys.read })).body.media).toEqual([]);
    expect((await fetchFile(photo.body.url)).status).toBe(404);
    expect((await fetchFile(photo.body.thumbnail_url)).status).toBe(404);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
    const [{ n }] = await db`select count(*)::integer as n from plaudit.review_media where review_id = ${id}`;
    expect(n).toBe(0);
  });

  it('is for admins only; a malformed body is 422 and erases nothing', async () => {
    for (const key of [t.keys.read, t.keys.write, other.keys.admin]) {
      const res = await api('POST', orgPath(t, '/privacy/erasures'), { key, body: { email: address } });
      expect(res.status).toBe(403);
    }
    for (const body of [{}, { email: 'nobody' }, { email: address, redact_content: 'yes' }]) {
      const res = await api('POST', orgPath(t, '/privacy/erasures'), { key: t.keys.admin, body });
      expect(res.status).toBe(422);
    }
    const [{ n }] =
      await db`select count(*)::integer as n from plaudit.reviews where lower(reviewer_email) = ${address}`;
    expect(n).toBe(3);
  });

  it('forgets the address everywhere; the chain verifies; a repeat answers zeros', async () => {
    // Imports hold it too: a refused row quoting it (the import's refusal list, its import.completed
    // event and that event's webhook delivery), and a row still waiting for the worker.
    receiver = await startReceiver();
    const hook = await api('POST', orgPath(t, '/webhooks'), {
      key: t.keys.write,
      body: { url: `${receiver.url}/imports`, events: ['import.completed'] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const quoting = await importFile(t, `${YOTPO}Odd,A date that is an address,4,${address},P1,Pot,Al,\n`);
    expect(quoting.rejected).toEqual([{ row: 2, message: `Date: not a date ("${address}")` }]);
    await importDone(t, quoting.id);
    await eventually(
      async () =>
        (await db`
          select 1 from plaudit.webhook_deliveries
           where org_id = ${t.org.id} and event_type = 'import.completed' and strpos(payload, ${address}) > 0`)
          .length > 0,
      30_000,
      'the import.completed delivery',
    );
    await worker.stop();
    const queued = await importFile(t, `${YOTPO}Mine,Queued with my address,5,2024-02-02,P1,Pot,Ann,${address}\n`);
    const [{ staged }] = await db`
      select count(*)::integer as staged from plaudit.import_rows where import_id = ${queued.id}`;
    expect(staged).toBe(1);

    // A question the address asked (its confirmation mail holds the address too).
    const asked = await api('POST', `/api/v1/public/questions/${t.org.slug}`, {
      body: { question: 'Is the glaze safe in a dishwasher?', name: 'Ann Jensen', email: address },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    const held = await api('GET', orgPath(t, `/privacy/data?email=${address}`), { key: t.keys.admin });
    expect(held.body.questions).toEqual([
      expect.objectContaining({ question: 'Is the glaze safe in a dishwasher?', asker_name: 'Ann Jensen' }),
    ]);

    const res = await api('POST', orgPath(t, '/privacy/erasures'), { key: t.keys.admin, body: { email: address } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reviews: 2, review_requests: 1, questions: 1, media: 0 });
    expect(await db`select asker_email, asker_name, question from plaudit.questions where org_id = ${t.org.id}`)
      .toEqual([{ asker_email: null, asker_name: 'Anonymous', question: 'Is the glaze safe in a dishwasher?' }]);
    worker = await startWorker([t.org.id, other.org.id]);

    for (const id of reviewIds) {
      const got = await api('GET', orgPath(t, `/reviews/${id}`), { key: t.keys.read });
      expect(got.body).toMatchObject({
        reviewer_email: null,
        reviewer_name: 'Anonymous',
        custom_fields: {},
        rating: 4,
      });
    }
    expect((await api('GET', orgPath(t, `/reviews/${reviewIds[0]}`), { key: t.keys.read })).body.content).toBe(
      'Lovely mugs',
    );
    expect((await api('GET', orgPath(t, `/reviews/${bobReview}`), { key: t.keys.read })).body.reviewer_name).toBe(
      'Bob',
    );
    expect((await api('GET', orgPath(other, `/reviews/${otherReview}`), { key: other.keys.read })).body.reviewer_email)
      .toBe(address);

    const chain = await api('GET', orgPath(t, '/moderation-chain'), { key: t.keys.read });
    expect(chain.body.valid).toBe(true);
    const events = await db<{ data: unknown }[]>`
      select data from plaudit.events
       where org_id = ${t.org.id} and type = 'review.anonymized' and data ->> 'id' in ${db(reviewIds)}`;
    expect(events).toHaveLength(2);
    for (const e of events) expect(EVENT_DATA['review.anonymized'].safeParse(e.data).success).toBe(true);

    // The export made before is gone; a new one holds no trace.
    const gone = await download(t, oldExport);
    expect(gone.status).toBe(410);
    const fresh = await download(t, await completedExport(t));
    expect(fresh.text).not.toContain(address);
    expect(fresh.text).not.toContain('Ann Jensen');
    expect(fresh.text).not.toContain('Tromsø');

    // The public sees the reviews without the name.
    const pub = await api('GET', `/api/v1/public/reviews/${t.org.slug}`);
    const names = pub.body.data.map((r: { reviewer_name: string }) => r.reviewer_name);
    expect(names).not.toContain('Ann Jensen');
    const erased = pub.body.data.filter((r: { id: string }) => reviewIds.includes(r.id));
    expect(erased.map((r: { reviewer_name: string }) => r.reviewer_name)).toEqual(['Anonymous', 'Anonymous']);

    // Suppressed, found by the address, kept without it.
    const supp = await api('GET', orgPath(t, `/suppressions?email=${address}`), { key: t.keys.read });
    expect(supp.body.data).toEqual([expect.objectContaining({ email: null, reason: 'erased' })]);

    // Not a byte of the database holds the address any more, but the other organization's review.
    const dump = execFileSync('pg_dump', ['--data-only', '--schema=plaudit', process.env.TEST_DATABASE_URL!], {
      encoding: 'utf8',
      maxBuffer: 1024 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const hits = dump.toLowerCase().split(address).length - 1;
    expect(hits).toBe(1);

    // The waiting import refuses the row as erased, and imports never bring the address back.
    expect(await importDone(t, queued.id)).toMatchObject({
      imported: 0,
      rejected_count: 1,
      rejected: [{ row: 2, message: expect.stringMatching(/^reviewer_email: this reviewer's data was erased/) }],
    });
    const later = await importFile(t, `${YOTPO}Mine,Imported after the erasure,5,2024-02-03,P1,Pot,Ann,${address}\n`);
    expect(await importDone(t, later.id)).toMatchObject({ imported: 0, rejected_count: 1 });
    const [{ back }] = await db`
      select count(*)::integer as back from plaudit.reviews where org_id = ${t.org.id} and lower(reviewer_email) = ${address}`;
    expect(back).toBe(0);

    const report = await api('GET', orgPath(t, `/privacy/data?email=${address}`), { key: t.keys.admin });
    expect(report.body).toMatchObject({
      reviews: [],
      review_requests: [],
      orders: [],
      questions: [],
      emails: [],
      suppression: { reason: 'erased' },
      erasures: [{ reviews: 2, review_requests: 1, media: 0, redact_content: false }],
    });

    const again = await api('POST', orgPath(t, '/privacy/erasures'), {
      key: t.keys.admin,
      body: { email: address.toUpperCase(), redact_content: true },
    });
    expect(again.body).toEqual({ reviews: 0, review_requests: 0, questions: 0, media: 0 });
    expect((await api('GET', orgPath(t, `/reviews/${reviewIds[0]}`), { key: t.keys.read })).body.content).toBe(
      'Lovely mugs',
    );
  });

  it("removes the title and text on request, and a suppressed address's new request is not sent", async () => {
    const carol = `carol.${t.org.slug}@example.com`;
    const id = await review(formId, carol, 'Carol', 'My phone is 555-0100');
    const res = await api('POST', orgPath(t, '/privacy/erasures'), {
      key: t.keys.admin,
      body: { email: carol, redact_content: true },
    });
    expect(res.body).toEqual({ reviews: 1, review_requests: 0, questions: 0, media: 0 });
    const got = await api('GET', orgPath(t, `/reviews/${id}`), { key: t.keys.read });
    expect(got.body).toMatchObject({
      title: "[removed at the reviewer's request]",
      content: "[removed at the reviewer's request]",
      reviewer_name: 'Anonymous',
    });
    const asked = await api('POST', orgPath(t, '/review-requests'), {
      key: t.keys.write,
      body: { email: carol, name: 'Carol', form_id: formId },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    expect(asked.body.status).toBe('failed');
    const [{ n }] = await db`
      select count(*)::integer as n from plaudit.email_outbox where org_id = ${t.org.id} and lower(to_address) = ${carol}`;
    expect(n).toBe(0);
  });
});
