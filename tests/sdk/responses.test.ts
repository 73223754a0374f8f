// Each result keeps the answer it came in (status, headers, request id), however many calls are in
// flight: a local server holds the requests until all of them arrived and answers them in reverse
// order, so that no call's answer is the latest when it returns.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { ApiPromise, NotFoundError, Plaudit } from '../../sdk/src/index.ts';
import { localServers } from './helpers.ts';

const ORG = '00000000-0000-4000-8000-000000000000';
const serve = localServers();

/**
 * A server that answers once `together` requests are waiting, last come first served: each with
 * `x-request-id: req-<the last path segment>`, 204 to a DELETE, 404 to an id of "missing", a page
 * to a list and an object otherwise.
 */
async function server(together: number) {
  let waiting: [http.IncomingMessage, http.ServerResponse][] = [];
  const url = await serve((req, res) => {
    waiting.push([req, res]);
    if (waiting.length < together) return;
    const batch = waiting.reverse();
    waiting = [];
    for (const [q, r] of batch) {
      const last = new URL(q.url!, 'http://x').pathname.split('/').at(-1)!;
      const page = new URL(q.url!, 'http://x').searchParams.get('page');
      const headers = { 'content-type': 'application/json', 'x-request-id': `req-${last}${page ? `-${page}` : ''}` };
      if (last === 'missing') {
        r.writeHead(404, headers).end(
          JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'No such thing' }),
        );
      } else if (q.method === 'DELETE') r.writeHead(204, headers).end();
      else if (last === 'reviews') {
        const n = Number(page);
        r.writeHead(200, headers).end(
          JSON.stringify({ data: [{ id: `r${n}` }], meta: { total: 2, page: n, limit: 1, totalPages: 2 } }),
        );
      } else r.writeHead(200, headers).end(JSON.stringify({ id: last }));
    }
  });
  return new Plaudit({ apiKey: 'rk_test', baseUrl: url, organizationId: ORG, maxRetries: 0 });
}

describe('each result carries its own answer', () => {
  it('concurrent calls: every result and withResponse() keep their own status and request id', async () => {
    const plaudit = await server(4);
    const [a, b, deleted, aa] = await Promise.all([
      plaudit.reviews.get('a'),
      plaudit.reviews.get('b').withResponse(),
      plaudit.reviewForms.delete('c').withResponse(),
      plaudit.reviewForms.get('d'),
    ]);
    expect(a).toEqual({ id: 'a' });
    expect(a.lastResponse).toMatchObject({ status: 200, requestId: 'req-a', attempts: 1 });
    expect(b.data).toEqual({ id: 'b' });
    expect(b.response.requestId).toBe('req-b');
    expect(b.data.lastResponse).toBe(b.response);
    expect(deleted).toMatchObject({ data: undefined, response: { status: 204, requestId: 'req-c' } });
    expect(aa.lastResponse.headers.get('x-request-id')).toBe('req-d');
    // The answer is no field of the data: not listed, not serialized.
    expect(Object.keys(a)).toEqual(['id']);
    expect(JSON.stringify(a)).toBe('{"id":"a"}');
  });

  it('every page of a list carries the answer it came in', async () => {
    const plaudit = await server(2);
    const [first, second] = await Promise.all([
      plaudit.reviews.list({ page: 1, limit: 1 }),
      plaudit.reviews.list({ page: 2, limit: 1 }),
    ]);
    expect(first.lastResponse?.requestId).toBe('req-reviews-1');
    expect(second.lastResponse?.requestId).toBe('req-reviews-2');
  });

  it('withResponse() of a failing call rejects with the error, which carries the answer too', async () => {
    const plaudit = await server(2);
    const [failed, ok] = await Promise.allSettled([
      plaudit.reviews.get('missing').withResponse(),
      plaudit.reviews.get('fine'),
    ]);
    expect(failed.status).toBe('rejected');
    const err = (failed as PromiseRejectedResult).reason;
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ status: 404, requestId: 'req-missing' });
    expect(ok).toMatchObject({ status: 'fulfilled', value: { id: 'fine' } });
  });

  it('a call is a real promise: then, catch and finally give plain promises', async () => {
    const plaudit = await server(1);
    const call = plaudit.reviews.get('p');
    expect(call).toBeInstanceOf(Promise);
    expect(call).toBeInstanceOf(ApiPromise);
    const chained = call.then((r) => r.id);
    expect(chained).not.toBeInstanceOf(ApiPromise);
    expect(await chained).toBe('p');
    expect(await call.finally(() => {})).toEqual({ id: 'p' });
    await expect(plaudit.reviews.get('missing').catch((e) => e.status)).resolves.toBe(404);
    // Awaited twice, asked once.
    expect((await call.withResponse()).data).toBe(await call);
  });

  it('the deprecated plaudit.lastResponse is read-only, frozen, and the answer of the call finished last', async () => {
    const plaudit = await server(1);
    expect(plaudit.lastResponse).toBeNull();
    const review = await plaudit.reviews.get('x');
    expect(plaudit.lastResponse).toBe(review.lastResponse);
    expect(Object.isFrozen(plaudit.lastResponse)).toBe(true);
    expect(() => {
      (plaudit as { lastResponse: unknown }).lastResponse = null;
    }).toThrow(TypeError);
    await expect(plaudit.reviews.get('missing')).rejects.toBeInstanceOf(NotFoundError);
    expect(plaudit.lastResponse).toMatchObject({ status: 404, requestId: 'req-missing' });
    expect(review.lastResponse.requestId).toBe('req-x');
  });
});
