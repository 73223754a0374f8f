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
create function plaudit.claim_webhook_deliveries(
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
    select d.id, d.next_attempt_at, d.rn, w.org_id
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
    select c.id, c.next_attempt_at, c.rn,
           row_number() over (partition by c.org_id order by c.rn, c.next_attempt_at, c.id)
             + coalesce((p_org_busy ->> c.org_id::text)::integer, 0) as org_n
    from candidates c
  ), picked as (
    select c.id from per_org c
    where p_per_org is null or c.org_n <= p_per_org
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
         s.signature_hex, s.previous_signature_hex, s.webhook_signature
  from claimed c
  join plaudit.webhook_endpoints w on w.id = c.endpoint_id
  cross join lateral plaudit.webhook_signatures(w.secret, w.previous_secret, w.previous_secret_expires_at,
                                                c.message_id, ts, c.payload) s;
end
$$;

-- The four-argument form (workers not yet updated) keeps working: the probe rule applies, the
-- organization cap does not.
create or replace function plaudit.claim_webhook_deliveries(
  p_limit integer default 50,
  p_lease_seconds integer default 60,
  p_per_endpoint integer default 4,
  p_org_ids uuid[] default null
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
  select * from plaudit.claim_webhook_deliveries(p_limit, p_lease_seconds, p_per_endpoint, p_org_ids,
                                                  null::integer, null::jsonb)
$$;

revoke execute on all functions in schema plaudit from public;
grant execute on function
  plaudit.claim_webhook_deliveries(integer, integer, integer, uuid[]),
  plaudit.claim_webhook_deliveries(integer, integer, integer, uuid[], integer, jsonb)
  to plaudit_worker;
