// The schema as the migrations leave it, as text: `pg_dump --schema-only` of the private schema,
// without the lines that change from one run or one pg_dump build to the next. The committed
// picture is supabase/schema.sql (`npm run schema:dump` writes it; a test compares it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const SYSTEM_PG_DUMP = '/usr/lib/postgresql/15/bin/pg_dump';

export function pgDump() {
  return fs.existsSync(SYSTEM_PG_DUMP) ? SYSTEM_PG_DUMP : 'pg_dump';
}

export function dumpSchema(databaseUrl) {
  const r = spawnSync(pgDump(), ['--schema-only', '--schema=plaudit', '--no-tablespaces', databaseUrl], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`pg_dump failed: ${r.stderr || r.error?.message}`);
  return r.stdout
    .split('\n')
    // Version banners, and the per-run tokens of pg_dump's \restrict guard.
    .filter((line) => !/^-- Dumped (from|by) /.test(line) && !/^\\(un)?restrict /.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

export const SCHEMA_FILE = path.join('supabase', 'schema.sql');
