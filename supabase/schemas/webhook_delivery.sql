-- Webhook delivery: the worker claims due deliveries, fairly across endpoints, and records each attempt.

-- The worker's report on one attempt: logged whatever the outcome, while a stale claim cannot
-- change the delivery. A 410, or failures for p_disable_after_seconds, disables the endpoint.
create or replace function plaudit.record_webhook_attempt(
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
set search_path = pg_catalog, pg_temp
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
comment on function plaudit.record_webhook_attempt(uuid,uuid,integer,integer,text,text,text,bigint,integer,integer) is 'Records a delivery attempt; the delivery succeeds, waits for a retry or fails.';
grant execute on function plaudit.record_webhook_attempt(uuid,uuid,integer,integer,text,text,text,bigint,integer,integer) to plaudit_worker;

-- Slow or dead endpoints can no longer take a whole worker. The per-endpoint cap alone let a
-- handful of endpoints that answer only at the timeout (4 slots each) fill every slot of a worker,
-- and the worker stops claiming when its slots are busy, so every other organization waited.
-- Two rules are added to the claim:
--   * an endpoint in a failure run (failing_since set: its last attempt timed out or failed) gets
--     one delivery in flight, a probe, until an attempt succeeds; then its full share again;
--   * an organization gets at most p_per_org deliveries in flight in the calling worker:
--     p_org_busy ({"<org_id>": n}) says how many the worker already has in flight per
--     organization, and the batch is cut per organization so that those plus the new ones stay
--     within p_per_org (null: no organization cap).
-- The claim stays one statement (candidates, caps, FOR UPDATE SKIP LOCKED, lease), so it is
-- atomic as before, and leases, claim tokens and at-least-once delivery are unchanged.
-- (plaudit.claim_webhook_deliveries is defined once, with the suspects' share below.)
-- Claims up to p_limit due deliveries, signed for sending now, with a lease of p_lease_seconds.
-- Per-endpoint isolation: an endpoint never has more than p_per_endpoint deliveries in flight
-- (counting leases still held by any worker), and the batch takes the first due delivery of
-- every endpoint before the second of any, so one endpoint's backlog cannot fill a batch.
-- p_org_ids pins a worker to some organizations (null: all).
-- p_per_org, p_org_busy and p_suspect_room: the shares above (null: no cap).
-- The claim starts from the deliveries, not from the endpoints: a loose index scan of
-- webhook_deliveries_endpoint_due jumps from one endpoint with a pending delivery to the next
-- (one index probe each), so endpoints with nothing queued, most of them on a large
-- installation, cost nothing. It does not start from the due deliveries themselves
-- (webhook_deliveries_due): a backlog of due deliveries would then be read whole on every claim,
-- when the worker can least afford it; an endpoint's backlog costs one probe here. The endpoints
-- found are then read by their key, once, and the rules apply to them as before.
create or replace function plaudit.claim_webhook_deliveries(
  p_limit integer default 50,
  p_lease_seconds integer default 60,
  p_per_endpoint integer default 4,
  p_org_ids uuid[] default null,
  p_per_org integer default null,
  p_org_busy jsonb default null,
  p_suspect_room integer default null
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
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
  now_ts timestamptz := clock_timestamp();
  ts bigint := floor(extract(epoch from clock_timestamp()))::bigint;
begin
  return query
  with recursive queued_endpoints as (
    (select x.endpoint_id from plaudit.webhook_deliveries x
     where x.status = 'pending'
     order by x.endpoint_id limit 1)
    union all
    select (select x.endpoint_id from plaudit.webhook_deliveries x
            where x.status = 'pending' and x.endpoint_id > q.endpoint_id
            order by x.endpoint_id limit 1)
    from queued_endpoints q
    where q.endpoint_id is not null
  ), endpoints as (
    -- By key, one at a time (the limit keeps the planner from joining the whole table).
    select w.*
    from queued_endpoints q
    cross join lateral (
      select e.id, e.org_id, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at,
             e.failing_since is not null as failing,
             e.failing_since is not null or e.slow_since is not null as suspect
      from plaudit.webhook_endpoints e
      where e.id = q.endpoint_id and e.enabled and (p_org_ids is null or e.org_id = any (p_org_ids))
      limit 1
    ) w
  ), candidates as (
    select d.id, d.next_attempt_at, d.rn, w.org_id, w.suspect, w.url, w.secret, w.previous_secret,
           w.previous_secret_expires_at
    from endpoints w
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
        limit greatest(case when w.failing then least(p_per_endpoint, 1) else p_per_endpoint end - busy.n, 0)
      ) q
    ) d
  ), per_org as (
    select c.*,
           row_number() over (partition by c.org_id order by c.rn, c.next_attempt_at, c.id)
             + coalesce((p_org_busy ->> c.org_id::text)::integer, 0) as org_n
    from candidates c
  ), within_org as (
    select c.*,
           case when c.suspect
             then row_number() over (partition by c.suspect order by c.rn, c.next_attempt_at, c.id)
           end as suspect_n
    from per_org c
    where p_per_org is null or c.org_n <= p_per_org
  ), picked as (
    select c.* from within_org c
    where p_suspect_room is null or c.suspect_n is null or c.suspect_n <= p_suspect_room
    order by c.rn, c.next_attempt_at
    limit p_limit
  ), locked as (
    select p.* from plaudit.webhook_deliveries d
    join picked p on p.id = d.id
    where d.status = 'pending' and (d.locked_until is null or d.locked_until <= now_ts)
    for update of d skip locked
  ), claimed as (
    update plaudit.webhook_deliveries d
    set locked_until = now_ts + make_interval(secs => p_lease_seconds),
        claim_token = gen_random_uuid(),
        attempts = d.attempts + 1,
        schedule_step = d.schedule_step + 1,
        last_attempt_at = now_ts
    from locked l
    where d.id = l.id
    returning d.id, d.claim_token, d.org_id, d.endpoint_id, d.event_type, d.message_id, d.payload,
              d.attempts, d.schedule_step, d.is_test, l.url, l.secret, l.previous_secret,
              l.previous_secret_expires_at, l.suspect
  )
  select c.id, c.claim_token, c.org_id, c.endpoint_id, c.url, c.event_type, c.message_id, c.payload,
         c.attempts, c.schedule_step, c.is_test, ts,
         s.signature_hex, s.previous_signature_hex, s.webhook_signature, c.suspect
  from claimed c
  cross join lateral plaudit.webhook_signatures(c.secret, c.previous_secret, c.previous_secret_expires_at,
                                                c.message_id, ts, c.payload) s;
end
$$;
comment on function plaudit.claim_webhook_deliveries(integer,integer,integer,uuid[],integer,jsonb,integer) is 'Claims due deliveries, signed and leased, so no endpoint or organization fills a batch.';
grant execute on function plaudit.claim_webhook_deliveries(integer,integer,integer,uuid[],integer,jsonb,integer) to plaudit_worker;
