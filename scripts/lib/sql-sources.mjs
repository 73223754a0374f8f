// The database's code has one home: supabase/schemas/, a file per concern, Supabase's declarative
// layout. It holds every function, view, trigger binding, row-level security policy and grant of
// schema plaudit, each once, as the database has it now. Tables stay in migrations: a released
// migration (supabase/migrations/) or, until the next release, a hand-written change
// (supabase/changes/). Everywhere a database is made or brought up to date (npm start, npm test,
// scratch databases) the released migrations apply first, then `applyHead` applies the pending
// changes and the sources in one transaction; `npm run db:release` turns the same two into the one
// migration a hosted project applies (scripts/db-release.mjs).
//
// The sources are applied as a whole, not by diff, so two branches that both edit a function merge
// with git alone: clear what the sources make (policies, trigger bindings, grants), define the
// functions, run the changes, define what is left; a function or view no source holds any more is
// dropped. File names carry no order: statements apply by kind (functions, the rows of the lookup
// tables, views, triggers, policies, grants), views in the order their dependencies allow.
import fs from 'node:fs';
import path from 'node:path';
import { root } from './database.mjs';
import { definitionOf, SOURCE_ROWS, splitStatements } from './sql-statements.mjs';

export const SOURCES_DIR = path.join('supabase', 'schemas');
export const CHANGES_DIR = path.join('supabase', 'changes');

const sqlFilesOf = (dir) =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir).filter((f) => /^[\w-]+\.sql$/.test(f)).sort().map((f) => path.join(dir, f))
    : [];

/** The source files (their order does not matter). */
export function sourceFiles(base = root) {
  return sqlFilesOf(path.join(base, SOURCES_DIR));
}

/** The changes written since the last release, oldest first: `<yyyymmddhhmmss>_<name>.sql`. */
export function changeFiles(base = root) {
  return sqlFilesOf(path.join(base, CHANGES_DIR)).filter((f) => /^\d{14}_[a-z0-9_]+\.sql$/.test(path.basename(f))).map(
    (file) => {
      const [version, ...name] = path.basename(file, '.sql').split('_');
      return { file, version, name: name.join('_'), text: fs.readFileSync(file, 'utf8') };
    },
  );
}

/** The kinds a source may define, in the order they apply. */
export const KINDS = ['function', 'view', 'trigger', 'policy', 'grant'];

/**
 * The definitions of the sources: each with its statement (and comment lines above it), the
 * `comment on` statements that follow it, and the file it lives in.
 * @returns {{ file: string, kind: string, name: string, table?: string, statement: any, commentOn: string | null }[]}
 */
export function readSources(base = root) {
  const definitions = [];
  for (const file of sourceFiles(base)) {
    const relative = path.relative(base, file);
    for (const statement of splitStatements(fs.readFileSync(file, 'utf8'))) {
      const defined = definitionOf(statement);
      const last = definitions.at(-1);
      if (defined?.kind === 'comment') {
        if (
          !last || last.file !== relative || last.kind !== defined.on || last.name !== defined.name || last.commentOn
        ) {
          throw new Error(
            `${relative}: a comment belongs right below what it describes: ${statement.text.slice(0, 80)}`,
          );
        }
        last.commentOn = statement.text;
      } else if (defined?.kind === 'rows' && SOURCE_ROWS.has(defined.name)) {
        const key = SOURCE_ROWS.get(defined.name);
        if (
          !new RegExp(String.raw`\son\s+conflict\s*\(\s*${key}\s*\)\s+do\s+update\s+set\s`, 'i').test(statement.text)
        ) {
          throw new Error(
            `${relative}: ${defined.name}: write \`on conflict (${key}) do update set …\`, the sources apply again and again`,
          );
        }
        definitions.push({ file: relative, ...defined, statement, commentOn: null });
      } else if (defined && KINDS.includes(defined.kind)) {
        if (
          (defined.kind === 'function' || defined.kind === 'view') && !/^create\s+or\s+replace\b/i.test(statement.text)
        ) {
          throw new Error(
            `${relative}: ${defined.name}: write \`create or replace\`, the sources apply again and again`,
          );
        }
        definitions.push({ file: relative, ...defined, statement, commentOn: null });
      } else {
        throw new Error(
          `${relative}: only functions, views, triggers, policies, grants and the rows of ` +
            `${[...SOURCE_ROWS.keys()].join(', ')} belong here (tables go to supabase/changes/): ` +
            statement.text.slice(0, 80),
        );
      }
    }
  }
  return definitions;
}

/** The text that makes a definition: its comment lines, its statement, its `comment on`. */
export const textOf = (d) => [d.statement.comment, d.statement.text, d.commentOn].filter(Boolean).join('\n');

// SQLSTATEs of a statement that names what does not exist yet: it waits for what comes later.
export const NOT_YET = new Set(['42P01', '42704', '42883', '3F000', '42703']);

