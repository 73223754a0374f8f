-- review events name product: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- Outbox events, in the transaction of their cause.
-- review.created: what a receiver needs to show the review, the product it is about (as the
-- Review's `product`, null for the business) and its answers to the form's custom fields, never
-- the reviewer's e-mail.
create or replace function plaudit.reviews_emit_created()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  perform plaudit.emit_event(n.org_id, 'review.created', jsonb_build_object(
    'id', n.id, 'form_id', n.form_id, 'rating', n.rating, 'title', n.title, 'content', n.content,
    'reviewer_name', n.reviewer_name, 'verification_status', n.verification_status,
    'custom_fields', n.custom_fields, 'product', plaudit.review_product_json(n.product_id)::jsonb,
    'created_at', to_char(n.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
  from new_reviews n
  order by n.created_at, n.id;
  return null;
end
$$;
comment on function plaudit.reviews_emit_created() is 'Every inserted review gets its review.created event, in the transaction that inserts it.';

-- review.moderated and review.verified, beside the trail entry; each names the review's product
-- as the Review's `product` does.
create or replace function plaudit.reviews_emit_changes()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  at text := to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
begin
  if new.is_hidden is distinct from old.is_hidden then
    perform plaudit.emit_event(new.org_id, 'review.moderated', jsonb_build_object(
      'id', new.id, 'form_id', new.form_id, 'product', plaudit.review_product_json(new.product_id)::jsonb,
      'action', case when new.is_hidden then 'hide' else 'unhide' end,
      'is_hidden', new.is_hidden,
      'reason', nullif(current_setting('plaudit.moderation_reason', true), ''),
      'actor', plaudit.current_actor(), 'moderated_at', at,
      'moderation_chain', plaudit.moderation_chain_head(new.org_id)));
  end if;
  if new.verification_status is distinct from old.verification_status then
    perform plaudit.emit_event(new.org_id, 'review.verified', jsonb_build_object(
      'id', new.id, 'form_id', new.form_id, 'product', plaudit.review_product_json(new.product_id)::jsonb,
      'verification_status', new.verification_status, 'previous_status', old.verification_status,
      'method', new.verification_method, 'reason', new.verification_reason,
      'actor', plaudit.current_actor(), 'verified_at', at));
  end if;
  return null;
end
$$;
comment on function plaudit.reviews_emit_changes() is 'Every change of a review''s visibility or verification status emits review.moderated or review.verified.';

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
  perform plaudit.add_review_statistics(jsonb_build_array(jsonb_build_object(
    'org_id', r.org_id, 'total_count', 0, 'public_count', 0, 'rating_sum', 0, 'rating_1', 0, 'rating_2', 0,
    'rating_3', 0, 'rating_4', 0, 'rating_5', 0, 'version', 1)));
  return null;
end
$$;
comment on function plaudit.review_replies_record() is 'Every reply written, edited or withdrawn gets its trail entry, its review.replied event and a new public version.';

revoke execute on all functions in schema plaudit from public;
reset role;
