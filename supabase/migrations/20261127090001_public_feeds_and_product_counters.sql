-- public feeds and product counters: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

drop function plaudit.public_read_review_page(text,text,integer,integer);

drop function plaudit.public_review_page(text,text,integer,integer);

-- A delta of the review statistics that moves an organization's public version and counts nothing.
create or replace function plaudit.public_version_delta(p_org_id uuid)
returns jsonb
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select jsonb_build_object('org_id', p_org_id, 'total_count', 0, 'public_count', 0, 'rating_sum', 0, 'rating_1', 0,
                            'rating_2', 0, 'rating_3', 0, 'rating_4', 0, 'rating_5', 0, 'version', 1)
$$;
comment on function plaudit.public_version_delta(uuid) is 'A review statistics delta that moves an organization''s public version and counts nothing.';

-- Statement-level, over the inserted rows: one statistics write per organization and statement,
-- however many reviews it inserts; the version moves only when a public review arrives. The
-- business's public figures count reviews of the business only (total_count counts every review,
-- for the organization's own list); a product's public reviews go to its own counters.
create or replace function plaudit.reviews_count_inserted()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  deltas jsonb;
  product_deltas jsonb;
begin
  select jsonb_agg(d) into deltas from (
    select n.org_id,
           count(*) as total_count,
           count(*) filter (where b) as public_count,
           coalesce(sum(n.rating) filter (where b), 0) as rating_sum,
           count(*) filter (where b and n.rating = 1) as rating_1,
           count(*) filter (where b and n.rating = 2) as rating_2,
           count(*) filter (where b and n.rating = 3) as rating_3,
           count(*) filter (where b and n.rating = 4) as rating_4,
           count(*) filter (where b and n.rating = 5) as rating_5,
           case when bool_or(p) then 1 else 0 end as version
    from (select r.*, plaudit.review_is_public(r.is_hidden, r.verification_status) as p,
                 plaudit.review_is_public(r.is_hidden, r.verification_status) and r.product_id is null as b
          from new_reviews r) n
    group by n.org_id
  ) d;
  if deltas is not null then
    perform plaudit.add_review_statistics(deltas);
  end if;
  select jsonb_agg(d) into product_deltas from (
    select n.product_id, n.org_id, count(*) as public_count, sum(n.rating) as rating_sum,
           count(*) filter (where n.rating = 1) as rating_1, count(*) filter (where n.rating = 2) as rating_2,
           count(*) filter (where n.rating = 3) as rating_3, count(*) filter (where n.rating = 4) as rating_4,
           count(*) filter (where n.rating = 5) as rating_5
    from new_reviews n
    where n.product_id is not null and plaudit.review_is_public(n.is_hidden, n.verification_status)
    group by n.product_id, n.org_id
  ) d;
  if product_deltas is not null then
    perform plaudit.add_product_review_statistics(product_deltas);
  end if;
  return null;
end
$$;
comment on function plaudit.reviews_count_inserted() is 'The review statistics count every review an insert statement makes, in its transaction.';

-- Ratings never change, so an update matters only when it moves a review in or out of public
-- view: the business's figures follow reviews of the business, a product's its own; the
-- organization's version moves for both (its public answers show both).
create or replace function plaudit.reviews_count_updated()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  deltas jsonb;
  product_deltas jsonb;
