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
//   pg_net's grants  post-setup's extensions.grant_pg_net_access(), and
//                    migrations/db/migrations/20220713082019_pg_cron-pg_net-temp-perms-fix.sql
//   pg_net           github.com/supabase/pg_net sql/pg_net.sql: net.http_post and its queue
//   Vault            migrations/db/migrations/20221207154255_create_pgsodium_and_vault.sql (the
//                    grants), github.com/supabase/vault sql/supabase_vault--0.3.0.sql (the shapes)
//   PgBouncer        ansible/files/pgbouncer_config/pgbouncer.ini.j2 and pgbouncer_auth_schema.sql
//   upgrades         ansible/files/admin_api_scripts/pg_upgrade_scripts/common.sh: every database
//                    is owned by postgres
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { connect } from './database.mjs';
import { Cluster, freePort } from './postgres.mjs';

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

/** The stand-in's version: pg_net's own numbering, marked as the rig's. */
export const PG_NET_STANDIN_VERSION = '0.20.4-rig';

/**
 * The stand-in's extension script: pg_net's SQL interface as sql/pg_net.sql makes it, the queue
 * table, the response table, and net.http_get and net.http_post with their exact signatures and
 * defaults; only the C background worker is replaced, by drainNetQueue below (its net.wake()
 * becomes a NOTIFY). Installed as the extension `pg_net` of the rig's own PostgreSQL tree
 * (rigBinaries), so that it is listed by pg_available_extensions and made by CREATE EXTENSION.
 */
export const PG_NET_EXTENSION_SCRIPT = `
create schema if not exists net;
create domain net.http_method as text check (value ilike 'get' or value ilike 'post' or value ilike 'delete');
create unlogged table net.http_request_queue (
  id bigserial,
  method net.http_method not null,
  url text not null,
  headers jsonb,
  body bytea,
  timeout_milliseconds int not null
);
create unlogged table net._http_response (
  id bigint,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out bool,
  error_msg text,
  created timestamptz not null default now()
);
create index on net._http_response (created);
create function net.http_get(url text, params jsonb default '{}'::jsonb, headers jsonb default '{}'::jsonb,
                             timeout_milliseconds int default 5000)
returns bigint language plpgsql as $fn$
declare
  request_id bigint;
begin
  if params is not null and params <> '{}'::jsonb then
    raise exception 'the pg_net stand-in does not encode params';
  end if;
  insert into net.http_request_queue (method, url, headers, timeout_milliseconds)
    values ('GET', url, headers, timeout_milliseconds) returning id into request_id;
  perform pg_notify('pg_net_standin', request_id::text);
  return request_id;
end
$fn$;
create function net.http_post(url text, body jsonb default '{}'::jsonb, params jsonb default '{}'::jsonb,
                              headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
                              timeout_milliseconds int default 5000)
returns bigint language plpgsql as $fn$
declare
  request_id bigint;
  content_type text;
begin
  select header_value into content_type
    from jsonb_each_text(coalesce(headers, '{}'::jsonb)) r(header_name, header_value)
    where lower(header_name) = 'content-type' limit 1;
  if content_type is null then
    headers := headers || '{"Content-Type": "application/json"}'::jsonb;
  end if;
  if content_type <> 'application/json' then
    raise exception 'Content-Type header must be "application/json"';
  end if;
  if params is not null and params <> '{}'::jsonb then
    raise exception 'the pg_net stand-in does not encode params';
  end if;
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
    values ('POST', url, headers, convert_to(body::text, 'UTF8'), timeout_milliseconds)
    returning id into request_id;
  perform pg_notify('pg_net_standin', request_id::text);
  return request_id;
end
$fn$;
`;

/**
 * post-setup's extensions.grant_pg_net_access() and its event trigger, verbatim in substance:
 * when pg_net is created, postgres and the API roles get USAGE on net and EXECUTE on http_get and
 * http_post, made SECURITY DEFINER with search_path net (so their callers need no rights on the
 * queue table).
 */
