-- Shoppers' signals on published reviews: helpful votes and reports (docs/trust.md). The public
-- writes run as plaudit_public through the SECURITY DEFINER functions below, each limited per
-- client address; the business reads and resolves its reports as plaudit_api, bound by RLS.

-- A visitor's hashes for a review: HMAC-SHA256 of the review's id and the visitor (the API's
-- SHA-256 of the client's network: its address, or an IPv6 address's /64), under the current
-- 30-day period's key, then the previous period's. The current key is made on first use; keys
-- older than the previous one are deleted then, so an old vote can no longer be tied to anyone.
-- Called by the public writes only.
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
-- PL/pgSQL, so that its callers' sessions keep its plan (plaudit.vote_helpful's): as an SQL function
-- with a search_path (never inlined) it was parsed and planned at every vote.
create or replace function plaudit.signal_target(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid)
returns table (
  rate_allowed boolean, rate_remaining integer, rate_reset bigint, id uuid, org_id uuid, form_id uuid, product_id uuid
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
begin
  return query
  select h.allowed, h.remaining, h.reset_at, r.id, r.org_id, r.form_id, r.product_id
    from plaudit.hit_rate_limit(p_rate_bucket, p_rate_limit) h
    left join lateral (
      select rv.id, rv.org_id, rv.form_id, rv.product_id
        from plaudit.organizations o
        left join plaudit.public_profiles p on p.org_id = o.id
        join plaudit.reviews rv on rv.org_id = o.id and rv.id = p_review_id
       where h.allowed and o.slug = p_slug and coalesce(p.enabled, true)
         and plaudit.review_is_public(rv.is_hidden, rv.verification_status)) r on true;
end
$$;
comment on function plaudit.signal_target(text,integer,text,uuid) is 'Counts a public signal''s hit in its address''s window and finds the published review it names, within the limit.';

-- A visitor finds a published review helpful: counted once per visitor (a repeat, under this
-- period's key or the last one's, changes nothing), in the review's helpful_count, whose change
-- moves the organization's public version (ETags) and purges its CDN keys (coalesced per
-- organization; asked for here, the reviews' update trigger leaves a vote's to it). The hit counts
-- first (signal_target); `published` false: no such published review (404).
-- Plans kept for the session (plan_cache_mode = auto), as plaudit.submit_review's: each statement is
-- a lookup by key.
create or replace function plaudit.vote_helpful(
  p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea
)
returns table (rate_allowed boolean, rate_remaining integer, rate_reset bigint, published boolean, helpful_count integer)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
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
      update plaudit.reviews r set helpful_count = r.helpful_count + 1 where r.id = target.id
      returning r.helpful_count into helpful_count;
      perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(target.org_id)));
      perform plaudit.request_cdn_purge(target.org_id, target.product_id is not null and plaudit.cdn_change_alters_sitemap(
        'reviews', 'UPDATE', null, jsonb_build_object('product_id', target.product_id)));
      return next;
      return;
    end if;
  end if;
  select r.helpful_count into helpful_count from plaudit.reviews r where r.id = target.id;
  return next;
end
$$;
comment on function plaudit.vote_helpful(text,integer,text,uuid,bytea) is 'Counts a visitor''s helpful vote on a published review once, limited per address; answers the review''s count.';
grant execute on function plaudit.vote_helpful(text,integer,text,uuid,bytea) to plaudit_public;

-- A visitor reports a published review: stored open, with the `review.reported` event, for the
-- business to resolve; a report never hides the review. One open report per visitor and review: a
-- repeat while it is open changes nothing. The report is a notice (DSA Art. 16): its kind (illegal,
-- naming the law, or against the policy), the reporter's good-faith statement, and an address the
-- acknowledgement is mailed to at once (the decision follows on resolution). The address never
-- reaches the event, the business's API answers or the public. `published` false: no such
-- published review (404).
-- Plans kept for the session, as plaudit.vote_helpful's.
create or replace function plaudit.report_review(
  p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea,
  p_reason text, p_details text, p_kind text default 'policy', p_legal_ground text default null,
  p_email text default null, p_good_faith boolean default null
)
returns table (rate_allowed boolean, rate_remaining integer, rate_reset bigint, published boolean)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
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
    insert into plaudit.review_reports
      (org_id, review_id, reason, details, reporter_hash, kind, legal_ground, reporter_email, good_faith)
    values (target.org_id, target.id, p_reason, nullif(btrim(p_details), ''), hashes[1],
            coalesce(p_kind, 'policy'), nullif(btrim(p_legal_ground), ''), nullif(btrim(p_email), ''), p_good_faith)
    on conflict (review_id, reporter_hash) where status = 'open' do nothing
    returning * into report;
    if report.id is not null then
      perform plaudit.emit_event(target.org_id, 'review.reported', jsonb_build_object(
        'id', target.id, 'form_id', target.form_id,
        'product', plaudit.review_product_json(target.product_id)::jsonb,
        'report_id', report.id, 'reason', report.reason, 'details', report.details,
        'kind', report.kind, 'legal_ground', report.legal_ground,
        'reported_at', plaudit.iso_utc(report.created_at)));
      if report.reporter_email is not null then
        perform plaudit.enqueue_email(target.org_id, report.reporter_email, 'report_received',
          plaudit.report_mail_data(report), 'en', 'report_received:' || report.id);
      end if;
    end if;
  end if;
  return next;
end
$$;
comment on function plaudit.report_review(text,integer,text,uuid,bytea,text,text,text,text,text,boolean) is 'Stores a visitor''s report (a notice: its kind, ground, good faith and address) of a published review, one open per visitor, limited per address, with its event and acknowledgement mail.';
grant execute on function plaudit.report_review(text,integer,text,uuid,bytea,text,text,text,text,text,boolean) to plaudit_public;

