-- Organizations, their members and invitations, and API keys: who a tenant is and who may act for it.

-- The base62 alphabet of API keys, in one place: random_base62 and api_key_checksum must agree
-- on it, and so must functions/_shared/api-keys/format.ts.
create or replace function plaudit.base62_alphabet()
returns text
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$ select '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz' $$;
comment on function plaudit.base62_alphabet() is 'The 62 characters of base62, digits then capitals then small letters, in the order key bodies and checksums use.';
grant execute on function plaudit.base62_alphabet() to plaudit_api;

-- `n` uniformly random base62 characters: bytes of 248 and above are rejected so that every
-- character is equally likely (248 = 4 * 62).
create or replace function plaudit.random_base62(n integer)
returns text
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  alphabet constant text := plaudit.base62_alphabet();
  out text := '';
  bytes bytea;
  b integer;
begin
  while char_length(out) < n loop
    bytes := extensions.gen_random_bytes(n);
    for i in 0 .. octet_length(bytes) - 1 loop
      b := get_byte(bytes, i);
      if b < 248 and char_length(out) < n then
        out := out || substr(alphabet, b % 62 + 1, 1);
      end if;
    end loop;
  end loop;
  return out;
end
$$;
comment on function plaudit.random_base62(integer) is '`n` uniformly random base62 characters, drawn by rejection so that every character is equally likely.';
grant execute on function plaudit.random_base62(integer) to plaudit_api;

-- The checksum of a key body: the first four bytes of its SHA-256, as a big-endian unsigned
-- integer, in six base62 digits. functions/_shared/api-keys/format.ts computes the same.
create or replace function plaudit.api_key_checksum(body text)
returns text
language plpgsql
immutable
set search_path = pg_catalog, pg_temp
as $$
declare
  alphabet constant text := plaudit.base62_alphabet();
  v bigint := ('x' || encode(substring(sha256(convert_to(body, 'UTF8')) from 1 for 4), 'hex'))::bit(32)::bigint;
  out text := '';
begin
  for i in 1 .. 6 loop
    out := substr(alphabet, (v % 62)::integer + 1, 1) || out;
    v := v / 62;
  end loop;
  return out;
end
$$;
comment on function plaudit.api_key_checksum(text) is 'The six base62 digits that check an API key''s body, from the first four bytes of its SHA-256.';
grant execute on function plaudit.api_key_checksum(text) to plaudit_api;

