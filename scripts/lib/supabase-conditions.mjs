// Hosted Supabase's conditions on a private cluster, as a new operator meets them: a cluster made
// by the superuser `supabase_admin`; `postgres` demoted to CREATEROLE, CREATEDB, REPLICATION and
// BYPASSRLS with Supabase's memberships; pg_cron created by supabase_admin with the grants
// supautils' after-create script gives postgres; pg_net's interface (a stand-in: pg_net is not
// packaged for Debian) with the grants Supabase's event trigger gives; Vault's view; PgBouncer in
// transaction mode standing in for Supavisor on port 6543. tests/hosted/ runs the deploy steps of
// README's "Deploying to a hosted Supabase project" against it.
//
// Sources (github.com/supabase/postgres unless said otherwise), cited beside each statement:
//   roles.out        nix/tests/expected/roles.out: every role's attributes, settings, memberships
//   initial-schema   migrations/db/init-scripts/00000000000000-initial-schema.sql
//   post-setup       migrations/db/init-scripts/00000000000003-post-setup.sql
//   demote-postgres  migrations/db/migrations/10000000000000_demote-postgres.sql
//   pg_cron's script ansible/files/postgresql_extension_custom_scripts/pg_cron/after-create.sql
//                    (run by supautils, github.com/supabase/supautils src/extension_custom_scripts.c,
//                    after it creates a privileged extension as supabase_admin:
//                    ansible/files/postgresql_config/supautils.conf.j2)
//   pg_net           scripts/lib/pg-net-standin.mjs: github.com/supabase/pg_net sql/pg_net.sql, and
//                    post-setup's extensions.grant_pg_net_access() for the grants
//   Vault            migrations/db/migrations/20221207154255_create_pgsodium_and_vault.sql (the
//                    grants), github.com/supabase/vault sql/supabase_vault--0.3.0.sql (the shapes)
//   PgBouncer        ansible/files/pgbouncer_config/pgbouncer.ini.j2 and pgbouncer_auth_schema.sql
//   upgrades         ansible/files/admin_api_scripts/pg_upgrade_scripts/common.sh: every database
//                    is owned by postgres
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { connect } from './database.mjs';
import { PG_NET_GRANTS_SQL, rigBinaries } from './pg-net-standin.mjs';
import { accepts, asPostgresUser, Cluster, freePort } from './postgres.mjs';

export { drainNetQueue } from './pg-net-standin.mjs';

const isRoot = process.getuid?.() === 0;

