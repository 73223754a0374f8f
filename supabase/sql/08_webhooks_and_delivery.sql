-- Webhooks: endpoints, deliveries fanned out from events, and the worker's claim, signing and recording.
--
--
-- The functions and views of this concern, each once, as the database has them now.

-- A signing secret in the Standard Webhooks form: the hex signature keys with the whole string,
-- the Standard Webhooks one with the bytes after `whsec_`.
create or replace function plaudit.new_webhook_secret()
returns text
language sql
volatile
set search_path = pg_catalog, pg_temp
as $$ select 'whsec_' || encode(extensions.gen_random_bytes(32), 'base64') $$;
comment on function plaudit.new_webhook_secret() is 'A new webhook signing secret: `whsec_` and the base64 of 32 random bytes.';

-- Registers an endpoint and answers its secret, once. Runs with the caller's rights: the API
-- role inserts the secret but can never read it back.
create or replace function plaudit.create_webhook_endpoint(
  p_org_id uuid, p_url text, p_events text[], p_description text default null
)
returns table (
  id uuid, url text, description text, events text[], enabled boolean, secret text,
  created_at timestamptz
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  new_secret text := plaudit.new_webhook_secret();
begin
  return query
    insert into plaudit.webhook_endpoints as w (org_id, url, events, description, secret)
    values (p_org_id, p_url, p_events, p_description, new_secret)
    returning w.id, w.url, w.description, w.events, w.enabled, new_secret, w.created_at;
end
$$;
comment on function plaudit.create_webhook_endpoint(uuid,text,text[],text) is 'Registers a webhook endpoint and answers its signing secret, once.';

-- Issues a new secret; the old one keeps signing (alongside) for 24 hours. Reading the old
-- secret needs the owner's rights, so this is SECURITY DEFINER and checks the tenant itself.
create or replace function plaudit.rotate_webhook_secret(p_endpoint_id uuid)
returns table (id uuid, secret text, previous_secret_expires_at timestamptz)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  new_secret text := plaudit.new_webhook_secret();
begin
  return query
    update plaudit.webhook_endpoints as w
    set previous_secret = w.secret,
        previous_secret_expires_at = now() + interval '24 hours',
        secret = new_secret,
        secret_rotated_at = now()
    where w.id = p_endpoint_id and w.org_id = plaudit.current_org_id()
    returning w.id, new_secret, w.previous_secret_expires_at;
end
$$;
comment on function plaudit.rotate_webhook_secret(uuid) is 'Issues a new signing secret for an endpoint of the caller''s tenant; the old one keeps signing alongside for 24 hours.';

-- ISO 8601 UTC with milliseconds and Z, as the API writes timestamps.
create or replace function plaudit.iso_utc(t timestamptz)
returns text
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$ select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;
comment on function plaudit.iso_utc(timestamp with time zone) is 'A timestamp as ISO 8601 UTC with milliseconds and Z, as the API writes timestamps.';

-- jsonb prints `{"id": "…", "n": 1}`, with spaces, so a receiver that parses a webhook body and
-- serializes it again (JSON.stringify) would digest other bytes than were signed. Bodies are
-- written compact instead, byte-identical to JSON.stringify(JSON.parse(body)): no spaces,
-- integer-like keys first in ascending order and the others in the object's order (as
-- JavaScript orders them), numbers without trailing zeros, strings escaped as JSON.stringify
-- escapes them (jsonb's output escapes the same characters the same way).
create or replace function plaudit.canonical_json(v jsonb)
returns text
language plpgsql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$
begin
  case jsonb_typeof(v)
    when 'object' then
      return '{' || coalesce((
        select string_agg(to_json(e.key)::text || ':' || plaudit.canonical_json(e.value), ','
                          order by e.index is null, e.index, e.ord)
          from (select o.key, o.value, o.ord,
                       case when o.key ~ '^(0|[1-9][0-9]{0,9})$' and o.key::bigint <= 4294967294
                            then o.key::bigint end as index
                  from jsonb_each(v) with ordinality o(key, value, ord)) e), '') || '}';
    when 'array' then
      return '[' || coalesce((
        select string_agg(plaudit.canonical_json(a.value), ',' order by a.ord)
          from jsonb_array_elements(v) with ordinality a(value, ord)), '') || ']';
    when 'number' then
      return trim_scale(v::text::numeric)::text;
    else
      -- A string, true, false or null: jsonb prints these as JSON.stringify does.
      return v::text;
  end case;
end
$$;
comment on function plaudit.canonical_json(jsonb) is 'jsonb as compact JSON, byte for byte what JSON.stringify writes, so that a receiver digests what was signed.';

-- The delivery body: {"event","timestamp","data"}, in that order, compact.
create or replace function plaudit.webhook_payload(p_type text, p_at timestamptz, p_data jsonb)
returns text
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select '{"event":' || to_json(p_type)::text || ',"timestamp":' || to_json(plaudit.iso_utc(p_at))::text
         || ',"data":' || plaudit.canonical_json(p_data) || '}'
$$;
comment on function plaudit.webhook_payload(text,timestamp with time zone,jsonb) is 'An event''s delivery body: {"event","timestamp","data"}, in that order, compact.';

-- Fan-out: a delivery for every enabled endpoint of the organization subscribed to the type
-- ('*' subscribes to all).
create or replace function plaudit.fan_out_event()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  insert into plaudit.webhook_deliveries (org_id, endpoint_id, event_id, event_type, payload)
  select new.org_id, w.id, new.id, new.type, plaudit.webhook_payload(new.type, new.created_at, new.data)
  from plaudit.webhook_endpoints w
  where w.org_id = new.org_id and w.enabled
    and (new.type = any (w.events) or '*' = any (w.events));
  return null;
end
$$;
comment on function plaudit.fan_out_event() is 'Every new event gets a delivery for each enabled endpoint of its organization subscribed to its type.';

-- Disabling an endpoint (by its owner, by a 410 or after 5 days of failures) cancels what is
-- still queued for it; re-enabling starts afresh with new events (old ones can be redelivered).
create or replace function plaudit.cancel_deliveries_of_disabled_endpoint()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  if old.enabled and not new.enabled then
    update plaudit.webhook_deliveries
      set status = 'cancelled', locked_until = null, claim_token = null,
          last_error = coalesce(last_error || '; ', '') || 'endpoint disabled'
      where endpoint_id = new.id and status = 'pending';
    new.disabled_at := coalesce(new.disabled_at, now());
    new.disabled_reason := coalesce(new.disabled_reason, 'disabled through the API');
  elsif new.enabled and not old.enabled then
    new.disabled_at := null;
    new.disabled_reason := null;
    new.failing_since := null;
  end if;
  return new;
end
$$;
comment on function plaudit.cancel_deliveries_of_disabled_endpoint() is 'Disabling an endpoint cancels its pending deliveries and notes when and why; re-enabling clears that and its failure run.';

-- The signatures of one delivery attempt:
--   signature_hex           x-webhook-signature: lowercase hex HMAC-SHA256 of the body, keyed
--                           with the secret string (`whsec_…`) as the receiver holds it;
--   previous_signature_hex  the same with the previous secret while a rotation overlaps;
--   webhook_signature       Standard Webhooks: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`
--                           keyed with the base64-decoded part of the secret after `whsec_`,
--                           one per live secret, space-separated.
-- Not granted to anyone: only the SECURITY DEFINER functions below call it.
create or replace function plaudit.webhook_signatures(
  p_secret text, p_previous_secret text, p_previous_expires_at timestamptz,
  p_message_id text, p_timestamp bigint, p_body text,
  out signature_hex text, out previous_signature_hex text, out webhook_signature text
)
language plpgsql
stable
set search_path = pg_catalog, pg_temp
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
comment on function plaudit.webhook_signatures(text,text,timestamp with time zone,text,bigint,text) is 'The signatures of one delivery attempt, hex and Standard Webhooks, with each live secret.';

-- The API's "send a test event": a one-shot delivery, claimed for the caller and signed, for the
-- tenant of the transaction only. The API sends it and records the outcome with
-- plaudit.record_test_delivery.
create or replace function plaudit.create_test_delivery(p_endpoint_id uuid, p_event_type text, p_data jsonb)
returns table (
  id uuid, claim_token uuid, org_id uuid, endpoint_id uuid, url text, event_type text,
  message_id text, payload text, attempt integer, schedule_step integer, is_test boolean,
  webhook_timestamp bigint, signature_hex text, previous_signature_hex text, webhook_signature text
)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
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
comment on function plaudit.create_test_delivery(uuid,text,jsonb) is 'Creates a one-shot test delivery to an endpoint of the transaction''s tenant, claimed for the caller and signed.';

-- The API sends a test delivery itself and records its outcome here: only a test delivery of the
-- transaction's tenant, and a failed test is never retried.
create or replace function plaudit.record_test_delivery(
  p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer,
  p_error text, p_response_snippet text, p_succeeded boolean
)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
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
comment on function plaudit.record_test_delivery(uuid,uuid,integer,integer,text,text,boolean) is 'Records the outcome of a test delivery of the transaction''s tenant; answers its status.';

-- Claims up to p_limit due messages (status 'sending' while leased), with what the templates
-- need: the message's data and its organization's brand (plaudit.brand_name).
create or replace function plaudit.claim_emails(
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
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
  now_ts timestamptz := clock_timestamp();
  wanted integer := p_limit;
  batch uuid[];
  withdrawn integer;
  claimed integer;
begin
  loop
    select array_agg(d.id) into batch from (
      select e.id from plaudit.email_outbox e
      where e.status in ('queued', 'sending') and e.next_attempt_at <= now_ts
        and (e.locked_until is null or e.locked_until <= now_ts)
        and (p_org_ids is null or e.org_id = any (p_org_ids))
      order by e.next_attempt_at
      limit wanted
      for update skip locked
    ) d;
    exit when batch is null;

    -- The rows are locked: no suppression or end of a request can slip in between this check
    -- and the claim below without waiting for this transaction.
    update plaudit.email_outbox e
      set status = 'failed', last_error = 'cancelled: ' || w.reason, locked_until = null, claim_token = null
      from (select x.id, plaudit.review_request_email_withdrawal(x.org_id, x.template, x.to_address, x.data) as reason
            from plaudit.email_outbox x where x.id = any (batch)) w
      where e.id = w.id and w.reason is not null;
    get diagnostics withdrawn = row_count;

    -- Withdrawing one e-mail can withdraw others of the batch (the trigger's `failed` event
    -- cancels the request's other e-mails): only rows still waiting are claimed.
    return query
    with claimed as (
      update plaudit.email_outbox e
      set status = 'sending', attempts = e.attempts + 1, claim_token = gen_random_uuid(),
          locked_until = now_ts + make_interval(secs => p_lease_seconds)
      where e.id = any (batch) and e.status in ('queued', 'sending')
      returning e.id, e.claim_token, e.org_id, e.to_address, e.template, e.locale, e.data,
                e.idempotency_key, e.attempts
    )
    select c.id, c.claim_token, c.org_id, plaudit.brand_name(c.org_id), c.to_address, c.template, c.locale, c.data,
           c.idempotency_key, c.attempts
    from claimed c;
    get diagnostics claimed = row_count;

    wanted := wanted - claimed;
    exit when withdrawn = 0 or wanted <= 0;
  end loop;
end
$$;
comment on function plaudit.claim_emails(integer,integer,uuid[]) is 'Claims up to p_limit due e-mails under a lease, with their data and brand, failing those withdrawn meanwhile.';

-- Records a send: sent, retried after p_retry_in_ms, or failed for good (p_retry_in_ms null).
create or replace function plaudit.record_email_result(
  p_id uuid, p_claim_token uuid, p_sent boolean, p_provider_message_id text, p_error text,
  p_retry_in_ms bigint
)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  new_status text;
  withdrawal text;
begin
  if not p_sent and p_retry_in_ms is not null then
    select plaudit.review_request_email_withdrawal(e.org_id, e.template, e.to_address, e.data) into withdrawal
      from plaudit.email_outbox e
      where e.id = p_id and e.status = 'sending' and e.claim_token = p_claim_token
      for update;
  end if;
  update plaudit.email_outbox e
  set status = case when p_sent then 'sent'
                    when p_retry_in_ms is null or withdrawal is not null then 'failed'
                    else 'queued' end,
      sent_at = case when p_sent then now() else e.sent_at end,
      provider_message_id = coalesce(p_provider_message_id, e.provider_message_id),
      last_error = case when p_sent then null
                        when withdrawal is not null then 'cancelled: ' || withdrawal
                        else left(p_error, 1000) end,
      next_attempt_at = case when p_sent or p_retry_in_ms is null or withdrawal is not null then e.next_attempt_at
                             else now() + make_interval(secs => p_retry_in_ms / 1000.0) end,
      locked_until = null, claim_token = null
  where e.id = p_id and e.status = 'sending' and (e.claim_token = p_claim_token or p_sent)
  returning e.status into new_status;
  return coalesce(new_status, 'stale');
end
$$;
comment on function plaudit.record_email_result(uuid,uuid,boolean,text,text,bigint) is 'Records a claimed e-mail''s send: sent, queued again for a retry, or failed for good; answers its status.';

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
