// POST/GET …/imports over HTTP with the worker applying them: a file of each platform imported
// with its dates, replies and products, never verified, labelled with its platform; the same file
// twice imports nothing; a dry run writes nothing; bad rows are listed, bad files refused; one
// import.completed event and one chain entry, no review.created; another tenant sees nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { eventually } from '../../helpers/receiver.ts';
import { postReviews } from '../../helpers/reviews.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';

let t: Tenant;
let other: Tenant;
let worker: TestWorker;
const path = (tenant: Tenant, rest = '') => `/api/v1/organizations/${tenant.org.id}/imports${rest}`;
const apiUrl = async () => (await import('vitest')).inject('apiUrl');

/** POST a file (multipart) and answer the status and body. */
async function upload(tenant: Tenant, csv: string | Uint8Array, fields: Record<string, string> = {}, key?: string) {
  const form = new FormData();
  form.append('file', new Blob([csv as BlobPart], { type: 'text/csv' }), 'reviews.csv');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${await apiUrl()}${path(tenant)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key ?? tenant.keys.write}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

async function finished(tenant: Tenant, id: string) {
  return await eventually(
    async () => {
      const res = await api('GET', path(tenant, `/${id}`), { key: tenant.keys.read });
      return ['completed', 'failed'].includes(res.body.status) && res.body;
    },
    60_000,
    'the import to finish',
  );
}

const JUDGEME = 'title,body,rating,review_date,source,curated,reviewer_name,reviewer_email,product_id,product_handle,' +
  'reply,reply_date,picture_urls,ip_address,location\n' +
  'Great,"Lovely mug, ""really""",5,2024-03-01 10:20:30 UTC,web,ok,Ann,ann@example.com,MUG-1,blue-mug,Thanks!,' +
  '2024-03-02,,1.2.3.4,Oslo\n' +
  'Spam,Buy now,1,2024-03-03,web,spam,Bot,,MUG-1,blue-mug,,,,,\n' +
  'Odd,Nine stars,9,2024-03-04,web,ok,Cy,,,,,,,,\n' +
  ',=HYPERLINK("http://evil.example"),4,2024-03-05,web,ok,Di,,,,,,,,\n';

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
  worker = await startWorker([t.org.id, other.org.id]);
});
afterAll(async () => {
  await worker?.stop();
});

