// The contract's promise for the `plaudit` import format: an export imported into another
// organization gives the same reviews. Organization A's reviews (a reply among them, one of them
// hidden, one of a product, a title that looks like a formula) are exported as CSV over HTTP, the
// file is imported into organization B, and B's reviews equal A's in everything a review carries
// across: rating, title, text, reviewer, date, visibility, product and the public reply.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { eventually } from '../../helpers/receiver.ts';
import { createProduct } from '../../helpers/products.ts';
import { postReviews } from '../../helpers/reviews.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';

let a: Tenant;
let b: Tenant;
let worker: TestWorker;

const orgPath = (tenant: Tenant, rest: string) => `/api/v1/organizations/${tenant.org.id}${rest}`;

async function until(tenant: Tenant, rest: string, what: string) {
  return await eventually(
    async () => {
      const res = await api('GET', orgPath(tenant, rest), { key: tenant.keys.read });
      return ['completed', 'failed'].includes(res.body.status) && res.body;
    },
    60_000,
    what,
  );
}

/** What a review carries from one organization to another, by its text. */
async function reviewsOf(tenant: Tenant) {
  const list = await api('GET', orgPath(tenant, '/reviews?limit=100'), { key: tenant.keys.read });
  expect(list.status).toBe(200);
  return list.body.data
    .map((r: any) => ({
      rating: r.rating,
      title: r.title,
      content: r.content,
      reviewer_name: r.reviewer_name,
      reviewer_email: r.reviewer_email,
      created_at: r.created_at,
      is_hidden: r.is_hidden,
      product: r.product && { external_id: r.product.external_id, name: r.product.name },
      reply: r.reply && { content: r.reply.content, created_at: r.reply.created_at },
    }))
    .sort((x: { content: string }, y: { content: string }) => x.content.localeCompare(y.content));
}

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
  worker = await startWorker([a.org.id, b.org.id]);
  const form = await api('POST', orgPath(a, '/review-forms'), { key: a.keys.write, body: { name: 'Shop' } });
  const [late, fine] = await postReviews(form.body.id, `round-trip-${a.org.id}`, [
    [2, 'Late', 'It came a week late', 'Ann'],
    [5, '=SUM(A1:A2)', 'Lovely, "really"', 'Bob'],
  ]);
  await createProduct(api, a, { external_id: 'MUG-1', name: 'Blue mug' });
  const [mug] = await postReviews(form.body.id, `round-trip-mug-${a.org.id}`, [[4, null, 'A good mug', 'Cy']], 'MUG-1');
  const [hidden] = await postReviews(form.body.id, `round-trip-hidden-${a.org.id}`, [[1, 'Rude', 'Rude words', 'Di']]);
  for (const [id, content] of [[late, 'Sorry! We changed couriers.'], [mug, '=Thanks, Cy']]) {
    const res = await api('PUT', orgPath(a, `/reviews/${id}/reply`), { key: a.keys.write, body: { content } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  await db`update plaudit.reviews set verification_status = 'unverified' where id = any(${[late, fine, mug, hidden]})`;
  const hide = await api('PATCH', orgPath(a, `/reviews/${hidden}/moderate`), {
    key: a.keys.write,
    body: { action: 'hide', reason: 'Rude' },
  });
  expect(hide.status, JSON.stringify(hide.body)).toBe(200);
}, 120_000);
afterAll(async () => {
  await worker?.stop();
});

describe('a Plaudit CSV export imported into another organization', () => {
  it('gives the same reviews, their replies included', { timeout: 120_000 }, async () => {
    const created = await api('POST', orgPath(a, '/exports'), {
      key: a.keys.write,
      body: { format: 'csv', filters: { include_hidden: true } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const done = await until(a, `/exports/${created.body.id}`, 'the export to finish');
    expect(done).toMatchObject({ status: 'completed', row_count: 4 });
    const file = await fetch(`${inject('apiUrl')}${orgPath(a, `/exports/${created.body.id}/download`)}`, {
      headers: { authorization: `Bearer ${a.keys.read}` },
    });
    expect(file.status).toBe(200);
    const csv = await file.text();

    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'export.csv');
    form.append('format', 'plaudit');
    const upload = await fetch(`${inject('apiUrl')}${orgPath(b, '/imports')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.keys.write}` },
      body: form,
    });
    const job = await upload.json();
    expect(upload.status, JSON.stringify(job)).toBe(202);
    expect(job).toMatchObject({ format: 'plaudit', total_rows: 4, rejected: [] });
    expect(await until(b, `/imports/${job.id}`, 'the import to finish')).toMatchObject({
      status: 'completed',
      imported: 4,
      duplicates: 0,
    });

    const before = await reviewsOf(a);
    expect(before.filter((r: { reply: unknown }) => r.reply)).toHaveLength(2);
    expect(await reviewsOf(b)).toEqual(before);
  });
});
