-- The worker's side of the outboxes: a role, and the SECURITY DEFINER functions through which
-- it claims due rows, signs deliveries and records outcomes. The worker logs in as
-- plaudit_authenticator (the same URL as the API) and runs each call inside a transaction after
-- `set local role plaudit_worker`; the role has no table privileges, only these functions.
do $$
begin
  if not exists (select from pg_roles where rolname = 'plaudit_worker') then
    create role plaudit_worker nologin noinherit nobypassrls;
  end if;
end
$$;

grant plaudit_worker to plaudit_authenticator;
grant usage on schema plaudit to plaudit_worker;
grant usage on schema extensions to plaudit_worker;

-- The signatures of one delivery attempt:
--   signature_hex           x-webhook-signature: lowercase hex HMAC-SHA256 of the body, keyed
--                           with the secret string (`whsec_…`) as the receiver holds it;
--   previous_signature_hex  the same with the previous secret while a rotation overlaps;
--   webhook_signature       Standard Webhooks: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`
--                           keyed with the base64-decoded part of the secret after `whsec_`,
--                           one per live secret, space-separated.
-- Not granted to anyone: only the SECURITY DEFINER functions below call it.
create function plaudit.webhook_signatures(
  p_secret text, p_previous_secret text, p_previous_expires_at timestamptz,
  p_message_id text, p_timestamp bigint, p_body text,
  out signature_hex text, out previous_signature_hex text, out webhook_signature text
)
language plpgsql
stable
set search_path = ''
as $$
declare
  body bytea := convert_to(p_body, 'UTF8');
  signed bytea := convert_to(p_message_id || '.' || p_timestamp || '.', 'UTF8') || convert_to(p_body, 'UTF8');
  live_previous boolean := p_previous_secret is not null and p_previous_expires_at > now();
begin
  signature_hex := encode(extensions.hmac(body, convert_to(p_secret, 'UTF8'), 'sha256'), 'hex');
  webhook_signature := 'v1,' || encode(extensions.hmac(signed, decode(substr(p_secret, 7), 'base64'), 'sha256'), 'base64');
  if live_previous then
    previous_signature_hex := encode(extensions.hmac(body, convert_to(p_previous_secret, 'UTF8'), 'sha256'), 'hex');
    webhook_signature := webhook_signature || ' v1,'
      || encode(extensions.hmac(signed, decode(substr(p_previous_secret, 7), 'base64'), 'sha256'), 'base64');
  end if;
end
$$;

revoke execute on function plaudit.webhook_signatures(text, text, timestamptz, text, bigint, text) from public;

-- Claims up to p_limit due deliveries, signed for sending now, with a lease of p_lease_seconds.
-- Per-endpoint isolation: an endpoint never has more than p_per_endpoint deliveries in flight
-- (counting leases still held by any worker), and the batch takes the first due delivery of
-- every endpoint before the second of any, so one endpoint's backlog cannot fill a batch.
-- p_org_ids pins a worker to some organizations (null: all).
create function plaudit.claim_webhook_deliveries(
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
  with in_flight as (
    select d.endpoint_id, count(*)::integer as n
    from plaudit.webhook_deliveries d
    where d.status = 'pending' and d.locked_until is not null and d.locked_until > now_ts
    group by d.endpoint_id
  ), ranked as (
    select d.id, d.next_attempt_at, coalesce(f.n, 0) as busy,
           row_number() over (partition by d.endpoint_id order by d.next_attempt_at, d.id) as rn
    from plaudit.webhook_deliveries d
    join plaudit.webhook_endpoints w on w.id = d.endpoint_id and w.enabled
    left join in_flight f on f.endpoint_id = d.endpoint_id
    where d.status = 'pending' and d.next_attempt_at <= now_ts
      and (d.locked_until is null or d.locked_until <= now_ts)
      and (p_org_ids is null or d.org_id = any (p_org_ids))
  ), picked as (
    select r.id from ranked r
    where r.rn + r.busy <= p_per_endpoint
    order by r.rn, r.next_attempt_at
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

-- Records one attempt and decides what follows. p_outcome:
--   'succeeded'  a 2xx answer: the delivery is done and the endpoint's failure run ends;
--   'gone'       a 410 answer: the delivery fails and the endpoint is disabled;
--   'retry'      anything else: retried after p_retry_in_ms, or failed when that is null
--                (the schedule is exhausted). An endpoint whose failure run has lasted
--                p_disable_after_seconds (5 days) is disabled.
-- Test deliveries are sent once and never touch the endpoint's health. An attempt whose claim
-- has meanwhile expired (another worker took the row) is logged but changes nothing, except
-- that a success still counts. Answers the delivery's status afterwards.
create function plaudit.record_webhook_attempt(
  p_delivery_id uuid,
  p_claim_token uuid,
  p_status_code integer,
  p_duration_ms integer,
  p_error text,
  p_response_snippet text,
  p_outcome text,
  p_retry_in_ms bigint,
  p_disable_after_seconds integer default 432000
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

-- The API's "send a test event": a one-shot delivery, claimed for the caller and signed, for the
-- tenant of the transaction only. The API sends it and records the outcome with
-- plaudit.record_test_delivery.
create function plaudit.create_test_delivery(p_endpoint_id uuid, p_event_type text, p_data jsonb)
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
  w plaudit.webhook_endpoints;
  ts bigint := floor(extract(epoch from clock_timestamp()))::bigint;
  new_row plaudit.webhook_deliveries;
begin
  select * into w from plaudit.webhook_endpoints e
    where e.id = p_endpoint_id and e.org_id = plaudit.current_org_id();
  if not found then
    return;
  end if;
  insert into plaudit.webhook_deliveries as d
    (org_id, endpoint_id, event_type, payload, is_test, attempts, schedule_step, locked_until,
     claim_token, last_attempt_at)
  values (w.org_id, w.id, p_event_type, plaudit.webhook_payload(p_event_type, clock_timestamp(), p_data),
          true, 1, 1, clock_timestamp() + interval '1 minute', gen_random_uuid(), clock_timestamp())
  returning * into new_row;
  return query
    select new_row.id, new_row.claim_token, new_row.org_id, new_row.endpoint_id, w.url,
           new_row.event_type, new_row.message_id, new_row.payload, new_row.attempts,
           new_row.schedule_step, true, ts, s.signature_hex, s.previous_signature_hex, s.webhook_signature
    from plaudit.webhook_signatures(w.secret, w.previous_secret, w.previous_secret_expires_at,
                                    new_row.message_id, ts, new_row.payload) s;
end
$$;

create function plaudit.record_test_delivery(
  p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer,
  p_error text, p_response_snippet text, p_succeeded boolean
)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not exists (select from plaudit.webhook_deliveries
                 where id = p_delivery_id and is_test and org_id = plaudit.current_org_id()) then
    return null;
  end if;
  return plaudit.record_webhook_attempt(p_delivery_id, p_claim_token, p_status_code, p_duration_ms,
    p_error, p_response_snippet, case when p_succeeded then 'succeeded' else 'retry' end, null);
end
$$;

grant execute on function plaudit.create_test_delivery(uuid, text, jsonb),
  plaudit.record_test_delivery(uuid, uuid, integer, integer, text, text, boolean)
  to plaudit_api;

-- E-mail: the claim token makes a late answer from a worker whose lease expired harmless.
alter table plaudit.email_outbox add column claim_token uuid;

-- Claims up to p_limit due messages (status 'sending' while leased), with what the templates
-- need: the message's data and its organization's name.
create function plaudit.claim_emails(
  p_limit integer default 20,
  p_lease_seconds integer default 60,
  p_org_ids uuid[] default null
)
returns table (
  id uuid, claim_token uuid, org_id uuid, org_name text, to_address text, template text,
  locale text, data jsonb, idempotency_key text, attempt integer
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  now_ts timestamptz := clock_timestamp();
begin
  return query
  with locked as (
    select e.id from plaudit.email_outbox e
    where e.status in ('queued', 'sending') and e.next_attempt_at <= now_ts
      and (e.locked_until is null or e.locked_until <= now_ts)
      and (p_org_ids is null or e.org_id = any (p_org_ids))
    order by e.next_attempt_at
    limit p_limit
    for update skip locked
  ), claimed as (
    update plaudit.email_outbox e
    set status = 'sending', attempts = e.attempts + 1, claim_token = gen_random_uuid(),
        locked_until = now_ts + make_interval(secs => p_lease_seconds)
    from locked where e.id = locked.id
    returning e.id, e.claim_token, e.org_id, e.to_address, e.template, e.locale, e.data,
              e.idempotency_key, e.attempts
  )
  select c.id, c.claim_token, c.org_id, o.name, c.to_address, c.template, c.locale, c.data,
         c.idempotency_key, c.attempts
  from claimed c join plaudit.organizations o on o.id = c.org_id;
end
$$;

-- Records a send: sent, retried after p_retry_in_ms, or failed for good (p_retry_in_ms null).
create function plaudit.record_email_result(
  p_id uuid, p_claim_token uuid, p_sent boolean, p_provider_message_id text, p_error text,
  p_retry_in_ms bigint
)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  new_status text;
begin
  update plaudit.email_outbox e
  set status = case when p_sent then 'sent' when p_retry_in_ms is null then 'failed' else 'queued' end,
      sent_at = case when p_sent then now() else e.sent_at end,
      provider_message_id = coalesce(p_provider_message_id, e.provider_message_id),
      last_error = case when p_sent then null else left(p_error, 1000) end,
      next_attempt_at = case when p_sent or p_retry_in_ms is null then e.next_attempt_at
                             else now() + make_interval(secs => p_retry_in_ms / 1000.0) end,
      locked_until = null, claim_token = null
  where e.id = p_id and e.status = 'sending' and (e.claim_token = p_claim_token or p_sent)
  returning e.status into new_status;
  return coalesce(new_status, 'stale');
end
$$;

grant execute on function
  plaudit.claim_webhook_deliveries(integer, integer, integer, uuid[]),
  plaudit.record_webhook_attempt(uuid, uuid, integer, integer, text, text, text, bigint, integer),
  plaudit.claim_emails(integer, integer, uuid[]),
  plaudit.record_email_result(uuid, uuid, boolean, text, text, bigint),
  plaudit.run_maintenance()
  to plaudit_worker;

-- New functions are executable by PUBLIC by default; only the grants above stand.
revoke execute on all functions in schema plaudit from public;
