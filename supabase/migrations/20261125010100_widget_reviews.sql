-- The widget's first reviews, with how each verified one was verified, so that its badge can
-- say it: at most the embed's max_reviews public reviews rated at least its min_rating, newest
-- first. It reads the settings itself, so that it runs beside the profile's query, not after it.
-- Null for an unknown slug; an empty list for a profile that is switched off.
set role plaudit_owner;

create function plaudit.public_embed_reviews(p_slug text)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select case when o.id is null then null
              when not coalesce(p.enabled, true) then '[]'::json
              else (
    select coalesce(json_agg(json_build_object(
             'id', pr.id, 'rating', pr.rating, 'title', pr.title, 'content', pr.content,
             'reviewer_name', pr.reviewer_name, 'verification_status', pr.verification_status,
             'verification_method', case when pr.verification_status = 'verified' then r.verification_method end,
             'created_at', to_char(pr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
             order by pr.created_at desc, pr.id desc), '[]')
      from plaudit.public_reviews pr
      join plaudit.reviews r on r.id = pr.id
     where pr.id = any (array(
       select x.id from plaudit.reviews x
        where x.org_id = o.id and not x.is_hidden and x.verification_status in ('verified', 'unverified')
          and x.rating >= coalesce(p.embed_min_rating, 1)
        order by x.created_at desc, x.id desc
        limit coalesce(p.embed_max_reviews, 10))))
         end
    from (select 1) one
    left join plaudit.organizations o on o.slug = p_slug
    left join plaudit.public_profiles p on p.org_id = o.id
$$;

revoke execute on all functions in schema plaudit from public;
grant execute on function plaudit.public_embed_reviews(text) to plaudit_public;

reset role;
