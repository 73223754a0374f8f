import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../http/env.ts';
import { conditionalPublicRead, ifNoneMatchHits, PUBLIC_CACHE_CONTROL, publicCors, publicEtag } from './index.ts';

describe('publicCors', () => {
  const app = new Hono<AppEnv>();
  app.use('/thing', publicCors({ methods: ['POST'] }));
  app.post('/thing', (c) => c.json({ ok: true }, 201));
  app.get('/thing', (c) => c.json({ secret: true }));

  it('answers a preflight for an allowed method with *', async () => {
    const res = await app.request('/thing', {
      method: 'OPTIONS',
      headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('Content-Type');
  });

  it("adds * to an allowed method's answer and exposes the rate-limit headers and ETag", async () => {
    const res = await app.request('/thing', { method: 'POST', headers: { origin: 'https://a.example' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toMatch(/ETag.*X-RateLimit-Limit/);
  });

  it('leaves other methods of the same path alone, preflight included', async () => {
    const get = await app.request('/thing', { headers: { origin: 'https://a.example' } });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await app.request('/thing', {
      method: 'OPTIONS',
      headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('ETags', () => {
  it('are weak, stable for the same version and variant, and differ otherwise', async () => {
    const e = publicEtag('7.1.0', 'profile:acme:1:20');
    expect(e).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
    expect(publicEtag('7.1.0', 'profile:acme:1:20')).toBe(e);
    expect(publicEtag('8.1.0', 'profile:acme:1:20')).not.toBe(e);
    expect(publicEtag('7.1.0', 'profile:acme:2:20')).not.toBe(e);
  });

  it('If-None-Match: weak comparison, lists and *', () => {
    const e = 'W/"abc"';
    expect(ifNoneMatchHits(undefined, e)).toBe(false);
    expect(ifNoneMatchHits('W/"abc"', e)).toBe(true);
    expect(ifNoneMatchHits('"abc"', e)).toBe(true);
    expect(ifNoneMatchHits('"x", W/"abc"', e)).toBe(true);
    expect(ifNoneMatchHits('"abcd"', e)).toBe(false);
    expect(ifNoneMatchHits('*', e)).toBe(true);
  });

  it('conditionalPublicRead answers 304 from the version alone, else loads and tags', async () => {
    const ORG = '0b7d7f3e-8c1a-4d2b-9e6f-1a2b3c4d5e6f';
    const VERSION = `${ORG}.1.2.3`;
    let loads = 0;
    const app = new Hono<AppEnv>();
    app.get('/r', async (c) => {
      const out = await conditionalPublicRead(c, 'v', async () => VERSION, async () => {
        loads += 1;
        return { version: VERSION, value: 42 };
      });
      if ('notModified' in out) return out.notModified;
      return c.json(out.data);
    });
    const first = await app.request('/r');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe(PUBLIC_CACHE_CONTROL);
    const etag = first.headers.get('etag')!;
    const again = await app.request('/r', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe(PUBLIC_CACHE_CONTROL);
    // The version names its organization: both answers are filed under its key.
    for (const res of [first, again]) expect(res.headers.get('surrogate-key')).toBe(`org-${ORG}`);
    expect(loads).toBe(1);
    const stale = await app.request('/r', { headers: { 'if-none-match': 'W/"old"' } });
    expect(stale.status).toBe(200);
    expect(loads).toBe(2);
  });
});
