-- Review bombing holds and duplicates (docs/compliance.md, "Review bombing and duplicates"). Every
-- submission leaves its subject, rating, client and order in review_arrivals. The worker looks at
-- the last hour of every subject once a cycle (plaudit.detect_review_bursts, the clock given): a
-- burst of one- and two-star reviews opens a hold, mailed to the admins, in the trail and emitted as
-- `reviews.burst_detected`. While a hold is open, and for a duplicate text or a reused order, the
-- submission stores the review as `pending` and says why (held_reviews, the trail's `hold`). Held
-- reviews are never published automatically and never deleted: a member releases the hold, then
-- approves or rejects each as manual verification does. A hold restricts nothing published, so it
-- writes no statement of reasons; a held review that is later hidden gets one, as every hide does.
-- What a submission is checked against is in submission_checks.sql.

-- Held reviews never leave `pending` on their own: while their hold is open nothing moves them,
-- and afterwards only a person's approval or rejection (method `manual`) does. A held review
-- leaving `pending` is resolved.
create or replace function plaudit.held_reviews_guard()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  held plaudit.held_reviews;
begin
  select * into held from plaudit.held_reviews x where x.review_id = new.id and x.resolved_at is null;
  if held.review_id is null then
    return new;
  end if;
  if exists (select from plaudit.review_holds h where h.id = held.hold_id and h.released_at is null) then
    raise exception 'This review is held while an unusual number of recent reviews is checked: release the hold first'
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  if new.verification_method is distinct from 'manual' then
    raise exception 'This review is held for a check: only a person approves or rejects it'
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  update plaudit.held_reviews x set resolved_at = now() where x.review_id = new.id;
  return new;
end
$$;
comment on function plaudit.held_reviews_guard() is 'Keeps a held review pending until a person approves or rejects it, and not before its hold is released.';

-- Whether a review is held now (its e-mail link then confirms nothing and leaves it pending).
create or replace function plaudit.review_is_held(p_review_id uuid)
returns boolean
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$ select exists (select from plaudit.held_reviews x where x.review_id = p_review_id and x.resolved_at is null) $$;
comment on function plaudit.review_is_held(uuid) is 'Whether a review is held for a check now.';

-- Whether a public page of this subject shows "We are checking an unusual number of recent
-- reviews": an open hold on the business (p_product_id null) or on the product's subject.
create or replace function plaudit.subject_under_check(p_org_id uuid, p_product_id uuid)
returns boolean
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select exists (select from plaudit.review_holds h
                  where h.org_id = p_org_id and h.subject = plaudit.review_subject(p_product_id)
                    and h.released_at is null)
$$;
comment on function plaudit.subject_under_check(uuid,uuid) is 'Whether the business''s or a product''s public pages show the notice of a burst being checked.';
grant execute on function plaudit.subject_under_check(uuid,uuid) to plaudit_api, plaudit_public;

-- Whether a review written on a hosted form now would be held for a check: an open hold on one of
-- the subjects (a product of the form's organization by its external id, or the business for a
-- null), so that the form's fine print says when its review is published.
create or replace function plaudit.form_subjects_under_check(p_form_id uuid, p_external_ids text[])
returns boolean
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(bool_or(plaudit.subject_under_check(f.org_id, p.id)), false)
    from plaudit.review_forms f
   cross join unnest(p_external_ids) x(external_id)
    left join plaudit.products p on p.org_id = f.org_id and p.external_id = x.external_id
   where f.id = p_form_id and (x.external_id is null or p.id is not null)
$$;
comment on function plaudit.form_subjects_under_check(uuid,text[]) is 'Whether a review of one of these subjects (product external ids, null for the business) written on this form would be held for a check now.';
grant execute on function plaudit.form_subjects_under_check(uuid,text[]) to plaudit_public;

-- What of the holds the public answers' versions follow (plaudit.public_version): a hold opened
-- or released changes it, so no cached page keeps or misses the notice past a revalidation.
create or replace function plaudit.review_holds_version(p_org_id uuid)
returns bigint
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$ select count(*) + count(h.released_at) from plaudit.review_holds h where h.org_id = p_org_id $$;
comment on function plaudit.review_holds_version(uuid) is 'Moves when a hold of the organization opens or is released: a part of its public answers'' version.';

-- An organization's review bombing thresholds as the detection applies them: its settings, else
-- the defaults (the same as the settings table's column defaults, which a first change starts
-- from; 67-review-bombing.test.sql checks that the two agree). The one home of the defaults: the
-- burst detection and the API's settings route both read them here. Invoker's rights: the API
-- reads its own organization's row through the table's policies.
create or replace function plaudit.review_hold_thresholds(p_org_id uuid)
returns table (min_reviews integer, min_addresses integer, median_factor numeric, min_low_share numeric)
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(st.min_reviews, 10), coalesce(st.min_addresses, 5),
         coalesce(st.median_factor, 5), coalesce(st.min_low_share, 0.5)
    from (select) one left join plaudit.review_hold_settings st on st.org_id = p_org_id
$$;
comment on function plaudit.review_hold_thresholds(uuid) is 'An organization''s review bombing thresholds: its settings, else the defaults.';
grant execute on function plaudit.review_hold_thresholds(uuid) to plaudit_api;

-- The worker's look, once a cycle, at the hour before p_now (the clock is given, so tests set it):
-- for each subject, its one- and two-star reviews, from how many client addresses, and how many
-- without the busiest address; against the subject's hourly median of them over the 28 days
-- before (hours without any count as 0). A burst meets every threshold of the organization's
-- settings (review_hold_settings, else the defaults): at least min_reviews such reviews even
-- without the busiest address (one address never makes a burst), from at least min_addresses
-- addresses, at least median_factor times the median, and at least min_low_share of the hour's
-- reviews of the subject (a sale's or a request batch's praise, with its few low ones, is not
-- one). A subject with an open hold is skipped. Each burst opens a hold with its figures, enters
-- the trail (`burst_detected`, actor `system:burst_detection`), is emitted as
-- `reviews.burst_detected` and mailed to the owners and admins; the organization's public answers
-- are purged from the CDN (their notice changes). Client addresses are forgotten
-- after 30 days. p_org_ids limits it to those organizations (null: all). Answers the new holds.
create or replace function plaudit.detect_review_bursts(p_now timestamptz, p_org_ids uuid[] default null)
returns setof plaudit.review_holds
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  h plaudit.review_holds;
  m record;
begin
  update plaudit.review_arrivals a set client_key = null
   where a.created_at < p_now - interval '30 days' and a.client_key is not null
     and (p_org_ids is null or a.org_id = any (p_org_ids));
  for h in
    with hour as (
      select a.org_id, a.subject,
             count(*) filter (where a.rating <= 2) as low,
             count(*) as total,
             count(distinct a.client_key) filter (where a.rating <= 2) as addresses
        from plaudit.review_arrivals a
       where a.created_at > p_now - interval '1 hour' and a.created_at <= p_now
         and (p_org_ids is null or a.org_id = any (p_org_ids))
       group by a.org_id, a.subject
      having count(*) filter (where a.rating <= 2) >= 2
    ), figures as (
      select hr.*, s.min_reviews, s.min_addresses, s.median_factor, s.min_low_share,
             hr.low - (select count(*) from plaudit.review_arrivals b
                        where b.org_id = hr.org_id and b.subject = hr.subject and b.rating <= 2
                          and b.created_at > p_now - interval '1 hour' and b.created_at <= p_now
                        group by b.client_key order by count(*) desc limit 1) as low_without_busiest
        from hour hr
        cross join lateral plaudit.review_hold_thresholds(hr.org_id) s
       where hr.addresses >= s.min_addresses and hr.low >= s.min_reviews
         and hr.low >= s.min_low_share * hr.total
         and not exists (select from plaudit.review_holds o
                          where o.org_id = hr.org_id and o.subject = hr.subject and o.released_at is null)
    ), judged as (
      select f.*, md.median
        from figures f
        cross join lateral (
          select coalesce(percentile_cont(0.5) within group (order by c.n), 0)::numeric as median
            from (select count(*) as n from plaudit.review_arrivals b
                   where b.org_id = f.org_id and b.subject = f.subject and b.rating <= 2
                     and b.created_at > p_now - interval '1 hour' - interval '28 days'
                     and b.created_at <= p_now - interval '1 hour'
                   group by floor(extract(epoch from p_now - interval '1 hour' - b.created_at) / 3600)
                  union all
                  select 0 from generate_series(1, 672 - (
                    select count(distinct floor(extract(epoch from p_now - interval '1 hour' - b.created_at) / 3600))
                      from plaudit.review_arrivals b
                     where b.org_id = f.org_id and b.subject = f.subject and b.rating <= 2
                       and b.created_at > p_now - interval '1 hour' - interval '28 days'
                       and b.created_at <= p_now - interval '1 hour')::integer)) c) md
       where f.low_without_busiest >= f.min_reviews and f.low >= f.median_factor * md.median
    )
    insert into plaudit.review_holds (org_id, subject, started_at, figures)
    select j.org_id, j.subject, p_now, jsonb_build_object(
             'low_ratings', j.low, 'reviews', j.total, 'client_addresses', j.addresses,
             'low_ratings_without_busiest_address', j.low_without_busiest,
             'hourly_median_28_days', j.median, 'window_start', plaudit.iso_utc(p_now - interval '1 hour'),
             'window_end', plaudit.iso_utc(p_now),
             'thresholds', jsonb_build_object('min_reviews', j.min_reviews, 'min_addresses', j.min_addresses,
                                              'median_factor', j.median_factor, 'min_low_share', j.min_low_share))
      from judged j
    on conflict (org_id, subject) where released_at is null do nothing
    returning *
  loop
    perform plaudit.append_moderation_entry(h.org_id, null, 'burst_detected',
      'hold ' || h.id || ' on ' || h.subject || ': ' || h.figures::text, 'system:burst_detection');
    perform plaudit.emit_event(h.org_id, 'reviews.burst_detected', plaudit.review_hold_event(h));
    perform plaudit.request_cdn_purge(h.org_id);
    for m in select x.email from plaudit.members x where x.org_id = h.org_id and x.role in ('owner', 'admin') loop
      perform plaudit.enqueue_email(h.org_id, m.email, 'review_burst_detected',
                                    plaudit.review_hold_event(h) || jsonb_build_object('org_id', h.org_id),
                                    'en', 'review_burst_detected:' || h.id || ':' || m.email);
    end loop;
    return next h;
  end loop;
end
$$;
comment on function plaudit.detect_review_bursts(timestamptz,uuid[]) is 'The worker''s burst detection for the hour before the given time: opens a hold per burst, in the trail, emitted and mailed to the admins; answers the new holds.';
grant execute on function plaudit.detect_review_bursts(timestamptz,uuid[]) to plaudit_worker;

-- A hold's subject as the API and the event name it.
create or replace function plaudit.review_hold_subject_json(p_org_id uuid, p_subject text)
returns jsonb
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select case
    when p_subject = 'business' then jsonb_build_object('kind', 'business', 'product_id', null, 'group', null,
                                                        'name', plaudit.brand_name(p_org_id))
    when p_subject like 'product:%' then jsonb_build_object('kind', 'product', 'product_id', substr(p_subject, 9),
      'group', null, 'name', (select p.name from plaudit.products p where p.id = substr(p_subject, 9)::uuid))
    else jsonb_build_object('kind', 'group', 'product_id', null, 'group', substr(p_subject, 7),
      'name', (select p.name from plaudit.products p
                where p.org_id = p_org_id and p.group_key = substr(p_subject, 7) order by p.created_at, p.id limit 1))
  end
$$;
comment on function plaudit.review_hold_subject_json(uuid,text) is 'A hold''s subject as the API names it: the business, a product or a product group, with its name.';

-- `reviews.burst_detected`'s payload, and the admins' mail's data.
create or replace function plaudit.review_hold_event(p_hold plaudit.review_holds)
returns jsonb
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select jsonb_build_object('hold_id', p_hold.id, 'subject', plaudit.review_hold_subject_json(p_hold.org_id, p_hold.subject),
                            'started_at', plaudit.iso_utc(p_hold.started_at), 'figures', p_hold.figures)
$$;
comment on function plaudit.review_hold_event(plaudit.review_holds) is 'The reviews.burst_detected payload of a hold, also its mail''s data.';

-- A hold of the caller's tenant as the API answers it, with the reviews it holds. Null: none.
create or replace function plaudit.review_hold_json(p_id uuid)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'id', h.id, 'status', case when h.released_at is null then 'open' else 'released' end,
    'subject', plaudit.review_hold_subject_json(h.org_id, h.subject), 'started_at', plaudit.iso_utc(h.started_at),
    'figures', h.figures, 'released_at', plaudit.iso_utc(h.released_at), 'released_by', h.released_by,
    'held_reviews', coalesce((
      select json_agg(plaudit.held_review_side(r) order by r.created_at, r.id)
        from plaudit.held_reviews x join plaudit.reviews r on r.id = x.review_id
       where x.hold_id = h.id), '[]'))
    from plaudit.review_holds h
   where h.id = p_id and h.org_id = plaudit.current_org_id()
