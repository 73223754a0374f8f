// Creating the database, bringing it to HEAD (the released migrations, then the pending changes
// and the sources), and giving the API's login role a password: what `npm start`, `npm test` and
// the admin command line share.
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { applyHead, changeFiles, readSources } from './sql-sources.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function connect(url, options = {}) {
  return postgres(url, { max: 1, onnotice: () => {}, prepare: false, ...options });
}

export async function ensureDatabase(serverUrl, name) {
  const sql = connect(serverUrl);
  try {
    const [exists] = await sql`select 1 from pg_database where datname = ${name}`;
    if (!exists) await sql.unsafe(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await sql.end();
  }
}

export const MIGRATIONS_DIR = path.join(root, 'supabase', 'migrations');

/** The released migration files, oldest first (a version is the name's leading timestamp). */
export function migrationFiles(dir = MIGRATIONS_DIR) {
  return fs.readdirSync(dir).filter((f) => /^\d+_.+\.sql$/.test(f)).sort();
}

/**
 * The releases of supabase/releases.json, oldest first: each names its migration's version and
 * the versions it folds (changes of supabase/changes/, or the migrations of before 0.2.0) — a
 * database that applied all of those has the release already.
 * @returns {{ release: string, migration: string, folds: string[] }[]}
 */
export function releases(base = root) {
  const json = JSON.parse(fs.readFileSync(path.join(base, 'supabase', 'releases.json'), 'utf8'));
  return Object.entries(json).map(([release, r]) => ({ release, migration: r.migration, folds: r.folds ?? [] }))
    .sort((a, b) => a.migration.localeCompare(b.migration));
}

const HISTORY = `
  create schema if not exists supabase_migrations;
  create table if not exists supabase_migrations.schema_migrations (version text primary key);
  alter table supabase_migrations.schema_migrations add column if not exists statements text[];
  alter table supabase_migrations.schema_migrations add column if not exists name text;
  create table if not exists supabase_migrations.plaudit_changes (
    version text primary key, name text not null, applied_at timestamptz not null default now());
  comment on table supabase_migrations.plaudit_changes is
    'Plaudit: the changes of supabase/changes/ this database has, until a release folds them.';`;

/**
 * Brings a database up to HEAD: the files of supabase/migrations/ it has not seen yet, in name
 * order, each in its own transaction and recorded in the Supabase CLI's history table
 * (`supabase_migrations.schema_migrations`, so that `supabase db push` later agrees); then, in one
 * transaction, the changes of supabase/changes/ it has not seen (recorded in
 * `supabase_migrations.plaudit_changes`) and the sources of supabase/schemas/ (sql-sources.mjs).
 * A release whose folded versions the database holds counts as applied. A version the history
 * holds that neither the folder nor a release knows stops the run: the database was made by
 * another set of migrations. `until` stops after that released version and applies nothing else
 * (the upgrade test makes a database of a release with it).
 * @param {string} databaseUrl
 * @param {{ quiet?: boolean, until?: string, base?: string }} [options]
 */
export async function applyMigrations(databaseUrl, { quiet = true, until, base = root } = {}) {
  const files = migrationFiles(path.join(base, 'supabase', 'migrations'));
  const sql = connect(databaseUrl);
  try {
    await sql.unsafe(HISTORY);
    await foldReleases(sql, releases(base));
    const applied = new Set(
      (await sql`select version from supabase_migrations.schema_migrations`).map((r) => r.version),
    );
    const known = new Set(files.map((f) => f.split('_')[0]));
    const foreign = [...applied].filter((v) => !known.has(v));
    if (foreign.length > 0) {
      throw new Error(
        `the database records migrations that supabase/migrations/ does not hold (${foreign.slice(0, 3).join(', ')}` +
          `${foreign.length > 3 ? ', …' : ''}): it was made by another version of the schema`,
      );
    }
    for (const file of files) {
      const [version, ...rest] = file.replace(/\.sql$/, '').split('_');
      if (until && version > until) break;
      if (applied.has(version)) continue;
      const text = fs.readFileSync(path.join(base, 'supabase', 'migrations', file), 'utf8');
      try {
        await sql.begin(async (tx) => {
          await tx.unsafe(text);
          await tx`insert into supabase_migrations.schema_migrations (version, name, statements)
                   values (${version}, ${rest.join('_')}, ${[text]})`;
        });
      } catch (err) {
        throw new Error(`migration ${file} failed: ${err.message}`);
      }
      if (!quiet) console.log(`applied ${file}`);
    }
    if (until) return;
    const done = new Set((await sql`select version from supabase_migrations.plaudit_changes`).map((r) => r.version));
    const pending = changeFiles(base).filter((c) => !done.has(c.version));
    await sql.begin(async (tx) => {
      await applyHead(tx, { changes: pending, definitions: readSources(base) });
      for (const c of pending) {
        await tx`insert into supabase_migrations.plaudit_changes (version, name) values (${c.version}, ${c.name})`;
      }
    }).catch((err) => {
      throw new Error(`applying supabase/changes/ and supabase/schemas/ failed: ${err.message}`);
    });
    if (!quiet) { for (const c of pending) console.log(`applied supabase/changes/${path.basename(c.file)}`); }
  } finally {
    await sql.end();
  }
}

/** Records a release as applied where the database holds every version it folds, and forgets those. */
async function foldReleases(sql, known) {
  const history = async () =>
    new Set([
      ...(await sql`select version from supabase_migrations.schema_migrations`).map((r) => r.version),
      ...(await sql`select version from supabase_migrations.plaudit_changes`).map((r) => r.version),
    ]);
  let held = await history();
  for (const r of known) {
    if (held.has(r.migration) || r.folds.length === 0 || !r.folds.every((v) => held.has(v))) continue;
    await sql.begin(async (tx) => {
      await tx`insert into supabase_migrations.schema_migrations (version, name) values (${r.migration}, ${
        'plaudit_' + r.release.replaceAll('.', '_')
      })`;
      await tx`delete from supabase_migrations.schema_migrations where version in ${sql(r.folds)}`;
      await tx`delete from supabase_migrations.plaudit_changes where version in ${sql(r.folds)}`;
    });
    held = await history();
  }
}

/** Gives plaudit_authenticator a fresh password and answers the URL the API connects with. */
export async function authenticatorUrl(superuserUrl) {
  const password = randomBytes(24).toString('base64url');
  const sql = connect(superuserUrl);
  try {
    await sql.unsafe(`alter role plaudit_authenticator with password '${password}'`);
  } finally {
    await sql.end();
  }
  const url = new URL(superuserUrl);
  url.username = 'plaudit_authenticator';
  url.password = password;
  return url.toString();
}

/**
 * The URLs of hot standbys (DATABASE_REPLICA_URLS, comma-separated) as the API connects to them:
 * the authenticator role and password of `authenticatorUrl`, which the standbys replicate, at
 * each standby's host, port and database.
 */
export function replicaAuthenticatorUrls(replicaUrls, authenticatorUrl) {
  const login = new URL(authenticatorUrl);
  return (replicaUrls ?? '').split(',').map((s) => s.trim()).filter(Boolean).map((raw) => {
    const url = new URL(raw);
    url.username = login.username;
    url.password = login.password;
    return url.toString();
  }).join(',');
}
