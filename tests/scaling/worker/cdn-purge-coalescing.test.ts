// How many purges a burst of changes costs, and which keys they name: while an organization's
// purge is in flight (held at the CDN stand-in until the test lets it go), everything that arrives
// waits in one pending purge, which no other worker may send meanwhile; the sitemaps' key is
// named when a change alters what they list, and only then.
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerConfig } from '../../../functions/_shared/worker/config.ts';
import { allPurgesSent, hideReview, keysIn, orgKey, purgeRows } from '../../helpers/cdn-purges.ts';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { api } from '../../helpers/http.ts';
import { createProduct } from '../../helpers/products.ts';
import { type Receiver, startReceiver } from '../../helpers/receiver.ts';
import { createForm, postReviews } from '../../helpers/reviews.ts';
import { startWorker, type TestWorker } from '../../helpers/worker.ts';

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

/** A business with `n` published reviews. */
async function business(n: number) {
  const t = await createTenant();
  const form = await createForm(api, t);
  const reviewIds = await postReviews(
    form.id,
    `burst-${t.org.slug}`,
    Array.from({ length: n }, (_, i) => [4, null, `Review ${i}.`, 'Ann'] as const),
  );
  return { t, reviewIds };
}

const purgesOf = (r: Receiver, t: Tenant) => r.requests.filter((q) => keysIn(q).includes(orgKey(t)));

describe('a burst of changes while a purge is in flight', () => {
  it('costs one more purge, whatever the number of changes and of workers, and it names every key', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    const varnish = await receiver(() => (holding ? { until: held } : {}));
    const { t, reviewIds } = await business(10);
    // Two workers share the queue, as several processes would.
    await worker([t.org.id], { purgeUrl: varnish.url });
    await worker([t.org.id], { purgeUrl: varnish.url });
    await allPurgesSent(t.org.id, 'the purges of the reviews publication');
    const before = purgesOf(varnish, t).length;

    // The first hide's purge reaches the CDN and is held there: a flight that lasts.
    holding = true;
    await hideReview(t, reviewIds[0]);
    await varnish.waitFor(before + 1, 20_000, (q) => keysIn(q).includes(orgKey(t)));
    holding = false;

    // The burst: nine more hides and a product added (a page the sitemaps list).
    for (const id of reviewIds.slice(1)) await hideReview(t, id);
    await createProduct(api, t);
    // Everything the burst asked for waits in one pending purge behind the flight. (Sorted by
    // status: a row's created_at is its transaction's start, which says nothing of its order here.)
    const unsent = (await purgeRows(t.org.id)).filter((p) => p.status !== 'sent');
    expect(unsent.map((p) => [p.status, p.include_sitemap]).sort())
      .toEqual([['pending', true], ['sending', false]]);

    release();
    await allPurgesSent(t.org.id, 'the flight and the purge of the burst');
    const sent = purgesOf(varnish, t).slice(before);
    expect(sent.map((q) => keysIn(q).sort())).toEqual([[orgKey(t)], [orgKey(t), 'sitemap'].sort()]);
  });
});

describe('the sitemaps key', () => {
  it('is named once in a call that purges several organizations that list it', async () => {
    const cloudflare = await receiver();
    // Two new businesses: each one's purge names the sitemaps, which list it from now on.
    const [a, b] = [await createTenant(), await createTenant()];
    await worker([a.org.id, b.org.id], {
      cloudflare: { zoneId: 'zone-1', apiToken: 'cf-token', apiUrl: `${cloudflare.url}/client/v4` },
    });
    await allPurgesSent(a.org.id);
    await allPurgesSent(b.org.id);
    expect(cloudflare.requests).toHaveLength(1);
    expect(JSON.parse(cloudflare.requests[0].body).tags.sort()).toEqual([orgKey(a), orgKey(b), 'sitemap'].sort());
  });

  it('is purged with a change that alters what the sitemap lists, and not with a new review', async () => {
    const varnish = await receiver();
    const { t } = await business(1);
    const form = await createForm(api, t);
    await worker([t.org.id], { purgeUrl: varnish.url });
    await allPurgesSent(t.org.id, 'the first purges');

    // The sitemap answers under the one key `sitemap`, whatever the number of businesses it lists.
    const sitemap = await api('GET', '/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('surrogate-key')).toBe('sitemap');
    expect(sitemap.headers.get('cache-tag')).toBe('sitemap');

    /** Makes a change, waits for its purge, and answers the keys that purge named. */
    const keysOf = async (change: () => Promise<unknown>) => {
      const before = purgesOf(varnish, t).length;
      await change();
      await varnish.waitFor(before + 1, 20_000, (q) => keysIn(q).includes(orgKey(t)));
      await allPurgesSent(t.org.id);
      const sent = purgesOf(varnish, t).slice(before);
      expect(sent).toHaveLength(1);
      return keysIn(sent[0]).sort();
    };

    expect(await keysOf(() => postReviews(form.id, `more-${t.org.slug}`, [[5, null, 'Again.', 'Bo']])))
      .toEqual([orgKey(t)]);
    let productId = '';
    expect(await keysOf(async () => (productId = (await createProduct(api, t)).id))).toEqual(
      [orgKey(t), 'sitemap'].sort(),
    );
    const patch = async (body: Record<string, unknown>) => {
      const res = await api('PATCH', `/api/v1/organizations/${t.org.id}/products/${productId}`, {
        key: t.keys.write,
        body,
      });
      expect(res.status).toBe(200);
    };
    expect(await keysOf(() => patch({ name: 'Renamed mug' }))).toEqual([orgKey(t)]);
    expect(await keysOf(() => patch({ archived: true }))).toEqual([orgKey(t), 'sitemap'].sort());
    expect(
      await keysOf(() =>
        api('PATCH', `/api/v1/organizations/${t.org.id}/public-profile`, {
          key: t.keys.admin,
          body: { enabled: false },
        })
      ),
    ).toEqual([orgKey(t), 'sitemap'].sort());
  });
});
