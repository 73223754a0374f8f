-- The product catalog: what a business sells, each product known by the business's own id
-- (external_id), so that a shop can sync its catalog again and again without keeping ours.
-- Reviews of products come with the next slice; the catalog stands on its own first.

-- A GTIN (EAN-8, UPC-A, EAN-13, GTIN-14) is 8, 12, 13 or 14 digits whose last is the check digit:
-- weighting the digits 3, 1, 3, … from the right (the check digit itself weighs 1), the sum is a
-- multiple of 10. Checked here so that a typo never reaches Google's feeds.
create or replace function plaudit.gtin_is_valid(p_gtin text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select case
    when p_gtin !~ '^([0-9]{8}|[0-9]{12,14})$' then false
    else (select sum(substr(p_gtin, length(p_gtin) + 1 - i, 1)::integer * case when i % 2 = 0 then 3 else 1 end)
            from generate_series(1, length(p_gtin)) i) % 10 = 0
  end
$$;
comment on function plaudit.gtin_is_valid(text) is 'True when the text is a GTIN of 8, 12, 13 or 14 digits whose check digit is right.';
grant execute on function plaudit.gtin_is_valid(text) to plaudit_api;

-- Syncing a catalog, up to 1,000 products in one round trip, matched by external_id: a new
-- external_id adds a product, a known one updates the fields the row gives (fields left out stay
-- as they are), and a row that changes nothing is counted `unchanged` and leaves updated_at alone,
-- so the same call twice changes nothing the second time. A row whose GTIN's check digit is wrong
-- or that repeats an earlier row's external_id is refused by its index; the others land. The
-- caller (the API) has validated shapes, lengths and formats already.
--
-- p_rows: [{"index", "external_id", "name", "url"?, "image_url"?, "sku"?, "gtin"?, "mpn"?, "brand"?,
--           "group"?, "archived"?}]
-- SECURITY INVOKER: it runs as plaudit_api, bound by the table's row-level security; the tenant is
-- the transaction's (plaudit.current_org_id()), never a parameter.
create or replace function plaudit.upsert_products(p_rows jsonb)
returns table (idx integer, outcome text, error text)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
  tenant uuid := plaudit.current_org_id();
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;

  return query
  with input as (
    select (r ->> 'index')::integer as idx, r, r ->> 'external_id' as external_id,
           min((r ->> 'index')::integer) over (partition by r ->> 'external_id') as first_idx
      from jsonb_array_elements(p_rows) r
  ), merged as (
    -- What each row makes of the product: its fields over the stored ones.
    select i.idx, i.first_idx, i.external_id, i.r ->> 'gtin' as given_gtin, p as stored,
           case when i.r ? 'name' then i.r ->> 'name' else p.name end as name,
           case when i.r ? 'url' then i.r ->> 'url' else p.url end as url,
           case when i.r ? 'image_url' then i.r ->> 'image_url' else p.image_url end as image_url,
           case when i.r ? 'sku' then i.r ->> 'sku' else p.sku end as sku,
           case when i.r ? 'gtin' then i.r ->> 'gtin' else p.gtin end as gtin,
           case when i.r ? 'mpn' then i.r ->> 'mpn' else p.mpn end as mpn,
           case when i.r ? 'brand' then i.r ->> 'brand' else p.brand end as brand,
           case when i.r ? 'group' then i.r ->> 'group' else p.group_key end as group_key,
           coalesce(case when i.r ? 'archived' then (i.r ->> 'archived')::boolean else p.archived end, false)
             as archived
      from input i
      left join plaudit.products p on p.org_id = tenant and p.external_id = i.external_id
  ), checked as (
    -- Each row with the first reason it is refused, and whether it changes the stored product.
    select m.*, (m.stored).id as existing_id,
           case
             when m.first_idx <> m.idx then 'external_id: repeats the external_id of row ' || m.first_idx
             when not coalesce(plaudit.gtin_is_valid(m.given_gtin), true) then
               'gtin: must be 8, 12, 13 or 14 digits with a valid check digit'
           end as error,
           (m.stored).id is not null
             and (m.name, m.url, m.image_url, m.sku, m.gtin, m.mpn, m.brand, m.group_key, m.archived)
                 is not distinct from
                 ((m.stored).name, (m.stored).url, (m.stored).image_url, (m.stored).sku, (m.stored).gtin,
                  (m.stored).mpn, (m.stored).brand, (m.stored).group_key, (m.stored).archived) as same
      from merged m
  ), updated as (
    update plaudit.products p
       set name = c.name, url = c.url, image_url = c.image_url, sku = c.sku, gtin = c.gtin, mpn = c.mpn,
           brand = c.brand, group_key = c.group_key, archived = c.archived
      from checked c
     where c.error is null and not c.same and p.id = c.existing_id
    returning c.idx
  ), inserted as (
    -- A concurrent call may have added an external_id since: that row is reported, not inserted.
    insert into plaudit.products as p
      (org_id, external_id, name, url, image_url, sku, gtin, mpn, brand, group_key, archived)
    select tenant, c.external_id, c.name, c.url, c.image_url, c.sku, c.gtin, c.mpn, c.brand, c.group_key, c.archived
      from checked c
     where c.error is null and c.existing_id is null
     order by c.idx
    on conflict (org_id, external_id) do nothing
    returning p.external_id
  )
  select c.idx,
         case
           when c.error is not null then null
           when c.existing_id is null then
             case when exists (select from inserted n where n.external_id = c.external_id) then 'created' end
           when c.same then 'unchanged'
           else 'updated'
         end,
         coalesce(c.error, case
           when c.existing_id is null and not exists (select from inserted n where n.external_id = c.external_id)
             then 'external_id: a product with this external_id was added at the same time; send the row again'
         end)
    from checked c
   order by c.idx;
end
$$;
comment on function plaudit.upsert_products(jsonb) is 'Adds or updates up to 1,000 products of the transaction''s tenant by external_id; answers each row''s outcome (created, updated, unchanged) or why it was refused.';
grant execute on function plaudit.upsert_products(jsonb) to plaudit_api;

-- =====================================================================================

-- counters of products' reviews
-- ============================================================================================
-- Adds signed deltas to products' public counters, in product order (so that two statements
-- cannot deadlock). Called by the reviews' counting triggers (05), beside the business's.
create or replace function plaudit.add_product_review_statistics(p_deltas jsonb)
returns void
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  insert into plaudit.product_review_statistics as s
    (product_id, org_id, public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5)
  select d.product_id, d.org_id, d.public_count, d.rating_sum, d.rating_1, d.rating_2, d.rating_3, d.rating_4, d.rating_5
  from jsonb_to_recordset(p_deltas) as d(
    product_id uuid, org_id uuid, public_count bigint, rating_sum bigint, rating_1 bigint,
    rating_2 bigint, rating_3 bigint, rating_4 bigint, rating_5 bigint)
  order by d.product_id
  on conflict (product_id) do update set
    public_count = s.public_count + excluded.public_count,
    rating_sum = s.rating_sum + excluded.rating_sum,
    rating_1 = s.rating_1 + excluded.rating_1,
    rating_2 = s.rating_2 + excluded.rating_2,
    rating_3 = s.rating_3 + excluded.rating_3,
    rating_4 = s.rating_4 + excluded.rating_4,
    rating_5 = s.rating_5 + excluded.rating_5,
    updated_at = now();
