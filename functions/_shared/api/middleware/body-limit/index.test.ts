import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../http/env.ts';
import { bodyLimit } from './index.ts';

describe('bodyLimit', () => {
  const app = new Hono<AppEnv>();
  app.use('*', bodyLimit({ maxSize: 10, overrides: [{ pattern: /\/bulk$/, maxSize: 100 }] }));
  app.post('*', (c) => c.text('ok'));

  it('answers 413 in the error format over the limit', async () => {
    const res = await app.request('/x', { method: 'POST', body: 'x'.repeat(11) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'Request body exceeds the limit of 10 bytes',
    });
  });

  it('lets a body at the limit through, and gives bulk paths their own limit', async () => {
    expect((await app.request('/x', { method: 'POST', body: 'x'.repeat(10) })).status).toBe(200);
    expect((await app.request('/bulk', { method: 'POST', body: 'x'.repeat(100) })).status).toBe(200);
    expect((await app.request('/bulk', { method: 'POST', body: 'x'.repeat(101) })).status).toBe(413);
  });
});