/** Supabase's roles, memberships and schemas, run by supabase_admin in database postgres. */
export function supabaseRolesSql({ postgresPassword, pgbouncerPassword }) {
  return `
-- roles.out: supabase_admin is the only superuser, and the one that made the cluster.
alter role supabase_admin set search_path to "$user", public, auth, extensions;  -- post-setup
alter role supabase_admin set log_statement = none;                               -- roles.out

-- demote-postgres: no superuser; roles.out: inherit, and these settings.
create role postgres login nosuperuser createdb createrole replication bypassrls inherit
  password '${postgresPassword}';
alter role postgres set search_path to "$user", public, extensions;               -- post-setup
-- pg_upgrade_scripts/common.sh: every database belongs to postgres (it then owns schema public).
alter database postgres owner to postgres;
grant all on database postgres to postgres;                                        -- demote-postgres

-- initial-schema, with the attributes of roles.out (20230529180330_alter_api_roles_for_inherit).
create role anon nologin inherit;
create role authenticated nologin inherit;
create role service_role nologin inherit bypassrls;
create role authenticator login noinherit;
grant anon, authenticated, service_role to authenticator;
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
alter role authenticator set statement_timeout = '8s';                             -- roles.out
alter role authenticator set lock_timeout = '8s';     -- 20231130133139_set_lock_timeout_to_authenticator_role
create role supabase_replication_admin login replication;
create role supabase_read_only_user login bypassrls;
grant pg_read_all_data to supabase_read_only_user;
-- 00000000000001-auth-schema.sql, 00000000000002-storage-schema.sql; roles.out's settings.
create role supabase_auth_admin login noinherit createrole noreplication;
alter role supabase_auth_admin set search_path = auth;
alter role supabase_auth_admin set idle_in_transaction_session_timeout = 60000;
create role supabase_storage_admin login noinherit createrole noreplication;
alter role supabase_storage_admin set search_path = storage;
grant authenticator to supabase_storage_admin;                                     -- roles.out
create role supabase_functions_admin login noinherit createrole noreplication;    -- pg_net's grants
create role dashboard_user nologin createdb createrole replication;               -- post-setup
grant all on database postgres to dashboard_user;
create role pgtle_admin nologin;                                                   -- roles.out (pg_tle)

-- roles.out: what postgres is a member of (20230201083204_grant_auth_roles_to_postgres,
-- 20240606060239_grant_predefined_roles_to_postgres, and the rest as roles.out lists them).
grant anon, authenticated, service_role to postgres;
grant pg_monitor, pg_read_all_data, pg_signal_backend to postgres;
grant supabase_auth_admin, supabase_storage_admin, pgtle_admin to postgres;

-- The schemas Supabase's services own; empty here (initial-schema, auth-schema, storage-schema).
create schema auth authorization supabase_auth_admin;
create schema storage authorization supabase_storage_admin;
grant usage on schema auth, storage to postgres, anon, authenticated, service_role, dashboard_user;
grant all on schema auth, storage to postgres;                                     -- demote-postgres

-- initial-schema: the extensions schema (roles.out: postgres owns it) and what lives there.
create schema extensions authorization postgres;
create extension if not exists "uuid-ossp" with schema extensions;
create extension if not exists pgcrypto with schema extensions;
grant usage on schema extensions to postgres, anon, authenticated, service_role, dashboard_user;
grant all on all tables in schema extensions to postgres;                          -- demote-postgres
grant all on all sequences in schema extensions to postgres;
grant all on all routines in schema extensions to postgres;
grant usage on schema public to postgres, anon, authenticated, service_role;
alter default privileges for user supabase_admin in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for user supabase_admin in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for user supabase_admin in schema public grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for user postgres in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for user postgres in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for user postgres in schema public grant all on sequences to postgres, anon, authenticated, service_role;

-- pgbouncer_auth_schema.sql: the pooler's own login, and the function its auth_query calls.
create role pgbouncer login password '${pgbouncerPassword}';
revoke all privileges on schema public from pgbouncer;
create schema pgbouncer authorization pgbouncer;
create function pgbouncer.get_auth(p_usename text)
returns table (username text, password text)
language plpgsql
security definer
as $fn$
begin
  return query
  select usename::text, passwd::text from pg_catalog.pg_shadow where usename = p_usename;
end;
$fn$;
revoke all on function pgbouncer.get_auth(text) from public;
grant execute on function pgbouncer.get_auth(text) to pgbouncer;
`;
}

/**
 * pg_cron as the dashboard's "enable" makes it: supautils creates it as supabase_admin in
 * pg_catalog (supautils.conf.j2: extensions_parameter_overrides), then runs its after-create
 * script, whose grants follow verbatim.
 */
export const PG_CRON_SQL = `
create extension if not exists pg_cron with schema pg_catalog;
grant usage on schema cron to postgres with grant option;
grant all on all functions in schema cron to postgres with grant option;
alter default privileges for user supabase_admin in schema cron grant all on sequences to postgres with grant option;
alter default privileges for user supabase_admin in schema cron grant all on tables to postgres with grant option;
alter default privileges for user supabase_admin in schema cron grant all on functions to postgres with grant option;
grant all privileges on all tables in schema cron to postgres with grant option;
revoke all on table cron.job from postgres;
grant select on table cron.job to postgres with grant option;
`;

/**
 * Vault's shapes (supabase_vault--0.3.0.sql) without its encryption, which changes nothing a
 * reader of vault.decrypted_secrets sees; the grants of 20221207154255_create_pgsodium_and_vault.
 */
export const VAULT_SQL = `
create schema vault;
create table vault.secrets (
  id uuid primary key default gen_random_uuid(),
  name text,
  description text not null default '',
  secret text not null,
  key_id uuid,
  nonce bytea,
  created_at timestamptz not null default current_timestamp,
  updated_at timestamptz not null default current_timestamp
);
create unique index on vault.secrets using btree (name) where name is not null;
create view vault.decrypted_secrets as
  select s.id, s.name, s.description, s.secret, s.secret as decrypted_secret, s.key_id, s.nonce,
         s.created_at, s.updated_at
    from vault.secrets s;
create function vault.create_secret(new_secret text, new_name text = null, new_description text = '',
                                    new_key_id uuid = null)
returns uuid language plpgsql set search_path = '' as $fn$
declare
  rec record;
begin
  insert into vault.secrets (secret, name, description) values (new_secret, new_name, new_description)
    returning * into rec;
  return rec.id;
end
$fn$;
create function vault.update_secret(secret_id uuid, new_secret text = null, new_name text = null,
                                    new_description text = null, new_key_id uuid = null)
returns void language plpgsql set search_path = '' as $fn$
begin
  update vault.secrets s
    set secret = coalesce(new_secret, s.secret), name = coalesce(new_name, s.name),
        description = coalesce(new_description, s.description), updated_at = now()
    where s.id = secret_id;
end
$fn$;
-- postgres writes secrets with these in the SQL editor, without rights of its own to insert.
alter function vault.create_secret(text, text, text, uuid) security definer;
alter function vault.update_secret(uuid, text, text, text, uuid) security definer;
revoke all on function vault.create_secret(text, text, text, uuid), vault.update_secret(uuid, text, text, text, uuid)
  from public;
grant usage on schema vault to postgres with grant option;
grant select, delete, truncate, references on vault.secrets, vault.decrypted_secrets to postgres with grant option;
grant execute on function vault.create_secret, vault.update_secret to postgres with grant option;
grant usage on schema vault to service_role;
grant select, delete on vault.secrets, vault.decrypted_secrets to service_role;
grant execute on function vault.create_secret, vault.update_secret to service_role;
`;

