// Review requests through the API: creating one or many (sent over real SMTP into the development
// capture, /_dev/mail), send_at, validation, idempotency, the daily quota, and the document's routes.
import { describe, expect, it } from 'vitest';
import { createTenant, db } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { eventually } from '../../helpers/receiver.ts';
import {
  capturedMail,
  createForm,
  getRequest,
  linkIn,
  local,
  requestsPath,
  tenantsWithMail,
  waitForMail,
  waitForStatus,
} from '../../helpers/review-requests.ts';

const setup = tenantsWithMail();

describe('creating review requests', () => {
  it('creates one request, sends it over SMTP and marks it sent', async () => {
    const { t, form, domain, to } = await setup();
    const res = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: {
        email: `ann@${domain}`,
        name: 'Ann',
        form_id: form.id,
        order_id: 'A-1',
        external_id: 'ext-1',
        is_admin: true,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      email: `ann@${domain}`,
      name: 'Ann',
      form_id: form.id,
      order_id: 'A-1',
      external_id: 'ext-1',
      locale: 'en',
      status: 'queued',
      sent_at: null,
      created_at: expect.stringMatching(/Z$/),
      events: [{ type: 'queued', occurred_at: expect.stringMatching(/Z$/), data: {} }],
    });
    expect(res.body).not.toHaveProperty('is_admin');
    const [mail] = await waitForMail(to, 1);
    expect(mail.subject).toBe(`How was your experience with ${t.org.name}?`);
    expect(mail.text).toContain('Hello Ann,');
    const sent = await waitForStatus(t, res.body.id, 'sent');
    expect(sent.sent_at).toMatch(/Z$/);
    expect(sent.events.map((e: { type: string }) => e.type)).toEqual(['queued', 'sent']);

    // The same external_id again: 409, nothing sent.
    const again = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: `ann@${domain}`, name: 'Ann', form_id: form.id, external_id: 'ext-1' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(errorBody(409, 'Conflict', /external_id/));
  });

  it('validates: 422 naming the field, 404 for an unknown form, read keys refused', async () => {
    const { t, form } = await setup();
    const bad = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: 'nope', name: 'A', form_id: form.id },
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(errorBody(422, 'Unprocessable Entity', /email/));
    const far = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: 'a@b.example', name: 'A', form_id: form.id, send_at: '2099-01-01T00:00:00Z' },
    });
    expect(far.status).toBe(422);
    const unknown = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: 'a@b.example', name: 'A', form_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.status).toBe(404);
    const other = await createTenant();
    const otherForm = await createForm(other);
    const foreign = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: 'a@b.example', name: 'A', form_id: otherForm.id },
    });
    expect(foreign.status).toBe(404);
    const read = await api('POST', requestsPath(t), {
      key: t.keys.read,
      body: { email: 'a@b.example', name: 'A', form_id: form.id },
    });
    expect(read.status).toBe(403);
  });

  it('waits for send_at before sending', async () => {
    const { t, form, domain } = await setup();
    const sendAt = new Date(Date.now() + 3600_000).toISOString();
    const res = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: `later@${domain}`, name: 'L', form_id: form.id, send_at: sendAt },
    });
    expect(res.status).toBe(201);
    expect(res.body.send_at).toBe(sendAt);
    expect(res.body.events[0].data).toEqual({ send_at: expect.any(String) });
    await new Promise((r) => setTimeout(r, 500));
    expect((await getRequest(t, res.body.id)).status).toBe('queued');
    const [row] =
      await db`select next_attempt_at from plaudit.email_outbox where data ->> 'review_request_id' = ${res.body.id}`;
    expect(row.next_attempt_at.toISOString()).toBe(sendAt);
  });

  it('bulk: 200 accepted rows give 200 e-mails with their own links; bad rows are listed by index', async () => {
    const { t, form, domain, to } = await setup();
    const rows: unknown[] = Array.from({ length: 200 }, (_, i) => ({
      email: `c${i}@${domain}`,
      name: `Customer ${i}`,
      form_id: form.id,
      external_id: `order-${i}`,
      locale: i % 2 ? 'de' : 'en',
    }));
    rows.splice(10, 0, { email: 'not-an-email', name: 'X', form_id: form.id });
    rows.splice(20, 0, { email: `dup@${domain}`, name: 'Dup', form_id: form.id, external_id: 'order-3' });
    const res = await api('POST', requestsPath(t, '/bulk'), { key: t.keys.write, body: { requests: rows } });
    expect(res.status).toBe(202);
    expect(res.body.accepted).toBe(200);
    expect(res.body.data).toHaveLength(200);
    expect(res.body.rejected).toEqual([
      { index: 10, message: expect.stringMatching(/^email: /) },
      { index: 20, message: expect.stringMatching(/^external_id: repeats/) },
    ]);
    expect(res.body.data[0]).toMatchObject({ email: `c0@${domain}`, status: 'queued', events: [{ type: 'queued' }] });

    const mails = await waitForMail(to, 200, 60_000);
    expect(mails).toHaveLength(200);
    const byAddress = new Map(mails.map((m) => [m.to, m]));
    expect(byAddress.size).toBe(200);
    const tokens = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const m = byAddress.get(`c${i}@${domain}`)!;
      expect(m.subject).toBe(
        i % 2 ? `Wie war Ihre Erfahrung mit ${t.org.name}?` : `How was your experience with ${t.org.name}?`,
      );
      expect(m.text).toContain(`Customer ${i}`);
      const review = linkIn(m.text, /\/t\/c\/[A-Za-z0-9_-]{43}$/);
      const token = review.split('/').pop()!;
      tokens.add(token);
      expect(m.text).toContain(`${review}?rating=5`);
      expect(linkIn(m.text, /\/unsubscribe\//)).toMatch(new RegExp(`/unsubscribe/${token}$`));
      expect(m.html).toContain(`/t/o/${token}.gif`);
    }
    expect(tokens.size).toBe(200);
    // A landing page from one of the messages is that recipient's.
    const m7 = byAddress.get(`c7@${domain}`)!;
    const landing = await fetch(local(linkIn(m7.text, /\/t\/c\/[^?]+$/)));
    expect(landing.status).toBe(200);
    expect(landing.url).toMatch(/\/r\/[A-Za-z0-9_-]{43}\?c=1$/);
    const page = await landing.text();
    expect(page).toContain(`value="c7@${domain}"`);
    expect(page).toContain('value="Customer 7"');

    await eventually(
      async () => {
        const list = await api('GET', `${requestsPath(t)}?status=sent&limit=1`, { key: t.keys.read });
        return list.body.meta.total === 199 && list;
      },
      20_000,
      'all sent',
    );
  });

  it('an Idempotency-Key answers the first result again and sends nothing twice; a repeated external_id is refused', async () => {
    const { t, form, domain, to } = await setup();
    const body = {
      requests: Array.from(
        { length: 5 },
        (_, i) => ({ email: `i${i}@${domain}`, name: `I${i}`, form_id: form.id, external_id: `x-${i}` }),
      ),
    };
    const headers = { 'idempotency-key': `batch-${t.org.slug}` };
    const first = await api('POST', requestsPath(t, '/bulk'), { key: t.keys.write, body, headers });
    expect(first.status).toBe(202);
    expect(first.body.accepted).toBe(5);
    const second = await api('POST', requestsPath(t, '/bulk'), { key: t.keys.write, body, headers });
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    const otherBody = await api('POST', requestsPath(t, '/bulk'), {
      key: t.keys.write,
      body: { requests: body.requests.slice(1) },
      headers,
    });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual(errorBody(422, 'Unprocessable Entity', /Idempotency-Key/));
    // Without the key, the same rows are refused by external_id.
    const third = await api('POST', requestsPath(t, '/bulk'), { key: t.keys.write, body });
    expect(third.status).toBe(202);
    expect(third.body.accepted).toBe(0);
    expect(third.body.rejected.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(third.body.rejected[0].message).toMatch(/external_id: .*not sent again/);

    await waitForMail(to, 5);
    await new Promise((r) => setTimeout(r, 500));
    expect(await capturedMail(to)).toHaveLength(5);
    const [{ n }] = await db`select count(*)::int as n from plaudit.review_requests where org_id = ${t.org.id}`;
    expect(n).toBe(5);
    const [{ m }] = await db`select count(*)::int as m from plaudit.email_outbox where org_id = ${t.org.id}`;
    expect(m).toBe(5);
  });

  it('refuses bodies outside 1–1,000 rows as a whole', async () => {
    const { t, form } = await setup();
    expect((await api('POST', requestsPath(t, '/bulk'), { key: t.keys.write, body: { requests: [] } })).status).toBe(
      422,
    );
    const many = Array.from({ length: 1001 }, () => ({ email: 'a@b.example', name: 'A', form_id: form.id }));
    expect((await api('POST', requestsPath(t, '/bulk'), { key: t.keys.write, body: { requests: many } })).status).toBe(
      422,
    );
  });

  it('a daily quota: beyond it, 429 in the error format with Retry-After, and nothing is created', async () => {
    const { t, form, domain } = await setup();
    expect((await api('PATCH', requestsPath(t, '/settings'), { key: t.keys.write, body: { daily_quota: 3 } })).status)
      .toBe(
        403,
      );
    const set = await api('PATCH', requestsPath(t, '/settings'), { key: t.keys.admin, body: { daily_quota: 3 } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ daily_quota: 3, used_today: 0, remaining_today: 3, reminders_enabled: false });
    for (let i = 0; i < 2; i++) {
      expect(
        (await api('POST', requestsPath(t), {
          key: t.keys.write,
          body: { email: `q${i}@${domain}`, name: 'Q', form_id: form.id },
        })).status,
      ).toBe(201);
    }
    const bulk = await api('POST', requestsPath(t, '/bulk'), {
      key: t.keys.write,
      body: { requests: [0, 1].map((i) => ({ email: `b${i}@${domain}`, name: 'B', form_id: form.id })) },
    });
    expect(bulk.status).toBe(429);
    expect(bulk.body).toEqual(errorBody(429, 'Too Many Requests', /quota of 3 .*1 remaining/));
    expect(Number(bulk.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(
      (await api('POST', requestsPath(t), {
        key: t.keys.write,
        body: { email: `q2@${domain}`, name: 'Q', form_id: form.id },
      }))
        .status,
    ).toBe(201);
    const over = await api('POST', requestsPath(t), {
      key: t.keys.write,
      body: { email: `q3@${domain}`, name: 'Q', form_id: form.id },
    });
    expect(over.status).toBe(429);
    const list = await api('GET', requestsPath(t), { key: t.keys.read });
    expect(list.body.meta.total).toBe(3);
    const settings = await api('GET', requestsPath(t, '/settings'), { key: t.keys.read });
    expect(settings.body).toMatchObject({ used_today: 3, remaining_today: 0 });
  });
});

describe('OpenAPI document', () => {
  it('documents every review-request route with its scope', async () => {
    const res = await api('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const paths = res.body.paths;
    const base = '/api/v1/organizations/{orgId}';
    for (
      const [p, method, scope] of [
        [`${base}/review-requests`, 'post', 'write'],
        [`${base}/review-requests/bulk`, 'post', 'write'],
        [`${base}/review-requests`, 'get', 'read'],
        [`${base}/review-requests/{id}`, 'get', 'read'],
        [`${base}/review-requests/stats`, 'get', 'read'],
        [`${base}/review-requests/settings`, 'get', 'read'],
        [`${base}/review-requests/settings`, 'patch', 'admin'],
        [`${base}/suppressions`, 'get', 'read'],
        [`${base}/suppressions`, 'post', 'write'],
        [`${base}/suppressions/{id}`, 'delete', 'write'],
        ['/api/v1/email-events', 'post', undefined],
      ] as const
    ) {
      const op = paths[p]?.[method];
      expect(op, `${method} ${p}`).toBeDefined();
      expect(op['x-required-scope'], `${method} ${p}`).toBe(scope);
    }
    expect(paths[`${base}/review-requests/bulk`].post.parameters).toContainEqual(
      expect.objectContaining({ name: 'idempotency-key', in: 'header' }),
    );
    for (
      const schema of [
        'ReviewRequest',
        'ReviewRequestInput',
        'BulkReviewRequestResult',
        'ReviewRequestStats',
        'Suppression',
        'ReviewRequestSettings',
      ]
    ) {
      expect(res.body.components.schemas[schema], schema).toBeDefined();
    }
  });
});