begin
  with c as (
    select n.org_id, n.product_id, n.rating,
           case when plaudit.review_is_public(n.is_hidden, n.verification_status) then 1 else -1 end as sign
    from new_reviews n join old_reviews o on o.id = n.id
    where plaudit.review_is_public(n.is_hidden, n.verification_status)
          <> plaudit.review_is_public(o.is_hidden, o.verification_status)
  )
  select
    (select jsonb_agg(d) from (
       select c.org_id,
              0 as total_count,
              coalesce(sum(c.sign) filter (where c.product_id is null), 0) as public_count,
              coalesce(sum(c.sign * c.rating) filter (where c.product_id is null), 0) as rating_sum,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 1), 0) as rating_1,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 2), 0) as rating_2,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 3), 0) as rating_3,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 4), 0) as rating_4,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 5), 0) as rating_5,
              1 as version
       from c group by c.org_id) d),
    (select jsonb_agg(d) from (
       select c.product_id, c.org_id, sum(c.sign) as public_count, sum(c.sign * c.rating) as rating_sum,
              coalesce(sum(c.sign) filter (where c.rating = 1), 0) as rating_1,
              coalesce(sum(c.sign) filter (where c.rating = 2), 0) as rating_2,
              coalesce(sum(c.sign) filter (where c.rating = 3), 0) as rating_3,
              coalesce(sum(c.sign) filter (where c.rating = 4), 0) as rating_4,
              coalesce(sum(c.sign) filter (where c.rating = 5), 0) as rating_5
       from c where c.product_id is not null group by c.product_id, c.org_id) d)
    into deltas, product_deltas;
  if deltas is not null then
    perform plaudit.add_review_statistics(deltas);
  end if;
  if product_deltas is not null then
    perform plaudit.add_product_review_statistics(product_deltas);
  end if;
  return null;
end
$$;
comment on function plaudit.reviews_count_updated() is 'The review statistics follow every update that moves a review in or out of public view.';

-- Recounts an organization from its reviews (after a bulk load with triggers disabled, or to
-- check the counters): one slot row with the true figures, version moved past every earlier one.
-- Its public figures are the business's (reviews of products: rebuild_product_review_statistics).
create or replace function plaudit.rebuild_review_statistics(p_org_id uuid)
returns void
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  old_version bigint;
begin
  perform 1 from plaudit.organizations where id = p_org_id for update;
  select coalesce(sum(version), 0) into old_version from plaudit.review_statistics where org_id = p_org_id;
  delete from plaudit.review_statistics where org_id = p_org_id;
  insert into plaudit.review_statistics
    (org_id, slot, total_count, public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5, version)
  select p_org_id, 0, count(*),
         count(*) filter (where p), coalesce(sum(rating) filter (where p), 0),
         count(*) filter (where p and rating = 1), count(*) filter (where p and rating = 2),
         count(*) filter (where p and rating = 3), count(*) filter (where p and rating = 4),
         count(*) filter (where p and rating = 5), old_version + 1
  from (select rating, plaudit.review_is_public(is_hidden, verification_status) and product_id is null as p
        from plaudit.reviews where org_id = p_org_id) r;
end
$$;
comment on function plaudit.rebuild_review_statistics(uuid) is 'Recounts an organization''s review statistics from its reviews, into one slot with a version past every earlier one.';

-- The trail's entry, the event and the public version of each change.
create or replace function plaudit.review_replies_record()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  r plaudit.review_replies := case when tg_op = 'DELETE' then old else new end;
  action text := case tg_op when 'INSERT' then 'reply' when 'UPDATE' then 'edit_reply' else 'withdraw_reply' end;
  form uuid := (select v.form_id from plaudit.reviews v where v.id = r.review_id);
begin
  perform plaudit.append_moderation_entry(r.org_id, r.review_id, action,
                                          case when tg_op = 'DELETE' then null else r.content end,
                                          plaudit.current_actor());
  perform plaudit.emit_event(r.org_id, 'review.replied', jsonb_build_object(
    'id', r.review_id, 'form_id', form,
    'action', case tg_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'withdrawn' end,
    'reply', case when tg_op = 'DELETE' then null else jsonb_build_object(
      'content', r.content, 'created_at', plaudit.iso_utc(r.created_at), 'updated_at', plaudit.iso_utc(r.updated_at)) end,
    'actor', plaudit.current_actor(),
    'replied_at', plaudit.iso_utc(clock_timestamp())));
  -- Public answers show the reply: their version (and ETags) move with it.
  perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(r.org_id)));
  return null;
end
$$;
comment on function plaudit.review_replies_record() is 'Every reply written, edited or withdrawn gets its trail entry, its review.replied event and a new public version.';

