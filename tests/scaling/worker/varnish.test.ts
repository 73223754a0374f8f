// The shipped VCL (deploy/varnish/plaudit.vcl) in a real varnishd in front of a real API, with the
// worker purging it (CDN_PURGE_URL): public answers are cached and served as hits, a moderation
// hide is gone from them once its purge lands, nothing with credentials is ever cached, and the
// pages are keyed by the reader's primary language alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVarnish } from '../../../scripts/lib/varnish.mjs';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { eventually } from '../../helpers/receiver.ts';
import { createForm, ownApiServer, submitOk } from '../../helpers/reviews.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';

const server = ownApiServer();
let varnish: { url: string; stop(): Promise<void> };
let t: Tenant;
let worker: TestWorker;
let spam: { id: string };

beforeAll(async () => {
  varnish = await startVarnish({ backendPort: Number(new URL(server.url).port), dir: process.env.TEST_TMP_DIR! });
  t = await createTenant();
  const form = await createForm(server.call, t);
  await submitOk(server.call, form.id, { rating: 5, content: 'Lovely mugs, quick delivery.' });
  spam = await submitOk(server.call, form.id, { rating: 1, content: 'Buy cheap watches at spam.example' });
  worker = await startWorker([t.org.id], { cdn: { purgeUrl: `${varnish.url}/`, cloudflare: null, fastly: null } });
  // The purge of the reviews' publication goes out first: the cache starts empty of this business.
  await eventually(
    async () =>
      (await db`select 1 from plaudit.cdn_purges where org_id = ${t.org.id} and status <> 'sent'`).length === 0,
    20_000,
    'the first purge',
  );
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await varnish?.stop();
});

const viaVarnish = (path: string, headers: Record<string, string> = {}) => fetch(`${varnish.url}${path}`, { headers });

describe('Varnish with the shipped VCL', () => {
  const widgetFeed = () => `/api/v1/public/reviews/${t.org.slug}`;
  const profilePage = () => `/p/${t.org.slug}`;

  it('caches the widget feed and the profile page: the second GET is a hit, without the keys', async () => {
    for (const path of [widgetFeed(), profilePage()]) {
      const first = await viaVarnish(path);
      expect(first.status).toBe(200);
      expect(first.headers.get('x-cache')).toBe('MISS');
      expect(await first.text()).toContain('spam.example');
      const second = await viaVarnish(path);
      expect(second.status).toBe(200);
      expect(second.headers.get('x-cache')).toBe('HIT');
      expect(second.headers.get('age')).toMatch(/^\d+$/);
      // Surrogate-Key is this cache's own; Cache-Tag stays for a Cloudflare in front of it.
      expect(second.headers.get('surrogate-key')).toBeNull();
      expect(second.headers.get('xkey')).toBeNull();
      expect(second.headers.get('cache-tag')).toBe(`org-${t.org.id}`);
      await second.text();
    }
  });

  it('drops a hidden review from both once the purge lands', async () => {
    const res = await server.call('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${spam.id}/moderate`, {
      key: t.keys.write,
      body: { action: 'hide', reason: 'Spam' },
    });
    expect(res.status).toBe(200);
    for (const path of [widgetFeed(), profilePage()]) {
      const body = await eventually(
        async () => {
          const text = await (await viaVarnish(path)).text();
          return text.includes('spam.example') ? null : text;
        },
        20_000,
        `the hidden review gone from ${path}`,
      );
      expect(body).toContain('Lovely mugs');
    }
  });

  it('never caches a request with credentials, nor the rest of the API', async () => {
    const paths = [`/api/v1/organizations/${t.org.id}/reviews`, profilePage()];
    for (const path of paths) {
      for (let i = 0; i < 2; i++) {
        const res = await viaVarnish(path, { authorization: `Bearer ${t.keys.read}` });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-cache')).toBe('PASS');
        await res.text();
      }
    }
    const unkeyed = await viaVarnish(`/api/v1/organizations/${t.org.id}`);
    expect(unkeyed.status).toBe(401);
    expect(unkeyed.headers.get('x-cache')).toBe('PASS');
  });

  it("keys the pages by the reader's primary language, not by the browser's whole list", async () => {
    const asReader = async (language: string) => {
      const res = await viaVarnish(profilePage(), { 'accept-language': language });
      expect(res.status).toBe(200);
      expect(res.headers.get('vary')).toContain('Accept-Language');
      await res.text();
      return res.headers.get('x-cache');
    };
    expect(await asReader('de-DE,de;q=0.9,en;q=0.8')).toBe('MISS');
    expect(await asReader('de-CH, fr;q=0.5')).toBe('HIT');
    expect(await asReader('DE')).toBe('HIT');
    expect(await asReader('en-US,en;q=0.9')).toBe('MISS');
    expect(await asReader('en')).toBe('HIT');
  });

  it('refuses a purge that names no key', async () => {
    const res = await fetch(`${varnish.url}/`, { method: 'PURGE' });
    expect(res.status).toBe(400);
  });
});
