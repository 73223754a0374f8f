// Creating the database, applying migrations with the Supabase CLI, and giving the API's login
// role a password: the steps `npm start`, `npm test` and the admin command line share.
import { spawnSync } from 'node:child_process';
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

export function applyMigrations(databaseUrl, { quiet = true } = {}) {
  const cli = path.join(root, 'node_modules', '.bin', 'supabase');
  const r = spawnSync(cli, ['db', 'push', '--db-url', databaseUrl, '--include-all', '--yes'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
  });
  if (r.status !== 0) {
    throw new Error(`migrations failed:\n${(r.stderr || '') + (r.stdout || '')}`);
  }
  if (!quiet) process.stdout.write(r.stdout);
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