/**
 * Brings the database inside `tx` to what the pending changes and the sources say, as the
 * schema's owner: clears every policy, trigger binding and grant of schema plaudit, defines
 * the functions (those that name what a change makes wait for it), runs the changes not yet
 * recorded, drops the functions no source defines, and makes the rest. Answers what it made, each
 * with its identity (a function's argument types are the database's to say).
 * @param {any} tx a postgres.js transaction
 * @param {{ changes?: ReturnType<typeof changeFiles>, definitions?: ReturnType<typeof readSources> }} [options]
 */
export async function applyHead(tx, { changes = [], definitions = readSources() } = {}) {
  await tx.unsafe('set local search_path = pg_catalog');
  await tx.unsafe('set local check_function_bodies = off');
  await tx.unsafe('set local role plaudit_owner');
  await clearBindings(tx);
  const made = [];
  const madeFunctions = new Set();
  const functions = definitions.filter((d) => d.kind === 'function');
  const waiting = [];
  for (const d of functions) {
    const identity = await defineFunction(tx, d, madeFunctions).catch((err) => {
      if (NOT_YET.has(err.code)) return null;
      throw new Error(`${d.file}: ${d.name}: ${err.message}`);
    });
    if (identity) made.push({ ...d, identity });
    else waiting.push(d);
  }
  for (const change of changes) {
    try {
      await tx.savepoint((sp) => sp.unsafe(change.text));
    } catch (err) {
      throw new Error(`supabase/changes/${path.basename(change.file)}: ${err.message}`);
    }
    await tx.unsafe('set local role plaudit_owner'); // a change may have reset it
  }
  for (const d of waiting) {
    const identity = await defineFunction(tx, d, madeFunctions).catch((err) => {
      throw new Error(`${d.file}: ${d.name}: ${err.message}`);
    });
    made.push({ ...d, identity });
  }
  made.push(...await defineRows(tx, definitions.filter((d) => d.kind === 'rows')));
  await dropUnsourcedFunctions(tx, madeFunctions);
  const views = await defineViews(tx, definitions.filter((d) => d.kind === 'view'));
  await dropUnsourcedViews(tx, new Set(views.map((v) => v.name)));
  made.push(...views);
  for (const d of definitions.filter((x) => x.kind === 'trigger' || x.kind === 'policy' || x.kind === 'grant')) {
    try {
      await tx.unsafe(d.statement.text);
      if (d.commentOn) await tx.unsafe(d.commentOn);
    } catch (err) {
      throw new Error(`${d.file}: ${d.statement.text.slice(0, 70)}…: ${err.message}`);
    }
    made.push({ ...d, identity: d.identity });
  }
  await tx.unsafe('reset role');
  return made;
}

class Rollback extends Error {}

/**
 * Runs `use(tx)` in a transaction that is rolled back, and answers what `use` answered.
 * @template T
 * @param {any} sql a postgres.js connection
 * @param {(tx: any) => Promise<T>} use
 * @returns {Promise<T>}
 */
export async function rolledBack(sql, use) {
  /** @type {T | undefined} */
  let answer;
  await sql.begin(async (/** @type {any} */ tx) => {
    answer = await use(tx);
    throw new Rollback();
  }).catch((/** @type {unknown} */ err) => {
    if (!(err instanceof Rollback)) throw err;
  });
  return /** @type {T} */ (answer);
}

/**
 * Every policy, trigger binding and grant of schema plaudit, gone: the sources make them again.
 * Views stay (a function may take a view's row): they are replaced, and dropped when no source
 * holds them any more.
 */
async function clearBindings(tx) {
  await tx.unsafe(`
    do $clear$
    declare
      r record;
    begin
      for r in select p.polname, p.polrelid::regclass as rel from pg_policy p join pg_class c on c.oid = p.polrelid
                where c.relnamespace = 'plaudit'::regnamespace loop
        execute format('drop policy %I on %s', r.polname, r.rel);
      end loop;
      for r in select t.tgname, t.tgrelid::regclass as rel from pg_trigger t join pg_class c on c.oid = t.tgrelid
                where c.relnamespace = 'plaudit'::regnamespace and not t.tgisinternal loop
        execute format('drop trigger %I on %s', r.tgname, r.rel);
      end loop;
      for r in select distinct a.grantee from pg_class c
                 cross join lateral aclexplode(c.relacl) a
                where c.relnamespace = 'plaudit'::regnamespace and a.grantee <> c.relowner
               union
               select distinct a.grantee from pg_class c
                 join pg_attribute att on att.attrelid = c.oid
                 cross join lateral aclexplode(att.attacl) a
                where c.relnamespace = 'plaudit'::regnamespace
               union
               select distinct a.grantee from pg_proc p cross join lateral aclexplode(p.proacl) a
                where p.pronamespace = 'plaudit'::regnamespace and a.grantee <> p.proowner loop
        execute format('revoke all on all tables in schema plaudit from %s',
                       case r.grantee when 0 then 'public' else r.grantee::regrole::text end);
        execute format('revoke all on all sequences in schema plaudit from %s',
                       case r.grantee when 0 then 'public' else r.grantee::regrole::text end);
        execute format('revoke all on all functions in schema plaudit from %s',
                       case r.grantee when 0 then 'public' else r.grantee::regrole::text end);
      end loop;
    end
    $clear$`);
}

