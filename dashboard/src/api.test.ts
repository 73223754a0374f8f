import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, apiUrl, fillPath, prefetch, setCsrfToken, whenSignedOut } from './api.ts';

/** Answers each fetch with the next of `answers`, and keeps what was asked. */
function fakeFetch(...answers: Response[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return Promise.resolve(answers.shift()!);
  });
  return calls;
}
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('paths', () => {
  it("fill the document's placeholders, encoded", () => {
    expect(fillPath('/organizations/{orgId}/webhooks/{id}', { orgId: 'o1', id: 'a/b c' })).toBe(
      '/organizations/o1/webhooks/a%2Fb%20c',
    );
    expect(() => fillPath('/organizations/{orgId}', {})).toThrow('/organizations/{orgId}: no value for {orgId}');
  });

  it('leave out empty query values', () => {
    expect(apiUrl('/x', { a: 1, b: '', c: null, d: undefined, e: false })).toBe('/api/v1/x?a=1&e=false');
    expect(apiUrl('/x')).toBe('/api/v1/x');
  });
});

describe('calls', () => {
  it('send the path filled, the query, and the CSRF token on a change but not on a read', async () => {
    const calls = fakeFetch(json(200, { data: [], meta: {} }), json(200, { id: 'w1' }));
    setCsrfToken('tok');
    await api.get('/organizations/{orgId}/webhooks', { params: { orgId: 'o1' }, query: { page: 2, limit: 20 } });
    await api.patch('/organizations/{orgId}/webhooks/{id}', {
      params: { orgId: 'o1', id: 'w1' },
      body: { enabled: false },
    });
    expect(calls[0].url).toBe('/api/v1/organizations/o1/webhooks?page=2&limit=20');
    expect((calls[0].init.headers as Record<string, string>)['x-csrf-token']).toBeUndefined();
    expect(calls[1].init.method).toBe('PATCH');
    expect(calls[1].init.body).toBe('{"enabled":false}');
    expect((calls[1].init.headers as Record<string, string>)['x-csrf-token']).toBe('tok');
  });

  it('send {} as the body of a POST without one, and answer nothing for a 204', async () => {
    const calls = fakeFetch(json(200, { secret: 's' }), new Response(null, { status: 204 }));
    await api.post('/organizations/{orgId}/webhooks/{id}/rotate-secret', { params: { orgId: 'o', id: 'w' } });
    expect(calls[0].init.body).toBe('{}');
    expect(await api.delete('/organizations/{orgId}/webhooks/{id}', { params: { orgId: 'o', id: 'w' } })).toBe(
      undefined,
    );
    expect(calls[1].init.body).toBeUndefined();
  });

  it("turn a refusal into an ApiError with the contract's message and each field's", async () => {
    fakeFetch(json(422, { message: ['url: bad', 'events: empty'], errors: [{ field: 'url', message: 'bad' }] }));
    const e = await api.post('/organizations/{orgId}/webhooks', {
      params: { orgId: 'o' },
      body: { url: 'x', events: [] },
    }).catch((e) => e);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(422);
    expect(e.message).toBe('url: bad; events: empty');
    expect(e.field('url')).toBe('bad');
  });

  it('say when the session has ended, except for the sign-in routes themselves', async () => {
    const signedOut = vi.fn();
    whenSignedOut(signedOut);
    fakeFetch(json(401, { message: 'no session' }), json(401, { message: 'no session' }));
    await expect(api.get('/auth/session')).rejects.toThrow('no session');
    expect(signedOut).not.toHaveBeenCalled();
    await expect(api.get('/organizations/{orgId}', { params: { orgId: 'o' } })).rejects.toThrow('no session');
    expect(signedOut).toHaveBeenCalledOnce();
  });

  it('say that the server could not be reached when the network fails', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('failed to fetch')));
    await expect(api.get('/auth/options')).rejects.toThrow('The server could not be reached.');
  });

  it('take a read started early once, for the same call', async () => {
    const calls = fakeFetch(json(200, { sign_up: true }), json(200, { sign_up: false }));
    prefetch('/auth/options');
    expect(await api.get('/auth/options')).toEqual({ sign_up: true });
    expect(await api.get('/auth/options')).toEqual({ sign_up: false });
    expect(calls).toHaveLength(2);
  });
});