-- ============================================================================================
-- public projection
-- ============================================================================================
-- What the public may see, and nothing else. plaudit.public_reviews is the public projection of
-- reviews: only reviews that are not hidden and whose status is verified or unverified, and no
-- reviewer e-mail, no custom answers, no provenance but how a verified review was verified and
-- the product it is about. The public functions below take every review column they answer from
-- it (a page's ids come from an index walk with the same filter), and aggregates from
-- plaudit.review_statistics and plaudit.product_review_statistics only (never by counting).
-- It runs with its reader's rights (security_invoker): only the public SECURITY DEFINER functions
-- below read it, and they check that the profile is enabled; plaudit_public cannot read it itself.
create or replace view plaudit.public_reviews with (security_barrier = true, security_invoker = true) as
  select r.org_id, r.id, r.rating, r.title, r.content, r.reviewer_name, r.verification_status, r.created_at,
         case when r.verification_status = 'verified' then r.verification_method end as verification_method,
         r.product_id
  from plaudit.reviews r
  where not r.is_hidden and r.verification_status in ('verified', 'unverified');
comment on view plaudit.public_reviews is 'The public projection of reviews: those not hidden and verified or unverified, without e-mail, custom answers or provenance.';

-- A public review item, the one writer of it for every public list (the profile's, the widget's,
-- a product's, the pages'): the review's public columns, its product (`{"external_id","name"}`, or
-- null for a review of the business) and its reply. A plain expression of its arguments, which
-- the planner inlines into its callers (hence no SET clause: every name is schema-qualified).
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
    || ',"product":' || case when product.id is null then 'null'
         else '{"external_id":' || pg_catalog.to_json(product.external_id)::text
              || ',"name":' || pg_catalog.to_json(product.name)::text || '}' end
    || ',"reply":' || coalesce(plaudit.reply_json(reply), 'null')
    || ',"created_at":"' || pg_catalog.to_char(pr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '"}'
$$;
comment on function plaudit.public_review_json(plaudit.public_reviews,plaudit.review_replies,plaudit.products) is 'A public review item as compact JSON: the one writer of it, for every public list.';

-- Whether a review has media the public may see. Reviews have no media yet: the media work
-- replaces this expression (and gives the media a counter, see public_feed_total). Inlined, so a
-- list filtered by has_media reads nothing while it is false.
create or replace function plaudit.review_has_public_media(p_review_id uuid)
returns boolean
language sql
stable
parallel safe
as $$ select false $$;
comment on function plaudit.review_has_public_media(uuid) is 'Whether a review has media the public may see: none yet, until reviews have media.';

-- The ids of one page of a public feed, in the page's order. The feed: the business's reviews
-- (p_product_ids null) or those of the products given (a product's group), rated one of
-- p_ratings, with public media when p_has_media. The orders: newest (and helpful, until reviews
-- have votes: most helpful first, ties newest first), oldest, highest and lowest (ties newest
-- first), each ending in id, so that pages never overlap. Each source (the business, or one
-- product; by rating, one rating) is walked in its index's order for the rows the page needs,
-- then the few rows walked are merged: an index serves every order, however large the feed.
create or replace function plaudit.public_feed_page_ids(
  p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_sort text, p_has_media boolean,
  p_offset bigint, p_limit integer
)
returns uuid[]
language plpgsql
stable
set search_path = pg_catalog, pg_temp
as $$
declare
  by_rating boolean := p_sort in ('highest', 'lowest');
  ids uuid[];
begin
  execute format($q$
    select coalesce(array_agg(x.id order by %1$s), '{}') from (
      select x.id, x.rating, x.created_at
        from unnest(%2$s) s(product_id) cross join unnest(%3$s) k(rating)
        cross join lateral (
          select r.id, r.rating, r.created_at from plaudit.reviews r
           where %4$s and not r.is_hidden and r.verification_status in ('verified', 'unverified') and %5$s %6$s
           order by r.created_at %7$s, r.id %7$s
           limit $6 + $7) x
       order by %1$s
       limit $7 offset $6) x$q$,
    case p_sort when 'oldest' then 'x.created_at, x.id'
                when 'highest' then 'x.rating desc, x.created_at desc, x.id desc'
                when 'lowest' then 'x.rating, x.created_at desc, x.id desc'
                else 'x.created_at desc, x.id desc' end,
    case when p_product_ids is null then 'array[null::uuid]' else '$2' end,
    case when by_rating then '$3' else 'array[null::integer]' end,
    case when p_product_ids is null then 'r.org_id = $1 and r.product_id is null'
         else 'r.product_id is not null and r.product_id = s.product_id' end,
    case when by_rating then 'r.rating = k.rating' else 'r.rating = any ($3)' end,
    case when p_has_media then 'and plaudit.review_has_public_media(r.id)' else '' end,
    case when p_sort = 'oldest' then 'asc' else 'desc' end)
  into ids
  using p_org_id, p_product_ids, p_ratings, p_sort, p_has_media, p_offset, p_limit;
  return ids;
end
$$;
comment on function plaudit.public_feed_page_ids(uuid,uuid[],integer[],text,boolean,bigint,integer) is 'The ids of one page of a public feed (the business''s or products''), of some ratings, in one of its orders, each walked by an index.';

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
    when p_product_ids is null then (
      select coalesce(sum(case when 1 = any (p_ratings) then s.rating_1 else 0 end
                          + case when 2 = any (p_ratings) then s.rating_2 else 0 end
                          + case when 3 = any (p_ratings) then s.rating_3 else 0 end
                          + case when 4 = any (p_ratings) then s.rating_4 else 0 end
                          + case when 5 = any (p_ratings) then s.rating_5 else 0 end), 0)
        from plaudit.review_statistics s where s.org_id = p_org_id)
    else (
      select coalesce(sum(case when 1 = any (p_ratings) then s.rating_1 else 0 end
                          + case when 2 = any (p_ratings) then s.rating_2 else 0 end
                          + case when 3 = any (p_ratings) then s.rating_3 else 0 end
                          + case when 4 = any (p_ratings) then s.rating_4 else 0 end
                          + case when 5 = any (p_ratings) then s.rating_5 else 0 end), 0)
        from plaudit.product_review_statistics s where s.product_id = any (p_product_ids))
  end::bigint
$$;
comment on function plaudit.public_feed_total(uuid,uuid[],integer[],boolean) is 'How many reviews a public feed holds, from the business''s or the products'' counters.';

-- The public items of the reviews given, as a JSON array in the order given.
create or replace function plaudit.public_review_items(p_ids uuid[])
returns text
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select '[' || coalesce(string_agg(plaudit.public_review_json(pr, rr, p), ',' order by i.ord), '') || ']'
    from unnest(p_ids) with ordinality i(id, ord)
    join plaudit.public_reviews pr on pr.id = i.id
    left join plaudit.review_replies rr on rr.review_id = pr.id
    left join plaudit.products p on p.id = pr.product_id
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
    'version', concat_ws('.', (select coalesce(sum(s.version), 0) from plaudit.review_statistics s where s.org_id = org.id),
                         (extract(epoch from org.updated_at) * 1000000)::bigint,
                         coalesce((extract(epoch from org.profile_updated_at) * 1000000)::bigint, 0)),
    'enabled', org.enabled,
    'total', plaudit.public_feed_total(org.id, null, ratings, p_has_media),
    'items', items::json);
end
$$;
comment on function plaudit.public_review_page(text,text,integer,integer,text,integer,boolean) is 'A page of a business''s public reviews or its widget''s, sorted and filtered, with its total.';
grant execute on function plaudit.public_review_page(text,text,integer,integer,text,integer,boolean) to plaudit_public;

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

-- A page of public reviews (plaudit.public_review_page) as the response body, with its version;
-- no body for an unknown slug, or for a profile page of a business whose profile is switched off.
create or replace function plaudit.public_read_review_page(
  p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean,
  out version text, out body text
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  p json;
begin
  perform set_config('role', 'plaudit_public', true);
  p := plaudit.public_review_page(p_slug, p_scope, p_page, p_limit, p_sort, p_rating, p_has_media);
  version := p ->> 'version';
  if version is not null and (p_scope = 'embed' or (p ->> 'enabled')::boolean) then
    body := '{"data":' || (p -> 'items')::text || ',"meta":'
      || plaudit.page_meta((p ->> 'total')::bigint, p_page, p_limit) || '}';
  end if;
end
$$;
comment on function plaudit.public_read_review_page(text,text,integer,integer,text,integer,boolean) is 'A page of public reviews, sorted and filtered, as the response body, with its version.';
grant execute on function plaudit.public_read_review_page(text,text,integer,integer,text,integer,boolean) to plaudit_authenticator;

-- ============================================================================================
-- counters of products' reviews
-- ============================================================================================
-- Adds signed deltas to products' public counters, in product order (so that two statements
-- cannot deadlock). Called by the reviews' counting triggers (05), beside the business's.
create or replace function plaudit.add_product_review_statistics(p_deltas jsonb)
returns void
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  insert into plaudit.product_review_statistics as s
    (product_id, org_id, public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5)
  select d.product_id, d.org_id, d.public_count, d.rating_sum, d.rating_1, d.rating_2, d.rating_3, d.rating_4, d.rating_5
  from jsonb_to_recordset(p_deltas) as d(
    product_id uuid, org_id uuid, public_count bigint, rating_sum bigint, rating_1 bigint,
    rating_2 bigint, rating_3 bigint, rating_4 bigint, rating_5 bigint)
  order by d.product_id
  on conflict (product_id) do update set
    public_count = s.public_count + excluded.public_count,
    rating_sum = s.rating_sum + excluded.rating_sum,
    rating_1 = s.rating_1 + excluded.rating_1,
    rating_2 = s.rating_2 + excluded.rating_2,
    rating_3 = s.rating_3 + excluded.rating_3,
    rating_4 = s.rating_4 + excluded.rating_4,
    rating_5 = s.rating_5 + excluded.rating_5,
    updated_at = now();
end
$$;
comment on function plaudit.add_product_review_statistics(jsonb) is 'Adds signed deltas to products'' public review counters, in product order.';

-- Recounts an organization's product counters from its reviews (after a bulk load with triggers
-- disabled, or to check them): one row per product with published reviews.
create or replace function plaudit.rebuild_product_review_statistics(p_org_id uuid)
returns void
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  perform 1 from plaudit.organizations where id = p_org_id for update;
  delete from plaudit.product_review_statistics where org_id = p_org_id;
  insert into plaudit.product_review_statistics
    (product_id, org_id, public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5)
  select r.product_id, p_org_id, count(*), sum(r.rating),
         count(*) filter (where r.rating = 1), count(*) filter (where r.rating = 2),
         count(*) filter (where r.rating = 3), count(*) filter (where r.rating = 4),
         count(*) filter (where r.rating = 5)
  from plaudit.reviews r
  where r.org_id = p_org_id and r.product_id is not null
    and plaudit.review_is_public(r.is_hidden, r.verification_status)
  group by r.product_id;
