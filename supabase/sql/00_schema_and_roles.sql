-- The private schema, the roles, and the tenant of a transaction: what every later file builds on.
--
--
-- The functions and views of this concern, each once, as the database has them now.

-- The tenant of the current transaction. The API sets it with
-- set_config('plaudit.org_id', <uuid>, true) inside each request's transaction, so it never
-- outlives the request on a pooled connection. Policies call it as (select plaudit.current_org_id())
-- so that it is evaluated once per statement, not once per row.
create or replace function plaudit.current_org_id()
returns uuid
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select nullif(current_setting('plaudit.org_id', true), '')::uuid
$$;
comment on function plaudit.current_org_id() is 'The tenant of the current transaction, from its setting plaudit.org_id; null when none is set.';

-- Keeps updated_at honest on every table that has one.
create or replace function plaudit.touch_updated_at()
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