$$;
comment on function plaudit.review_hold_json(uuid) is 'A hold of the caller''s tenant as the API answers it, with its held reviews; null when there is none.';
grant execute on function plaudit.review_hold_json(uuid) to plaudit_api;

-- Why a review of the caller's tenant was held, with the review it repeats. Null: not held, or
-- not the tenant's.
create or replace function plaudit.held_review_json(p_review_id uuid)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'review_id', x.review_id, 'reason', x.reason, 'hold_id', x.hold_id, 'similarity', x.similarity,
    'held_at', plaudit.iso_utc(x.created_at), 'resolved_at', plaudit.iso_utc(x.resolved_at),
    'review', plaudit.held_review_side(r), 'duplicate_of', plaudit.held_review_side(d))
    from plaudit.held_reviews x
    join plaudit.reviews r on r.id = x.review_id
    left join plaudit.reviews d on d.id = x.duplicate_of
   where x.review_id = p_review_id and x.org_id = plaudit.current_org_id()
$$;
comment on function plaudit.held_review_json(uuid) is 'Why a review of the caller''s tenant was held, with the review it repeats; null when it was not held.';
grant execute on function plaudit.held_review_json(uuid) to plaudit_api;

-- A review as a hold shows it: enough to read and compare. Null for no review.
create or replace function plaudit.held_review_side(p_review plaudit.reviews)
returns json
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select case when p_review.id is not null then json_build_object(
    'id', p_review.id, 'rating', p_review.rating, 'title', p_review.title, 'content', p_review.content,
    'reviewer_name', p_review.reviewer_name, 'verification_status', p_review.verification_status,
    'created_at', plaudit.iso_utc(p_review.created_at)) end
