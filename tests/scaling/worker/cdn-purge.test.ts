// CDN purges from the outbox to real HTTP receivers standing in for Varnish, Cloudflare and Fastly:
// the exact requests, one purge per organization however many changes, batching, retries on 5xx
// and 429, giving up, and nothing for a change that rolled back.
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerConfig } from '../../../functions/_shared/worker/config.ts';
import { createTenant, db, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { eventually, type ReceivedRequest, type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { createForm, postReviews } from '../../helpers/reviews.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';

const CLOUDFLARE_TOKEN = 'cf-token-never-logged-0123456789';
const FASTLY_TOKEN = 'fastly-token-never-logged-0123456789';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function receiver(respond?: Receiver['respond']) {
  const r = await startReceiver(respond);
  cleanups.push(() => r.close());
  return r;
}

async function worker(orgIds: string[], cdn: Partial<WorkerConfig['cdn']>): Promise<TestWorker> {
  const w = await startWorker(orgIds, { cdn: { purgeUrl: null, cloudflare: null, fastly: null, ...cdn } });
  cleanups.push(() => w.stop());
  return w;
}

const cloudflareAt = (r: Receiver) => ({ zoneId: 'zone-1', apiToken: CLOUDFLARE_TOKEN, apiUrl: `${r.url}/client/v4` });
const fastlyAt = (r: Receiver) => ({ serviceId: 'svc-1', apiToken: FASTLY_TOKEN, apiUrl: r.url });

/** A business with one published review, whose purge is pending. */
async function business() {
  const t = await createTenant();
  const [reviewId] = await postReviews((await createForm(api, t)).id, `purge-${t.org.slug}`, [[
    4,
    null,
    'Good.',
    'Ann',
  ]]);
  return { t, reviewId };
}

async function hide(t: Tenant, reviewId: string) {
  const res = await api('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}/moderate`, {
    key: t.keys.write,
    body: { action: 'hide', reason: 'Spam' },
  });
  expect(res.status).toBe(200);
}

async function purges(t: Tenant) {
  return await db`select status, attempts, include_sitemap, last_error, claimed_lsn
                    from plaudit.cdn_purges where org_id = ${t.org.id} order by created_at`;
}

const keyOf = (t: Tenant) => `org-${t.org.id}`;
/** The keys a request names in its Surrogate-Key header. */
const keysIn = (r: ReceivedRequest) => String(r.headers['surrogate-key'] ?? '').split(' ');
const names = (r: ReceivedRequest, t: Tenant) => keysIn(r).includes(keyOf(t));

describe('a public change purges its organization on every configured CDN', () => {
  it('sends the documented request to Varnish, Cloudflare and Fastly, and records it sent', async () => {
    const { t, reviewId } = await business();
    const [varnish, cloudflare, fastly] = [await receiver(), await receiver(), await receiver()];
    await worker([t.org.id], {
      purgeUrl: `${varnish.url}/purge`,
      cloudflare: cloudflareAt(cloudflare),
      fastly: fastlyAt(fastly),
    });
    await eventually(async () => (await purges(t)).every((p) => p.status === 'sent'), 10_000, 'the first purge');
    const before = [varnish, cloudflare, fastly].map((r) => r.requests.length);

    await hide(t, reviewId);
    const [v] = await varnish.waitFor(before[0] + 1).then((rs) => rs.slice(before[0]));
    const [c] = await cloudflare.waitFor(before[1] + 1).then((rs) => rs.slice(before[1]));
    const [f] = await fastly.waitFor(before[2] + 1).then((rs) => rs.slice(before[2]));

    expect(v).toMatchObject({ method: 'PURGE', path: '/purge' });
    expect(v.headers['surrogate-key']).toBe(keyOf(t));
    expect(c).toMatchObject({ method: 'POST', path: '/client/v4/zones/zone-1/purge_cache' });
    expect(c.headers.authorization).toBe(`Bearer ${CLOUDFLARE_TOKEN}`);
    expect(c.headers['content-type']).toBe('application/json');
    expect(JSON.parse(c.body)).toEqual({ tags: [keyOf(t)] });
    expect(f).toMatchObject({ method: 'POST', path: '/service/svc-1/purge' });
    expect(f.headers['fastly-key']).toBe(FASTLY_TOKEN);
    expect(f.headers['fastly-soft-purge']).toBe('1');
    expect(f.headers['surrogate-key']).toBe(keyOf(t));
    await eventually(async () => (await purges(t)).every((p) => p.status === 'sent'), 10_000, 'recorded');
    const last = (await purges(t)).at(-1)!;
    expect(last.attempts).toBe(1);
    // The primary's WAL position when it was claimed: where replicas must be before it goes out.
    expect(last.claimed_lsn).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
  });

  it('coalesces changes into one purge per organization, and batches organizations in one Cloudflare call', async () => {
    const a = await business();
    const b = await business();
    // Their creation's purges (with the sitemaps, which list new businesses) went out long ago.
    await db`update plaudit.cdn_purges set status = 'sent' where org_id in (${a.t.org.id}, ${b.t.org.id})`;
    await hide(a.t, a.reviewId);
    await api('PATCH', `/api/v1/organizations/${b.t.org.id}/public-profile`, {
      key: b.t.keys.admin,
      body: { description: 'Bikes' },
    });
    // Published, hidden, profile changed: one pending purge each, the profile's with the sitemaps.
    expect((await purges(a.t)).map((p) => p.status)).toEqual(['sent', 'pending']);
    expect((await purges(b.t)).map((p) => [p.status, p.include_sitemap])).toEqual([['sent', true], ['pending', true]]);

    const [varnish, cloudflare, fastly] = [await receiver(), await receiver(), await receiver()];
    await worker([a.t.org.id, b.t.org.id], {
      purgeUrl: varnish.url,
      cloudflare: cloudflareAt(cloudflare),
      fastly: fastlyAt(fastly),
    });
    await eventually(
      async () => [...await purges(a.t), ...await purges(b.t)].every((p) => p.status === 'sent'),
      10_000,
      'both purges',
    );
    expect(varnish.requests.map((r) => r.headers['surrogate-key']).sort()).toEqual(
      [keyOf(a.t), `${keyOf(b.t)} sitemap`].sort(),
    );
    expect(cloudflare.requests).toHaveLength(1);
    expect(JSON.parse(cloudflare.requests[0].body).tags.sort()).toEqual([keyOf(a.t), keyOf(b.t), 'sitemap'].sort());
    expect(fastly.requests).toHaveLength(1);
    expect(keysIn(fastly.requests[0]).sort()).toEqual(
      [keyOf(a.t), keyOf(b.t), 'sitemap'].sort(),
    );
  });

  it('sends nothing for a change that rolled back', async () => {
    const a = await business();
    const b = await business();
    const varnish = await receiver();
    await worker([a.t.org.id, b.t.org.id], { purgeUrl: varnish.url });
    await eventually(
      async () => [...await purges(a.t), ...await purges(b.t)].every((p) => p.status === 'sent'),
      10_000,
      'the first purges',
    );
    const sentBefore = varnish.requests.length;
    await db.begin(async (tx) => {
      await tx`select set_config('plaudit.moderation_reason', 'Spam', true)`;
      await tx`update plaudit.reviews set is_hidden = true where id = ${a.reviewId}`;
      expect(
        (await tx`select count(*)::int as n from plaudit.cdn_purges where org_id = ${a.t.org.id} and status = 'pending'`)[
          0
        ].n,
      )
        .toBe(1);
      throw new Error('roll back');
    }).catch((err) => expect(err.message).toBe('roll back'));
    // A change of b that commits after it: once its purge is in, a's would have been too.
    await hide(b.t, b.reviewId);
    await varnish.waitFor(sentBefore + 1);
    await eventually(async () => (await purges(b.t)).every((p) => p.status === 'sent'), 10_000, "b's purge");
    expect(varnish.requests.slice(sentBefore).map((r) => r.headers['surrogate-key'])).toEqual([keyOf(b.t)]);
    expect((await purges(a.t)).map((p) => p.status)).toEqual(['sent']);
  });
});

describe('a purge a CDN refuses', () => {
  it('is retried after a 5xx, and after a 429 no sooner than its Retry-After', async () => {
    const { t } = await business();
    const varnish = await receiver((_, i) => ({ status: i === 0 ? 503 : 200 }));
    const cloudflare = await receiver((_, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: '{"success":false}' } : { status: 200 }
    );
    const w = await worker([t.org.id], { purgeUrl: varnish.url, cloudflare: cloudflareAt(cloudflare) });
    const calls = await cloudflare.waitFor(2, 15_000);
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(950);
    await eventually(async () => (await purges(t)).every((p) => p.status === 'sent'), 10_000, 'sent');
    expect((await purges(t))[0].attempts).toBe(2);
    // Both CDNs get the retry: a purge is sent again whole, and purging twice is harmless.
    expect(varnish.requests.length).toBeGreaterThanOrEqual(2);
    expect(w.logs.some((l) => l.msg === 'cdn purge' && l.outcome === 'retrying')).toBe(true);
  });

  it('is given up after its schedule, logged with the organization and the status but no token', async () => {
    const { t } = await business();
    const cloudflare = await receiver(() => ({ status: 500 }));
    const fastly = await receiver(() => ({ status: 500 }));
    const w = await worker([t.org.id], { cloudflare: cloudflareAt(cloudflare), fastly: fastlyAt(fastly) });
    await eventually(async () => (await purges(t))[0].status === 'failed', 20_000, 'given up');
    const [p] = await purges(t);
    expect(p.attempts).toBe(8);
    expect(p.last_error).toBe('cloudflare: HTTP 500; fastly: HTTP 500');
    expect(cloudflare.requests).toHaveLength(8);
    const given = w.logs.find((l) => l.msg === 'cdn purge given up');
    expect(given).toMatchObject({ level: 'error', org_id: t.org.id, attempt: 8, outcome: 'failed' });
    const logged = JSON.stringify(w.logs);
    expect(logged).not.toContain(CLOUDFLARE_TOKEN);
    expect(logged).not.toContain(FASTLY_TOKEN);
  });

  it('is retried when the CDN cannot be reached', async () => {
    const { t } = await business();
    const gone = await receiver();
    const url = gone.url;
    await gone.close();
    await worker([t.org.id], { purgeUrl: url });
    await eventually(async () => (await purges(t))[0].attempts >= 2, 10_000, 'a retry');
    expect((await purges(t))[0].last_error).toBe('varnish: unreachable');
  });
});

describe('without a CDN', () => {
  it('leaves purges pending, one per organization, for a CDN configured later', async () => {
    const { t, reviewId } = await business();
    const w = await worker([t.org.id], {});
    await hide(t, reviewId);
    await w.worker.drain({ maxMs: 2000 });
    expect((await purges(t)).map((p) => [p.status, p.attempts])).toEqual([['pending', 0]]);
  });
});

describe('the keys a purge names', () => {
  it('are those the public answers carry', async () => {
    const { t } = await business();
    const varnish = await receiver();
    await worker([t.org.id], { purgeUrl: varnish.url });
    const [purge] = await varnish.waitFor(1, 10_000, (r) => names(r, t) === true);
    const page = await api('GET', `/p/${t.org.slug}`);
    // The business is new: its first purge names the sitemaps too, which list it from now on.
    expect(keysIn(purge)).toEqual([page.headers.get('surrogate-key'), 'sitemap']);
  });
});
