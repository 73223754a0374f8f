-- Schema-wide guarantees of the private schema `plaudit` and of the three roles the API uses.
-- These assertions are written against the catalog rather than against a list of tables or
-- functions, so that they fail the day a new table forgets row-level security or a new function
-- is left executable by everyone.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(51);

-- Fixtures (as the superuser): two tenants.
insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex');

------------
--- Row-level security everywhere
------------

-- The one assertion that matters: no ordinary or partitioned table in plaudit without RLS.
select is_empty(
  $$ select c.oid::regclass::text
       from pg_class c
      where c.relnamespace = 'plaudit'::regnamespace
        and c.relkind in ('r', 'p')
        and c.relrowsecurity = false $$,
  'every table of schema plaudit has row level security enabled'
);

-- The check above is not vacuous: the tenant tables are among the tables it looks at.
select ok(
  (select count(*) from pg_class c
    where c.relnamespace = 'plaudit'::regnamespace and c.relkind in ('r', 'p')
      and c.relname in ('organizations', 'api_keys', 'members', 'invitations', 'rate_limit_counters')) = 5,
  'the row level security check covers the platform tables'
);

-- ... and it catches a table that forgets RLS (created and dropped inside this transaction).
create table plaudit.forgot_rls (id integer);
select isnt_empty(
  $$ select c.oid::regclass::text
       from pg_class c
      where c.relnamespace = 'plaudit'::regnamespace
        and c.relkind in ('r', 'p')
        and c.relrowsecurity = false $$,
  'the row level security check flags a table created without RLS'
);
drop table plaudit.forgot_rls;

------------
--- Nothing for PUBLIC
------------

select ok(
  not has_schema_privilege('public', 'plaudit', 'usage'),
  'PUBLIC cannot use schema plaudit'
);

select ok(
  not has_schema_privilege('public', 'plaudit', 'create'),
  'PUBLIC cannot create objects in schema plaudit'
);

select is_empty(
  $$ select c.oid::regclass::text
       from pg_class c
      where c.relnamespace = 'plaudit'::regnamespace
        and c.relkind in ('r', 'p', 'v', 'm', 'f')
        and (has_table_privilege('public', c.oid, 'select, insert, update, delete, truncate, references, trigger')
             or has_any_column_privilege('public', c.oid, 'select, insert, update, references')) $$,
  'no table or view of schema plaudit grants anything (not even one column) to PUBLIC'
);

-- Functions are executable by PUBLIC unless revoked one by one: `alter default privileges in
-- schema plaudit revoke ...` cannot remove the global default. A migration that creates a
-- function in plaudit must `revoke execute on function ... from public` (then grant it to the
-- role that needs it); this assertion names the functions that were left open.
select is_empty(
  $$ select p.oid::regprocedure::text
       from pg_proc p
      where p.pronamespace = 'plaudit'::regnamespace
        and has_function_privilege('public', p.oid, 'execute') $$,
  'no function of schema plaudit is executable by PUBLIC'
);

-- A role that was granted nothing (anyone else on the server) is stopped at the schema.
create role plaudit_test_outsider nologin;
set local role plaudit_test_outsider;

select throws_ok(
  $$ select id from plaudit.organizations $$,
  '42501', 'permission denied for schema plaudit',
  'outsider: the schema is closed to a role that was granted nothing'
);

select tests.clear_persona();

------------
--- SECURITY DEFINER functions run with a fixed search_path
------------

-- A SECURITY DEFINER function runs with its owner's rights; without its own search_path it
-- resolves names through the caller's, and a caller who can put an object on that path first
-- runs code as the owner. Every such function of plaudit sets one (`set search_path = ''`,
-- every name schema-qualified).
create function pg_temp.definers_without_search_path()
returns setof text
language sql
as $$
  select p.oid::regprocedure::text
    from pg_proc p
   where p.pronamespace = 'plaudit'::regnamespace
     and p.prosecdef
     and not exists (select from unnest(p.proconfig) c where c like 'search_path=%')
