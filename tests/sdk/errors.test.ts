// Each error class from a real answer of the API (or a real network failure).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/db.ts';
import {
  APIConnectionError,
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionError,
  Plaudit,
  PlauditError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from '../../sdk/src/index.ts';
import { client } from './helpers.ts';

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});

/** The rejection of a call, for assertions on its fields. */
async function failure(call: PromiseLike<unknown>): Promise<PlauditError> {
  try {
    await call;
  } catch (err) {
    return err as PlauditError;
  }
  throw new Error('the call succeeded');
}

describe('errors from the API', () => {
  it('401 AuthenticationError, with the request id, body and headers', async () => {
    const bad = client({ ...t, keys: { ...t.keys, read: 'rk_notakey' } }, 'read');
    const err = await failure(bad.reviews.list());
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toBeInstanceOf(PlauditError);
    expect(err).toMatchObject({ name: 'AuthenticationError', status: 401, error: 'Unauthorized' });
    expect(err.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: err.message });
    expect(err.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(err.headers!.get('x-request-id')).toBe(err.requestId);
    expect(bad.lastResponse).toMatchObject({ status: 401, requestId: err.requestId });
  });

  it('403 PermissionError for a read key writing, and for another organization', async () => {
    const err = await failure(client(t, 'read').reviewForms.create({ name: 'Nope' }));
    expect(err).toBeInstanceOf(PermissionError);
    expect(err).toMatchObject({ status: 403, error: 'Forbidden' });
    const other = await createTenant();
    const elsewhere = new Plaudit({ apiKey: t.keys.admin, baseUrl: inject('apiUrl'), organizationId: other.org.id });
    expect(await failure(elsewhere.organization.get())).toBeInstanceOf(PermissionError);
  });

  it('404 NotFoundError', async () => {
    const err = await failure(client(t).reviews.get(crypto.randomUUID()));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ status: 404, message: 'Review not found' });
  });

  it('409 ConflictError when a review is hidden twice', async () => {
    const plaudit = client(t, 'write');
    const form = await plaudit.reviewForms.create({ name: 'Conflicts' });
    const { postReviews } = await import('../helpers/reviews.ts');
    const [id] = await postReviews(form.id, `sdk-409-${t.org.id}`, [[4, null, 'Nice', 'Hal']]);
    await plaudit.reviews.moderate(id, { action: 'hide', reason: 'Spam' });
    const err = await failure(plaudit.reviews.moderate(id, { action: 'hide', reason: 'Spam' }));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.status).toBe(409);
  });

  it('422 ValidationError for a bad body, with the field errors when the API lists them', async () => {
    const err = await failure(client(t).reviewForms.create({ name: '', verification_mode: 'carrier-pigeon' } as never));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ status: 422, error: 'Unprocessable Entity' });
    expect(err.message).toMatch(/name/);
    const errors = (err as ValidationError).errors;
    expect(errors).toEqual((err.body as { errors: unknown[] }).errors);
    expect(errors.map((e) => e.field)).toEqual(['name', 'verification_mode']);
    expect(errors[0]).toEqual({ field: 'name', code: expect.any(String), message: expect.any(String) });
  });

  it('400 ValidationError for bad query parameters', async () => {
    const err = await failure(client(t).reviews.list({ limit: 1000 }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ status: 400, error: 'Bad Request' });
    expect(err.message).toMatch(/limit/);
  });

  it('429 RateLimitError with retryAfter, and the rate-limit headers of every answer', async () => {
    const limited = await createTenant({ rateLimit: 1 });
    const plaudit = client(limited, 'read', { maxRetries: 0 });
    await plaudit.organization.get();
    expect(plaudit.lastResponse!.rateLimit).toEqual({ limit: 1, remaining: 0, reset: expect.any(Number) });
    expect(plaudit.lastResponse!.rateLimit!.reset).toBeGreaterThan(Date.now() / 1000 - 1);
    const err = await failure(plaudit.organization.get());
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.status).toBe(429);
    expect((err as RateLimitError).retryAfter).toBeGreaterThanOrEqual(1);
    expect((err as RateLimitError).retryAfter).toBeLessThanOrEqual(60);
    expect(plaudit.lastResponse).toMatchObject({ status: 429, attempts: 1 });
  });
});

describe('errors without an answer', () => {
  it('APIConnectionError when nothing listens', async () => {
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await new Promise((r) => server.close(r));
    const plaudit = new Plaudit({ apiKey: 'rk_x', baseUrl: `http://127.0.0.1:${port}`, organizationId: t.org.id });
    const err = await failure(plaudit.organization.get({ maxRetries: 0 }));
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err.status).toBeUndefined();
    expect(err.cause).toBeDefined();
  });

  it('TimeoutError when the answer takes longer than timeoutMs', async () => {
    const server = http.createServer(() => {/* never answers */});
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const plaudit = new Plaudit({ apiKey: 'rk_x', baseUrl: url, organizationId: t.org.id, timeoutMs: 50 });
      const err = await failure(plaudit.organization.get({ maxRetries: 0 }));
      expect(err).toBeInstanceOf(TimeoutError);
      expect(err).toBeInstanceOf(APIConnectionError);
      expect(err.message).toContain('50 ms');
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
