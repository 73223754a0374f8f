-- The two outboxes: events (for webhooks) and e-mails, written in the transaction of the change they announce.

-- Writes an event in the transaction of the change it announces, so an event exists if and only if
-- its change committed; the notification reaches the worker at commit.
create or replace function plaudit.emit_event(p_org_id uuid, p_type text, p_data jsonb)
returns uuid
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  new_id uuid;
begin
  -- Stamped when written, not when its transaction began: a long transaction (the worker's export
  -- run takes jobs for up to two seconds) must not date an event before the changes it follows.
  insert into plaudit.events (org_id, type, data, created_at) values (p_org_id, p_type, p_data, clock_timestamp())
  returning id into new_id;
  perform pg_notify('plaudit_outbox', 'event');
  return new_id;
end
$$;
comment on function plaudit.emit_event(uuid,text,jsonb) is 'Writes an event to the outbox in the caller''s transaction and wakes the worker; answers the event''s id.';

-- Queues an e-mail in the transaction of its cause; the idempotency key (a fresh one when none is
-- given) keeps a repeated call from queueing the same message twice.
create or replace function plaudit.enqueue_email(
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

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own outgoing e-mail"
  on plaudit.email_outbox for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own events"
  on plaudit.events for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.events to plaudit_api;
grant select (id, org_id, to_address, template, locale, status, attempts, next_attempt_at, last_error, sent_at, created_at) on plaudit.email_outbox to plaudit_api;
