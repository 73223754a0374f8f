// A throwaway PostgreSQL cluster with the migrations applied, for the commands that read what the
// migrations make (the schema dump, the migration writer): Debian's PostgreSQL, as npm test uses.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations, ensureDatabase } from './database.mjs';
import { ensureDebianPackages } from './deps.mjs';
import { Cluster, freePort } from './postgres.mjs';

/** Runs `use(url)` on a fresh database migrated up to `until` (a version; all when absent). */
export async function withMigratedDatabase(use, { until } = {}) {
  ensureDebianPackages(['postgresql-15']);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaudit-scratch-'));
  const cluster = new Cluster({ dir, port: await freePort(), database: 'plaudit_scratch' });
  try {
    cluster.init();
    cluster.start();
    await ensureDatabase(cluster.url('postgres'), cluster.database);
    await applyMigrations(cluster.url(), { until });
    return await use(cluster.url());
  } finally {
    cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
