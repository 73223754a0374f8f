-- The owner of schema plaudit and what the runtime roles cannot do: no object of plaudit belongs
-- to a superuser or a runtime role; no SECURITY DEFINER function finds or makes a temporary object;
-- the runtime roles hold neither TEMPORARY nor CREATE anywhere; and none of them, nor a login
-- holding the owner's membership, can switch triggers off for a session, delete a review or edit
-- the moderation trail. This file does NOT lend TEMPORARY to the runtime roles (the other files
-- do, for pgTAP's own temporary tables): it checks the privileges the migrations leave.
begin;
select plan(38);

insert into plaudit.organizations (id, name, slug) values
  ('07000000-0000-4000-8000-000000000001', 'Hardened', 'hardened');
insert into plaudit.review_forms (id, org_id, name) values
  ('07000000-0000-4000-8000-0000000000f1', '07000000-0000-4000-8000-000000000001', 'Form');
insert into plaudit.reviews (id, org_id, form_id, rating, title, content, reviewer_name, reviewer_email, verification_status)
values ('07000000-0000-4000-8000-0000000000a1', '07000000-0000-4000-8000-000000000001',
        '07000000-0000-4000-8000-0000000000f1', 5, 'Fine', 'Fine indeed', 'Ann', 'ann@hardened.test', 'pending');
select plaudit.moderate_review('07000000-0000-4000-8000-0000000000a1', 'hide', 'spam', 'test')
  from (select set_config('plaudit.org_id', '07000000-0000-4000-8000-000000000001', true)) t;

------------
--- The owner role
------------

select ok(
  (select not rolsuper and not rolcanlogin and not rolbypassrls and not rolcreaterole and not rolcreatedb
     from pg_roles where rolname = 'plaudit_owner'),
  'plaudit_owner is no superuser, cannot log in, bypass RLS or create roles and databases'
);

select is_empty(
  $$ select c.oid::regclass::text from pg_class c
      where c.relnamespace = 'plaudit'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
        and c.relowner <> 'plaudit_owner'::regrole
     union all
     select p.oid::regprocedure::text from pg_proc p
      where p.pronamespace = 'plaudit'::regnamespace and p.proowner <> 'plaudit_owner'::regrole
     union all
     select t.oid::regtype::text from pg_type t
      where t.typnamespace = 'plaudit'::regnamespace and t.typowner <> 'plaudit_owner'::regrole
     union all
     select n.nspname::text from pg_namespace n
      where n.nspname = 'plaudit' and n.nspowner <> 'plaudit_owner'::regrole $$,
  'plaudit_owner owns schema plaudit and every table, view, sequence, function and type in it'
);

select is_empty(
  $$ select p.oid::regprocedure::text from pg_proc p join pg_roles r on r.oid = p.proowner
      where p.prosecdef and r.rolsuper
        and p.pronamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
        and p.pronamespace in (select oid from pg_namespace where nspname in ('plaudit', 'public', 'extensions')) $$,
  'no SECURITY DEFINER function of plaudit, public or extensions is owned by a superuser'
);

select ok(
  (select count(*) > 20 from pg_proc p where p.pronamespace = 'plaudit'::regnamespace and p.prosecdef),
  'the checks cover the SECURITY DEFINER functions of plaudit'
);

select is_empty(
  $$ select p.oid::regprocedure::text from pg_proc p
      where p.pronamespace = 'plaudit'::regnamespace and p.prosecdef
        and not exists (select from unnest(p.proconfig) c where c = 'search_path=pg_catalog, pg_temp') $$,
  'every SECURITY DEFINER function of plaudit sets search_path = pg_catalog, pg_temp (temporary objects last)'
);

select is_empty(
  $$ select p.oid::regprocedure::text from pg_proc p
      where p.pronamespace = 'plaudit'::regnamespace and p.prosecdef
        and p.prosrc ~* '(pg_temp|create\s+(temp|temporary|unlogged)?\s*table|\mtemporary\M)' $$,
  'no SECURITY DEFINER function of plaudit creates, names or reuses a temporary object'
);

------------
--- TEMPORARY and CREATE
------------

select is_empty(
  $$ select r.rolname::text, p.privilege
       from pg_roles r
       cross join (values ('TEMPORARY'), ('CREATE')) p (privilege)
      where r.rolname in ('plaudit_api', 'plaudit_public', 'plaudit_worker', 'plaudit_authenticator', 'plaudit_owner')
        and has_database_privilege(r.rolname, current_database(), p.privilege) $$,
  'no runtime role (nor the owner) holds TEMPORARY or CREATE on the database'
);

select is_empty(
  $$ select r.rolname::text, n.nspname::text
       from pg_roles r cross join pg_namespace n
      where r.rolname in ('plaudit_api', 'plaudit_public', 'plaudit_worker', 'plaudit_authenticator')
        and n.nspname !~ '^pg_(temp|toast_temp)_'
        and has_schema_privilege(r.rolname, n.oid, 'CREATE') $$,
  'no runtime role can create objects in any schema'
);

------------
--- The escalation through a temporary table
------------

select tests.act_as_tenant('07000000-0000-4000-8000-000000000001');

-- (In a fresh session the message names the database; this one has a temporary schema already,
-- made by pgTAP as the superuser, and the refusal names that schema.)
select throws_matching(
  $$ create temporary table rr_batch (idx integer) $$,
  '^permission denied (to create temporary tables in database|for schema pg_temp_)',
  'plaudit_api cannot create the temporary table a SECURITY DEFINER function might reuse'
);

select tests.clear_persona();

-- Even a temporary table of that name with a trigger, made by someone who could, is never
-- touched: the function keeps its rows in a variable.
create temporary table rr_batch (
  idx integer, id uuid, email text, name text, form_id uuid, order_id text, external_id text,
  locale text, send_at timestamptz, error text, suppressed text
);
create function pg_temp.caller_code() returns trigger language plpgsql as $$
begin
  raise exception 'the caller''s trigger ran as %', current_user;
end
$$;
create trigger caller_code before insert or update or delete on pg_temp.rr_batch
  for each row execute function pg_temp.caller_code();
create trigger caller_code_truncate before truncate on pg_temp.rr_batch
  for each statement execute function pg_temp.caller_code();
grant all on pg_temp.rr_batch to plaudit_api;
-- (plaudit_api needs to reach this session's temporary schema only for the call below to have
-- had a chance of finding the table.)
select tests.lend_temporary_to_runtime_roles();

set local role plaudit_api;
select results_eq(
  $$ select idx, id is not null, error from plaudit.create_review_requests(
       '[{"index":0,"email":"a@hardened.test","name":"A","form_id":"07000000-0000-4000-8000-0000000000f1"},
         {"index":1,"email":"b@hardened.test","name":"B","form_id":"07000000-0000-4000-8000-0000000000f9"}]',
       'http://127.0.0.1:54321') $$,
  $$ values (0, true, null::text), (1, false, 'form_id: no active review form with this id in this organization') $$,
  'create_review_requests works beside a caller''s pg_temp.rr_batch and never fires its trigger'
);
select tests.clear_persona();

