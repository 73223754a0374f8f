// The worker against real receivers on 127.0.0.1: signatures, retries, 410, timeouts,
// Retry-After, redirects, redelivery and per-endpoint isolation.
import { afterEach, describe, expect, it } from 'vitest';
import { verifyHexSignature, verifyStandardSignature } from '../../../functions/_shared/core/webhooks/signing.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { eventually, type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function receiver(respond?: Receiver['respond']) {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  return r;
}

async function worker(orgIds: string[], overrides = {}) {
  const w = await startWorker(orgIds, overrides);
  cleanups.push(() => w.stop());
  return w;
}

async function register(t: Tenant, url: string, events = ['review.created']) {
  const res = await api('POST', `/api/v1/organizations/${t.org.id}/webhooks`, {
    key: t.keys.write,
    body: { url, events },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

/** The endpoint as its owner reads it through the API. */
async function webhook(t: Tenant, id: string) {
  return (await api('GET', `/api/v1/organizations/${t.org.id}/webhooks/${id}`, { key: t.keys.read })).body;
}

async function emit(t: Tenant, type = 'review.created', data: Record<string, unknown> = {}) {
  const [{ id }] = await db`select plaudit.emit_event(${t.org.id}, ${type}, ${
    db.json({ id: crypto.randomUUID(), rating: 5, content: 'Good', reviewer_name: 'Ann', ...data } as never)
  }) as id`;
  return id as string;
}

async function deliveries(endpointId: string) {
  return await db`select * from plaudit.webhook_deliveries where endpoint_id = ${endpointId} order by created_at`;
}

describe('the worker delivers events', () => {
  it('POSTs {event,timestamp,data} signed both ways, only to subscribed endpoints', async () => {
    const t = await createTenant();
    const r = await receiver();
    const hook = await register(t, `${r.url}/a`, ['review.created']);
    const other = await register(t, `${r.url}/b`, ['export.completed']);
    await worker([t.org.id]);
    const eventId = await emit(t, 'review.created', { content: 'Très bien, "quoted", 👍' });
    const [req] = await r.waitFor(1);
    expect(req.path).toBe('/a');
    const body = JSON.parse(req.body);
    expect(body).toEqual({
      event: 'review.created',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: expect.objectContaining({ content: 'Très bien, "quoted", 👍', rating: 5, reviewer_name: 'Ann' }),
    });
    expect(await verifyHexSignature(hook.secret, req.body, req.headers['x-webhook-signature'] as string)).toBe(true);
    expect(
      await verifyStandardSignature(hook.secret, req.body, {
        id: req.headers['webhook-id'] as string,
        timestamp: req.headers['webhook-timestamp'] as string,
        signature: req.headers['webhook-signature'] as string,
      }),
    ).toBe(true);
    await eventually(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 5000, 'delivery recorded');
    const [d] = await deliveries(hook.id);
    expect(d).toMatchObject({ event_id: eventId, attempts: 1, last_status_code: 200 });
    expect(await deliveries(other.id)).toHaveLength(0);
    const log = await api('GET', `/api/v1/organizations/${t.org.id}/webhooks/${hook.id}/deliveries`, {
      key: t.keys.read,
    });
    expect(log.body.data[0]).toMatchObject({
      event: 'review.created',
      event_id: eventId,
      status: 'succeeded',
      attempts: 1,
    });
    expect(log.body.data[0].attempt_log[0]).toMatchObject({
      attempt: 1,
      status_code: 200,
      duration_ms: expect.any(Number),
      response_snippet: 'ok',
    });
  });

  it('sends canonical JSON: the body is what JSON.stringify writes for it, signed over those bytes', async () => {
    const t = await createTenant();
    const r = await receiver();
    const hook = await register(t, `${r.url}/a`, ['review.created']);
    await worker([t.org.id]);
    await emit(t, 'review.created', {
      content: 'Line one\nline "two"\t👍 \u2028 é',
      custom_fields: { size: 'L', gift: true, visits: 2.50, '10': 'ten', '9': 'nine' },
      title: null,
    });
    const [req] = await r.waitFor(1);
    expect(req.body).toBe(JSON.stringify(JSON.parse(req.body)));
    expect(req.body).not.toMatch(/": |, "/);
    expect(JSON.parse(req.body).data.custom_fields).toEqual({
      size: 'L',
      gift: true,
      visits: 2.5,
      '10': 'ten',
      '9': 'nine',
    });
    // A receiver that re-serializes the parsed body verifies the same signature.
    const reserialized = JSON.stringify(JSON.parse(req.body));
    expect(await verifyHexSignature(hook.secret, reserialized, req.headers['x-webhook-signature'] as string)).toBe(
      true,
    );
    expect(
      await verifyStandardSignature(hook.secret, reserialized, {
        id: req.headers['webhook-id'] as string,
        timestamp: req.headers['webhook-timestamp'] as string,
        signature: req.headers['webhook-signature'] as string,
      }),
    ).toBe(true);
  });

  it('retries after a 500 with the same webhook-id and body, then succeeds', async () => {
    const t = await createTenant();
    const r = await receiver((_, i) => (i < 2 ? { status: 500, body: 'down' } : { status: 204 }));
    const hook = await register(t, r.url);
    await worker([t.org.id]);
    await emit(t);
    const reqs = await r.waitFor(3);
    expect(new Set(reqs.map((q) => q.headers['webhook-id'])).size).toBe(1);
    expect(new Set(reqs.map((q) => q.body)).size).toBe(1);
    expect(reqs.map((q) => q.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    await eventually(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 5000, 'success recorded');
    const attempts = await db`
      select a.attempt, a.status_code, a.response_snippet from plaudit.webhook_delivery_attempts a
      join plaudit.webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ${hook.id} order by a.attempt`;
    expect(attempts.map((a) => [a.attempt, a.status_code, a.response_snippet])).toEqual([[1, 500, 'down'], [
      2,
      500,
      'down',
    ], [3, 204, '']]);
    const [endpoint] = await db`select failing_since, enabled from plaudit.webhook_endpoints where id = ${hook.id}`;
    expect(endpoint).toEqual({ failing_since: null, enabled: true });
  });

  it('disables the endpoint on 410 Gone and cancels what is queued for it', async () => {
    const t = await createTenant();
    const r = await receiver(() => ({ status: 410 }));
    const hook = await register(t, r.url);
    await emit(t);
    await emit(t);
    await worker([t.org.id], { perEndpointConcurrency: 1 });
    await eventually(
      async () => {
        const [e] = await db`select enabled, disabled_reason from plaudit.webhook_endpoints where id = ${hook.id}`;
        return !e.enabled && e;
      },
      5000,
      'endpoint disabled',
    );
    await eventually(
      async () => (await deliveries(hook.id)).every((d) => d.status !== 'pending'),
      5000,
      'queue settled',
    );
    const statuses = (await deliveries(hook.id)).map((d) => d.status).sort();
    expect(statuses).toEqual(['cancelled', 'failed']);
    expect(r.requests).toHaveLength(1);
    const get = await api('GET', `/api/v1/organizations/${t.org.id}/webhooks/${hook.id}`, { key: t.keys.read });
    expect(get.body).toMatchObject({ enabled: false, disabled_reason: 'the endpoint answered 410 Gone' });
    // New events are not queued for a disabled endpoint.
    await emit(t);
    expect(await deliveries(hook.id)).toHaveLength(2);
  });

  it('gives up on a slow answer after the timeout and retries', async () => {
    const t = await createTenant();
    const r = await receiver((_, i) => (i === 0 ? { status: 200, delayMs: 1500 } : { status: 200 }));
    const hook = await register(t, r.url);
    await worker([t.org.id], { webhookTimeoutMs: 300 });
    await emit(t);
    await r.waitFor(2);
    await eventually(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 5000, 'success after timeout');
    const attempts = await db`
      select a.status_code, a.error, a.duration_ms from plaudit.webhook_delivery_attempts a
      join plaudit.webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ${hook.id} order by a.attempt`;
    expect(attempts[0]).toMatchObject({ status_code: null, error: 'timed out after 300 ms' });
    expect(attempts[0].duration_ms).toBeGreaterThanOrEqual(280);
    expect(attempts[0].duration_ms).toBeLessThan(1400);
    expect(attempts[1].status_code).toBe(200);
  });

  it('honours Retry-After', async () => {
    const t = await createTenant();
    const r = await receiver((_, i) => (i === 0 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 }));
    const hook = await register(t, r.url);
    await worker([t.org.id]);
    await emit(t);
    const [first, second] = await r.waitFor(2, 10_000);
    expect(second.at - first.at).toBeGreaterThanOrEqual(1900);
    await eventually(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 5000);
  });

  it('does not follow redirects', async () => {
    const t = await createTenant();
    const target = await receiver();
    const r = await receiver((
      _,
      i,
    ) => (i === 0 ? { status: 302, headers: { location: `${target.url}/elsewhere` } } : { status: 200 }));
    const hook = await register(t, r.url);
    await worker([t.org.id]);
    await emit(t);
    await r.waitFor(2);
    await eventually(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 5000);
    expect(target.requests).toHaveLength(0);
    const [a] = await db`
      select a.status_code, a.error from plaudit.webhook_delivery_attempts a
      join plaudit.webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ${hook.id} and a.attempt = 1`;
    expect(a.status_code).toBe(302);
    expect(a.error).toMatch(/redirect \(302\) not followed/);
  });

  it('fails a delivery for good when the schedule is exhausted', async () => {
    const t = await createTenant();
    const r = await receiver(() => ({ status: 500 }));
    const hook = await register(t, r.url);
    await worker([t.org.id], { retryScale: 0.00001 });
    await emit(t);
    await eventually(async () => (await deliveries(hook.id))[0]?.status === 'failed', 10_000, 'delivery failed');
    expect(r.requests).toHaveLength(10);
    const [d] = await deliveries(hook.id);
    expect(d.attempts).toBe(10);
  });

  it('disables an endpoint that has failed every attempt for 5 days', async () => {
    const t = await createTenant();
    const r = await receiver(() => ({ status: 500 }));
    const hook = await register(t, r.url);
    await db`update plaudit.webhook_endpoints set failing_since = now() - interval '5 days 1 minute' where id = ${hook.id}`;
    await emit(t);
    await worker([t.org.id]);
    await eventually(
      async () => {
        const [e] = await db`select enabled, disabled_reason from plaudit.webhook_endpoints where id = ${hook.id}`;
        return !e.enabled && e;
      },
      5000,
      'endpoint disabled',
    );
    const [e] = await db`select disabled_reason from plaudit.webhook_endpoints where id = ${hook.id}`;
    expect(e.disabled_reason).toMatch(/failed for 5\.00 days/);
    // Re-enabling through the API starts a fresh failure count.
    const on = await api('PATCH', `/api/v1/organizations/${t.org.id}/webhooks/${hook.id}`, {
      key: t.keys.write,
      body: { enabled: true },
    });
    expect(on.body).toMatchObject({ enabled: true, disabled_reason: null });
    const [after] = await db`select failing_since from plaudit.webhook_endpoints where id = ${hook.id}`;
    expect(after.failing_since).toBeNull();
  });

  it('redelivers with the same webhook-id', async () => {
    const t = await createTenant();
    const r = await receiver();
    const hook = await register(t, r.url);
    await worker([t.org.id]);
    await emit(t);
    const [first] = await r.waitFor(1);
    const [d] = await eventually(async () => {
      const rows = await deliveries(hook.id);
      return rows[0]?.status === 'succeeded' && rows;
    });
    const res = await api(
      'POST',
      `/api/v1/organizations/${t.org.id}/webhooks/${hook.id}/deliveries/${d.id}/redeliver`,
      { key: t.keys.write },
    );
    expect(res.status).toBe(202);
    const [, second] = await r.waitFor(2);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(Number(second.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(
      Number(first.headers['webhook-timestamp']),
    );
    expect(
      await verifyStandardSignature(hook.secret, second.body, {
        id: second.headers['webhook-id'] as string,
        timestamp: second.headers['webhook-timestamp'] as string,
        signature: second.headers['webhook-signature'] as string,
      }),
    ).toBe(true);
    await eventually(async () => (await deliveries(hook.id))[0]?.status === 'succeeded');
    expect((await deliveries(hook.id))[0].attempts).toBe(2);
  });
});

describe('isolation', () => {
  it("a slow endpoint never delays another organization's deliveries", async () => {
    const slowOrg = await createTenant();
    const fastOrg = await createTenant();
    const slow = await receiver(() => ({ status: 200, delayMs: 3000 }));
    const fast = await receiver();
    await register(slowOrg, slow.url);
    await register(fastOrg, fast.url);
    for (let i = 0; i < 30; i++) await emit(slowOrg);
    const w: TestWorker = await worker([slowOrg.org.id, fastOrg.org.id], {
      perEndpointConcurrency: 2,
      concurrency: 8,
      webhookTimeoutMs: 6000,
    });
    await slow.waitFor(2);
    const start = Date.now();
    for (let i = 0; i < 5; i++) await emit(fastOrg);
    await fast.waitFor(5, 3000);
    const elapsed = Date.now() - start;
    // Had they queued behind the slow endpoint, they would have waited its 3 s at least.
    expect(elapsed).toBeLessThan(1500);
    // The slow endpoint never had more than its share in flight.
    expect(slow.requests.length).toBeLessThanOrEqual(4);
    expect(w.worker.inFlight).toBeLessThanOrEqual(8);
  });

  it('many slow endpoints of other organizations cannot take every slot of the worker', async () => {
    // 2 organizations × 3 endpoints that answer only at the timeout, 4 queued each: 24 would-be
    // calls for 8 slots. Under the per-endpoint cap alone they filled all 8 for the whole timeout.
    const slowOrgs = [await createTenant(), await createTenant()];
    const fastOrg = await createTenant();
    const hang = () => ({ status: 200, delayMs: 8000 });
    const slow: Receiver[] = [];
    for (const org of slowOrgs) {
      for (let e = 0; e < 3; e++) {
        const r = await receiver(hang);
        slow.push(r);
        await register(org, r.url);
      }
      for (let i = 0; i < 4; i++) await emit(org);
    }
    const fast = await receiver();
    await register(fastOrg, fast.url);
    const w = await worker([...slowOrgs.map((t) => t.org.id), fastOrg.org.id], {
      concurrency: 8,
      webhookTimeoutMs: 5000,
    });
    await eventually(async () => slow.reduce((n, r) => n + r.requests.length, 0) >= 4, 5000, 'slow endpoints busy');
    const start = Date.now();
    for (let i = 0; i < 3; i++) await emit(fastOrg);
    await fast.waitFor(3, 3000);
    expect(Date.now() - start).toBeLessThan(2000);
    // Each slow organization held at most its quarter of the worker's 8 slots.
    for (let k = 0; k < 2; k++) {
      expect(slow.slice(k * 3, k * 3 + 3).reduce((n, r) => n + r.requests.length, 0)).toBeLessThanOrEqual(2);
    }
    expect(w.worker.inFlight).toBeLessThanOrEqual(8);
  });

  it('slow endpoints of any number of organizations hold at most half of the worker', async () => {
    // 4 organizations × 2 endpoints that answer, but only after 2.5 s: under the organization cap
    // alone (a quarter each) they took all 8 slots, 2.5 s at a time, and everyone else waited.
    const slowOrgs = [await createTenant(), await createTenant(), await createTenant(), await createTenant()];
    const fastOrg = await createTenant();
    const slow: Receiver[] = [];
    for (const org of slowOrgs) {
      for (let e = 0; e < 2; e++) {
        const r = await receiver(() => ({ status: 200, delayMs: 2500 }));
        slow.push(r);
        const hook = await register(org, r.url);
        // Known to be slow from its earlier attempts (the next test shows the worker marking it).
        await db`update plaudit.webhook_endpoints set slow_since = now() where id = ${hook.id}`;
      }
      for (let i = 0; i < 3; i++) await emit(org);
    }
    const fast = await receiver();
    await register(fastOrg, fast.url);
    const slowCalls = () => slow.reduce((n, r) => n + r.requests.length, 0);
    const w = await worker([...slowOrgs.map((t) => t.org.id), fastOrg.org.id], {
      concurrency: 8,
      slowMs: 1000,
      webhookTimeoutMs: 5000,
    });
    await eventually(async () => slowCalls() >= 4, 5000, 'slow endpoints busy');
    await new Promise((r) => setTimeout(r, 300));
    expect(slowCalls()).toBe(4); // half of the 8 slots, however many organizations queue
    const start = Date.now();
    for (let i = 0; i < 3; i++) await emit(fastOrg);
    await fast.waitFor(3, 3000);
    expect(Date.now() - start).toBeLessThan(1000);
    expect(w.worker.inFlight).toBeLessThanOrEqual(8);
  });

  it('marks an endpoint slow after an answer that takes WEBHOOK_SLOW_MS, and fast again after a quick one', async () => {
    const t = await createTenant();
    let delayMs = 400;
    const r = await receiver(() => ({ status: 200, delayMs }));
    const hook = await register(t, r.url);
    const slowSince = async () => (await webhook(t, hook.id)).slow_since;
    await worker([t.org.id], { slowMs: 300 });
    await emit(t);
    await r.waitFor(1);
    expect(await eventually(async () => await slowSince(), 3000, 'endpoint marked slow')).toMatch(/Z$/);
    delayMs = 0;
    await emit(t);
    await r.waitFor(2);
    await eventually(async () => (await slowSince()) === null, 3000, 'endpoint fast again');
  });

  it('an endpoint in a failure run gets one delivery in flight until one succeeds', async () => {
    const t = await createTenant();
    const r = await receiver(() => ({ status: 200, delayMs: 300 }));
    const hook = await register(t, r.url);
    await db`update plaudit.webhook_endpoints set failing_since = now() - interval '1 hour' where id = ${hook.id}`;
    expect((await webhook(t, hook.id)).failing_since).toMatch(/Z$/);
    for (let i = 0; i < 4; i++) await emit(t);
    await worker([t.org.id]);
    await r.waitFor(1);
    await new Promise((res) => setTimeout(res, 150));
    expect(r.requests).toHaveLength(1); // the probe alone
    // Its success ends the failure run: the other three go out together.
    const [probe, ...others] = await r.waitFor(4, 5000);
    expect(others.every((q) => q.at - probe.at >= 300)).toBe(true);
    expect(Math.max(...others.map((q) => q.at)) - Math.min(...others.map((q) => q.at))).toBeLessThan(200);
    expect(await webhook(t, hook.id)).toMatchObject({ failing_since: null, slow_since: null });
  });

  it('another organization cannot read the delivery log', async () => {
    const t = await createTenant();
    const other = await createTenant();
    const r = await receiver();
    const hook = await register(t, r.url);
    const res = await api('GET', `/api/v1/organizations/${other.org.id}/webhooks/${hook.id}/deliveries`, {
      key: other.keys.admin,
    });
    expect(res.status).toBe(404);
    const [{ n }] = await db.begin(async (tx) => {
      await tx`select set_config('plaudit.org_id', ${other.org.id}, true)`;
      await tx.unsafe('set local role plaudit_api');
      return await tx`select count(*)::integer as n from plaudit.webhook_deliveries where endpoint_id = ${hook.id}`;
    });
    expect(n).toBe(0);
  });
});
