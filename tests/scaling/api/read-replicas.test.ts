// Read replicas against a real hot standby of the test database (tests/helpers/standby.ts): the
// public's reads on it, keyed reads and writes on the primary, a lagging or stopped standby
// costing no failed request, read-your-writes, and what /api/v1/health says. Every wait is for an
// event (the standby caught up, health changed), never for a time.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../../../scripts/lib/api-server.mjs';
import { freePort } from '../../../scripts/lib/postgres.mjs';
import postgres from 'postgres';
import { ReplicaSet } from '../../../functions/_shared/core/db/replicas.ts';
import { createTenant, db, type Tenant, uniqueSlug } from '../../helpers/db.ts';
import { api, type RequestOptions } from '../../helpers/http.ts';
import { createForm, postReviews } from '../../helpers/reviews.ts';
import { type Standby, startStandby } from '../../helpers/standby.ts';
import { mailWorker } from '../../helpers/review-requests.ts';
import { addMember, asSession, personEmail, type Session, signIn } from '../../helpers/sessions.ts';
import type { ReplicaWait, Sleep } from '../../../functions/_shared/worker/replicas.ts';
import { allPurgesSent, keysIn, purgeRows } from '../../helpers/cdn-purges.ts';
import { eventually, startReceiver } from '../../helpers/receiver.ts';
import { startWorker } from '../../helpers/worker.ts';

type Server = { url: string; stop: () => Promise<void> };

/** The primary as the API reaches it, for replica sets made in this process. */
const primary = postgres(process.env.TEST_API_DATABASE_URL!, { max: 2, onnotice: () => {} });

let standby: Standby;
/** Takes the replica while it lags up to ten minutes: what it serves is what the paused standby has. */
let patient: Server;
/** Drops the replica once it lags a second. */
let strict: Server;

async function server(standbyUrl: string, maxLagMs: number): Promise<Server> {
  const log = fs.openSync(path.join(process.env.TEST_TMP_DIR ?? '/tmp', `replica-api-${maxLagMs}.log`), 'a');
  return await startApi({
    port: await freePort(),
    databaseUrl: process.env.TEST_API_DATABASE_URL,
    env: {
      PLAUDIT_ENV: 'development',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
      API_DATABASE_REPLICA_URLS: standbyUrl,
      REPLICA_MAX_LAG_MS: String(maxLagMs),
    },
    stdio: log,
  });
}

