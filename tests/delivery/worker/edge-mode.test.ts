// The worker as the hosted deployment runs it: an HTTP function that drains what is due per
// request (pg_cron through pg_net, or the API after a write, rings it), guarded by WORKER_SECRET.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../functions/_shared/api/app.ts';
import { loadConfig } from '../../../functions/_shared/core/config.ts';
import { createTenant, db } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { eventually, startReceiver } from '../../helpers/receiver.ts';
import { freePort } from '../../../scripts/lib/postgres.mjs';

const root = path.resolve(import.meta.dirname!, '..', '..', '..');
const children: import('node:child_process').ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

describe('worker as an edge function', () => {
  it('drains on an authorised POST and refuses others', { timeout: 60_000 }, async () => {
    const t = await createTenant();
    const receiver = await startReceiver();
    try {
      const reg = await api('POST', `/api/v1/organizations/${t.org.id}/webhooks`, {
        key: t.keys.write,
        body: { url: receiver.url, events: ['review.created'] },
      });
      expect(reg.status).toBe(201);
      await db`select plaudit.emit_event(${t.org.id}, 'review.created', '{"id":"edge"}'::jsonb)`;

      const port = await freePort();
      const child = spawn(path.join(root, 'node_modules', '.bin', 'deno'), [
        'run',
        '--allow-net',
        '--allow-env',
        '--allow-read',
        '--allow-sys',
        'functions/worker/index.ts',
      ], {
        cwd: root,
        env: {
          ...process.env,
          WORKER_DATABASE_URL: process.env.TEST_API_DATABASE_URL,
          WORKER_PORT: String(port),
          WORKER_SECRET: 'edge-secret',
          PLAUDIT_ENV: 'development',
          WORKER_ORG_IDS: t.org.id,
          EMAIL_TRANSPORT: 'none',
          DENO_NO_UPDATE_CHECK: '1',
          WORKER_DRAIN_MS: '5000',
        },
        stdio: 'ignore',
      });
      children.push(child);
      const url = `http://127.0.0.1:${port}`;
      const refused = await eventually(
        async () => (await fetch(url, { method: 'POST' })).status,
        30_000,
        'the worker to listen',
      );
      expect(refused).toBe(401);
      expect(receiver.requests).toHaveLength(0);
      const ok = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer edge-secret' } });
      expect(ok.status).toBe(200);
      const body = await ok.json();
      expect(body.stats.webhookSucceeded).toBe(1);
      expect(receiver.requests).toHaveLength(1);
      expect(JSON.parse(receiver.requests[0].body).data).toEqual({ id: 'edge' });
    } finally {
      await receiver.close();
    }
  });

  it('will not start in production without WORKER_SECRET', async () => {
    const child = spawn(path.join(root, 'node_modules', '.bin', 'deno'), [
      'run',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      '--allow-sys',
      'functions/worker/index.ts',
    ], {
      cwd: root,
      env: {
        ...process.env,
        WORKER_DATABASE_URL: process.env.TEST_API_DATABASE_URL,
        WORKER_PORT: String(await freePort()),
        WORKER_SECRET: '',
        PLAUDIT_ENV: 'production',
        EMAIL_TRANSPORT: 'none',
        DENO_NO_UPDATE_CHECK: '1',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(stderr).toContain('refusing to start: set WORKER_SECRET');
  });

  it('is rung by the API after a successful write when WORKER_URL is set', async () => {
    const rings: string[] = [];
    const bell = await startReceiver((req) => {
      rings.push(req.headers.authorization as string);
      return { status: 202 };
    });
    process.env.WORKER_URL = bell.url;
    process.env.WORKER_SECRET = 'bell';
    try {
      const app = createApp({
        sql: {} as never,
        config: loadConfig({ databaseUrl: 'postgres://x', environment: 'production' }),
        log: () => {},
      });
      await app.request('/api/v1/nothing-here', { method: 'POST' });
      await app.request('/api/v1/health');
      await new Promise((r) => setTimeout(r, 200));
      expect(rings).toHaveLength(0); // errors and reads never ring
    } finally {
      delete process.env.WORKER_URL;
      delete process.env.WORKER_SECRET;
      await bell.close();
    }
    // A successful write rings once (checked through the middleware alone).
    const { wakeWorkerAfterWrites } = await import('../../../functions/_shared/api/middleware/wake-worker/index.ts');
    const bell2 = await startReceiver((req) => {
      rings.push(req.headers.authorization as string);
      return { status: 202 };
    });
    process.env.WORKER_URL = bell2.url;
    process.env.WORKER_SECRET = 'bell';
    try {
      const { Hono } = await import('hono');
      const app = new Hono();
      app.use('*', wakeWorkerAfterWrites() as never);
      app.post('/x', (c) => c.json({}, 201));
      await app.request('/x', { method: 'POST' });
      await app.request('/x', { method: 'POST' }); // within a second: not rung again
      await bell2.waitFor(1, 3000);
      await new Promise((r) => setTimeout(r, 200));
      expect(rings).toEqual(['Bearer bell']);
    } finally {
      delete process.env.WORKER_URL;
      delete process.env.WORKER_SECRET;
      await bell2.close();
    }
  });
});
