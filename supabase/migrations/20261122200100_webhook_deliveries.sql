-- Webhook deliveries: one row per (event, endpoint), written by a trigger on plaudit.events in
-- the transaction that emitted the event, so a committed event always has its deliveries.
-- Each attempt to send one is logged in plaudit.webhook_delivery_attempts.
--
-- `message_id` is the Standard Webhooks `webhook-id`: the same for every attempt and for manual
-- redeliveries, so a receiver can drop duplicates. `payload` holds the exact body bytes, fixed
-- when the delivery is created, so that every attempt sends (and signs) the same body.
create table plaudit.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  endpoint_id uuid not null references plaudit.webhook_endpoints (id) on delete cascade,
  event_id uuid references plaudit.events (id) on delete set null,
  event_type text not null,
  message_id text not null default 'msg_' || replace(gen_random_uuid()::text, '-', ''),
  payload text not null,
  is_test boolean not null default false,
  status text not null default 'pending'
    check (status in ('pending', 'succeeded', 'failed', 'cancelled')),
  -- Attempts made so far, and the position in the retry schedule (a redelivery restarts it).
  attempts integer not null default 0,
  schedule_step integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- A claim: the worker holding the row until then, identified by claim_token. A worker that dies
  -- leaves the lease to expire, and the row is claimed again.
  locked_until timestamptz,
  claim_token uuid,
  last_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz not null default now()
);

create index webhook_deliveries_org_id_endpoint on plaudit.webhook_deliveries (org_id, endpoint_id, created_at desc, id);
-- The worker's queue and its per-endpoint in-flight count. Not tenant lookups, so not led by org_id.
create index webhook_deliveries_due on plaudit.webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_in_flight on plaudit.webhook_deliveries (endpoint_id)
  where status = 'pending' and locked_until is not null;
create index webhook_deliveries_event_id on plaudit.webhook_deliveries (event_id);

alter table plaudit.webhook_deliveries enable row level security;

create policy "Tenants can read their own webhook deliveries"
  on plaudit.webhook_deliveries for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can requeue their own webhook deliveries"
  on plaudit.webhook_deliveries for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

grant select (id, org_id, endpoint_id, event_id, event_type, message_id, payload, is_test, status,
              attempts, schedule_step, next_attempt_at, last_attempt_at, last_status_code,
              last_error, delivered_at, created_at)
  on plaudit.webhook_deliveries to plaudit_api;
grant update (status, schedule_step, next_attempt_at, locked_until, claim_token)
  on plaudit.webhook_deliveries to plaudit_api;

create table plaudit.webhook_delivery_attempts (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  delivery_id uuid not null references plaudit.webhook_deliveries (id) on delete cascade,
  attempt integer not null,
  status_code integer,
  duration_ms integer not null,
  error text check (char_length(error) <= 1000),
  response_snippet text check (char_length(response_snippet) <= 1024),
  created_at timestamptz not null default now()
);

create index webhook_delivery_attempts_org_id_delivery
  on plaudit.webhook_delivery_attempts (org_id, delivery_id, created_at);
create index webhook_delivery_attempts_delivery_id on plaudit.webhook_delivery_attempts (delivery_id);

alter table plaudit.webhook_delivery_attempts enable row level security;

create policy "Tenants can read their own webhook delivery attempts"
  on plaudit.webhook_delivery_attempts for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select on plaudit.webhook_delivery_attempts to plaudit_api;

-- ISO 8601 UTC with milliseconds and Z, as the API writes timestamps.
create function plaudit.iso_utc(t timestamptz)
returns text
language sql
immutable
set search_path = ''
as $$ select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

grant execute on function plaudit.iso_utc(timestamptz) to plaudit_api, plaudit_public;

-- The delivery body: {"event","timestamp","data"}, in that order.
create function plaudit.webhook_payload(p_type text, p_at timestamptz, p_data jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select '{"event":' || to_json(p_type)::text || ',"timestamp":' || to_json(plaudit.iso_utc(p_at))::text
         || ',"data":' || p_data::text || '}'
$$;

-- Fan-out: a delivery for every enabled endpoint of the organization subscribed to the type
-- ('*' subscribes to all).
create function plaudit.fan_out_event()
returns trigger
language plpgsql
security definer
set search_path = ''
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

create trigger events_fan_out
  after insert on plaudit.events
  for each row execute function plaudit.fan_out_event();

-- Disabling an endpoint (by its owner, by a 410 or after 5 days of failures) cancels what is
-- still queued for it; re-enabling starts afresh with new events (old ones can be redelivered).
create function plaudit.cancel_deliveries_of_disabled_endpoint()
returns trigger
language plpgsql
security definer
set search_path = ''
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

create trigger webhook_endpoints_cancel_on_disable
  before update of enabled on plaudit.webhook_endpoints
  for each row execute function plaudit.cancel_deliveries_of_disabled_endpoint();

-- New functions are executable by PUBLIC by default; only the grants above stand.
revoke execute on all functions in schema plaudit from public;
