-- Replies to reviews: one public reply per review, recorded on the trail.

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
  reviewed plaudit.reviews;
begin
  -- A reply brought by an import is part of the import's one entry and one event.
  if r.imported then
    return null;
  end if;
  select * into reviewed from plaudit.reviews v where v.id = r.review_id;
  perform plaudit.append_moderation_entry(r.org_id, r.review_id, action,
                                          case when tg_op = 'DELETE' then null else r.content end,
                                          plaudit.current_actor());
  perform plaudit.emit_event(r.org_id, 'review.replied', jsonb_build_object(
    'id', r.review_id, 'form_id', reviewed.form_id, 'product', plaudit.review_product_json(reviewed.product_id)::jsonb,
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

-- The trail's actions of replies.
insert into plaudit.trail_actions (action, description) values
  ('reply', 'The business replied to a review.'),
  ('edit_reply', 'The business edited its reply.'),
  ('withdraw_reply', 'The business withdrew its reply.')
on conflict (action) do update set description = excluded.description;

-- ============================================================================================
-- writing and withdrawing
-- ============================================================================================
-- Writes or edits the reply to a review of the caller's tenant; answers the reply. Runs with the
-- caller's rights: row-level security finds the review and guards the reply. An edit with the
-- same text changes nothing and records nothing. A public reply needs a published review: a
-- pending one (not public yet) or a rejected one (never public) is refused; a published review
-- hidden since keeps its reply, which shows again with it.
create or replace function plaudit.reply_to_review(p_review_id uuid, p_content text, p_actor text)
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
  if exists (select from plaudit.reviews v
              where v.id = p_review_id and v.verification_status in ('pending', 'rejected')) then
    raise exception 'Only a published review takes a public reply' using errcode = 'object_not_in_prerequisite_state';
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
comment on function plaudit.reply_to_review(uuid,text,text) is 'Writes or edits the reply to a published review of the caller''s tenant (never a pending or rejected one); answers the reply.';
grant execute on function plaudit.reply_to_review(uuid,text,text) to plaudit_api;

-- Withdraws the reply to a review of the caller's tenant; answers whether there was one. Runs
-- with the caller's rights, as reply_to_review.
create or replace function plaudit.withdraw_review_reply(p_review_id uuid, p_actor text)
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
comment on function plaudit.withdraw_review_reply(uuid,text) is 'Withdraws the reply to a review of the caller''s tenant; answers whether there was one.';
grant execute on function plaudit.withdraw_review_reply(uuid,text) to plaudit_api;

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger review_replies_record
  after insert or update or delete on plaudit.review_replies
  for each row execute function plaudit.review_replies_record();
