-- Roles, in the PostgREST manner:
--   plaudit_authenticator  the login role the API connects as; it can do nothing by itself
--                          (noinherit) except switch to one of the two roles below.
--   plaudit_api            what an authenticated request runs as; every tenant table is
--                          filtered for it by row-level security.
--   plaudit_public         what unauthenticated public routes run as.
-- None of them bypasses row-level security. plaudit_api and plaudit_public are members of no
-- role, but `set role` is checked against the session user: a session logged in as
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
  if not exists (select from pg_roles where rolname = 'plaudit_authenticator') then
    create role plaudit_authenticator login noinherit nobypassrls;
  end if;
end
$$;

grant plaudit_api, plaudit_public to plaudit_authenticator;
grant usage on schema plaudit to plaudit_api, plaudit_public, plaudit_authenticator;
grant usage on schema extensions to plaudit_api, plaudit_public, plaudit_authenticator;
