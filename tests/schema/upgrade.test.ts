// Upgrading from the last release keeps every customer's data. A database of the newest release in
// supabase/releases.json is made on the test cluster, filled with every kind of row the product
// writes (tests/helpers/fill-every-kind.ts), and snapshotted; then it is brought to HEAD as every
// database is (the changes of supabase/changes/ and the sources of supabase/schemas/); then every
// row must still be there with the values it had, every table and column too, every chain must
// verify, and what waits in the outboxes must still be deliverable; the review counters must still
// say what the reviews say, media, upload tokens, votes and reports stay on reviews of their own
// organization, erased addresses stay erased, and imports waiting for the worker still apply.
//
// supabase/releases.json names each release's migration (the file name's timestamp) and the
// changes it folded; `npm run db:release` adds the next one. While HEAD is the newest release the
// upgrade changes nothing and this checks that the filler and the snapshots work; it becomes the
// real check as soon as the first change lands.
import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, connect, ensureDatabase, releases } from '../../scripts/lib/database.mjs';
import { type FilledOrganization, fillEveryKind } from '../helpers/fill-every-kind.ts';

type Sql = postgres.Sql;

const { release, migration: releaseVersion } = releases().at(-1)!;

/** A table as the snapshot saw it: its columns, and each row's md5 by its primary key. */
interface TableSnapshot {
  columns: string[];
  /** Row key (the primary key as JSON, or the whole row when the table has none) → md5 of the row. */
  rows: Map<string, { hash: string; columnHashes: (string | null)[] }>;
}
type Snapshot = Map<string, TableSnapshot>;

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The tables of schema plaudit with their columns (in order) and primary key columns. */
async function tables(sql: Sql) {
  return await sql<{ name: string; columns: string[]; key: string[] }[]>`
    select c.relname as name,
           array(select a.attname::text from pg_attribute a
                  where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped order by a.attnum) as columns,
           array(select a.attname::text
                   from pg_index i cross join unnest(i.indkey::int2[]) with ordinality k(attnum, n)
                   join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
                  where i.indrelid = c.oid and i.indisprimary order by k.n) as key
      from pg_class c
     where c.relnamespace = 'plaudit'::regnamespace and c.relkind in ('r', 'p')
     order by c.relname`;
}

/**
 * Every row of every table: its key and the md5 of its text over `columns` (the columns the
 * release had: a column added since does not count), and one md5 per column, to name what changed.
 */
async function snapshot(sql: Sql, columnsOf?: Snapshot): Promise<Snapshot> {
  const shot: Snapshot = new Map();
  for (const table of await tables(sql)) {
    const columns = columnsOf
      ? (columnsOf.get(table.name)?.columns ?? []).filter((c) => table.columns.includes(c))
      : table.columns;
    if (columns.length === 0) continue;
    const values = columns.map((c) => `t.${ident(c)}`);
    const key = table.key.length > 0
      ? `jsonb_build_array(${table.key.map((c) => `t.${ident(c)}`).join(', ')})::text`
      : `row(${values.join(', ')})::text`;
    const rows = await sql.unsafe<{ key: string; hash: string; column_hashes: (string | null)[] }[]>(`
      select ${key} as key, md5(row(${values.join(', ')})::text) as hash,
             array[${values.map((v) => `md5(${v}::text)`).join(', ')}] as column_hashes
        from plaudit.${ident(table.name)} t
       order by 1`);
    const byKey = new Map<string, { hash: string; columnHashes: (string | null)[] }>();
    for (const r of rows) {
      // Without a primary key equal rows share a key: each is counted by its position among them.
      let k = r.key;
      for (let n = 2; byKey.has(k); n += 1) k = `${r.key} #${n}`;
      byKey.set(k, { hash: r.hash, columnHashes: r.column_hashes });
    }
    shot.set(table.name, { columns, rows: byKey });
  }
  return shot;
}

/**
 * Columns a change since the release rewrites on purpose, with the test that checks their new
 * values; the release that folds the change starts from rewritten values, so its entry goes then.
 */
const REWRITTEN: Record<string, string[]> = {
  // supabase/changes/20261129033901_email_keys_keyed.sql re-keys every address's key ("keys each
  // address with HEAD's plaudit.email_key").
  email_suppressions: ['email_key'],
  privacy_erasures: ['email_key'],
  privacy_data_requests: ['email_key'],
};

