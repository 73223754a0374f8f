// A throwaway PostgreSQL cluster, for the commands that read what the migrations and the sources
// make (the schema dump, the release writer): Debian's PostgreSQL, as npm test uses.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations, ensureDatabase } from './database.mjs';
import { ensureDebianPackages } from './deps.mjs';
import { Cluster, freePort } from './postgres.mjs';

/** Runs `use(databaseUrl)` with a fresh, empty cluster; `databaseUrl(name)` makes a database in it. */
export async function withScratchCluster(use) {
  ensureDebianPackages(['postgresql-15']);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaudit-scratch-'));
  const cluster = new Cluster({ dir, port: await freePort(), database: 'plaudit_scratch' });
  try {
    cluster.init();
    cluster.start();
    return await use(async (name) => {
      await ensureDatabase(cluster.url('postgres'), name);
      return cluster.url(name);
    });
  } finally {
    cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `use(url)` on a fresh database brought to HEAD (or to the released version `until`). */
export function withMigratedDatabase(use, { until } = {}) {
  return withScratchCluster(async (database) => {
    const url = await database('plaudit_scratch');
    await applyMigrations(url, { until });
    return await use(url);
  });
}
