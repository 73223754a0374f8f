-- review votes and reports functions: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- Only the columns moderation, verification and helpful votes own may change, and the verification status moves
-- only forward: pending to verified or rejected; and an unverified review to verified by an
-- invitation (the one other way a review proves its writer).
create or replace function plaudit.reviews_guard_update()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  if (new.id, new.org_id, new.form_id, new.rating, new.title, new.content, new.reviewer_name,
      new.reviewer_email, new.custom_fields, new.created_at)
     is distinct from
     (old.id, old.org_id, old.form_id, old.rating, old.title, old.content, old.reviewer_name,
      old.reviewer_email, old.custom_fields, old.created_at)
  then
    raise exception 'a review cannot be rewritten: only moderation and verification may change it'
      using errcode = 'restrict_violation';
  end if;
  if new.verification_status is distinct from old.verification_status then
    if not ((old.verification_status = 'pending' and new.verification_status in ('verified', 'rejected'))
            or (old.verification_status = 'unverified' and new.verification_status = 'verified'
                and new.verification_method is not distinct from 'invitation')) then
      raise exception 'a review''s verification status can only move from pending to verified or rejected'
        using errcode = 'restrict_violation';
    end if;
  elsif (new.verification_method, new.verification_at, new.verification_key_id, new.verification_token_id,
         new.verification_order_hash, new.verification_reason)
        is distinct from
        (old.verification_method, old.verification_at, old.verification_key_id, old.verification_token_id,
         old.verification_order_hash, old.verification_reason)
  then
    raise exception 'verification provenance changes only with the verification status'
      using errcode = 'restrict_violation';
  end if;
  -- A helpful vote (plaudit.vote_helpful) changes only the count: the review itself did not change.
  if new.helpful_count is not distinct from old.helpful_count then
    new.updated_at := now();
  end if;
  return new;
end
$$;
comment on function plaudit.reviews_guard_update() is 'A review is never rewritten: only moderation and verification change it, and its verification status only moves forward.';

