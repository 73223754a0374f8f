// pg_net, as the hosted-conditions rig has it (scripts/lib/supabase-conditions.mjs): pg_net is not
// packaged for Debian, so its SQL interface is an extension of the rig's own PostgreSQL tree, made
// by supabase_admin with CREATE EXTENSION like the real one, and its C background worker is a
// small loop of the rig that sends what is queued over real HTTP.
//
// Sources: github.com/supabase/pg_net sql/pg_net.sql (the interface: net.http_post's signature and
// defaults, net.http_request_queue, net._http_response); github.com/supabase/postgres
// migrations/db/init-scripts/00000000000003-post-setup.sql (extensions.grant_pg_net_access() and
// its event trigger issue_pg_net_access: the grants to postgres and the API roles) and
// migrations/db/migrations/20220713082019_pg_cron-pg_net-temp-perms-fix.sql (the same grants).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect } from './database.mjs';
import { POSTGRES_HOME } from './postgres.mjs';

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
        // Listed as it leaves, its outcome filled in when it comes back.
        const entry = { id: Number(r.id), url: r.url, headers: r.headers, at: Date.now() };
        sent.push(entry);
        try {
          const res = await fetch(r.url, {
            method: r.method,
            headers: r.headers ?? {},
            body: r.method === 'GET' ? undefined : r.body,
            signal: AbortSignal.timeout(r.timeout_milliseconds),
          });
          const content = await res.text();
          Object.assign(entry, { status_code: res.status, content_type: res.headers.get('content-type'), content });
        } catch (err) {
          Object.assign(entry, { timed_out: err.name === 'TimeoutError', error_msg: err.message });
        }
        entry.ms = Date.now() - entry.at;
        await sql`insert into net._http_response (id, status_code, content_type, content, timed_out, error_msg)
                  values (${r.id}, ${entry.status_code ?? null}, ${entry.content_type ?? null},
                          ${entry.content ?? null}, ${entry.timed_out ?? false}, ${entry.error_msg ?? null})`
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
// Beside the other clusters' homes (postgres.mjs), where the postgres user can read it.
// (A user that is not root may not write there unless told to: the temporary folder then.)
const RIG_HOME = process.getuid?.() === 0 || process.env.PLAUDIT_POSTGRES_HOME
  ? POSTGRES_HOME
  : path.join(os.tmpdir(), 'plaudit-postgres');
const RIG_TREE = path.join(RIG_HOME, `supabase-conditions-15-${PG_NET_STANDIN_VERSION}`);

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
