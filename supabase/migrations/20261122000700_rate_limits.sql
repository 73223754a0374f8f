-- Fixed one-minute windows, one counter row per bucket and window, bumped by a single atomic
-- upsert: concurrent requests queue on the row lock for microseconds and each sees its own
-- count, so a limit of 50 admits exactly 50. The table is unlogged: counters are worth nothing
-- after a crash, and skipping the WAL keeps the hot path cheap.
create unlogged table plaudit.rate_limit_counters (
  bucket text not null check (char_length(bucket) <= 200),
  window_start timestamptz not null,
  hits integer not null default 1,
  primary key (bucket, window_start)
);

-- No policies: only the SECURITY DEFINER functions below touch it.
alter table plaudit.rate_limit_counters enable row level security;

create function plaudit.hit_rate_limit(
  p_bucket text,
  p_limit integer,
  out allowed boolean,
  out remaining integer,
  out reset_at bigint
)
language plpgsql
volatile
security definer
set search_path = ''
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

-- Drops windows that can no longer be consulted.
create function plaudit.prune_rate_limits()
returns integer
language sql
volatile
security definer
set search_path = ''
as $$
  with gone as (
    delete from plaudit.rate_limit_counters
    where window_start < date_trunc('minute', now()) - interval '1 minute'
    returning 1
  )
  select count(*)::integer from gone
$$;

grant execute on function plaudit.hit_rate_limit(text, integer) to plaudit_public;
