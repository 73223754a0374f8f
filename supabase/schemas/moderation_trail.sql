-- The moderation trail: every change to a review, append-only and hash-chained, its head published.

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

-- The trail's actions of a review's moderation and verification (plaudit.trail_actions: each feature
-- inserts the actions it writes, CONTRIBUTING.md).
insert into plaudit.trail_actions (action, description) values
  ('hide', 'A review was hidden from the public.'),
  ('unhide', 'A hidden review was shown again.'),
  ('verify', 'A review was verified: by e-mail, a proof of purchase or its invitation.'),
  ('approve', 'A member approved a pending review by hand.'),
  ('reject', 'A review was rejected.')
on conflict (action) do update set description = excluded.description;

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
grant execute on function plaudit.moderate_review(uuid,text,text,text) to plaudit_api;

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
grant execute on function plaudit.moderation_chain_status(bigint,text) to plaudit_api;

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger moderation_chain_heads_guard
  before update or delete on plaudit.moderation_chain_heads
  for each row execute function plaudit.moderation_chain_heads_guard();

create trigger moderation_chain_heads_refuse_truncate
  before truncate on plaudit.moderation_chain_heads
  for each statement execute function plaudit.moderation_trail_refuse_change();

create trigger moderation_trail_refuse_truncate
  before truncate on plaudit.moderation_trail
  for each statement execute function plaudit.moderation_trail_refuse_change();

create trigger moderation_trail_refuse_update
  before update or delete on plaudit.moderation_trail
  for each row execute function plaudit.moderation_trail_refuse_change();

create trigger reviews_record_moderation
  after update of is_hidden, verification_status on plaudit.reviews
  for each row
  when (old.is_hidden is distinct from new.is_hidden
        or old.verification_status is distinct from new.verification_status)
  execute function plaudit.reviews_record_moderation();

-- Named to fire after reviews_record_moderation (triggers fire in name order): review.moderated
-- carries the chain head that includes its own trail entry.
create trigger reviews_signal_changes
  after update of is_hidden, verification_status on plaudit.reviews
  for each row
  when (old.is_hidden is distinct from new.is_hidden
        or old.verification_status is distinct from new.verification_status)
  execute function plaudit.reviews_emit_changes();

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
-- The actions are the product's, the same for every tenant: read where the trail is read, written
-- by the sources alone (as the owner).
create policy "Tenants can read the trail's actions"
  on plaudit.trail_actions for select to plaudit_api
  using (true);

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.trail_actions to plaudit_api;
