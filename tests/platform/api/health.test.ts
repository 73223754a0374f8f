import { describe, expect, inject, it } from 'vitest';
import { api, errorBody } from '../../helpers/http.ts';

describe('GET /api/v1/health', () => {
  it('answers ok once the database is reachable, with rate-limit headers', async () => {
    // The window's end is later than the second the request was sent in; the answer may arrive
    // just after that end.
    const sentAt = Math.floor(Date.now() / 1000);
    const res = await api('GET', '/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'ok', version: expect.any(String), replicas: [] });
    expect(Number(res.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(sentAt);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('unknown routes and methods', () => {
  it('answers 404 in the error format for an unknown route', async () => {
    const res = await api('GET', '/api/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorBody(404, 'Not Found', /no-such-thing/));
    expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('answers 405 with Allow for a known route and another method', async () => {
    const res = await api('DELETE', '/api/v1/health');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    expect(res.body).toEqual(errorBody(405, 'Method Not Allowed'));
  });

  it('answers 404, not 405, for a one-segment path no route has', async () => {
    for (const path of ['/apple-touch-icon.png', '/no-such-page', '/sitemap-x.xml']) {
      const res = await api('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('allow'), path).toBeNull();
      expect(res.body).toEqual(errorBody(404, 'Not Found', path));
    }
  });
});

describe('GET /favicon.ico', () => {
  it('answers the star as an icon, cached', async () => {
    const res = await fetch(`${inject('apiUrl')}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    expect(res.headers.get('cache-control')).toBe('public, max-age=604800');
    const bytes = new Uint8Array(await res.arrayBuffer());
    // An ICO header (reserved 0, type 1, one image) whose one image is a 32×32 PNG.
    expect([...bytes.subarray(0, 8)]).toEqual([0, 0, 1, 0, 1, 0, 32, 32]);
    expect([...bytes.subarray(22, 26)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('allows GET and HEAD only', async () => {
    const res = await api('POST', '/favicon.ico');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});
