import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../http/env.ts';
import { checksum } from '../../api-keys/format.ts';
import { clientIp, ipRateLimit, MemoryRateLimiter } from './index.ts';

describe('MemoryRateLimiter', () => {
  it('admits exactly the limit within a window and resets at the next minute', () => {
    const limiter = new MemoryRateLimiter();
    const t = 1_700_000_000_000;
    const decisions = Array.from({ length: 5 }, () => limiter.hit('ip', 3, t));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0, 0]);
    expect(decisions[0].reset).toBe((Math.floor(t / 60_000) + 1) * 60);
    expect(limiter.hit('ip', 3, t + 60_000).allowed).toBe(true);
  });

  it('keeps clients apart and stays bounded', () => {
    const limiter = new MemoryRateLimiter(10);
    for (let i = 0; i < 100; i++) limiter.hit(`ip${i}`, 1, 0);
    expect(limiter.hit('other', 1, 0).allowed).toBe(true);
  });
});

describe('ipRateLimit', () => {
  function app(limit: number, trustProxy = 1) {
    const a = new Hono<AppEnv>();
    a.use('*', async (c, next) => {
      c.set('config', { trustProxy, publicUrl: 'http://localhost' } as AppEnv['Variables']['config']);
      await next();
    });
    a.use('*', ipRateLimit({ limit: () => limit }));
    a.get('/', (c) => c.text('ok'));
    // Stands in for an authenticated route: the key whose body is all b's is the only known one.
    a.get(
      '/api/v1/me',
      (c) => c.req.header('authorization')?.includes('bbbb') ? c.text('ok') : c.text('unknown key', 401),
    );
    a.get('/ip', (c) => c.text(clientIp(c, trustProxy)));
    return a;
  }
  const wellFormed = (ch: string) => `rk_${ch.repeat(32)}${checksum(ch.repeat(32))}`;

  it('sets the headers, then answers 429 with Retry-After past the limit', async () => {
    const a = app(2);
    const headers = { 'x-forwarded-for': '203.0.113.7' };
    const first = await a.request('/', { headers });
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    await a.request('/', { headers });
    const third = await a.request('/', { headers });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await third.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    const elsewhere = await a.request('/', { headers: { 'x-forwarded-for': '203.0.113.8' } });
    expect(elsewhere.status).toBe(200);
  });

  it("counts an IPv6 client by its /64 network: its other addresses share the window, the next network's do not", async () => {
    const a = app(2);
    const from = (address: string) => a.request('/', { headers: { 'x-forwarded-for': address } });
    expect((await from('2001:db8:1:2::1')).status).toBe(200);
    expect((await from('2001:db8:1:2:ffff:ffff:ffff:fffe')).status).toBe(200);
    expect((await from('2001:0db8:0001:0002:abcd::9')).status).toBe(429);
    expect((await from('2001:db8:1:3::1')).status).toBe(200);
    // An IPv4 address stays itself, also written as an IPv4-mapped IPv6 address.
    expect((await from('203.0.113.20')).status).toBe(200);
    expect((await from('::ffff:203.0.113.20')).status).toBe(200);
    expect((await from('203.0.113.20')).status).toBe(429);
    expect((await from('203.0.113.21')).status).toBe(200);
  });

  it('does not count again a request the MCP server dispatched for a request it counted', async () => {
    const a = app(1);
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 3; i++) {
      expect((await a.request('/', { headers }, { addressCounted: true })).status).toBe(200);
    }
    expect((await a.request('/', { headers })).status).toBe(200);
    expect((await a.request('/', { headers })).status).toBe(429);
  });

  it('leaves requests that carry a well-formed API key to the per-key limit, but still sets headers', async () => {
    const a = app(1);
    const headers = { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${wellFormed('b')}` };
    await a.request('/api/v1/me', { headers });
    const second = await a.request('/api/v1/me', { headers });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-limit')).toBe('1');
  });

  it('counts the address when a key or a session cookie goes to a route that does not authenticate', async () => {
    const a = app(1);
    const ip = { 'x-forwarded-for': '203.0.113.19' };
    const key = { ...ip, authorization: `Bearer ${wellFormed('b')}` };
    expect((await a.request('/', { headers: key })).status).toBe(200);
    expect((await a.request('/', { headers: key })).status).toBe(429);
    const cookie = { 'x-forwarded-for': '203.0.113.18', cookie: `plaudit_session=${'A'.repeat(43)}` };
    expect((await a.request('/', { headers: cookie })).status).toBe(200);
    expect((await a.request('/', { headers: cookie })).status).toBe(429);
  });

  it('limits a key-shaped token with a wrong checksum like any anonymous request', async () => {
    const a = app(1);
    const headers = { 'x-forwarded-for': '203.0.113.10', authorization: `Bearer rk_${'a'.repeat(38)}` };
    expect((await a.request('/', { headers })).status).toBe(200);
    expect((await a.request('/', { headers })).status).toBe(429);
  });

  it('counts unknown well-formed keys per address and refuses more guesses with 429 before asking further', async () => {
    const a = app(2);
    const guess = (i: number) => ({
      'x-forwarded-for': '203.0.113.11',
      authorization: `Bearer ${wellFormed('acdefgh'[i])}`,
    });
    expect((await a.request('/api/v1/me', { headers: guess(0) })).status).toBe(401);
    const second = await a.request('/api/v1/me', { headers: guess(1) });
    expect(second.status).toBe(401);
    expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
    const third = await a.request('/api/v1/me', { headers: guess(2) });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // The known key behind the same address is not locked out by anonymous traffic...
    const known = { 'x-forwarded-for': '203.0.113.12', authorization: `Bearer ${wellFormed('b')}` };
    await a.request('/', { headers: { 'x-forwarded-for': '203.0.113.12' } });
    await a.request('/', { headers: { 'x-forwarded-for': '203.0.113.12' } });
    expect((await a.request('/api/v1/me', { headers: known })).status).toBe(200);
    // ...but is by its own address's failed guesses.
    expect((await a.request('/api/v1/me', { headers: { ...known, 'x-forwarded-for': '203.0.113.11' } })).status).toBe(
      429,
    );
  });

  it("takes the client address from the trusted proxies' end of X-Forwarded-For, never from what the client wrote", async () => {
    const forwarded = { 'x-forwarded-for': '198.51.100.1, 203.0.113.20, 203.0.113.30' };
    expect(await (await app(10, 1).request('/ip', { headers: forwarded })).text()).toBe('203.0.113.30');
    expect(await (await app(10, 2).request('/ip', { headers: forwarded })).text()).toBe('203.0.113.20');
    expect(await (await app(10, 5).request('/ip', { headers: forwarded })).text()).toBe('198.51.100.1');
    // A client that sends its own X-Forwarded-For cannot escape its limit by changing it.
    const a = app(1, 1);
    expect((await a.request('/', { headers: { 'x-forwarded-for': '10.0.0.1, 203.0.113.40' } })).status).toBe(200);
    expect((await a.request('/', { headers: { 'x-forwarded-for': '10.0.0.2, 203.0.113.40' } })).status).toBe(429);
  });
});
