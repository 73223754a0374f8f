-- The yearly transparency report in the DSA's harmonised templates (Art. 15, 24; docs/compliance.md):
-- GET /api/v1/organizations/:orgId/transparency/dsa?year=YYYY and its .csv. Every figure is counted
-- from the rows that record it: the notices (review_reports), the statements of reasons written on
-- every hide (review_statements), the holds (review_holds, held_reviews) and the appeals
-- (review_appeals), so anyone with the data can recount it.

-- One organization's figures for one calendar year (UTC), the one home of the computation: the
-- admin report (dsa_transparency, through the tenant's RLS) and the public transparency page
-- (public_dsa_transparency, as its definer) both call it. Notices received in the year by kind;
-- notices decided in the year (hidden, or kept: any other resolution) with the median time from
-- receipt to decision; the year's restrictions on the business's own initiative (statements not
-- written by a notice's decision) by ground and whether automated; the automated measures of its
-- own initiative that restrict nothing published (bursts that opened a hold, reviews held as
-- pending at submission, by reason: review_holds.sql); appeals lodged in the year, and
-- those decided in it by outcome with their median time. Medians are exact (percentile_cont: the
-- mean of the two middle values for an even count), in seconds, null when nothing was decided.
-- Nothing personal comes out: counts, medians and the grounds (already public on a hidden review's
-- address). Each table is read set-wise, once, on its organization's index.
create or replace function plaudit.dsa_transparency_of(p_org_id uuid, p_year integer)
returns json
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  with span as (
    select make_timestamptz(p_year, 1, 1, 0, 0, 0, 'UTC') as since,
           make_timestamptz(p_year + 1, 1, 1, 0, 0, 0, 'UTC') as until,
           p_org_id as org_id
  ), notices as (
    select count(*) filter (where r.created_at >= span.since and r.created_at < span.until) as received,
           count(*) filter (where r.created_at >= span.since and r.created_at < span.until
                              and r.kind = 'illegal') as illegal,
           count(*) filter (where r.created_at >= span.since and r.created_at < span.until
                              and r.kind = 'policy') as policy,
           count(*) filter (where r.resolved_at >= span.since and r.resolved_at < span.until) as decided,
           count(*) filter (where r.resolved_at >= span.since and r.resolved_at < span.until
                              and r.decision = 'hidden') as hidden,
           count(*) filter (where r.resolved_at >= span.since and r.resolved_at < span.until
                              and r.decision is distinct from 'hidden') as kept,
           percentile_cont(0.5) within group (order by extract(epoch from r.resolved_at - r.created_at))
             filter (where r.resolved_at >= span.since and r.resolved_at < span.until) as median
      from span
      join plaudit.review_reports r on r.org_id = span.org_id
       and (r.created_at >= span.since and r.created_at < span.until
            or r.resolved_at >= span.since and r.resolved_at < span.until)
  ), restrictions as (
    select s.ground_type, s.ground, s.automated, count(*) as n
      from span
      join plaudit.review_statements s
        on s.org_id = span.org_id and s.created_at >= span.since and s.created_at < span.until
     where s.source <> 'report'
     group by 1, 2, 3
  ), holds as (
    select count(*) as bursts from span
      join plaudit.review_holds h on h.org_id = span.org_id and h.started_at >= span.since and h.started_at < span.until
  ), held as (
    select count(*) filter (where x.reason = 'burst') as burst,
           count(*) filter (where x.reason = 'duplicate_text') as duplicate_text,
           count(*) filter (where x.reason = 'order_reused') as order_reused,
           count(*) as total
      from span
      join plaudit.held_reviews x on x.org_id = span.org_id and x.created_at >= span.since and x.created_at < span.until
  ), appeals as (
    select count(*) filter (where a.created_at >= span.since and a.created_at < span.until) as received,
           count(*) filter (where a.decided_at >= span.since and a.decided_at < span.until) as decided,
           count(*) filter (where a.decided_at >= span.since and a.decided_at < span.until
                              and a.status = 'upheld') as upheld,
           count(*) filter (where a.decided_at >= span.since and a.decided_at < span.until
                              and a.status = 'reversed') as reversed,
           percentile_cont(0.5) within group (order by extract(epoch from a.decided_at - a.created_at))
             filter (where a.decided_at >= span.since and a.decided_at < span.until) as median
      from span
      join plaudit.review_appeals a on a.org_id = span.org_id
       and (a.created_at >= span.since and a.created_at < span.until
            or a.decided_at >= span.since and a.decided_at < span.until)
  )
  select json_build_object(
    'year', p_year,
    'org_id', span.org_id,
    'notices', (select json_build_object(
                  'received', json_build_object('illegal', n.illegal, 'policy', n.policy, 'total', n.received),
                  'decided', json_build_object('hidden', n.hidden, 'kept', n.kept, 'total', n.decided),
                  'median_seconds_to_decide', n.median)
                  from notices n),
    'own_initiative_restrictions', (select json_build_object(
                  'total', coalesce(sum(x.n), 0),
                  'automated', coalesce(sum(x.n) filter (where x.automated), 0),
                  'not_automated', coalesce(sum(x.n) filter (where not x.automated), 0),
                  'by_ground', coalesce(json_agg(json_build_object(
                                 'ground_type', x.ground_type, 'ground', x.ground, 'automated', x.automated,
                                 'count', x.n) order by x.n desc, x.ground_type, x.ground, x.automated), '[]'))
                  from restrictions x),
    'automated_holds', (select json_build_object(
                  'bursts', h.bursts,
                  'held_reviews', json_build_object('burst', x.burst, 'duplicate_text', x.duplicate_text,
                                                    'order_reused', x.order_reused, 'total', x.total))
                  from holds h, held x),
    'appeals', (select json_build_object(
                  'received', a.received,
                  'decided', json_build_object('upheld', a.upheld, 'reversed', a.reversed, 'total', a.decided),
                  'median_seconds_to_decide', a.median)
                  from appeals a))
    from span
$$;
comment on function plaudit.dsa_transparency_of(uuid,integer) is 'An organization''s DSA transparency figures for a calendar year (UTC): notices by kind and decision with the median time to decide, own-initiative restrictions by ground and automation, appeals by outcome.';
-- The API may call it: its reads stay under the tenant's RLS, so another organization's id counts nothing.
grant execute on function plaudit.dsa_transparency_of(uuid,integer) to plaudit_api;

-- The calling tenant's figures, read through RLS as every org read (GET …/transparency/dsa).
create or replace function plaudit.dsa_transparency(p_year integer)
returns json
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select plaudit.dsa_transparency_of(plaudit.current_org_id(), p_year)
$$;
comment on function plaudit.dsa_transparency(integer) is 'The calling tenant''s DSA transparency figures for a calendar year (UTC): dsa_transparency_of its organization.';
grant execute on function plaudit.dsa_transparency(integer) to plaudit_api;

-- The years an organization's DSA figures have anything in: those a notice was received or decided
-- in, a statement of reasons written in, an appeal lodged or decided in (UTC), newest first.
create or replace function plaudit.dsa_years(p_org_id uuid)
returns integer[]
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(array_agg(y order by y desc), '{}')
    from (select extract(year from t at time zone 'UTC')::integer as y
            from (select r.created_at as t from plaudit.review_reports r where r.org_id = p_org_id
                  union all
                  select r.resolved_at from plaudit.review_reports r where r.org_id = p_org_id and r.resolved_at is not null
                  union all
                  select s.created_at from plaudit.review_statements s where s.org_id = p_org_id
                  union all
                  select a.created_at from plaudit.review_appeals a where a.org_id = p_org_id
                  union all
                  select a.decided_at from plaudit.review_appeals a where a.org_id = p_org_id and a.decided_at is not null) x
           group by 1) years
$$;
comment on function plaudit.dsa_years(uuid) is 'The calendar years (UTC) with a notice, statement of reasons or appeal of an organization, newest first.';

-- What moves an organization's DSA figures: its notices (received, decided), statements and
-- appeals (lodged, decided). Part of the transparency page's version, so its ETag moves with them.
create or replace function plaudit.dsa_version(p_org_id uuid)
returns text
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select concat_ws('.',
    (select count(*) || '-' || coalesce(sum(extract(epoch from r.resolved_at))::bigint, 0)
       from plaudit.review_reports r where r.org_id = p_org_id),
    (select count(*) from plaudit.review_statements s where s.org_id = p_org_id),
    (select count(*) || '-' || coalesce(sum(extract(epoch from a.decided_at))::bigint, 0) || '-' ||
            count(*) filter (where a.status = 'reversed')
       from plaudit.review_appeals a where a.org_id = p_org_id))
$$;
comment on function plaudit.dsa_version(uuid) is 'A version of an organization''s DSA figures: it moves with every notice, statement of reasons and appeal received or decided.';

-- The public transparency page's DSA year (GET /api/v1/public/transparency/:slug, /p/:slug/
-- transparency?year=): the same figures as the admin report, computed by the same function, and
-- the years with data for the page's picker. Null for an unknown slug.
create or replace function plaudit.public_dsa_transparency(p_slug text, p_year integer)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object('years', plaudit.dsa_years(o.id), 'report', plaudit.dsa_transparency_of(o.id, p_year))
    from plaudit.organizations o
   where o.slug = p_slug
$$;
comment on function plaudit.public_dsa_transparency(text,integer) is 'A slug''s DSA transparency figures of a year (dsa_transparency_of) and the years with data; null for an unknown slug.';
grant execute on function plaudit.public_dsa_transparency(text,integer) to plaudit_public;
