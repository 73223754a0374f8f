import { describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { loadConfig } from '../core/config.ts';
import type { Sql } from '../core/db/client.ts';
import type { LogLine } from './middleware/request-log/index.ts';

function appWith(sql: unknown) {
  const lines: LogLine[] = [];
  const config = loadConfig({ databaseUrl: 'postgres://unused', environment: 'production' });
  const app = createApp({ sql: sql as Sql, config, log: (l) => lines.push(l) });
  return { app, lines };
}

describe('createApp error handling', () => {
  it('answers 500 without internals and logs the error with the request id', async () => {
    const { app, lines } = appWith(() => Promise.reject(new Error('boom')));
    app.get('/api/v1/explode', () => {
      throw new Error(
        'connection string postgres://user:secret@db, key rk_AbCdEfGh12345678AbCdEfGh12345678AbCdEf, secret whsec_c2VjcmV0, reviewer ann.lee@example.com',
      );
    });
    const res = await app.request('/api/v1/explode');
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: expect.stringContaining(res.headers.get('x-request-id')!),
    });
    expect(JSON.stringify(body)).not.toMatch(/secret|stack|at /);
    const logged = lines.find((l) => l.msg === 'unhandled error');
    expect(logged).toMatchObject({ request_id: res.headers.get('x-request-id'), level: 'error' });
    const text = JSON.stringify(logged);
    expect(text).toContain('connection string postgres://[redacted]@db');
    expect(text).not.toMatch(/secret@|rk_AbCd|c2VjcmV0|ann\.lee|example\.com/);
  });

  it('answers 503 from health when the database is unreachable', async () => {
    const { app } = appWith(() => Promise.reject(new Error('ECONNREFUSED')));
    const res = await app.request('/api/v1/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'The database cannot be reached',
    });
  });
});
