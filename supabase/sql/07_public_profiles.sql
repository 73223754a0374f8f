-- Public profiles and the public projection: the only data unauthenticated callers ever see.
--
--
-- The functions and views of this concern, each once, as the database has them now.

-- ============================================================================================
-- public projection
-- ============================================================================================
-- What the public may see, and nothing else. plaudit.public_reviews is the public projection of
-- reviews: only reviews that are not hidden and whose status is verified or unverified, and no
-- reviewer e-mail, no custom answers, no provenance. The public functions below take every
-- review column they answer from it (a page's ids come from an index walk with the same filter),
-- and aggregates from plaudit.review_statistics only (never by counting).
-- It runs with its reader's rights (security_invoker): only the public SECURITY DEFINER functions
-- below read it, and they check that the profile is enabled; plaudit_public cannot read it itself.
create or replace view plaudit.public_reviews with (security_barrier = true, security_invoker = true) as
  select r.org_id, r.id, r.rating, r.title, r.content, r.reviewer_name, r.verification_status, r.created_at
  from plaudit.reviews r
  where not r.is_hidden and r.verification_status in ('verified', 'unverified');
comment on view plaudit.public_reviews is 'The public projection of reviews: those not hidden and verified or unverified, without e-mail, custom answers or provenance.';

-- Changes whenever any public answer about the organization may change: its publicly visible
-- reviews (statistics version), its public-profile settings, its name or website. Public
-- responses derive their ETag from it, so revalidating costs this one small query. Null for an
-- unknown slug.
create or replace function plaudit.public_version(p_slug text)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select concat_ws('.',
    coalesce((select sum(s.version) from plaudit.review_statistics s where s.org_id = o.id), 0),
    (extract(epoch from o.updated_at) * 1000000)::bigint,
    coalesce((extract(epoch from p.updated_at) * 1000000)::bigint, 0))
  from plaudit.organizations o
  left join plaudit.public_profiles p on p.org_id = o.id
  where o.slug = p_slug
$$;
comment on function plaudit.public_version(text) is 'The version of everything public about an organization, from which public answers derive their ETags.';

-- The public profile carries the head; its version (public_version's, and the head's entry
-- count) moves with it, so a cached profile or embed answer never keeps an old head past a
-- revalidation. Review pages keep public_version: the head is not on them.
create or replace function plaudit.public_profile_version(p_slug text)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select plaudit.public_version(p_slug) || '.' ||
         coalesce((select h.last_seq from plaudit.moderation_chain_heads h
                    join plaudit.organizations o on o.id = h.org_id where o.slug = p_slug), 0)
$$;
comment on function plaudit.public_profile_version(text) is 'public_version with the moderation chain head''s entry count: the version of profile and embed answers, which carry the head.';

-- The profile and embed settings with the aggregates, for /public/profiles/:slug and
-- /public/embed/:slug. Null for an unknown slug.
create or replace function plaudit.public_profile(p_slug text)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'version', concat_ws('.', s.version, (extract(epoch from o.updated_at) * 1000000)::bigint,
                         coalesce((extract(epoch from p.updated_at) * 1000000)::bigint, 0),
                         coalesce((select h.last_seq from plaudit.moderation_chain_heads h where h.org_id = o.id), 0)),
    'enabled', coalesce(p.enabled, true),
    'slug', o.slug,
    'name', coalesce(p.display_name, o.name),
    'description', p.description,
    'website', coalesce(p.website, o.website),
    'logo_url', p.logo_url,
    'average_rating', case when s.public_count > 0 then round(s.rating_sum::numeric / s.public_count, 2) end,
    'review_count', s.public_count,
    'rating_distribution', json_build_object('1', s.rating_1, '2', s.rating_2, '3', s.rating_3,
                                             '4', s.rating_4, '5', s.rating_5),
    'embed', json_build_object(
      'layout', coalesce(p.embed_layout, 'list'), 'theme', coalesce(p.embed_theme, 'light'),
      'max_reviews', coalesce(p.embed_max_reviews, 10), 'min_rating', coalesce(p.embed_min_rating, 1)),
    'moderation_chain', plaudit.moderation_chain_head(o.id))
  from plaudit.organizations o
  left join plaudit.public_profiles p on p.org_id = o.id
  cross join lateral (
    select coalesce(sum(st.version), 0) as version, coalesce(sum(st.public_count), 0) as public_count,
           coalesce(sum(st.rating_sum), 0) as rating_sum,
           coalesce(sum(st.rating_1), 0) as rating_1, coalesce(sum(st.rating_2), 0) as rating_2,
           coalesce(sum(st.rating_3), 0) as rating_3, coalesce(sum(st.rating_4), 0) as rating_4,
           coalesce(sum(st.rating_5), 0) as rating_5
    from plaudit.review_statistics st where st.org_id = o.id
  ) s
  where o.slug = p_slug
$$;
comment on function plaudit.public_profile(text) is 'A slug''s public profile as JSON: its profile and embed settings, its aggregates and its moderation chain head.';

-- A page of public reviews, newest first, with its total from the statistics, each with its
-- reply or null. p_scope 'embed': the widget's reviews, at or above the embed's min_rating;
-- p_scope 'profile': every public review (the caller answers 404 when `enabled` is false).
-- Null for an unknown slug.
create or replace function plaudit.public_review_page(p_slug text, p_scope text, p_page integer, p_limit integer)
returns json
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  org record;
  st record;
  min_rating integer;
  total bigint;
  items json;
