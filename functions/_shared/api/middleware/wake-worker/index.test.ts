import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../../http/env.ts';
import { type LogLine, requestLog } from '../request-log/index.ts';
import { wakeWorkerAfterWrites } from './index.ts';

// app.request() tests with a real worker to ring: an HTTP server on 127.0.0.1 that records what
// reaches it. The middleware hands each ring to EdgeRuntime.waitUntil, which the tests stand in
// for to know when the ring has ended (and that there was one).
const SECRET = 'worker-secret-never-logged';

describe('wakeWorkerAfterWrites', () => {
  let server: Server;
  let workerUrl: string;
  let rings: { method?: string; url?: string; headers: IncomingHttpHeaders }[];
  let pending: Promise<unknown>[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      rings.push({ method: req.method, url: req.url, headers: req.headers });
      res.end('woken');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    workerUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/functions/v1/worker`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    rings = [];
    pending = [];
    vi.stubGlobal('EdgeRuntime', { waitUntil: (p: Promise<unknown>) => pending.push(p) });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  /** An app with the middleware as app.ts has it, configured from `env` when it is made. */
  function app(env: Record<string, string>, lines: LogLine[] = []) {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    const a = new Hono<AppEnv>();
    a.use('*', requestLog({ write: (l) => lines.push(l) }));
    a.use('/api/*', wakeWorkerAfterWrites());
    a.get('/api/v1/things', (c) => c.json([]));
    a.on(['POST', 'PATCH', 'PUT', 'DELETE'], '/api/v1/things', (c) => c.json({ ok: true }, 201));
    a.post('/api/v1/refused', (c) => c.json({ statusCode: 422 }, 422));
    a.post('/api/v1/broken', (c) => c.json({ statusCode: 500 }, 500));
    return a;
  }
  const settled = () => Promise.allSettled(pending);

  it('rings the worker after a write, with its secret, in a background task', async () => {
    const a = app({ WORKER_URL: workerUrl, WORKER_SECRET: SECRET });
    const res = await a.request('/api/v1/things', { method: 'POST' });
    expect(res.status).toBe(201);
    expect(pending).toHaveLength(1);
    await settled();
    expect(rings).toEqual([
      {
        method: 'POST',
        url: '/functions/v1/worker',
        headers: expect.objectContaining({ authorization: `Bearer ${SECRET}` }),
      },
    ]);
  });

  it('rings after every kind of write, without a secret when none is set', async () => {
    for (const method of ['PATCH', 'PUT', 'DELETE']) {
      const a = app({ WORKER_URL: workerUrl });
      expect((await a.request('/api/v1/things', { method })).status).toBe(201);
    }
    await settled();
    expect(rings.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
    expect(rings.map((r) => r.headers.authorization)).toEqual([undefined, undefined, undefined]);
  });

  it('does not ring after a read, nor after a write that answered an error', async () => {
    const a = app({ WORKER_URL: workerUrl, WORKER_SECRET: SECRET });
    expect((await a.request('/api/v1/things')).status).toBe(200);
    expect((await a.request('/api/v1/things', { method: 'HEAD' })).status).toBe(200);
    expect((await a.request('/api/v1/refused', { method: 'POST' })).status).toBe(422);
    expect((await a.request('/api/v1/broken', { method: 'POST' })).status).toBe(500);
    await settled();
    expect(pending).toHaveLength(0);
    expect(rings).toEqual([]);
  });

  it('is off without WORKER_URL', async () => {
    vi.stubEnv('WORKER_URL', undefined);
    const a = app({ WORKER_SECRET: SECRET });
    expect((await a.request('/api/v1/things', { method: 'POST' })).status).toBe(201);
    await settled();
    expect(pending).toHaveLength(0);
    expect(rings).toEqual([]);
  });

  it('rings at most once a second per instance', async () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const a = app({ WORKER_URL: workerUrl, WORKER_SECRET: SECRET });
    for (let i = 0; i < 3; i++) expect((await a.request('/api/v1/things', { method: 'POST' })).status).toBe(201);
    now.mockReturnValue(1_700_000_000_999);
    await a.request('/api/v1/things', { method: 'POST' });
    expect(pending).toHaveLength(1);
    now.mockReturnValue(1_700_000_001_000);
    await a.request('/api/v1/things', { method: 'POST' });
    expect(pending).toHaveLength(2);
    await settled();
    expect(rings).toHaveLength(2);
  });

  it('never fails nor delays the request when the worker cannot be reached, and logs no secret', async () => {
    const printed = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(() => {})
    );
    // Nothing listens on port 1; the other worker accepts the call and never answers.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      for (
        const url of [
          'http://127.0.0.1:1/functions/v1/worker',
          `http://127.0.0.1:${(silent.address() as AddressInfo).port}/functions/v1/worker`,
          'not a url',
        ]
      ) {
        const lines: LogLine[] = [];
        const a = app({ WORKER_URL: url, WORKER_SECRET: SECRET }, lines);
        const started = performance.now();
        const res = await a.request('/api/v1/things', { method: 'POST' });
        expect(res.status, url).toBe(201);
        expect(await res.json()).toEqual({ ok: true });
        expect(performance.now() - started, url).toBeLessThan(1000);
        expect(JSON.stringify(lines)).not.toContain(SECRET);
      }
      // Every ring ends, the unanswered one at its own time limit, none of them rejected.
      const outcomes = await Promise.race([
        settled(),
        new Promise((resolve) => setTimeout(() => resolve('still ringing'), 8000)),
      ]);
      expect(outcomes).toEqual([
        { status: 'fulfilled', value: undefined },
        { status: 'fulfilled', value: undefined },
        { status: 'fulfilled', value: undefined },
      ]);
      expect(JSON.stringify(printed.flatMap((p) => p.mock.calls))).not.toContain(SECRET);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('rings where EdgeRuntime does not exist (npm start on Node or Deno)', async () => {
    vi.unstubAllGlobals();
    const a = app({ WORKER_URL: workerUrl });
    expect((await a.request('/api/v1/things', { method: 'POST' })).status).toBe(201);
    await expect.poll(() => rings.length).toBe(1);
  });
});
