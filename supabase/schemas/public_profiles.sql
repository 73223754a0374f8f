-- Public profiles and the public projection: the only data unauthenticated callers ever see.

-- ============================================================================================
-- public projection
-- ============================================================================================
-- What the public may see, and nothing else. plaudit.public_reviews is the public projection of
-- reviews: only reviews that are not hidden and whose status is verified or unverified, and no
-- reviewer e-mail, no custom answers but those of scale and rating fields (attributes, public by
-- their type), no provenance but how a verified review was verified, where
-- it came from (source, platform), whether it was incentivized, the product it is about and how
-- many visitors found it helpful. The public functions below take every review column they answer from
-- it (a page's ids come from an index walk with the same filter), and aggregates from
-- plaudit.review_statistics and plaudit.product_review_statistics only (never by counting).
-- It runs with its reader's rights (security_invoker): only the public SECURITY DEFINER functions
-- below read it, and they check that the profile is enabled; plaudit_public cannot read it itself.
create or replace view plaudit.public_reviews with (security_barrier = true, security_invoker = true) as
  select r.org_id, r.id, r.rating, r.title, r.content, r.reviewer_name, r.verification_status, r.created_at,
         case when r.verification_status = 'verified' then r.verification_method end as verification_method,
         r.product_id, r.source, r.source_platform, r.incentive is not null as incentivized, r.helpful_count,
         r.language, r.attributes
  from plaudit.reviews r
  where plaudit.review_is_public(r.is_hidden, r.verification_status);
comment on view plaudit.public_reviews is 'The public projection of reviews: those not hidden and verified or unverified, without e-mail, private custom answers or provenance.';

-- A review's photos and videos as a JSON array in upload order, the one writer of it: the
-- organization's items (p_public false: every item, with is_hidden) for its Review, or the
-- public's (only the visible ones, without is_hidden) for public review items. Reads with its
-- caller's rights: the tenant's row-level security, or the public functions' owner.
create or replace function plaudit.review_media_json(p_review_id uuid, p_public boolean)
returns text
language sql
stable
parallel safe
as $$
  select '[' || coalesce(string_agg('{"id":"' || m.id::text || '","type":"' || m.type
      || '","url":' || pg_catalog.to_json(m.url)::text
      || ',"thumbnail_url":' || coalesce(pg_catalog.to_json(m.thumbnail_url)::text, 'null')
      || ',"width":' || coalesce(m.width::text, 'null') || ',"height":' || coalesce(m.height::text, 'null')
      || case when p_public then '' else ',"is_hidden":' || m.is_hidden::text end
      || ',"created_at":"' || pg_catalog.to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      || '"}', ',' order by m.position), '') || ']'
    from plaudit.review_media m
   where m.review_id = p_review_id and not (p_public and m.is_hidden)
$$;
comment on function plaudit.review_media_json(uuid,boolean) is 'A review''s photos and videos as a JSON array in upload order: all of them with is_hidden, or the public''s visible ones.';
grant execute on function plaudit.review_media_json(uuid,boolean) to plaudit_api;

-- A public review item, the one writer of it for every public list (the profile's, the widget's,
-- a product's, the pages'): the review's public columns (its source among them), its product
-- (`{"external_id","name"}`, or null for a review of the business), its visible photos and videos,
-- its reply, its helpful votes and its answers to scale and rating fields (`attributes`). A plain
-- expression of its arguments, which the planner inlines into its callers (hence no SET clause: every name is schema-qualified).
create or replace function plaudit.public_review_json(
  pr plaudit.public_reviews, reply plaudit.review_replies, product plaudit.products
)
returns text
language sql
stable
parallel safe
as $$
  select '{"id":"' || pr.id::text || '","rating":' || pr.rating::text
    || ',"title":' || coalesce(pg_catalog.to_json(pr.title)::text, 'null')
    || ',"content":' || pg_catalog.to_json(pr.content)::text
    || ',"reviewer_name":' || pg_catalog.to_json(pr.reviewer_name)::text
    || ',"verification_status":"' || pr.verification_status
    || '","verification_method":' || coalesce(pg_catalog.to_json(pr.verification_method)::text, 'null')
    || ',"source":"' || pr.source || '","source_platform":' || coalesce('"' || pr.source_platform || '"', 'null')
    || ',"incentivized":' || pr.incentivized::text
    || ',"product":' || case when product.id is null then 'null'
         else '{"external_id":' || pg_catalog.to_json(product.external_id)::text
              || ',"name":' || pg_catalog.to_json(product.name)::text || '}' end
    || ',"media":' || plaudit.review_media_json(pr.id, true)
    || ',"reply":' || coalesce(plaudit.reply_json(reply), 'null')
    || ',"helpful_count":' || pr.helpful_count::text
    || ',"language":' || coalesce('"' || pr.language || '"', 'null')
    || ',"attributes":' || pr.attributes::text
    || ',"created_at":"' || pg_catalog.to_char(pr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '"}'
$$;
comment on function plaudit.public_review_json(plaudit.public_reviews,plaudit.review_replies,plaudit.products) is 'A public review item as compact JSON: the one writer of it, for every public list.';

-- Whether any review of the business is written in another language than the one given: two
-- index-only walks of reviews_org_language_idx, each stopping at its first row.
create or replace function plaudit.has_reviews_in_other_language(p_org_id uuid, p_language text)
returns boolean
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select exists (select 1 from plaudit.reviews r
                  where r.org_id = p_org_id and r.language is not null and r.language < p_language)
      or exists (select 1 from plaudit.reviews r
                  where r.org_id = p_org_id and r.language is not null and r.language > p_language)
$$;
comment on function plaudit.has_reviews_in_other_language(uuid,text) is 'Whether any review of the business is written in another language than the one given.';

-- The ids of one page of a public feed, in the page's order. The feed: the business's reviews
-- (p_product_ids null) or those of the products given (a product's group), rated one of
-- p_ratings, with public media when p_has_media. The orders: newest, oldest, helpful (most helpful
-- votes first), highest and lowest (ties newest first), each ending in id, so that pages never
-- overlap. Each source (the business, or one
-- product; by rating, one rating) is walked in its index's order for the rows the page needs,
-- then the few rows walked are merged: an index serves every order, however large the feed.
-- p_language keeps the reviews written in one language; p_reader_language puts those the reader
-- can read first (written in their language, or too short to tell, which stay where they were),
-- each part in the order asked. p_attributes keeps the reviews that gave every answer it holds
-- ({key: label or stars}, plaudit.attributes_match).
create or replace function plaudit.public_feed_page_ids(
  p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_sort text, p_has_media boolean,
  p_offset bigint, p_limit integer, p_language text default null, p_reader_language text default null,
  p_attributes jsonb default null
)
returns uuid[]
language plpgsql
stable
set search_path = pg_catalog, pg_temp
as $$
declare
  by_rating boolean := p_sort in ('highest', 'lowest');
  reader text := p_reader_language;
  ids uuid[];
begin
  -- A business whose reviews are all in the reader's language (or too short to tell) has no
  -- order to change: its lists keep walking an index instead of sorting every review.
  if reader is not null and not plaudit.has_reviews_in_other_language(p_org_id, reader) then
    reader := null;
  end if;
  execute format($q$
    select coalesce(array_agg(x.id order by %9$s %1$s), '{}') from (
      select x.id, x.rating, x.created_at, x.helpful_count, x.in_reader_language
        from unnest(%2$s) s(product_id) cross join unnest(%3$s) k(rating)
        cross join lateral (
          select r.id, r.rating, r.created_at, r.helpful_count, coalesce(r.language = $9, true) as in_reader_language
            from plaudit.reviews r
           where %4$s and plaudit.review_is_public(r.is_hidden, r.verification_status) and %5$s %6$s %10$s %11$s
           order by %9$s %8$s r.created_at %7$s, r.id %7$s
           limit $6 + $7) x
       order by %9$s %1$s
       limit $7 offset $6) x$q$,
    case p_sort when 'oldest' then 'x.created_at, x.id'
                when 'highest' then 'x.rating desc, x.created_at desc, x.id desc'
                when 'lowest' then 'x.rating, x.created_at desc, x.id desc'
                when 'helpful' then 'x.helpful_count desc, x.created_at desc, x.id desc'
                else 'x.created_at desc, x.id desc' end,
    case when p_product_ids is null then 'array[null::uuid]' else '$2' end,
    case when by_rating then '$3' else 'array[null::integer]' end,
    case when p_product_ids is null then 'r.org_id = $1 and r.product_id is null'
         else 'r.product_id is not null and r.product_id = s.product_id' end,
    case when by_rating then 'r.rating = k.rating' else 'r.rating = any ($3)' end,
    case when p_has_media then 'and plaudit.review_has_public_media(r.id)' else '' end,
    case when p_sort = 'oldest' then 'asc' else 'desc' end,
    case when p_sort = 'helpful' then 'r.helpful_count desc,' else '' end,
    -- The reader's language first: the walk then sorts the source's rows, as few as they are.
    case when reader is null then '' else 'in_reader_language desc,' end,
    case when p_language is null then '' else 'and r.language = $8' end,
    case when p_attributes is null then '' else 'and plaudit.attributes_match(r.attributes, $10)' end)
  into ids
  using p_org_id, p_product_ids, p_ratings, p_sort, p_has_media, p_offset, p_limit, p_language, reader, p_attributes;
  return ids;
end
$$;
comment on function plaudit.public_feed_page_ids(uuid,uuid[],integer[],text,boolean,bigint,integer,text,text,jsonb) is 'The ids of one page of a public feed (the business''s or products''), of some ratings, in one of its orders, each walked by an index.';

-- How many reviews a public feed holds, from the counters (the business's, or the products'
-- given), never by counting; only the has_media filter counts, over an expression that reads
-- nothing until reviews have media, and the language and answer filters (p_language,
-- p_attributes), which counters do not keep.
create or replace function plaudit.public_feed_total(
  p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_has_media boolean, p_language text default null,
  p_attributes jsonb default null
)
returns bigint
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select case
    when p_has_media or p_language is not null or p_attributes is not null then (
      select count(*) from plaudit.reviews r
       where r.org_id = p_org_id and plaudit.review_is_public(r.is_hidden, r.verification_status)
         and (case when p_product_ids is null then r.product_id is null else r.product_id = any (p_product_ids) end)
         and r.rating = any (p_ratings) and (not p_has_media or plaudit.review_has_public_media(r.id))
         and (p_language is null or r.language = p_language)
         and plaudit.attributes_match(r.attributes, p_attributes))
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
comment on function plaudit.public_feed_total(uuid,uuid[],integer[],boolean,text,jsonb) is 'How many reviews a public feed holds, from the business''s or the products'' counters.';

-- The public items of the reviews given, as a JSON array in the order given. Each review is
-- looked up by its id (OFFSET 0 keeps the lookup a subquery per id): joined as a whole, the
-- planner cannot see how few ids a page holds and hashes every review of the table.
create or replace function plaudit.public_review_items(p_ids uuid[])
returns text
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select '[' || coalesce(string_agg(x.item, ',' order by i.ord), '') || ']'
    from unnest(p_ids) with ordinality i(id, ord)
    cross join lateral (
      select plaudit.public_review_json(pr, rr, p) as item
        from plaudit.public_reviews pr
        left join plaudit.review_replies rr on rr.review_id = pr.id
        left join plaudit.products p on p.id = pr.product_id
       where pr.id = i.id
      offset 0) x
$$;
comment on function plaudit.public_review_items(uuid[]) is 'The public items of the reviews given, as a JSON array in the order given.';

-- The ratings a feed shows: those from p_min up, or the one asked for (none when it is below p_min).
create or replace function plaudit.public_feed_ratings(p_min integer, p_rating integer)
returns integer[]
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select array(select g from generate_series(greatest(p_min, 1), 5) g where p_rating is null or g = p_rating)
$$;
comment on function plaudit.public_feed_ratings(integer,integer) is 'The ratings a public feed shows: from a minimum up, or the one asked for.';

-- Changes whenever any public answer about the organization may change: its publicly visible
-- reviews (statistics version), its public-profile settings, its name or website, its holds
-- (review_holds.sql). Public responses derive their ETag from it, so revalidating costs this one
-- small query. It begins with the organization's id, which names the answer's cache keys
-- (`org-<id>`) even on a 304. Null for an unknown slug.
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
    coalesce((extract(epoch from p.updated_at) * 1000000)::bigint, 0), plaudit.review_holds_version(o.id))
  from plaudit.organizations o
  left join plaudit.public_profiles p on p.org_id = o.id
  where o.slug = p_slug
$$;
comment on function plaudit.public_version(text) is 'The version of everything public about an organization, from which public answers derive their ETags.';
grant execute on function plaudit.public_version(text) to plaudit_public;

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
grant execute on function plaudit.public_profile_version(text) to plaudit_public;

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
    'version', plaudit.public_profile_version(p_slug),
    'checking_recent_reviews', plaudit.subject_under_check(o.id, null),
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
    'moderation_chain', plaudit.moderation_chain_head(o.id),
    'attributes', plaudit.attribute_summary(o.id, null))
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
grant execute on function plaudit.public_profile(text) to plaudit_public;

-- A page of the business's public reviews (reviews of products are the products' own), in one of
-- the feed's orders (public_feed_page_ids), of one rating or all, with media only on request,
-- each with its reply, and its total from the statistics. p_scope 'embed': the widget's reviews,
-- at or above the embed's min_rating; p_scope 'profile': every public review (the caller answers
-- 404 when `enabled` is false); of one language (p_language) or all, the reader's first
-- (p_reader_language) when given; with every answer of p_attributes. Null for an unknown slug.
create or replace function plaudit.public_review_page(
  p_slug text, p_scope text, p_page integer, p_limit integer,
  p_sort text default 'newest', p_rating integer default null, p_has_media boolean default false,
  p_language text default null, p_reader_language text default null, p_attributes jsonb default null
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
      org.id, null, ratings, p_sort, p_has_media, (p_page - 1)::bigint * p_limit, p_limit,
      p_language, p_reader_language, p_attributes));
  end if;
  return json_build_object(
    'version', plaudit.public_version(p_slug),
    'enabled', org.enabled,
    'total', plaudit.public_feed_total(org.id, null, ratings, p_has_media, p_language, p_attributes),
    'items', items::json);