/** The functions of a name, each with the version of its catalog row. */
const versions = (tx, name) =>
  tx`select p.oid::regprocedure::text as identity, p.xmin::text as xmin from pg_proc p
      where p.pronamespace = 'plaudit'::regnamespace and p.proname = ${name.split('.')[1]}`;

/**
 * Runs a function's definition in a savepoint of its own (so that its catalog row gets a version
 * of its own) and answers the identity it made. A function whose result type changed cannot be
 * replaced: the one of that identity is dropped first. A definition made twice is an error.
 */
async function defineFunction(tx, d, made) {
  const earlier = new Map((await versions(tx, d.name)).map((r) => [r.identity, r.xmin]));
  await tx.savepoint(async (sp) => {
    try {
      await sp.savepoint((inner) => inner.unsafe(d.statement.text));
    } catch (err) {
      if (err.code !== '42P13') throw err;
      // "cannot change return type of existing function": drop that one and make it again (its
      // comment went with it, and is made again below).
      let replaced = false;
      for (const identity of earlier.keys()) {
        replaced = await sp.savepoint(async (inner) => {
          await inner.unsafe(`drop function ${identity}`);
          await inner.unsafe(d.statement.text);
        }).then(() => true, () => false);
        if (replaced) break;
      }
      if (!replaced) throw err;
    }
    if (d.commentOn) await sp.unsafe(d.commentOn);
  });
  const [row] = (await versions(tx, d.name)).filter((r) => earlier.get(r.identity) !== r.xmin && !made.has(r.identity));
  if (!row) throw new Error(`defined twice in ${SOURCES_DIR}`);
  made.add(row.identity);
  return row.identity;
}

/**
 * Runs the sources' inserts into the lookup tables (after the changes, which make the tables),
 * each answering the keys of its rows. A row two sources insert is an error, as a function defined
 * twice: one feature keeps it, and another that writes it uses it.
 */
async function defineRows(tx, inserts) {
  const made = [];
  const keptBy = new Map();
  for (const d of inserts) {
    const key = SOURCE_ROWS.get(d.name);
    const rows = await tx.unsafe(`${d.statement.text.replace(/;\s*$/, '')} returning ${key}::text as row_key`)
      .catch((err) => {
        throw new Error(`${d.file}: ${d.name}: ${err.message}`);
      });
    for (const { row_key: value } of rows) {
      const identity = `row ${d.name} ${value}`;
      if (keptBy.has(identity)) {
        throw new Error(
          `${d.file}: ${d.name} ${value}: inserted by ${keptBy.get(identity)} too; one source keeps a row`,
        );
      }
      keptBy.set(identity, d.file);
      made.push({ ...d, identity });
    }
  }
  return made;
}

async function dropUnsourcedFunctions(tx, made) {
  const all = await tx`select p.oid::regprocedure::text as identity from pg_proc p
                        where p.pronamespace = 'plaudit'::regnamespace`;
  for (const { identity } of all) {
    if (!made.has(identity)) await tx.unsafe(`drop function ${identity}`);
  }
}

async function dropUnsourcedViews(tx, made) {
  const all = await tx`select c.oid::regclass::text as name from pg_class c
                        where c.relnamespace = 'plaudit'::regnamespace and c.relkind = 'v'`;
  for (const { name } of all) {
    if (!made.has(name)) await tx.unsafe(`drop view ${name}`);
  }
}

/** Views in the order their dependencies allow: one that names a view not made yet waits for it. */
async function defineViews(tx, views) {
  const made = [];
  let waiting = views;
  while (waiting.length > 0) {
    const next = [];
    let lastError;
    for (const d of waiting) {
      try {
        await tx.savepoint(async (sp) => {
          await sp.unsafe(d.statement.text);
          if (d.commentOn) await sp.unsafe(d.commentOn);
        });
        made.push({ ...d, identity: d.name });
      } catch (err) {
        if (!NOT_YET.has(err.code)) throw new Error(`${d.file}: ${d.name}: ${err.message}`);
        lastError = `${d.file}: ${d.name}: ${err.message}`;
        next.push(d);
      }
    }
    if (next.length === waiting.length) throw new Error(lastError);
    waiting = next;
  }
  return made;
}
