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
