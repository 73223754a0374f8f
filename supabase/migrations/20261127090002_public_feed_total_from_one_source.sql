-- public feed total from one source: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- How many reviews a public feed holds, from the counters (the business's, or the products'
-- given), never by counting; only the has_media filter counts, over an expression that reads
-- nothing until reviews have media.
create or replace function plaudit.public_feed_total(
  p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_has_media boolean
)
returns bigint
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select case
    when p_has_media then (
      select count(*) from plaudit.reviews r
       where r.org_id = p_org_id and not r.is_hidden and r.verification_status in ('verified', 'unverified')
         and (case when p_product_ids is null then r.product_id is null else r.product_id = any (p_product_ids) end)
         and r.rating = any (p_ratings) and plaudit.review_has_public_media(r.id))
    else (
      -- The business's counters, or the products': whichever source the feed is of.
      select coalesce(sum(case when 1 = any (p_ratings) then s.rating_1 else 0 end
                          + case when 2 = any (p_ratings) then s.rating_2 else 0 end
                          + case when 3 = any (p_ratings) then s.rating_3 else 0 end
                          + case when 4 = any (p_ratings) then s.rating_4 else 0 end
                          + case when 5 = any (p_ratings) then s.rating_5 else 0 end), 0)
        from (select b.rating_1, b.rating_2, b.rating_3, b.rating_4, b.rating_5
                from plaudit.review_statistics b
               where p_product_ids is null and b.org_id = p_org_id
              union all
              select p.rating_1, p.rating_2, p.rating_3, p.rating_4, p.rating_5
                from plaudit.product_review_statistics p
               where p.product_id = any (p_product_ids)) s)
  end::bigint
$$;
comment on function plaudit.public_feed_total(uuid,uuid[],integer[],boolean) is 'How many reviews a public feed holds, from the business''s or the products'' counters.';

revoke execute on all functions in schema plaudit from public;
reset role;
