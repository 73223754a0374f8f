-- What an order holds: the products bought, by the business's own product id (external_id), so
-- that purchase proof can tell whether an order holds the product a review is about. The id is
-- kept as given, whether the catalog knows it yet or not: a shop may load its orders before its
-- catalog, or after.
set role plaudit_owner;

create table plaudit.order_items (
  org_id uuid not null,
  order_id text not null,
  -- The item's place in the order as loaded (0-based), so that the items keep their order.
  position smallint not null check (position between 0 and 99),
  product_external_id text not null check (char_length(product_external_id) between 1 and 200),
  quantity integer not null default 1 check (quantity between 1 and 10000),
  primary key (org_id, order_id, position),
  foreign key (org_id, order_id) references plaudit.orders (org_id, order_id) on delete cascade
);
comment on table plaudit.order_items is 'The products an order holds, by the organization''s own product id (external_id), kept as given.';

-- Which orders hold a product: what matching a review's product (or its group) against an order reads.
create index order_items_org_id_product_external_id on plaudit.order_items (org_id, product_external_id);

alter table plaudit.order_items enable row level security;

create policy "Tenants can read the items of their own orders"
  on plaudit.order_items for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can add items to their own orders"
  on plaudit.order_items for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

-- Loading an order again replaces its items: the old ones are deleted first.
create policy "Tenants can replace the items of their own orders"
  on plaudit.order_items for delete to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select, delete on plaudit.order_items to plaudit_api;
grant insert (org_id, order_id, position, product_external_id, quantity) on plaudit.order_items to plaudit_api;

revoke execute on all functions in schema plaudit from public;
reset role;
