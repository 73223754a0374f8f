-- Schema-wide guarantees of the private schema `plaudit` and of the three roles the API uses.
-- These assertions are written against the catalog rather than against a list of tables or
-- functions, so that they fail the day a new table forgets row-level security or a new function
-- is left executable by everyone.
begin;
select plan(29);

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

reset role;

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
      where m.rolname in ('plaudit_api', 'plaudit_public') $$,
  'plaudit_api and plaudit_public are members of no role: they cannot switch to anything'
);

select results_eq(
  $$ select p.oid::regprocedure::text
       from pg_proc p
      where p.pronamespace = 'plaudit'::regnamespace
        and has_function_privilege('plaudit_authenticator', p.oid, 'execute')
      order by 1 $$,
  $$ values ('plaudit.authenticate(bytea,integer)') $$,
  'the authenticator itself can execute plaudit.authenticate and nothing else in plaudit'
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
                      'plaudit.rotate_api_key(uuid)'::regprocedure,
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
set local role plaudit_public;

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

reset role;
reset session authorization;

select is(current_user::text, 'postgres', 'back to the superuser for the end of the file');

select * from finish();
rollback;
