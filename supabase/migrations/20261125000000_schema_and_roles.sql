-- The private schema, the roles, and the tenant of a transaction: what every later file builds on.
--
-- Sections: private schema · roles · the owner · tenant context.

-- ============================================================================================
-- private schema
-- ============================================================================================
-- Everything Plaudit stores lives in the private schema `plaudit`. It is never exposed through
-- Supabase's Data API (which serves `public`), and nobody gets rights on it by default.
create schema if not exists plaudit;
revoke all on schema plaudit from public;

-- pgcrypto supplies gen_random_bytes for API keys and tokens. Supabase keeps extensions in the
-- `extensions` schema; a plain PostgreSQL gets the same layout.
create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;

-- ============================================================================================
-- roles
-- ============================================================================================
-- Roles, in the PostgREST manner:
--   plaudit_authenticator  the login role the API and the worker connect as; it can do nothing by
--                          itself (noinherit) except switch to one of the three roles below.
--   plaudit_api            what an authenticated request runs as; every tenant table is
--                          filtered for it by row-level security.
--   plaudit_public         what unauthenticated public routes run as.
--   plaudit_worker         what the worker runs as: no table privileges, only the SECURITY
--                          DEFINER functions through which it claims due rows, signs deliveries
--                          and records outcomes (docs/delivery.md).
-- None of them bypasses row-level security. plaudit_api, plaudit_public and plaudit_worker are
-- members of no role, but `set role` is checked against the session user: a session logged in as
-- plaudit_authenticator can switch between the roles granted to it (and back to itself) from
-- whichever of them it is in, and to nothing else (docs/design.md, 01-schema-security.test.sql).
do $$
begin
  if not exists (select from pg_roles where rolname = 'plaudit_api') then
    create role plaudit_api nologin noinherit nobypassrls;
  end if;
  if not exists (select from pg_roles where rolname = 'plaudit_public') then
    create role plaudit_public nologin noinherit nobypassrls;
  end if;
  if not exists (select from pg_roles where rolname = 'plaudit_worker') then
    create role plaudit_worker nologin noinherit nobypassrls;
  end if;
  if not exists (select from pg_roles where rolname = 'plaudit_authenticator') then
    create role plaudit_authenticator login noinherit nobypassrls;
  end if;
end
$$;

grant plaudit_api, plaudit_public, plaudit_worker to plaudit_authenticator;
grant usage on schema plaudit to plaudit_api, plaudit_public, plaudit_worker, plaudit_authenticator;
grant usage on schema extensions to plaudit_api, plaudit_public, plaudit_worker, plaudit_authenticator;

-- The API and the worker keep their statements prepared (one round trip each instead of two),
-- but every execution is planned for its own values. A generic plan, which PostgreSQL would
-- switch to after five executions, cannot see a page's offset, a filter's selectivity or which
-- tenant is asking, and picked slower plans for deep pages of the review list. Planning these
-- short statements costs far less than the round trip that preparing saves.
alter role plaudit_authenticator set plan_cache_mode = force_custom_plan;

-- ============================================================================================
-- the owner
-- ============================================================================================
-- The owner of schema plaudit: a role that cannot log in, is no superuser and does not bypass
-- row-level security. Every table, view, sequence and function of plaudit belongs to it, so a
-- SECURITY DEFINER function runs with its rights, never a superuser's: a function tricked into
-- running a caller's code would hold no more than the schema's own objects. No running process
-- logs in as it or is a member of it; the migrations' role is a member, and every later file
-- creates its objects after `set role plaudit_owner` (docs/security-roles.md).
do $$
begin
  if not exists (select from pg_roles where rolname = 'plaudit_owner') then
    create role plaudit_owner nologin noinherit nosuperuser nobypassrls nocreatedb nocreaterole noreplication;
  end if;
end
$$;

grant plaudit_owner to current_user;
alter schema plaudit owner to plaudit_owner;
grant usage on schema extensions to plaudit_owner;

-- PostgreSQL lets PUBLIC execute every new function. A per-schema default cannot take that away
-- (per-schema defaults only add to the global ones); the owner's global default does. Each file
-- still ends by revoking PUBLIC's EXECUTE on the schema's functions, and
-- 01-schema-security.test.sql fails on a function anyone may execute.
alter default privileges for role plaudit_owner revoke execute on functions from public;

-- The roles the API and the worker use hold no TEMPORARY on the database (granted to PUBLIC by
-- default) and no CREATE on any schema: nothing they run can put an object where a SECURITY
-- DEFINER function might find it. Roles other than ours (on hosted Supabase, its own services')
-- keep TEMPORARY by name. Every function of plaudit that fixes a search_path names pg_temp last,
-- so even a temporary object of the session is never found before the catalog.
do $$
declare
  r record;
begin
  execute format('revoke temporary on database %I from public', current_database());
  for r in select rolname from pg_roles where not rolsuper and rolname !~ '^(pg_|plaudit_)' loop
    execute format('grant temporary on database %I to %I', current_database(), r.rolname);
  end loop;
  execute format('revoke temporary, create on database %I from plaudit_api, plaudit_public, plaudit_worker, plaudit_authenticator, plaudit_owner',
                 current_database());
end
$$;

revoke create on schema public, plaudit, extensions
  from plaudit_api, plaudit_public, plaudit_worker, plaudit_authenticator;

-- pg_net, where it exists (hosted Supabase), is how plaudit.wake_worker rings the worker.
do $$
begin
  if to_regnamespace('net') is not null then
    execute 'grant usage on schema net to plaudit_owner';
    execute 'grant execute on all functions in schema net to plaudit_owner';
  end if;
end
$$;

-- ============================================================================================
-- tenant context
-- ============================================================================================
set role plaudit_owner;

-- The tenant of the current transaction. The API sets it with
-- set_config('plaudit.org_id', <uuid>, true) inside each request's transaction, so it never
-- outlives the request on a pooled connection. Policies call it as (select plaudit.current_org_id())
-- so that it is evaluated once per statement, not once per row.
create function plaudit.current_org_id()
returns uuid
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select nullif(current_setting('plaudit.org_id', true), '')::uuid
$$;
comment on function plaudit.current_org_id() is 'The tenant of the current transaction, from its setting plaudit.org_id; null when none is set.';

grant execute on function plaudit.current_org_id() to plaudit_api, plaudit_public;

-- Keeps updated_at honest on every table that has one.
create function plaudit.touch_updated_at()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
comment on function plaudit.touch_updated_at() is 'Keeps updated_at honest on every table that has one: an update sets it to now().';

revoke execute on all functions in schema plaudit from public;
reset role;
