-- The two outboxes: events (for webhooks) and e-mails, written in the transaction of the change they announce.
--
-- Sections: event outbox · email outbox.

-- ============================================================================================
-- event outbox
-- ============================================================================================
set role plaudit_owner;

-- The event outbox. A change that must notify someone calls plaudit.emit_event in the same
-- transaction (usually from a trigger), so an event exists if and only if its change committed.
-- Delivery (webhook fan-out, retries) is built on top of this table; the worker is woken through
-- NOTIFY plaudit_outbox and also polls, so a lost notification only delays delivery.
create table plaudit.events (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  type text not null check (type ~ '^[a-z]+(\.[a-z_]+)+$'),
  data jsonb not null,
  created_at timestamptz not null default now()
);
comment on table plaudit.events is 'The event outbox: each event written in the transaction of the change it announces, then fanned out to webhooks.';

create index events_org_id_created_at on plaudit.events (org_id, created_at desc, id);

alter table plaudit.events enable row level security;

create policy "Tenants can read their own events"
  on plaudit.events for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select on plaudit.events to plaudit_api;

create function plaudit.emit_event(p_org_id uuid, p_type text, p_data jsonb)
returns uuid
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  new_id uuid;
begin
  insert into plaudit.events (org_id, type, data) values (p_org_id, p_type, p_data)
  returning id into new_id;
  perform pg_notify('plaudit_outbox', 'event');
  return new_id;
end
$$;
comment on function plaudit.emit_event(uuid,text,jsonb) is 'Writes an event to the outbox in the caller''s transaction and wakes the worker; answers the event''s id.';

-- Called from triggers, which run as whoever made the change; no role calls it directly.

-- ============================================================================================
-- email outbox
-- ============================================================================================
-- The e-mail outbox: a message to send is a row written in the same transaction as its cause
-- (a review awaiting e-mail verification, a review request, an invitation). The worker claims
-- due rows with FOR UPDATE SKIP LOCKED, renders the template, sends, and records the outcome.
create table plaudit.email_outbox (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  to_address text not null check (char_length(to_address) <= 320),
  template text not null check (template ~ '^[a-z_]+$'),
  locale text not null default 'en' check (locale ~ '^[a-z]{2}(-[A-Z]{2})?$'),
  -- What the template needs. May hold a one-time token for a link; see docs/design.md.
  data jsonb not null default '{}',
  -- Sent to the provider so that a retried send is not delivered twice.
  idempotency_key text not null unique default gen_random_uuid()::text,
  status text not null default 'queued' check (status in ('queued', 'sending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  last_error text,
  provider_message_id text,
  sent_at timestamptz,
  created_at timestamptz not null default now()
);
comment on table plaudit.email_outbox is 'The e-mail outbox: messages written in the transaction of their cause, then claimed, sent and recorded by the worker.';

create index email_outbox_due on plaudit.email_outbox (next_attempt_at) where status in ('queued', 'sending');
create index email_outbox_org_id_created_at on plaudit.email_outbox (org_id, created_at desc);

alter table plaudit.email_outbox enable row level security;

create policy "Tenants can read their own outgoing e-mail"
  on plaudit.email_outbox for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select (id, org_id, to_address, template, locale, status, attempts, next_attempt_at,
              last_error, sent_at, created_at)
  on plaudit.email_outbox to plaudit_api;

create function plaudit.enqueue_email(
  p_org_id uuid, p_to text, p_template text, p_data jsonb,
  p_locale text default 'en', p_idempotency_key text default null
)
returns uuid
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  new_id uuid;
begin
  insert into plaudit.email_outbox (org_id, to_address, template, locale, data, idempotency_key)
  values (p_org_id, p_to, p_template, p_locale, p_data, coalesce(p_idempotency_key, gen_random_uuid()::text))
  on conflict (idempotency_key) do nothing
  returning id into new_id;
  perform pg_notify('plaudit_outbox', 'email');
  return new_id;
end
$$;
comment on function plaudit.enqueue_email(uuid,text,text,jsonb,text,text) is 'Queues an e-mail, once per idempotency key, and wakes the worker; answers its id, or null for a repeated key.';

revoke execute on all functions in schema plaudit from public;
reset role;
