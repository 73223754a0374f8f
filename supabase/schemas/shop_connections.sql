-- Shop connections: the connections themselves, the events they receive (stored by the API,
-- processed by the worker) and catalog and privacy events. Orders and the requests they make are
-- orders_timeline.sql's. docs/connections.md tells the design.

-- The secret the service makes for a `webhook` connection: `whsec_` and the base64 of 24 random
-- bytes, the Standard Webhooks form.
create or replace function plaudit.new_connection_secret()
returns text
language sql
volatile
set search_path = pg_catalog, pg_temp
as $$ select 'whsec_' || encode(extensions.gen_random_bytes(24), 'base64') $$;
comment on function plaudit.new_connection_secret() is 'A new signing secret for a webhook connection: `whsec_` and the base64 of 24 random bytes.';
grant execute on function plaudit.new_connection_secret() to plaudit_api;

-- Creates a connection of the transaction's tenant and answers its id. The platform's secret is
-- given (Shopify, WooCommerce, Stripe: the one the platform shows) or, for `webhook`, made here and
-- answered once as signing_secret. The API role writes secrets and never reads them back.
create or replace function plaudit.create_connection(
  p_platform text, p_name text, p_settings jsonb, p_secret text, p_access_token text
)
returns table (id uuid, signing_secret text)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.current_org_id();
  made text := case when p_platform = 'webhook' then plaudit.new_connection_secret() end;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;
  return query
  insert into plaudit.connections as x (org_id, platform, name, settings, secret, access_token)
  values (tenant, p_platform, p_name, coalesce(p_settings, '{}'), coalesce(made, p_secret), p_access_token)
  returning x.id, made;
end
$$;
comment on function plaudit.create_connection(text,text,jsonb,text,text) is 'Creates a connection of the transaction''s tenant; answers its id and, for a webhook connection, the secret the service made, once.';
grant execute on function plaudit.create_connection(text,text,jsonb,text,text) to plaudit_api;

-- Deleting a connection: it stops answering (its events answer 404) and forgets its secrets; the
-- orders and requests it brought stay, and so does the row they name.
create or replace function plaudit.delete_connection(p_id uuid)
returns boolean
language sql
volatile
set search_path = pg_catalog, pg_temp
as $$
  with gone as (
    update plaudit.connections c
       set deleted_at = now(), status = 'disconnected', secret = null, access_token = null, updated_at = now()
     where c.id = p_id and c.org_id = plaudit.current_org_id() and c.deleted_at is null
    returning c.id
  )
  select exists (select from gone)
$$;
comment on function plaudit.delete_connection(uuid) is 'Deletes a connection of the transaction''s tenant: it forgets its secrets and takes no more events; what it brought stays.';
grant execute on function plaudit.delete_connection(uuid) to plaudit_api;

-- Stores a signed event of connection c (active), once per delivery id, and wakes the worker; the
-- tenant is the connection's. A delivery id seen before is recorded as `duplicate` and changes
-- nothing. An event whose outcome is known on arrival (p_settled: `ignored`, a topic not
-- understood, or `refused: <why>`, a body that cannot be read) is recorded without its payload,
-- for nobody to process. Answers the outcome: accepted | duplicate | ignored | refused: <why>.
create or replace function plaudit.store_connection_event(
  c plaudit.connections, p_delivery_id text, p_topic text, p_payload jsonb, p_settled text
)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  stored bigint;
  settled text := case when p_settled like 'refused: %' then left(p_settled, 309) else p_settled end;
begin
  -- Stamped at most once a second: a burst of one shop's events would otherwise queue on this
  -- one row, each event's transaction waiting for the previous one's.
  update plaudit.connections x set last_event_at = now()
   where x.id = c.id and (x.last_event_at is null or x.last_event_at < now() - interval '1 second');
  if settled is null then
    insert into plaudit.connection_events (org_id, connection_id, delivery_id, topic, payload)
    values (c.org_id, c.id, left(p_delivery_id, 200), left(p_topic, 200), p_payload)
    on conflict (connection_id, delivery_id) where payload is not null do nothing
    returning id into stored;
    if stored is not null then
      perform pg_notify('plaudit_outbox', 'connection');
      return 'accepted';
    end if;
    settled := 'duplicate';
  end if;
  insert into plaudit.connection_events (org_id, connection_id, delivery_id, topic, outcome, processed_at)
  values (c.org_id, c.id, left(p_delivery_id, 200), left(p_topic, 200), settled, now());
  return settled;
end
$$;
comment on function plaudit.store_connection_event(plaudit.connections,text,text,jsonb,text) is 'Stores a signed event of an active connection once per delivery id and wakes the worker; answers the outcome.';

