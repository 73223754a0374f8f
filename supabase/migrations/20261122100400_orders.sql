-- Orders an organization loads (POST …/orders) so that purchase-proof forms can check the order
-- id a reviewer gives, and the reviewer's e-mail when the order has one. A review records only a
-- hash of the order id it was verified with (plaudit.order_hash), never the id itself.
create table plaudit.orders (
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  order_id text not null check (char_length(order_id) between 1 and 200),
  email text check (char_length(email) <= 320 and email ~ '^[^@\s]+@[^@\s]+$'),
  purchased_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (org_id, order_id)
);

create trigger orders_touch_updated_at
  before update on plaudit.orders
  for each row execute function plaudit.touch_updated_at();

alter table plaudit.orders enable row level security;

create policy "Tenants can read their own orders"
  on plaudit.orders for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can load their own orders"
  on plaudit.orders for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can update their own orders"
  on plaudit.orders for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

grant select on plaudit.orders to plaudit_api;
grant insert (org_id, order_id, email, purchased_at) on plaudit.orders to plaudit_api;
grant update (email, purchased_at) on plaudit.orders to plaudit_api;

-- The provenance of a purchase-proof verification: SHA-256 (hex) of the tenant and order id, so
-- equal order ids of two organizations hash differently.
create function plaudit.order_hash(p_org_id uuid, p_order_id text)
returns text
language sql
immutable
set search_path = ''
as $$ select encode(sha256(convert_to(p_org_id::text || ':' || p_order_id, 'UTF8')), 'hex') $$;

-- True when the organization has this order and, if the order carries an e-mail address, it is
-- the reviewer's (case-insensitively).
create function plaudit.order_matches(p_org_id uuid, p_order_id text, p_email text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (
    select from plaudit.orders o
    where o.org_id = p_org_id and o.order_id = btrim(p_order_id)
      and (o.email is null or lower(o.email) = lower(p_email)))
$$;

-- Bulk upsert of up to 1,000 orders ([{order_id, email?, purchased_at?}]); an order id given
-- twice keeps its last occurrence. An existing order takes the new e-mail and purchase date
-- (absent → null). Answers how many were inserted and how many updated.
create function plaudit.upsert_orders(p_org_id uuid, p_orders jsonb)
returns table (inserted integer, updated integer)
language sql
volatile
set search_path = ''
as $$
  with input as (
    select distinct on (btrim(o.order_id)) btrim(o.order_id) as order_id, o.email, o.purchased_at
    from rows from (jsonb_to_recordset(p_orders) as (order_id text, email text, purchased_at timestamptz))
      with ordinality as o(order_id, email, purchased_at, n)
    order by btrim(o.order_id), o.n desc
  ), written as (
    insert into plaudit.orders as t (org_id, order_id, email, purchased_at)
    select p_org_id, i.order_id, i.email, i.purchased_at from input i order by i.order_id
    on conflict (org_id, order_id) do update set email = excluded.email, purchased_at = excluded.purchased_at
    returning (t.xmax = 0) as is_new
  )
  select (count(*) filter (where is_new))::integer, (count(*) filter (where not is_new))::integer from written
$$;

grant execute on function plaudit.order_hash(uuid, text), plaudit.order_matches(uuid, text, text),
  plaudit.upsert_orders(uuid, jsonb) to plaudit_api;

revoke execute on function plaudit.order_hash(uuid, text), plaudit.order_matches(uuid, text, text),
  plaudit.upsert_orders(uuid, jsonb) from public;