$$;

-- ... and the path it sets names neither "$user" nor a schema where PUBLIC or a role the API or
-- the worker runs as can create objects.
create function pg_temp.definers_with_open_search_path()
returns table (function text, schema text)
language sql
as $$
  select p.oid::regprocedure::text, e.schema
    from pg_proc p
    cross join lateral unnest(p.proconfig) c
    cross join lateral (select btrim(btrim(raw), '"') as schema
                          from regexp_split_to_table(substr(c, length('search_path=') + 1), ',') raw) e
   where p.pronamespace = 'plaudit'::regnamespace
     and p.prosecdef
     and c like 'search_path=%'
     and (e.schema = '$user'
          or exists (select from pg_namespace n
                      where n.nspname = e.schema
                        and (has_schema_privilege('public', n.oid, 'create')
                             or has_schema_privilege('plaudit_api', n.oid, 'create')
                             or has_schema_privilege('plaudit_public', n.oid, 'create')
                             or has_schema_privilege('plaudit_authenticator', n.oid, 'create')
                             or has_schema_privilege('plaudit_worker', n.oid, 'create'))))
$$;

select is_empty(
  $$ select * from pg_temp.definers_without_search_path() $$,
  'every SECURITY DEFINER function of schema plaudit sets a fixed search_path'
);

select is_empty(
  $$ select * from pg_temp.definers_with_open_search_path() $$,
  'no SECURITY DEFINER function of schema plaudit puts "$user" or a schema others can write on its search_path'
);

-- The checks are not vacuous: they look at the schema's SECURITY DEFINER functions ...
select ok(
  (select count(*) from pg_proc p
    where p.pronamespace = 'plaudit'::regnamespace and p.prosecdef
      and p.oid in ('plaudit.authenticate(bytea,integer)'::regprocedure,
                    'plaudit.submit_review(plaudit.review_submission,text,integer,text)'::regprocedure,
                    'plaudit.claim_webhook_deliveries(integer,integer,integer,uuid[],integer,jsonb,integer)'::regprocedure)) = 3,
  'the search_path checks cover the SECURITY DEFINER functions of the API, the public routes and the worker'
);

-- ... and flag a function that forgets its search_path, or sets an open one (both created and
-- dropped inside this transaction).
create function plaudit.forgot_search_path() returns integer
  language sql security definer as $$ select 1 $$;
create function plaudit.open_search_path() returns integer
  language sql security definer set search_path = "$user", plaudit as $$ select 1 $$;

select results_eq(
  $$ select * from pg_temp.definers_without_search_path() $$,
  $$ values ('plaudit.forgot_search_path()') $$,
  'the search_path check flags a SECURITY DEFINER function created without one'
);

select results_eq(
  $$ select * from pg_temp.definers_with_open_search_path() $$,
  $$ values ('plaudit.open_search_path()', '$user') $$,
  'the search_path check flags a SECURITY DEFINER function whose path starts with "$user"'
);

drop function plaudit.forgot_search_path();
drop function plaudit.open_search_path();

------------
--- Roles
------------

select is_empty(
  $$ select rolname from pg_roles
      where rolname in ('plaudit_api', 'plaudit_public', 'plaudit_authenticator')
        and (rolsuper or rolbypassrls or rolcreaterole or rolcreatedb or rolreplication) $$,
  'no plaudit role is a superuser, bypasses RLS, or can create roles, databases or replicate'
);

select results_eq(
  $$ select rolname, rolcanlogin, rolinherit, rolbypassrls, rolsuper
       from pg_roles
      where rolname in ('plaudit_api', 'plaudit_public', 'plaudit_authenticator')
      order by rolname $$,
  $$ values ('plaudit_api'::name, false, false, false, false),
            ('plaudit_authenticator', true, false, false, false),
            ('plaudit_public', false, false, false, false) $$,
  'only the authenticator logs in; none inherits, bypasses RLS or is superuser'
);

