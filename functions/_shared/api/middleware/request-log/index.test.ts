import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../../http/env.ts';
import { redact } from '../../../core/redact.ts';
import { lineWriter, LOG_FLUSH_CHARS, LOG_FLUSH_MS, type LogLine, requestLog } from './index.ts';

describe('requestLog', () => {
  function app(lines: LogLine[]) {
    const a = new Hono<AppEnv>();
    a.use('*', requestLog({ write: (l) => lines.push(l) }));
    a.get('/orgs/:id', (c) => {
      c.set('caller', {
        keyId: 'k',
        orgId: 'o',
        scope: 'read',
        prefix: 'rk_ABCDEFGH',
        memberId: null,
        role: null,
        actor: 'api_key:k',
      });
      return c.json({ email: 'someone@example.com' });
    });
    return a;
  }

  it('logs one JSON line per request with the route pattern, never the path, key or body', async () => {
    const lines: LogLine[] = [];
    const res = await app(lines).request('/orgs/someone@example.com', {
      headers: { authorization: 'Bearer rk_secretsecretsecret' },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request',
      method: 'GET',
      route: '/orgs/:id',
      status: 200,
      key_prefix: 'rk_ABCDEFGH',
      request_id: res.headers.get('x-request-id'),
    });
    expect(typeof lines[0].ms).toBe('number');
    const text = JSON.stringify(lines);
    expect(text).not.toContain('example.com');
    expect(text).not.toContain('secret');
  });

  it('keeps a sane incoming request id and replaces an unsafe one', async () => {
    const lines: LogLine[] = [];
    const a = app(lines);
    const kept = await a.request('/orgs/1', { headers: { 'x-request-id': 'abc-123' } });
    expect(kept.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await a.request('/orgs/1', { headers: { 'x-request-id': 'a b {"level":"x"}' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('redact', () => {
  it('blanks out keys, webhook secrets, URL credentials and e-mail addresses, and keeps the rest', () => {
    expect(redact('duplicate key value (key_hash)=(\\x01) for rk_AbCdEfGh12345678AbCdEfGh12345678AbCdEf'))
      .toBe('duplicate key value (key_hash)=(\\x01) for rk_[redacted]');
    expect(redact('secret whsec_dGVzdA== rotated')).toBe('secret whsec_[redacted] rotated');
    expect(redact('connect postgresql://plaudit:pa55@db:5432/x failed')).toBe(
      'connect postgresql://[redacted]@db:5432/x failed',
    );
    expect(redact('Key (email)=(Jane.Doe+tag@mail.example.org) already exists')).toBe(
      'Key (email)=([e-mail]) already exists',
    );
    expect(redact('at file:///work/app.ts:12:3')).toBe('at file:///work/app.ts:12:3');
  });
});

describe('lineWriter', () => {
  it('writes the lines of 50 ms in one write, in order, at once past 32 KiB, and what waits on flush', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const { write, flush } = lineWriter((text) => writes.push(text));
    try {
      write({ n: 1 });
      write({ n: 2, msg: 'a "quoted"\nline' });
      vi.advanceTimersByTime(LOG_FLUSH_MS - 1);
      expect(writes).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(writes).toEqual(['{"n":1}\n{"n":2,"msg":"a \\"quoted\\"\\nline"}\n']);

      const big = 'x'.repeat(LOG_FLUSH_CHARS);
      write({ big });
      expect(writes[1]).toBe(`${JSON.stringify({ big })}\n`);

      write({ n: 3 });
      flush(); // before the process exits
      flush(); // nothing left
      expect(writes.slice(2)).toEqual(['{"n":3}\n']);
      vi.advanceTimersByTime(LOG_FLUSH_MS);
      expect(writes).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