end
$$;
comment on function plaudit.public_review_page(text,text,integer,integer,text,integer,boolean,text,text,jsonb) is 'A page of a business''s public reviews or its widget''s, sorted and filtered, with its total.';
grant execute on function plaudit.public_review_page(text,text,integer,integer,text,integer,boolean,text,text,jsonb) to plaudit_public;

-- ============================================================================================
-- profile pages, sitemap, widget and brand
-- ============================================================================================
-- A page of an enabled profile's public reviews of the business, newest first, optionally of one
-- rating only, each with how a verified review was verified (the page shows it as the badge's
-- words). Its total comes from the statistics, never from counting. Null for an unknown slug or a
-- profile that is switched off.
create or replace function plaudit.public_profile_reviews(p_slug text, p_rating integer, p_page integer, p_limit integer)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'total', plaudit.public_feed_total(o.id, null, plaudit.public_feed_ratings(1, p_rating), false),
    'items', plaudit.public_review_items(plaudit.public_feed_page_ids(
      o.id, null, plaudit.public_feed_ratings(1, p_rating), 'newest', false, (p_page - 1)::bigint * p_limit, p_limit))::json)
    from plaudit.organizations o left join plaudit.public_profiles p on p.org_id = o.id
   where o.slug = p_slug and coalesce(p.enabled, true)
