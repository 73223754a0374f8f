-- Tenancy: the tenant of a transaction, which every policy reads.

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
grant execute on function plaudit.current_org_id() to plaudit_api, plaudit_public;

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

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger orders_touch_updated_at
  before update on plaudit.orders
  for each row execute function plaudit.touch_updated_at();

create trigger organizations_touch_updated_at
  before update on plaudit.organizations
  for each row execute function plaudit.touch_updated_at();

create trigger products_touch_updated_at
  before update on plaudit.products
  for each row execute function plaudit.touch_updated_at();

create trigger public_profiles_touch_updated_at
  before update on plaudit.public_profiles
  for each row execute function plaudit.touch_updated_at();

create trigger review_forms_touch_updated_at
  before update on plaudit.review_forms
  for each row execute function plaudit.touch_updated_at();

create trigger webhook_endpoints_touch_updated_at
  before update on plaudit.webhook_endpoints
  for each row execute function plaudit.touch_updated_at();
