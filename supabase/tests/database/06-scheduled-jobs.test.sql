-- Scheduled housekeeping: plaudit.run_maintenance() runs every minute, through pg_cron where
-- pg_cron is installed (Supabase, the test cluster) and from the local process elsewhere. The
-- pg_cron assertions skip themselves when the extension is not installed; the function itself is
-- tested everywhere.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(10);

------------
--- pg_cron (skipped where it is not installed)
------------
select * from tests.cron_job_is('plaudit-maintenance', '* * * * *', 'select plaudit.run_maintenance()');

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
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');

select throws_ok(
  $$ select plaudit.run_maintenance() $$,
  '42501', 'permission denied for function run_maintenance',
  'tenant: the API role cannot run maintenance'
);

select tests.act_as_public();

select throws_ok(
  $$ select plaudit.run_maintenance() $$,
  '42501', 'permission denied for function run_maintenance',
  'plaudit_public: cannot run maintenance'
);

select tests.clear_persona();
set local session authorization plaudit_authenticator;

select throws_ok(
  $$ select plaudit.run_maintenance() $$,
  '42501', 'permission denied for function run_maintenance',
  'authenticator: cannot run maintenance'
);

reset session authorization;

select * from finish();
rollback;
