-- Shop connections: the systems where an organization's orders happen, the events they send,
-- orders that follow them (status, timeline, items refunded) and the automation that turns an
-- order into one review request (docs/connections.md).

create table plaudit.connections (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  platform text not null check (platform in ('shopify', 'woocommerce', 'stripe', 'webhook')),
  name text not null check (char_length(name) between 1 and 200),
  status text not null default 'active' check (status in ('active', 'disconnected')),
  settings jsonb not null default '{}' check (jsonb_typeof(settings) = 'object' and octet_length(settings::text) <= 4096),
  -- The secret that signs the platform's events, and the Shopify access token for write-back:
  -- written by the API, read only by SECURITY DEFINER functions; null once the connection is deleted.
  secret text check (char_length(secret) between 1 and 500),
  access_token text check (char_length(access_token) between 1 and 500),
  last_event_at timestamptz,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table plaudit.connections is 'Shop connections: where an organization''s orders happen (Shopify, WooCommerce, Stripe, any shop through signed webhooks), with the secret that signs their events.';
create index connections_org_id on plaudit.connections (org_id, created_at);
alter table plaudit.connections enable row level security;

create table plaudit.connection_events (
  id bigint generated always as identity primary key,
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  connection_id uuid not null references plaudit.connections (id) on delete cascade,
  delivery_id text not null check (char_length(delivery_id) between 1 and 200),
  topic text not null check (char_length(topic) between 1 and 200),
  received_at timestamptz not null default now(),
  -- The event as the platform sent it, for the worker; null for a repeated delivery and for an
  -- event refused on arrival (only its outcome is kept).
  payload jsonb check (octet_length(payload::text) <= 600000),
  outcome text not null default 'accepted'
    check (outcome in ('accepted', 'duplicate', 'ignored') or (outcome like 'refused: _%' and char_length(outcome) <= 320)),
  attempts smallint not null default 0,
  locked_until timestamptz,
  processed_at timestamptz
);
comment on table plaudit.connection_events is 'Every signed event a connection received, with its outcome: accepted (and processed), duplicate, ignored or refused.';
-- One stored event per delivery id of a connection: a repeated delivery finds it taken.
create unique index connection_events_delivery on plaudit.connection_events (connection_id, delivery_id)
  where payload is not null;
create index connection_events_recent on plaudit.connection_events (connection_id, id desc);
create index connection_events_unprocessed on plaudit.connection_events (id)
  where processed_at is null and payload is not null;
alter table plaudit.connection_events enable row level security;

alter table plaudit.orders
  add column connection_id uuid references plaudit.connections (id),
  -- The platform's own id of the order (Shopify's and WooCommerce's numeric id, Stripe's payment
  -- intent), by which refunds and deletions name it.
  add column platform_order_id text check (char_length(platform_order_id) between 1 and 200),
  add column platform text check (platform in ('shopify', 'woocommerce', 'stripe', 'webhook')),
  add column name text check (char_length(name) between 1 and 200),
  add column status text check (status in ('created', 'paid', 'fulfilled', 'delivered', 'cancelled', 'refunded')),
  add column locale text check (locale ~ '^[a-z]{2}(-[A-Z]{2})?$'),
  add column country text check (country ~ '^[A-Z]{2}$'),
  add column review_request_id uuid references plaudit.review_requests (id) on delete set null,
  add column skipped_reason text
    check (skipped_reason in ('no_email', 'suppressed', 'too_old', 'automation_off', 'excluded')),
  add column skipped_at timestamptz;
create index orders_connection_id on plaudit.orders (connection_id, platform_order_id) where connection_id is not null;

alter table plaudit.order_items
  add column refunded boolean not null default false;

create table plaudit.order_events (
  id bigint generated always as identity primary key,
  org_id uuid not null,
  order_id text not null,
  type text not null check (type in ('created', 'paid', 'fulfilled', 'delivered', 'cancelled', 'refunded',
                                     'partially_refunded')),
  occurred_at timestamptz not null,
  received_at timestamptz not null default now(),
  connection_event_id bigint references plaudit.connection_events (id) on delete set null,
  notes text check (char_length(notes) <= 500),
  foreign key (org_id, order_id) references plaudit.orders (org_id, order_id) on delete cascade
);
comment on table plaudit.order_events is 'An order''s timeline: what its shop said happened and when (the event''s own time), when it arrived, and what was decided.';
create index order_events_order on plaudit.order_events (org_id, order_id, occurred_at);
alter table plaudit.order_events enable row level security;

create table plaudit.review_request_automation (
  org_id uuid primary key references plaudit.organizations (id) on delete cascade,
  enabled boolean not null default false,
  trigger text not null default 'fulfilled' check (trigger in ('fulfilled', 'delivered', 'paid')),
  delay_days integer not null default 7 check (delay_days between 0 and 90),
  form_id uuid references plaudit.review_forms (id) on delete set null,
  exclude_products text[] not null default '{}' check (cardinality(exclude_products) <= 1000),
  updated_at timestamptz not null default now()
);
comment on table plaudit.review_request_automation is 'Per organization: whether orders from its connections make review requests, on which event, after how many days, on which form, and for which products not.';
alter table plaudit.review_request_automation enable row level security;

create table plaudit.privacy_data_requests (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  connection_id uuid references plaudit.connections (id) on delete set null,
  email_key bytea not null,
  received_at timestamptz not null default now()
);
comment on table plaudit.privacy_data_requests is 'Requests for a customer''s data that a shop passed on (Shopify customers/data_request), by the address''s key, for the admins to answer with the data report.';
create index privacy_data_requests_org on plaudit.privacy_data_requests (org_id, email_key);
alter table plaudit.privacy_data_requests enable row level security;

-- A request the order no longer wants (cancelled, fully refunded) before it was sent.
alter table plaudit.review_requests drop constraint review_requests_status_check;
alter table plaudit.review_requests add constraint review_requests_status_check
  check (status in ('queued', 'sent', 'delivered', 'opened', 'clicked', 'failed', 'bounced', 'complained',
                    'unsubscribed', 'canceled', 'completed'));
alter table plaudit.review_requests add column canceled_at timestamptz;
alter table plaudit.review_request_events drop constraint review_request_events_type_check;
alter table plaudit.review_request_events add constraint review_request_events_type_check
  check (type in ('queued', 'sent', 'delivered', 'opened', 'clicked', 'completed', 'bounced', 'complained',
                  'unsubscribed', 'failed', 'soft_bounced', 'delivery_delayed', 'reminder_queued', 'reminder_sent',
                  'canceled', 'products_dropped'));

-- review_request.canceled: an event type whose resource has two words.
alter table plaudit.events drop constraint events_type_check;
alter table plaudit.events add constraint events_type_check check (type ~ '^[a-z]+(_[a-z]+)*(\.[a-z_]+)+$');

create index review_request_automation_form_id on plaudit.review_request_automation (form_id);
create index privacy_data_requests_connection_id on plaudit.privacy_data_requests (connection_id);
create index order_events_connection_event_id on plaudit.order_events (connection_event_id);
create index orders_review_request_id on plaudit.orders (review_request_id);
create index connection_events_org_id on plaudit.connection_events (org_id);