/** The rows of `before` that `after` lost or changed, one line each, naming the changed columns. */
function lostOrChangedRows(before: Snapshot, after: Snapshot): string[] {
  const problems: string[] = [];
  for (const [name, table] of before) {
    const upgraded = after.get(name);
    if (!upgraded) continue; // a dropped table is reported by its own test
    for (const [key, row] of table.rows) {
      const now = upgraded.rows.get(key);
      if (!now) problems.push(`plaudit.${name} ${key}: the row is gone`);
      else if (now.hash !== row.hash) {
        const changed = table.columns.flatMap((c, i) => {
          const j = upgraded.columns.indexOf(c);
          if (j < 0) return [`${c} dropped`];
          if (REWRITTEN[name]?.includes(c)) return [];
          return now.columnHashes[j] === row.columnHashes[i] ? [] : [`${c} changed`];
        });
        if (changed.length > 0) problems.push(`plaudit.${name} ${key}: ${changed.join(', ')}`);
      }
    }
  }
  return problems;
}

/** Review counters that no longer say what the reviews say: the organizations' and the products'. */
async function countersAstray(sql: Sql) {
  const figures = (where: string) => `
    select array[count(*), coalesce(sum(r.rating), 0), count(*) filter (where r.rating = 1),
                 count(*) filter (where r.rating = 2), count(*) filter (where r.rating = 3),
                 count(*) filter (where r.rating = 4), count(*) filter (where r.rating = 5)]::bigint[]
      from plaudit.reviews r where ${where} and plaudit.review_is_public(r.is_hidden, r.verification_status)`;
  return await sql.unsafe<{ counter: string; kept: string[]; counted: string[] }[]>(`
    with organizations as (
      select 'organization ' || o.slug as counter,
             (select array[coalesce(sum(s.total_count), 0), coalesce(sum(s.public_count), 0),
                           coalesce(sum(s.rating_sum), 0), coalesce(sum(s.rating_1), 0),
                           coalesce(sum(s.rating_2), 0), coalesce(sum(s.rating_3), 0),
                           coalesce(sum(s.rating_4), 0), coalesce(sum(s.rating_5), 0)]::bigint[]
                from plaudit.review_statistics s where s.org_id = o.id) as kept,
             (select count(*) from plaudit.reviews r where r.org_id = o.id)
               || (${figures('r.org_id = o.id and r.product_id is null')}) as counted
        from plaudit.organizations o
    ), products as (
      select 'product ' || p.external_id || ' of ' || p.org_id as counter,
             array[coalesce(s.public_count, 0), coalesce(s.rating_sum, 0), coalesce(s.rating_1, 0),
                   coalesce(s.rating_2, 0), coalesce(s.rating_3, 0), coalesce(s.rating_4, 0),
                   coalesce(s.rating_5, 0)]::bigint[] as kept,
             (${figures('r.product_id = p.id')}) as counted
        from plaudit.products p left join plaudit.product_review_statistics s on s.product_id = p.id
    )
    select * from organizations where kept is distinct from counted
    union all
    select * from products where kept is distinct from counted`);
}

/** Rows that point at a review of another organization, or at none: media, upload tokens, votes, reports. */
async function signalsAstray(sql: Sql) {
  return await sql.unsafe<{ kind: string; id: string }[]>(
    [
      ['review_media', 'm.id::text'],
      ['media_upload_tokens', 'm.review_id::text'],
      ['review_votes', 'm.review_id::text'],
      ['review_reports', 'm.id::text'],
    ].map(([table, id]) => `
      select '${table}' as kind, ${id} as id from plaudit.${table} m
       where not exists (select from plaudit.reviews r where r.id = m.review_id and r.org_id = m.org_id)`)
      .join(' union all '),
  );
}

/** What `fn` answers in a transaction that is then rolled back: a look at what would happen. */
async function rolledBack<T>(sql: Sql, fn: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
  const undo = { answer: undefined as T };
  try {
    await sql.begin(async (tx) => {
      undo.answer = await fn(tx);
      throw undo;
    });
  } catch (err) {
    if (err !== undo) throw err;
  }
  return undo.answer;
}

