import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyHexSignature, verifyStandardSignature } from '../../../functions/_shared/core/webhooks/signing.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api, errorBody } from '../../helpers/http.ts';
import { type Receiver, startReceiver } from '../../helpers/receiver.ts';

let t: Tenant;
let other: Tenant;
let receiver: Receiver;
const base = () => `/api/v1/organizations/${t.org.id}/webhooks`;

async function register(body: Record<string, unknown> = {}, key = t.keys.write) {
  return api('POST', base(), { key, body: { url: `${receiver.url}/hook`, events: ['review.created'], ...body } });
}

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

describe('registering webhooks', () => {
  it('answers 201 with the secret once; listings never show it', async () => {
    const res = await register({ description: 'orders system' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: `${receiver.url}/hook`,
      events: ['review.created'],
      description: 'orders system',
      enabled: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      failing_since: null,
      slow_since: null,
      created_at: expect.stringMatching(/Z$/),
    });
    const list = await api('GET', base(), { key: t.keys.read });
    expect(list.status).toBe(200);
    const item = list.body.data.find((w: { id: string }) => w.id === res.body.id);
    expect(item).toBeDefined();
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    expect(list.body.meta).toMatchObject({ page: 1, limit: 20 });
    const one = await api('GET', `${base()}/${res.body.id}`, { key: t.keys.read });
    expect(one.status).toBe(200);
    expect(one.body.secret).toBeUndefined();
    const [stored] = await db`select secret from plaudit.webhook_endpoints where id = ${res.body.id}`;
    expect(stored.secret).toBe(res.body.secret);
  });

  it('validates the URL and the events (422 naming the field)', async () => {
    for (
      const [body, field] of [
        [{ url: 'ftp://127.0.0.1/x' }, /url/],
        [{ url: 'not a url' }, /url/],
        [{ url: 'http://user:pw@127.0.0.1/x' }, /url/],
        [{ events: [] }, /events/],
        [{ events: ['review.deleted'] }, /events/],
        [{ events: ['review.created', 'review.created'] }, /events/],
      ] as const
    ) {
      const res = await register(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(errorBody(422, 'Unprocessable Entity', field));
    }
  });

  it('needs the write scope to register and read to list; other tenants get 403', async () => {
    expect((await register({}, t.keys.read)).status).toBe(403);
    expect((await api('GET', base(), { key: t.keys.read })).status).toBe(200);
    expect((await api('GET', base(), { key: other.keys.admin })).status).toBe(403);
    expect((await api('GET', base())).status).toBe(401);
  });

  it('keeps tenants apart: another organization cannot see or touch an endpoint', async () => {
    const mine = await register();
    const theirs = await api('GET', `/api/v1/organizations/${other.org.id}/webhooks/${mine.body.id}`, {
      key: other.keys.admin,
    });
    expect(theirs.status).toBe(404);
    const del = await api('DELETE', `/api/v1/organizations/${other.org.id}/webhooks/${mine.body.id}`, {
      key: other.keys.admin,
    });
    expect(del.status).toBe(404);
    const rotate = await api('POST', `/api/v1/organizations/${other.org.id}/webhooks/${mine.body.id}/rotate-secret`, {
      key: other.keys.admin,
    });
    expect(rotate.status).toBe(404);
  });

  it('deletes with 204, then 404', async () => {
    const { body } = await register();
    expect((await api('DELETE', `${base()}/${body.id}`, { key: t.keys.write })).status).toBe(204);
    expect((await api('DELETE', `${base()}/${body.id}`, { key: t.keys.write })).status).toBe(404);
    expect((await api('GET', `${base()}/${body.id}`, { key: t.keys.read })).status).toBe(404);
  });

  it('enables and disables; updates url, events and description', async () => {
    const { body } = await register();
    const off = await api('PATCH', `${base()}/${body.id}`, { key: t.keys.write, body: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({
      enabled: false,
      disabled_reason: 'disabled through the API',
      disabled_at: expect.any(String),
    });
    const on = await api('PATCH', `${base()}/${body.id}`, {
      key: t.keys.write,
      body: { enabled: true, events: ['*'], description: 'all', url: `${receiver.url}/other` },
    });
    expect(on.body).toMatchObject({
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      events: ['*'],
      description: 'all',
      url: `${receiver.url}/other`,
    });
    const bad = await api('PATCH', `${base()}/${body.id}`, { key: t.keys.write, body: { url: 'gopher://x' } });
    expect(bad.status).toBe(422);
  });
});

describe('POST …/webhooks/:id/test', () => {
  it('delivers a signed webhook.test at once and answers the outcome', async () => {
    const { body: hook } = await register();
    const before = receiver.requests.length;
    const res = await api('POST', `${base()}/${hook.id}/test`, { key: t.keys.write });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      webhook_id: hook.id,
      event: 'webhook.test',
      is_test: true,
      status: 'succeeded',
      attempts: 1,
      last_status_code: 200,
      message_id: expect.stringMatching(/^msg_/),
    });
    expect(res.body.attempt_log).toEqual([
      expect.objectContaining({ attempt: 1, status_code: 200, response_snippet: 'ok' }),
    ]);
    const req = receiver.requests[before];
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    const payload = JSON.parse(req.body);
    expect(payload).toEqual({
      event: 'webhook.test',
      timestamp: expect.stringMatching(/Z$/),
      data: expect.objectContaining({ webhook_id: hook.id }),
    });
    expect(await verifyHexSignature(hook.secret, req.body, req.headers['x-webhook-signature'] as string)).toBe(true);
    expect(req.headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(req.headers['webhook-id']).toBe(res.body.message_id);
    expect(
      await verifyStandardSignature(hook.secret, req.body, {
        id: req.headers['webhook-id'] as string,
        timestamp: req.headers['webhook-timestamp'] as string,
        signature: req.headers['webhook-signature'] as string,
      }),
    ).toBe(true);
    // A tampered body or another secret does not verify.
    expect(await verifyHexSignature(hook.secret, req.body + ' ', req.headers['x-webhook-signature'] as string)).toBe(
      false,
    );
  });

  it('sends a sample of the event named in the body', async () => {
    const { body: hook } = await register();
    const before = receiver.requests.length;
    const res = await api('POST', `${base()}/${hook.id}/test`, {
      key: t.keys.write,
      body: { event: 'review.created' },
    });
    expect(res.status).toBe(200);
    const payload = JSON.parse(receiver.requests[before].body);
    expect(payload.event).toBe('review.created');
    expect(payload.data).toMatchObject({
      id: expect.any(String),
      rating: expect.any(Number),
      content: expect.any(String),
      reviewer_name: expect.any(String),
    });
    const bad = await api('POST', `${base()}/${hook.id}/test`, { key: t.keys.write, body: { event: 'nope' } });
    expect(bad.status).toBe(422);
  });

  it('reports a failing endpoint without retrying a test', async () => {
    const failing = await startReceiver(() => ({ status: 500, body: 'boom' }));
    try {
      const { body: hook } = await register({ url: failing.url });
      const res = await api('POST', `${base()}/${hook.id}/test`, { key: t.keys.write });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'failed',
        last_status_code: 500,
        last_error: 'answered 500',
        next_attempt_at: null,
      });
      expect(res.body.attempt_log[0]).toMatchObject({ status_code: 500, response_snippet: 'boom' });
      const log = await api('GET', `${base()}/${hook.id}/deliveries`, { key: t.keys.read });
      expect(log.status).toBe(200);
      expect(log.body.meta.total).toBe(1);
      expect(log.body.data[0]).toMatchObject({ id: res.body.id, status: 'failed' });
    } finally {
      await failing.close();
    }
  });

  it('answers 404 for an unknown webhook', async () => {
    const res = await api('POST', `${base()}/00000000-0000-4000-8000-000000000000/test`, { key: t.keys.write });
    expect(res.status).toBe(404);
  });
});

