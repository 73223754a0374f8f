-- A business's public reply to a review: one per review, written, edited and withdrawn through
-- the API (PUT/DELETE …/reviews/:id/reply, write scope). The review itself never changes. Every
-- change is an entry of the review's moderation trail (`reply`, `edit_reply`, `withdraw_reply`,
-- with the reply's text as the entry's reason, so the trail keeps what was said), emits
-- `review.replied`, and moves the organization's public version (the public answers carry the
-- reply, and their ETags must change with it).
--
-- Sections: replies · the trail, the event and the public version · writing and withdrawing · the
-- reply in the API's Review · the reply on the public routes.
set role plaudit_owner;

-- ============================================================================================
-- replies
-- ============================================================================================
create table plaudit.review_replies (
  review_id uuid primary key references plaudit.reviews (id),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  content text not null check (char_length(content) between 1 and 5000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index review_replies_org_id on plaudit.review_replies (org_id);

alter table plaudit.review_replies enable row level security;

create policy "Tenants can read the replies to their own reviews"
  on plaudit.review_replies for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can reply to their own reviews"
  on plaudit.review_replies for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id())
              and exists (select from plaudit.reviews v where v.id = review_id and v.org_id = org_id));

create policy "Tenants can edit their own replies"
  on plaudit.review_replies for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can withdraw their own replies"
  on plaudit.review_replies for delete to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select, delete on plaudit.review_replies to plaudit_api;
grant insert (review_id, org_id, content) on plaudit.review_replies to plaudit_api;
grant update (content, updated_at) on plaudit.review_replies to plaudit_api;

-- ============================================================================================
-- the trail, the event and the public version
-- ============================================================================================
alter table plaudit.moderation_trail drop constraint moderation_trail_action_check;
alter table plaudit.moderation_trail add constraint moderation_trail_action_check
  check (action in ('hide', 'unhide', 'verify', 'approve', 'reject', 'reply', 'edit_reply', 'withdraw_reply'));
-- A reply's entry keeps the reply's text (up to 5,000 characters) as its reason.
alter table plaudit.moderation_trail drop constraint moderation_trail_reason_check;
alter table plaudit.moderation_trail add constraint moderation_trail_reason_check
  check (char_length(reason) <= 5000);

create function plaudit.review_replies_record()
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
  perform plaudit.add_review_statistics(jsonb_build_array(jsonb_build_object(
    'org_id', r.org_id, 'total_count', 0, 'public_count', 0, 'rating_sum', 0, 'rating_1', 0, 'rating_2', 0,
    'rating_3', 0, 'rating_4', 0, 'rating_5', 0, 'version', 1)));
  return null;
end
$$;

create trigger review_replies_record
  after insert or update or delete on plaudit.review_replies
  for each row execute function plaudit.review_replies_record();

-- ============================================================================================
-- writing and withdrawing
-- ============================================================================================
-- Writes or edits the reply to a review of the caller's tenant; answers the reply. Runs with the
-- caller's rights: row-level security finds the review and guards the reply. An edit with the
-- same text changes nothing and records nothing.
create function plaudit.reply_to_review(p_review_id uuid, p_content text, p_actor text)
returns table (content text, created_at timestamptz, updated_at timestamptz)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  org uuid := plaudit.current_org_id();
begin
  if org is null or not exists (select from plaudit.reviews v where v.id = p_review_id) then
    raise exception 'Review not found' using errcode = 'no_data_found';
  end if;
  if p_content is null or char_length(btrim(p_content)) not between 1 and 5000 then
    raise exception 'content: must be 1 to 5000 characters' using errcode = 'check_violation';
  end if;
  perform set_config('plaudit.actor', coalesce(p_actor, ''), true);
  insert into plaudit.review_replies as rr (review_id, org_id, content)
  values (p_review_id, org, btrim(p_content))
  on conflict (review_id) do update set content = excluded.content, updated_at = now()
    where rr.content is distinct from excluded.content;
  perform set_config('plaudit.actor', '', true);
  return query select rr.content, rr.created_at, rr.updated_at
    from plaudit.review_replies rr where rr.review_id = p_review_id;
end
$$;

