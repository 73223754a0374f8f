-- Reviews, their statistics, and the moderation trail: append-only, hash-chained, its head published.
--
--
-- The functions and views of this concern, each once, as the database has them now.

-- What an erased review's title and text read when the reviewer asked for them to go too.
create or replace function plaudit.erasure_notice()
returns text
language sql
immutable
parallel safe
as $$ select '[removed at the reviewer''s request]'::text $$;
comment on function plaudit.erasure_notice() is 'The text an erased review''s title and content are replaced with when the reviewer asked for it.';

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

-- Whether a review shows in public, in one place: the statistics triggers and the recount must
-- agree with the public projection (plaudit.public_reviews) on it.
create or replace function plaudit.review_is_public(p_is_hidden boolean, p_status text)
returns boolean
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$ select not p_is_hidden and p_status in ('verified', 'unverified') $$;
comment on function plaudit.review_is_public(boolean,text) is 'True when a review shows in public: not hidden, and verified or unverified.';

-- Adds signed deltas, one row per organization, in organization order (so two multi-tenant
-- statements cannot deadlock), to this backend's slot.
create or replace function plaudit.add_review_statistics(p_deltas jsonb)
returns void
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  insert into plaudit.review_statistics as s
    (org_id, slot, total_count, public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5, version)
  select d.org_id, pg_backend_pid() % 16, d.total_count, d.public_count, d.rating_sum,
         d.rating_1, d.rating_2, d.rating_3, d.rating_4, d.rating_5, d.version
  from jsonb_to_recordset(p_deltas) as d(
    org_id uuid, total_count bigint, public_count bigint, rating_sum bigint, rating_1 bigint,
    rating_2 bigint, rating_3 bigint, rating_4 bigint, rating_5 bigint, version bigint)
  order by d.org_id
  on conflict (org_id, slot) do update set
    total_count = s.total_count + excluded.total_count,
    public_count = s.public_count + excluded.public_count,
    rating_sum = s.rating_sum + excluded.rating_sum,
    rating_1 = s.rating_1 + excluded.rating_1,
    rating_2 = s.rating_2 + excluded.rating_2,
    rating_3 = s.rating_3 + excluded.rating_3,
    rating_4 = s.rating_4 + excluded.rating_4,
    rating_5 = s.rating_5 + excluded.rating_5,
    version = s.version + excluded.version,
    updated_at = now();
end
$$;
comment on function plaudit.add_review_statistics(jsonb) is 'Adds signed deltas to this backend''s slot of the review statistics, one row per organization, in organization order.';

-- A delta of the review statistics that moves an organization's public version and counts nothing.
create or replace function plaudit.public_version_delta(p_org_id uuid)
returns jsonb
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select jsonb_build_object('org_id', p_org_id, 'total_count', 0, 'public_count', 0, 'rating_sum', 0, 'rating_1', 0,
                            'rating_2', 0, 'rating_3', 0, 'rating_4', 0, 'rating_5', 0, 'version', 1)
$$;
comment on function plaudit.public_version_delta(uuid) is 'A review statistics delta that moves an organization''s public version and counts nothing.';

-- Statement-level, over the inserted rows: one statistics write per organization and statement,
-- however many reviews it inserts; the version moves only when a public review arrives. The
-- business's public figures count reviews of the business only (total_count counts every review,
-- for the organization's own list); a product's public reviews go to its own counters.
create or replace function plaudit.reviews_count_inserted()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  deltas jsonb;
  product_deltas jsonb;