-- The key a connection's platform signs its events with: the base64-decoded part of a `webhook`
-- connection's `whsec_` secret (Standard Webhooks); the secret's UTF-8 bytes for the others
-- (Shopify, WooCommerce, and Stripe, whose `whsec_` secret is used as a string). Null once the
-- connection is deleted (its secret forgotten).
create or replace function plaudit.connection_signing_key(c plaudit.connections)
returns bytea
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select case when c.platform = 'webhook' then decode(regexp_replace(c.secret, '^whsec_', ''), 'base64')
              else convert_to(c.secret, 'UTF8') end
$$;
comment on function plaudit.connection_signing_key(plaudit.connections) is 'The HMAC key a connection''s platform signs its events with, from its secret.';

-- Whether an event is signed with connection c's secret: one of p_signatures (the MACs its
-- headers carry, decoded) is the HMAC-SHA256 of p_signed (what the platform signs: the raw body,
-- Stripe's `t.body`, Standard Webhooks' `id.timestamp.body`) under the connection's key. The
-- MACs are compared through SHA-256 of each side, so the comparison's time says nothing of the
-- expected MAC. The secret never leaves the database.
create or replace function plaudit.connection_signature_holds(c plaudit.connections, p_signed bytea, p_signatures bytea[])
returns boolean
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(bool_or(sha256(given) = expected), false)
    from (select sha256(extensions.hmac(p_signed, plaudit.connection_signing_key(c), 'sha256')) as expected) e,
         unnest(p_signatures) given
   where c.secret is not null
$$;
comment on function plaudit.connection_signature_holds(plaudit.connections,bytea,bytea[]) is 'Whether one of the given MACs is the HMAC-SHA256 of the signed bytes under the connection''s key.';