select results_eq(
  $$ select rolname, rolsuper, rolbypassrls
       from pg_roles
      where rolname in ('plaudit_api', 'plaudit_public', 'plaudit_authenticator', 'plaudit_worker')
      order by rolname $$,
  $$ values ('plaudit_api'::name, false, false), ('plaudit_authenticator', false, false),
            ('plaudit_public', false, false), ('plaudit_worker', false, false) $$,
  'none of the four roles the API and the worker use is a superuser or has BYPASSRLS'
);

------------
--- Ownership: an owner bypasses RLS (unless forced) and may grant, alter or drop
------------

-- No table, view, sequence or function of schema plaudit (nor the schema) belongs to a role the
-- API or the worker runs as: the migrations' role owns them all.
create function pg_temp.owned_by_api_roles()
returns table (object text, owner name)
language sql
as $$
  select c.oid::regclass::text, r.rolname
    from pg_class c join pg_roles r on r.oid = c.relowner
   where c.relnamespace = 'plaudit'::regnamespace
     and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
     and r.rolname in ('plaudit_api', 'plaudit_public', 'plaudit_authenticator', 'plaudit_worker')
  union all
  select p.oid::regprocedure::text, r.rolname
    from pg_proc p join pg_roles r on r.oid = p.proowner
   where p.pronamespace = 'plaudit'::regnamespace
     and r.rolname in ('plaudit_api', 'plaudit_public', 'plaudit_authenticator', 'plaudit_worker')
  union all
  select n.nspname::text, r.rolname
    from pg_namespace n join pg_roles r on r.oid = n.nspowner
   where n.nspname = 'plaudit'
     and r.rolname in ('plaudit_api', 'plaudit_public', 'plaudit_authenticator', 'plaudit_worker')
$$;

select is_empty(
  $$ select * from pg_temp.owned_by_api_roles() $$,
  'no table, view, sequence or function of schema plaudit is owned by plaudit_api, plaudit_public, plaudit_authenticator or plaudit_worker'
);

-- The check is not vacuous: it covers tables, views, sequences and functions ...
select ok(
  (select count(distinct c.relkind) from pg_class c
    where c.relnamespace = 'plaudit'::regnamespace and c.relkind in ('r', 'v', 'S')) = 3
  and exists (select from pg_proc p where p.pronamespace = 'plaudit'::regnamespace),
  'the ownership check looks at tables, views, sequences and functions of plaudit'
);

-- ... and catches a table and a function handed to one of the roles (inside this transaction).
create table plaudit.owned_by_api (id integer);
alter table plaudit.owned_by_api owner to plaudit_api;
create function plaudit.owned_by_worker() returns integer language sql as $$ select 1 $$;
alter function plaudit.owned_by_worker() owner to plaudit_worker;
select set_eq(
  $$ select object, owner from pg_temp.owned_by_api_roles() $$,
  $$ values ('plaudit.owned_by_api', 'plaudit_api'::name),
            ('plaudit.owned_by_worker()', 'plaudit_worker'::name) $$,
  'the ownership check flags a table and a function owned by the API or worker roles'
);
drop table plaudit.owned_by_api;
drop function plaudit.owned_by_worker();

-- Nor do they own anything else in this database (any schema, type or other object).
select is_empty(
  $$ select d.classid::regclass::text, d.objid, r.rolname
       from pg_shdepend d join pg_roles r on r.oid = d.refobjid
      where d.refclassid = 'pg_authid'::regclass and d.deptype = 'o'
        and d.dbid = (select oid from pg_database where datname = current_database())
        and r.rolname in ('plaudit_api', 'plaudit_public', 'plaudit_authenticator', 'plaudit_worker') $$,
  'plaudit_api, plaudit_public, plaudit_authenticator and plaudit_worker own no object of the database'
);

------------
--- Switching roles
------------

