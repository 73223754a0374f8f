-- public product pages: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- The products a business's public pages list (its catalog page and the sitemap): those it sells,
-- and those it no longer sells (archived) that have public reviews of their own, whose pages stay
-- worth finding. An archived product without reviews is left out (its page still answers).
create or replace function plaudit.public_listed_products(p_org_id uuid)
returns setof plaudit.products
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select p.* from plaudit.products p
   where p.org_id = p_org_id
     and (not p.archived or exists (select from plaudit.product_review_statistics s
                                     where s.product_id = p.id and s.public_count > 0))
$$;
comment on function plaudit.public_listed_products(uuid) is 'The products public pages list: those not archived, and archived ones with public reviews of their own.';

drop function plaudit.public_sitemap(integer,integer);
-- Every page of the enabled profiles for the sitemap, a page at a time (a sitemap holds at most
-- 50,000 addresses): each profile page (external_id null, catalog false), the catalog page of a
-- profile that lists products (catalog true), and each listed product's page, by slug, with when
-- each last changed as far as its settings go.
create or replace function plaudit.public_sitemap(p_page integer, p_limit integer)
returns table (slug text, catalog boolean, external_id text, updated_at timestamptz, total bigint)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  with profiles as (
    select o.id, o.slug, greatest(o.updated_at, p.updated_at) as updated_at
      from plaudit.organizations o
      left join plaudit.public_profiles p on p.org_id = o.id
     where coalesce(p.enabled, true)
  ), pages as (
    select f.slug, false as catalog, null::text as external_id, f.updated_at from profiles f
    union all
    select f.slug, true, null, max(l.updated_at)
      from profiles f cross join lateral plaudit.public_listed_products(f.id) l group by f.slug
    union all
    select f.slug, false, l.external_id, l.updated_at
      from profiles f cross join lateral plaudit.public_listed_products(f.id) l
  )
  select g.slug, g.catalog, g.external_id, g.updated_at, count(*) over ()
    from pages g
   order by g.slug, g.external_id is not null, g.catalog, g.external_id
   limit p_limit offset (p_page - 1)::bigint * p_limit
$$;
comment on function plaudit.public_sitemap(integer,integer) is 'Every public page of the enabled profiles (profile, catalog, products) by slug, a page at a time, with when each last changed.';
grant execute on function plaudit.public_sitemap(integer,integer) to plaudit_public;

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

grant execute on function plaudit.public_product_catalog(text, integer, integer) to plaudit_public;

revoke execute on all functions in schema plaudit from public;
reset role;
