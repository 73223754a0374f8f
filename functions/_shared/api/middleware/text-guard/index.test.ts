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

  it('finds the first offending field in document order, keys before their values', () => {
    expect(findUnstorable({ a: ['ok', { b: '\ud800' }], c: 'x\u0000' })?.field).toBe('a.1.b');
    expect(findUnstorable({ a: { ['k\u0000']: 'x\u0000' } })?.field).toBe('a.(a key)');
    expect(findUnstorable({ a: { b: 'ok' }, ['\u0000']: 'ok' })?.field).toBe('(a key)');
    expect(findUnstorable('x\u0000')?.field).toBe('body');
  });

  it('walks a value nested 100,000 levels deep without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { k: deep };
    const found = findUnstorable(deep);
    expect(found?.problem).toMatch(/NUL/);
    expect(found?.field.split('.')).toHaveLength(100_000);
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

  it('answers 400 naming the body for a body nested past the limit, before the route', async () => {
    let reached = false;
    const a = new Hono();
    a.use('*', textGuard());
    a.post('*', (c) => {
      reached = true;
      return c.text('route');
    });
    for (const body of ['['.repeat(65) + ']'.repeat(65), '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)]) {
      const res = await a.request('/x', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'body: must not nest arrays and objects more than 64 levels deep',
        errors: [{
          field: 'body',
          code: 'invalid',
          message: 'must not nest arrays and objects more than 64 levels deep',
        }],
      });
    }
    expect(reached).toBe(false);
    const atLimit = '['.repeat(64) + ']'.repeat(64);
    const ok = await app().request('/x', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: atLimit,
    });
    expect(ok.status).toBe(200);
    expect(JSON.stringify((await ok.json()).body)).toBe(atLimit);
  });

  it('answers 422 for a form field (urlencoded or multipart) holding NUL, naming it, before the route', async () => {
    let reached = 0;
    const a = new Hono();
    a.use('*', textGuard({ fileBodies: [/^\/upload$/] }));
    a.post('*', async (c) => {
      reached += 1;
      return c.json(await c.req.parseBody());
    });
    const urlencoded = await a.request('/report', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'reason=spam&details=%00',
    });
    expect(urlencoded.status).toBe(422);
    expect(await urlencoded.json()).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: 'details: must not contain NUL characters (U+0000)',
      errors: [{ field: 'details', code: 'invalid', message: 'must not contain NUL characters (U+0000)' }],
    });
    const multipart = new FormData();
    multipart.append('title', 'ok');
    multipart.append('content', 'x\u0000y');
    const mp = await a.request('/forms/x', { method: 'POST', body: multipart });
    expect(mp.status).toBe(422);
    expect((await mp.json()).message).toBe('content: must not contain NUL characters (U+0000)');
    const key = await a.request('/x', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a%00=1',
    });
    expect((await key.json()).message).toBe('(a key): must not contain NUL characters (U+0000)');
    expect(reached).toBe(0);
    // A clean form reaches the route, which reads the parsed form again; a file route's body is left to it.
    const clean = await a.request('/report', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'reason=spam&details=%F0%9F%98%80',
    });
    expect(await clean.json()).toEqual({ reason: 'spam', details: '😀' });
    const upload = new FormData();
    upload.append('note', 'a\u0000');
    expect((await a.request('/upload', { method: 'POST', body: upload })).status).toBe(200);
    expect(reached).toBe(2);
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

  it("leaves a clean form's bytes as they were sent for the route, and its fields readable", async () => {
    const a = new Hono();
    a.use('*', textGuard());
    a.post('*', async (c) => {
      const raw = new TextDecoder().decode(await c.req.arrayBuffer());
      const form = await c.req.parseBody();
      return c.json({ raw, form });
    });
    const res = await a.request('/x', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'webhook_id=15&name=Caf%C3%A9',
    });
    expect(await res.json()).toEqual({ raw: 'webhook_id=15&name=Caf%C3%A9', form: { webhook_id: '15', name: 'Café' } });
    const multipart = new FormData();
    multipart.set('details', 'Spam ✓');
    const mp = await a.request('/x', { method: 'POST', body: multipart });
    expect((await mp.json()).form).toEqual({ details: 'Spam ✓' });
  });
});