select ok(
  pg_has_role('plaudit_authenticator', 'plaudit_api', 'member')
    and pg_has_role('plaudit_authenticator', 'plaudit_public', 'member'),
  'the authenticator can switch to plaudit_api and plaudit_public'
);

-- Roles added later for the authenticator to switch to are fine, as long as none of them (nor
-- anything they are members of) is mighty.
select is_empty(
  $$ select r.rolname from pg_roles r
      where pg_has_role('plaudit_authenticator', r.oid, 'member')
        and (r.rolsuper or r.rolbypassrls or r.rolcreaterole or r.rolcreatedb or r.rolreplication) $$,
  'no role the authenticator can become is a superuser, bypasses RLS, or can create roles or databases'
);

select is_empty(
  $$ select r.rolname || ' -> ' || m.rolname
       from pg_auth_members am
       join pg_roles r on r.oid = am.roleid
       join pg_roles m on m.oid = am.member
      where m.rolname in ('plaudit_api', 'plaudit_public', 'plaudit_worker') $$,
  'plaudit_api, plaudit_public and plaudit_worker are members of no role'
);

-- `set role` is checked against the session user, not the current role: whatever role a
-- session logged in as the authenticator is in, it can become any role the authenticator is a
-- member of. So that set must be exactly the roles the API and the worker run as.
select results_eq(
  $$ select r.rolname, am.admin_option
       from pg_auth_members am
       join pg_roles r on r.oid = am.roleid
      where am.member = 'plaudit_authenticator'::regrole
      order by r.rolname $$,
  $$ values ('plaudit_api'::name, false), ('plaudit_public', false), ('plaudit_worker', false) $$,
  'the authenticator is granted exactly plaudit_api, plaudit_public and plaudit_worker, without admin option'
);

select results_eq(
  $$ select r.rolname from pg_roles r
      where pg_has_role('plaudit_authenticator', r.oid, 'member')
      order by r.rolname $$,
  $$ values ('plaudit_api'::name), ('plaudit_authenticator'), ('plaudit_public'), ('plaudit_worker') $$,
  'the authenticator is a member (directly or not) of exactly itself, plaudit_api, plaudit_public and plaudit_worker'
);

select results_eq(
  $$ select p.oid::regprocedure::text
       from pg_proc p
      where p.pronamespace = 'plaudit'::regnamespace
        and has_function_privilege('plaudit_authenticator', p.oid, 'execute')
      order by 1 $$,
  $$ values ('plaudit.api_key_for_read(bytea,integer)'),
            ('plaudit.api_organization(bytea,uuid,integer)'),
            ('plaudit.api_review(bytea,uuid,integer,uuid)'),
            ('plaudit.api_review_first_page(bytea,uuid,integer)'),
            ('plaudit.authenticate(bytea,integer)'),
            ('plaudit.authenticate_credential(bytea,uuid,integer)'),
            ('plaudit.authenticate_session(bytea,uuid,integer)'),
            ('plaudit.begin_api_read(bytea,uuid,integer,text)'),
            ('plaudit.current_replica_read_floor()'),
            ('plaudit.end_session(bytea,boolean)'),
            ('plaudit.public_read_fragment(text,integer,text)'),
            ('plaudit.public_read_product_reviews(text,text,integer,integer,text,integer,boolean,text,text,jsonb)'),
            ('plaudit.public_read_product_version(text,text)'),
            ('plaudit.public_read_review_page(text,text,integer,integer,text,integer,boolean,text,text,jsonb)'),
            ('plaudit.public_read_review_summary(text,text)'),
            ('plaudit.public_read_version(text)'),
            ('plaudit.request_sign_in(text,text,text,integer)'),
            ('plaudit.session_for_read(bytea,uuid,integer)'),
            ('plaudit.session_summary(bytea)'),
            ('plaudit.sign_up(text,text,text,text,text,text,integer)'),
            ('plaudit.verify_sign_in(text,text,text,text)') $$,
  'the authenticator itself can execute the credential checks (keys, sessions, sign-in), the one-statement reads, the replicas'' read floor, and nothing else in plaudit'
);

