-- The product pages' own read: a business's public catalog, a page at a time, for
-- /p/:slug/products. A product's page itself reads the public product functions
-- (15_public_products.sql); which products are listed is plaudit.public_listed_products.

-- A page of an enabled profile's listed products by name, each with its public figures over its
-- group (as its page and the widget's stars show them), with the total and the organization's
-- public version. Null for an unknown slug or a switched-off profile.
create or replace function plaudit.public_product_catalog(p_slug text, p_page integer, p_limit integer)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'version', plaudit.public_version(p_slug),
    'total', (select count(*) from plaudit.public_listed_products(o.id)),
    'items', coalesce((
      select json_agg(json_build_object(
               'external_id', l.external_id,
               'name', l.name,
               'image_url', l.image_url,
               'archived', l.archived,
               'average_rating', case when st.public_count > 0 then round(st.rating_sum::numeric / st.public_count, 2) end,
               'review_count', st.public_count) order by l.name, l.id)
        from (select * from plaudit.public_listed_products(o.id) lp
               order by lp.name, lp.id
               limit p_limit offset (p_page - 1)::bigint * p_limit) l
        cross join lateral plaudit.product_group_statistics(plaudit.product_group_ids(o.id, l.id, l.group_key)) st
    ), '[]'))
    from plaudit.organizations o
    left join plaudit.public_profiles pp on pp.org_id = o.id
   where o.slug = p_slug and coalesce(pp.enabled, true)
$$;
comment on function plaudit.public_product_catalog(text,integer,integer) is 'A page of an enabled profile''s listed products by name, each with its public figures over its group, with the total.';
grant execute on function plaudit.public_product_catalog(text,integer,integer) to plaudit_public;