-- Creates a key and answers its plaintext, once. Runs with the caller's rights, so the API role
-- can only create keys for the tenant of its transaction.
create or replace function plaudit.issue_api_key(
  p_org_id uuid,
  p_name text,
  p_scope text,
  p_rate_limit_per_minute integer default null
)
returns table (
  id uuid, org_id uuid, name text, scope text, prefix text, key text,
  rate_limit_per_minute integer, created_at timestamptz
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  body text := plaudit.random_base62(32);
  full_key text := 'rk_' || body || plaudit.api_key_checksum(body);
begin
  return query
    insert into plaudit.api_keys as k (org_id, name, scope, prefix, key_hash, rate_limit_per_minute)
    values (p_org_id, p_name, p_scope, 'rk_' || left(body, 8),
            sha256(convert_to(full_key, 'UTF8')), p_rate_limit_per_minute)
    returning k.id, k.org_id, k.name, k.scope, k.prefix, full_key, k.rate_limit_per_minute,
              k.created_at;
end
$$;
comment on function plaudit.issue_api_key(uuid,text,text,integer) is 'Creates an API key and answers its plaintext, once: only its SHA-256 is stored.';
grant execute on function plaudit.issue_api_key(uuid,text,text,integer) to plaudit_api;

-- Revokes a key, at once or after p_grace_seconds, and issues its successor (same name, scope and
-- limit) in one transaction. Answers no row for an unknown key, a revoked one or one already
-- rotated (and in its grace period).
create or replace function plaudit.rotate_api_key(p_key_id uuid, p_grace_seconds integer default 0)
returns table (
  id uuid, org_id uuid, name text, scope text, prefix text, key text,
  rate_limit_per_minute integer, created_at timestamptz, old_key_expires_at timestamptz
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  old_key record;
  new_key record;
begin
  if p_grace_seconds is null or p_grace_seconds not between 0 and 86400 then
    raise exception 'expires_in_seconds: must be between 0 and 86400' using errcode = 'invalid_parameter_value';
  end if;
  update plaudit.api_keys as k set revoked_at = now() + make_interval(secs => p_grace_seconds)
    where k.id = p_key_id and k.revoked_at is null and k.replaced_by is null
    returning k.id, k.org_id, k.name, k.scope, k.rate_limit_per_minute, k.revoked_at into old_key;
  if not found then
    return;
  end if;
  select * into new_key
    from plaudit.issue_api_key(old_key.org_id, old_key.name, old_key.scope,
                               old_key.rate_limit_per_minute);
  update plaudit.api_keys as k set replaced_by = new_key.id where k.id = old_key.id;
  return query select new_key.id, new_key.org_id, new_key.name, new_key.scope, new_key.prefix,
                      new_key.key, new_key.rate_limit_per_minute, new_key.created_at, old_key.revoked_at;
end
$$;
comment on function plaudit.rotate_api_key(uuid,integer) is 'Revokes a key, at once or after p_grace_seconds, and issues its successor (same name, scope and limit) in one transaction.';
grant execute on function plaudit.rotate_api_key(uuid,integer) to plaudit_api;

-- Invites an address. An expired open invitation to the same address is withdrawn first; an
-- address that is already a member, or has a live invitation, raises unique_violation with a
-- message the API passes on as 409. Answers the invitation and its one-time token.
create or replace function plaudit.create_invitation(
  p_org_id uuid, p_email text, p_role text, p_invited_by_key_id uuid default null
)
returns table (
  id uuid, email text, role text, expires_at timestamptz, created_at timestamptz, token text
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  new_token text := plaudit.random_base62(43);
begin
  if exists (select from plaudit.members m
             where m.org_id = p_org_id and lower(m.email) = lower(p_email)) then
    raise unique_violation using message = 'this address is already a member';
  end if;
  update plaudit.invitations as i set revoked_at = now()
    where i.org_id = p_org_id and lower(i.email) = lower(p_email)
      and i.accepted_at is null and i.revoked_at is null and i.expires_at <= now();
  begin
    return query
      insert into plaudit.invitations as i (org_id, email, role, token_hash, invited_by_key_id)
      values (p_org_id, p_email, p_role, sha256(convert_to(new_token, 'UTF8')), p_invited_by_key_id)
      returning i.id, i.email, i.role, i.expires_at, i.created_at, new_token;
  exception when unique_violation then
    raise unique_violation using message = 'this address already has an open invitation';
  end;
end
$$;
comment on function plaudit.create_invitation(uuid,text,text,uuid) is 'Invites an address to the organization and answers the invitation with its one-time token.';
grant execute on function plaudit.create_invitation(uuid,text,text,uuid) to plaudit_api;

-- ============================================================================================
-- refuse changes once set
-- ============================================================================================
-- A trigger function for columns that record a permanent end (a revocation, an acceptance):
-- once such a column is set, no update may clear or change it, whoever asks, the table's owner
-- included. Its arguments come in pairs: a column name, then what to call that fact in the error
-- ("an API key's revocation is permanent"). Setting the column the first time is untouched.
create or replace function plaudit.refuse_changes_once_set()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
declare
  before jsonb := to_jsonb(old);
  after jsonb := to_jsonb(new);
  i integer := 0;
begin
  while i < tg_nargs loop
    if jsonb_typeof(before -> tg_argv[i]) <> 'null' and (after -> tg_argv[i]) is distinct from (before -> tg_argv[i]) then
      raise exception '%: % cannot be cleared or changed once set', tg_argv[i + 1], tg_argv[i]
        using errcode = 'restrict_violation';
    end if;
    i := i + 2;
  end loop;
  return new;
end
$$;
comment on function plaudit.refuse_changes_once_set() is 'A column named in the trigger''s arguments, once set, can never be cleared or changed, by any role.';

-- ============================================================================================
-- api key revocation is permanent
-- ============================================================================================
-- plaudit_api may update revoked_at and replaced_by (that is how the API revokes and rotates its
-- tenant's keys), so without this an API-role session could un-revoke a key of its own
-- organization, move its revocation time, or point a rotated key at another successor.
-- Revocation stays permanent, with one exception for the grace period: a key whose revocation
-- lies ahead may be revoked now (revoked_at moved to now(), never later, never cleared). A live
-- key's revocation is set at most 24 hours ahead. replaced_by, once set, never changes. For
-- every role, the table's owner included.
create or replace function plaudit.api_keys_guard_revocation()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  if new.revoked_at is distinct from old.revoked_at then
    if old.revoked_at is null then
      if new.revoked_at > now() + interval '24 hours' then
        raise exception 'an API key''s revocation may lie at most 24 hours ahead'
          using errcode = 'check_violation';
      end if;
    elsif not (old.revoked_at > now() and new.revoked_at = now()) then
      raise exception 'an API key''s revocation is permanent: revoked_at cannot be cleared or changed once set'
        using errcode = 'restrict_violation';
    end if;
  end if;
  if old.replaced_by is not null and new.replaced_by is distinct from old.replaced_by then
    raise exception 'an API key''s successor is permanent: replaced_by cannot be cleared or changed once set'
      using errcode = 'restrict_violation';
  end if;
  return new;
end
$$;
comment on function plaudit.api_keys_guard_revocation() is 'An API key''s revocation and successor are permanent, for every role; a revocation still ahead may only be brought forward to now.';

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger api_keys_guard_revocation
  before update of revoked_at, replaced_by on plaudit.api_keys
  for each row execute function plaudit.api_keys_guard_revocation();

-- ============================================================================================
-- invitation end is permanent
-- ============================================================================================
-- An invitation's end is permanent. plaudit_api may update revoked_at (that is how a tenant
-- withdraws its invitations), so without this an API-role session could reopen a withdrawn
-- invitation of its own organization (`set revoked_at = null`), making its token acceptable
-- again, or move its withdrawal time. Once set, revoked_at and accepted_at never change again,
-- for every role, the table's owner included: setting them the first time (withdrawing, which
-- plaudit.create_invitation also does to an expired invitation it replaces, and accepting
-- through plaudit.accept_invitation) is all an update may do to them.
-- Open invitations (the only ones withdrawing, re-inviting and accepting update) skip the trigger.
create trigger invitations_guard_end
  before update on plaudit.invitations
  for each row
  when (old.revoked_at is not null or old.accepted_at is not null)
  execute function plaudit.refuse_changes_once_set(
    'revoked_at', 'an invitation''s withdrawal is permanent',
    'accepted_at', 'an invitation''s acceptance is permanent');

-- A session's end is permanent: an ended session never comes back.
create trigger sessions_guard_end
  before update on plaudit.sessions
  for each row
  when (old.ended_at is not null)
  execute function plaudit.refuse_changes_once_set('ended_at', 'a session''s end is permanent');

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own API keys"
  on plaudit.api_keys for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can create API keys for themselves"
  on plaudit.api_keys for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can revoke their own API keys"
  on plaudit.api_keys for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own invitations"
  on plaudit.invitations for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can invite into their own organization"
  on plaudit.invitations for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can withdraw their own invitations"
  on plaudit.invitations for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own members"
  on plaudit.members for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can change their own members' roles"
  on plaudit.members for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can remove their own members"
  on plaudit.members for delete to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own organization"
  on plaudit.organizations for select to plaudit_api
  using (id = (select plaudit.current_org_id()));

create policy "Tenants can update their own organization"
  on plaudit.organizations for update to plaudit_api
  using (id = (select plaudit.current_org_id()))
  with check (id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select, delete on plaudit.members to plaudit_api;
grant update (role) on plaudit.members to plaudit_api;
grant select on plaudit.organizations to plaudit_api;
grant update (name, website) on plaudit.organizations to plaudit_api;
grant insert (org_id, name, scope, prefix, key_hash, rate_limit_per_minute) on plaudit.api_keys to plaudit_api;
grant select (id, org_id, name, scope, prefix, rate_limit_per_minute, created_at, last_used_at, revoked_at, replaced_by) on plaudit.api_keys to plaudit_api;
grant update (revoked_at, replaced_by) on plaudit.api_keys to plaudit_api;
grant insert (org_id, email, role, token_hash, invited_by_key_id) on plaudit.invitations to plaudit_api;
grant select (id, org_id, email, role, invited_by_key_id, expires_at, created_at, accepted_at, revoked_at) on plaudit.invitations to plaudit_api;
grant update (revoked_at) on plaudit.invitations to plaudit_api;
