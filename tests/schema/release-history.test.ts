// A database records what it has in the Supabase CLI's history table: a database whose history
// holds every version a release folds (the migrations of before 0.2.0, or the changes a release
// carries) has that release, and is not given it twice; a version nobody knows stops the run.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations, connect, ensureDatabase, releases } from '../../scripts/lib/database.mjs';

const made: string[] = [];

async function database() {
  const name = `plaudit_history_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(process.env.TEST_DATABASE_URL!, name);
  made.push(name);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  const server = connect(process.env.TEST_DATABASE_URL!);
  try {
    for (const name of made) await server.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await server.end();
  }
});

describe('the migration history', () => {
  const first = releases()[0];

  it('takes a database made by the migrations 0.2.0 folds as a database of 0.2.0', async () => {
    const url = await database();
    await applyMigrations(url, { until: first.migration });
    const sql = connect(url);
    try {
      // As a database made before the cut has it: the folded versions, not the release's.
      await sql`delete from supabase_migrations.schema_migrations`;
      for (const version of first.folds) {
        await sql`insert into supabase_migrations.schema_migrations (version, name) values (${version}, 'folded')`;
      }
      await applyMigrations(url);
      const versions = await sql`select version, name from supabase_migrations.schema_migrations order by version`;
      expect(versions).toEqual([{ version: first.migration, name: `plaudit_${first.release.replaceAll('.', '_')}` }]);
      const [{ n }] = await sql`select count(*)::integer as n from pg_proc where proname = 'review_json'`;
      expect(n).toBe(1);
    } finally {
      await sql.end();
    }
  }, 120_000);

  it('stops at a version that neither the folder nor a release knows', async () => {
    const url = await database();
    await applyMigrations(url, { until: first.migration });
    const sql = connect(url);
    try {
      await sql`insert into supabase_migrations.schema_migrations (version, name) values ('20200101000000', 'stray')`;
    } finally {
      await sql.end();
    }
    await expect(applyMigrations(url)).rejects.toThrow(
      'the database records migrations that supabase/migrations/ does not hold (20200101000000): ' +
        'it was made by another version of the schema',
    );
  }, 120_000);
});
