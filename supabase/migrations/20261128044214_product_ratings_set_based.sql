-- product ratings set based: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

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
                    'review_count', f.public_count) order by f.ord)
             from figures f
         )::text, '[]') || '}'
    from plaudit.organizations o
    left join plaudit.public_profiles pp on pp.org_id = o.id
   where o.slug = p_slug and coalesce(pp.enabled, true);
end
$$;
comment on function plaudit.public_product_ratings(text,text[]) is 'The public figures of the products asked for by external id, each over its group, in the order asked.';

revoke execute on all functions in schema plaudit from public;
reset role;
