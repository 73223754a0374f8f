// Retries against a local server that fails on purpose: 429 with Retry-After, 503, a reset
// connection, then 200. The clock is injected: nothing here waits in real time.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { APIConnectionError, Plaudit, type PlauditOptions, RateLimitError } from '../../sdk/src/index.ts';
import { localServers } from './helpers.ts';
import { retryDelay } from '../../sdk/src/retry.ts';

type Step = 429 | 503 | 'reset' | 200 | 201;

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

const serve = localServers();

/** A server answering each request with the next step (the last step repeats). */
async function flaky(steps: Step[], retryAfter: string[] = ['0']) {
  const seen: Seen[] = [];
  let tooMany = 0;
  const url = await serve((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers });
      const step = steps[Math.min(seen.length - 1, steps.length - 1)];
      if (step === 'reset') return req.socket.destroy();
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'x-request-id': `req-${seen.length}`,
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': String(100 - seen.length),
        'x-ratelimit-reset': '1900000000',
      };
      if (step === 429) headers['retry-after'] = retryAfter[Math.min(tooMany++, retryAfter.length - 1)];
      const body = step === 200 || step === 201
        ? { id: 'ok', attempt: seen.length }
        : { statusCode: step, error: step === 429 ? 'Too Many Requests' : 'Service Unavailable', message: 'try later' };
      res.writeHead(step, headers).end(JSON.stringify(body));
    });
  });
  return { url, seen };
}

