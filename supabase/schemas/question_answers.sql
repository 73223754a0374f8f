-- Answers to questions (docs/questions.md): the business's, published at once, and verified
-- buyers' through their single-use links; their moderation on the questions' trail, the
-- question.answered event, and helpful votes on answers, counted once per visitor as reviews' are.

-- What a buyer's answer page shows before they write: the question, its product, the business,
-- and the link's state (open | already_used | expired | invalid | not_published). Reads only.
create or replace function plaudit.question_answer_link(p_token text)
returns table (state text, question text, product_name text, org_name text)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select case
           when t.id is null then 'invalid'
           when t.used_at is not null then 'already_used'
           when t.expires_at <= now() then 'expired'
           when q.status <> 'published' then 'not_published'
           else 'open' end,
         case when q.status = 'published' then q.question end, p.name, o.name
    from (select 1) one
    left join plaudit.question_answer_tokens t on t.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    left join plaudit.questions q on q.id = t.question_id
    left join plaudit.products p on p.id = q.product_id
    left join plaudit.organizations o on o.id = t.org_id
$$;
comment on function plaudit.question_answer_link(text) is 'The state of a buyer''s answer link and the question it answers, for its page.';
grant execute on function plaudit.question_answer_link(text) to plaudit_public;

-- A verified buyer's answer through their link, limited per address: the token answers its own
-- question only, once, within 30 days, while the question is published; the answer publishes
-- marked verified_buyer. Outcome: answered | already_used | expired | invalid | not_published,
-- or a refusal of the content as error_code and error_message.
create or replace function plaudit.answer_question_by_token(
  p_rate_bucket text, p_rate_limit integer, p_token text, p_content text
)
returns table (rate_allowed boolean, rate_remaining integer, rate_reset bigint, outcome text, answer_id uuid)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
  t plaudit.question_answer_tokens;
begin
  select h.allowed, h.remaining, h.reset_at into rate_allowed, rate_remaining, rate_reset
    from plaudit.hit_rate_limit(p_rate_bucket, p_rate_limit) h;
  if not rate_allowed then
    return next;
    return;
  end if;
  select * into t from plaudit.question_answer_tokens x
   where x.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8')) for update;
  outcome := case
    when t.id is null then 'invalid'
    when t.used_at is not null then 'already_used'
    when t.expires_at <= now() then 'expired'
    when not exists (select from plaudit.questions q where q.id = t.question_id and q.status = 'published')
      then 'not_published'
    else 'answered' end;
  if outcome = 'answered' then
    update plaudit.question_answer_tokens x set used_at = now() where x.id = t.id;
    perform set_config('plaudit.actor', 'buyer:email_link', true);
    insert into plaudit.question_answers (org_id, question_id, author, author_name, content, token_id)
    values (t.org_id, t.question_id, 'verified_buyer', t.author_name, btrim(p_content), t.id)
    returning id into answer_id;
    perform set_config('plaudit.actor', '', true);
  end if;
  return next;
end
$$;
comment on function plaudit.answer_question_by_token(text,integer,text,text) is 'A verified buyer''s answer through their single-use link to one question, limited per address.';
grant execute on function plaudit.answer_question_by_token(text,integer,text,text) to plaudit_public;

-- The business's answer to a question of the caller's tenant, published at once and signed with
-- the business's public name. The business has one answer per question, as a seller's on GitHub or
-- Amazon: writing it again replaces its text (in the trail as `edit_answer`, with the text it
-- replaced, so nothing said is lost; an edit to the same text changes nothing), and a hidden one
-- stays hidden until shown again. Security definer, so that no role may change an answer's text
-- but through here (a buyer's never): the tenant is checked inside, and concurrent writes of one
-- question's answer wait for each other. Answers the answer's id and whether it was made now.
create or replace function plaudit.write_business_answer(p_question_id uuid, p_content text, p_actor text)
returns table (answer_id uuid, created boolean)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  org uuid := plaudit.current_org_id();
  existing uuid;
  new_id uuid;
begin
  if org is null or not exists (select from plaudit.questions q where q.id = p_question_id and q.org_id = org) then
    raise exception 'Question not found' using errcode = 'no_data_found';
  end if;
  if p_content is null or char_length(btrim(p_content)) not between 1 and 5000 then
    raise exception 'content: must be 1 to 5000 characters' using errcode = 'check_violation';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('business_answer:' || p_question_id::text, 0));
  select a.id into existing
    from plaudit.question_answers a
   where a.question_id = p_question_id and a.org_id = org and a.author = 'business'
   order by a.created_at desc, a.id desc
   limit 1;
  perform set_config('plaudit.actor', coalesce(p_actor, ''), true);
  if existing is null then
    insert into plaudit.question_answers (org_id, question_id, author, author_name, content)
    select org, p_question_id, 'business', left(coalesce(p.display_name, o.name), 200), btrim(p_content)
      from plaudit.organizations o left join plaudit.public_profiles p on p.org_id = o.id
     where o.id = org
    returning id into new_id;
  else
    update plaudit.question_answers a set content = btrim(p_content), updated_at = now()
     where a.id = existing and a.content is distinct from btrim(p_content);
  end if;
  perform set_config('plaudit.actor', '', true);
  return query select coalesce(new_id, existing), new_id is not null;