begin
  select jsonb_agg(d) into deltas from (
    select n.org_id,
           count(*) as total_count,
           count(*) filter (where b) as public_count,
           coalesce(sum(n.rating) filter (where b), 0) as rating_sum,
           count(*) filter (where b and n.rating = 1) as rating_1,
           count(*) filter (where b and n.rating = 2) as rating_2,
           count(*) filter (where b and n.rating = 3) as rating_3,
           count(*) filter (where b and n.rating = 4) as rating_4,
           count(*) filter (where b and n.rating = 5) as rating_5,
           case when bool_or(p) then 1 else 0 end as version
    from (select r.*, plaudit.review_is_public(r.is_hidden, r.verification_status) as p,
                 plaudit.review_is_public(r.is_hidden, r.verification_status) and r.product_id is null as b
          from new_reviews r) n
    group by n.org_id
  ) d;
  if deltas is not null then
    perform plaudit.add_review_statistics(deltas);
  end if;
  select jsonb_agg(d) into product_deltas from (
    select n.product_id, n.org_id, count(*) as public_count, sum(n.rating) as rating_sum,
           count(*) filter (where n.rating = 1) as rating_1, count(*) filter (where n.rating = 2) as rating_2,
           count(*) filter (where n.rating = 3) as rating_3, count(*) filter (where n.rating = 4) as rating_4,
           count(*) filter (where n.rating = 5) as rating_5
    from new_reviews n
    where n.product_id is not null and plaudit.review_is_public(n.is_hidden, n.verification_status)
    group by n.product_id, n.org_id
  ) d;
  if product_deltas is not null then
    perform plaudit.add_product_review_statistics(product_deltas);
  end if;
  return null;
end
$$;
comment on function plaudit.reviews_count_inserted() is 'The review statistics count every review an insert statement makes, in its transaction.';

-- Ratings never change, so an update matters only when it moves a review in or out of public
-- view: the business's figures follow reviews of the business, a product's its own; the
-- organization's version moves for both (its public answers show both).
create or replace function plaudit.reviews_count_updated()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  deltas jsonb;
  product_deltas jsonb;
begin
  with c as (
    select n.org_id, n.product_id, n.rating,
           case when plaudit.review_is_public(n.is_hidden, n.verification_status) then 1 else -1 end as sign
    from new_reviews n join old_reviews o on o.id = n.id
    where plaudit.review_is_public(n.is_hidden, n.verification_status)
          <> plaudit.review_is_public(o.is_hidden, o.verification_status)
  )
  select
    (select jsonb_agg(d) from (
       select c.org_id,
              0 as total_count,
              coalesce(sum(c.sign) filter (where c.product_id is null), 0) as public_count,
              coalesce(sum(c.sign * c.rating) filter (where c.product_id is null), 0) as rating_sum,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 1), 0) as rating_1,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 2), 0) as rating_2,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 3), 0) as rating_3,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 4), 0) as rating_4,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 5), 0) as rating_5,
              1 as version
       from c group by c.org_id) d),
    (select jsonb_agg(d) from (
       select c.product_id, c.org_id, sum(c.sign) as public_count, sum(c.sign * c.rating) as rating_sum,
              coalesce(sum(c.sign) filter (where c.rating = 1), 0) as rating_1,
              coalesce(sum(c.sign) filter (where c.rating = 2), 0) as rating_2,
              coalesce(sum(c.sign) filter (where c.rating = 3), 0) as rating_3,
              coalesce(sum(c.sign) filter (where c.rating = 4), 0) as rating_4,
              coalesce(sum(c.sign) filter (where c.rating = 5), 0) as rating_5
       from c where c.product_id is not null group by c.product_id, c.org_id) d)
    into deltas, product_deltas;
  if deltas is not null then
    perform plaudit.add_review_statistics(deltas);
  end if;
  if product_deltas is not null then
    perform plaudit.add_product_review_statistics(product_deltas);
  end if;
  return null;
end
$$;
comment on function plaudit.reviews_count_updated() is 'The review statistics follow every update that moves a review in or out of public view.';

-- Recounts an organization from its reviews (after a bulk load with triggers disabled, or to
-- check the counters): one slot row with the true figures, version moved past every earlier one.
-- Its public figures are the business's (reviews of products: rebuild_product_review_statistics).
create or replace function plaudit.rebuild_review_statistics(p_org_id uuid)
returns void
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  old_version bigint;
begin
  perform 1 from plaudit.organizations where id = p_org_id for update;
  select coalesce(sum(version), 0) into old_version from plaudit.review_statistics where org_id = p_org_id;
  delete from plaudit.review_statistics where org_id = p_org_id;
  insert into plaudit.review_statistics
    (org_id, slot, total_count, public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5, version)
  select p_org_id, 0, count(*),
         count(*) filter (where p), coalesce(sum(rating) filter (where p), 0),
         count(*) filter (where p and rating = 1), count(*) filter (where p and rating = 2),
         count(*) filter (where p and rating = 3), count(*) filter (where p and rating = 4),
         count(*) filter (where p and rating = 5), old_version + 1
  from (select rating, plaudit.review_is_public(is_hidden, verification_status) and product_id is null as p
        from plaudit.reviews where org_id = p_org_id) r;
