// supabase/sql/ is the one home of every function, trigger function and view: a file per concern,
// each definition once, `create or replace`, with its comment. The migrations that deploy them are
// written from these files (scripts/db-migration.mjs); tests/schema/sql-sources.test.ts checks that
// the migrations leave exactly these definitions. Both read the database through the functions
// below: what the catalog holds, and what applying the sources over it defines.
import fs from 'node:fs';
import path from 'node:path';
import { root } from './database.mjs';
import { definitionOf, splitStatements } from './sql-statements.mjs';

export const SOURCES_DIR = path.join('supabase', 'sql');

/** The source files in the order they apply (their names begin with their place). */
export function sourceFiles() {
  const dir = path.join(root, SOURCES_DIR);
  return fs.readdirSync(dir).filter((f) => /^\d\d_[\w-]+\.sql$/.test(f)).sort().map((f) => path.join(dir, f));
}

const COMMENT_ON = /^comment\s+on\s+(function|view)\s/i;

/**
 * The definitions of the sources, in order: each with its statement (and comment lines above it),
 * its `comment on` statement when one follows it, and the file it lives in.
 * @returns {{ file: string, kind: string, name: string, statement: import('./sql-statements.mjs').Statement,
 *   commentOn: string | null }[]}
 */
export function readSources() {
  const definitions = [];
  for (const file of sourceFiles()) {
    const relative = path.relative(root, file);
    for (const statement of splitStatements(fs.readFileSync(file, 'utf8'))) {
      const defined = definitionOf(statement);
      if (defined && defined.kind !== 'drop function') {
        definitions.push({ file: relative, ...defined, statement, commentOn: null });
      } else if (COMMENT_ON.test(statement.text) && definitions.length > 0 && definitions.at(-1).commentOn === null) {
        definitions.at(-1).commentOn = statement.text;
      } else {
        throw new Error(
          `${relative}: only function and view definitions, each followed by its comment, belong here: ` +
            statement.text.slice(0, 80),
        );
      }
    }
  }
  return definitions;
}

/**
 * Every function and view of schema plaudit as the catalog holds it, keyed by identity
 * (`plaudit.name(argument types)`, or the view's name): its definition, its comment, its result
 * type and who may execute it.
 */
export async function catalogDefinitions(sql) {
  const rows = await sql`
    select p.oid::regprocedure::text as identity, 'function' as kind, pg_get_functiondef(p.oid) as definition,
           obj_description(p.oid, 'pg_proc') as comment, pg_get_function_result(p.oid) as result,
           coalesce((select array_agg(a.grantee::regrole::text order by a.grantee::regrole::text)
                       from aclexplode(p.proacl) a
                      where a.privilege_type = 'EXECUTE' and a.grantee <> 0 and a.grantee <> p.proowner), '{}') as grantees
      from pg_proc p
     where p.pronamespace = 'plaudit'::regnamespace
    union all
    select c.oid::regclass::text, 'view', pg_get_viewdef(c.oid) || coalesce(array_to_string(c.reloptions, ','), ''),
           obj_description(c.oid, 'pg_class'), null, '{}'
      from pg_class c
     where c.relnamespace = 'plaudit'::regnamespace and c.relkind = 'v'`;
  return new Map(rows.map((r) => [r.identity, r]));
}

/**
 * Applies the sources inside the caller's transaction, as the schema's owner, and answers the
 * identity each definition made (a function's argument types are the database's to say). A
 * definition made twice is an error: each has one home.
 */
export async function applySources(tx, definitions = readSources()) {
  await tx.unsafe('set local search_path = pg_catalog');
  await tx.unsafe('set local role plaudit_owner');
  const made = [];
  const seen = new Map();
  for (const definition of definitions) {
    const earlier = new Map(
      definition.kind === 'view' ? [] : (await versions(tx, definition.name)).map((r) => [r.identity, r.xmin]),
    );
    try {
      await define(tx, definition);
      if (definition.commentOn) await tx.unsafe(definition.commentOn);
    } catch (err) {
      throw new Error(`${definition.file}: ${definition.name}: ${err.message}`);
    }
    // The row this statement wrote: one whose version (xmin) it changed, or a new one.
    const after = definition.kind === 'view' ? [] : await versions(tx, definition.name);
    const [row] = definition.kind === 'view'
      ? [{ identity: definition.name }]
      : after.filter((r) => earlier.get(r.identity) !== r.xmin && !seen.has(r.identity));
    if (!row) throw new Error(`${definition.file}: ${definition.name} is defined twice in supabase/sql/`);
    seen.set(row.identity, definition);
    made.push({ ...definition, identity: row.identity });
  }
  await tx.unsafe('reset role');
  return made;
}

/** The functions of a name, each with the version of its catalog row. */
const versions = (tx, name) =>
  tx`select p.oid::regprocedure::text as identity, p.xmin::text as xmin from pg_proc p
      where p.pronamespace = 'plaudit'::regnamespace and p.proname = ${name.split('.')[1]}`;

/**
 * Runs a definition's statement (in a savepoint of its own, so that its catalog row gets a
 * version of its own). A function whose result type changed cannot be replaced: the
 * one of that name it replaces is dropped first (inside the caller's transaction, as the migration
 * the writer makes will do).
 */
async function define(tx, definition) {
  try {
    await tx.savepoint((sp) => sp.unsafe(definition.statement.text));
  } catch (err) {
    if (err.code !== '42P13' || definition.kind !== 'function') throw err;
    const candidates = await tx`select p.oid::regprocedure::text as identity from pg_proc p
                                 where p.pronamespace = 'plaudit'::regnamespace
                                   and p.proname = ${definition.name.split('.')[1]}`;
    for (const { identity } of candidates) {
      const replaced = await tx.savepoint(async (sp) => {
        await sp.unsafe(`drop function ${identity}`);
        await sp.unsafe(definition.statement.text);
      }).then(() => true, () => false);
      if (replaced) return;
    }
    throw err;
  }
}

class Rollback extends Error {}

/**
 * The catalog as it is, and as it would be with the sources applied over it (in a transaction that
 * is rolled back: the database is left as it was), with the identity each source made.
 * @returns {Promise<{ before: Map<string, any>, after: Map<string, any>, made: any[] }>}
 */
export async function compareWithSources(sql, definitions = readSources()) {
  const before = await catalogDefinitions(sql);
  let after;
  let made;
  await sql.begin(async (tx) => {
    made = await applySources(tx, definitions);
    after = await catalogDefinitions(tx);
    throw new Rollback();
  }).catch((err) => {
    if (!(err instanceof Rollback)) throw err;
  });
  return { before, after, made };
}

/** What differs between two catalogs' definitions of one identity, in words, or null. */
export function difference(before, after) {
  if (!before) return 'not made by the migrations';
  if (!after) return 'not in supabase/sql/';
  if (before.definition !== after.definition) return 'its definition differs';
  if ((before.comment ?? null) !== (after.comment ?? null)) return 'its comment differs';
  return null;
}
