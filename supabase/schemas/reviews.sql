-- Reviews: what may change in a review and what may not, deletion refused, the creation event.

-- What an erased review's title and text read when the reviewer asked for them to go too.
create or replace function plaudit.erasure_notice()
returns text
language sql
immutable
parallel safe
as $$ select '[removed at the reviewer''s request]'::text $$;
comment on function plaudit.erasure_notice() is 'The text an erased review''s title and content are replaced with when the reviewer asked for it.';
grant execute on function plaudit.erasure_notice() to plaudit_api, plaudit_worker;

-- A review is written once: after its insert only the columns listed here may change, whoever
-- asks (the table's owner and so every SECURITY DEFINER function, the API's tenant through its
-- column grants and row-level security). Every other column, one added later included, is
-- refused, compared as the row's JSON without the listed keys. Who changes each group, and why:
--   * moderation: is_hidden, by plaudit.moderate_review (the API's tenant, plaudit_api), hides a
--     review from public view and back, each change on the moderation trail;
--   * verification: verification_status and its provenance (verification_method, _at, _key_id,
--     _token_id, _order_hash, _reason), by plaudit.change_verification and its callers
--     (approve_review, reject_review, verify_review_by_order: the API's tenant),
--     plaudit.verify_review_by_token (the e-mailed link, or the API) and
--     plaudit.submit_requested_review (an invitation's page): the status only moves forward,
--     pending to verified or rejected, or unverified to verified by an invitation (the one other
--     way a review proves its writer), and the provenance changes only with it;
--   * helpful votes: helpful_count, by plaudit.vote_helpful (the public, once per visitor; the
--     votes themselves are plaudit.review_votes): a count beside the review, not the review;
--   * forgetting the reviewer: reviewer_email, reviewer_name, custom_fields, title and content, by
--     plaudit.erase_reviewer (the API's tenant, a privacy erasure), only in the erasure's exact
--     shape: the address, name and answers gone, the title and text kept or replaced by the
--     removal notice;
--   * search, generated from the title and the text: PostgreSQL recomputes it after this trigger
--     (and shows it here as null), no statement can write it;
--   * updated_at is this trigger's own: set to now() on every change but a helpful vote's, never
--     by the caller.
-- What a review says and where it came from (rating, form, organization, product, dates, source,
-- platform, incentive, import key) is set by its insert only: plaudit.submit_review and
-- plaudit.run_imports.
create or replace function plaudit.reviews_guard_update()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
declare
  vote plaudit.reviews;
  changeable constant text[] := array[
    'is_hidden',
    'verification_status', 'verification_method', 'verification_at', 'verification_key_id',
    'verification_token_id', 'verification_order_hash', 'verification_reason',
    'helpful_count',
    'reviewer_email', 'reviewer_name', 'custom_fields', 'title', 'content',
    'search'];
  before jsonb;
  after jsonb;
  refused text;
begin
  -- A helpful vote (plaudit.vote_helpful) changes the count and nothing else: told apart by
  -- comparing the rows with the old count (and the generated search, null here) put back, so a
  -- vote skips the rules below and the rows' JSON.
  if new.helpful_count is distinct from old.helpful_count then
    vote := new;
    vote.helpful_count := old.helpful_count;
    vote.search := old.search;
    if vote is not distinct from old then
      return new;
    end if;
  end if;
  before := to_jsonb(old) - changeable;
  after := to_jsonb(new) - changeable;
  if after is distinct from before then
    select string_agg(a.key, ', ' order by a.key) into refused
      from jsonb_each(after) a where a.value is distinct from before -> a.key;
    raise exception 'a review cannot be rewritten: only moderation and verification may change it'
      using errcode = 'restrict_violation', detail = 'Refused: ' || refused || '.';
  end if;
  -- Forgetting the reviewer (plaudit.erase_reviewer) is the one rewrite of what the reviewer
  -- wrote, and only whole.
  if (new.reviewer_email, new.reviewer_name, new.custom_fields, new.title, new.content)
     is distinct from (old.reviewer_email, old.reviewer_name, old.custom_fields, old.title, old.content)
     and not (new.reviewer_email is null and new.reviewer_name = 'Anonymous' and new.custom_fields = '{}'
              and (new.title is not distinct from old.title or new.title = plaudit.erasure_notice())
              and (new.content = old.content or new.content = plaudit.erasure_notice()))
  then
    raise exception 'a review cannot be rewritten: only moderation and verification may change it'
      using errcode = 'restrict_violation',
            detail = 'The reviewer''s address, name, answers, title and text change only as an erasure.';
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
  -- A helpful vote changes only the count: the review itself did not change.
  if new.helpful_count is not distinct from old.helpful_count then
    new.updated_at := now();
  end if;
  return new;
end
$$;
comment on function plaudit.reviews_guard_update() is 'A review is never rewritten: only the columns moderation, verification, helpful votes and forgetting the reviewer own may change, each as its rule allows, whoever asks.';

-- A review is never deleted, not even by the table's owner: the moderation trail refers to it
-- and the statistics count it. Hiding it through moderation takes it out of public view.
create or replace function plaudit.reviews_refuse_delete()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  raise exception 'reviews cannot be deleted; hide them through moderation instead'
    using errcode = 'restrict_violation';
end
$$;
comment on function plaudit.reviews_refuse_delete() is 'Reviews are never deleted or truncated, whoever asks: moderation hides them instead.';

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
  -- An import announces itself once (import.completed), not each review it brings.
  where n.source <> 'import'
  order by n.created_at, n.id;
  return null;
end
$$;
comment on function plaudit.reviews_emit_created() is 'Every inserted review but an imported one gets its review.created event, in the transaction that inserts it.';

create trigger reviews_emit_created
  after insert on plaudit.reviews
  referencing new table as new_reviews
  for each statement execute function plaudit.reviews_emit_created();

create trigger reviews_guard_update
  before update on plaudit.reviews
  for each row execute function plaudit.reviews_guard_update();

create trigger reviews_refuse_delete
  before delete on plaudit.reviews
  for each row execute function plaudit.reviews_refuse_delete();

create trigger reviews_refuse_truncate
  before truncate on plaudit.reviews
  for each statement execute function plaudit.reviews_refuse_delete();

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own moderation trail"
  on plaudit.moderation_trail for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

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

create policy "Tenants can read their own review statistics"
  on plaudit.review_statistics for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own reviews"
  on plaudit.reviews for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can moderate and verify their own reviews"
  on plaudit.reviews for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.moderation_trail to plaudit_api;
grant select, delete on plaudit.review_replies to plaudit_api;
grant insert (review_id, org_id, content) on plaudit.review_replies to plaudit_api;
grant update (content, updated_at) on plaudit.review_replies to plaudit_api;
grant select on plaudit.review_statistics to plaudit_api;
grant select on plaudit.reviews to plaudit_api;
grant update (verification_status, is_hidden, verification_method, verification_at, verification_key_id, verification_order_hash, verification_reason) on plaudit.reviews to plaudit_api;