describe('rotating the secret', () => {
  it('signs with both secrets for 24 hours', async () => {
    const { body: hook } = await register();
    const rotated = await api('POST', `${base()}/${hook.id}/rotate-secret`, { key: t.keys.write });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    const expires = Date.parse(rotated.body.previous_secret_expires_at);
    expect(Math.abs(expires - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);

    const before = receiver.requests.length;
    await api('POST', `${base()}/${hook.id}/test`, { key: t.keys.write });
    const req = receiver.requests[before];
    const headers = {
      id: req.headers['webhook-id'] as string,
      timestamp: req.headers['webhook-timestamp'] as string,
      signature: req.headers['webhook-signature'] as string,
    };
    expect(headers.signature.split(' ')).toHaveLength(2);
    expect(await verifyStandardSignature(rotated.body.secret, req.body, headers)).toBe(true);
    expect(await verifyStandardSignature(hook.secret, req.body, headers)).toBe(true);
    expect(await verifyHexSignature(rotated.body.secret, req.body, req.headers['x-webhook-signature'] as string)).toBe(
      true,
    );
    expect(await verifyHexSignature(hook.secret, req.body, req.headers['x-webhook-signature-previous'] as string)).toBe(
      true,
    );

    // Once the window has passed, only the new secret signs.
    await db`update plaudit.webhook_endpoints set previous_secret_expires_at = now() - interval '1 second' where id = ${hook.id}`;
    const after = receiver.requests.length;
    await api('POST', `${base()}/${hook.id}/test`, { key: t.keys.write });
    const req2 = receiver.requests[after];
    expect((req2.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(req2.headers['x-webhook-signature-previous']).toBeUndefined();
    const get = await api('GET', `${base()}/${hook.id}`, { key: t.keys.read });
    expect(get.body.previous_secret_expires_at).toBeNull();
  });
});

describe('the secret is not readable by the API role', () => {
  it('refuses plaudit_api a select of the secret columns', async () => {
    await expect(db.begin(async (tx) => {
      await tx`select set_config('plaudit.org_id', ${t.org.id}, true)`;
      await tx.unsafe('set local role plaudit_api');
      await tx`select secret from plaudit.webhook_endpoints`;
    })).rejects.toThrow(/permission denied/);
    await expect(db.begin(async (tx) => {
      await tx.unsafe('set local role plaudit_api');
      await tx`select previous_secret from plaudit.webhook_endpoints`;
    })).rejects.toThrow(/permission denied/);
  });
});

describe('redelivery', () => {
  it('queues a finished delivery again with the same webhook-id; 409 while queued', async () => {
    const { body: hook } = await register();
    const test = await api('POST', `${base()}/${hook.id}/test`, { key: t.keys.write });
    const again = await api('POST', `${base()}/${hook.id}/deliveries/${test.body.id}/redeliver`, { key: t.keys.write });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({
      id: test.body.id,
      status: 'pending',
      message_id: test.body.message_id,
      next_attempt_at: expect.any(String),
    });
    const twice = await api('POST', `${base()}/${hook.id}/deliveries/${test.body.id}/redeliver`, { key: t.keys.write });
    expect(twice.status).toBe(409);
    const detail = await api('GET', `${base()}/${hook.id}/deliveries/${test.body.id}`, { key: t.keys.read });
    expect(detail.status).toBe(200);
    expect(JSON.parse(detail.body.payload).event).toBe('webhook.test');
    const missing = await api(
      'POST',
      `${base()}/${hook.id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`,
      { key: t.keys.write },
    );
    expect(missing.status).toBe(404);
  });
});

describe('a deployed service (environment production)', () => {
  it('refuses private, loopback and plain-http URLs at registration, and accepts public https', async () => {
    const { createApp } = await import('../../../functions/_shared/api/app.ts');
    const { loadConfig } = await import('../../../functions/_shared/core/config.ts');
    const { createSql } = await import('../../../functions/_shared/core/db/client.ts');
    const { setWebhookResolver } = await import('../../../functions/_shared/api/routes/webhooks/index.ts');
    const sql = createSql(process.env.TEST_API_DATABASE_URL!, { max: 2 });
    setWebhookResolver(async (host) => (host === 'hooks.example.com' ? ['93.184.216.34'] : ['10.0.0.7']));
    try {
      const app = createApp({
        sql,
        config: loadConfig({ databaseUrl: 'unused', environment: 'production' }),
        log: () => {},
      });
      const post = (url: string) =>
        app.request(`/api/v1/organizations/${t.org.id}/webhooks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.keys.write}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url, events: ['review.created'] }),
        });
      for (
        const url of [
          'http://hooks.example.com/x',
          'https://127.0.0.1/x',
          'https://localhost/x',
          'https://2130706433/x',
          'https://[::ffff:10.0.0.1]/x',
          'https://169.254.169.254/latest',
          'https://internal.example.org/x',
        ]
      ) {
        const res = await post(url);
        expect(res.status, url).toBe(422);
        expect((await res.json()).message).toMatch(/^url: /);
      }
      const ok = await post('https://hooks.example.com/plaudit');
      expect(ok.status).toBe(201);
    } finally {
      const { resolveHost } = await import('../../../functions/_shared/core/net/dns.ts');
      setWebhookResolver(resolveHost);
      await sql.end({ timeout: 2 });
    }
  });
});