-- ============================================================================================
-- public projection
-- ============================================================================================
-- What the public may see, and nothing else. plaudit.public_reviews is the public projection of
-- reviews: only reviews that are not hidden and whose status is verified or unverified, and no
-- reviewer e-mail, no custom answers, no provenance but how a verified review was verified, the
-- product it is about and how many visitors found it helpful. The public functions below take every review column they answer from
-- it (a page's ids come from an index walk with the same filter), and aggregates from
-- plaudit.review_statistics and plaudit.product_review_statistics only (never by counting).
-- It runs with its reader's rights (security_invoker): only the public SECURITY DEFINER functions
-- below read it, and they check that the profile is enabled; plaudit_public cannot read it itself.
create or replace view plaudit.public_reviews with (security_barrier = true, security_invoker = true) as
  select r.org_id, r.id, r.rating, r.title, r.content, r.reviewer_name, r.verification_status, r.created_at,
         case when r.verification_status = 'verified' then r.verification_method end as verification_method,
         r.product_id, r.source, r.source_platform, r.incentive is not null as incentivized, r.helpful_count
  from plaudit.reviews r
  where not r.is_hidden and r.verification_status in ('verified', 'unverified');
comment on view plaudit.public_reviews is 'The public projection of reviews: those not hidden and verified or unverified, without e-mail, custom answers or provenance.';

-- A public review item, the one writer of it for every public list (the profile's, the widget's,
-- a product's, the pages'): the review's public columns, its product (`{"external_id","name"}`, or
-- null for a review of the business), its reply and its helpful votes. A plain expression of its arguments, which
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
    || ',"helpful_count":' || pr.helpful_count::text
    || ',"created_at":"' || pg_catalog.to_char(pr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '"}'
$$;
comment on function plaudit.public_review_json(plaudit.public_reviews,plaudit.review_replies,plaudit.products) is 'A public review item as compact JSON: the one writer of it, for every public list.';

-- The ids of one page of a public feed, in the page's order. The feed: the business's reviews
-- (p_product_ids null) or those of the products given (a product's group), rated one of
-- p_ratings, with public media when p_has_media. The orders: newest, oldest, helpful (most helpful
-- votes first), highest and lowest (ties newest first), each ending in id, so that pages never
-- overlap. Each source (the business, or one
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
      select x.id, x.rating, x.created_at, x.helpful_count
        from unnest(%2$s) s(product_id) cross join unnest(%3$s) k(rating)
        cross join lateral (
          select r.id, r.rating, r.created_at, r.helpful_count from plaudit.reviews r
           where %4$s and not r.is_hidden and r.verification_status in ('verified', 'unverified') and %5$s %6$s
           order by %8$s r.created_at %7$s, r.id %7$s
           limit $6 + $7) x
       order by %1$s
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
    case when p_sort = 'helpful' then 'r.helpful_count desc,' else '' end)
  into ids
  using p_org_id, p_product_ids, p_ratings, p_sort, p_has_media, p_offset, p_limit;
  return ids;
end
$$;
comment on function plaudit.public_feed_page_ids(uuid,uuid[],integer[],text,boolean,bigint,integer) is 'The ids of one page of a public feed (the business''s or products''), of some ratings, in one of its orders, each walked by an index.';

-- A visitor's hashes for a review: HMAC-SHA256 of the review's id and the visitor (the API's
-- SHA-256 of the client's address and browser), under the current 30-day period's key, then the
-- previous period's. The current key is made on first use; keys older than the previous one are
-- deleted then, so an old vote can no longer be tied to anyone. Called by the public writes only.
create or replace function plaudit.visitor_hashes(p_review_id uuid, p_visitor bytea)
returns bytea[]
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  current_period integer := floor(extract(epoch from now()) / (30 * 86400))::integer;
  made integer;
begin
  insert into plaudit.visitor_hash_keys (period) values (current_period) on conflict (period) do nothing;
  get diagnostics made = row_count;
  if made > 0 then
    delete from plaudit.visitor_hash_keys k where k.period < current_period - 1;
  end if;
  return array(
    select extensions.hmac(convert_to(p_review_id::text, 'UTF8') || p_visitor, k.secret, 'sha256')
      from plaudit.visitor_hash_keys k
     where k.period in (current_period, current_period - 1)
     order by k.period desc);
end
$$;
comment on function plaudit.visitor_hashes(uuid,bytea) is 'A visitor''s keyed hashes for a review: under the current period''s key first, then the previous one''s.';

-- A public signal's first step, for the vote and the report alike: the hit counts in the address's
-- window first (a refused or unknown one counts too), then, within the limit, the published review
-- it names: of the slug's organization, whose profile is not switched off, and public (not hidden,
-- verified or unverified). The review's columns are null when it is refused or not found.
create or replace function plaudit.signal_target(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid)
returns table (
  rate_allowed boolean, rate_remaining integer, rate_reset bigint, id uuid, org_id uuid, form_id uuid, product_id uuid
)
language sql
volatile
set search_path = pg_catalog, pg_temp
as $$
  select h.allowed, h.remaining, h.reset_at, r.id, r.org_id, r.form_id, r.product_id
    from plaudit.hit_rate_limit(p_rate_bucket, p_rate_limit) h
    left join lateral (
      select rv.id, rv.org_id, rv.form_id, rv.product_id
        from plaudit.organizations o
        left join plaudit.public_profiles p on p.org_id = o.id
        join plaudit.reviews rv on rv.org_id = o.id and rv.id = p_review_id
       where h.allowed and o.slug = p_slug and coalesce(p.enabled, true)
         and plaudit.review_is_public(rv.is_hidden, rv.verification_status)) r on true
$$;
comment on function plaudit.signal_target(text,integer,text,uuid) is 'Counts a public signal''s hit in its address''s window and finds the published review it names, within the limit.';

-- A visitor finds a published review helpful: counted once per visitor (a repeat, under this
-- period's key or the last one's, changes nothing), in the review's helpful_count, whose change
-- moves the organization's public version (ETags) and purges its CDN keys (the reviews' update
-- trigger, coalesced per organization). The hit counts first (signal_target); `published` false:
-- no such published review (404).
create or replace function plaudit.vote_helpful(
  p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea
)
returns table (rate_allowed boolean, rate_remaining integer, rate_reset bigint, published boolean, helpful_count integer)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
  target record;
  hashes bytea[];
  added integer;
begin
  select * into target from plaudit.signal_target(p_rate_bucket, p_rate_limit, p_slug, p_review_id);
  rate_allowed := target.rate_allowed;
  rate_remaining := target.rate_remaining;
  rate_reset := target.rate_reset;
  published := target.id is not null;
  if not published then
    return next;
    return;
  end if;
  hashes := plaudit.visitor_hashes(target.id, p_visitor);
  if not exists (select from plaudit.review_votes v where v.review_id = target.id and v.visitor_hash = any (hashes)) then
    insert into plaudit.review_votes (review_id, org_id, visitor_hash) values (target.id, target.org_id, hashes[1])
    on conflict do nothing;
    get diagnostics added = row_count;
    if added > 0 then
      update plaudit.reviews r set helpful_count = r.helpful_count + 1 where r.id = target.id;
      perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(target.org_id)));
    end if;
  end if;
  select r.helpful_count into helpful_count from plaudit.reviews r where r.id = target.id;
  return next;
