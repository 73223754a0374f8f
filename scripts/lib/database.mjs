// Creating the database, applying the migrations, and giving the API's login
// role a password: the steps `npm start`, `npm test` and the admin command line share.
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';

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

/** The migration files, oldest first (a version is the name's leading timestamp). */
export function migrationFiles() {
  return fs.readdirSync(MIGRATIONS_DIR).filter((f) => /^\d+_.+\.sql$/.test(f)).sort();
}

/**
 * Applies the files of supabase/migrations/ that the database has not seen yet, in name order, each
 * in its own transaction, and records them in the Supabase CLI's history table
 * (`supabase_migrations.schema_migrations`), so that `supabase db push` against the same database
 * later sees them as applied. A version the history holds but the folder lacks stops the run: the
 * database was made by another set of migrations. `until` stops after that version (the upgrade
 * test makes a database of an earlier release with it).
 * @param {string} databaseUrl
 * @param {{ quiet?: boolean, until?: string }} [options]
 */
export async function applyMigrations(databaseUrl, { quiet = true, until } = {}) {
  const files = migrationFiles();
  const sql = connect(databaseUrl);
  try {
    await sql.unsafe(`
      create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (version text primary key);
      alter table supabase_migrations.schema_migrations add column if not exists statements text[];
      alter table supabase_migrations.schema_migrations add column if not exists name text;`);
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
      const text = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
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
  } finally {
    await sql.end();
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
