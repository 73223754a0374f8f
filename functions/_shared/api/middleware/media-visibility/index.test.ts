import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { MediaVisibility } from '../../../core/media/visibility.ts';
import type { AppEnv, Caller } from '../../http/env.ts';
import { mediaVisibility } from './index.ts';

const ORG = '11111111-1111-4111-8111-111111111111';
const FILE = `${ORG}/33333333-3333-4333-8333-333333333333/44444444-4444-4444-8444-444444444444.jpg`;

/** An app with the middleware, a route that plays the credential middleware (caller: ORG), and one without. */
function app() {
  const visibility = new MediaVisibility({ ttlMs: 60_000 });
  const seen: (MediaVisibility | undefined)[] = [];
  const a = new Hono<AppEnv>();
  a.use('*', mediaVisibility(visibility));
  a.all('/org/:status', (c) => {
    c.set('caller', { orgId: ORG } as Caller);
    seen.push(c.var.mediaVisibility);
    return c.body(null, Number(c.req.param('status')) as 200);
  });
  a.all('/public', (c) => c.text('ok'));
  return { a, visibility, seen };
}

describe('mediaVisibility', () => {
  it("gives the routes the instance's memory", async () => {
    const { a, visibility, seen } = app();
    await a.request('/org/200');
    expect(seen).toEqual([visibility]);
  });

  it("forgets the caller's organization after each of its writes, refused ones too", async () => {
    for (const [method, status] of [['POST', 201], ['PATCH', 200], ['DELETE', 204], ['PUT', 409]] as const) {
      const { a, visibility } = app();
      visibility.remember(FILE, 'image/jpeg');
      await a.request(`/org/${status}`, { method });
      expect(visibility.visible(FILE), `${method} ${status}`).toBeUndefined();
    }
  });

  it("keeps them after the organization's reads and after writes of no organization", async () => {
    const { a, visibility } = app();
    visibility.remember(FILE, 'image/jpeg');
    await a.request('/org/200');
    await a.request('/org/200', { method: 'HEAD' });
    await a.request('/public', { method: 'POST' });
    expect(visibility.visible(FILE)).toBe('image/jpeg');
  });
});
