-- Claiming walks endpoints, not the whole queue. The first version ranked every due delivery
-- with a window function on each claim, so a burst of thousands of queued deliveries made every
-- claim scan and sort all of them (about 200 deliveries/s to one endpoint). Now each enabled
-- endpoint contributes at most its free slots through an index probe on
-- (endpoint_id, next_attempt_at), and the cost of a claim no longer grows with the queue.
create index webhook_deliveries_endpoint_due
  on plaudit.webhook_deliveries (endpoint_id, next_attempt_at) where status = 'pending';

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
    select d.id, d.next_attempt_at, d.rn
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
        limit greatest(p_per_endpoint - busy.n, 0)
      ) q
    ) d
    where w.enabled and (p_org_ids is null or w.org_id = any (p_org_ids))
  ), picked as (
    select c.id from candidates c
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

-- Organizations' endpoints, for the claim's walk when it is pinned to some organizations.
create index webhook_endpoints_enabled on plaudit.webhook_endpoints (org_id) where enabled;

revoke execute on all functions in schema plaudit from public;
grant execute on function plaudit.claim_webhook_deliveries(integer, integer, integer, uuid[]) to plaudit_worker;
