-- Public reads of products: a product's summary, its reviews, the ratings of many products at
-- once, by the business's slug and the product's external id. A product with a `group` shows its
-- whole group's reviews (all products sharing the group, archived included: their reviews
-- remain); one without shows its own. Archived products are still shown: their reviews remain.
-- Counts come from plaudit.product_review_statistics, never from counting. Like the other public
-- functions: SECURITY DEFINER with a fixed search_path, called as plaudit_public, null (no
-- product) for an unknown slug, a switched-off profile or an unknown external id.

-- The products whose reviews a product shows: its group's, or itself when it has none.
create or replace function plaudit.product_group_ids(p_org_id uuid, p_product_id uuid, p_group_key text)
returns uuid[]
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select case when p_group_key is null then array[p_product_id]
              else array(select g.id from plaudit.products g where g.org_id = p_org_id and g.group_key = p_group_key)
         end
$$;
comment on function plaudit.product_group_ids(uuid,uuid,text) is 'The products whose reviews a product shows in public: its group''s, or itself.';

-- The summed public counters of products: count, sum and the five per-rating counts.
create or replace function plaudit.product_group_statistics(
  p_product_ids uuid[],
  out public_count bigint, out rating_sum bigint,
  out rating_1 bigint, out rating_2 bigint, out rating_3 bigint, out rating_4 bigint, out rating_5 bigint
)
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(sum(s.public_count), 0), coalesce(sum(s.rating_sum), 0),
         coalesce(sum(s.rating_1), 0), coalesce(sum(s.rating_2), 0), coalesce(sum(s.rating_3), 0),
         coalesce(sum(s.rating_4), 0), coalesce(sum(s.rating_5), 0)
    from plaudit.product_review_statistics s where s.product_id = any (p_product_ids)
$$;
comment on function plaudit.product_group_statistics(uuid[]) is 'The summed public review counters of the products given.';

-- A product of an enabled profile by slug and external id, with its group's ids; no row when
-- the slug, the profile or the product is not there.
create or replace function plaudit.public_product_of(p_slug text, p_external_id text)
returns table (org_id uuid, product plaudit.products, group_ids uuid[])
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select o.id, p, plaudit.product_group_ids(o.id, p.id, p.group_key)
    from plaudit.organizations o
    left join plaudit.public_profiles pp on pp.org_id = o.id
    join plaudit.products p on p.org_id = o.id and p.external_id = p_external_id
   where o.slug = p_slug and coalesce(pp.enabled, true)
$$;
comment on function plaudit.public_product_of(text,text) is 'A product of an enabled public profile by slug and external id, with the ids of its group.';

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
grant execute on function plaudit.public_product_version(text,text,boolean) to plaudit_public;

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
grant execute on function plaudit.public_read_product_version(text,text) to plaudit_authenticator;

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
                                             '4', st.rating_4, '5', st.rating_5),
    'group', (x.product).group_key,
    'checking_recent_reviews', plaudit.subject_under_check((x.product).org_id, (x.product).id),
    -- A group's products, for its ProductGroup JSON-LD (each variant's own identifiers).
    'variants', case when (x.product).group_key is not null then (
      select json_agg(json_build_object('external_id', g.external_id, 'name', g.name, 'url', g.url,
                                        'image_url', g.image_url, 'sku', g.sku, 'gtin', g.gtin, 'mpn', g.mpn)
                      order by g.external_id)
        from plaudit.products g where g.id = any (x.group_ids)) end,
    'attributes', plaudit.attribute_summary(x.org_id, x.group_ids))
    from plaudit.public_product_of(p_slug, p_external_id) x
    cross join lateral plaudit.product_group_statistics(x.group_ids) st
$$;
comment on function plaudit.public_product(text,text) is 'A product''s public summary over its group, with its fields, its group and the group''s products (variants), its answers'' summary, and the version of answers showing it; null when not found.';
grant execute on function plaudit.public_product(text,text) to plaudit_public;

