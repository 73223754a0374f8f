-- Shopify write-back: a change of a product's public review counters asks, in its transaction,
-- for the product's rating metafields to be set on every Shopify connection of the organization
-- that has an access token; the worker claims the asks, calls the shop's Admin GraphQL API and
-- records each attempt (functions/_shared/worker/lanes/shopify-write-back.ts).

-- Shopify's own product ids are numbers: a product the catalog got elsewhere (a CSV import, the
-- API) under another id has no Shopify product to write to.
create or replace function plaudit.is_shopify_product_id(p_external_id text)
returns boolean
language sql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$ select p_external_id ~ '^[0-9]{1,20}$' $$;
comment on function plaudit.is_shopify_product_id(text) is 'True when an external id can be a Shopify product''s id (a number).';

-- After a product's public counters change (a review published, hidden, erased, a recount):
-- one pending write-back per Shopify connection with an access token, unless one is pending
-- already (a burst of reviews costs one call; the worker reads the figures when it sends).
create or replace function plaudit.shopify_write_back_on_rating_change()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  asked integer;
begin
  insert into plaudit.shopify_write_backs (org_id, connection_id, product_id)
  select c.org_id, c.id, new.product_id
    from plaudit.connections c
    join plaudit.products p on p.id = new.product_id
   where c.org_id = new.org_id and c.platform = 'shopify' and c.status = 'active' and c.deleted_at is null
     and c.access_token is not null and plaudit.is_shopify_product_id(p.external_id)
     and not exists (select from plaudit.shopify_write_backs w
                      where w.connection_id = c.id and w.product_id = new.product_id and w.status = 'pending')
  on conflict (connection_id, product_id) where status = 'pending' do nothing;
  get diagnostics asked = row_count;
  if asked > 0 then
    perform pg_notify('plaudit_outbox', 'write_back');
  end if;
  return null;
end
$$;
comment on function plaudit.shopify_write_back_on_rating_change() is 'Asks for a product''s rating metafields to be written to each Shopify connection with an access token, once while one is pending.';

-- Claims due write-backs, up to p_limit, with a lease: pending ones, retries whose time has come,
-- and claims whose lease ran out (a worker died); each with what the call needs, read now (the
-- connection's shop and token, the product's Shopify id and its current public figures).
-- Write-backs of a connection deleted or stripped of its token since are dropped as failed.
create or replace function plaudit.claim_shopify_write_backs(
  p_limit integer default 50,
  p_lease_seconds integer default 60,
  p_org_ids uuid[] default null
)
returns table (id uuid, claim_token uuid, org_id uuid, connection_id uuid, shop_domain text, access_token text,
               external_id text, public_count bigint, rating_sum bigint, attempt integer)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
  now_ts timestamptz := clock_timestamp();
  token uuid := gen_random_uuid();
begin
  update plaudit.shopify_write_backs w
     set status = 'failed', last_error = 'the connection was deleted or has no access token', locked_until = null
    from plaudit.connections c
   where c.id = w.connection_id and w.status in ('pending', 'sending', 'retrying') and w.next_attempt_at <= now_ts
     and (w.locked_until is null or w.locked_until <= now_ts)
     and (c.deleted_at is not null or c.status <> 'active' or c.access_token is null)
     and (p_org_ids is null or w.org_id = any (p_org_ids));
  return query
  with due as (
    select w.id from plaudit.shopify_write_backs w
     where w.status in ('pending', 'sending', 'retrying') and w.next_attempt_at <= now_ts
       and (w.locked_until is null or w.locked_until <= now_ts)
       and (p_org_ids is null or w.org_id = any (p_org_ids))
     order by w.next_attempt_at
     limit p_limit
     for update skip locked
  ), claimed as (
    update plaudit.shopify_write_backs w
       set status = 'sending', attempts = w.attempts + 1, claim_token = token,
           locked_until = now_ts + make_interval(secs => p_lease_seconds)
      from due where w.id = due.id
    returning w.id, w.claim_token, w.org_id, w.connection_id, w.product_id, w.attempts
  )
  select k.id, k.claim_token, k.org_id, k.connection_id, c.settings ->> 'shop_domain', c.access_token,
         p.external_id, coalesce(s.public_count, 0), coalesce(s.rating_sum, 0), k.attempts
    from claimed k
    join plaudit.connections c on c.id = k.connection_id
    join plaudit.products p on p.id = k.product_id
    left join plaudit.product_review_statistics s on s.product_id = k.product_id;
end
$$;
comment on function plaudit.claim_shopify_write_backs(integer,integer,uuid[]) is 'Claims up to p_limit due Shopify write-backs under a lease, with the shop, its token and the product''s current figures.';
grant execute on function plaudit.claim_shopify_write_backs(integer,integer,uuid[]) to plaudit_worker;

-- Records one attempt of claimed write-backs: sent (with what was set), retried after
-- p_retry_in_ms, or failed for good (p_retry_in_ms null). A claim whose lease was taken over
-- records nothing and answers 'stale'.
create or replace function plaudit.record_shopify_write_back(
  p_claim_token uuid, p_ids uuid[], p_sent boolean, p_error text, p_retry_in_ms bigint,
  p_rating text, p_rating_count integer
)
returns text
language sql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
  with recorded as (
    update plaudit.shopify_write_backs w
       set status = case when p_sent then 'sent' when p_retry_in_ms is null then 'failed' else 'retrying' end,
           sent_at = case when p_sent then now() end,
           rating = p_rating, rating_count = p_rating_count,
           last_error = case when p_sent then null else left(p_error, 1000) end,
           next_attempt_at = case when p_sent or p_retry_in_ms is null then w.next_attempt_at
                                  else now() + make_interval(secs => p_retry_in_ms / 1000.0) end,
           locked_until = null, claim_token = null
     where w.claim_token = p_claim_token and w.id = any (p_ids) and w.status = 'sending'
    returning w.status
  )
  select coalesce(min(status), 'stale') from recorded
$$;
comment on function plaudit.record_shopify_write_back(uuid,uuid[],boolean,text,bigint,text,integer) is 'Records an attempt of claimed Shopify write-backs: sent, retrying or failed; answers the status.';
grant execute on function plaudit.record_shopify_write_back(uuid,uuid[],boolean,text,bigint,text,integer) to plaudit_worker;

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger product_review_statistics_write_back
  after insert or update on plaudit.product_review_statistics
  for each row execute function plaudit.shopify_write_back_on_rating_change();

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own Shopify write-backs"
  on plaudit.shopify_write_backs for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select (id, org_id, connection_id, product_id, status, attempts, next_attempt_at, rating, rating_count,
              last_error, sent_at, created_at) on plaudit.shopify_write_backs to plaudit_api;