beforeAll(async () => {
  standby = await startStandby('api');
  [patient, strict] = await Promise.all([server(standby.apiUrl, 600_000), server(standby.apiUrl, 1000)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([patient?.stop(), strict?.stop(), primary.end({ timeout: 1 })]);
  await standby?.stop();
});

const on = (s: Server) => (method: string, p: string, opts: RequestOptions = {}) =>
  api(method, p, { ...opts, baseUrl: s.url });
const replicasOf = async (s: Server) => (await on(s)('GET', '/api/v1/health')).body.replicas;
const feedIds = async (s: Server, slug: string, headers: Record<string, string> = {}) => {
  const res = await on(s)('GET', `/api/v1/public/reviews/${slug}`, { headers });
  expect(res.status).toBe(200);
  return (res.body.data as { id: string }[]).map((r) => r.id);
};

/** An organization with one published review, which the standby has replayed. */
async function tenantWithReview(): Promise<{ t: Tenant; reviewId: string }> {
  const t = await createTenant();
  const form = await createForm(on(patient), t);
  const [reviewId] = await postReviews(form.id, uniqueSlug('rr'), [[5, 'Mug', 'A lovely mug', 'Ada']]);
  await expect.poll(() => standby.caughtUp()).toBe(true);
  return { t, reviewId };
}

const hide = (s: Server, t: Tenant, id: string) =>
  on(s)('PATCH', `/api/v1/organizations/${t.org.id}/reviews/${id}/moderate`, {
    key: t.keys.write,
    body: { action: 'hide', reason: 'Off topic' },
  });

describe('read replicas', () => {
  it('lists the replica in /api/v1/health, healthy and caught up, without its address', async () => {
    await expect.poll(() => replicasOf(patient)).toEqual([{ healthy: true, lag_ms: expect.any(Number) }]);
    await expect.poll(() => replicasOf(strict)).toEqual([{ healthy: true, lag_ms: expect.any(Number) }]);
    const text = JSON.stringify((await on(patient)('GET', '/api/v1/health')).body);
    expect(text).not.toMatch(/127\.0\.0\.1|postgres|standby|:\d{4,5}/);
  });

  it("serves the public's reads from the replica, keyed reads from the primary, and the writer's next look from the primary", async () => {
    const { t, reviewId } = await tenantWithReview();
    await expect.poll(() => replicasOf(patient)).toEqual([{ healthy: true, lag_ms: expect.any(Number) }]);
    await standby.pauseReplay();
    try {
      const hidden = await hide(patient, t, reviewId);
      expect(hidden.status).toBe(200);
      const cookie = /plaudit_read_after=[0-9A-F]+\/[0-9A-F]+/.exec(hidden.headers.get('set-cookie') ?? '')?.[0];
      expect(cookie, 'the write leaves its position in a cookie').toBeDefined();
      expect(hidden.headers.get('set-cookie')).toMatch(/Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax/);

      // Anyone else reads the paused standby, which still has the review: the replica serves them.
      expect(await feedIds(patient, t.org.slug)).toContain(reviewId);
      const page = await fetch(`${patient.url}/p/${t.org.slug}`);
      expect(await page.text()).toContain('A lovely mug');

      // The writer, carrying the cookie, reads the primary, and no cache keeps that answer.
      const own = await on(patient)('GET', `/api/v1/public/reviews/${t.org.slug}`, { headers: { cookie: cookie! } });
      expect(own.body.data.map((r: { id: string }) => r.id)).not.toContain(reviewId);
      expect(own.headers.get('cache-control')).toBe('private, no-store');
      const ownPage = await fetch(`${patient.url}/p/${t.org.slug}`, { headers: { cookie: cookie! } });
      expect(await ownPage.text()).not.toContain('A lovely mug');

      // A key's read never touches a replica.
      const keyed = await on(patient)('GET', `/api/v1/organizations/${t.org.id}/reviews/${reviewId}`, {
        key: t.keys.read,
      });
      expect(keyed.body.is_hidden).toBe(true);
    } finally {
      await standby.resumeReplay();
    }
    await expect.poll(() => feedIds(patient, t.org.slug)).not.toContain(reviewId);
  });

  it("keeps a member's next look at the public page, after a write from the dashboard, on the primary", async () => {
    const { t, reviewId } = await tenantWithReview();
    const worker = await mailWorker([t.org.id]);
    let session: Session;
    try {
      const email = personEmail('owner');
      await addMember(t, email, 'owner');
      session = await signIn(email);
    } finally {
      await worker.stop();
    }
    await standby.pauseReplay();
    try {
      const hidden = await asSession(
        session,
        'PATCH',
        `/api/v1/organizations/${t.org.id}/reviews/${reviewId}/moderate`,
        {
          body: { action: 'hide', reason: 'Off topic' },
          baseUrl: patient.url,
        },
      );
      expect(hidden.status).toBe(200);
      const readAfter = /plaudit_read_after=[^;]+/.exec(hidden.headers.get('set-cookie') ?? '')![0];
      // The browser sends every cookie of the origin: the session's and the write's.
      const own = await fetch(`${patient.url}/p/${t.org.slug}`, {
        headers: { cookie: `${session.cookie}; ${readAfter}` },
      });
      expect(await own.text()).not.toContain('A lovely mug');
      expect(own.headers.get('cache-control')).toBe('private, no-store');
      expect(await (await fetch(`${patient.url}/p/${t.org.slug}`)).text()).toContain('A lovely mug');
    } finally {
      await standby.resumeReplay();
    }
  });

  it('sends reads to the primary while the replica lags past REPLICA_MAX_LAG_MS, and health says it lags', async () => {
    const { t, reviewId } = await tenantWithReview();
    await expect.poll(() => replicasOf(strict)).toEqual([{ healthy: true, lag_ms: expect.any(Number) }]);
    await standby.pauseReplay();
    try {
      expect((await hide(strict, t, reviewId)).status).toBe(200);
      await expect.poll(() => replicasOf(strict)).toEqual([
        { healthy: false, lag_ms: expect.toSatisfy((ms: number) => ms > 1000, 'more than a second') },
      ]);
      expect(await feedIds(strict, t.org.slug)).not.toContain(reviewId);
      // The patient server still takes the paused standby: the difference is the bound alone.
      expect(await feedIds(patient, t.org.slug)).toContain(reviewId);
    } finally {
      await standby.resumeReplay();
    }
    await expect.poll(() => replicasOf(strict)).toEqual([{ healthy: true, lag_ms: expect.any(Number) }]);
  });

  it('refuses a replica reached as a login that row-level security does not bind', async () => {
    const replicas = new ReplicaSet(primary, [standby.superuserUrl]);
    try {
      await replicas.check();
      expect(replicas.health()).toEqual([{ healthy: false, lag_ms: expect.any(Number) }]);
      expect(replicas.pick()).toBeNull();
    } finally {
      await replicas.stop();
    }
  });

  it('waitForReplay: true once every replica that serves has replayed a write, false while it has not', async () => {
    const replicas = new ReplicaSet(primary, [standby.apiUrl], { maxLagMs: 600_000 }).start();
    try {
      await expect.poll(() => replicas.health()).toEqual([{ healthy: true, lag_ms: expect.any(Number) }]);
      await standby.pauseReplay();
      await createTenant();
      const [{ lsn }] = await db<{ lsn: string }[]>`select pg_current_wal_insert_lsn()::text as lsn`;
      expect(await replicas.waitForReplay(lsn, 300)).toBe(false);
      const waiting = replicas.waitForReplay(lsn, 60_000);
      await standby.resumeReplay();
      expect(await waiting).toBe(true);
      expect(replicas.replayed(lsn)).toBe(true);
    } finally {
      await standby.resumeReplay();
      await replicas.stop();
    }
  });

  describe('a CDN purge', () => {
    /** The clock a purge waits on, held by the test: each wait is listed until the test ends it. */
    function heldClock() {
      let waits: { why: ReplicaWait; end: () => void }[] = [];
      const sleep: Sleep = (_ms, why) => new Promise<void>((end) => waits.push({ why, end }));
      return {
        sleep,
        /** Forgets the waits so far (those of purges that went out as their replicas caught up). */
        forget: () => (waits = []),
        /** The next wait of this kind: the purge has reached it. */
        next: (why: ReplicaWait) => eventually(async () => waits.find((w) => w.why === why), 20_000, `a ${why} wait`),
      };
    }

    /** A business whose purges go to a CDN stand-in through a worker that waits for the standby. */
    async function purging() {
      const { t, reviewId } = await tenantWithReview();
      const clock = heldClock();
      const varnish = await startReceiver();
      const worker = await startWorker([t.org.id], {
        cdn: { purgeUrl: varnish.url, cloudflare: null, fastly: null },
        replicaUrls: [standby.apiUrl],
        replicaMaxLagMs: 600_000,
      }, { replicaSleep: clock.sleep });
      await allPurgesSent(t.org.id, 'the first purges');
      await expect.poll(() => replicasOf(patient)).toEqual([{ healthy: true, lag_ms: expect.any(Number) }]);
      clock.forget();
      return {
        t,
        reviewId,
        clock,
        worker,
        sent: () => varnish.requests.filter((r) => keysIn(r).includes(`org-${t.org.id}`)).length,
        landed: (n: number) => varnish.waitFor(n, 20_000, (r) => keysIn(r).includes(`org-${t.org.id}`)),
        stop: async () => {
          await worker.stop();
          await varnish.close();
        },
      };
    }

    it('waits while a replica that serves has not replayed the change, and goes once it has', async () => {
      const p = await purging();
      try {
        const before = p.sent();
        await standby.pauseReplay();
        try {
          expect((await hide(patient, p.t, p.reviewId)).status).toBe(200);
          await p.clock.next('replay');
          expect(p.sent()).toBe(before);
          expect((await purgeRows(p.t.org.id)).at(-1)!.status).toBe('sending');
          // What a CDN would refill from, were it purged now: the standby, which still shows the review.
          expect(await feedIds(patient, p.t.org.slug)).toContain(p.reviewId);
        } finally {
          await standby.resumeReplay();
        }
        await p.landed(before + 1);
        await allPurgesSent(p.t.org.id);
        // It caught up in time: it still serves, and what it serves has the change.
        expect(await replicasOf(patient)).toEqual([{ healthy: true, lag_ms: expect.any(Number) }]);
        expect(await feedIds(patient, p.t.org.slug)).not.toContain(p.reviewId);
      } finally {
        await p.stop();
      }
    });

    it('takes a replica that has not replayed the change within the bound out of the reads, then goes', async () => {
      const p = await purging();
      try {
        const before = p.sent();
        await standby.pauseReplay();
        try {
          expect((await hide(patient, p.t, p.reviewId)).status).toBe(200);
          (await p.clock.next('replay')).end(); // the bound passes, the standby still paused
          const fence = await p.clock.next('fence');
          // Out of the reads of every process once each has read the floor; purged only then.
          expect(p.sent()).toBe(before);
          await expect.poll(() => replicasOf(patient)).toEqual([{ healthy: false, lag_ms: expect.any(Number) }]);
          expect(p.worker.logs).toContainEqual(
            expect.objectContaining({ msg: 'replicas behind a cdn purge taken out of reads', replicas: 1 }),
          );
          fence.end();
          await p.landed(before + 1);
          // The standby still shows the review; the reads, on the primary, no longer do.
          expect(await feedIds(patient, p.t.org.slug)).not.toContain(p.reviewId);
          expect(await (await fetch(`${patient.url}/p/${p.t.org.slug}`)).text()).not.toContain('A lovely mug');
        } finally {
          await standby.resumeReplay();
        }
        // Once it has replayed the change, it serves again.
        await expect.poll(() => replicasOf(patient)).toEqual([{ healthy: true, lag_ms: expect.any(Number) }]);
      } finally {
        await p.stop();
      }
    });
  });

  it('answers every read when the replica stops (each read it failed runs again on the primary), and health says it is down', async () => {
    const { t, reviewId } = await tenantWithReview();
    await expect.poll(() => replicasOf(patient)).toEqual([{ healthy: true, lag_ms: expect.any(Number) }]);
    await standby.stop();
    // Before the next check notices, reads picked for the standby fail there and go to the primary.
    const reads = await Promise.all(Array.from({ length: 6 }, () => feedIds(patient, t.org.slug)));
    for (const ids of reads) expect(ids).toContain(reviewId);
    const page = await fetch(`${patient.url}/p/${t.org.slug}`);
    expect(page.status).toBe(200);
    await expect.poll(() => replicasOf(patient)).toEqual([{ healthy: false, lag_ms: null }]);
    expect(await feedIds(patient, t.org.slug)).toContain(reviewId);
  });
});