end
$$;
comment on function plaudit.write_business_answer(uuid,text,text) is 'Writes the business''s one answer to a question of the caller''s tenant, or replaces its text; answers its id and whether it was made now.';
grant execute on function plaudit.write_business_answer(uuid,text,text) to plaudit_api;

-- Hides or unhides an answer of the caller's tenant, as moderate_question; answers its question's id.
create or replace function plaudit.moderate_answer(p_id uuid, p_action text, p_reason text, p_actor text)
returns uuid
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  hide boolean := p_action = 'hide';
  question uuid;
begin
  if p_action is null or p_action not in ('hide', 'unhide') then
    raise exception 'action: must be hide or unhide' using errcode = 'invalid_parameter_value';
  end if;
  perform set_config('plaudit.actor', coalesce(p_actor, ''), true);
  perform set_config('plaudit.moderation_reason', coalesce(p_reason, ''), true);
  update plaudit.question_answers a set is_hidden = hide, updated_at = now()
   where a.id = p_id and a.is_hidden = not hide
  returning a.question_id into question;
  perform set_config('plaudit.moderation_reason', '', true);
  perform set_config('plaudit.actor', '', true);
  if question is null then
    if exists (select from plaudit.question_answers a where a.id = p_id) then
      raise exception '%', case when hide then 'Answer is already hidden' else 'Answer is not hidden' end
        using errcode = 'object_not_in_prerequisite_state';
    end if;
    raise exception 'Answer not found' using errcode = 'no_data_found';
  end if;
  return question;
end
$$;
comment on function plaudit.moderate_answer(uuid,text,text,text) is 'Hides or unhides an answer of the caller''s tenant on behalf of `p_actor`, with a reason for the trail.';
grant execute on function plaudit.moderate_answer(uuid,text,text,text) to plaudit_api;

-- The trail's entry for each business answer and each hide and unhide of an answer.
create or replace function plaudit.question_answers_record_moderation()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  if tg_op = 'INSERT' then
    if new.author = 'business' then
      insert into plaudit.question_moderation_trail (org_id, question_id, answer_id, action, reason, actor)
      values (new.org_id, new.question_id, new.id, 'answer', null, plaudit.current_actor());
    end if;
  elsif old.content is distinct from new.content then
    insert into plaudit.question_moderation_trail (org_id, question_id, answer_id, action, reason, actor)
    values (new.org_id, new.question_id, new.id, 'edit_answer', old.content, plaudit.current_actor());
  elsif old.is_hidden is distinct from new.is_hidden then
    insert into plaudit.question_moderation_trail (org_id, question_id, answer_id, action, reason, actor)
    values (new.org_id, new.question_id, new.id, case when new.is_hidden then 'hide' else 'unhide' end,
            nullif(current_setting('plaudit.moderation_reason', true), ''), plaudit.current_actor());
  end if;
  return null;
end
$$;
comment on function plaudit.question_answers_record_moderation() is 'Every business answer, each edit of it (with the text it replaced) and every hide and unhide of an answer is appended to the questions'' trail.';

-- question.answered for each new answer (never an address), and the question's last answer time,
-- which orders the public lists; again, with the same answer id, when the business edits its
-- answer's text (the question's order stays).
create or replace function plaudit.question_answers_emit_answered()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  q plaudit.questions;
begin
  if tg_op = 'INSERT' then
    update plaudit.questions x set last_answered_at = new.created_at where x.id = new.question_id
    returning x.* into q;
  else
    select x.* into q from plaudit.questions x where x.id = new.question_id;
  end if;
  perform plaudit.emit_event(new.org_id, 'question.answered', jsonb_build_object(
    'id', q.id, 'product', plaudit.review_product_json(q.product_id)::jsonb, 'question', q.question,
    'answer', jsonb_build_object('id', new.id, 'content', new.content, 'author', new.author,
                                 'author_name', new.author_name, 'created_at', plaudit.iso_utc(new.created_at))));
  return null;
