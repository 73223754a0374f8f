-- Scheduled housekeeping: plaudit.run_maintenance() runs every minute, through pg_cron where
-- pg_cron is installed (Supabase, the test cluster) and from the local process elsewhere. The
-- pg_cron assertions skip themselves when the extension is not installed; the function itself is
-- tested everywhere.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(10);

-- pg_cron's tables only exist where it is installed, so its assertions are built at run time.
-- (cron.job's text columns use the "C" collation, hence the collate clauses.)
create function pg_temp.cron_assertions()
returns setof text
language plpgsql
as $$
begin
  if not exists (select from pg_extension where extname = 'pg_cron') then
    return next skip('pg_cron is not installed here: the local process runs plaudit.run_maintenance()', 4);
    return;
  end if;

  return next results_eq(
    $q$ select count(*)::integer from cron.job where jobname = 'plaudit-maintenance' $q$,
    $q$ values (1) $q$,
    'pg_cron: exactly one job is named plaudit-maintenance'
  );
  return next results_eq(
    $q$ select schedule collate "default", command collate "default" from cron.job where jobname = 'plaudit-maintenance' $q$,
    $q$ values ('* * * * *'::text, 'select plaudit.run_maintenance()'::text) $q$,
    'pg_cron: plaudit-maintenance runs plaudit.run_maintenance() every minute'
  );
  return next results_eq(
    $q$ select database collate "default", active from cron.job where jobname = 'plaudit-maintenance' $q$,
    $q$ select current_database()::text collate "default", true $q$,
    'pg_cron: the job is active and runs in this database'
  );
  return next ok(
    (select rolsuper from pg_roles
      where rolname = (select username from cron.job where jobname = 'plaudit-maintenance')),
    'pg_cron: the job runs as a role that may execute plaudit.run_maintenance()'
  );
end
$$;

------------
--- pg_cron (skipped where it is not installed)
------------
select * from pg_temp.cron_assertions();

------------
--- run_maintenance itself
------------

select function_returns('plaudit', 'run_maintenance', array[]::text[], 'void',
  'run_maintenance() exists and returns void');

-- Fixtures (as the superuser): an old, a previous-minute and a current counter window.
insert into plaudit.rate_limit_counters (bucket, window_start, hits) values
  ('test:maintenance', date_trunc('minute', now()) - interval '10 minutes', 5),
  ('test:maintenance', date_trunc('minute', now()) - interval '1 minute', 4),
  ('test:maintenance', date_trunc('minute', now()), 3);

select lives_ok(
  $$ select plaudit.run_maintenance() $$,
  'run_maintenance: runs'
);

select results_eq(
  $$ select window_start - date_trunc('minute', now()), hits
       from plaudit.rate_limit_counters where bucket = 'test:maintenance' order by window_start $$,
  $$ values (interval '-1 minute', 4), (interval '0', 3) $$,
  'run_maintenance: prunes rate limit windows older than the previous minute'
);

------------
--- Tenants, anonymous, public routes and the authenticator cannot run it
------------
set local role plaudit_api;
set local plaudit.org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

select throws_ok(
  $$ select plaudit.run_maintenance() $$,
  '42501', 'permission denied for function run_maintenance',
  'tenant: the API role cannot run maintenance'
);

set local role plaudit_public;

select throws_ok(
  $$ select plaudit.run_maintenance() $$,
  '42501', 'permission denied for function run_maintenance',
  'plaudit_public: cannot run maintenance'
);

reset role;
set local session authorization plaudit_authenticator;

select throws_ok(
  $$ select plaudit.run_maintenance() $$,
  '42501', 'permission denied for function run_maintenance',
  'authenticator: cannot run maintenance'
);

reset session authorization;

select * from finish();
rollback;
