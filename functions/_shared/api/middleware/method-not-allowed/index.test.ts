import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { notFoundOrMethodNotAllowed } from './index.ts';

describe('notFoundOrMethodNotAllowed', () => {
  const app = new Hono();
  app.get('/things/:id', (c) => c.text('x'));
  app.patch('/things/:id', (c) => c.text('x'));
  app.get('/:file{sitemap-[0-9]{1,6}\\.xml}', (c) => c.text('x'));
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

  it('reads a parameter by its own pattern: a one-segment path it does not allow is a 404', async () => {
    for (const path of ['/favicon.ico', '/robots.txt', '/sitemap-x.xml']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('allow')).toBeNull();
    }
    const res = await app.request('/sitemap-12.xml', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('never answers 405 to a method the matching routes allow', async () => {
    const loose = new Hono();
    loose.get('/only/:id{[0-9]+}', (c) => c.text('x'));
    // As if the router had refused what the pattern accepts: a 404, not "GET is not allowed".
    loose.notFound(notFoundOrMethodNotAllowed(() => [{ method: 'GET', path: '/only/:id' }]));
    const res = await loose.request('/only/abc');
    expect(res.status).toBe(404);
  });
});
