-- Webhook endpoints: where an organization wants its events POSTed.
--
-- The signing secret (`whsec_` + base64 of 32 random bytes) is shown once, in the answer that
-- registers the endpoint. Unlike an API key it cannot be stored as a hash: every delivery is
-- signed with it. It therefore lives in a column the API role cannot select (column privileges
-- leave it out), and only the SECURITY DEFINER functions that sign deliveries read it; the
-- signature is computed inside the database, so the secret never leaves it after registration.
-- docs/delivery.md explains the trade-off.
--
-- A rotation keeps the previous secret for 24 hours: during that window deliveries carry
-- signatures made with both.
create table plaudit.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  url text not null check (char_length(url) <= 2048 and url ~ '^https?://'),
  description text check (char_length(description) <= 500),
  events text[] not null check (cardinality(events) between 1 and 20),
  secret text not null check (secret ~ '^whsec_[A-Za-z0-9+/]+={0,2}$'),
  previous_secret text check (previous_secret ~ '^whsec_[A-Za-z0-9+/]+={0,2}$'),
  previous_secret_expires_at timestamptz,
  enabled boolean not null default true,
  disabled_reason text,
  disabled_at timestamptz,
  -- Start of the current run of failed attempts; cleared by any success. A run that lasts
  -- 5 days disables the endpoint.
  failing_since timestamptz,
  secret_rotated_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index webhook_endpoints_org_id_created_at on plaudit.webhook_endpoints (org_id, created_at desc, id);

create trigger webhook_endpoints_touch_updated_at
  before update on plaudit.webhook_endpoints
  for each row execute function plaudit.touch_updated_at();

alter table plaudit.webhook_endpoints enable row level security;

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

-- Everything but the two secrets.
grant select (id, org_id, url, description, events, previous_secret_expires_at, enabled,
              disabled_reason, disabled_at, failing_since, secret_rotated_at, created_at, updated_at)
  on plaudit.webhook_endpoints to plaudit_api;
grant insert (org_id, url, description, events, secret) on plaudit.webhook_endpoints to plaudit_api;
grant update (url, description, events, enabled, disabled_reason, disabled_at, failing_since)
  on plaudit.webhook_endpoints to plaudit_api;
grant delete on plaudit.webhook_endpoints to plaudit_api;

create function plaudit.new_webhook_secret()
returns text
language sql
volatile
set search_path = ''
as $$ select 'whsec_' || encode(extensions.gen_random_bytes(32), 'base64') $$;

-- Registers an endpoint and answers its secret, once. Runs with the caller's rights: the API
-- role inserts the secret but can never read it back.
create function plaudit.create_webhook_endpoint(
  p_org_id uuid, p_url text, p_events text[], p_description text default null
)
returns table (
  id uuid, url text, description text, events text[], enabled boolean, secret text,
  created_at timestamptz
)
language plpgsql
volatile
set search_path = ''
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

-- Issues a new secret; the old one keeps signing (alongside) for 24 hours. Reading the old
-- secret needs the owner's rights, so this is SECURITY DEFINER and checks the tenant itself.
create function plaudit.rotate_webhook_secret(p_endpoint_id uuid)
returns table (id uuid, secret text, previous_secret_expires_at timestamptz)
language plpgsql
volatile
security definer
set search_path = ''
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

grant execute on function plaudit.new_webhook_secret(),
  plaudit.create_webhook_endpoint(uuid, text, text[], text),
  plaudit.rotate_webhook_secret(uuid)
  to plaudit_api;

-- New functions are executable by PUBLIC by default; only the grants above stand.
revoke execute on all functions in schema plaudit from public;
