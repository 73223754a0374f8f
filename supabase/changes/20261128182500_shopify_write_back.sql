-- Shopify write-back: after a product's published reviews change, its rating and review count go
-- to the shop's product metafields (docs/connections.md). One row per product and connection
-- while pending (a burst of changes makes one call); the rows that were sent or failed stay as
-- the connection's write-back log.

create table plaudit.shopify_write_backs (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  connection_id uuid not null references plaudit.connections (id) on delete cascade,
  product_id uuid not null references plaudit.products (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'sending', 'retrying', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  claim_token uuid,
  -- What the last attempt set: the average as Shopify's rating value ('4.5') and the count.
  rating text check (rating ~ '^[0-5]\.[0-9]$'),
  rating_count integer check (rating_count >= 0),
  last_error text check (char_length(last_error) <= 1000),
  sent_at timestamptz,
  created_at timestamptz not null default now()
);
comment on table plaudit.shopify_write_backs is 'Products'' ratings to set, or set, as metafields of their Shopify product: the outbox and the connection''s write-back log.';
-- A product has at most one pending write-back per connection: the coalescing point.
create unique index shopify_write_backs_pending on plaudit.shopify_write_backs (connection_id, product_id)
  where status = 'pending';
create index shopify_write_backs_due on plaudit.shopify_write_backs (next_attempt_at)
  where status in ('pending', 'sending', 'retrying');
create index shopify_write_backs_log on plaudit.shopify_write_backs (connection_id, created_at desc);
create index shopify_write_backs_org_id on plaudit.shopify_write_backs (org_id);
create index shopify_write_backs_product_id on plaudit.shopify_write_backs (product_id);
alter table plaudit.shopify_write_backs enable row level security;