-- What the reporter's mails say of their report: the review as it was published (its stars, title
-- and the start of its text, never its author's address), the kind, ground and reason, and the
-- decision once there is one. Called by the definer functions that queue those mails.
create or replace function plaudit.report_mail_data(p_report plaudit.review_reports)
returns jsonb
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select jsonb_build_object(
    'report_id', p_report.id, 'kind', p_report.kind, 'reason', p_report.reason,
    'legal_ground', p_report.legal_ground, 'received_at', plaudit.iso_utc(p_report.created_at),
    'review', jsonb_build_object('rating', r.rating, 'title', r.title, 'excerpt', left(r.content, 200)),
    'decision', p_report.decision, 'resolution', p_report.resolution,
    'decided_at', plaudit.iso_utc(p_report.resolved_at))
    from plaudit.reviews r where r.id = p_report.review_id
$$;
comment on function plaudit.report_mail_data(plaudit.review_reports) is 'What the reporter''s acknowledgement and decision mails say of their report and the review, never an address.';

-- The published review a visitor's report form is about, so that the form shows what is reported:
-- its stars, title, text, reviewer and date, as the slug's public pages show them (the public
-- projection, the profile switched on). No row: no such published review of the slug, and the form
-- page says so instead of asking.
create or replace function plaudit.public_reported_review(p_slug text, p_review_id uuid)
returns table (rating integer, title text, content text, reviewer_name text, created_at timestamptz)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select pr.rating, pr.title, pr.content, pr.reviewer_name, pr.created_at
    from plaudit.organizations o
    left join plaudit.public_profiles p on p.org_id = o.id
    join plaudit.public_reviews pr on pr.org_id = o.id and pr.id = p_review_id
   where o.slug = p_slug and coalesce(p.enabled, true)
$$;
comment on function plaudit.public_reported_review(text,uuid) is 'The published review of the slug that a visitor''s report form is about: stars, title, text, reviewer, date; no row when there is none.';
grant execute on function plaudit.public_reported_review(text,uuid) to plaudit_public;

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
    'reason', x.reason, 'details', x.details, 'kind', x.kind, 'legal_ground', x.legal_ground,
    'status', x.status, 'decision', x.decision, 'resolution', x.resolution,
    'resolved_at', plaudit.iso_utc(x.resolved_at), 'resolved_by', x.resolved_by,
    'created_at', plaudit.iso_utc(x.created_at))
    from plaudit.review_reports x join plaudit.reviews r on r.id = x.review_id
   where x.id = p_report_id
$$;
comment on function plaudit.review_report_json(uuid) is 'A review report of the caller''s tenant as the API answers it, with the review it is about.';
grant execute on function plaudit.review_report_json(uuid) to plaudit_api;

-- Resolves a report of the caller's tenant: resolved, with the decision and the resolution, when
-- and by whom; resolving it again replaces them. `hidden` hides the review (if it is not hidden
-- yet) as moderation does, in the trail with the report named and the resolution as the reason.
-- A reporter who left an address is mailed the decision. No row: no such report of the tenant.
create or replace function plaudit.resolve_review_report(
  p_id uuid, p_resolution text, p_actor text, p_decision text default 'kept'
)
returns uuid
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.current_org_id();
  report plaudit.review_reports;
begin
  if p_decision is null or p_decision not in ('hidden', 'kept') then
    raise exception 'decision: must be hidden or kept' using errcode = 'invalid_parameter_value';
  end if;
  update plaudit.review_reports x
     set status = 'resolved', decision = p_decision, resolution = btrim(p_resolution), resolved_at = now(),
         resolved_by = p_actor
   where x.id = p_id and x.org_id = tenant
  returning x.* into report;
  if report.id is null then
    return null;
  end if;
  if p_decision = 'hidden' then
    perform set_config('plaudit.actor', coalesce(p_actor, ''), true);
    perform set_config('plaudit.moderation_reason', 'report ' || report.id || ': ' || report.resolution, true);
    -- Its statement of reasons: the law the notice named, or the policy the report invoked.
    perform plaudit.set_restriction('report', case when report.kind = 'illegal' then 'law' else 'policy' end,
      coalesce(report.legal_ground,
               plaudit.brand_name(report.org_id) || '''s review policy (reported as ' || replace(report.reason, '_', ' ') || ')'),
      false, report.id);
    update plaudit.reviews r set is_hidden = true where r.id = report.review_id and not r.is_hidden;
    perform plaudit.set_restriction(null, null, null, null);
    perform set_config('plaudit.moderation_reason', '', true);
    perform set_config('plaudit.actor', '', true);
  end if;
  if report.reporter_email is not null then
    perform plaudit.enqueue_email(tenant, report.reporter_email, 'report_decided', plaudit.report_mail_data(report),
      'en', 'report_decided:' || report.id || ':'
              || md5(report.decision || report.resolution || plaudit.iso_utc(report.resolved_at)));
  end if;
  return report.id;
end
$$;
comment on function plaudit.resolve_review_report(uuid,text,text,text) is 'Resolves a report of the tenant with its decision (hidden hides the review, in the trail) and mails the reporter; answers its id, or null.';
grant execute on function plaudit.resolve_review_report(uuid,text,text,text) to plaudit_api;

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own reports" on plaudit.review_reports for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can resolve their own reports" on plaudit.review_reports for update to plaudit_api
  using (org_id = (select plaudit.current_org_id())) with check (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select (id, org_id, review_id, reason, details, kind, legal_ground, good_faith, status, decision, resolution, resolved_at, resolved_by, created_at) on plaudit.review_reports to plaudit_api;
grant update (status, resolution, resolved_at, resolved_by) on plaudit.review_reports to plaudit_api;