end
$$;
comment on function plaudit.rebuild_review_statistics(uuid) is 'Recounts an organization''s review statistics from its reviews, into one slot with a version past every earlier one.';

-- The hash of an entry: SHA-256 over a canonical JSON array of its fields and the previous
-- entry's hash. The timestamp is formatted in UTC, so the session's time zone cannot change it.
create or replace function plaudit.moderation_entry_hash(
  p_previous_hash bytea, p_org_id uuid, p_seq bigint, p_review_id uuid, p_action text,
  p_reason text, p_actor text, p_created_at timestamptz
)
returns bytea
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select sha256(convert_to(jsonb_build_array(
    'plaudit.moderation.v1', p_org_id::text, p_seq, p_review_id::text, p_action, p_reason, p_actor,
    to_char(p_created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    encode(p_previous_hash, 'hex'))::text, 'UTF8'))
$$;
comment on function plaudit.moderation_entry_hash(bytea,uuid,bigint,uuid,text,text,text,timestamp with time zone) is 'The SHA-256 of a trail entry''s fields and the previous entry''s hash.';

-- Appends one entry to an organization's chain. The head row's lock serialises appends per
-- organization, so concurrent moderation of one tenant yields one gap-free chain.
create or replace function plaudit.append_moderation_entry(
  p_org_id uuid, p_review_id uuid, p_action text, p_reason text, p_actor text
)
returns void
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  genesis constant bytea := '\x0000000000000000000000000000000000000000000000000000000000000000';
  head record;
  entry_seq bigint;
  entry_at timestamptz;
  entry_hash bytea;
begin
  insert into plaudit.moderation_chain_heads (org_id, last_seq, last_hash)
  values (p_org_id, 0, genesis)
  on conflict (org_id) do nothing;
  select h.last_seq, h.last_hash into head
    from plaudit.moderation_chain_heads h where h.org_id = p_org_id for update;
  entry_seq := head.last_seq + 1;
  entry_at := clock_timestamp();
  entry_hash := plaudit.moderation_entry_hash(head.last_hash, p_org_id, entry_seq, p_review_id, p_action,
                                              p_reason, p_actor, entry_at);
  insert into plaudit.moderation_trail
    (org_id, seq, review_id, action, reason, actor, created_at, previous_hash, hash)
  values (p_org_id, entry_seq, p_review_id, p_action, p_reason, p_actor, entry_at, head.last_hash, entry_hash);
  update plaudit.moderation_chain_heads
    set last_seq = entry_seq, last_hash = entry_hash, updated_at = entry_at
    where org_id = p_org_id;
end
$$;
comment on function plaudit.append_moderation_entry(uuid,uuid,text,text,text) is 'Appends one entry to an organization''s moderation chain, one append at a time per organization.';

-- Who made the change: the transaction-local setting plaudit.actor (the API sets it to
-- `api_key:<id>`, the e-mail link to `reviewer:email_link`), else the database user.
create or replace function plaudit.current_actor()
returns text
language sql
stable
set search_path = pg_catalog, pg_temp
as $$ select coalesce(nullif(current_setting('plaudit.actor', true), ''), 'database:' || session_user) $$;
comment on function plaudit.current_actor() is 'Who made the change: the transaction''s setting plaudit.actor, else the database user.';

-- The trail's entry for each change of a review's visibility or verification status, written in
-- the transaction of the change whoever makes it, with the actor and the reason given.
create or replace function plaudit.reviews_record_moderation()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  if new.is_hidden is distinct from old.is_hidden then
    perform plaudit.append_moderation_entry(
      new.org_id, new.id, case when new.is_hidden then 'hide' else 'unhide' end,
      nullif(current_setting('plaudit.moderation_reason', true), ''), plaudit.current_actor());
  end if;
  if new.verification_status is distinct from old.verification_status then
    perform plaudit.append_moderation_entry(
      new.org_id, new.id,
      case when new.verification_status = 'rejected' then 'reject'
           when new.verification_method = 'manual' then 'approve'
           else 'verify' end,
      new.verification_reason, plaudit.current_actor());
  end if;
  return null;
end
$$;
comment on function plaudit.reviews_record_moderation() is 'Every hide, unhide and verification decision on a review is appended to its organization''s moderation trail.';

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

-- Append-only, for everyone: no update, delete or truncate of entries; the head only moves
-- forward through append_moderation_entry.
create or replace function plaudit.moderation_trail_refuse_change()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  raise exception 'the moderation trail is append-only: entries cannot be changed or deleted'
    using errcode = 'restrict_violation';
end
$$;
comment on function plaudit.moderation_trail_refuse_change() is 'The moderation trail is append-only, for everyone: no entry is updated, deleted or truncated.';

-- The head is what verify_moderation_chain checks the trail's length against: it may only follow
-- append_moderation_entry, one entry at a time, so a cut-off tail cannot go unnoticed.
create or replace function plaudit.moderation_chain_heads_guard()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  if tg_op = 'UPDATE' and new.org_id = old.org_id and new.last_seq = old.last_seq + 1 then
    return new;
  end if;
  raise exception 'a moderation chain head only moves forward, one entry at a time'
    using errcode = 'restrict_violation';
end
$$;
comment on function plaudit.moderation_chain_heads_guard() is 'A moderation chain head only moves forward, one entry at a time, and is never deleted.';

-- Recomputes an organization's chain. Answers one row: valid, the number of entries checked, and
-- for a broken chain the first entry that does not verify (seq, id) and what is wrong.
create or replace function plaudit.verify_moderation_chain(p_org_id uuid)
returns table (valid boolean, entries bigint, broken_seq bigint, broken_entry_id uuid, problem text)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  expected_previous bytea := '\x0000000000000000000000000000000000000000000000000000000000000000';
  expected_seq bigint := 1;
  e record;
  head record;
begin
  entries := 0;
  for e in select * from plaudit.moderation_trail t where t.org_id = p_org_id order by t.seq loop
    if e.seq <> expected_seq then
      return query select false, entries, expected_seq, null::uuid,
        format('entry %s is missing', expected_seq);
      return;
    end if;
    if e.previous_hash <> expected_previous then
      return query select false, entries, e.seq, e.id,
        format('entry %s does not link to entry %s', e.seq, e.seq - 1);
      return;
    end if;
    if e.hash <> plaudit.moderation_entry_hash(e.previous_hash, e.org_id, e.seq, e.review_id, e.action,
                                               e.reason, e.actor, e.created_at) then
      return query select false, entries, e.seq, e.id,
        format('entry %s does not match its hash: its content was changed', e.seq);
      return;
    end if;
    entries := entries + 1;
    expected_previous := e.hash;
    expected_seq := expected_seq + 1;
  end loop;
  select h.last_seq, h.last_hash into head from plaudit.moderation_chain_heads h where h.org_id = p_org_id;
  if coalesce(head.last_seq, 0) <> entries
     or (entries > 0 and head.last_hash is distinct from expected_previous) then
    return query select false, entries, entries + 1, null::uuid,
      format('the chain head records %s entries but %s verify: entries were removed', coalesce(head.last_seq, 0), entries);
    return;
  end if;
  return query select true, entries, null::bigint, null::uuid, null::text;
end
$$;
comment on function plaudit.verify_moderation_chain(uuid) is 'Recomputes an organization''s moderation chain and answers whether it verifies, or the first entry that does not and why.';

-- Hide or unhide a review, on behalf of `p_actor`, with a reason for the trail. Runs with the
-- caller's rights: row-level security limits it to the caller's tenant.
create or replace function plaudit.moderate_review(p_review_id uuid, p_action text, p_reason text, p_actor text)
returns setof plaudit.reviews
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  hide boolean := p_action = 'hide';
  changed plaudit.reviews;
begin
  if p_action is null or p_action not in ('hide', 'unhide') then
    raise exception 'action: must be hide or unhide' using errcode = 'invalid_parameter_value';
  end if;
  perform set_config('plaudit.actor', coalesce(p_actor, ''), true);
  perform set_config('plaudit.moderation_reason', coalesce(p_reason, ''), true);
  update plaudit.reviews r set is_hidden = hide
    where r.id = p_review_id and r.is_hidden = not hide
    returning r.* into changed;
  perform set_config('plaudit.moderation_reason', '', true);
  perform set_config('plaudit.actor', '', true);
  if changed.id is null then
    if exists (select from plaudit.reviews r where r.id = p_review_id) then
      raise exception '%', case when hide then 'Review is already hidden' else 'Review is not hidden' end
        using errcode = 'object_not_in_prerequisite_state';
    end if;
    raise exception 'Review not found' using errcode = 'no_data_found';
  end if;
  return next changed;
end
$$;
comment on function plaudit.moderate_review(uuid,text,text,text) is 'Hides or unhides a review of the caller''s tenant on behalf of `p_actor`, with a reason for the trail.';

-- {"entries": n, "head": "<hex of the last entry's hash>"}; entries 0 and head null before the
-- first entry.
create or replace function plaudit.moderation_chain_head(p_org_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select jsonb_build_object('entries', coalesce(h.last_seq, 0), 'head', encode(h.last_hash, 'hex'))
    from (select 1) one
    left join plaudit.moderation_chain_heads h on h.org_id = p_org_id
$$;
comment on function plaudit.moderation_chain_head(uuid) is 'An organization''s moderation chain head as JSON: its number of entries and the hex of the last entry''s hash.';

-- The chain of the transaction's tenant: its head, whether it verifies, and, given a head kept
-- earlier (p_entries, p_head), whether today's chain still holds that head at that position.
create or replace function plaudit.moderation_chain_status(p_entries bigint default null, p_head text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.current_org_id();
  chain record;
  head jsonb;
  kept_hash bytea;
  earlier jsonb := null;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;
  select * into chain from plaudit.verify_moderation_chain(tenant);
  head := plaudit.moderation_chain_head(tenant);
  if p_entries is not null then
    if p_head is null or p_head !~ '^[0-9a-f]{64}$' then
      raise exception 'head: must be the 64 hexadecimal characters of a chain head' using errcode = 'invalid_parameter_value';
    end if;
    select t.hash into kept_hash from plaudit.moderation_trail t where t.org_id = tenant and t.seq = p_entries;
    earlier := jsonb_build_object(
      'entries', p_entries, 'head', p_head,
      'matches', kept_hash is not null and kept_hash = decode(p_head, 'hex'),
      'problem', case
        when p_entries > (head ->> 'entries')::bigint then
          format('the chain holds %s entries, fewer than the %s of the earlier head: entries were removed', head ->> 'entries', p_entries)
        when kept_hash is null then format('entry %s is missing', p_entries)
        when kept_hash <> decode(p_head, 'hex') then
          format('entry %s no longer has the earlier head''s hash: the trail up to it was rewritten', p_entries)
      end);
  end if;
  return head || jsonb_build_object(
    'valid', chain.valid and coalesce((earlier ->> 'matches')::boolean, true),
    'problem', coalesce(chain.problem, earlier ->> 'problem'),
    'earlier_head', earlier);
end
$$;
comment on function plaudit.moderation_chain_status(bigint,text) is 'The transaction''s tenant''s moderation chain: its head, whether it verifies, and whether it still holds a head kept earlier.';

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

-- ============================================================================================
-- writing and withdrawing
-- ============================================================================================
-- Writes or edits the reply to a review of the caller's tenant; answers the reply. Runs with the
-- caller's rights: row-level security finds the review and guards the reply. An edit with the
-- same text changes nothing and records nothing.
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
comment on function plaudit.reply_to_review(uuid,text,text) is 'Writes or edits the reply to a review of the caller''s tenant; answers the reply.';

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
