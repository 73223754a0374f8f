// A hot standby of the test database's server, on loopback, for the read-replica tests: made by
// pg_basebackup (Cluster.initStandbyOf), streaming from the primary, with its replay paused and
// resumed and the server stopped on demand.
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { Cluster, freePort } from '../../scripts/lib/postgres.mjs';
import { replicaAuthenticatorUrls } from '../../scripts/lib/database.mjs';

export interface Standby {
  /** The standby as the API connects to it (plaudit_authenticator, replicated from the primary). */
  apiUrl: string;
  /** The standby as its superuser. */
  superuserUrl: string;
  /** Stops applying the primary's WAL (it still receives it): the standby falls behind. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Whether it has replayed everything the primary had written when asked. */
  caughtUp(): Promise<boolean>;
  /** Stops the server (fast shutdown): its connections drop, new ones are refused. */
  stop(): Promise<void>;
}

export async function startStandby(name: string): Promise<Standby> {
  const primaryUrl = process.env.TEST_DATABASE_URL!;
  const dir = fs.mkdtempSync(path.join(process.env.TEST_TMP_DIR ?? '/tmp', `standby-${name}-`));
  const cluster = new Cluster({ dir, port: await freePort(), database: 'plaudit_test', preloadCron: false });
  cluster.initStandbyOf(primaryUrl);
  cluster.start();
  const superuser = postgres(cluster.url(), { max: 1, onnotice: () => {} });
  const primary = postgres(primaryUrl, { max: 1, onnotice: () => {} });
  let stopped = false;
  return {
    apiUrl: replicaAuthenticatorUrls(cluster.url(), process.env.TEST_API_DATABASE_URL!),
    superuserUrl: cluster.url(),
    pauseReplay: async () => {
      await superuser`select pg_wal_replay_pause()`;
    },
    resumeReplay: async () => {
      await superuser`select pg_wal_replay_resume()`;
    },
    caughtUp: async () => {
      const [{ lsn }] = await primary`select pg_current_wal_lsn()::text as lsn`;
      const [{ done }] = await superuser`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as done`;
      return done;
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await Promise.all([superuser.end({ timeout: 1 }), primary.end({ timeout: 1 })]);
      cluster.stop();
    },
  };
}
