-- The product catalog: what a business sells, known by the business's own id (external_id).
-- Reviews of products come later; review_count and average_rating are answered by the API from a
-- placeholder until then.
set role plaudit_owner;

create table plaudit.products (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  external_id text not null check (char_length(external_id) between 1 and 200),
  name text not null check (char_length(name) between 1 and 500),
  url text check (char_length(url) <= 2000 and url ~* '^https?://[^[:space:]]+$'),
  image_url text check (char_length(image_url) <= 2000 and image_url ~* '^https?://[^[:space:]]+$'),
  sku text check (char_length(sku) between 1 and 200),
  gtin text check (plaudit.gtin_is_valid(gtin)),
  mpn text check (char_length(mpn) between 1 and 200),
  brand text check (char_length(brand) between 1 and 200),
  -- "group" is a keyword; the API answers this column as `group`, and so does the constraint's name
  -- (the API names the field of a refused row after its constraint).
  group_key text constraint products_group_check check (char_length(group_key) between 1 and 200),
  archived boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint products_external_id_key unique (org_id, external_id)
);
comment on table plaudit.products is 'The product catalog: what an organization sells, each product known by the organization''s own external_id.';

-- The list, newest first (the unique key above serves lookups by external_id and the foreign key).
create index products_org_id_created_at on plaudit.products (org_id, created_at desc, id desc);
-- Products of one group (variants) are read together.
create index products_org_id_group_key on plaudit.products (org_id, group_key) where group_key is not null;

create trigger products_touch_updated_at
  before update on plaudit.products
  for each row execute function plaudit.touch_updated_at();

alter table plaudit.products enable row level security;

create policy "Tenants can read their own products"
  on plaudit.products for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can add products to their own catalog"
  on plaudit.products for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can update their own products"
  on plaudit.products for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can delete their own products"
  on plaudit.products for delete to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select, delete on plaudit.products to plaudit_api;
grant insert (org_id, external_id, name, url, image_url, sku, gtin, mpn, brand, group_key, archived)
  on plaudit.products to plaudit_api;
grant update (external_id, name, url, image_url, sku, gtin, mpn, brand, group_key, archived)
  on plaudit.products to plaudit_api;

revoke execute on all functions in schema plaudit from public;
reset role;
