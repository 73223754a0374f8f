// Idempotency-Key on every POST that takes an API key (middleware/idempotency): a retried call
// answers the first result and does nothing again, as Stripe's API does.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { createForm } from '../../helpers/review-requests.ts';

let t: Tenant;
let formId: string;
beforeAll(async () => {
  t = await createTenant();
  formId = (await createForm(t)).id;
});

const orgPath = (rest: string) => `/api/v1/organizations/${t.org.id}${rest}`;
const newKey = () => crypto.randomUUID();

async function requestsFor(email: string) {
  const [row] = await db`
    select (select count(*)::integer from plaudit.review_requests where org_id = ${t.org.id} and email = ${email}) as requests,
           (select count(*)::integer from plaudit.email_outbox where org_id = ${t.org.id} and to_address = ${email}) as mails`;
  return row;
}

describe('Idempotency-Key', () => {
  it('a retried review request answers the first result, byte for byte, and mails once', async () => {
    const key = newKey();
    const body = { email: 'once@example.com', name: 'Once', form_id: formId };
    const first = await fetch(`${(await import('vitest')).inject('apiUrl')}${orgPath('/review-requests')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.keys.write}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    const firstText = await first.text();
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same body, spaced and ordered otherwise, is the same request.
    const again = await fetch(`${(await import('vitest')).inject('apiUrl')}${orgPath('/review-requests')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.keys.write}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body, null, 2),
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(firstText);
    expect(await requestsFor('once@example.com')).toEqual({ requests: 1, mails: 1 });
  });

  it('the same key with another body or on another route is refused with 422, changing nothing', async () => {
    const key = newKey();
    const headers = { 'idempotency-key': key };
    const body = { email: 'first@example.com', name: 'First', form_id: formId };
    expect((await api('POST', orgPath('/review-requests'), { key: t.keys.write, headers, body })).status).toBe(201);
    const other = await api('POST', orgPath('/review-requests'), {
      key: t.keys.write,
      headers,
      body: { ...body, email: 'second@example.com' },
    });
    expect(other.status).toBe(422);
    expect(other.body).toEqual(errorBody(422, 'Unprocessable Entity', /^Idempotency-Key: this key was already used/));
    expect(other.body.errors.map((e: any) => e.field)).toEqual(['Idempotency-Key']);
    expect(await requestsFor('second@example.com')).toEqual({ requests: 0, mails: 0 });
    const form = await api('POST', orgPath('/review-forms'), { key: t.keys.write, headers, body: { name: 'Another' } });
    expect(form.status).toBe(422);
    expect(await db`select 1 from plaudit.review_forms where org_id = ${t.org.id} and name = 'Another'`).toHaveLength(
      0,
    );
  });

  it('a call that failed keeps nothing: the same key may be used again', async () => {
    const headers = { 'idempotency-key': newKey() };
    const bad = await api('POST', orgPath('/review-forms'), { key: t.keys.write, headers, body: { name: '' } });
    expect(bad.status).toBe(422);
    const good = await api('POST', orgPath('/review-forms'), { key: t.keys.write, headers, body: { name: 'Fixed' } });
    expect(good.status).toBe(201);
    const replay = await api('POST', orgPath('/review-forms'), { key: t.keys.write, headers, body: { name: 'Fixed' } });
    expect(replay.body).toEqual(good.body);
  });

  it('concurrent calls with one key make one thing', async () => {
    const headers = { 'idempotency-key': newKey() };
    const calls = await Promise.all(
      Array.from(
        { length: 4 },
        () => api('POST', orgPath('/review-forms'), { key: t.keys.write, headers, body: { name: 'Raced' } }),
      ),
    );
    expect(calls.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(calls.map((r) => r.body.id)).size).toBe(1);
    expect(calls.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(3);
    expect(await db`select 1 from plaudit.review_forms where org_id = ${t.org.id} and name = 'Raced'`).toHaveLength(1);
  });

  it('an answer that showed a secret is not kept: a retry is told the call was carried out', async () => {
    const headers = { 'idempotency-key': newKey() };
    const body = { name: 'deploy bot', scope: 'read' };
    const first = await api('POST', orgPath('/api-keys'), { key: t.keys.admin, headers, body });
    expect(first.status).toBe(201);
    const retry = await api('POST', orgPath('/api-keys'), { key: t.keys.admin, headers, body });
    expect(retry.status).toBe(409);
    expect(retry.body).toEqual(errorBody(409, 'Conflict', /carried out already; its answer showed a secret/));
    expect(JSON.stringify(retry.body)).not.toContain(first.body.key);
    expect(await db`select 1 from plaudit.api_keys where org_id = ${t.org.id} and name = 'deploy bot'`).toHaveLength(1);
    const [kept] = await db`
      select response from plaudit.idempotency_keys where org_id = ${t.org.id} and key = ${headers['idempotency-key']}`;
    expect(kept.response).toBeNull();
  });

  it('keys are per organization', async () => {
    const other = await createTenant();
    const headers = { 'idempotency-key': 'shared-key-1' };
    const mine = await api('POST', orgPath('/review-forms'), { key: t.keys.write, headers, body: { name: 'Mine' } });
    const theirs = await api('POST', `/api/v1/organizations/${other.org.id}/review-forms`, {
      key: other.keys.write,
      headers,
      body: { name: 'Mine' },
    });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('400 for a key that is not 1 to 255 visible ASCII characters', async () => {
    for (const key of ['x'.repeat(256), 'with space', 'tab\there']) {
      const res = await api('POST', orgPath('/review-forms'), {
        key: t.keys.write,
        headers: { 'idempotency-key': key },
        body: { name: 'Never' },
      });
      expect(res.status, key).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'Idempotency-Key', code: 'invalid', message: expect.any(String) }]);
    }
  });

  it('only POSTs honour the key: a PATCH with one runs every time, and the key stays free for a POST', async () => {
    const headers = { 'idempotency-key': newKey() };
    const path = orgPath(`/review-forms/${formId}`);
    const first = await api('PATCH', path, { key: t.keys.write, headers, body: { name: 'Renamed once' } });
    const second = await api('PATCH', path, { key: t.keys.write, headers, body: { name: 'Renamed twice' } });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.name).toBe('Renamed twice');
    expect(
      await db`select 1 from plaudit.idempotency_keys where org_id = ${t.org.id} and key = ${
        headers['idempotency-key']
      }`,
    )
      .toHaveLength(0);
    const post = await api('POST', orgPath('/review-forms'), { key: t.keys.write, headers, body: { name: 'After' } });
    expect([post.status, post.headers.get('idempotent-replayed')]).toEqual([201, null]);
  });

  it('every POST that takes a key documents the header', async () => {
    const doc = (await api('GET', '/api/v1/openapi.json')).body;
    const posts = Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) =>
      ops.post?.security?.length ? [[path, ops.post]] as const : []
    );
    expect(posts.length).toBeGreaterThan(10);
    for (const [path, op] of posts) {
      expect(op.parameters?.some((p: any) => p.in === 'header' && p.name === 'idempotency-key'), path).toBe(true);
    }
  });
});