-- The inbound route's one call: the connection's platform and state, whether the event's signature
-- holds, and the event stored (plaudit.store_connection_event) only when it does, the connection
-- is active, and its platform is p_platform (the one whose signature header the request carries,
-- which the route read the signed bytes p_signed, the MACs p_signatures, and the event's delivery
-- id, topic and payload as). The route runs without a tenant (the signature is the credential, and
-- the connection decides the tenant), and never learns the secret: the signature is checked here
-- (plaudit.connection_signature_holds). signature_holds is null and outcome null when nothing was
-- checked (another platform's, or no signature); the route then calls again as the connection's
-- platform. No row: no such connection, or deleted.
-- Plans kept for the session (plan_cache_mode = auto), as plaudit.submit_review's: a shop's burst of
-- events planned each statement afresh under the login's force_custom_plan.
create or replace function plaudit.inbound_connection_event(
  p_connection_id uuid, p_platform text, p_signed bytea, p_signatures bytea[],
  p_delivery_id text, p_topic text, p_payload jsonb, p_settled text
)
returns table (platform text, status text, signature_holds boolean, outcome text)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
declare
  c plaudit.connections;
begin
  select * into c from plaudit.connections x where x.id = p_connection_id and x.deleted_at is null;
  if not found then
    return;
  end if;
  platform := c.platform;
  status := c.status;
  if c.status = 'active' and c.platform = p_platform and p_signed is not null then
    signature_holds := plaudit.connection_signature_holds(c, p_signed, p_signatures);
    if signature_holds and p_delivery_id is not null then
      outcome := plaudit.store_connection_event(c, p_delivery_id, p_topic, p_payload, p_settled);
    end if;
  end if;
  return next;
end
$$;
comment on function plaudit.inbound_connection_event(uuid,text,bytea,bytea[],text,text,jsonb,text) is 'The inbound route''s call: a connection''s platform and state, whether the event''s signature holds, and the event stored if it does and is of that platform.';
grant execute on function plaudit.inbound_connection_event(uuid,text,bytea,bytea[],text,text,jsonb,text) to plaudit_public;

-- Stores an event of a connection (plaudit.store_connection_event) by the connection's id, with no
-- signature checked: for the owner only (the benchmarks and tests that fill a connection's queue),
-- executable by no runtime role, so no request stores an unsigned event. Answers the outcome, or
-- not_found (no such active connection).
-- Plans kept for the session, as plaudit.inbound_connection_event's.
create or replace function plaudit.receive_connection_event(
  p_connection_id uuid, p_delivery_id text, p_topic text, p_payload jsonb, p_settled text default null
)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
declare
  c plaudit.connections;
begin
  select * into c from plaudit.connections x
   where x.id = p_connection_id and x.deleted_at is null and x.status = 'active';
  if not found then
    return 'not_found';
  end if;
  return plaudit.store_connection_event(c, p_delivery_id, p_topic, p_payload, p_settled);
end
$$;
comment on function plaudit.receive_connection_event(uuid,text,text,jsonb,text) is 'Stores an event of a connection once per delivery id, unchecked, and wakes the worker; the owner''s only (benchmarks, tests).';

-- The worker claims stored events not yet processed, oldest first, with a lease; an event whose
-- processing failed comes back after the lease, and is refused after 5 attempts.
create or replace function plaudit.claim_connection_events(p_limit integer, p_lease_seconds integer, p_org_ids uuid[] default null)
returns table (id bigint, org_id uuid, connection_id uuid, platform text, topic text, payload jsonb,
               received_at timestamptz, settings jsonb)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  update plaudit.connection_events e
     set outcome = 'refused: could not be processed', processed_at = now(), payload = null
   where e.processed_at is null and e.payload is not null and e.attempts >= 5
     and (e.locked_until is null or e.locked_until < now());
  return query
  with picked as (
    select e.id from plaudit.connection_events e
     where e.processed_at is null and e.payload is not null
       and (e.locked_until is null or e.locked_until < now())
       and (p_org_ids is null or e.org_id = any (p_org_ids))
     order by e.id
     limit p_limit
     for update skip locked
  ), claimed as (
    update plaudit.connection_events e
       set locked_until = now() + make_interval(secs => p_lease_seconds), attempts = e.attempts + 1
      from picked where e.id = picked.id
    returning e.*
  )
  select k.id, k.org_id, k.connection_id, c.platform, k.topic, k.payload, k.received_at, c.settings
    from claimed k join plaudit.connections c on c.id = k.connection_id
   order by k.id;
end
$$;
comment on function plaudit.claim_connection_events(integer,integer,uuid[]) is 'Claims stored connection events not yet processed, oldest first, with a lease; refuses those that failed 5 times.';
grant execute on function plaudit.claim_connection_events(integer,integer,uuid[]) to plaudit_worker;

-- The worker's verdict on an event: `accepted` (its calls are made, in the same transaction),
-- `ignored` (a topic not understood) or `refused: <why>` (a payload it could not read). The
-- payload is kept 30 days for an accepted event (plaudit.run_connection_maintenance), not at all
-- for the others.
create or replace function plaudit.finish_connection_event(p_event_id bigint, p_outcome text)
returns void
language sql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
  update plaudit.connection_events e
     set outcome = left(p_outcome, 309), processed_at = now(), locked_until = null,
         payload = case when p_outcome = 'accepted' then e.payload end
   where e.id = p_event_id and e.processed_at is null
$$;
comment on function plaudit.finish_connection_event(bigint,text) is 'Records the outcome of a processed connection event.';
grant execute on function plaudit.finish_connection_event(bigint,text) to plaudit_worker;

-- Runs p_call's work as the connection's tenant: the SECURITY DEFINER functions below call the
-- tenant's own functions (products, erasure), which read the tenant from the transaction.
create or replace function plaudit.connection_tenant(p_connection_id uuid)
returns uuid
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid;
begin
  select c.org_id into tenant from plaudit.connections c where c.id = p_connection_id;
  if tenant is null then
    raise exception 'Connection not found' using errcode = 'no_data_found';
  end if;
  perform set_config('plaudit.org_id', tenant::text, true);
  perform set_config('plaudit.actor', 'connection:' || p_connection_id, true);
  return tenant;
end
$$;
comment on function plaudit.connection_tenant(uuid) is 'Makes a connection''s organization the transaction''s tenant, and the connection its actor; answers the tenant.';

-- A product event: upserts the catalog by external_id (the fields given), or archives the product.
-- A GTIN whose check digit is wrong is left out rather than refusing the product.
create or replace function plaudit.sync_connection_product(p_connection_id uuid, p_product jsonb, p_deleted boolean)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  row jsonb;
  result record;
begin
  perform plaudit.connection_tenant(p_connection_id);
  if p_deleted then
    row := jsonb_build_object('index', 0, 'external_id', p_product ->> 'external_id', 'archived', true);
    if not exists (select from plaudit.products p
                    where p.org_id = plaudit.current_org_id() and p.external_id = p_product ->> 'external_id') then
      return 'unknown';
    end if;
  else
    row := jsonb_strip_nulls(p_product) || jsonb_build_object('index', 0, 'archived', false);
    if not coalesce(plaudit.gtin_is_valid(row ->> 'gtin'), true) then
      row := row - 'gtin';
    end if;
  end if;
  select * into result from plaudit.upsert_products(jsonb_build_array(row));
  return coalesce(result.error, result.outcome);
end
$$;
comment on function plaudit.sync_connection_product(uuid,jsonb,boolean) is 'A connection''s product event: upserts the product by external_id, or archives it; answers the outcome.';
grant execute on function plaudit.sync_connection_product(uuid,jsonb,boolean) to plaudit_worker;

-- A shop's request to forget a customer (Shopify customers/redact, webhook customer.redact): the
-- erasure POST …/privacy/erasures makes. shop/redact (p_email null): every address that came
-- through the connection. Answers the storage keys of the erased photos' and videos' files, for
-- the worker to delete as the API does.
create or replace function plaudit.erase_connection_customers(p_connection_id uuid, p_email text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.connection_tenant(p_connection_id);
  addresses text[];
  address text;
  files jsonb := '[]'::jsonb;
begin
  if p_email is not null then
    addresses := array[lower(btrim(p_email))];
  else
    select coalesce(array_agg(distinct lower(o.email)), '{}'::text[]) into addresses from plaudit.orders o
     where o.org_id = tenant and o.connection_id = p_connection_id and o.email is not null;
  end if;
  foreach address in array addresses loop
    files := files || coalesce((plaudit.erase_reviewer(address, false, 'connection:' || p_connection_id))::jsonb -> 'files',
                               '[]'::jsonb);
  end loop;
  return files;
end
$$;
comment on function plaudit.erase_connection_customers(uuid,text) is 'Erases a customer''s address as POST …/privacy/erasures does, or (no address) every address that came through the connection; answers the media files to delete.';
grant execute on function plaudit.erase_connection_customers(uuid,text) to plaudit_worker;

-- Shopify customers/data_request: recorded by the address's key, for the admins to answer with
-- the data report (plaudit.reviewer_data lists them).
create or replace function plaudit.record_connection_data_request(p_connection_id uuid, p_email text)
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.connection_tenant(p_connection_id);
begin
  insert into plaudit.privacy_data_requests (org_id, connection_id, email_key)
  values (tenant, p_connection_id, plaudit.email_key(tenant, p_email));
end
$$;
comment on function plaudit.record_connection_data_request(uuid,text) is 'Records a shop''s request for a customer''s data, for the admins.';
grant execute on function plaudit.record_connection_data_request(uuid,text) to plaudit_worker;

-- The last 20 events of a connection of the transaction's tenant, newest first, with their outcome.
create or replace function plaudit.connection_recent_events(p_connection_id uuid)
returns jsonb
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'delivery_id', e.delivery_id, 'topic', e.topic, 'received_at', plaudit.iso_utc(e.received_at),
           'outcome', e.outcome, 'processed_at', plaudit.iso_utc(e.processed_at)) order by e.id desc), '[]')
    from (select x.id, x.delivery_id, x.topic, x.received_at, x.outcome, x.processed_at from plaudit.connection_events x
           where x.connection_id = p_connection_id and x.org_id = plaudit.current_org_id()
           order by x.id desc limit 20) e