$$;
comment on function plaudit.public_profile_reviews(text,integer,integer,integer) is 'A page of an enabled profile''s public reviews of the business, newest first, of one rating or all.';
grant execute on function plaudit.public_profile_reviews(text,integer,integer,integer) to plaudit_public;

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

-- Every page of the enabled profiles for the sitemap, a page at a time (a sitemap holds at most
-- 50,000 addresses), by slug: each profile page (`profile`), its review policy (`policy`) and
-- transparency (`transparency`) pages, the catalog page of a profile that lists products (`catalog`),
-- and each listed product's page (`product`, with its external_id), with when each last changed as far
-- as its settings go (policy: its profile's; transparency none: its figures move with every review).
create or replace function plaudit.public_sitemap(p_page integer, p_limit integer)
returns table (slug text, page text, external_id text, updated_at timestamptz, total bigint)
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
    select f.slug, 'profile' as page, null::text as external_id, f.updated_at from profiles f
    union all
    select f.slug, 'policy', null, f.updated_at from profiles f
    union all
    select f.slug, 'transparency', null, null from profiles f
    union all
    select f.slug, 'catalog', null, max(l.updated_at)
      from profiles f cross join lateral plaudit.public_listed_products(f.id) l group by f.slug
    union all
    select f.slug, 'product', l.external_id, l.updated_at
      from profiles f cross join lateral plaudit.public_listed_products(f.id) l
  )
  select g.slug, g.page, g.external_id, g.updated_at, count(*) over ()
    from pages g
   order by g.slug, array_position(array['profile', 'policy', 'transparency', 'catalog', 'product'], g.page), g.external_id
   limit p_limit offset (p_page - 1)::bigint * p_limit
