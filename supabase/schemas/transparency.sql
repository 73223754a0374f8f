-- The public transparency report (GET /api/v1/public/transparency/:slug, the page
-- /p/:slug/transparency; docs/trust.md): what a business's reviews are, counted from the data.

-- The version of the report: the profile's (its public reviews, settings and chain head), every
-- review received (review_statistics' total), the forms' settings, the DSA figures (dsa_version:
-- notices, statements, appeals) and the month (the window of twelve calendar months moves with
-- it). A cached report, and the review policy page, revalidate when any of them moves.
create or replace function plaudit.public_transparency_version(p_slug text)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select plaudit.public_profile_version(p_slug) || '.' ||
         coalesce((select sum(s.total_count) from plaudit.review_statistics s where s.org_id = o.id), 0) || '.' ||
         coalesce((select (extract(epoch from max(f.updated_at)) * 1000000)::bigint
                     from plaudit.review_forms f where f.org_id = o.id), 0) || '.' ||
         plaudit.dsa_version(o.id) || '.' ||
         to_char(now() at time zone 'UTC', 'YYYYMM')
    from plaudit.organizations o
   where o.slug = p_slug
$$;
comment on function plaudit.public_transparency_version(text) is 'The version of a slug''s transparency report, from which its ETag derives; null for an unknown slug.';
grant execute on function plaudit.public_transparency_version(text) to plaudit_public;

-- The report's figures as JSON, null for an unknown slug (and only the version and enabled false
-- while the profile is off). All-time figures come from the counters (review_statistics: every
-- review received, the business's public ones; product_review_statistics: the products' public
-- ones); figures of the last twelve calendar months (UTC, this month included) from one range of
-- the reviews' (org_id, created_at) index, and the hides of those months by month and reason from
-- one range of moderation_trail_org_id_hides (reasons trimmed; a hide written by SQL without one
-- counts as 'No reason given'). Month arithmetic runs on UTC timestamps, whatever
-- the session's time zone.
create or replace function plaudit.public_transparency(p_slug text)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  with org as (
    select o.id, o.slug, coalesce(p.display_name, o.name) as name, coalesce(p.enabled, true) as enabled,
           coalesce(p.embed_min_rating, 1) as widget_min_rating,
           date_trunc('month', now() at time zone 'UTC') - interval '11 months' as since
      from plaudit.organizations o
      left join plaudit.public_profiles p on p.org_id = o.id
     where o.slug = p_slug
  ), recent as (
    select count(*) as received,
           count(*) filter (where x.published) as published,
           count(*) filter (where x.published and r.verification_status = 'verified') as verified,
           count(*) filter (where x.published and r.verification_status = 'unverified') as unverified,
           count(*) filter (where x.published and r.verification_method = 'email'
                              and r.verification_status = 'verified') as by_email,
           count(*) filter (where x.published and r.verification_method = 'purchase_proof'
                              and r.verification_status = 'verified') as by_purchase_proof,
           count(*) filter (where x.published and r.verification_method = 'manual'
                              and r.verification_status = 'verified') as by_manual,
           count(*) filter (where x.published and r.verification_method = 'invitation'
                              and r.verification_status = 'verified') as by_invitation,
           count(*) filter (where x.published and r.incentive is not null) as incentivized,
           count(*) filter (where x.published and r.source = 'import') as imported,
           count(*) filter (where r.is_hidden) as hidden,
           count(*) filter (where not r.is_hidden and r.verification_status = 'pending') as pending,
           count(*) filter (where not r.is_hidden and r.verification_status = 'rejected') as rejected
      from org
      join plaudit.reviews r on r.org_id = org.id and r.created_at >= org.since at time zone 'UTC'
      -- Inlined: no call per review (as a call, it cost 20 µs a review, 2 s for a year of 100,000).
      cross join lateral (select plaudit.review_is_public(r.is_hidden, r.verification_status) as published) x
  ), hides as (
    select to_char(t.created_at at time zone 'UTC', 'YYYY-MM') as month,
           coalesce(nullif(btrim(t.reason), ''), 'No reason given') as reason, count(*) as n
      from org
      join plaudit.moderation_trail t
        on t.org_id = org.id and t.action = 'hide' and t.created_at >= org.since at time zone 'UTC'
     group by 1, 2
  ), months as (
    select to_char(org.since + make_interval(months => g), 'YYYY-MM') as month, g
      from org cross join generate_series(0, 11) g
  )
  select json_build_object(
    'version', plaudit.public_transparency_version(p_slug),
    'enabled', org.enabled,
    'org_id', org.id,
    'slug', org.slug,
    'name', org.name,
    'since', to_char(org.since, 'YYYY-MM-DD'),
    'received_all_time', (select coalesce(sum(s.total_count), 0) from plaudit.review_statistics s where s.org_id = org.id),
    'published_all_time',
      (select coalesce(sum(s.public_count), 0) from plaudit.review_statistics s where s.org_id = org.id)
      + (select coalesce(sum(s.public_count), 0) from plaudit.product_review_statistics s where s.org_id = org.id),
    'recent', (select row_to_json(recent) from recent),
    'hidden_by_month', (
      select json_agg(json_build_object(
               'month', m.month,
               'hidden', coalesce((select sum(h.n) from hides h where h.month = m.month), 0),
               'reasons', coalesce((select json_agg(json_build_object('reason', h.reason, 'count', h.n)
                                                    order by h.n desc, h.reason)
                                      from hides h where h.month = m.month), '[]')) order by m.g)
        from months m),
    'forms', (select json_build_object(
                'none', count(*) filter (where f.verification_mode = 'none'),
                'email', count(*) filter (where f.verification_mode = 'email'),
                'purchase_proof', count(*) filter (where f.verification_mode = 'purchase_proof'),
                'manual', count(*) filter (where f.verification_mode = 'manual'))
                from plaudit.review_forms f where f.org_id = org.id and f.deleted_at is null and f.is_active),
    'widget_min_rating', org.widget_min_rating,
    'moderation_chain', plaudit.moderation_chain_head(org.id))
  from org
$$;
comment on function plaudit.public_transparency(text) is 'A slug''s transparency report figures as JSON: reviews received and published, by verification method, hides by month and reason, forms'' moderation and the chain head.';
grant execute on function plaudit.public_transparency(text) to plaudit_public;
