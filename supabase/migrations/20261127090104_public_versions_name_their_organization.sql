-- public versions name their organization: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- Changes whenever any public answer about the organization may change: its publicly visible
-- reviews (statistics version), its public-profile settings, its name or website. Public
-- responses derive their ETag from it, so revalidating costs this one small query. It begins
-- with the organization's id, which names the answer's cache keys (`org-<id>`) even on a 304.
-- Null for an unknown slug.
create or replace function plaudit.public_version(p_slug text)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select concat_ws('.', o.id,
    coalesce((select sum(s.version) from plaudit.review_statistics s where s.org_id = o.id), 0),
    (extract(epoch from o.updated_at) * 1000000)::bigint,
    coalesce((extract(epoch from p.updated_at) * 1000000)::bigint, 0))
  from plaudit.organizations o
  left join plaudit.public_profiles p on p.org_id = o.id
  where o.slug = p_slug
$$;
comment on function plaudit.public_version(text) is 'The version of everything public about an organization, from which public answers derive their ETags.';

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
    'version', concat_ws('.', o.id, s.version, (extract(epoch from o.updated_at) * 1000000)::bigint,
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

-- A page of the business's public reviews (reviews of products are the products' own), in one of
-- the feed's orders (public_feed_page_ids), of one rating or all, with media only on request,
-- each with its reply, and its total from the statistics. p_scope 'embed': the widget's reviews,
-- at or above the embed's min_rating; p_scope 'profile': every public review (the caller answers
-- 404 when `enabled` is false). Null for an unknown slug.
create or replace function plaudit.public_review_page(
  p_slug text, p_scope text, p_page integer, p_limit integer,
  p_sort text default 'newest', p_rating integer default null, p_has_media boolean default false
)
returns json
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  org record;
  ratings integer[];
  items text := '[]';
begin
  select o.id, o.updated_at, coalesce(p.enabled, true) as enabled,
         coalesce(p.embed_min_rating, 1) as embed_min_rating, p.updated_at as profile_updated_at
    into org
    from plaudit.organizations o left join plaudit.public_profiles p on p.org_id = o.id
    where o.slug = p_slug;
  if not found then
    return null;
  end if;
  ratings := plaudit.public_feed_ratings(case when p_scope = 'embed' then org.embed_min_rating else 1 end, p_rating);
  if p_scope = 'embed' or org.enabled then
    items := plaudit.public_review_items(plaudit.public_feed_page_ids(
      org.id, null, ratings, p_sort, p_has_media, (p_page - 1)::bigint * p_limit, p_limit));
  end if;
  return json_build_object(
    'version', concat_ws('.', org.id, (select coalesce(sum(s.version), 0) from plaudit.review_statistics s where s.org_id = org.id),
                         (extract(epoch from org.updated_at) * 1000000)::bigint,
                         coalesce((extract(epoch from org.profile_updated_at) * 1000000)::bigint, 0)),
    'enabled', org.enabled,
    'total', plaudit.public_feed_total(org.id, null, ratings, p_has_media),
    'items', items::json);
end
$$;
comment on function plaudit.public_review_page(text,text,integer,integer,text,integer,boolean) is 'A page of a business''s public reviews or its widget''s, sorted and filtered, with its total.';

revoke execute on all functions in schema plaudit from public;
reset role;
