-- Appeals (EU DSA Art. 20): the reviewer appeals through the single-purpose link of a statement of
-- reasons (its token, kept as a hash); one appeal per statement; a member decides it: `upheld`
-- keeps the review hidden, `reversed` shows it again. Each step goes in the moderation trail
-- (`appeal`, `uphold_appeal`, `reverse_appeal`, and the reversal's `unhide`) and is mailed to the
-- reviewer.
-- An appeal may be made for six months from the statement's date (Art. 20(1) asks for at least
-- six months after the decision): plaudit.appeal_window() is that constant, and past
-- plaudit.appeal_until(statement) the form shows the end and plaudit.submit_appeal refuses.

-- How long after a statement of reasons its decision may be appealed: the DSA's minimum (Art. 20(1)).
create or replace function plaudit.appeal_window()
returns interval
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select interval '6 months'
$$;
comment on function plaudit.appeal_window() is 'How long after its statement of reasons a decision may be appealed: six months (DSA Art. 20(1)).';

-- The last moment a statement's decision may be appealed: its date plus the appeal window.
create or replace function plaudit.appeal_until(p_statement plaudit.review_statements)
returns timestamptz
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select p_statement.created_at + plaudit.appeal_window()
$$;
comment on function plaudit.appeal_until(plaudit.review_statements) is 'The last moment a statement''s decision may be appealed: its date plus plaudit.appeal_window().';

-- The refusal of an appeal made too late, as the form and the database say it (the date in UTC).
create or replace function plaudit.appeal_closed_message(p_until timestamptz)
returns text
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select 'The time to appeal this decision ended on ' || to_char(p_until at time zone 'UTC', 'FMMonth FMDD, YYYY') || '.'
$$;
comment on function plaudit.appeal_closed_message(timestamptz) is 'The refusal of an appeal made after its window, naming the day it ended (UTC).';

-- What the appeal form shows for a token: the organization, and the statement's ground and facts;
-- the appeal when one was made; until when one may appeal, and, once that has passed, the
-- refusal to show (appeal_closed). No row: no such token.
create or replace function plaudit.appeal_form(p_token text)
returns table (org_name text, statement_id uuid, ground_type text, ground text, facts text, hidden_at timestamptz,
               appeal_status text, still_hidden boolean, appeal_until timestamptz, appeal_closed text)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select plaudit.brand_name(s.org_id), s.id, s.ground_type, s.ground, s.facts, s.created_at, a.status, r.is_hidden,
         plaudit.appeal_until(s),
         case when now() > plaudit.appeal_until(s) then plaudit.appeal_closed_message(plaudit.appeal_until(s)) end
    from plaudit.review_statements s
    join plaudit.reviews r on r.id = s.review_id
    left join plaudit.review_appeals a on a.statement_id = s.id
   where s.appeal_token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
$$;
comment on function plaudit.appeal_form(text) is 'What an appeal link''s form shows: the statement it answers, any appeal made, and until when one may appeal; no row for an unknown token.';
grant execute on function plaudit.appeal_form(text) to plaudit_public;

-- The reviewer's appeal, through the token: stored open, in the trail (`appeal`, actor
-- `reviewer:appeal_link`), acknowledged by mail. `outcome`: appealed, already_appealed, or invalid.
-- Past the statement's appeal window (plaudit.appeal_until) a new appeal is refused
-- (object_not_in_prerequisite_state, "The time to appeal this decision ended on <day>.").
create or replace function plaudit.submit_appeal(p_token text, p_text text)
returns table (outcome text, appeal_id uuid)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  s plaudit.review_statements;
  r plaudit.reviews;
  a plaudit.review_appeals;
begin
  select * into s from plaudit.review_statements x
   where x.appeal_token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'));
  if s.id is null then
    return query select 'invalid'::text, null::uuid;
    return;
  end if;
  if now() > plaudit.appeal_until(s)
     and not exists (select from plaudit.review_appeals x where x.statement_id = s.id) then
    raise exception '%', plaudit.appeal_closed_message(plaudit.appeal_until(s))
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  insert into plaudit.review_appeals (org_id, review_id, statement_id, text)
  values (s.org_id, s.review_id, s.id, btrim(p_text))
  on conflict (statement_id) do nothing
  returning * into a;
  if a.id is null then
    return query select 'already_appealed'::text, (select x.id from plaudit.review_appeals x where x.statement_id = s.id);
    return;
  end if;
  perform plaudit.append_moderation_entry(s.org_id, s.review_id, 'appeal', 'appeal ' || a.id || ': ' || a.text,
                                          'reviewer:appeal_link');
  select * into r from plaudit.reviews x where x.id = s.review_id;
  if r.reviewer_email is not null then
    perform plaudit.enqueue_email(s.org_id, r.reviewer_email, 'appeal_received', plaudit.appeal_mail_data(a),
                                  'en', 'appeal_received:' || a.id);
  end if;
  return query select 'appealed'::text, a.id;
end
$$;
comment on function plaudit.submit_appeal(text,text) is 'Stores the reviewer''s appeal through its statement''s token, once, within its window, in the trail, with its acknowledgement mail.';
grant execute on function plaudit.submit_appeal(text,text) to plaudit_public;