begin
  select o.id, o.updated_at, coalesce(p.enabled, true) as enabled,
         coalesce(p.embed_min_rating, 1) as embed_min_rating, p.updated_at as profile_updated_at
    into org
    from plaudit.organizations o left join plaudit.public_profiles p on p.org_id = o.id
    where o.slug = p_slug;
  if not found then
    return null;
  end if;
  select coalesce(sum(s.version), 0) as version, coalesce(sum(s.rating_1), 0) as r1,
         coalesce(sum(s.rating_2), 0) as r2, coalesce(sum(s.rating_3), 0) as r3,
         coalesce(sum(s.rating_4), 0) as r4, coalesce(sum(s.rating_5), 0) as r5
    into st
    from plaudit.review_statistics s where s.org_id = org.id;
  min_rating := case when p_scope = 'embed' then org.embed_min_rating else 1 end;
  total := case when min_rating <= 1 then st.r1 else 0 end + case when min_rating <= 2 then st.r2 else 0 end
         + case when min_rating <= 3 then st.r3 else 0 end + case when min_rating <= 4 then st.r4 else 0 end
         + st.r5;
  if p_scope = 'profile' and not org.enabled then
    items := '[]';
  else
    select coalesce(json_agg(json_build_object(
             'id', pr.id, 'rating', pr.rating, 'title', pr.title, 'content', pr.content,
             'reviewer_name', pr.reviewer_name, 'verification_status', pr.verification_status,
             'reply', case when rr.review_id is null then null else json_build_object(
               'content', rr.content,
               'created_at', to_char(rr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'updated_at', to_char(rr.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) end,
             'created_at', to_char(pr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
             order by pr.created_at desc, pr.id desc), '[]')
      into items
      from plaudit.public_reviews pr
      left join plaudit.review_replies rr on rr.review_id = pr.id
      where pr.id = any (array(
        -- The page's ids: an index-only walk of reviews_public_feed (the same filter as the
        -- projection). Only ids leave it; every output column comes from the projection.
        select r.id from plaudit.reviews r
        where r.org_id = org.id and not r.is_hidden and r.verification_status in ('verified', 'unverified')
          and r.rating >= min_rating
        order by r.created_at desc, r.id desc
        limit p_limit offset (p_page - 1)::bigint * p_limit));
  end if;
  return json_build_object(
    'version', concat_ws('.', st.version, (extract(epoch from org.updated_at) * 1000000)::bigint,
                         coalesce((extract(epoch from org.profile_updated_at) * 1000000)::bigint, 0)),
    'enabled', org.enabled,
    'total', total,
    'items', items);
end
$$;
comment on function plaudit.public_review_page(text,text,integer,integer) is 'A page of a slug''s public reviews or its widget''s, newest first, with replies, and the total from the statistics.';

-- ============================================================================================
-- profile pages, sitemap, widget and brand
-- ============================================================================================
-- A page of an enabled profile's public reviews, newest first, optionally of one rating only,
-- with how each verified review was verified (e-mail, purchase proof, manual approval): the page
-- shows it as the badge's words. Its total comes from the statistics, never from counting. Null
-- for an unknown slug or a profile that is switched off.
create or replace function plaudit.public_profile_reviews(p_slug text, p_rating integer, p_page integer, p_limit integer)
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
           'reply', case when rr.review_id is null then null else json_build_object(
               'content', rr.content,
               'created_at', to_char(rr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'updated_at', to_char(rr.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) end,
             'created_at', to_char(pr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           order by pr.created_at desc, pr.id desc), '[]')
    into items
    from plaudit.public_reviews pr
      left join plaudit.review_replies rr on rr.review_id = pr.id
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
comment on function plaudit.public_profile_reviews(text,integer,integer,integer) is 'A page of an enabled profile''s public reviews, newest first, of one rating or all, with how each was verified.';

-- The enabled profiles, by slug, a page at a time (a sitemap holds at most 50,000 addresses),
-- with when each last changed as far as its page's settings go.
create or replace function plaudit.public_sitemap(p_page integer, p_limit integer)
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
comment on function plaudit.public_sitemap(integer,integer) is 'The enabled profiles by slug, a page at a time, with when each profile page last changed.';

-- The widget's first reviews, with how each verified one was verified, so that its badge can
-- say it: at most the embed's max_reviews public reviews rated at least its min_rating, newest
-- first. It reads the settings itself, so that it runs beside the profile's query, not after it.
-- Null for an unknown slug; an empty list for a profile that is switched off.
create or replace function plaudit.public_embed_reviews(p_slug text)
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
             'reply', case when rr.review_id is null then null else json_build_object(
               'content', rr.content,
               'created_at', to_char(rr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'updated_at', to_char(rr.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) end,
             'created_at', to_char(pr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
             order by pr.created_at desc, pr.id desc), '[]')
      from plaudit.public_reviews pr
      left join plaudit.review_replies rr on rr.review_id = pr.id
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
comment on function plaudit.public_embed_reviews(text) is 'The widget''s reviews: the newest public reviews at or above its min_rating, up to its max_reviews, each with how it was verified.';

-- The name a business shows its customers.
create or replace function plaudit.brand_name(p_org_id uuid)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(nullif(btrim(p.display_name), ''), o.name)
    from plaudit.organizations o left join plaudit.public_profiles p on p.org_id = o.id
   where o.id = p_org_id
$$;
comment on function plaudit.brand_name(uuid) is 'The name a business shows its customers: its public display name, else its organization''s name.';