select is((select count(*)::int from pg_temp.rr_batch), 0, 'the caller''s temporary table is untouched');
select is(
  (select count(*)::int from plaudit.review_requests where org_id = '07000000-0000-4000-8000-000000000001'),
  1, 'the accepted row is stored'
);

-- The same holds for a second call in the same transaction (the old function reused its table).
set local role plaudit_api;
select results_eq(
  $$ select idx, error from plaudit.create_review_requests(
       '[{"index":0,"email":"c@hardened.test","name":"C","form_id":"07000000-0000-4000-8000-0000000000f1","external_id":"x"},
         {"index":1,"email":"d@hardened.test","name":"D","form_id":"07000000-0000-4000-8000-0000000000f1","external_id":"x"}]',
       'http://127.0.0.1:54321') $$,
  $$ values (0, null::text), (1, 'external_id: repeats the external_id of row 0') $$,
  'a second call in the same transaction checks its own rows only'
);
select tests.clear_persona();
select tests.take_back_temporary_from_runtime_roles();

------------
--- What the runtime roles cannot do to the record
------------

create function pg_temp.refusals(role_name text)
returns setof text
language plpgsql
as $$
begin
  execute format('set local role %I', role_name);
  return next throws_ok(
    'set session_replication_role = replica', '42501',
    'permission denied to set parameter "session_replication_role"',
    role_name || ': cannot switch triggers off for its session');
  return next throws_ok(
    $q$ delete from plaudit.reviews where id = '07000000-0000-4000-8000-0000000000a1' $q$, '42501',
    'permission denied for table reviews', role_name || ': cannot delete a review');
  return next throws_ok(
    $q$ update plaudit.moderation_trail set reason = 'rewritten' $q$, '42501',
    'permission denied for table moderation_trail', role_name || ': cannot edit the moderation trail');
  return next throws_ok(
    'alter table plaudit.moderation_trail disable trigger all', '42501',
    'must be owner of table moderation_trail', role_name || ': cannot disable the trail''s triggers');
  return next throws_ok(
    'alter table plaudit.reviews disable trigger reviews_refuse_delete', '42501',
    'must be owner of table reviews', role_name || ': cannot disable the triggers that keep reviews');
  execute 'reset role';
end
$$;

select * from pg_temp.refusals('plaudit_api');
select * from pg_temp.refusals('plaudit_public');
select * from pg_temp.refusals('plaudit_worker');
select * from pg_temp.refusals('plaudit_authenticator');

------------
--- A login holding the owner's membership
------------

-- Such a login can alter the schema (that is what migrations do), so it could switch a trigger
-- off; docs/security.md says why the published chain head makes that detectable. What it cannot
-- do without touching the schema:
create role plaudit_test_operator login noinherit;
grant plaudit_owner to plaudit_test_operator;
set local session authorization plaudit_test_operator;
select tests.act_as_owner();

select throws_ok(
  'set session_replication_role = replica', '42501',
  'permission denied to set parameter "session_replication_role"',
  'owner member: cannot switch triggers off for its session'
);
select throws_ok(
  $$ delete from plaudit.reviews where id = '07000000-0000-4000-8000-0000000000a1' $$, '23001',
  'reviews cannot be deleted; hide them through moderation instead', 'owner member: cannot delete a review'
);
select throws_ok(
  $$ update plaudit.moderation_trail set reason = 'rewritten' where org_id = '07000000-0000-4000-8000-000000000001' $$,
  '23001', 'the moderation trail is append-only: entries cannot be changed or deleted',
  'owner member: cannot edit a trail entry'
);
select throws_ok(
  $$ delete from plaudit.moderation_trail where org_id = '07000000-0000-4000-8000-000000000001' $$,
  '23001', 'the moderation trail is append-only: entries cannot be changed or deleted',
  'owner member: cannot delete a trail entry'
);
select throws_ok(
  'truncate plaudit.moderation_trail', '23001',
  'the moderation trail is append-only: entries cannot be changed or deleted',
  'owner member: cannot truncate the trail'
);
select tests.clear_persona();
reset session authorization;

select * from finish();
rollback;