/** Resolves once something listens on `port`; fails when `child` exits first or the time is up. */
async function waitForPort(port, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  while (!(await accepts(port))) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`pgbouncer did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * PgBouncer in transaction mode in front of `cluster`, configured as Supabase's
 * (pgbouncer.ini.j2): auth_query through pgbouncer.get_auth as the `pgbouncer` role, whose own
 * password is the only line of the auth file; SCRAM passes through to the server.
 */
export async function startPgBouncer({ cluster, pgbouncerPassword, port }) {
  const dir = path.join(cluster.home, 'pgbouncer');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ini = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `"pgbouncer" "${pgbouncerPassword}"\n`, { mode: 0o600 });
  fs.writeFileSync(
    ini,
    [
      '[databases]',
      `postgres = host=127.0.0.1 port=${cluster.port} dbname=postgres auth_user=pgbouncer`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = scram-sha-256',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'auth_query = SELECT * FROM pgbouncer.get_auth($1)',
      'pool_mode = transaction',
      'ignore_startup_parameters = extra_float_digits',
      'default_pool_size = 15',
      'max_client_conn = 400',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  if (isRoot) spawnSync('chown', ['-R', 'postgres:postgres', dir]);
  const [file, args] = asPostgresUser('/usr/sbin/pgbouncer', [ini]);
  const child = spawn(file, args, { stdio: 'ignore', cwd: '/' });
  await waitForPort(port, 20_000, child);
  return {
    port,
    logFile: path.join(dir, 'pgbouncer.log'),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/**
 * A cluster under hosted Supabase's conditions in `dir`, started, with PgBouncer in front.
 * Answers the URLs of supabase_admin (direct), postgres (direct, as `supabase db push --db-url`
 * connects) and a function giving any role's URL through the pooler.
 * @param {{ dir: string, vault?: boolean }} options
 */
export async function startSupabaseConditions({ dir, vault = true }) {
  const cluster = new Cluster({
    dir,
    port: await freePort(),
    database: 'postgres',
    superuser: 'supabase_admin',
    // pg_cron runs its jobs in background workers (no login, so no password for the job's role).
    settings: ['cron.use_background_workers=on', 'max_worker_processes=32'],
  });
  cluster.binaries = { ...cluster.binaries, bin: rigBinaries() };
  cluster.init();
  cluster.start();
  const postgresPassword = randomBytes(18).toString('base64url');
  const pgbouncerPassword = randomBytes(18).toString('base64url');
  const adminUrl = cluster.url('postgres');
  const sql = connect(adminUrl);
  try {
    await sql.unsafe(supabaseRolesSql({ postgresPassword, pgbouncerPassword }));
    await sql.unsafe(PG_CRON_SQL);
    // pg_net as the dashboard's "enable" makes it: by supabase_admin; the event trigger grants.
    await sql.unsafe(PG_NET_GRANTS_SQL);
    await sql`create extension pg_net`;
    if (vault) await sql.unsafe(VAULT_SQL);
  } catch (err) {
    cluster.stop();
    throw err;
  } finally {
    await sql.end();
  }
  let pooler;
  try {
    pooler = await startPgBouncer({ cluster, pgbouncerPassword, port: await freePort() });
  } catch (err) {
    cluster.stop();
    throw err;
  }
  const postgresUrl = cluster.url('postgres', { user: 'postgres', password: postgresPassword });
  return {
    cluster,
    adminUrl,
    postgresUrl,
    poolerPort: pooler.port,
    poolerLog: pooler.logFile,
    /** A role's URL through the pooler. */
    poolerUrl(user, password) {
      return `postgresql://${encodeURIComponent(user)}:${
        encodeURIComponent(password)
      }@127.0.0.1:${pooler.port}/postgres`;
    },
    async stop() {
      await pooler.stop();
      cluster.stop();
    },
  };
}
