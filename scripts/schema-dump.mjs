// npm run schema:dump — rewrites supabase/schema.sql: the private schema as the migrations leave
// it, dumped from a throwaway cluster. Run it after adding a migration and commit the result;
// tests/schema/schema-dump.test.ts fails while the file and the migrations disagree.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations, ensureDatabase, root } from './lib/database.mjs';
import { ensureDebianPackages } from './lib/deps.mjs';
import { Cluster, freePort } from './lib/postgres.mjs';
import { dumpSchema, SCHEMA_FILE } from './lib/schema-dump.mjs';

// Debian's PostgreSQL, as npm test uses: its build has lz4, which the schema names where it can.
ensureDebianPackages(['postgresql-15']);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaudit-schema-'));
const cluster = new Cluster({ dir, port: await freePort(), database: 'plaudit_schema' });
try {
  cluster.init();
  cluster.start();
  await ensureDatabase(cluster.url('postgres'), cluster.database);
  await applyMigrations(cluster.url());
  fs.writeFileSync(path.join(root, SCHEMA_FILE), dumpSchema(cluster.url()));
  console.log(`wrote ${SCHEMA_FILE}`);
} finally {
  cluster.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