-- GET /public/products/:slug/:externalId/reviews as the response body (the pagination envelope
-- of public review items over the product's group), read as plaudit_public, with its version;
-- no body when not found.
create or replace function plaudit.public_read_product_reviews(
  p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer,
  p_has_media boolean, p_language text default null, p_reader_language text default null,
  p_attributes jsonb default null, out version text, out body text
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
begin
  perform set_config('role', 'plaudit_public', true);
  select p.version, p.body into version, body from plaudit.public_product_reviews(
    p_slug, p_external_id, p_page, p_limit, p_sort, p_rating, p_has_media, p_language, p_reader_language,
    p_attributes) p;
end
$$;
comment on function plaudit.public_read_product_reviews(text,text,integer,integer,text,integer,boolean,text,text,jsonb) is 'A page of a product''s public reviews as the response body, with its version, read as plaudit_public.';
grant execute on function plaudit.public_read_product_reviews(text,text,integer,integer,text,integer,boolean,text,text,jsonb) to plaudit_authenticator;

-- A page of a product's public reviews (over its group), sorted and filtered as the business's
-- lists are (public_feed_page_ids), in the pagination envelope, with the version of answers that
-- show the product (public_product_version). No row when not found.
create or replace function plaudit.public_product_reviews(
  p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer,
  p_has_media boolean, p_language text default null, p_reader_language text default null,
  p_attributes jsonb default null
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
           (p_page - 1)::bigint * p_limit, p_limit, p_language, p_reader_language, p_attributes))
         || ',"meta":' || plaudit.page_meta(
           plaudit.public_feed_total(x.org_id, x.group_ids, plaudit.public_feed_ratings(1, p_rating), p_has_media,
                                     p_language, p_attributes),
           p_page, p_limit) || '}'
    from plaudit.public_product_of(p_slug, p_external_id) x
$$;
comment on function plaudit.public_product_reviews(text,text,integer,integer,text,integer,boolean,text,text,jsonb) is 'A page of a product''s public reviews over its group, sorted and filtered, in the pagination envelope.';
grant execute on function plaudit.public_product_reviews(text,text,integer,integer,text,integer,boolean,text,text,jsonb) to plaudit_public;

-- GET /public/products/:slug/ratings?ids=…: each known product's figures over its group, in the
-- order asked (an id asked twice answers once, where first asked), unknown ids left out, in one
-- statement. Null for an unknown slug or a switched-off profile. Set-based (the asked products,
-- their groups' members, their counters, summed once): two function calls per product cost a
-- category page of 100 products four times one product's summary. A product without a group
-- and one with a group take separate arms of a UNION ALL, so each arm walks its own index (an OR
-- in one join walks neither). PL/pgSQL, so that each connection plans the statement once: as a
-- SQL function it was planned at every call, which cost as much as running it.
create or replace function plaudit.public_product_ratings(p_slug text, p_external_ids text[])
returns table (version text, body text)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  return query
  select plaudit.public_version(p_slug),
         '{"data":' || coalesce((
           with asked as (
             select e.external_id, min(e.ord) as ord
               from unnest(p_external_ids) with ordinality e(external_id, ord) group by e.external_id
           ), products as (
             select a.ord, p.id, p.external_id, p.group_key
               from asked a join plaudit.products p on p.org_id = o.id and p.external_id = a.external_id
           ), members as (
             select x.ord, x.external_id, x.id as member_id from products x where x.group_key is null
             union all
             select x.ord, x.external_id, m.id
               from products x join plaudit.products m on m.org_id = o.id and m.group_key = x.group_key
              where x.group_key is not null
           ), figures as (
             select m.ord, m.external_id, coalesce(sum(s.public_count), 0) as public_count,
                    coalesce(sum(s.rating_sum), 0) as rating_sum
               from members m left join plaudit.product_review_statistics s on s.product_id = m.member_id
              group by m.ord, m.external_id
           )
           select json_agg(json_build_object(
                    'external_id', f.external_id,
                    'average_rating', case when f.public_count > 0 then round(f.rating_sum::numeric / f.public_count, 2) end,
                    'review_count', f.public_count,
                    -- The Universal Commerce Protocol's Rating, for agents (routes/public/shared.ts, UcpRating).
                    'rating', case when f.public_count > 0 then json_build_object(
                      'value', round(f.rating_sum::numeric / f.public_count, 2), 'scale_min', 1, 'scale_max', 5,
                      'count', f.public_count) end) order by f.ord)
             from figures f
         )::text, '[]') || '}'
    from plaudit.organizations o
    left join plaudit.public_profiles pp on pp.org_id = o.id
   where o.slug = p_slug and coalesce(pp.enabled, true);
end
$$;
comment on function plaudit.public_product_ratings(text,text[]) is 'The public figures of the products asked for by external id, each over its group, in the order asked.';
grant execute on function plaudit.public_product_ratings(text,text[]) to plaudit_public;
