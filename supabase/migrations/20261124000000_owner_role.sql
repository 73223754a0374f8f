-- The owner of schema plaudit: a role that cannot log in, is no superuser and does not bypass
-- row-level security. Every table, view, sequence and function of plaudit belongs to it, so a
-- SECURITY DEFINER function runs with its rights, never a superuser's: a function tricked into
-- running a caller's code would hold no more than the schema's own objects. No running process
-- logs in as it or is a member of it; the migrations' role is a member so that later migrations
-- can `set role plaudit_owner` (CONTRIBUTING.md) and hand new objects to it.
--
-- The roles the API and the worker use lose TEMPORARY on the database (granted to PUBLIC by
-- default) and hold CREATE on no schema: nothing they run can put an object where a SECURITY
-- DEFINER function might find it. Every function of plaudit that fixes a search_path names
-- pg_temp last, so even a temporary object of the session is never found before the catalog.
do $$
begin
  if not exists (select from pg_roles where rolname = 'plaudit_owner') then
    create role plaudit_owner nologin noinherit nosuperuser nobypassrls nocreatedb nocreaterole noreplication;
  end if;
end
$$;

grant plaudit_owner to current_user;
grant usage on schema extensions to plaudit_owner;

do $$
declare
  obj record;
begin
  execute 'alter schema plaudit owner to plaudit_owner';

  -- Tables, views, materialized views (their indexes, triggers, owned sequences and row types follow).
  for obj in
    select c.oid::regclass as name, c.relkind
      from pg_class c
     where c.relnamespace = 'plaudit'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
  loop
    execute format('alter %s %s owner to plaudit_owner',
                   case obj.relkind when 'v' then 'view' when 'm' then 'materialized view'
                                    when 'f' then 'foreign table' else 'table' end,
                   obj.name);
  end loop;

  -- Sequences no column owns.
  for obj in
    select c.oid::regclass as name
      from pg_class c
     where c.relnamespace = 'plaudit'::regnamespace and c.relkind = 'S'
       and not exists (select from pg_depend d where d.objid = c.oid and d.deptype in ('a', 'i'))
  loop
    execute format('alter sequence %s owner to plaudit_owner', obj.name);
  end loop;

  -- Functions and procedures; their search_path gets pg_temp last.
  for obj in
    select p.oid::regprocedure as name, p.proconfig
      from pg_proc p
     where p.pronamespace = 'plaudit'::regnamespace and p.prokind in ('f', 'p')
  loop
    execute format('alter routine %s owner to plaudit_owner', obj.name);
    if exists (select from unnest(obj.proconfig) c where c like 'search_path=%') then
      execute format('alter routine %s set search_path = pg_catalog, pg_temp', obj.name);
    end if;
  end loop;

  -- Types of their own (enums, domains, composites not tied to a table).
  for obj in
    select t.oid::regtype as name, t.typtype
      from pg_type t
     where t.typnamespace = 'plaudit'::regnamespace and t.typtype in ('e', 'd', 'c')
       and (t.typtype <> 'c' or (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c')
  loop
    execute format('alter %s %s owner to plaudit_owner', case obj.typtype when 'd' then 'domain' else 'type' end, obj.name);
  end loop;

  -- pg_net, where it exists (hosted Supabase), is how plaudit.wake_worker rings the worker.
  if to_regnamespace('net') is not null then
    execute 'grant usage on schema net to plaudit_owner';
    execute 'grant execute on all functions in schema net to plaudit_owner';
  end if;

  -- TEMPORARY: PUBLIC keeps it no more; roles other than ours (on hosted Supabase, its own
  -- services' roles) keep it by name, so only the runtime roles of plaudit lose it.
  execute format('revoke temporary on database %I from public', current_database());
  for obj in
    select r.rolname from pg_roles r
     where not r.rolsuper and r.rolname !~ '^(pg_|plaudit_)'
  loop
    execute format('grant temporary on database %I to %I', current_database(), obj.rolname);
  end loop;
  execute format('revoke temporary, create on database %I from plaudit_api, plaudit_public, plaudit_worker, plaudit_authenticator, plaudit_owner',
                 current_database());
end
$$;

revoke create on schema public, plaudit, extensions
  from plaudit_api, plaudit_public, plaudit_worker, plaudit_authenticator;