end
$$;
comment on function plaudit.add_product_review_statistics(jsonb) is 'Adds signed deltas to products'' public review counters, in product order.';

-- Recounts an organization's product counters from its reviews (after a bulk load with triggers
-- disabled, or to check them): one row per product with published reviews.
create or replace function plaudit.rebuild_product_review_statistics(p_org_id uuid)
returns void
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  perform 1 from plaudit.organizations where id = p_org_id for update;
  delete from plaudit.product_review_statistics where org_id = p_org_id;
  insert into plaudit.product_review_statistics
    (product_id, org_id, public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5)
  select r.product_id, p_org_id, count(*), sum(r.rating),
         count(*) filter (where r.rating = 1), count(*) filter (where r.rating = 2),
         count(*) filter (where r.rating = 3), count(*) filter (where r.rating = 4),
         count(*) filter (where r.rating = 5)
  from plaudit.reviews r
  where r.org_id = p_org_id and r.product_id is not null
    and plaudit.review_is_public(r.is_hidden, r.verification_status)
  group by r.product_id;
end
$$;
comment on function plaudit.rebuild_product_review_statistics(uuid) is 'Recounts an organization''s product review counters from its published reviews.';

-- A product changed, came or went: public answers show products, so the organization's public
-- version (and with it every public ETag) moves, one write per organization and statement.
create or replace function plaudit.products_signal_changes()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  deltas jsonb;
begin
  -- Each operation has its own transition table: a statement reads only the one it has.
  if tg_op = 'DELETE' then
    select jsonb_agg(plaudit.public_version_delta(c.org_id)) into deltas
      from (select distinct o.org_id from old_products o) c;
  else
    select jsonb_agg(plaudit.public_version_delta(c.org_id)) into deltas
      from (select distinct n.org_id from new_products n) c;
  end if;
  if deltas is not null then
    perform plaudit.add_review_statistics(deltas);
  end if;
  return null;
end
$$;
comment on function plaudit.products_signal_changes() is 'Every statement that adds, changes or deletes products moves their organizations'' public version.';

-- The product a hosted form is asked to review (/forms/:formId?product=<external_id>): the form's
-- organization's product with this external id, archived or not (the page says which), while the
-- form takes reviews. For the public role: the form's link is public, and so are a product's name
-- and image on the pages that show its reviews.
create or replace function plaudit.public_form_product(p_form_id uuid, p_external_id text)
returns table (external_id text, name text, image_url text, archived boolean)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select p.external_id, p.name, p.image_url, p.archived
    from plaudit.review_forms f
    join plaudit.products p on p.org_id = f.org_id and p.external_id = p_external_id
   where f.id = p_form_id and f.deleted_at is null and f.is_active
$$;
comment on function plaudit.public_form_product(uuid,text) is 'The product of a hosted form''s organization with this external id (archived or not), while the form takes reviews.';
grant execute on function plaudit.public_form_product(uuid,text) to plaudit_public;

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger products_signal_changes_delete
  after delete on plaudit.products referencing old table as old_products
  for each statement execute function plaudit.products_signal_changes();

-- Public answers show products: their changes move the organization's public version.
create trigger products_signal_changes_insert
  after insert on plaudit.products referencing new table as new_products
  for each statement execute function plaudit.products_signal_changes();

create trigger products_signal_changes_update
  after update on plaudit.products referencing new table as new_products
  for each statement execute function plaudit.products_signal_changes();

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own products' review statistics"
  on plaudit.product_review_statistics for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

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

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.product_review_statistics to plaudit_api;
grant select, delete on plaudit.products to plaudit_api;
grant insert (org_id, external_id, name, url, image_url, sku, gtin, mpn, brand, group_key, archived) on plaudit.products to plaudit_api;
grant update (external_id, name, url, image_url, sku, gtin, mpn, brand, group_key, archived) on plaudit.products to plaudit_api;
