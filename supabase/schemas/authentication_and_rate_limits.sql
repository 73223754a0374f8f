-- Authentication of API keys and the rate limits that come with it; the minute-by-minute housekeeping.

-- Counts a hit in a fixed one-minute window with one atomic upsert, so concurrent requests each
-- see their own count and a limit of n admits exactly n (rate_limit_counters).
create or replace function plaudit.hit_rate_limit(
  p_bucket text,
  p_limit integer,
  out allowed boolean,
  out remaining integer,
  out reset_at bigint
)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
declare
  this_window timestamptz := date_trunc('minute', now());
  new_hits integer;
begin
  insert into plaudit.rate_limit_counters as c (bucket, window_start)
  values (p_bucket, this_window)
  on conflict (bucket, window_start) do update set hits = c.hits + 1
  returning c.hits into new_hits;
  allowed := new_hits <= p_limit;
  remaining := greatest(p_limit - new_hits, 0);
  reset_at := extract(epoch from this_window + interval '1 minute')::bigint;
end
$$;
comment on function plaudit.hit_rate_limit(text,integer) is 'Counts one hit in a bucket''s current one-minute window and answers whether it is within the limit, what remains and when it resets.';
grant execute on function plaudit.hit_rate_limit(text,integer) to plaudit_public;

-- Drops windows that can no longer be consulted.
create or replace function plaudit.prune_rate_limits()
returns integer
language sql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
  with gone as (
    delete from plaudit.rate_limit_counters
    where window_start < date_trunc('minute', now()) - interval '1 minute'
    returning 1
  )
  select count(*)::integer from gone
$$;
comment on function plaudit.prune_rate_limits() is 'Deletes the rate-limit windows no request consults any more and answers how many.';

-- ============================================================================================
-- authenticate
-- ============================================================================================
-- One round trip authenticates a request: finds the key by the hash of what the client sent,
-- counts the request against the key's per-minute limit, and notes when the key was last used
-- (at most once a minute, so a busy key does not rewrite its row on every request).
-- The API sends only the SHA-256 of the key, never the key itself.
create or replace function plaudit.authenticate(p_key_hash bytea, p_default_limit integer)
returns table (
  key_id uuid, org_id uuid, scope text, prefix text,
  rate_limit integer, allowed boolean, remaining integer, reset_at bigint
)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
declare
  k record;
  hit record;
begin
  select a.id, a.org_id, a.scope, a.prefix, a.rate_limit_per_minute, a.last_used_at into k
    from plaudit.api_keys a
    where a.key_hash = p_key_hash and (a.revoked_at is null or a.revoked_at > now());
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
comment on function plaudit.authenticate(bytea,integer) is 'Authenticates a request by its key''s SHA-256 in one round trip, counting it against the key''s per-minute limit.';
grant execute on function plaudit.authenticate(bytea,integer) to plaudit_authenticator;

-- ============================================================================================
-- scheduled maintenance
-- ============================================================================================
-- Housekeeping that runs every minute. Where pg_cron is loaded (Supabase; the test cluster) it
-- schedules itself; elsewhere (embedded PostgreSQL) the local process calls it on a timer.
create or replace function plaudit.run_maintenance()
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  perform plaudit.prune_rate_limits();
end
$$;
comment on function plaudit.run_maintenance() is 'Housekeeping that runs every minute: prunes the rate-limit windows.';
grant execute on function plaudit.run_maintenance() to plaudit_worker;