$$;
comment on function plaudit.connection_recent_events(uuid) is 'The last 20 events of a connection of the tenant, newest first, with their outcome.';
grant execute on function plaudit.connection_recent_events(uuid) to plaudit_api;

-- Processed events keep their payload 30 days, their outcome 90.
create or replace function plaudit.run_connection_maintenance()
returns void
language sql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
  update plaudit.connection_events e set payload = null
   where e.processed_at < now() - interval '30 days' and e.payload is not null;
  delete from plaudit.connection_events e where e.received_at < now() - interval '90 days' and e.processed_at is not null;
$$;
comment on function plaudit.run_connection_maintenance() is 'Drops the payloads of connection events processed over 30 days ago, and the events over 90 days old.';
grant execute on function plaudit.run_connection_maintenance() to plaudit_worker;

create trigger connections_touch_updated_at
  before update on plaudit.connections
  for each row execute function plaudit.touch_updated_at();

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own connections"
  on plaudit.connections for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can create their own connections"
  on plaudit.connections for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can change their own connections"
  on plaudit.connections for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read the events of their own connections"
  on plaudit.connection_events for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read the data requests their own shops passed on"
  on plaudit.privacy_data_requests for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select (id, org_id, platform, name, status, settings, last_event_at, deleted_at, created_at, updated_at)
  on plaudit.connections to plaudit_api;
grant insert (org_id, platform, name, settings, secret, access_token) on plaudit.connections to plaudit_api;
grant update (name, status, settings, secret, access_token, deleted_at, updated_at) on plaudit.connections to plaudit_api;
grant select (id, org_id, connection_id, delivery_id, topic, received_at, outcome, processed_at)
  on plaudit.connection_events to plaudit_api;
grant select on plaudit.privacy_data_requests to plaudit_api;