$$;
comment on function plaudit.public_sitemap(integer,integer) is 'Every public page of the enabled profiles (profile, review policy, transparency, catalog, products) by slug, a page at a time, with when each last changed.';
grant execute on function plaudit.public_sitemap(integer,integer) to plaudit_public;

-- The widget's first reviews of the business: at most the embed's max_reviews public reviews
-- rated at least its min_rating, newest first, each with how a verified one was verified, so
-- that its badge can say it. It reads the settings itself, so that it runs beside the profile's
-- query, not after it. Null for an unknown slug; an empty list for a profile that is switched off.
create or replace function plaudit.public_embed_reviews(p_slug text)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select case when o.id is null then null
              when not coalesce(p.enabled, true) then '[]'::json
              else plaudit.public_review_items(plaudit.public_feed_page_ids(
                     o.id, null, plaudit.public_feed_ratings(coalesce(p.embed_min_rating, 1), null), 'newest', false,
                     0, coalesce(p.embed_max_reviews, 10)))::json
         end
    from (select 1) one
    left join plaudit.organizations o on o.slug = p_slug
    left join plaudit.public_profiles p on p.org_id = o.id
$$;
comment on function plaudit.public_embed_reviews(text) is 'The widget''s reviews of the business: the newest public reviews at or above its min_rating, up to its max_reviews.';
grant execute on function plaudit.public_embed_reviews(text) to plaudit_public;

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

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own public profile"
  on plaudit.public_profiles for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can create their own public profile"
  on plaudit.public_profiles for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can update their own public profile"
  on plaudit.public_profiles for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.public_profiles to plaudit_api;
grant insert (org_id, enabled, display_name, description, website, logo_url, embed_layout, embed_theme, embed_max_reviews, embed_min_rating, google_product_feed, meta_review_feed, media_moderation, review_policy, ask_buyers) on plaudit.public_profiles to plaudit_api;
grant update (enabled, display_name, description, website, logo_url, embed_layout, embed_theme, embed_max_reviews, embed_min_rating, google_product_feed, meta_review_feed, media_moderation, review_policy, ask_buyers) on plaudit.public_profiles to plaudit_api;
