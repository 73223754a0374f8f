// supabase/schemas/ is the one home of every function, view, trigger binding, policy and grant:
// the test database was brought to HEAD by applying it (scripts/lib/sql-sources.mjs). This checks
// that the sources say everything once, that applying them again over HEAD changes nothing, and
// that their reader refuses what belongs elsewhere. Applying the sources locks every table of the
// schema, so it happens in a database of this file's own, brought to HEAD the same way: in the
// shared test database it would deadlock with other files' statements.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, connect, ensureDatabase } from '../../scripts/lib/database.mjs';
import { catalogDifferences, sourceCatalog } from '../../scripts/lib/sql-catalog.mjs';
import { applyHead, readSources, rolledBack } from '../../scripts/lib/sql-sources.mjs';

const database = `plaudit_sources_${randomBytes(6).toString('hex')}`;
const scratch = new URL(process.env.TEST_DATABASE_URL!);
scratch.pathname = `/${database}`;
const scratchUrl = scratch.toString();

beforeAll(async () => {
  await ensureDatabase(process.env.TEST_DATABASE_URL!, database);
  await applyMigrations(scratchUrl);
}, 180_000);

afterAll(async () => {
  const server = connect(process.env.TEST_DATABASE_URL!);
  try {
    await server.unsafe(`drop database if exists "${database}" with (force)`);
  } finally {
    await server.end();
  }
});

/** The catalog at HEAD, and after the sources are applied over it again (rolled back). */
async function applyAgain() {
  const sql = postgres(scratchUrl, { max: 1, prepare: false, onnotice: () => {} });
  try {
    const before = await sourceCatalog(sql);
    const { after, made } = await rolledBack(sql, async (tx) => ({
      made: await applyHead(tx),
      after: await sourceCatalog(tx),
    }));
    return { before, after, made };
  } finally {
    await sql.end();
  }
}

/** A checkout holding only the given source files. */
function checkoutWith(files: Record<string, string>) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'plaudit-sources-'));
  fs.mkdirSync(path.join(base, 'supabase', 'schemas'), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    fs.writeFileSync(path.join(base, 'supabase', 'schemas', name), text);
  }
  return base;
}

