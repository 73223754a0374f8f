import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { findUnstorable, textGuard, unstorable } from './index.ts';

function app() {
  const a = new Hono();
  a.use('*', textGuard());
  a.all(
    '*',
    async (c) => c.json({ body: c.req.method === 'POST' ? await c.req.json().catch(() => 'unparsed') : null }),
  );
  return a;
}

describe('textGuard', () => {
  it('says what is wrong with NUL and unpaired surrogates, and accepts pairs, emoji and RTL text', () => {
    expect(unstorable('a\u0000b')).toBe('must not contain NUL characters (U+0000)');
    expect(unstorable('x\ud800')).toMatch(/unpaired UTF-16 surrogate/);
    expect(unstorable('\udc00x')).toMatch(/unpaired UTF-16 surrogate/);
    expect(unstorable('😀 مرحبا ok')).toBeUndefined();
  });

  it('names the first offending field of a JSON body, keys included', () => {
    expect(findUnstorable({ a: 'ok', b: [{ c: 'x\u0000' }] })).toEqual({
      field: 'b.0.c',
      problem: expect.stringMatching(/NUL/),
    });
    expect(findUnstorable({ custom_fields: { ['k\ud800']: 'v' } })?.field).toBe('custom_fields.(a key)');
    expect(findUnstorable({ a: 1, b: null, c: true })).toBeUndefined();
  });

  it('answers 422 for a body field, in the contract format, without reaching the route', async () => {
    const res = await app().request('/x', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'ok', content: 'bad\u0000' }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: 'content: must not contain NUL characters (U+0000)',
      errors: [{ field: 'content', code: 'invalid', message: 'must not contain NUL characters (U+0000)' }],
    });
  });

  it('answers 400 for a query parameter or a path holding NUL, or a path that is not UTF-8', async () => {
    const q = await app().request('/x?q=a%00b');
    expect(q.status).toBe(400);
    expect((await q.json()).message).toBe('q: must not contain NUL characters (U+0000)');
    const p = await app().request('/public/acme%00');
    expect(p.status).toBe(400);
    expect((await p.json()).message).toBe('path: must not contain NUL characters (U+0000)');
    const u = await app().request('/public/%ED%A0%80');
    expect(u.status).toBe(400);
    expect((await u.json()).message).toBe('path: must be valid UTF-8 once percent-decoded');
  });

  it('lets clean requests and unparsable bodies through to the route', async () => {
    const ok = await app().request('/x', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ t: '😀' }),
    });
    expect(await ok.json()).toEqual({ body: { t: '😀' } });
    const bad = await app().request('/x', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(bad.status).toBe(200);
  });
});
