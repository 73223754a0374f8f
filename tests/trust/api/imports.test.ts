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
      rejected_count: 1,
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
    // The review Judge.me had not published is hidden, with the reason in the trail.
    const trail = await db<{ action: string; review_id: string | null; reason: string }[]>`
      select action, review_id, reason from plaudit.moderation_trail where org_id = ${t.org.id} order by seq`;
    expect(trail).toEqual([
      {
        action: 'hide',
        review_id: (byContent.get('Buy now') as any).id,
        reason: 'not published on Judge.me (curated: spam)',
      },
      { action: 'import', review_id: null, reason: expect.stringMatching(/^imported 3 reviews from judgeme/) },
    ]);
    // Judge.me names a product only by its handle: the product made for it is archived, not on sale.
    const [mug] =
      await db`select name, archived from plaudit.products where org_id = ${t.org.id} and external_id = 'MUG-1'`;
    expect(mug).toEqual({ name: 'blue-mug', archived: true });
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
    // The repeated row is a duplicate from the answer on: the file holds one review, not two.
    expect(dry.body).toMatchObject({ format: 'yotpo', dry_run: true, duplicates: 1 });
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
  it('hides what Yotpo had not published (its Published column), with the reason in the trail', async () => {
    const yotpo = await createTenant();
    const yotpoWorker = await startWorker([yotpo.org.id]);
    const res = await upload(
      yotpo,
      'Review Title,Review Content,Review Score,Date,Product ID,Product Name,Display Name,Email,Published\n' +
        'Fine,Shown there,4,2024-01-02,P1,Pot,Al,,true\nNo,Rejected by Yotpo,1,2024-01-03,P1,Pot,Bo,,false\n',
    );
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(await finished(yotpo, res.body.id)).toMatchObject({ status: 'completed', imported: 2 });
    const list = await api('GET', `/api/v1/organizations/${yotpo.org.id}/reviews?limit=10`, { key: yotpo.keys.read });
    const rejected = list.body.data.find((r: any) => r.content === 'Rejected by Yotpo');
    expect(rejected.is_hidden).toBe(true);
    expect(list.body.data.find((r: any) => r.content === 'Shown there').is_hidden).toBe(false);
    const [entry] = await db`
      select reason from plaudit.moderation_trail where org_id = ${yotpo.org.id} and review_id = ${rejected.id}`;
    expect(entry.reason).toBe('not published on Yotpo (Published: false)');
    // Yotpo's Product Name names the product: it is on sale, not archived.
    const [pot] = await db`select archived from plaudit.products where org_id = ${yotpo.org.id} and external_id = 'P1'`;
    expect(pot.archived).toBe(false);
    await yotpoWorker.stop();
  });

  it("refuses an ambiguous date with its row unless the file's date order is chosen", async () => {
    const dates = await createTenant();
    const file = 'Review Title,Review Content,Review Score,Date,Product ID,Product Name,Display Name,Email\n' +
      'A,Fourth of July or seventh of April,4,07/04/2024,P1,Pot,Al,\nB,Thirteenth of April,4,13/04/2024,P1,Pot,Bo,\n';
    const guessed = await upload(dates, file, { dry_run: 'true' });
    expect(guessed.body).toMatchObject({
      rejected_count: 1,
      rejected: [{
        row: 2,
        message: 'Date: "07/04/2024" reads as day/month or month/day; choose the file\'s date order (dmy or mdy)',
      }],
    });
    expect((await upload(dates, file, { date_order: 'ymd' })).status).toBe(422);
    const worker2 = await startWorker([dates.org.id]);
    const chosen = await upload(dates, file, { date_order: 'dmy' });
    expect(chosen.body).toMatchObject({ rejected_count: 0, rejected: [] });
    expect(await finished(dates, chosen.body.id)).toMatchObject({ imported: 2 });
    const list = await api('GET', `/api/v1/organizations/${dates.org.id}/reviews?limit=10`, { key: dates.keys.read });
    expect(list.body.data.map((r: any) => r.created_at).sort()).toEqual([
      '2024-04-07T00:00:00.000Z',
      '2024-04-13T00:00:00.000Z',
    ]);
    await worker2.stop();
  });

  it('refuses implausible dates, offsets and ratings that are not plain numbers, each with its row', async () => {
    const res = await upload(
      t,
      'title,body,rating,review_date,source,curated,reviewer_name,reviewer_email,product_id,product_handle,' +
        'reply,reply_date\n' +
        ',Far reply,5,2024-01-02,web,ok,Al,,,,Thanks,9999-12-31\n,Ancient,5,0100-01-01,web,ok,Bo,,,,,\n' +
        ',Offset,5,2024-01-02T10:00:00+99:99,web,ok,Cy,,,,,\n,Hex,0x5,2024-01-02,web,ok,Di,,,,,\n',
      { dry_run: 'true' },
    );
    expect(res.body).toMatchObject({
      rejected_count: 4,
      rejected: [
        { row: 2, message: 'reply_date: in the future ("9999-12-31")' },
        { row: 3, message: 'review_date: before 1995 ("0100-01-01")' },
        { row: 4, message: 'review_date: not a date ("2024-01-02T10:00:00+99:99")' },
        { row: 5, message: 'rating: must be a whole number from 1 to 5, not "0x5"' },
      ],
    });
  });

  it('answers a file of 200,000 bad rows in a few kilobytes: every refusal counted, the first 100 kept', async () => {
    const big = await createTenant();
    const header = 'Review Title,Review Content,Review Score,Date,Product ID,Product Name,Display Name,Email\n';
    const csv = header + 'Bad,Nine stars,9,2024-01-01,P1,Pot,Al,\n'.repeat(200_000) +
      Array.from({ length: 50 }, (_, i) => `Good,Review ${i},5,2024-01-01,P1,Pot,Al,\n`).join('');
    const BOUND = 16 * 1024;
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'reviews.csv');
    const res = await fetch(`${await apiUrl()}${path(big)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${big.keys.write}` },
      body: form,
    });
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).toBe(202);
    expect(text.length).toBeLessThan(BOUND);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ total_rows: 200_050, rejected_count: 200_000 });
    expect(body.rejected).toHaveLength(100);
    expect(body.rejected.map((r: { row: number }) => r.row)).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
    const bigWorker = await startWorker([big.org.id]);
    expect(await finished(big, body.id)).toMatchObject({ imported: 50, rejected_count: 200_000 });
    await bigWorker.stop();
    const one = await fetch(`${await apiUrl()}${path(big, `/${body.id}`)}`, {
      headers: { authorization: `Bearer ${big.keys.read}` },
    });
    expect((await one.text()).length).toBeLessThan(BOUND);
    const list = await fetch(`${await apiUrl()}${path(big)}`, {
      headers: { authorization: `Bearer ${big.keys.read}` },
    });
    expect((await list.text()).length).toBeLessThan(BOUND);
    const [event] = await db<{ size: number; count: number; kept: number }[]>`
      select octet_length(data::text) as size, (data ->> 'rejected_count')::integer as count,
             jsonb_array_length(data -> 'rejected') as kept
        from plaudit.events where org_id = ${big.org.id} and type = 'import.completed'`;
    expect(event.size).toBeLessThan(BOUND);
    expect(event).toMatchObject({ count: 200_000, kept: 100 });
  });
});
