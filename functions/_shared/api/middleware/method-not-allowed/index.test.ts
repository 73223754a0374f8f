import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { notFoundOrMethodNotAllowed } from './index.ts';

describe('notFoundOrMethodNotAllowed', () => {
  const app = new Hono();
  app.get('/things/:id', (c) => c.text('x'));
  app.patch('/things/:id', (c) => c.text('x'));
  app.notFound(notFoundOrMethodNotAllowed(() => app.routes));

  it('answers 405 with the allowed methods for a known path', async () => {
    const res = await app.request('/things/42', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PATCH, HEAD');
    expect(await res.json()).toEqual({
      statusCode: 405,
      error: 'Method Not Allowed',
      message: 'Method DELETE is not allowed on /things/42',
    });
  });

  it('answers 404 for an unknown path', async () => {
    const res = await app.request('/things/42/more');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});
