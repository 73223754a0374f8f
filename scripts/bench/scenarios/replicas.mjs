// Read replicas (docs/scaling.md): the public feed answered from a hot standby of the bench's
// cluster, next to the same feed answered from the primary, by two API instances alike but for
// API_DATABASE_REPLICA_URLS. The standby is made in the stack (pg_basebackup), on the same machine:
// the ratio shows what routing costs the API (a check of the replica set per read, a second pool),
// not what a standby on a machine of its own would add.
//
//   BENCH_REPLICA_REVIEWS=10000  reviews of the organization whose feed is read
import path from 'node:path';
import { connect, replicaAuthenticatorUrls } from '../../lib/database.mjs';
import { Cluster, freePort } from '../../lib/postgres.mjs';
import { expectStatus, seedOrganization } from './reviews.mjs';
import { positive } from '../stats.mjs';

/** Polls `check` until it answers true; the standby and the API's health loop report on their own time. */
async function waitUntil(what, check, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A hot standby of the stack's cluster, stopped with the stack. */
async function standbyOf(ctx) {
  const { stack } = ctx;
  const standby = new Cluster({
    dir: path.join(stack.dir, 'standby'),
    port: await freePort(),
    database: stack.cluster.database,
    preloadCron: false,
  });
  ctx.log('making a hot standby (pg_basebackup)');
  standby.initStandbyOf(stack.superuserUrl);
  standby.start();
  const stop = stack.stop;
  stack.stop = async () => {
    standby.stop();
    await stop();
  };
  return standby;
}

const publicApi = (stack, env = {}) =>
  stack.startExtraApi({ env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000000', ...env } });

export default {
  name: 'replicas-public-feed',
  description:
    'GET /public/profiles/:slug/reviews (page 1) from an API whose public reads go to a hot standby, next to one reading the primary',
  async setup(ctx) {
    const { stack } = ctx;
    const seed = await seedOrganization(ctx, 'bench-replicas', positive(ctx.env, 'BENCH_REPLICA_REVIEWS', 10_000));
    const standby = await standbyOf(ctx);
    const [{ lsn }] = await stack.sql`select pg_current_wal_lsn()::text as lsn`;
    const watch = connect(standby.url());
    await waitUntil('the standby catching up', async () => {
      const [{ done }] = await watch`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as done`;
      return done;
    });
    const onReplica = await publicApi(stack, {
      API_DATABASE_REPLICA_URLS: replicaAuthenticatorUrls(standby.url(), stack.authenticatorUrl),
    });
    const onPrimary = await publicApi(stack);
    await waitUntil('the API finding its replica healthy', async () => {
      const { body } = await expectStatus(`${onReplica.url}/api/v1/health`, undefined, 200);
      return JSON.parse(body).replicas[0]?.healthy === true;
    });
    const feed = (api) => `${api.url}/api/v1/public/profiles/${seed.slug}/reviews`;
    await expectStatus(feed(onReplica), undefined, 200);
    for (const api of [onReplica, onPrimary]) await ctx.http({ url: feed(api), seconds: ctx.warmup });
    // The replica's API read there: its pool's connections are on the standby.
    const [{ n }] = await watch`
      select count(*)::integer as n from pg_stat_activity where application_name = 'plaudit-api-replica'`;
    await watch.end();
    if (n === 0) throw new Error('the replica API never connected to the standby');
    return {
      replicaUrl: feed(onReplica),
      primaryUrl: feed(onPrimary),
      replicaPid: onReplica.child.pid,
      primaryPid: onPrimary.child.pid,
    };
  },
  measurements: [
    {
      key: 'replica',
      name: 'API, public feed read on the standby',
      apiPid: (_ctx, s) => s.replicaPid,
      run: (ctx, s) => ctx.http({ url: s.replicaUrl }),
    },
    {
      key: 'primary',
      name: 'API, public feed read on the primary',
      apiPid: (_ctx, s) => s.primaryPid,
      run: (ctx, s) => ctx.http({ url: s.primaryUrl }),
    },
  ],
  ratios: [{ name: 'public feed on a replica ÷ on the primary (req/s)', of: 'replica', over: 'primary', target: 0.9 }],
};
