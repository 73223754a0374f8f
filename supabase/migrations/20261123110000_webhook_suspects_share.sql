-- Slow and failing endpoints share at most part of a worker, however many organizations they
-- belong to. The per-organization cap bounds each organization, not their sum: four
-- organizations with slow endpoints could each take their quarter and fill every slot, and
-- everyone else waited for one to free. Now:
--   * an endpoint is slow (slow_since set) while its attempts take p_slow_ms or longer: the
--     worker passes its WEBHOOK_SLOW_MS when it records an attempt, and the column is written
--     only when an attempt lands on the other side of that line (a fast answer clears it);
--   * an endpoint that is slow or in a failure run is a suspect, and the claim takes at most
--     p_suspect_room deliveries of suspects: what the worker's share for them
--     (WEBHOOK_CONCURRENCY_SUSPECT, half its slots by default) leaves after the suspect calls it
--     already has in flight. Each claimed row says whether it is one (`suspect`).
-- So the other half of a worker's slots is always left to endpoints that answer in time. A
-- newly slow endpoint counts as healthy until its first slow answer is recorded: at most one
-- attempt's time (WEBHOOK_TIMEOUT_MS at worst) for the deliveries it holds then.
-- Older workers call the earlier forms, which keep working without the new rule.
alter table plaudit.webhook_endpoints add column slow_since timestamptz;

comment on column plaudit.webhook_endpoints.slow_since is
  'Set while the endpoint''s attempts take the worker''s WEBHOOK_SLOW_MS or longer; a faster attempt clears it.';

-- Tenants read it with the rest of the endpoint's health (failing_since, disabled_reason).
grant select (slow_since) on plaudit.webhook_endpoints to plaudit_api;

-- A new parameter, so the earlier form goes (a call with its nine arguments would match both).
drop function plaudit.record_webhook_attempt(uuid, uuid, integer, integer, text, text, text, bigint, integer);

create function plaudit.record_webhook_attempt(
  p_delivery_id uuid,
  p_claim_token uuid,
  p_status_code integer,
  p_duration_ms integer,
  p_error text,
  p_response_snippet text,
  p_outcome text,
  p_retry_in_ms bigint,
  p_disable_after_seconds integer default 432000,
  p_slow_ms integer default null
)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  d plaudit.webhook_deliveries;
  failing timestamptz;
  err text := left(p_error, 1000);
begin
  if p_outcome not in ('succeeded', 'gone', 'retry') then
    raise invalid_parameter_value using message = 'unknown outcome ' || p_outcome;
  end if;
  select * into d from plaudit.webhook_deliveries where id = p_delivery_id for update;
  if not found then
    return null; -- the endpoint was deleted meanwhile
  end if;

  insert into plaudit.webhook_delivery_attempts
    (org_id, delivery_id, attempt, status_code, duration_ms, error, response_snippet)
  values (d.org_id, d.id, d.attempts, p_status_code, greatest(p_duration_ms, 0), err,
          left(p_response_snippet, 1024));

  -- The endpoint's speed, written only when it changes sides of p_slow_ms (no write per attempt).
  if not d.is_test and p_slow_ms is not null then
    update plaudit.webhook_endpoints
      set slow_since = case when p_duration_ms >= p_slow_ms then now() end
      where id = d.endpoint_id and (slow_since is null) = (p_duration_ms >= p_slow_ms);
  end if;

  if d.status <> 'pending' then
    return d.status;
  end if;
  if d.claim_token is distinct from p_claim_token and p_outcome <> 'succeeded' then
    return 'stale';
  end if;

  if p_outcome = 'succeeded' then
    update plaudit.webhook_deliveries
      set status = 'succeeded', delivered_at = now(), locked_until = null, claim_token = null,
          last_status_code = p_status_code, last_error = null
      where id = d.id;
    if not d.is_test then
      update plaudit.webhook_endpoints set failing_since = null
        where id = d.endpoint_id and failing_since is not null;
    end if;
    return 'succeeded';
  end if;

  if d.is_test then
    update plaudit.webhook_deliveries
      set status = 'failed', locked_until = null, claim_token = null,
          last_status_code = p_status_code, last_error = err
      where id = d.id;
    return 'failed';
  end if;

  if p_outcome = 'gone' then
    update plaudit.webhook_deliveries
      set status = 'failed', locked_until = null, claim_token = null,
          last_status_code = p_status_code, last_error = err
      where id = d.id;
    update plaudit.webhook_endpoints
      set enabled = false, disabled_at = now(),
          disabled_reason = 'the endpoint answered 410 Gone'
      where id = d.endpoint_id and enabled;
    return 'failed';
  end if;

  update plaudit.webhook_endpoints
    set failing_since = coalesce(failing_since, now())
    where id = d.endpoint_id
    returning failing_since into failing;

  if p_retry_in_ms is null or failing <= now() - make_interval(secs => p_disable_after_seconds) then
    update plaudit.webhook_deliveries
      set status = 'failed', locked_until = null, claim_token = null,
          last_status_code = p_status_code, last_error = err
      where id = d.id;
    if failing <= now() - make_interval(secs => p_disable_after_seconds) then
      update plaudit.webhook_endpoints
        set enabled = false, disabled_at = now(),
            disabled_reason = 'every delivery attempt failed for '
              || (p_disable_after_seconds / 86400.0)::numeric(10, 2)::text || ' days'
        where id = d.endpoint_id and enabled;
    end if;
    return 'failed';
  end if;

  update plaudit.webhook_deliveries
    set next_attempt_at = now() + make_interval(secs => p_retry_in_ms / 1000.0),
        locked_until = null, claim_token = null,
        last_status_code = p_status_code, last_error = err
    where id = d.id;
  return 'pending';