export const PG_NET_GRANTS_SQL = `
create function extensions.grant_pg_net_access()
returns event_trigger
language plpgsql
as $fn$
begin
  if exists (select 1 from pg_event_trigger_ddl_commands() as ev
               join pg_extension as ext on ev.objid = ext.oid
              where ext.extname = 'pg_net') then
    grant usage on schema net to supabase_functions_admin, postgres, anon, authenticated, service_role;
    alter function net.http_get(url text, params jsonb, headers jsonb, timeout_milliseconds integer) security definer;
    alter function net.http_post(url text, body jsonb, params jsonb, headers jsonb, timeout_milliseconds integer) security definer;
    alter function net.http_get(url text, params jsonb, headers jsonb, timeout_milliseconds integer) set search_path = net;
    alter function net.http_post(url text, body jsonb, params jsonb, headers jsonb, timeout_milliseconds integer) set search_path = net;
    revoke all on function net.http_get(url text, params jsonb, headers jsonb, timeout_milliseconds integer) from public;
    revoke all on function net.http_post(url text, body jsonb, params jsonb, headers jsonb, timeout_milliseconds integer) from public;
    grant execute on function net.http_get(url text, params jsonb, headers jsonb, timeout_milliseconds integer)
      to supabase_functions_admin, postgres, anon, authenticated, service_role;
    grant execute on function net.http_post(url text, body jsonb, params jsonb, headers jsonb, timeout_milliseconds integer)
      to supabase_functions_admin, postgres, anon, authenticated, service_role;
  end if;
end;
$fn$;
create event trigger issue_pg_net_access on ddl_command_end when tag in ('CREATE EXTENSION')
  execute procedure extensions.grant_pg_net_access();
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
revoke all on function vault.create_secret(text, text, text, uuid), vault.update_secret(uuid, text, text, text, uuid)
  from public;
grant usage on schema vault to postgres with grant option;
grant select, delete, truncate, references on vault.secrets, vault.decrypted_secrets to postgres with grant option;
grant execute on function vault.create_secret, vault.update_secret to postgres with grant option;
grant usage on schema vault to service_role;
grant select, delete on vault.secrets, vault.decrypted_secrets to service_role;
grant execute on function vault.create_secret, vault.update_secret to service_role;
`;

/**
 * pg_net's background worker, in miniature: takes the queued requests (as supabase_admin, like
 * the extension's worker), sends each over real HTTP with its headers, body and timeout, and
 * records the outcome in net._http_response. Woken by the stand-in's NOTIFY and every 200 ms.
 * Answers { sent, stop() }: `sent` lists what it sent, for the tests.
 */
export async function drainNetQueue(adminUrl, { log = () => {} } = {}) {
  const sql = connect(adminUrl, { max: 2 });
  const sent = [];
  let stopped = false;
  let wake = () => {};
  const listener = await sql.listen('pg_net_standin', () => wake());
  const loop = (async () => {
    while (!stopped) {
      const rows = await sql`
        delete from net.http_request_queue
          where id in (select id from net.http_request_queue order by id limit 10 for update skip locked)
          returning id, method, url, headers, body, timeout_milliseconds`.catch((err) => {
        log(`pg_net stand-in: ${err.message}`);
        return [];
      });
      await Promise.all(rows.map(async (r) => {
        const started = Date.now();
        let outcome;
        try {
          const res = await fetch(r.url, {
            method: r.method,
            headers: r.headers ?? {},
            body: r.method === 'GET' ? undefined : r.body,
            signal: AbortSignal.timeout(r.timeout_milliseconds),
          });
          const content = await res.text();
          outcome = { status_code: res.status, content_type: res.headers.get('content-type'), content };
        } catch (err) {
          const timedOut = err.name === 'TimeoutError';
          outcome = { timed_out: timedOut, error_msg: err.message };
        }
        sent.push({ id: Number(r.id), url: r.url, headers: r.headers, at: started, ms: Date.now() - started, ...outcome });
        await sql`insert into net._http_response (id, status_code, content_type, content, timed_out, error_msg)
                  values (${r.id}, ${outcome.status_code ?? null}, ${outcome.content_type ?? null},
                          ${outcome.content ?? null}, ${outcome.timed_out ?? false}, ${outcome.error_msg ?? null})`
          .catch(() => {});
      }));
      if (rows.length === 0) {
        await new Promise((resolve) => {
          wake = resolve;
          setTimeout(resolve, 200);
        });
      }
    }
  })();
  return {
    sent,
    async stop() {
      stopped = true;
      wake();
      await loop;
      await listener.unlisten().catch(() => {});
      await sql.end({ timeout: 2 });
    },
  };
}