$$;
comment on function plaudit.held_review_side(plaudit.reviews) is 'A review as a hold shows it: rating, title, text, reviewer''s name, status and date.';

-- A member releases an open hold of the caller's tenant: new reviews of the subject publish as
-- before; the held ones stay pending for a person to approve or reject (manual verification).
-- In the trail (`release_hold`). Only a member (`member:<id>`) releases. Null: no such hold.
create or replace function plaudit.release_review_hold(p_id uuid, p_actor text)
returns uuid
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  h plaudit.review_holds;
begin
  if coalesce(p_actor, '') not like 'member:%' then
    raise exception 'Holds are released by a member of the team, signed in to the dashboard'
      using errcode = 'insufficient_privilege';
  end if;
  select * into h from plaudit.review_holds x where x.id = p_id and x.org_id = plaudit.current_org_id() for update;
  if h.id is null then
    return null;
  end if;
  if h.released_at is not null then
    raise exception 'Hold is already released' using errcode = 'object_not_in_prerequisite_state';
  end if;
  update plaudit.review_holds x set released_at = now(), released_by = p_actor where x.id = h.id;
  perform plaudit.request_cdn_purge(h.org_id);
  perform plaudit.append_moderation_entry(h.org_id, null, 'release_hold',
    'hold ' || h.id || ' on ' || h.subject || ' released; '
      || (select count(*) from plaudit.held_reviews x where x.hold_id = h.id and x.resolved_at is null)
      || ' held reviews wait for approval or rejection', p_actor);
  return h.id;