select ok(
  has_function_privilege('plaudit_public', 'plaudit.hit_rate_limit(text,integer)', 'execute')
    and has_function_privilege('plaudit_public', 'plaudit.current_org_id()', 'execute'),
  'plaudit_public can execute hit_rate_limit and current_org_id'
);

select is_empty(
  $$ select p.oid::regprocedure::text
       from pg_proc p
      where p.oid in ('plaudit.authenticate(bytea,integer)'::regprocedure,
                      'plaudit.issue_api_key(uuid,text,text,integer)'::regprocedure,
                      'plaudit.rotate_api_key(uuid,integer)'::regprocedure,
                      'plaudit.create_invitation(uuid,text,text,uuid)'::regprocedure,
                      'plaudit.random_base62(integer)'::regprocedure,
                      'plaudit.prune_rate_limits()'::regprocedure,
                      'plaudit.run_maintenance()'::regprocedure)
        and has_function_privilege('plaudit_public', p.oid, 'execute') $$,
  'plaudit_public cannot execute the key, invitation, authentication or maintenance functions'
);

select is_empty(
  $$ select p.oid::regprocedure::text
       from pg_proc p
      where p.oid in ('plaudit.authenticate(bytea,integer)'::regprocedure,
                      'plaudit.hit_rate_limit(text,integer)'::regprocedure,
                      'plaudit.prune_rate_limits()'::regprocedure,
                      'plaudit.run_maintenance()'::regprocedure)
        and has_function_privilege('plaudit_api', p.oid, 'execute') $$,
  'plaudit_api cannot execute authenticate, hit_rate_limit, prune_rate_limits or run_maintenance'
);

------------
--- The authenticator login role
------------

-- Tries `set local role` to every role of the cluster from the current role, each in its own
-- subtransaction (rolled back, so the current role stays put): answers each role with
-- 'switched' or the error message.
create function pg_temp.set_role_outcomes()
returns table (rolname name, outcome text)
language plpgsql
as $$
declare
  r name;
begin
  for r in select pg_roles.rolname from pg_roles loop
    begin
      execute format('set local role %I', r);
      raise exception 'switched';
    exception when others then
      rolname := r;
      outcome := sqlerrm;
      return next;
    end;
  end loop;
end
$$;

-- Tries to read every table and view of schema plaudit as the current role: answers each with
-- 'readable' or the error message.
create function pg_temp.read_outcomes()
returns table (relname name, relkind "char", outcome text)
language plpgsql
as $$
declare
  c record;
begin
  for c in select pg_class.oid, pg_class.relname, pg_class.relkind from pg_class
            where relnamespace = 'plaudit'::regnamespace and pg_class.relkind in ('r', 'p', 'v', 'm', 'f') loop
    begin
      execute format('select 1 from %s limit 1', c.oid::regclass);
      relname := c.relname; relkind := c.relkind; outcome := 'readable';
    exception when others then
      relname := c.relname; relkind := c.relkind; outcome := sqlerrm;
    end;
    return next;
  end loop;
end
$$;

set local session authorization plaudit_authenticator;

-- noinherit: by itself it has none of plaudit_api's rights.
select throws_ok(
  $$ select id from plaudit.organizations $$,
  '42501', 'permission denied for table organizations',
  'authenticator: cannot read tenant tables without switching role'
);

select throws_ok(
  $$ select * from plaudit.rate_limit_counters $$,
  '42501', 'permission denied for table rate_limit_counters',
  'authenticator: cannot read the rate limit counters'
);

set local role plaudit_api;

select throws_ok(
  $$ set role postgres $$,
  '42501', 'permission denied to set role "postgres"',
  'authenticator as plaudit_api: cannot switch to the superuser'
);

select lives_ok(
  $$ set local role plaudit_public $$,
  'authenticator: can switch to plaudit_public'
);