/** A client whose waits are recorded instead of slept. */
function recording(url: string, options: PlauditOptions = {}) {
  const waits: number[] = [];
  const plaudit = new Plaudit({
    apiKey: 'rk_test',
    baseUrl: url,
    organizationId: '00000000-0000-4000-8000-000000000000',
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  return { plaudit, waits };
}

describe('retries', () => {
  it('a GET rides out 429 (Retry-After 0 then 1), 503 and a reset connection', async () => {
    const { url, seen } = await flaky([429, 429, 503, 'reset', 200], ['0', '1']);
    const { plaudit, waits } = recording(url, { maxRetries: 4 });
    const org = await plaudit.organization.get();
    expect(org).toEqual({ id: 'ok', attempt: 5 });
    expect(seen).toHaveLength(5);
    expect(
      seen.every((s) => s.method === 'GET' && s.url === '/api/v1/organizations/00000000-0000-4000-8000-000000000000'),
    )
      .toBe(true);
    // Retry-After is honoured; otherwise exponential backoff with jitter (random 0.5: three quarters).
    expect(waits).toEqual([0, 1000, retryDelay(2, null, () => 0.5), retryDelay(3, null, () => 0.5)]);
    expect(waits.slice(2)).toEqual([1500, 3000]);
    expect(plaudit.lastResponse).toMatchObject({
      status: 200,
      attempts: 5,
      requestId: 'req-5',
      rateLimit: { limit: 100, remaining: 95, reset: 1900000000 },
    });
  });

  it('a POST carries one Idempotency-Key, reused on every retry', async () => {
    const { url, seen } = await flaky([429, 503, 'reset', 201]);
    const { plaudit, waits } = recording(url, { maxRetries: 3 });
    await plaudit.reviewForms.create({ name: 'Retried' });
    expect(seen.map((s) => s.method)).toEqual(['POST', 'POST', 'POST', 'POST']);
    const keys = seen.map((s) => s.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(waits).toHaveLength(3);
    // Another call, another key.
    await plaudit.reviewForms.create({ name: 'Again' });
    expect(seen[4].headers['idempotency-key']).not.toBe(keys[0]);
  });

  it('a POST with a key of the caller sends it; without one it is not retried', async () => {
    const { url, seen } = await flaky([503, 201]);
    const { plaudit } = recording(url);
    await plaudit.reviewRequests.bulk([], { idempotencyKey: 'order-4711' });
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual(['order-4711', 'order-4711']);

    const second = await flaky([503, 201]);
    const noKey = recording(second.url).plaudit;
    await expect(noKey.exports.create({ format: 'csv' }, { idempotencyKey: false })).rejects.toMatchObject({
      status: 503,
    });
    expect(second.seen).toHaveLength(1);
    expect(second.seen[0].headers['idempotency-key']).toBeUndefined();
  });

  it('PATCH is not retried; a public POST gets neither a key nor a retry, nor the API key', async () => {
    const { url, seen } = await flaky([503, 200]);
    const { plaudit } = recording(url);
    await expect(plaudit.organization.update({ name: 'x' })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
    await expect(plaudit.reviews.submit({
      form_id: 'f',
      rating: 5,
      content: 'c',
      reviewer_name: 'n',
      reviewer_email: 'n@example.com',
    })).resolves.toMatchObject({ id: 'ok' });
    expect(seen[1].headers['idempotency-key']).toBeUndefined();
    expect(seen[1].headers.authorization).toBeUndefined();
    expect(seen[0].headers.authorization).toBe('Bearer rk_test');
  });

  it('gives up after maxRetries (2 by default) with the last error', async () => {
    const { url, seen } = await flaky([429]);
    const { plaudit, waits } = recording(url);
    const err = await plaudit.reviews.list().then(() => null, (e) => e as RateLimitError);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err!.retryAfter).toBe(0);
    expect(seen).toHaveLength(3);
    expect(waits).toEqual([0, 0]);

    const reset = await flaky(['reset']);
    const conn = recording(reset.url, { maxRetries: 1 });
    await expect(conn.plaudit.reviews.get('r1')).rejects.toBeInstanceOf(APIConnectionError);
    expect(reset.seen).toHaveLength(2);
  });

  it('does not wait for a Retry-After beyond a minute: the error is thrown at once', async () => {
    const { url, seen } = await flaky([429, 200], ['3600']);
    const { plaudit, waits } = recording(url);
    await expect(plaudit.reviews.get('r1')).rejects.toMatchObject({ status: 429, retryAfter: 3600 });
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('a signal aborts the call, also while it waits to retry', async () => {
    const { url, seen } = await flaky([503]);
    const controller = new AbortController();
    const plaudit = new Plaudit({
      apiKey: 'rk_test',
      baseUrl: url,
      organizationId: 'o',
      sleep: (_ms, signal) =>
        new Promise((_, reject) => {
          signal!.addEventListener('abort', () => reject(signal!.reason));
          controller.abort(new Error('user gave up'));
        }),
    });
    await expect(plaudit.reviews.get('r1', { signal: controller.signal })).rejects.toThrow('user gave up');
    expect(seen).toHaveLength(1);
    await expect(plaudit.reviews.get('r1', { signal: AbortSignal.abort(new Error('before')) })).rejects.toThrow(
      'before',
    );
    expect(seen).toHaveLength(1);
  });

  it('the backoff grows exponentially, is capped, and jitter takes off at most half', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => retryDelay(n, null, () => 0))).toEqual([
      500,
      1000,
      2000,
      4000,
      8000,
      8000,
      8000,
    ]);
    expect(retryDelay(1, null, () => 0.999999)).toBe(500);
    expect(retryDelay(3, 2, () => 0.5)).toBe(2000);
  });
});

describe('retries against the real API', () => {
  /** A fetch that carries the first request to the API, then loses its answer (as a dropped connection would). */
  function losingFirstAnswer(sent: Headers[]): typeof fetch {
    return async (input, init) => {
      sent.push(new Headers(init?.headers));
      const res = await fetch(input, init);
      if (sent.length === 1) {
        await res.arrayBuffer();
        throw new TypeError('fetch failed: socket hang up');
      }
      return res;
    };
  }

  it('a POST whose answer was lost is retried with its key, and the API replays the first answer', async () => {
    const { createTenant } = await import('../helpers/db.ts');
    const { client } = await import('./helpers.ts');
    const t = await createTenant();
    const sent: Headers[] = [];
    const plaudit = client(t, 'write', { fetch: losingFirstAnswer(sent), sleep: async () => {} });
    const form = await plaudit.reviewForms.create({ name: 'Created once' });
    expect(sent).toHaveLength(2);
    expect(sent[1].get('idempotency-key')).toBe(sent[0].get('idempotency-key'));
    expect(plaudit.lastResponse!.headers.get('idempotent-replayed')).toBe('true');
    const forms = await client(t, 'read').reviewForms.list();
    expect(forms.data.map((f) => f.id)).toEqual([form.id]);
  });

  it('an answer that showed a secret is not replayed: the retry says the call was carried out (409)', async () => {
    const { createTenant } = await import('../helpers/db.ts');
    const { client } = await import('./helpers.ts');
    const t = await createTenant();
    const sent: Headers[] = [];
    const plaudit = client(t, 'admin', { fetch: losingFirstAnswer(sent), sleep: async () => {} });
    const err = await plaudit.apiKeys.create({ name: 'Lost', scope: 'read' }).then(() => null, (e) => e);
    expect(err).toMatchObject({ name: 'ConflictError', status: 409 });
    expect(err.message).toMatch(/carried out already/);
    expect((await client(t).apiKeys.list()).data.map((k) => k.name)).toContain('Lost');
  });
});
