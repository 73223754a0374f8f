-- The tenant of the current transaction. The API sets it with
-- set_config('plaudit.org_id', <uuid>, true) inside each request's transaction, so it never
-- outlives the request on a pooled connection. Policies call it as (select plaudit.current_org_id())
-- so that it is evaluated once per statement, not once per row.
create function plaudit.current_org_id()
returns uuid
language sql
stable
set search_path = ''
as $$
  select nullif(current_setting('plaudit.org_id', true), '')::uuid
$$;

grant execute on function plaudit.current_org_id() to plaudit_api, plaudit_public;

-- Keeps updated_at honest on every table that has one.
create function plaudit.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
