-- The moderation trail: one entry per change of a review's visibility (hide, unhide) or
-- verification status (verify, approve, reject), written by a trigger on reviews in the same
-- transaction as the change, whoever makes it. Entries are append-only, and tamper-evident:
-- each organization's entries form a hash chain (seq 1, 2, 3 …; each hash covers the entry's
-- content and the previous entry's hash), and a chain head records the last seq and hash, so an
-- edited, removed or reordered entry, or a cut-off tail, is detected by
-- plaudit.verify_moderation_chain(org_id).
create table plaudit.moderation_trail (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id),
  seq bigint not null check (seq >= 1),
  review_id uuid not null references plaudit.reviews (id),
  action text not null check (action in ('hide', 'unhide', 'verify', 'approve', 'reject')),
  reason text check (char_length(reason) <= 1000),
  actor text not null check (char_length(actor) between 1 and 200),
  created_at timestamptz not null,
  previous_hash bytea not null check (octet_length(previous_hash) = 32),
  hash bytea not null check (octet_length(hash) = 32),
  unique (org_id, seq)
);

create index moderation_trail_org_id_review_id on plaudit.moderation_trail (org_id, review_id, seq);

create table plaudit.moderation_chain_heads (
  org_id uuid primary key references plaudit.organizations (id),
  last_seq bigint not null,
  last_hash bytea not null check (octet_length(last_hash) = 32),
  updated_at timestamptz not null default now()
);

-- The hash of an entry: SHA-256 over a canonical JSON array of its fields and the previous
-- entry's hash. The timestamp is formatted in UTC, so the session's time zone cannot change it.
create function plaudit.moderation_entry_hash(
  p_previous_hash bytea, p_org_id uuid, p_seq bigint, p_review_id uuid, p_action text,
  p_reason text, p_actor text, p_created_at timestamptz
)
returns bytea
language sql
immutable
set search_path = ''
as $$
  select sha256(convert_to(jsonb_build_array(
    'plaudit.moderation.v1', p_org_id::text, p_seq, p_review_id::text, p_action, p_reason, p_actor,
    to_char(p_created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    encode(p_previous_hash, 'hex'))::text, 'UTF8'))
$$;

-- Appends one entry to an organization's chain. The head row's lock serialises appends per
-- organization, so concurrent moderation of one tenant yields one gap-free chain.
create function plaudit.append_moderation_entry(
  p_org_id uuid, p_review_id uuid, p_action text, p_reason text, p_actor text
)
returns void
language plpgsql
security definer
set search_path = ''
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

-- Who made the change: the transaction-local setting plaudit.actor (the API sets it to
-- `api_key:<id>`, the e-mail link to `reviewer:email_link`), else the database user.
create function plaudit.current_actor()
returns text
language sql
stable
set search_path = ''
as $$ select coalesce(nullif(current_setting('plaudit.actor', true), ''), 'database:' || session_user) $$;

create function plaudit.reviews_record_moderation()
returns trigger
language plpgsql
security definer
set search_path = ''
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

create trigger reviews_record_moderation
  after update of is_hidden, verification_status on plaudit.reviews
  for each row
  when (old.is_hidden is distinct from new.is_hidden
        or old.verification_status is distinct from new.verification_status)
  execute function plaudit.reviews_record_moderation();

-- review.moderated and review.verified, beside the trail entry.
create function plaudit.reviews_emit_changes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  at text := to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
begin
  if new.is_hidden is distinct from old.is_hidden then
    perform plaudit.emit_event(new.org_id, 'review.moderated', jsonb_build_object(
      'id', new.id, 'form_id', new.form_id,
      'action', case when new.is_hidden then 'hide' else 'unhide' end,
      'is_hidden', new.is_hidden,
      'reason', nullif(current_setting('plaudit.moderation_reason', true), ''),
      'actor', plaudit.current_actor(), 'moderated_at', at));
  end if;
  if new.verification_status is distinct from old.verification_status then
    perform plaudit.emit_event(new.org_id, 'review.verified', jsonb_build_object(
      'id', new.id, 'form_id', new.form_id,
      'verification_status', new.verification_status, 'previous_status', old.verification_status,
      'method', new.verification_method, 'reason', new.verification_reason,
      'actor', plaudit.current_actor(), 'verified_at', at));
  end if;
  return null;
end
$$;

create trigger reviews_emit_changes
  after update of is_hidden, verification_status on plaudit.reviews
  for each row
  when (old.is_hidden is distinct from new.is_hidden
        or old.verification_status is distinct from new.verification_status)
  execute function plaudit.reviews_emit_changes();

-- Append-only, for everyone: no update, delete or truncate of entries; the head only moves
-- forward through append_moderation_entry.
create function plaudit.moderation_trail_refuse_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'the moderation trail is append-only: entries cannot be changed or deleted'
    using errcode = 'restrict_violation';
end
$$;

create trigger moderation_trail_refuse_update
  before update or delete on plaudit.moderation_trail
  for each row execute function plaudit.moderation_trail_refuse_change();

create trigger moderation_trail_refuse_truncate
  before truncate on plaudit.moderation_trail
  for each statement execute function plaudit.moderation_trail_refuse_change();

create function plaudit.moderation_chain_heads_guard()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.org_id = old.org_id and new.last_seq = old.last_seq + 1 then
    return new;
  end if;
  raise exception 'a moderation chain head only moves forward, one entry at a time'
    using errcode = 'restrict_violation';
end
$$;

create trigger moderation_chain_heads_guard
  before update or delete on plaudit.moderation_chain_heads
  for each row execute function plaudit.moderation_chain_heads_guard();

create trigger moderation_chain_heads_refuse_truncate
  before truncate on plaudit.moderation_chain_heads
  for each statement execute function plaudit.moderation_trail_refuse_change();

-- Recomputes an organization's chain. Answers one row: valid, the number of entries checked, and
-- for a broken chain the first entry that does not verify (seq, id) and what is wrong.
create function plaudit.verify_moderation_chain(p_org_id uuid)
returns table (valid boolean, entries bigint, broken_seq bigint, broken_entry_id uuid, problem text)
language plpgsql
stable
security definer
set search_path = ''
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

-- Hide or unhide a review, on behalf of `p_actor`, with a reason for the trail. Runs with the
-- caller's rights: row-level security limits it to the caller's tenant.
create function plaudit.moderate_review(p_review_id uuid, p_action text, p_reason text, p_actor text)
returns setof plaudit.reviews
language plpgsql
volatile
set search_path = ''
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

alter table plaudit.moderation_trail enable row level security;
alter table plaudit.moderation_chain_heads enable row level security;

create policy "Tenants can read their own moderation trail"
  on plaudit.moderation_trail for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- Read-only for the API; entries are written by the trigger alone. The chain heads have no
-- policy and no grant: only the SECURITY DEFINER functions above touch them.
grant select on plaudit.moderation_trail to plaudit_api;
grant execute on function plaudit.moderate_review(uuid, text, text, text) to plaudit_api;

revoke execute on function
  plaudit.moderation_entry_hash(bytea, uuid, bigint, uuid, text, text, text, timestamptz),
  plaudit.append_moderation_entry(uuid, uuid, text, text, text),
  plaudit.current_actor(),
  plaudit.reviews_record_moderation(),
  plaudit.reviews_emit_changes(),
  plaudit.moderation_trail_refuse_change(),
  plaudit.moderation_chain_heads_guard(),
  plaudit.verify_moderation_chain(uuid),
  plaudit.moderate_review(uuid, text, text, text)
  from public;