const SYSTEM_ROOT = '/usr';
const RIG_TREE = path.join(process.env.PLAUDIT_POSTGRES_HOME ?? '/var/lib/plaudit', `supabase-conditions-15-${PG_NET_STANDIN_VERSION}`);

/**
 * A PostgreSQL tree of the rig's own, in which pg_net is an available extension: Debian's
 * binaries copied (PostgreSQL finds its share directory relative to its binary, through
 * symlinks), the libraries and every share file linked, and pg_net's control file and script
 * (the stand-in) beside the other extensions. Made once; the machine's PostgreSQL is unchanged.
 * Answers the tree's bin directory.
 */
export function rigBinaries() {
  const bin = path.join(RIG_TREE, 'lib', 'postgresql', '15', 'bin');
  if (fs.existsSync(path.join(bin, 'postgres'))) return bin;
  const partial = `${RIG_TREE}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  const sysLib = path.join(SYSTEM_ROOT, 'lib', 'postgresql', '15');
  const sysShare = path.join(SYSTEM_ROOT, 'share', 'postgresql', '15');
  const lib = path.join(partial, 'lib', 'postgresql', '15');
  const share = path.join(partial, 'share', 'postgresql', '15');
  fs.mkdirSync(path.join(lib, 'bin'), { recursive: true });
  for (const exe of ['postgres', 'pg_ctl', 'initdb']) {
    fs.copyFileSync(path.join(sysLib, 'bin', exe), path.join(lib, 'bin', exe));
    fs.chmodSync(path.join(lib, 'bin', exe), 0o755);
  }
  fs.symlinkSync(path.join(sysLib, 'lib'), path.join(lib, 'lib'));
  fs.mkdirSync(path.join(share, 'extension'), { recursive: true });
  for (const entry of fs.readdirSync(sysShare)) {
    if (entry !== 'extension') fs.symlinkSync(path.join(sysShare, entry), path.join(share, entry));
  }
  for (const entry of fs.readdirSync(path.join(sysShare, 'extension'))) {
    fs.symlinkSync(path.join(sysShare, 'extension', entry), path.join(share, 'extension', entry));
  }
  fs.writeFileSync(
    path.join(share, 'extension', 'pg_net.control'),
    `comment = 'Async HTTP: the stand-in of the hosted-conditions rig, its SQL interface only'\n` +
      `default_version = '${PG_NET_STANDIN_VERSION}'\nrelocatable = false\nsuperuser = true\n`,
  );
  fs.writeFileSync(path.join(share, 'extension', `pg_net--${PG_NET_STANDIN_VERSION}.sql`), PG_NET_EXTENSION_SCRIPT);
  for (const dir of [RIG_TREE, partial].map(path.dirname)) fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  spawnSync('chmod', ['-R', 'a+rX', partial]);
  fs.rmSync(RIG_TREE, { recursive: true, force: true });
  fs.renameSync(partial, RIG_TREE);
  return bin;
}

function runAsPostgresUser(cmd, args) {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

function waitForPort(port, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`pgbouncer exited with code ${child.exitCode}`));
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`pgbouncer did not listen on ${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
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
  const [file, args] = runAsPostgresUser('/usr/sbin/pgbouncer', [ini]);
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
      return `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${pooler.port}/postgres`;
    },
    async stop() {
      await pooler.stop();
      cluster.stop();
    },
  };
}
