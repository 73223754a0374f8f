// The business's side of visitors' reports: listed newest first in the pagination envelope, by
// status, with the review each is about; resolved with a resolution, when and by whom; read and
// write scopes; another tenant's key 403 and another tenant's report 404.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { errorBody } from '../../helpers/http.ts';
import { createForm, freshIp, ownApiServer, postReviews } from '../../helpers/reviews.ts';

const server = ownApiServer();
const call = server.call;

let t: Tenant;
let other: Tenant;
let reviewIds: string[];
let otherReport: string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const reportsOf = (tenant: Tenant) => `/api/v1/organizations/${tenant.org.id}/reports`;
const report = (tenant: Tenant, reviewId: string, body: unknown) =>
  call('POST', `/api/v1/public/reviews/${tenant.org.slug}/${reviewId}/reports`, {
    body,
    headers: { 'x-forwarded-for': freshIp(), 'user-agent': 'Mozilla/5.0' },
  });

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  reviewIds = await postReviews((await createForm(call, t)).id, `reports-${t.org.id}`, [
    [1, 'Awful', 'Call me on 555 0100', 'Ann'],
    [5, null, 'Best shop ever, buy now', 'Bob'],
    [4, 'Fine', 'Took a while', 'Cy'],
  ]);
  for (const [i, reason] of (['personal_data', 'spam', 'other'] as const).entries()) {
    expect((await report(t, reviewIds[i], { reason, details: i === 0 ? 'A phone number' : undefined })).status)
      .toBe(202);
  }
  const [otherReview] = await postReviews((await createForm(call, other)).id, `reports-${other.org.id}`, [
    [2, null, 'Another business', 'Di'],
  ]);
  expect((await report(other, otherReview, { reason: 'offensive' })).status).toBe(202);
  [{ id: otherReport }] = await db`select id from plaudit.review_reports where org_id = ${other.org.id}`;
});