select is(current_user::text, 'plaudit_public', 'authenticator: the switch to plaudit_public took effect');

select throws_ok(
  $$ set role postgres $$,
  '42501', 'permission denied to set role "postgres"',
  'authenticator as plaudit_public: cannot switch to the superuser'
);

-- What an injection inside a request's transaction can reach.
set local role plaudit_api;

select set_eq(
  $$ select rolname from pg_temp.set_role_outcomes() where outcome = 'switched' $$,
  $$ values ('plaudit_api'::name), ('plaudit_authenticator'), ('plaudit_public'), ('plaudit_worker') $$,
  'authenticator as plaudit_api: set role reaches exactly plaudit_api, plaudit_public, plaudit_worker and the authenticator'
);

select is_empty(
  $$ select rolname, outcome from pg_temp.set_role_outcomes()
      where outcome not in ('switched', format('permission denied to set role "%s"', rolname)) $$,
  'authenticator as plaudit_api: set role to any other role fails with permission denied'
);

select ok(
  (select count(*) from pg_temp.set_role_outcomes()
    where rolname in ('postgres', 'pg_read_all_data', 'pg_write_server_files', 'plaudit_test_outsider')
      and outcome = format('permission denied to set role "%s"', rolname)) = 4,
  'the set role check covers the superuser, the predefined roles and other roles of the cluster'
);

select throws_ok(
  $$ set role pg_read_all_data $$,
  '42501', 'permission denied to set role "pg_read_all_data"',
  'authenticator as plaudit_api: cannot switch to pg_read_all_data'
);

select throws_ok(
  $$ set role plaudit_test_outsider $$,
  '42501', 'permission denied to set role "plaudit_test_outsider"',
  'authenticator as plaudit_api: cannot switch to another role of the cluster'
);

select lives_ok(
  $$ reset role $$,
  'authenticator as plaudit_api: reset role is allowed'
);

select is(current_user::text, 'plaudit_authenticator', 'authenticator: reset role returns to the authenticator, not further');

select is_empty(
  $$ select relname, outcome from pg_temp.read_outcomes()
      where outcome <> format('permission denied for %s %s',
                              case relkind when 'v' then 'view' when 'm' then 'materialized view'
                                           when 'f' then 'foreign table' else 'table' end,
                              relname) $$,
  'authenticator after reset role: every table and view of plaudit refuses it with permission denied'
);

select ok(
  (select count(*) from pg_temp.read_outcomes()
    where relname in ('organizations', 'api_keys', 'members', 'reviews', 'public_reviews')) = 5,
  'the read check covers the tenant tables and the public view'
);

select throws_ok(
  $$ set role postgres $$,
  '42501', 'permission denied to set role "postgres"',
  'authenticator after reset role: cannot switch to the superuser'
);

------------
--- Anonymous: plaudit_api with no tenant set
------------
set local role plaudit_api;

select is(plaudit.current_org_id(), null, 'anonymous: no tenant is set');

select is_empty(
  $$ select id from plaudit.organizations $$,
  'anonymous: plaudit_api with no tenant set sees zero organizations'
);

-- An empty setting (what a pooled connection shows after an earlier request's transaction
-- ended) means no tenant too.
set local plaudit.org_id = '';

select is_empty(
  $$ select id from plaudit.organizations $$,
  'anonymous: plaudit_api with an empty tenant setting sees zero organizations'
);

------------
--- Anonymous public routes: plaudit_public
------------
select tests.act_as_public();

select throws_ok(
  $$ select id from plaudit.organizations $$,
  '42501', 'permission denied for table organizations',
  'plaudit_public: cannot read organizations'
);

select throws_ok(
  $$ select * from plaudit.authenticate('\x00'::bytea, 600) $$,
  '42501', 'permission denied for function authenticate',
  'plaudit_public: cannot call authenticate'
);

select tests.clear_persona();
reset session authorization;

select is(current_user::text, 'postgres', 'back to the superuser for the end of the file');

select * from finish();
rollback;