describe(`upgrading a database of release ${release} (${releaseVersion}) to HEAD`, () => {
  const name = `plaudit_upgrade_${randomBytes(6).toString('hex')}`;
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  let sql: Sql;
  let organizations: FilledOrganization[];
  let emptyTables: string[];
  let before: Snapshot;
  let after: Snapshot;
  let beforeColumns: { name: string; columns: string[] }[];
  let afterColumns: { name: string; columns: string[] }[];
  let trailLengths: Map<string, number>;
  /** Whether the release held `table` and the filler wrote to it: then its check has rows to look at. */
  const wasFilled = (table: string) => (before.get(table)?.rows.size ?? 0) > 0;

  beforeAll(async () => {
    // Roles are the cluster's and exist already; the first migration creates only those missing.
    await ensureDatabase(process.env.TEST_DATABASE_URL!, name);
    // a. The release's schema.
    await applyMigrations(url.toString(), { until: releaseVersion });
    sql = connect(url.toString());
    // b. Data of every kind, and every table reached by it.
    organizations = await fillEveryKind(sql);
    beforeColumns = await tables(sql);
    emptyTables = [];
    for (const t of beforeColumns) {
      const [{ filled }] = await sql.unsafe(`select exists (select from plaudit.${ident(t.name)}) as filled`);
      if (!filled) emptyTables.push(t.name);
    }
    trailLengths = new Map(
      (await sql<{ org_id: string; n: number }[]>`
        select org_id, count(*)::integer as n from plaudit.moderation_trail group by org_id`).map((
        r,
      ) => [r.org_id, r.n]),
    );
    // c. The snapshot.
    before = await snapshot(sql);
    // d. Every migration since the release (none while HEAD is the release).
    await applyMigrations(url.toString());
    after = await snapshot(sql, before);
    afterColumns = await tables(sql);
  }, 300_000);

  afterAll(async () => {
    await sql?.end();
    const server = connect(process.env.TEST_DATABASE_URL!);
    try {
      await server.unsafe(`drop database if exists ${ident(name)} with (force)`);
    } finally {
      await server.end();
    }
  });

  it('starts from a release database with rows in every table', () => {
    expect(beforeColumns.length).toBeGreaterThan(0);
    expect(emptyTables, 'tables the filler (tests/helpers/fill-every-kind.ts) wrote nothing to').toEqual([]);
  });

  it('keeps every table and every column', () => {
    const missing = beforeColumns.flatMap((t) => {
      const now = afterColumns.find((a) => a.name === t.name);
      if (!now) return [`plaudit.${t.name}`];
      return t.columns.filter((c) => !now.columns.includes(c)).map((c) => `plaudit.${t.name}.${c}`);
    });
    expect(missing, 'tables and columns the upgrade dropped').toEqual([]);
  });

  it('keeps every row with the values it had', () => {
    expect([...before.values()].reduce((n, t) => n + t.rows.size, 0)).toBeGreaterThan(0);
    expect(lostOrChangedRows(before, after), 'rows the upgrade removed or rewrote').toEqual([]);
  });

  it('keeps every moderation chain verifying, with its entries', async () => {
    for (const org of organizations) {
      const [chain] = await sql`select * from plaudit.verify_moderation_chain(${org.id})`;
      expect({ ...chain, entries: Number(chain.entries) }).toEqual({
        valid: true,
        entries: trailLengths.get(org.id),
        broken_seq: null,
        broken_entry_id: null,
        problem: null,
      });
    }
  });

  it('still recognises a chain head kept before the upgrade', async () => {
    for (const org of organizations) {
      const status = await sql.begin(async (tx) => {
        await tx`select set_config('plaudit.org_id', ${org.id}, true)`;
        await tx.unsafe('set local role plaudit_api');
        const [{ s }] = await tx`
          select plaudit.moderation_chain_status(${org.keptHead.entries}, ${org.keptHead.head}) as s`;
        return s;
      });
      expect(org.keptHead.entries).toBeGreaterThan(0);
      expect(status).toMatchObject({
        valid: true,
        problem: null,
        earlier_head: { entries: org.keptHead.entries, head: org.keptHead.head, matches: true, problem: null },
      });
    }
  });

  it('keeps each export on the chain head it was made with, and its file whole', async () => {
    const exports = await sql<{ id: string; status: string; chunk_count: number; chunks: number; on_trail: boolean }[]>`
      select e.id, e.status, e.chunk_count,
             (select count(*)::integer from plaudit.export_chunks c where c.export_id = e.id) as chunks,
             exists (select from plaudit.moderation_trail t
                      where t.org_id = e.org_id and t.seq = e.moderation_chain_entries
                        and t.hash = e.moderation_chain_head) as on_trail
        from plaudit.exports e order by e.created_at, e.id`;
    expect(exports.length).toBeGreaterThan(0);
    for (const e of exports) {
      expect(e, `export ${e.id}`).toMatchObject({ status: 'completed', chunks: e.chunk_count, on_trail: true });
    }
  });

  it('keeps the outboxes deliverable: deliveries carry their events, queued links still open', async () => {
    const [deliveries] = await sql`
      select count(*)::integer as n,
             count(*) filter (where (d.payload::jsonb ->> 'event') is distinct from e.type
                                 or (d.payload::jsonb -> 'data') is distinct from e.data)::integer as astray
        from plaudit.webhook_deliveries d join plaudit.events e on e.id = d.event_id`;
    expect(deliveries.n).toBeGreaterThan(0);
    expect(deliveries.astray, 'deliveries whose body is not their event').toBe(0);

    // Every link a waiting e-mail carries still leads where it did: review-request tokens are
    // signed with a secret of the database, verification and invitation tokens match stored hashes.
    const [links] = await sql`
      select count(*)::integer as n,
             count(*) filter (where case
               when o.template in ('review_request', 'review_reminder') then
                 plaudit.review_request_from_token(substring(o.data ->> 'landing_url' from '/r/([A-Za-z0-9_-]{43})$'))
                   is distinct from (o.data ->> 'review_request_id')::uuid
               when o.template = 'review_verification' then
                 not exists (select from plaudit.review_verification_tokens t
                              where t.token_hash = sha256(convert_to(o.data ->> 'token', 'UTF8'))
                                and t.review_id = (o.data ->> 'review_id')::uuid)
               when o.template = 'team_invitation' then
                 not exists (select from plaudit.invitations i
                              where i.token_hash = sha256(convert_to(
                                      substring(o.data ->> 'accept_url' from '/invitations/([0-9A-Za-z]{43})$'), 'UTF8'))
                                and i.id = (o.data ->> 'invitation_id')::uuid)
               else false end)::integer as broken
        from plaudit.email_outbox o where o.status = 'queued'`;
    expect(links.n).toBeGreaterThan(0);
    expect(links.broken, 'queued e-mails whose link no longer works').toBe(0);
  });

  it("keeps the review counters saying what the reviews say: the organizations' and each product's", async () => {
    expect(await countersAstray(sql), 'counters that differ from a count of the reviews').toEqual([]);
    if (wasFilled('product_review_statistics')) {
      const [{ n }] =
        await sql`select count(*)::integer as n from plaudit.product_review_statistics where public_count > 0`;
      expect(n).toBeGreaterThan(0);
    }
  });

  it('keeps photos, videos, upload tokens, votes and reports on reviews of their own organization', async () => {
    expect(await signalsAstray(sql), 'rows on a review of another organization, or on none').toEqual([]);
    const [votes] = await sql`
      select count(*)::integer as n from plaudit.reviews r
       where r.helpful_count <> (select count(*) from plaudit.review_votes v where v.review_id = r.id)`;
    expect(votes.n, 'reviews whose helpful count is not their votes').toBe(0);
  });

  it('keeps each erased address erased: suppressed, and on no review', async () => {
    const [erasures] = await sql`
      select count(*)::integer as n,
             count(*) filter (where not exists (
               select from plaudit.email_suppressions s
                where s.org_id = e.org_id and s.email_key = e.email_key and s.reason = 'erased'))::integer
               as unsuppressed,
             count(*) filter (where exists (
               select from plaudit.reviews r
                where r.org_id = e.org_id and plaudit.email_key(r.org_id, r.reviewer_email) = e.email_key))::integer
               as held
        from plaudit.privacy_erasures e`;
    if (wasFilled('privacy_erasures')) expect(erasures.n).toBeGreaterThan(0);
    expect(erasures).toMatchObject({ unsuppressed: 0, held: 0 });
  });

  it("keys each address with HEAD's plaudit.email_key: an erased one's key, re-keyed without its address, still matches it", async () => {
    const erased = organizations.flatMap((org) => org.erased.map((address) => ({ org: org.id, address })));
    if (wasFilled('privacy_erasures')) expect(erased.length).toBeGreaterThan(0);
    for (const { org, address } of erased) {
      const [found] = await sql`
        select (select count(*)::integer from plaudit.email_suppressions s
                 where s.org_id = ${org} and s.reason = 'erased' and s.email_key = k.key) as suppressions,
               (select count(*)::integer from plaudit.privacy_erasures e
                 where e.org_id = ${org} and e.email_key = k.key) as erasures
          from (select plaudit.email_key(${org}, ${address}) as key) k`;
      expect(found, address).toEqual({ suppressions: 1, erasures: 1 });
    }
    const [{ astray }] = await sql`
      select count(*)::integer as astray from plaudit.email_suppressions s
       where s.email is not null and s.email_key <> plaudit.email_key(s.org_id, s.email)`;
    expect(astray, "suppressions whose key is not their address's").toBe(0);
  });

  it('keeps the imports waiting for the worker, which still applies them whole', async () => {
    const waiting = await sql<{ id: string; total_rows: number }[]>`
      select id, total_rows from plaudit.imports where status in ('pending', 'processing') order by id`;
    if (wasFilled('import_rows')) expect(waiting.length).toBeGreaterThan(0);
    const applied = await rolledBack(sql, async (tx) => {
      await tx.unsafe('set local role plaudit_worker');
      for (let run = 0; run < 10; run += 1) {
        const [{ remaining }] = await tx`select plaudit.run_imports(5000) as remaining`;
        if (remaining === 0) break;
      }
      await tx.unsafe('reset role');
      return await tx`
        select i.id, i.status, i.imported + i.duplicates + i.rejected_count as taken,
               (select count(*)::integer from plaudit.import_rows s where s.import_id = i.id) as staged
          from plaudit.imports i where i.id = any (${waiting.map((w) => w.id)}::uuid[]) order by i.id`;
    });
    expect(applied).toEqual(waiting.map((w) => ({ id: w.id, status: 'completed', taken: w.total_rows, staged: 0 })));
  });
});