end
$$;
comment on function plaudit.vote_helpful(text,integer,text,uuid,bytea) is 'Counts a visitor''s helpful vote on a published review once, limited per address; answers the review''s count.';

-- A visitor reports a published review: stored open, with the `review.reported` event, for the
-- business to resolve; a report never hides the review. One open report per visitor and review: a
-- repeat while it is open changes nothing. `published` false: no such published review (404).
create or replace function plaudit.report_review(
  p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea,
  p_reason text, p_details text
)
returns table (rate_allowed boolean, rate_remaining integer, rate_reset bigint, published boolean)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
  target record;
  hashes bytea[];
  report plaudit.review_reports;
begin
  select * into target from plaudit.signal_target(p_rate_bucket, p_rate_limit, p_slug, p_review_id);
  rate_allowed := target.rate_allowed;
  rate_remaining := target.rate_remaining;
  rate_reset := target.rate_reset;
  published := target.id is not null;
  if not published then
    return next;
    return;
  end if;
  hashes := plaudit.visitor_hashes(target.id, p_visitor);
  if not exists (select from plaudit.review_reports x
                  where x.review_id = target.id and x.reporter_hash = any (hashes) and x.status = 'open') then
    insert into plaudit.review_reports (org_id, review_id, reason, details, reporter_hash)
    values (target.org_id, target.id, p_reason, nullif(btrim(p_details), ''), hashes[1])
    on conflict (review_id, reporter_hash) where status = 'open' do nothing
    returning * into report;
    if report.id is not null then
      perform plaudit.emit_event(target.org_id, 'review.reported', jsonb_build_object(
        'id', target.id, 'form_id', target.form_id,
        'product', plaudit.review_product_json(target.product_id)::jsonb,
        'report_id', report.id, 'reason', report.reason, 'details', report.details,
        'reported_at', plaudit.iso_utc(report.created_at)));
    end if;
  end if;
  return next;
end
$$;
comment on function plaudit.report_review(text,integer,text,uuid,bytea,text,text) is 'Stores a visitor''s report of a published review (one open per visitor), limited per address, with its event.';

-- A report of the caller's tenant as the API answers it, with the review it is about (the few
-- fields a moderator reads it by). Runs as the caller: RLS keeps the tenant to its own reports and
-- reviews, and the reporter's hash is not among the columns it may read. Null: no such report.
create or replace function plaudit.review_report_json(p_report_id uuid)
returns json
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'id', x.id, 'review_id', x.review_id,
    'review', json_build_object('id', r.id, 'rating', r.rating, 'title', r.title, 'content', r.content,
                                'reviewer_name', r.reviewer_name, 'is_hidden', r.is_hidden),
    'reason', x.reason, 'details', x.details, 'status', x.status, 'resolution', x.resolution,
    'resolved_at', plaudit.iso_utc(x.resolved_at), 'resolved_by', x.resolved_by,
    'created_at', plaudit.iso_utc(x.created_at))
    from plaudit.review_reports x join plaudit.reviews r on r.id = x.review_id
   where x.id = p_report_id
$$;
comment on function plaudit.review_report_json(uuid) is 'A review report of the caller''s tenant as the API answers it, with the review it is about.';

-- Resolves a report of the caller's tenant (RLS): resolved, with the resolution, when and by whom;
-- resolving it again replaces the resolution. No row: no such report of the tenant.
create or replace function plaudit.resolve_review_report(p_id uuid, p_resolution text, p_actor text)
returns uuid
language sql
volatile
set search_path = pg_catalog, pg_temp
as $$
  update plaudit.review_reports x
     set status = 'resolved', resolution = btrim(p_resolution), resolved_at = now(), resolved_by = p_actor
   where x.id = p_id
  returning x.id
$$;
comment on function plaudit.resolve_review_report(uuid,text,text) is 'Resolves one of the tenant''s review reports with its resolution and actor; answers its id, or null.';

-- The public writes, as plaudit_public; reading and resolving reports, as plaudit_api.
grant execute on function plaudit.vote_helpful(text, integer, text, uuid, bytea) to plaudit_public;
grant execute on function plaudit.report_review(text, integer, text, uuid, bytea, text, text) to plaudit_public;
grant execute on function plaudit.review_report_json(uuid), plaudit.resolve_review_report(uuid, text, text)
  to plaudit_api;

revoke execute on all functions in schema plaudit from public;
reset role;