end
$$;
comment on function plaudit.question_answers_emit_answered() is 'Every new answer gets its question.answered event and moves its question''s last answer time; an edited one gets its event again.';

-- A visitor finds a visible answer of a published question helpful, counted once per visitor as
-- review votes are (plaudit.visitor_hashes over the answer's id), limited per address. As
-- plaudit.vote_helpful, a counted vote moves the organization's public version (ETags) and asks
-- for its CDN purge itself (coalesced per organization), so that readers get the new count; the
-- answers' update trigger leaves a vote's to it. A repeated vote changes nothing.
-- `published` false: no such visible answer of the slug's question (404).
create or replace function plaudit.vote_answer_helpful(
  p_rate_bucket text, p_rate_limit integer, p_slug text, p_question_id uuid, p_answer_id uuid, p_visitor bytea
)
returns table (rate_allowed boolean, rate_remaining integer, rate_reset bigint, published boolean, helpful_count integer)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
  target plaudit.question_answers;
  hashes bytea[];
begin
  select h.allowed, h.remaining, h.reset_at into rate_allowed, rate_remaining, rate_reset
    from plaudit.hit_rate_limit(p_rate_bucket, p_rate_limit) h;
  if not rate_allowed then
    return next;
    return;
  end if;
  select a.* into target
    from plaudit.organizations o
    left join plaudit.public_profiles p on p.org_id = o.id
    join plaudit.questions q on q.org_id = o.id and q.id = p_question_id and q.status = 'published'
    join plaudit.question_answers a on a.question_id = q.id and a.id = p_answer_id and not a.is_hidden
   where o.slug = p_slug and coalesce(p.enabled, true);
  published := target.id is not null;
  if not published then
    return next;
    return;
  end if;
  hashes := plaudit.visitor_hashes(target.id, p_visitor);
  if not exists (select from plaudit.answer_votes v where v.answer_id = target.id and v.visitor_hash = any (hashes)) then
    insert into plaudit.answer_votes (answer_id, org_id, visitor_hash) values (target.id, target.org_id, hashes[1])
    on conflict do nothing;
    if found then
      update plaudit.question_answers a set helpful_count = a.helpful_count + 1 where a.id = target.id
      returning a.helpful_count into helpful_count;
      perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(target.org_id)));
      perform plaudit.request_cdn_purge(target.org_id, false);
      return next;
      return;
    end if;
  end if;
  select a.helpful_count into helpful_count from plaudit.question_answers a where a.id = target.id;
  return next;
end
$$;
comment on function plaudit.vote_answer_helpful(text,integer,text,uuid,uuid,bytea) is 'Counts a visitor''s helpful vote on a visible answer once, limited per address; answers the answer''s count.';
grant execute on function plaudit.vote_answer_helpful(text,integer,text,uuid,uuid,bytea) to plaudit_public;

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger question_answers_record_moderation
  after insert or update on plaudit.question_answers
  for each row execute function plaudit.question_answers_record_moderation();

create trigger question_answers_emit_answered
  after insert or update of content on plaudit.question_answers
  for each row execute function plaudit.question_answers_emit_answered();

create trigger question_answers_public_change_on_insert
  after insert on plaudit.question_answers
  for each row execute function plaudit.questions_public_change();

-- A helpful vote (only plaudit.vote_answer_helpful changes helpful_count) moves the public version
-- and asks for its purge itself, as review votes do.
create trigger question_answers_public_change_on_update
  after update on plaudit.question_answers
  for each row when (old.helpful_count is not distinct from new.helpful_count)
  execute function plaudit.questions_public_change();

create trigger question_answers_refuse_delete
  before delete on plaudit.question_answers
  for each row execute function plaudit.questions_refuse_delete();

create trigger question_answers_refuse_truncate
  before truncate on plaudit.question_answers
  for each statement execute function plaudit.questions_refuse_delete();

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read the answers to their own questions"
  on plaudit.question_answers for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can answer their own questions"
  on plaudit.question_answers for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()) and author = 'business'
              and exists (select from plaudit.questions q
                           where q.id = question_answers.question_id and q.org_id = question_answers.org_id));

create policy "Tenants can moderate the answers to their own questions"
  on plaudit.question_answers for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.question_answers to plaudit_api;
grant insert (org_id, question_id, author, author_name, content) on plaudit.question_answers to plaudit_api;
grant update (is_hidden, updated_at) on plaudit.question_answers to plaudit_api;