describe('GET /api/v1/organizations/:orgId/reports', () => {
  it('lists the organization’s reports newest first, each with its review, in the pagination envelope', async () => {
    const res = await call('GET', reportsOf(t), { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 3, page: 1, limit: 20, totalPages: 1 });
    expect(res.body.data.map((r: any) => r.reason)).toEqual(['other', 'spam', 'personal_data']);
    expect(res.body.data[2]).toEqual({
      id: expect.stringMatching(UUID),
      review_id: reviewIds[0],
      review: {
        id: reviewIds[0],
        rating: 1,
        title: 'Awful',
        content: 'Call me on 555 0100',
        reviewer_name: 'Ann',
        is_hidden: false,
      },
      reason: 'personal_data',
      details: 'A phone number',
      kind: 'policy',
      legal_ground: null,
      status: 'open',
      decision: null,
      resolution: null,
      resolved_at: null,
      resolved_by: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const paged = await call('GET', `${reportsOf(t)}?limit=2&page=2`, { key: t.keys.read });
    expect(paged.body.meta).toEqual({ total: 3, page: 2, limit: 2, totalPages: 2 });
    expect(paged.body.data.map((r: any) => r.reason)).toEqual(['personal_data']);
  });

  it('filters by status, and refuses other statuses and pages (400)', async () => {
    const open = await call('GET', `${reportsOf(t)}?status=open`, { key: t.keys.read });
    expect(open.body.meta.total).toBe(open.body.data.length);
    expect(open.body.data.every((r: any) => r.status === 'open')).toBe(true);
    for (const q of ['status=closed', 'status=', 'page=0', 'limit=101']) {
      const res = await call('GET', `${reportsOf(t)}?${q}`, { key: t.keys.read });
      expect(res.status, q).toBe(400);
      expect(res.body).toEqual(errorBody(400, 'Bad Request', new RegExp(`^${q.split('=')[0]}: `)));
    }
  });
});

describe('PATCH /api/v1/organizations/:orgId/reports/:id', () => {
  it('resolves a report with its resolution, when and by whom; the review does not change', async () => {
    const list = await call('GET', `${reportsOf(t)}?status=open`, { key: t.keys.read });
    const target = list.body.data.find((r: any) => r.reason === 'spam');
    const res = await call('PATCH', `${reportsOf(t)}/${target.id}`, {
      key: t.keys.write,
      body: { status: 'resolved', resolution: '  A real customer: kept.  ' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...target,
      status: 'resolved',
      decision: 'kept',
      resolution: 'A real customer: kept.',
      resolved_at: expect.stringMatching(/Z$/),
      resolved_by: `api_key:${t.keyIds.write}`,
    });
    const resolved = await call('GET', `${reportsOf(t)}?status=resolved`, { key: t.keys.read });
    expect(resolved.body.data.map((r: any) => r.id)).toEqual([target.id]);
    const open = await call('GET', `${reportsOf(t)}?status=open`, { key: t.keys.read });
    expect(open.body.data.map((r: any) => r.id)).not.toContain(target.id);
    // Resolving it again replaces the resolution.
    const again = await call('PATCH', `${reportsOf(t)}/${target.id}`, {
      key: t.keys.admin,
      body: { status: 'resolved', resolution: 'Checked twice.' },
    });
    expect(again.body).toMatchObject({ resolution: 'Checked twice.', resolved_by: `api_key:${t.keyIds.admin}` });
    const [review] = await db`select is_hidden from plaudit.reviews
                               where id = ${target.review_id}`;
    expect(review.is_hidden).toBe(false);
  });

  it('refuses a resolution that is not one (422, naming the field), changing nothing', async () => {
    const list = await call('GET', `${reportsOf(t)}?status=open`, { key: t.keys.read });
    const id = list.body.data[0].id;
    const cases: [unknown, RegExp][] = [
      [{ status: 'resolved' }, /^resolution: /],
      [{ status: 'resolved', resolution: '   ' }, /^resolution: /],
      [{ status: 'resolved', resolution: 'x'.repeat(2001) }, /^resolution: /],
      [{ status: 'open', resolution: 'Reopened' }, /^status: /],
      [{ status: 'resolved', decision: 'deleted', resolution: 'Gone' }, /^decision: /],
      [{ status: 'resolved', decision: null, resolution: 'Gone' }, /^decision: /],
    ];
    for (const [body, message] of cases) {
      const res = await call('PATCH', `${reportsOf(t)}/${id}`, { key: t.keys.write, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', message));
    }
    const [row] = await db`select status from plaudit.review_reports where id = ${id}`;
    expect(row.status).toBe('open');
  });

  it('answers 404 for an unknown report, and for another organization’s report', async () => {
    for (const id of [crypto.randomUUID(), otherReport]) {
      const res = await call('PATCH', `${reportsOf(t)}/${id}`, {
        key: t.keys.write,
        body: { status: 'resolved', resolution: 'Taken over' },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorBody(404, 'Not Found', /^Report not found$/));
    }
    const [row] = await db`select status from plaudit.review_reports where id = ${otherReport}`;
    expect(row.status).toBe('open');
  });
});

describe('scopes and tenancy', () => {
  it('needs read to list and write to resolve', async () => {
    const list = await call('GET', `${reportsOf(t)}?status=open`, { key: t.keys.read });
    const res = await call('PATCH', `${reportsOf(t)}/${list.body.data[0].id}`, {
      key: t.keys.read,
      body: { status: 'resolved', resolution: 'x' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(errorBody(403, 'Forbidden', /needs an API key with the write scope; this key has read/));
    expect((await call('GET', reportsOf(t))).status).toBe(401);
  });

  it("another organization's key gets 403 on this organization's reports", async () => {
    const list = await call('GET', reportsOf(t), { key: other.keys.admin });
    expect(list.status).toBe(403);
    expect(list.body).toEqual(errorBody(403, 'Forbidden', /another organization/));
    const own = await call('GET', reportsOf(other), { key: other.keys.read });
    expect(own.body.data.map((r: any) => r.id)).toEqual([otherReport]);
  });
});
