// What the sources of supabase/schemas/ make, as the catalog holds it: every function, view,
// trigger binding, policy and grant of schema plaudit, and the rows of the lookup tables they keep
// (SOURCE_ROWS), keyed by an identity, each with the text that tells whether two databases agree
// on it. The release writer (scripts/db-release.mjs) diffs two of these; the tests compare them.

import { SOURCE_ROWS } from './sql-statements.mjs';

/**
 * @typedef {{ kind: 'function' | 'view' | 'trigger' | 'policy' | 'grant' | 'row', identity: string, definition: string,
 *   object?: string, result?: string }} CatalogEntry
 * A grant's identity is the statement that gives it (`grant select (id) on table plaudit.x to r`);
 * `object` names what it is on, so that a remade object's grants are given again.
 */

/** @returns {Promise<Map<string, CatalogEntry>>} */
export async function sourceCatalog(sql) {
  const rows = await sql`
    select 'function' as kind, p.oid::regprocedure::text as identity,
           pg_get_functiondef(p.oid) || coalesce(E'\n-- ' || obj_description(p.oid, 'pg_proc'), '') as definition,
           p.oid::regprocedure::text as object, pg_get_function_result(p.oid) as result
      from pg_proc p where p.pronamespace = 'plaudit'::regnamespace
    union all
    select 'view', c.oid::regclass::text,
           pg_get_viewdef(c.oid) || coalesce(array_to_string(c.reloptions, ','), '')
             || coalesce(E'\n-- ' || obj_description(c.oid, 'pg_class'), ''),
           c.oid::regclass::text, null
      from pg_class c where c.relnamespace = 'plaudit'::regnamespace and c.relkind = 'v'
    union all
    select 'trigger', format('trigger %s on %s', t.tgname, t.tgrelid::regclass), pg_get_triggerdef(t.oid),
           t.tgrelid::regclass::text, null
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where c.relnamespace = 'plaudit'::regnamespace and not t.tgisinternal
    union all
    select 'policy', format('policy %s on %s', p.policyname, format('%I.%I', p.schemaname, p.tablename)),
           jsonb_build_object('permissive', p.permissive, 'roles', p.roles, 'cmd', p.cmd, 'qual', p.qual,
                              'with_check', p.with_check)::text,
           format('%I.%I', p.schemaname, p.tablename), null
      from pg_policies p where p.schemaname = 'plaudit'
    union all
    select 'grant', format('grant %s on %s %s to %s', lower(a.privilege_type),
                           case c.relkind when 'S' then 'sequence' else 'table' end, c.oid::regclass,
                           case a.grantee when 0 then 'public' else a.grantee::regrole::text end),
           '', c.oid::regclass::text, null
      from pg_class c cross join lateral aclexplode(c.relacl) a
     where c.relnamespace = 'plaudit'::regnamespace and a.grantee <> c.relowner
    union all
    select 'grant', format('grant %s (%I) on table %s to %s', lower(a.privilege_type), att.attname, c.oid::regclass,
                           case a.grantee when 0 then 'public' else a.grantee::regrole::text end),
           '', c.oid::regclass::text, null
      from pg_class c join pg_attribute att on att.attrelid = c.oid and att.attnum > 0 and not att.attisdropped
      cross join lateral aclexplode(att.attacl) a
     where c.relnamespace = 'plaudit'::regnamespace
    union all
    select 'grant', format('grant execute on function %s to %s', p.oid::regprocedure,
                           case a.grantee when 0 then 'public' else a.grantee::regrole::text end),
           '', p.oid::regprocedure::text, null
      from pg_proc p cross join lateral aclexplode(p.proacl) a
     where p.pronamespace = 'plaudit'::regnamespace and a.grantee <> p.proowner`;
  const entries = rows.map((r) => ({ ...r }));
  // A row as `row <table> <key>`, its columns as JSON; a table a change has not made yet has none.
  for (const [table, key] of SOURCE_ROWS) {
    const [{ exists }] = await sql`select to_regclass(${table}) is not null as exists`;
    if (!exists) continue;
    const kept = await sql.unsafe(`select t.${key}::text as row_key, to_jsonb(t)::text as definition from ${table} t`);
    for (const r of kept) {
      entries.push({ kind: 'row', identity: `row ${table} ${r.row_key}`, definition: r.definition, object: table });
    }
  }
  return new Map(entries.map((r) => [r.identity, r]));
}

/** The identities whose entries differ between two catalogs, each with what happened to it. */
export function catalogDifferences(before, after) {
  const out = [];
  for (const [identity, entry] of before) {
    const now = after.get(identity);
    if (!now) out.push({ identity, kind: entry.kind, change: 'gone', before: entry });
    else if (now.definition !== entry.definition) {
      out.push({ identity, kind: entry.kind, change: 'changed', before: entry, after: now });
    }
  }
  for (const [identity, entry] of after) {
    if (!before.has(identity)) out.push({ identity, kind: entry.kind, change: 'new', after: entry });
  }
  return out;
}
