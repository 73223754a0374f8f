-- The public profile page (/p/:slug) and the sitemap that lists every such page.
--
-- Sections: profile page reviews · sitemap.

-- ============================================================================================
-- profile page reviews
-- ============================================================================================
set role plaudit_owner;

-- A page of an enabled profile's public reviews, newest first, optionally of one rating only,
-- with how each verified review was verified (e-mail, purchase proof, manual approval): the page
-- shows it as the badge's words. Its total comes from the statistics, never from counting. Null
-- for an unknown slug or a profile that is switched off.
create function plaudit.public_profile_reviews(p_slug text, p_rating integer, p_page integer, p_limit integer)
returns json
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  org record;
  st record;
  total bigint;
  items json;
begin
  select o.id, coalesce(p.enabled, true) as enabled
    into org
    from plaudit.organizations o left join plaudit.public_profiles p on p.org_id = o.id
   where o.slug = p_slug;
  if not found or not org.enabled then
    return null;
  end if;
  select coalesce(sum(s.public_count), 0) as n, coalesce(sum(s.rating_1), 0) as r1, coalesce(sum(s.rating_2), 0) as r2,
         coalesce(sum(s.rating_3), 0) as r3, coalesce(sum(s.rating_4), 0) as r4, coalesce(sum(s.rating_5), 0) as r5
    into st
    from plaudit.review_statistics s where s.org_id = org.id;
  total := case p_rating when 1 then st.r1 when 2 then st.r2 when 3 then st.r3 when 4 then st.r4 when 5 then st.r5
                         else st.n end;
  select coalesce(json_agg(json_build_object(
           'id', pr.id, 'rating', pr.rating, 'title', pr.title, 'content', pr.content,
           'reviewer_name', pr.reviewer_name, 'verification_status', pr.verification_status,
           'verification_method', case when pr.verification_status = 'verified' then r.verification_method end,
           'created_at', to_char(pr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           order by pr.created_at desc, pr.id desc), '[]')
    into items
    from plaudit.public_reviews pr
    join plaudit.reviews r on r.id = pr.id
   where pr.id = any (array(
     -- The page's ids: a walk of reviews_public_feed (the projection's filter).
     select x.id from plaudit.reviews x
      where x.org_id = org.id and not x.is_hidden and x.verification_status in ('verified', 'unverified')
        and (p_rating is null or x.rating = p_rating)
      order by x.created_at desc, x.id desc
      limit p_limit offset (p_page - 1)::bigint * p_limit));
  return json_build_object('total', total, 'items', items);
end
$$;

-- ============================================================================================
-- sitemap
-- ============================================================================================
-- The enabled profiles, by slug, a page at a time (a sitemap holds at most 50,000 addresses),
-- with when each last changed as far as its page's settings go.
create function plaudit.public_sitemap(p_page integer, p_limit integer)
returns table (slug text, updated_at timestamptz, total bigint)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select o.slug, greatest(o.updated_at, p.updated_at), count(*) over ()
    from plaudit.organizations o
    left join plaudit.public_profiles p on p.org_id = o.id
   where coalesce(p.enabled, true)
   order by o.slug
   limit p_limit offset (p_page - 1)::bigint * p_limit
$$;

revoke execute on all functions in schema plaudit from public;
grant execute on function plaudit.public_profile_reviews(text, integer, integer, integer),
  plaudit.public_sitemap(integer, integer) to plaudit_public;

reset role;
