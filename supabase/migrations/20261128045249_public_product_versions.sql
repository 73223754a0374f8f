-- public product versions: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- The version of an answer that shows one product: the organization's (its public_version, or its
-- public_profile_version for a page that carries the profile) and `~<product id>`, so that the
-- answer's cache keys name the product (`product-<id>`) beside its organization, on a 304 too.
-- The organization's alone when it has no such product; null for an unknown slug.
create or replace function plaudit.public_product_version(p_slug text, p_external_id text, p_profile boolean)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select case when p_profile then plaudit.public_profile_version(p_slug) else plaudit.public_version(p_slug) end
         || coalesce('~' || (select p.id::text from plaudit.organizations o
                               join plaudit.products p on p.org_id = o.id and p.external_id = p_external_id
                              where o.slug = p_slug), '')
$$;
comment on function plaudit.public_product_version(text,text,boolean) is 'The version of an answer showing one product: the organization''s, and ~ the product''s id, which names its cache key.';

-- The version of a product's public answers (public_product_version), for ETags, read as plaudit_public.
create or replace function plaudit.public_read_product_version(p_slug text, p_external_id text)
returns text
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
begin
  perform set_config('role', 'plaudit_public', true);
  return plaudit.public_product_version(p_slug, p_external_id, false);
end
$$;
comment on function plaudit.public_read_product_version(text,text) is 'The version of a product''s public answers, for ETags, read as plaudit_public.';

-- GET /public/products/:slug/:externalId, and what the product's JSON-LD needs besides: the
-- product's public fields and its group's figures, with the version of answers that show it.
create or replace function plaudit.public_product(p_slug text, p_external_id text)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'version', plaudit.public_version(p_slug) || '~' || (x.product).id,
    'external_id', (x.product).external_id,
    'name', (x.product).name,
    'url', (x.product).url,
    'image_url', (x.product).image_url,
    'sku', (x.product).sku,
    'gtin', (x.product).gtin,
    'mpn', (x.product).mpn,
    'brand', (x.product).brand,
    'average_rating', case when st.public_count > 0 then round(st.rating_sum::numeric / st.public_count, 2) end,
    'review_count', st.public_count,
    'rating_distribution', json_build_object('1', st.rating_1, '2', st.rating_2, '3', st.rating_3,
                                             '4', st.rating_4, '5', st.rating_5))
    from plaudit.public_product_of(p_slug, p_external_id) x
    cross join lateral plaudit.product_group_statistics(x.group_ids) st
$$;
comment on function plaudit.public_product(text,text) is 'A product''s public summary over its group, with its fields and the version of answers showing it; null when not found.';

-- A page of a product's public reviews (over its group), sorted and filtered as the business's
-- lists are (public_feed_page_ids), in the pagination envelope, with the version of answers that
-- show the product (public_product_version). No row when not found.
create or replace function plaudit.public_product_reviews(
  p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer,
  p_has_media boolean
)
returns table (version text, body text)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select plaudit.public_version(p_slug) || '~' || (x.product).id,
         '{"data":' || plaudit.public_review_items(plaudit.public_feed_page_ids(
           x.org_id, x.group_ids, plaudit.public_feed_ratings(1, p_rating), p_sort, p_has_media,
           (p_page - 1)::bigint * p_limit, p_limit))
         || ',"meta":' || plaudit.page_meta(
           plaudit.public_feed_total(x.org_id, x.group_ids, plaudit.public_feed_ratings(1, p_rating), p_has_media),
           p_page, p_limit) || '}'
    from plaudit.public_product_of(p_slug, p_external_id) x
$$;
comment on function plaudit.public_product_reviews(text,text,integer,integer,text,integer,boolean) is 'A page of a product''s public reviews over its group, sorted and filtered, in the pagination envelope.';

grant execute on function plaudit.public_product_version(text, text, boolean) to plaudit_public;
grant execute on function plaudit.public_read_product_version(text, text) to plaudit_authenticator;

revoke execute on all functions in schema plaudit from public;
reset role;