describe('supabase/schemas/', () => {
  it('makes exactly what HEAD has: applying it again changes nothing', async () => {
    const { before, after, made } = await applyAgain();
    expect(catalogDifferences(before, after)).toEqual([]);
    // Every function, view, trigger binding and policy of the schema comes from one source, and so
    // does every row of the lookup tables the sources keep (the trail's actions).
    for (const [kind, madeAs] of [['function'], ['view'], ['trigger'], ['policy'], ['row', 'rows']]) {
      const inCatalog = [...before.values()].filter((e) => e.kind === kind).length;
      expect(made.filter((m: { kind: string }) => m.kind === (madeAs ?? kind)).length, kind).toBe(inCatalog);
    }
    expect([...before.values()].filter((e) => e.kind === 'row').length).toBeGreaterThanOrEqual(19);
  });

  it('has a comment on every function and view', () => {
    const missing = readSources().filter((d) => (d.kind === 'function' || d.kind === 'view') && !d.commentOn);
    expect(missing.map((d) => d.name)).toEqual([]);
  });

  it('refuses what belongs to the tables, naming the file', () => {
    const base = checkoutWith({ 'widgets.sql': 'create table plaudit.widgets (id uuid primary key);\n' });
    expect(() => readSources(base)).toThrow(
      'supabase/schemas/widgets.sql: only functions, views, triggers, policies, grants and the rows of ' +
        'plaudit.trail_actions belong here (tables go to supabase/changes/): ' +
        'create table plaudit.widgets (id uuid primary key);',
    );
    const rows = checkoutWith({ 'widgets.sql': "insert into plaudit.reviews (content) values ('Hi');\n" });
    expect(() => readSources(rows)).toThrow('supabase/schemas/widgets.sql: only functions, views, triggers, policies');
  });

  it('refuses trail actions inserted once only, and an action two sources insert', async () => {
    const once = checkoutWith({
      'a.sql': "insert into plaudit.trail_actions (action, description) values ('zz', 'Z.') on conflict do nothing;\n",
    });
    expect(() => readSources(once)).toThrow(
      'supabase/schemas/a.sql: plaudit.trail_actions: write `on conflict (action) do update set …`, ' +
        'the sources apply again and again',
    );
    const twice = checkoutWith({
      'zz_twice.sql': "insert into plaudit.trail_actions (action, description) values ('hide', 'Hidden.')\n" +
        'on conflict (action) do update set description = excluded.description;\n',
    });
    const sql = postgres(scratchUrl, { max: 1, prepare: false, onnotice: () => {} });
    try {
      const attempt = rolledBack(
        sql,
        (tx) => applyHead(tx, { definitions: [...readSources(), ...readSources(twice)] }),
      );
      await expect(attempt).rejects.toThrow(
        'supabase/schemas/zz_twice.sql: plaudit.trail_actions hide: inserted by supabase/schemas/moderation_trail.sql ' +
          'too; one source keeps a row',
      );
    } finally {
      await sql.end();
    }
  });

  it('refuses a function written to be made once, and a comment away from what it describes', () => {
    const once = checkoutWith({ 'a.sql': 'create function plaudit.f() returns int language sql as $$ select 1 $$;\n' });
    expect(() => readSources(once)).toThrow(
      'supabase/schemas/a.sql: plaudit.f: write `create or replace`, the sources apply again and again',
    );
    const astray = checkoutWith({
      'a.sql': [
        'create or replace function plaudit.f() returns int language sql as $$ select 1 $$;',
        'create or replace function plaudit.g() returns int language sql as $$ select 2 $$;',
        "comment on function plaudit.f() is 'One.';",
        '',
      ].join('\n'),
    });
    expect(() => readSources(astray)).toThrow(
      'supabase/schemas/a.sql: a comment belongs right below what it describes',
    );
  });

  it('makes a function whose result type changed again, with its comment', async () => {
    const base = checkoutWith({
      'probe.sql': [
        '-- A probe of the sources.',
        'create or replace function plaudit.zz_probe() returns bigint language sql as $$ select 2::bigint $$;',
        "comment on function plaudit.zz_probe() is 'The probe, now a bigint.';",
        '',
      ].join('\n'),
    });
    const sql = postgres(scratchUrl, { max: 1, prepare: false, onnotice: () => {} });
    try {
      const after = await rolledBack(sql, async (tx) => {
        await tx.unsafe('set local role plaudit_owner');
        await tx.unsafe('create function plaudit.zz_probe() returns integer language sql as $$ select 1 $$');
        await tx.unsafe("comment on function plaudit.zz_probe() is 'The probe, an integer.'");
        await tx.unsafe('reset role');
        await applyHead(tx, { definitions: [...readSources(), ...readSources(base)] });
        const [row] = await tx`
          select pg_get_function_result('plaudit.zz_probe()'::regprocedure) as result,
                 obj_description('plaudit.zz_probe()'::regprocedure, 'pg_proc') as comment`;
        return row;
      });
      expect(after).toEqual({ result: 'bigint', comment: 'The probe, now a bigint.' });
    } finally {
      await sql.end();
    }
  });

  it('says where a function is defined twice', async () => {
    const twice = readSources();
    const first = twice.find((d) => d.name === 'plaudit.review_json')!;
    const sql = postgres(scratchUrl, { max: 1, prepare: false, onnotice: () => {} });
    try {
      const attempt = rolledBack(
        sql,
        (tx) => applyHead(tx, { definitions: [...twice, { ...first, file: 'supabase/schemas/copy.sql' }] }),
      );
      await expect(attempt).rejects.toThrow(
        'supabase/schemas/copy.sql: plaudit.review_json: defined twice in supabase/schemas',
      );
    } finally {
      await sql.end();
    }
  });
});