end
$$;

create function plaudit.claim_webhook_deliveries(
  p_limit integer,
  p_lease_seconds integer,
  p_per_endpoint integer,
  p_org_ids uuid[],
  p_per_org integer,
  p_org_busy jsonb,
  p_suspect_room integer
)
returns table (
  id uuid, claim_token uuid, org_id uuid, endpoint_id uuid, url text, event_type text,
  message_id text, payload text, attempt integer, schedule_step integer, is_test boolean,
  webhook_timestamp bigint, signature_hex text, previous_signature_hex text, webhook_signature text,
  suspect boolean
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  now_ts timestamptz := clock_timestamp();
  ts bigint := floor(extract(epoch from clock_timestamp()))::bigint;
begin
  return query
  with candidates as (
    select d.id, d.next_attempt_at, d.rn, w.org_id,
           w.failing_since is not null or w.slow_since is not null as suspect
    from plaudit.webhook_endpoints w
    cross join lateral (
      select count(*)::integer as n
      from plaudit.webhook_deliveries f
      where f.endpoint_id = w.id and f.status = 'pending'
        and f.locked_until is not null and f.locked_until > now_ts
    ) busy
    cross join lateral (
      select q.id, q.next_attempt_at, row_number() over (order by q.next_attempt_at, q.id) as rn
      from (
        select x.id, x.next_attempt_at
        from plaudit.webhook_deliveries x
        where x.endpoint_id = w.id and x.status = 'pending' and x.next_attempt_at <= now_ts
          and (x.locked_until is null or x.locked_until <= now_ts)
        order by x.next_attempt_at, x.id
        limit greatest(
          case when w.failing_since is null then p_per_endpoint else least(p_per_endpoint, 1) end - busy.n, 0)
      ) q
    ) d
    where w.enabled and (p_org_ids is null or w.org_id = any (p_org_ids))
  ), per_org as (
    select c.id, c.next_attempt_at, c.rn, c.suspect,
           row_number() over (partition by c.org_id order by c.rn, c.next_attempt_at, c.id)
             + coalesce((p_org_busy ->> c.org_id::text)::integer, 0) as org_n
    from candidates c
  ), within_org as (
    select c.id, c.next_attempt_at, c.rn, c.suspect,
           case when c.suspect
             then row_number() over (partition by c.suspect order by c.rn, c.next_attempt_at, c.id)
           end as suspect_n
    from per_org c
    where p_per_org is null or c.org_n <= p_per_org
  ), picked as (
    select c.id from within_org c
    where p_suspect_room is null or c.suspect_n is null or c.suspect_n <= p_suspect_room
    order by c.rn, c.next_attempt_at
    limit p_limit
  ), locked as (
    select d.id from plaudit.webhook_deliveries d
    where d.id in (select p.id from picked p)
      and d.status = 'pending' and (d.locked_until is null or d.locked_until <= now_ts)
    for update of d skip locked
  ), claimed as (
    update plaudit.webhook_deliveries d
    set locked_until = now_ts + make_interval(secs => p_lease_seconds),
        claim_token = gen_random_uuid(),
        attempts = d.attempts + 1,
        schedule_step = d.schedule_step + 1,
        last_attempt_at = now_ts
    from locked
    where d.id = locked.id
    returning d.id, d.claim_token, d.org_id, d.endpoint_id, d.event_type, d.message_id, d.payload,
              d.attempts, d.schedule_step, d.is_test
  )
  select c.id, c.claim_token, c.org_id, c.endpoint_id, w.url, c.event_type, c.message_id, c.payload,
         c.attempts, c.schedule_step, c.is_test, ts,
         s.signature_hex, s.previous_signature_hex, s.webhook_signature,
         w.failing_since is not null or w.slow_since is not null
  from claimed c
  join plaudit.webhook_endpoints w on w.id = c.endpoint_id
  cross join lateral plaudit.webhook_signatures(w.secret, w.previous_secret, w.previous_secret_expires_at,
                                                c.message_id, ts, c.payload) s;
end
$$;

-- The six-argument form (workers not yet updated): everything but the suspects' share.
create or replace function plaudit.claim_webhook_deliveries(
  p_limit integer,
  p_lease_seconds integer,
  p_per_endpoint integer,
  p_org_ids uuid[],
  p_per_org integer,
  p_org_busy jsonb
)
returns table (
  id uuid, claim_token uuid, org_id uuid, endpoint_id uuid, url text, event_type text,
  message_id text, payload text, attempt integer, schedule_step integer, is_test boolean,
  webhook_timestamp bigint, signature_hex text, previous_signature_hex text, webhook_signature text
)
language sql
volatile
security definer
set search_path = ''
as $$
  select c.id, c.claim_token, c.org_id, c.endpoint_id, c.url, c.event_type, c.message_id, c.payload,
         c.attempt, c.schedule_step, c.is_test, c.webhook_timestamp, c.signature_hex,
         c.previous_signature_hex, c.webhook_signature
  from plaudit.claim_webhook_deliveries(p_limit, p_lease_seconds, p_per_endpoint, p_org_ids,
                                        p_per_org, p_org_busy, null::integer) c
$$;

revoke execute on all functions in schema plaudit from public;
grant execute on function
  plaudit.record_webhook_attempt(uuid, uuid, integer, integer, text, text, text, bigint, integer, integer),
  plaudit.claim_webhook_deliveries(integer, integer, integer, uuid[], integer, jsonb, integer)
  to plaudit_worker;
