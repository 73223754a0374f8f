import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../../../scripts/lib/api-server.mjs';
import { freePort } from '../../../scripts/lib/postgres.mjs';
import { createTenant } from '../../helpers/db.ts';
import { api, awayFromMinuteBoundary, errorBody } from '../../helpers/http.ts';

describe('per-key rate limit', () => {
  it('answers 429 with Retry-After past a low per-key limit, with correct headers on the way', async () => {
    const t = await createTenant({ rateLimit: 3 });
    await awayFromMinuteBoundary();
    const path = `/api/v1/organizations/${t.org.id}`;
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api('GET', path, { key: t.keys.read });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await api('GET', path, { key: t.keys.read });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(errorBody(429, 'Too Many Requests', /3 requests per minute/));
    const reset = Number(limited.headers.get('x-ratelimit-reset'));
    expect(reset % 60).toBe(0);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Other keys of the same organization have their own budget.
    expect((await api('GET', path, { key: t.keys.admin })).status).toBe(200);
  });

  it('admits exactly 50 of 200 concurrent requests against a limit of 50', async () => {
    const t = await createTenant({ rateLimit: 50 });
    await awayFromMinuteBoundary();
    const results = await Promise.all(
      Array.from({ length: 200 }, () => api('GET', `/api/v1/organizations/${t.org.id}`, { key: t.keys.read })),
    );
    const count = (s: number) => results.filter((r) => r.status === s).length;
    expect(count(200)).toBe(50);
    expect(count(429)).toBe(150);
  });
});

describe('per-IP rate limit on public requests', () => {
  let server: { url: string; stop: () => Promise<void> };
  beforeAll(async () => {
    server = await startApi({
      port: await freePort(),
      databaseUrl: process.env.TEST_API_DATABASE_URL,
      env: { PLAUDIT_ENV: 'development', PUBLIC_RATE_LIMIT_PER_MINUTE: '3' },
      stdio: 'ignore',
    });
  });
  afterAll(() => server?.stop());

  it('limits requests without a key per client address, 404s and 401s included', async () => {
    await awayFromMinuteBoundary();
    // startApi's health check may have spent one request of this window, or of the last one.
    const first = await api('GET', '/api/v1/nope', { baseUrl: server.url });
    expect(first.status).toBe(404);
    expect(first.headers.get('x-ratelimit-limit')).toBe('3');
    const left = Number(first.headers.get('x-ratelimit-remaining'));
    expect(left).toBeGreaterThanOrEqual(1);
    const second = await api('GET', '/api/v1/organizations/00000000-0000-0000-0000-000000000000', {
      baseUrl: server.url,
    });
    expect(second.status).toBe(401);
    expect(second.headers.get('x-ratelimit-remaining')).toBe(String(left - 1));
    for (let i = left - 1; i > 0; i--) {
      expect((await api('GET', '/api/v1/health', { baseUrl: server.url })).status).toBe(200);
    }
    const third = await api('GET', '/api/v1/health', { baseUrl: server.url });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).not.toBeNull();
  });
});
