-- One round trip authenticates a request: finds the key by the hash of what the client sent,
-- counts the request against the key's per-minute limit, and notes when the key was last used
-- (at most once a minute, so a busy key does not rewrite its row on every request).
-- The API sends only the SHA-256 of the key, never the key itself.
create function plaudit.authenticate(p_key_hash bytea, p_default_limit integer)
returns table (
  key_id uuid, org_id uuid, scope text, prefix text,
  rate_limit integer, allowed boolean, remaining integer, reset_at bigint
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  k record;
  hit record;
begin
  select a.id, a.org_id, a.scope, a.prefix, a.rate_limit_per_minute, a.last_used_at into k
    from plaudit.api_keys a
    where a.key_hash = p_key_hash and a.revoked_at is null;
  if not found then
    return;
  end if;

  rate_limit := coalesce(k.rate_limit_per_minute, p_default_limit);
  select * into hit from plaudit.hit_rate_limit('key:' || k.id, rate_limit);

  if k.last_used_at is null or k.last_used_at < now() - interval '1 minute' then
    update plaudit.api_keys set last_used_at = now() where id = k.id;
  end if;

  key_id := k.id;
  org_id := k.org_id;
  scope := k.scope;
  prefix := k.prefix;
  allowed := hit.allowed;
  remaining := hit.remaining;
  reset_at := hit.reset_at;
  return next;
end
$$;

grant execute on function plaudit.authenticate(bytea, integer) to plaudit_authenticator;
