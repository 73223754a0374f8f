-- Webhooks: endpoints and their secrets, events fanned out to deliveries, signatures and test deliveries.

-- A signing secret in the Standard Webhooks form: the hex signature keys with the whole string,
-- the Standard Webhooks one with the bytes after `whsec_`.
create or replace function plaudit.new_webhook_secret()
returns text
language sql
volatile
set search_path = pg_catalog, pg_temp
as $$ select 'whsec_' || encode(extensions.gen_random_bytes(32), 'base64') $$;
comment on function plaudit.new_webhook_secret() is 'A new webhook signing secret: `whsec_` and the base64 of 32 random bytes.';
grant execute on function plaudit.new_webhook_secret() to plaudit_api;

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
grant execute on function plaudit.create_webhook_endpoint(uuid,text,text[],text) to plaudit_api;

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
grant execute on function plaudit.rotate_webhook_secret(uuid) to plaudit_api;

-- ISO 8601 UTC with milliseconds and Z, as the API writes timestamps.
create or replace function plaudit.iso_utc(t timestamptz)
returns text
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$ select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;
comment on function plaudit.iso_utc(timestamp with time zone) is 'A timestamp as ISO 8601 UTC with milliseconds and Z, as the API writes timestamps.';
grant execute on function plaudit.iso_utc(timestamp with time zone) to plaudit_api, plaudit_public;

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
grant execute on function plaudit.canonical_json(jsonb) to plaudit_api, plaudit_worker;

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
grant execute on function plaudit.create_test_delivery(uuid,text,jsonb) to plaudit_api;

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
grant execute on function plaudit.record_test_delivery(uuid,uuid,integer,integer,text,text,boolean) to plaudit_api;

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger events_fan_out
  after insert on plaudit.events
  for each row execute function plaudit.fan_out_event();

create trigger webhook_endpoints_cancel_on_disable
  before update of enabled on plaudit.webhook_endpoints
  for each row execute function plaudit.cancel_deliveries_of_disabled_endpoint();

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own webhook deliveries"
  on plaudit.webhook_deliveries for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can requeue their own webhook deliveries"
  on plaudit.webhook_deliveries for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own webhook delivery attempts"
  on plaudit.webhook_delivery_attempts for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own webhook endpoints"
  on plaudit.webhook_endpoints for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can register webhook endpoints for themselves"
  on plaudit.webhook_endpoints for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can change their own webhook endpoints"
  on plaudit.webhook_endpoints for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can delete their own webhook endpoints"
  on plaudit.webhook_endpoints for delete to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.webhook_delivery_attempts to plaudit_api;
grant delete on plaudit.webhook_endpoints to plaudit_api;
grant insert (org_id, url, description, events, secret) on plaudit.webhook_endpoints to plaudit_api;
grant select (id, org_id, url, description, events, previous_secret_expires_at, enabled, disabled_reason, disabled_at, failing_since, secret_rotated_at, created_at, updated_at, slow_since) on plaudit.webhook_endpoints to plaudit_api;
grant update (url, description, events, enabled, disabled_reason, disabled_at, failing_since) on plaudit.webhook_endpoints to plaudit_api;
grant select (id, org_id, endpoint_id, event_id, event_type, message_id, payload, is_test, status, attempts, schedule_step, next_attempt_at, last_attempt_at, last_status_code, last_error, delivered_at, created_at) on plaudit.webhook_deliveries to plaudit_api;
grant update (status, schedule_step, next_attempt_at, locked_until, claim_token) on plaudit.webhook_deliveries to plaudit_api;
