-- merge votes: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- Only the columns moderation, verification and helpful votes own may change, and the verification status moves
-- only forward: pending to verified or rejected; and an unverified review to verified by an
-- invitation (the one other way a review proves its writer).
create or replace function plaudit.reviews_guard_update()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  if (new.id, new.org_id, new.form_id, new.rating, new.title, new.content, new.reviewer_name,
      new.reviewer_email, new.custom_fields, new.created_at)
     is distinct from
     (old.id, old.org_id, old.form_id, old.rating, old.title, old.content, old.reviewer_name,
      old.reviewer_email, old.custom_fields, old.created_at)
     -- Forgetting the reviewer (plaudit.erase_reviewer) is the one rewrite: the address, name and
     -- answers gone, the text kept or replaced by the removal notice, nothing else changed.
     and not ((new.id, new.org_id, new.form_id, new.rating, new.created_at)
                is not distinct from (old.id, old.org_id, old.form_id, old.rating, old.created_at)
              and new.reviewer_email is null and new.reviewer_name = 'Anonymous' and new.custom_fields = '{}'
              and (new.title is not distinct from old.title or new.title = plaudit.erasure_notice())
              and (new.content = old.content or new.content = plaudit.erasure_notice()))
  then
    raise exception 'a review cannot be rewritten: only moderation and verification may change it'
      using errcode = 'restrict_violation';
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
  -- Where a review came from, and what was offered for it, are written once.
  if (new.source, new.source_platform, new.imported_as_verified, new.incentive::jsonb)
     is distinct from (old.source, old.source_platform, old.imported_as_verified, old.incentive::jsonb) then
    raise exception 'a review cannot be rewritten: only moderation and verification may change it'
      using errcode = 'restrict_violation';
  end if;
  -- A helpful vote (plaudit.vote_helpful) changes only the count: the review itself did not change.
  if new.helpful_count is not distinct from old.helpful_count then
    new.updated_at := now();
  end if;
  return new;
end
$$;
comment on function plaudit.reviews_guard_update() is 'A review is never rewritten (but for forgetting its reviewer): only moderation and verification change it, and its verification status only moves forward.';

-- A public review item, the one writer of it for every public list (the profile's, the widget's,
-- a product's, the pages'): the review's public columns (its source among them), its product
-- (`{"external_id","name"}`, or null for a review of the business), its reply and its helpful votes. A plain expression of its arguments, which
-- the planner inlines into its callers (hence no SET clause: every name is schema-qualified).
create or replace function plaudit.public_review_json(
  pr plaudit.public_reviews, reply plaudit.review_replies, product plaudit.products
)
returns text
language sql
stable
parallel safe
as $$
  select '{"id":"' || pr.id::text || '","rating":' || pr.rating::text
    || ',"title":' || coalesce(pg_catalog.to_json(pr.title)::text, 'null')
    || ',"content":' || pg_catalog.to_json(pr.content)::text
    || ',"reviewer_name":' || pg_catalog.to_json(pr.reviewer_name)::text
    || ',"verification_status":"' || pr.verification_status
    || '","verification_method":' || coalesce(pg_catalog.to_json(pr.verification_method)::text, 'null')
    || ',"source":"' || pr.source || '","source_platform":' || coalesce('"' || pr.source_platform || '"', 'null')
    || ',"incentivized":' || pr.incentivized::text
    || ',"product":' || case when product.id is null then 'null'
         else '{"external_id":' || pg_catalog.to_json(product.external_id)::text
              || ',"name":' || pg_catalog.to_json(product.name)::text || '}' end
    || ',"reply":' || coalesce(plaudit.reply_json(reply), 'null')
    || ',"helpful_count":' || pr.helpful_count::text
    || ',"created_at":"' || pg_catalog.to_char(pr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '"}'
$$;
comment on function plaudit.public_review_json(plaudit.public_reviews,plaudit.review_replies,plaudit.products) is 'A public review item as compact JSON: the one writer of it, for every public list.';

revoke execute on all functions in schema plaudit from public;
reset role;