-- Withdraws the reply to a review of the caller's tenant; answers whether there was one. Runs
-- with the caller's rights, as reply_to_review.
create function plaudit.withdraw_review_reply(p_review_id uuid, p_actor text)
returns boolean
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  org uuid := plaudit.current_org_id();
  gone boolean;
begin
  if org is null or not exists (select from plaudit.reviews v where v.id = p_review_id) then
    raise exception 'Review not found' using errcode = 'no_data_found';
  end if;
  perform set_config('plaudit.actor', coalesce(p_actor, ''), true);
  delete from plaudit.review_replies rr where rr.review_id = p_review_id and rr.org_id = org;
  gone := found;
  perform set_config('plaudit.actor', '', true);
  return gone;
end
$$;

grant execute on function plaudit.reply_to_review(uuid, text, text), plaudit.withdraw_review_reply(uuid, text)
  to plaudit_api;

-- ============================================================================================
-- the reply in the API's Review
-- ============================================================================================
-- The Review as JSON gains `reply` ({content, created_at, updated_at}, or null).
drop function plaudit.review_json(uuid, integer, text, text, text, text, text, boolean, timestamptz, uuid, jsonb);

create function plaudit.review_json(
  p_id uuid, p_rating integer, p_title text, p_content text, p_reviewer_name text, p_reviewer_email text,
  p_verification_status text, p_is_hidden boolean, p_created_at timestamptz, p_form_id uuid, p_custom_fields jsonb,
  p_reply text
)
returns text
language sql
stable
parallel safe
return '{"id":"' || p_id::text || '","rating":' || p_rating::text
  || ',"title":' || coalesce(pg_catalog.to_json(p_title)::text, 'null')
  || ',"content":' || pg_catalog.to_json(p_content)::text
  || ',"reviewer_name":' || pg_catalog.to_json(p_reviewer_name)::text
  || ',"reviewer_email":' || pg_catalog.to_json(p_reviewer_email)::text
  || ',"verification_status":"' || p_verification_status
  || '","is_hidden":' || p_is_hidden::text
  || ',"created_at":"' || pg_catalog.to_char(p_created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  || '","form_id":"' || p_form_id::text
  || '","custom_fields":' || case when p_custom_fields = '{}'::jsonb then '{}' else plaudit.canonical_json(p_custom_fields) end
  || ',"reply":' || coalesce(p_reply, 'null')
  || '}';

-- A reply as the Review's `reply` writes it.
create function plaudit.reply_json(p_content text, p_created_at timestamptz, p_updated_at timestamptz)
returns text
language sql
stable
parallel safe
return case when p_content is null then null else
  '{"content":' || pg_catalog.to_json(p_content)::text
  || ',"created_at":"' || pg_catalog.to_char(p_created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  || '","updated_at":"' || pg_catalog.to_char(p_updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  || '"}' end;

grant execute on function
  plaudit.review_json(uuid, integer, text, text, text, text, text, boolean, timestamptz, uuid, jsonb, text),
  plaudit.reply_json(text, timestamptz, timestamptz)
  to plaudit_api, plaudit_public;

create or replace function plaudit.api_review(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_review_id uuid)
returns table (
  key_id uuid, org_id uuid, scope text, prefix text,
  rate_limit integer, allowed boolean, remaining integer, reset_at bigint, body text
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
begin
  if plaudit.begin_api_read(p_key_hash, p_org_id, p_rate_limit, 'read') then
    body := (select plaudit.review_json(r.id, r.rating, r.title, r.content, r.reviewer_name, r.reviewer_email,
                                        r.verification_status, r.is_hidden, r.created_at, r.form_id, r.custom_fields,
                                        plaudit.reply_json(rr.content, rr.created_at, rr.updated_at))
               from plaudit.reviews r left join plaudit.review_replies rr on rr.review_id = r.id
              where r.id = p_review_id);
    perform set_config('role', 'none', true);
  end if;
  return query select a.*, body from plaudit.authenticate(p_key_hash, p_rate_limit) a;
end
$$;


-- ============================================================================================
-- the reply on the public routes
-- ============================================================================================
-- The public review lists (the feed, the profile page's reviews, the widget's) carry each
-- review's reply, or null, beside its other public fields. Their version moves with every reply
-- (the trigger above), so cached answers revalidate.
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

revoke execute on all functions in schema plaudit from public;

reset role;
