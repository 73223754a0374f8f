-- Helpers shared by the pgTAP files of supabase/tests/database/, loaded by `npm test` before
-- pg_prove (never a migration: production databases do not hold them).
create schema if not exists tests;

-- pgTAP compares result sets through temporary tables, created as the role a test has switched
-- to. The runtime roles hold no TEMPORARY privilege (the first migration, "the owner"), so a file
-- that runs pgTAP as one of them lends it for its own transaction; the rollback at its end takes
-- the grant back. 07-privilege-hardening.test.sql checks the roles' privileges without it.
create or replace function tests.lend_temporary_to_runtime_roles()
returns void
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  execute format('grant temporary on database %I to plaudit_api, plaudit_public, plaudit_worker, plaudit_authenticator, plaudit_owner',
                 current_database());
end
$$;

-- Takes the lent privilege back within the transaction, for a file that checks both sides.
create or replace function tests.take_back_temporary_from_runtime_roles()
returns void
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  execute format('revoke temporary on database %I from plaudit_api, plaudit_public, plaudit_worker, plaudit_authenticator, plaudit_owner',
                 current_database());
end
$$;

-- Four assertions about one pg_cron job: it exists once, runs `p_command` on `p_schedule`, is
-- active in this database, and runs as a superuser (the role that scheduled it). Skipped where
-- pg_cron is not installed (embedded PostgreSQL), where the local process runs the command.
-- (cron.job's text columns use the "C" collation, hence the collate clauses.)
create or replace function tests.cron_job_is(p_job text, p_schedule text, p_command text)
returns setof text
language plpgsql
set search_path = public, pg_catalog, pg_temp
as $$
begin
  if not exists (select from pg_extension where extname = 'pg_cron') then
    return next skip(format('pg_cron is not installed here: the local process runs %s', p_command), 4);
    return;
  end if;
  return next results_eq(
    format($q$ select count(*)::integer from cron.job where jobname = %L $q$, p_job),
    $q$ values (1) $q$,
    format('pg_cron: exactly one job is named %s', p_job));
  return next results_eq(
    format($q$ select schedule collate "default", command collate "default" from cron.job where jobname = %L $q$, p_job),
    format($q$ values (%L::text, %L::text) $q$, p_schedule, p_command),
    format('pg_cron: %s runs %s on %s', p_job, p_command, p_schedule));
  return next results_eq(
    format($q$ select database collate "default", active from cron.job where jobname = %L $q$, p_job),
    $q$ select current_database()::text collate "default", true $q$,
    format('pg_cron: %s is active and runs in this database', p_job));
  return next ok(
    (select rolsuper from pg_roles where rolname = (select username from cron.job where jobname = p_job)),
    format('pg_cron: %s runs as a role that may execute its command', p_job));
end
$$;

-- Personas, as basejump's tests.authenticate_as: who the statements that follow run as, until
-- the next persona or the transaction's end. A tenant is what an API request is: plaudit_api
-- with the transaction's tenant set; the other personas change the role alone (a file may check
-- that a role refuses a tenant's data while a tenant is set). Every role may call these (a file
-- switches from one persona to another, whoever it is now), and nothing else of schema tests.
create or replace function tests.act_as_tenant(p_org_id uuid)
returns void
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  perform set_config('role', 'plaudit_api', true);
  perform set_config('plaudit.org_id', p_org_id::text, true);
end
$$;

-- The public: what unauthenticated routes run as.
create or replace function tests.act_as_public()
returns void
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  perform set_config('role', 'plaudit_public', true);
end
$$;

-- The worker: claims and records deliveries, e-mails, exports, imports and purges.
create or replace function tests.act_as_worker()
returns void
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  perform set_config('role', 'plaudit_worker', true);
end
$$;

-- The schema's owner: what the migrations and the SECURITY DEFINER functions run as.
create or replace function tests.act_as_owner()
returns void
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  perform set_config('role', 'plaudit_owner', true);
end
$$;

-- Back to the superuser that runs the file.
create or replace function tests.clear_persona()
returns void
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  perform set_config('role', 'none', true);
end
$$;

grant usage on schema tests to public;
revoke execute on all functions in schema tests from public;
grant execute on function tests.act_as_tenant(uuid), tests.act_as_public(), tests.act_as_worker(),
  tests.act_as_owner(), tests.clear_persona() to public;
