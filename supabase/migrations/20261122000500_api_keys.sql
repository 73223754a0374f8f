-- API keys: `rk_` + 32 base62 characters (about 190 random bits) + a 6-character checksum, so a
-- mistyped or made-up key is refused before any query. Only the SHA-256 of the whole key is
-- stored; the plaintext exists once, in the answer that creates it.

create function plaudit.base62_alphabet()
returns text
language sql
immutable
set search_path = ''
as $$ select '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz' $$;

-- `n` uniformly random base62 characters: bytes of 248 and above are rejected so that every
-- character is equally likely (248 = 4 * 62).
create function plaudit.random_base62(n integer)
returns text
language plpgsql
volatile
set search_path = ''
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

-- The checksum of a key body: the first four bytes of its SHA-256, as a big-endian unsigned
-- integer, in six base62 digits. functions/_shared/api-keys/format.ts computes the same.
create function plaudit.api_key_checksum(body text)
returns text
language plpgsql
immutable
set search_path = ''
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

create table plaudit.api_keys (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 100),
  scope text not null check (scope in ('read', 'write', 'admin')),
  prefix text not null check (prefix ~ '^rk_[0-9A-Za-z]{8}$'),
  key_hash bytea not null unique check (octet_length(key_hash) = 32),
  rate_limit_per_minute integer check (rate_limit_per_minute between 1 and 100000),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  replaced_by uuid references plaudit.api_keys (id)
);

create index api_keys_org_id_created_at on plaudit.api_keys (org_id, created_at desc, id);

alter table plaudit.api_keys enable row level security;

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

-- The API role never reads key_hash, not even its own tenant's: column privileges leave it out.
grant select (id, org_id, name, scope, prefix, rate_limit_per_minute, created_at, last_used_at,
              revoked_at, replaced_by)
  on plaudit.api_keys to plaudit_api;
grant insert (org_id, name, scope, prefix, key_hash, rate_limit_per_minute)
  on plaudit.api_keys to plaudit_api;
grant update (revoked_at, replaced_by) on plaudit.api_keys to plaudit_api;

-- Creates a key and answers its plaintext, once. Runs with the caller's rights, so the API role
-- can only create keys for the tenant of its transaction.
create function plaudit.issue_api_key(
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
set search_path = ''
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

-- Revokes a key and issues its successor (same name, scope and limit) in one transaction: the
-- old key stops working the moment the new one exists. Answers no row for an unknown or
-- already revoked key.
create function plaudit.rotate_api_key(p_key_id uuid)
returns table (
  id uuid, org_id uuid, name text, scope text, prefix text, key text,
  rate_limit_per_minute integer, created_at timestamptz
)
language plpgsql
volatile
set search_path = ''
as $$
declare
  old_key record;
  new_key record;
begin
  update plaudit.api_keys as k set revoked_at = now()
    where k.id = p_key_id and k.revoked_at is null
    returning k.id, k.org_id, k.name, k.scope, k.rate_limit_per_minute into old_key;
  if not found then
    return;
  end if;
  select * into new_key
    from plaudit.issue_api_key(old_key.org_id, old_key.name, old_key.scope,
                               old_key.rate_limit_per_minute);
  update plaudit.api_keys as k set replaced_by = new_key.id where k.id = old_key.id;
  return query select new_key.id, new_key.org_id, new_key.name, new_key.scope, new_key.prefix,
                      new_key.key, new_key.rate_limit_per_minute, new_key.created_at;
end
$$;

grant execute on function plaudit.base62_alphabet(), plaudit.random_base62(integer),
  plaudit.api_key_checksum(text), plaudit.issue_api_key(uuid, text, text, integer),
  plaudit.rotate_api_key(uuid)
  to plaudit_api;