end
$$;
comment on function plaudit.rebuild_product_review_statistics(uuid) is 'Recounts an organization''s product review counters from its published reviews.';

-- A product changed, came or went: public answers show products, so the organization's public
-- version (and with it every public ETag) moves, one write per organization and statement.
create or replace function plaudit.products_signal_changes()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  deltas jsonb;
begin
  -- Each operation has its own transition table: a statement reads only the one it has.
  if tg_op = 'DELETE' then
    select jsonb_agg(plaudit.public_version_delta(c.org_id)) into deltas
      from (select distinct o.org_id from old_products o) c;
  else
    select jsonb_agg(plaudit.public_version_delta(c.org_id)) into deltas
      from (select distinct n.org_id from new_products n) c;
  end if;
  if deltas is not null then
    perform plaudit.add_review_statistics(deltas);
  end if;
  return null;
end
$$;
comment on function plaudit.products_signal_changes() is 'Every statement that adds, changes or deletes products moves their organizations'' public version.';

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

-- GET /public/products/:slug/:externalId, and what the product's JSON-LD needs besides: the
-- product's public fields and its group's figures, with the organization's public version.
create or replace function plaudit.public_product(p_slug text, p_external_id text)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'version', plaudit.public_version(p_slug),
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
                                             '4', st.rating_4, '5', st.rating_5))
    from plaudit.public_product_of(p_slug, p_external_id) x
    cross join lateral plaudit.product_group_statistics(x.group_ids) st
