import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';

let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  [a, b] = await Promise.all([createTenant(), createTenant()]);
});

const formsPath = (t: Tenant) => `/api/v1/organizations/${t.org.id}/review-forms`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const FIELDS = [
  { key: 'product', label: 'Product', type: 'select', required: true, options: ['Mug', 'Plate'] },
  { key: 'would_recommend', label: 'Would you recommend us?', type: 'boolean' },
  { key: 'visits', label: 'Visits', type: 'number', required: false },
  { key: 'headline', label: 'Headline', type: 'text' },
  { key: 'story', label: 'Story', type: 'textarea' },
];

async function createForm(t: Tenant, body: Record<string, unknown> = {}) {
  const res = await api('POST', formsPath(t), { key: t.keys.write, body: { name: 'Checkout form', ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

describe('POST /organizations/:orgId/review-forms', () => {
  it('creates a form with defaults and a submission URL', async () => {
    const res = await api('POST', formsPath(a), { key: a.keys.write, body: { name: '  Checkout  ' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Checkout',
      verification_mode: 'none',
      custom_fields: [],
      is_active: true,
      incentive: null,
      created_at: expect.stringMatching(/Z$/),
      submission_url: expect.stringMatching(new RegExp(`/forms/${res.body.id}$`)),
    });
    expect(res.body.submission_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/forms\//);
  });

  it('stores custom fields, normalised (required defaults to false, options only on select)', async () => {
    const form = await createForm(a, { custom_fields: FIELDS, verification_mode: 'manual', is_active: false });
    expect(form.verification_mode).toBe('manual');
    expect(form.is_active).toBe(false);
    expect(form.custom_fields).toEqual([
      { key: 'product', label: 'Product', type: 'select', required: true, options: ['Mug', 'Plate'] },
      { key: 'would_recommend', label: 'Would you recommend us?', type: 'boolean', required: false },
      { key: 'visits', label: 'Visits', type: 'number', required: false },
      { key: 'headline', label: 'Headline', type: 'text', required: false },
      { key: 'story', label: 'Story', type: 'textarea', required: false },
    ]);
    const [row] = await db`select org_id, custom_fields from plaudit.review_forms where id = ${form.id}`;
    expect(row.org_id).toBe(a.org.id);
    expect(row.custom_fields).toEqual(form.custom_fields);
  });

  it('ignores fields the client must not set', async () => {
    const res = await api('POST', formsPath(a), {
      key: a.keys.write,
      body: { name: 'x', id: '00000000-0000-4000-8000-000000000000', org_id: b.org.id, deleted_at: '2020-01-01' },
    });
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe('00000000-0000-4000-8000-000000000000');
    const [row] = await db`select org_id, deleted_at from plaudit.review_forms where id = ${res.body.id}`;
    expect(row).toEqual({ org_id: a.org.id, deleted_at: null });
  });

  it.each([
    [{}, /name/],
    [{ name: '' }, /name/],
    [{ name: 'x'.repeat(201) }, /name/],
    [{ name: 'x', verification_mode: 'sms' }, /verification_mode/],
    [{ name: 'x', is_active: 'yes' }, /is_active/],
    [{ name: 'x', custom_fields: {} }, /custom_fields/],
    [{ name: 'x', custom_fields: [{ key: 'Bad Key', label: 'l', type: 'text' }] }, /custom_fields\.0\.key/],
    [{ name: 'x', custom_fields: [{ key: 'k', label: '', type: 'text' }] }, /custom_fields\.0\.label/],
    [{ name: 'x', custom_fields: [{ key: 'k', label: 'l', type: 'date' }] }, /custom_fields\.0\.type/],
    [
      { name: 'x', custom_fields: [{ key: 'k', label: 'l', type: 'select' }] },
      /custom_fields\.0\.options: is required/,
    ],
    [
      { name: 'x', custom_fields: [{ key: 'k', label: 'l', type: 'text', options: ['a'] }] },
      /custom_fields\.0\.options: is only allowed/,
    ],
    [
      { name: 'x', custom_fields: [{ key: 'k', label: 'l', type: 'select', options: ['a', 'a'] }] },
      /custom_fields\.0\.options: must not repeat/,
    ],
    [
      { name: 'x', custom_fields: [{ key: 'k', label: 'l', type: 'text' }, { key: 'k', label: 'm', type: 'text' }] },
      /custom_fields\.1\.key: repeats/,
    ],
    [
      { name: 'x', custom_fields: Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, label: 'l', type: 'text' })) },
      /custom_fields/,
    ],
  ])('422 naming the field for %j', async (body, message) => {
    const res = await api('POST', formsPath(a), { key: a.keys.write, body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', message));
  });

  it('400 for malformed JSON', async () => {
    const res = await api('POST', formsPath(a), {
      key: a.keys.write,
      rawBody: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'Bad Request', /Malformed JSON/));
  });

  it("needs the write scope, a key, and the key's own organization", async () => {
    expect((await api('POST', formsPath(a), { key: a.keys.read, body: { name: 'x' } })).body)
      .toEqual(errorBody(403, 'Forbidden', /write scope/));
    expect((await api('POST', formsPath(a), { body: { name: 'x' } })).status).toBe(401);
    const other = await api('POST', formsPath(b), { key: a.keys.admin, body: { name: 'x' } });
    expect(other.status).toBe(403);
    expect(other.body).toEqual(errorBody(403, 'Forbidden', /another organization/));
  });

  it('the database refuses invalid definitions on its own', async () => {
    await expect(db`
      insert into plaudit.review_forms (org_id, name, custom_fields)
      values (${a.org.id}, 'x', ${db.json([{ key: 'k', label: 'l', type: 'select', options: [] }])})`)
      .rejects.toThrow(/review_forms_custom_fields_check/);
  });
});

describe('GET /organizations/:orgId/review-forms', () => {
  it("lists this organization's live forms, newest first, paginated", async () => {
    const t = await createTenant();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createForm(t, { name: `Form ${i}` }));
    const gone = await createForm(t, { name: 'Gone' });
    expect((await api('DELETE', `${formsPath(t)}/${gone.id}`, { key: t.keys.write })).status).toBe(204);

    const res = await api('GET', `${formsPath(t)}?limit=2`, { key: t.keys.read });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
    expect(res.body.data.map((f: { name: string }) => f.name)).toEqual(['Form 2', 'Form 1']);
    const page2 = await api('GET', `${formsPath(t)}?limit=2&page=2`, { key: t.keys.read });
    expect(page2.body.data.map((f: { id: string }) => f.id)).toEqual([made[0].id]);
  });

  it('400 for bad pagination', async () => {
    const res = await api('GET', `${formsPath(a)}?limit=101`, { key: a.keys.read });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBody(400, 'Bad Request', /limit/));
  });

  it('403 for another organization', async () => {
    expect((await api('GET', formsPath(b), { key: a.keys.read })).status).toBe(403);
  });
});

describe('GET / PATCH / DELETE /organizations/:orgId/review-forms/:id', () => {
  it('gets one form', async () => {
    const form = await createForm(a, { custom_fields: FIELDS });
    const res = await api('GET', `${formsPath(a)}/${form.id}`, { key: a.keys.read });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(form);
  });

  it("404 for an unknown id, another organization's form, and a deleted form; 400 for a bad id", async () => {
    const theirs = await createForm(b);
    for (const id of [crypto.randomUUID(), theirs.id]) {
      for (
        const [method, key, body] of [
          ['GET', a.keys.read, undefined],
          ['PATCH', a.keys.write, { name: 'mine now' }],
          ['DELETE', a.keys.write, undefined],
        ] as const
      ) {
        const res = await api(method, `${formsPath(a)}/${id}`, { key, body });
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(res.body).toEqual(errorBody(404, 'Not Found', /Review form not found/));
      }
    }
    const [row] = await db`select name from plaudit.review_forms where id = ${theirs.id}`;
    expect(row.name).toBe('Checkout form');
    expect((await api('GET', `${formsPath(a)}/not-a-uuid`, { key: a.keys.read })).status).toBe(400);
  });

  it('updates only the fields sent', async () => {
    const form = await createForm(a, { custom_fields: FIELDS });
    const res = await api('PATCH', `${formsPath(a)}/${form.id}`, {
      key: a.keys.write,
      body: { verification_mode: 'email', is_active: false, created_at: '2000-01-01T00:00:00Z' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...form, verification_mode: 'email', is_active: false });
    const empty = await api('PATCH', `${formsPath(a)}/${form.id}`, { key: a.keys.write, body: {} });
    expect(empty.body).toEqual(res.body);
    const fields = await api('PATCH', `${formsPath(a)}/${form.id}`, {
      key: a.keys.write,
      body: { name: 'Renamed', custom_fields: [] },
    });
    expect(fields.body).toMatchObject({ name: 'Renamed', custom_fields: [] });
  });

  it('422 for an invalid patch; 403 with a read key', async () => {
    const form = await createForm(a);
    const bad = await api('PATCH', `${formsPath(a)}/${form.id}`, { key: a.keys.write, body: { name: '' } });
    expect(bad.body).toEqual(errorBody(422, 'Unprocessable Entity', /name/));
    const read = await api('PATCH', `${formsPath(a)}/${form.id}`, { key: a.keys.read, body: { name: 'y' } });
    expect(read.status).toBe(403);
  });

  it('deletes a form: 204, then 404 everywhere; the row stays, marked deleted', async () => {
    const form = await createForm(a);
    const del = await api('DELETE', `${formsPath(a)}/${form.id}`, { key: a.keys.write });
    expect(del.status).toBe(204);
    expect(del.body).toBe('');
    expect((await api('GET', `${formsPath(a)}/${form.id}`, { key: a.keys.read })).status).toBe(404);
    expect((await api('DELETE', `${formsPath(a)}/${form.id}`, { key: a.keys.write })).status).toBe(404);
    const [row] = await db`select deleted_at from plaudit.review_forms where id = ${form.id}`;
    expect(row.deleted_at).toBeInstanceOf(Date);
    await expect(db`update plaudit.review_forms set deleted_at = null where id = ${form.id}`)
      .rejects.toThrow(/is deleted and cannot be changed/);
  });
});