-- What the reviewer's appeal mails say: the appeal, its statement's ground, the decision once made,
-- and the slug of the business's review policy page while it is public (the decision links to it).
create or replace function plaudit.appeal_mail_data(p_appeal plaudit.review_appeals)
returns jsonb
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select jsonb_build_object(
    'appeal_id', p_appeal.id, 'text', p_appeal.text, 'status', p_appeal.status, 'resolution', p_appeal.resolution,
    'received_at', plaudit.iso_utc(p_appeal.created_at), 'decided_at', plaudit.iso_utc(p_appeal.decided_at),
    'ground', jsonb_build_object('type', s.ground_type, 'text', s.ground),
    'org_slug', plaudit.policy_page_slug(p_appeal.org_id))
    from plaudit.review_statements s where s.id = p_appeal.statement_id
$$;
comment on function plaudit.appeal_mail_data(plaudit.review_appeals) is 'What the reviewer''s appeal mails say of the appeal and its statement, with the slug of the business''s policy page while it is public.';

-- An appeal of the caller's tenant as the API answers it, with its review and statement. Null: no
-- such appeal of the tenant.
create or replace function plaudit.review_appeal_json(p_id uuid)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'id', a.id, 'review_id', a.review_id, 'statement_id', a.statement_id, 'text', a.text, 'status', a.status,
    'resolution', a.resolution, 'decided_at', plaudit.iso_utc(a.decided_at), 'decided_by', a.decided_by,
    'created_at', plaudit.iso_utc(a.created_at),
    'review', json_build_object('id', r.id, 'rating', r.rating, 'title', r.title, 'content', r.content,
                                'reviewer_name', r.reviewer_name, 'is_hidden', r.is_hidden),
    'statement', plaudit.statement_json(s))
    from plaudit.review_appeals a
    join plaudit.reviews r on r.id = a.review_id
    join plaudit.review_statements s on s.id = a.statement_id
   where a.id = p_id and a.org_id = plaudit.current_org_id()
$$;
comment on function plaudit.review_appeal_json(uuid) is 'An appeal of the caller''s tenant as the API answers it, with its review and statement; null when there is none.';
grant execute on function plaudit.review_appeal_json(uuid) to plaudit_api;

-- A member decides an appeal of the caller's tenant: upheld (the review stays hidden) or reversed
-- (it is shown again, `unhide` in the trail naming the appeal); the decision goes in the trail and
-- is mailed to the reviewer. Only an open appeal is decided; only a member (`member:<id>`) decides.
-- Null: no such appeal of the tenant.
create or replace function plaudit.decide_appeal(p_id uuid, p_status text, p_resolution text, p_actor text)
returns uuid
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.current_org_id();
  a plaudit.review_appeals;
  r plaudit.reviews;
begin
  if p_status is null or p_status not in ('upheld', 'reversed') then
    raise exception 'status: must be upheld or reversed' using errcode = 'invalid_parameter_value';
  end if;
  if coalesce(p_actor, '') not like 'member:%' then
    raise exception 'Appeals are decided by a member of the team, signed in to the dashboard'
      using errcode = 'insufficient_privilege';
  end if;
  select * into a from plaudit.review_appeals x where x.id = p_id and x.org_id = tenant for update;
  if a.id is null then
    return null;
  end if;
  if a.status <> 'open' then
    raise exception 'Appeal is already decided' using errcode = 'object_not_in_prerequisite_state';
  end if;
  update plaudit.review_appeals x
     set status = p_status, resolution = btrim(p_resolution), decided_at = now(), decided_by = p_actor
   where x.id = a.id
  returning * into a;
  perform plaudit.append_moderation_entry(a.org_id, a.review_id,
    case when p_status = 'upheld' then 'uphold_appeal' else 'reverse_appeal' end,
    'appeal ' || a.id || ': ' || a.resolution, p_actor);
  if p_status = 'reversed' then
    perform set_config('plaudit.actor', p_actor, true);
    perform set_config('plaudit.moderation_reason', 'appeal ' || a.id || ' reversed: ' || a.resolution, true);
    update plaudit.reviews x set is_hidden = false where x.id = a.review_id and x.is_hidden;
    perform set_config('plaudit.moderation_reason', '', true);
    perform set_config('plaudit.actor', '', true);
  end if;
  select * into r from plaudit.reviews x where x.id = a.review_id;
  if r.reviewer_email is not null then
    perform plaudit.enqueue_email(a.org_id, r.reviewer_email, 'appeal_decided', plaudit.appeal_mail_data(a),
                                  'en', 'appeal_decided:' || a.id);
  end if;
  return a.id;
end
$$;
comment on function plaudit.decide_appeal(uuid,text,text,text) is 'A member upholds or reverses an open appeal of the caller''s tenant (reversing shows the review again), in the trail and mailed to the reviewer.';
grant execute on function plaudit.decide_appeal(uuid,text,text,text) to plaudit_api;

-- The trail's actions of appeals.
insert into plaudit.trail_actions (action, description) values
  ('appeal', 'A reviewer appealed a decision on their review.'),
  ('uphold_appeal', 'A member upheld the decision appealed.'),
  ('reverse_appeal', 'A member reversed the decision appealed.')
on conflict (action) do update set description = excluded.description;

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own appeals" on plaudit.review_appeals for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.review_appeals to plaudit_api;