$$;
comment on function plaudit.public_product(text,text) is 'A product''s public summary over its group, with its fields and the organization''s public version; null when not found.';

-- GET /public/products/:slug/:externalId/reviews as the response body (the pagination envelope
-- of public review items over the product's group), read as plaudit_public, with its version;
-- no body when not found.
create or replace function plaudit.public_read_product_reviews(
  p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer,
  p_has_media boolean, out version text, out body text
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
begin
  perform set_config('role', 'plaudit_public', true);
  select p.version, p.body into version, body from plaudit.public_product_reviews(
    p_slug, p_external_id, p_page, p_limit, p_sort, p_rating, p_has_media) p;
end
$$;
comment on function plaudit.public_read_product_reviews(text,text,integer,integer,text,integer,boolean) is 'A page of a product''s public reviews as the response body, with its version, read as plaudit_public.';

-- A page of a product's public reviews (over its group), sorted and filtered as the business's
-- lists are (public_feed_page_ids), in the pagination envelope, with the organization's public
-- version. No row when not found.
create or replace function plaudit.public_product_reviews(
  p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer,
  p_has_media boolean
)
returns table (version text, body text)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select plaudit.public_version(p_slug),
         '{"data":' || plaudit.public_review_items(plaudit.public_feed_page_ids(
           x.org_id, x.group_ids, plaudit.public_feed_ratings(1, p_rating), p_sort, p_has_media,
           (p_page - 1)::bigint * p_limit, p_limit))
         || ',"meta":' || plaudit.page_meta(
           plaudit.public_feed_total(x.org_id, x.group_ids, plaudit.public_feed_ratings(1, p_rating), p_has_media),
           p_page, p_limit) || '}'
    from plaudit.public_product_of(p_slug, p_external_id) x
$$;
comment on function plaudit.public_product_reviews(text,text,integer,integer,text,integer,boolean) is 'A page of a product''s public reviews over its group, sorted and filtered, in the pagination envelope.';

-- GET /public/products/:slug/ratings?ids=…: each known product's figures over its group, in the
-- order asked (an id asked twice answers once, where first asked), unknown ids left out, in one
-- statement. Null for an unknown slug or a switched-off profile.
create or replace function plaudit.public_product_ratings(p_slug text, p_external_ids text[])
returns table (version text, body text)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select plaudit.public_version(p_slug),
         '{"data":' || coalesce((
           select json_agg(json_build_object(
                    'external_id', p.external_id,
                    'average_rating', case when st.public_count > 0 then round(st.rating_sum::numeric / st.public_count, 2) end,
                    'review_count', st.public_count) order by a.ord)
             from (select e.external_id, min(e.ord) as ord
                     from unnest(p_external_ids) with ordinality e(external_id, ord) group by e.external_id) a
             join plaudit.products p on p.org_id = o.id and p.external_id = a.external_id
             cross join lateral plaudit.product_group_statistics(plaudit.product_group_ids(o.id, p.id, p.group_key)) st
         )::text, '[]') || '}'
    from plaudit.organizations o
    left join plaudit.public_profiles pp on pp.org_id = o.id
   where o.slug = p_slug and coalesce(pp.enabled, true)
$$;
comment on function plaudit.public_product_ratings(text,text[]) is 'The public figures of the products asked for by external id, each over its group, in the order asked.';

grant execute on function plaudit.public_product(text, text), plaudit.public_product_ratings(text, text[]),
  plaudit.public_product_reviews(text, text, integer, integer, text, integer, boolean) to plaudit_public;
grant execute on function plaudit.public_read_product_reviews(text, text, integer, integer, text, integer, boolean)
  to plaudit_authenticator;

-- Public answers show products: their changes move the organization's public version.
create trigger products_signal_changes_insert
  after insert on plaudit.products referencing new table as new_products
  for each statement execute function plaudit.products_signal_changes();
create trigger products_signal_changes_update
  after update on plaudit.products referencing new table as new_products
  for each statement execute function plaudit.products_signal_changes();
create trigger products_signal_changes_delete
  after delete on plaudit.products referencing old table as old_products
  for each statement execute function plaudit.products_signal_changes();

-- The counters from the reviews as they are: products' own, and the business's without them
-- (only organizations with reviews of products counted them in the business's).
select plaudit.rebuild_product_review_statistics(o.id), plaudit.rebuild_review_statistics(o.id)
  from plaudit.organizations o
 where exists (select 1 from plaudit.reviews r where r.org_id = o.id and r.product_id is not null);

revoke execute on all functions in schema plaudit from public;
reset role;