describe('POST …/imports', () => {
  it('keeps what the platform claimed as imported_as_verified, never as verification', async () => {
    const okendo = 'Review ID,Product ID,Product Name,Rating,Title,Body,Reviewer Name,Is Verified Buyer,Date Created,' +
      'Status\nok-1,VASE-1,Vase,4,Fine,Claimed a purchase,Cy,true,2023-05-05T08:00:00Z,approved\n' +
      'ok-2,VASE-1,Vase,3,Plain,Claimed nothing,Dee,false,2023-05-06T08:00:00Z,approved\n';
    const claims = await createTenant();
    const claimsWorker = await startWorker([claims.org.id]);
    const res = await upload(claims, okendo);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(await finished(claims, res.body.id)).toMatchObject({ status: 'completed', imported: 2 });
    const list = await api('GET', `/api/v1/organizations/${claims.org.id}/reviews?limit=100`, {
      key: claims.keys.read,
    });
    const byContent = new Map(list.body.data.map((r: any) => [r.content, r]));
    expect(byContent.get('Claimed a purchase')).toMatchObject({
      source: 'import',
      source_platform: 'okendo',
      imported_as_verified: true,
      verification_status: 'unverified',
    });
    expect(byContent.get('Claimed nothing')).toMatchObject({ imported_as_verified: false });
    // A review sent through a form claims nothing: null.
    const [form] = await db<{ id: string }[]>`
      insert into plaudit.review_forms (org_id, name) values (${claims.org.id}, 'Direct') returning id`;
    const [sent] = await postReviews(form.id, `imports-${claims.org.id}`, [[5, null, 'Sent through a form', 'Eve']]);
    const one = await api('GET', `/api/v1/organizations/${claims.org.id}/reviews/${sent}`, { key: claims.keys.read });
    expect(one.body).toMatchObject({ source: 'form', imported_as_verified: null });
    await claimsWorker.stop();
  });

  it('imports a Judge.me file: dates, replies, products, hidden what was not published, never verified', async () => {
    const res = await upload(t, JUDGEME);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({
      format: 'judgeme',
      dry_run: false,
      status: 'pending',
      total_rows: 4,
      rejected: [{ row: 4, message: 'rating: must be a whole number from 1 to 5, not "9"' }],
    });
    const done = await finished(t, res.body.id);
    expect(done).toMatchObject({ status: 'completed', imported: 3, duplicates: 0 });

    const list = await api('GET', `/api/v1/organizations/${t.org.id}/reviews?limit=100`, { key: t.keys.read });
    const byContent = new Map(list.body.data.map((r: any) => [r.content, r]));
    const ann: any = byContent.get('Lovely mug, "really"');
    expect(ann).toMatchObject({
      rating: 5,
      reviewer_name: 'Ann',
      reviewer_email: 'ann@example.com',
      verification_status: 'unverified',
      is_hidden: false,
      created_at: '2024-03-01T10:20:30.000Z',
      source: 'import',
      source_platform: 'judgeme',
      imported_as_verified: false,
      product: { external_id: 'MUG-1', name: 'blue-mug' },
      reply: { content: 'Thanks!', created_at: '2024-03-02T00:00:00.000Z' },
    });
    expect((byContent.get('Buy now') as any).is_hidden).toBe(true);
    // A formula stays text: the CSV export defuses it.
    expect(byContent.has('=HYPERLINK("http://evil.example")')).toBe(true);

    const events = await db<{ type: string }[]>`select type from plaudit.events where org_id = ${t.org.id}`;
    expect(events.map((e) => e.type)).toEqual(['import.completed']);
    const trail = await db<{ action: string; review_id: string | null }[]>`
      select action, review_id from plaudit.moderation_trail where org_id = ${t.org.id}`;
    expect(trail).toEqual([{ action: 'import', review_id: null }]);
    const chain = await api('GET', `/api/v1/organizations/${t.org.id}/moderation-chain`, { key: t.keys.read });
    expect(chain.body.valid).toBe(true);
    const pub = await api('GET', `/api/v1/public/reviews/${t.org.slug}?limit=50`);
    expect(pub.body.data.every((r: any) => r.source === 'import' && r.source_platform === 'judgeme')).toBe(true);
  });

  it('imports nothing new from the same file again, and a dry run writes nothing', async () => {
    const [{ before }] = await db`select count(*)::integer as before from plaudit.reviews where org_id = ${t.org.id}`;
    const again = await upload(t, JUDGEME);
    expect(await finished(t, again.body.id)).toMatchObject({ imported: 0, duplicates: 3 });
    const dry = await upload(
      t,
      'Review Title,Review Content,Review Score,Date,Product ID,Product Name,Display Name,Email\n' +
        'A,Fine,4,2023-01-01,P9,Pot,Al,\nA,Fine,4,2023-01-01,P9,Pot,Al,\n',
      { dry_run: 'true' },
    );
    expect(dry.body).toMatchObject({ format: 'yotpo', dry_run: true });
    expect(await finished(t, dry.body.id)).toMatchObject({ imported: 1, duplicates: 1 });
    const [{ after }] = await db`select count(*)::integer as after from plaudit.reviews where org_id = ${t.org.id}`;
    expect(after).toBe(before);
    const [{ pots }] = await db`
      select count(*)::integer as pots from plaudit.products where org_id = ${t.org.id} and external_id = 'P9'`;
    expect(pots).toBe(0);
  });

  it('refuses a file it cannot read with 422, a read key with 403, and shows another tenant nothing', async () => {
    const bad = await upload(t, 'name,stars\nA,5\n');
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(errorBody(422, 'Unprocessable Entity', /^format: the header row is none/));
    const utf16 = await upload(t, new Uint8Array([0xff, 0xfe, 0x41, 0]));
    expect(utf16.body.message).toMatch(/UTF-16/);
    const wrong = await upload(t, JUDGEME, { format: 'yotpo' });
    expect(wrong.body.message).toMatch(/^file: the Yotpo header lacks/);
    expect((await upload(t, JUDGEME, { format: 'myspace' })).status).toBe(422);
    expect((await upload(t, JUDGEME, {}, t.keys.read)).status).toBe(403);
    expect((await upload(t, JUDGEME, {}, other.keys.write)).status).toBe(403);
    const theirs = await api('GET', path(other), { key: other.keys.read });
    expect(theirs.body.data).toEqual([]);
    const ours = await api('GET', path(t), { key: t.keys.read });
    expect(ours.body.meta.total).toBe(3);
    expect((await api('GET', path(other, `/${ours.body.data[0].id}`), { key: other.keys.read })).status).toBe(404);
  });
});
