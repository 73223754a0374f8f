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
set search_path = ''
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

-- Called from triggers, which run as whoever made the change; no role calls it directly.