end
$$;
comment on function plaudit.release_review_hold(uuid,text) is 'A member releases an open hold of the caller''s tenant, in the trail; its held reviews stay pending for manual verification.';
grant execute on function plaudit.release_review_hold(uuid,text) to plaudit_api;

-- The trail's actions of holds: a submission held (plaudit.record_submission), a burst detected
-- (plaudit.detect_review_bursts), a hold released.
insert into plaudit.trail_actions (action, description) values
  ('hold', 'A submitted review was held for a check.'),
  ('burst_detected', 'A burst of reviews was detected and held.'),
  ('release_hold', 'A member released a hold.')
on conflict (action) do update set description = excluded.description;

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger reviews_keep_held before update of verification_status on plaudit.reviews
  for each row when (old.verification_status = 'pending' and new.verification_status <> 'pending')
  execute function plaudit.held_reviews_guard();

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own holds" on plaudit.review_holds for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own held reviews" on plaudit.held_reviews for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own hold settings" on plaudit.review_hold_settings for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can create their own hold settings" on plaudit.review_hold_settings for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can change their own hold settings" on plaudit.review_hold_settings for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.review_holds to plaudit_api;
grant select on plaudit.held_reviews to plaudit_api;
grant select on plaudit.review_hold_settings to plaudit_api;
grant insert (org_id, min_reviews, min_addresses, median_factor, min_low_share) on plaudit.review_hold_settings to plaudit_api;
grant update (min_reviews, min_addresses, median_factor, min_low_share, updated_at) on plaudit.review_hold_settings to plaudit_api;
