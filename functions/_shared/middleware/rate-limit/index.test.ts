import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../http/env.ts';
import { ipRateLimit, MemoryRateLimiter } from './index.ts';

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
  function app(limit: number) {
    const a = new Hono<AppEnv>();
    a.use('*', async (c, next) => {
      c.set('config', { trustProxy: true } as AppEnv['Variables']['config']);
      await next();
    });
    a.use('*', ipRateLimit({ limit: () => limit }));
    a.get('/', (c) => c.text('ok'));
    return a;
  }

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

  it('leaves requests that carry an API key to the per-key limit, but still sets headers', async () => {
    const a = app(1);
    const headers = { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer rk_${'a'.repeat(38)}` };
    await a.request('/', { headers });
    const second = await a.request('/', { headers });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-limit')).toBe('1');
  });
});
