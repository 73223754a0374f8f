-- Review requests: creating them within the quota, their signed links, reminders and maintenance.

-- Review requests: an e-mail that asks a customer to review the organization on one of its
-- forms. Rows are written only through the SECURITY DEFINER functions of the following
-- migrations (creation, tracking, provider events, reminders); tenants read their own.
--
-- Lifecycle. The status is the most advanced fact known about the request, by this precedence:
--   queued < sent < delivered < opened < clicked < failed < bounced < complained < unsubscribed < canceled
--   < completed
-- (`canceled`: the order it was made for was cancelled or refunded before it was sent, shop_connections.sql).
-- It never moves backwards (the trigger below refuses it, whoever writes), so events that
-- arrive late or out of order never undo a later state: `delivered` after `opened` is recorded
-- in the timeline and changes nothing. Each stage also keeps the time it was first reached.
create or replace function plaudit.review_request_status_rank(p_status text)
returns integer
language sql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select array_position(
    array['queued', 'sent', 'delivered', 'opened', 'clicked', 'failed', 'bounced', 'complained',
          'unsubscribed', 'canceled', 'completed'],
    p_status)
$$;
comment on function plaudit.review_request_status_rank(text) is 'The rank of a review-request status in the lifecycle''s precedence; null for an event that is not a status.';
grant execute on function plaudit.review_request_status_rank(text) to plaudit_api;

-- Late or out-of-order events must never undo a later state, whoever writes the row: the status
-- only rises in review_request_status_rank's order, and the recipient and form stay.
create or replace function plaudit.review_requests_guard_update()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  if (new.id, new.org_id, new.form_id, new.email, new.created_at)
     is distinct from (old.id, old.org_id, old.form_id, old.email, old.created_at) then
    raise exception 'a review request''s recipient, form and organization cannot change'
      using errcode = 'restrict_violation';
  end if;
  if plaudit.review_request_status_rank(new.status) < plaudit.review_request_status_rank(old.status) then
    raise exception 'a review request''s status never moves backwards (% → %)', old.status, new.status
      using errcode = 'restrict_violation';
  end if;
  new.updated_at := now();
  return new;
end
$$;
comment on function plaudit.review_requests_guard_update() is 'A review request keeps its recipient, form and organization, and its status never moves backwards.';

-- A request's links carry its id and a MAC instead of a stored token: nothing to look up, and only
-- the database, which holds the secret, can make or check one (see plaudit.signing_secrets).
create or replace function plaudit.review_request_token(p_request_id uuid)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select translate(rtrim(encode(
    uuid_send(p_request_id)
      || substring(extensions.hmac(convert_to('review_request:' || p_request_id::text, 'UTF8'), s.secret, 'sha256') from 1 for 16),
    'base64'), '='), '+/', '-_')
  from plaudit.signing_secrets s where s.purpose = 'review_request_links'
$$;
comment on function plaudit.review_request_token(uuid) is 'The token of a review request''s links: its id and a MAC of it, in base64url.';

-- The request id a token stands for, or null when it is malformed or its MAC does not match.
create or replace function plaudit.review_request_from_token(p_token text)
returns uuid
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  raw bytea;
  id uuid;
  k bytea;
  expected bytea;
begin
  if p_token is null or p_token !~ '^[A-Za-z0-9_-]{43}$' then
    return null;
  end if;
  raw := decode(translate(p_token, '-_', '+/') || '=', 'base64');
  if octet_length(raw) <> 32 then
    return null;
  end if;
  id := encode(substring(raw from 1 for 16), 'hex')::uuid;
  select s.secret into k from plaudit.signing_secrets s where s.purpose = 'review_request_links';
  expected := substring(extensions.hmac(convert_to('review_request:' || id::text, 'UTF8'), k, 'sha256') from 1 for 16);
  if extensions.hmac(substring(raw from 17 for 16), k, 'sha256') = extensions.hmac(expected, k, 'sha256') then
    return id;
  end if;
  return null;
end
$$;
comment on function plaudit.review_request_from_token(text) is 'The request id a token stands for, or null when it is malformed or its MAC does not match.';

-- The links of a request's e-mails, for the templates.
create or replace function plaudit.review_request_links(p_request_id uuid, p_link_base text)
returns jsonb
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select jsonb_build_object(
    'landing_url', b || '/r/' || t,
    'review_url', b || '/t/c/' || t,
    'rating_urls', (select jsonb_agg(b || '/t/c/' || t || '?rating=' || n order by n) from generate_series(1, 5) n),
    'open_pixel_url', b || '/t/o/' || t || '.gif',
    'unsubscribe_url', b || '/unsubscribe/' || t)
  -- offset 0: the token computed once, not once for each of the nine links that name it.
  from (select rtrim(p_link_base, '/') as b, plaudit.review_request_token(p_request_id) as t offset 0) x
$$;
comment on function plaudit.review_request_links(uuid,text) is 'The links of a request''s e-mails, for the templates.';

-- Takes p_count requests from today's quota, or raises program_limit_exceeded (the API answers
-- 429) and takes nothing. Concurrent callers queue on the day's row, so the quota is exact.
create or replace function plaudit.take_review_request_quota(p_org_id uuid, p_count integer)
returns integer
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  quota integer := coalesce((select s.daily_quota from plaudit.review_request_settings s where s.org_id = p_org_id), 1000);
  today date := (now() at time zone 'UTC')::date;
  used integer;
begin
  if p_count <= 0 then
    return 0;
  end if;
  insert into plaudit.review_request_usage as u (org_id, day, requests)
  values (p_org_id, today, p_count)
  on conflict (org_id, day) do update set requests = u.requests + excluded.requests
  returning u.requests into used;
  if used > quota then
    raise exception 'Daily quota of % review requests reached: % remaining today (UTC), this call needs %',
      quota, greatest(quota - (used - p_count), 0), p_count
      using errcode = 'program_limit_exceeded';
  end if;
  return quota - used;
end
$$;
comment on function plaudit.take_review_request_quota(uuid,integer) is 'Takes p_count requests from today''s quota and answers what remains, or raises program_limit_exceeded and takes nothing.';

-- ============================================================================================
-- review request creation
-- ============================================================================================
-- Creating review requests, one or up to 1,000 at a time, in one round trip: each row is checked
-- against the database (the form is the tenant's, active and not deleted; the external_id is
-- new), accepted rows are stored with a `queued` event and their e-mail is put in the outbox
-- (due at send_at), and the day's quota is taken. Rows whose address is on the suppression list
-- are stored as `failed` (reason `suppressed`) and no e-mail is queued for them; they do not
-- count against the quota. Rows refused here come back with their index and a message; the
-- caller (the API) has validated shapes and formats already. A row's `products` (up to 20 external
-- ids) must each be a product of the tenant, not archived, named once: the first one that is not
-- refuses the row (`products[i]: …`); the e-mail names the products.
--
-- p_rows: [{"index", "email", "name", "form_id", "order_id"?, "send_at"?, "external_id"?, "locale"?,
--           "products"?}]
-- The tenant is the transaction's (plaudit.current_org_id()), never a parameter.
--
-- The rows are checked in one query and kept in a variable, never in a temporary table: a
-- SECURITY DEFINER function that created or reused a `pg_temp` table would run, with its owner's
-- rights, any trigger a caller had put on a table of that name first (07-privilege-hardening).
-- Plans kept for the session (plan_cache_mode = auto), as plaudit.submit_review's: its lookups go by
-- key (the tenant's form, product, external id, suppressed address), whatever the tenant's size.
create or replace function plaudit.create_review_requests(p_rows jsonb, p_link_base text)
returns table (idx integer, id uuid, error text)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
#variable_conflict use_column
declare
  tenant uuid := plaudit.current_org_id();
  batch jsonb;
  inserted uuid[];
  to_send integer;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;

  -- Each row with the first reason it is refused (the form, a repeated external_id within the
  -- call, an external_id stored already) and, when it is accepted, whether its address is
  -- suppressed.
  with input as (
    select (r ->> 'index')::integer as idx, gen_random_uuid() as id, r ->> 'email' as email, r ->> 'name' as name,
           (r ->> 'form_id')::uuid as form_id, nullif(r ->> 'order_id', '') as order_id,
           nullif(r ->> 'external_id', '') as external_id, coalesce(nullif(r ->> 'locale', ''), 'en') as locale,
           coalesce((r ->> 'send_at')::timestamptz, now()) as send_at,
           coalesce(r -> 'products', '[]') as products, nullif(r -> 'incentive', 'null') as incentive,
           exists (select from plaudit.review_forms f
                    where f.id = (r ->> 'form_id')::uuid and f.org_id = tenant
                      and f.deleted_at is null and f.is_active) as form_ok
      from jsonb_array_elements(p_rows) r
  ), named as (
    -- Each product a row names, by its position (0-based), with the position it first appears at.
    select i.idx, e.ord::integer - 1 as pos, p.id as product_id, p.name, p.archived,
           min(e.ord::integer) over (partition by i.idx, e.external_id) - 1 as first_pos
      from input i
      cross join lateral jsonb_array_elements_text(i.products) with ordinality as e(external_id, ord)
      left join plaudit.products p on p.org_id = tenant and p.external_id = e.external_id
  ), product_errors as (
    select distinct on (n.idx) n.idx,
           'products[' || n.pos || ']: ' || case
             when n.product_id is null then 'no such product in this organization'
             when n.first_pos <> n.pos then 'repeats products[' || n.first_pos || ']'
             else 'the product is archived and takes no new reviews'
           end as error
      from named n
     where n.product_id is null or n.archived or n.first_pos <> n.pos
     order by n.idx, n.pos
  ), ranked as (
    select i.*,
           case when i.form_ok and i.external_id is not null
                then min(i.idx) over (partition by i.form_ok, i.external_id) end as first_idx
      from input i
  ), checked as (
    select k.idx, k.id, k.email, k.name, k.form_id, k.order_id, k.external_id, k.locale, k.send_at, k.incentive,
           case
             when not k.form_ok then 'form_id: no active review form with this id in this organization'
             when pe.error is not null then pe.error
             when k.first_idx <> k.idx then 'external_id: repeats the external_id of row ' || k.first_idx
             when q.id is not null then
               'external_id: a review request with this external_id exists already (' || q.id || '); it is not sent again'
           end as error,
           (select s.reason from plaudit.email_suppressions s
             where s.org_id = tenant and s.email_key = plaudit.email_key(tenant, k.email)) as suppressed,
           (select jsonb_agg(n.product_id order by n.pos) from named n where n.idx = k.idx) as product_ids,
           (select jsonb_agg(n.name order by n.pos) from named n where n.idx = k.idx) as product_names
      from ranked k
      left join product_errors pe on pe.idx = k.idx
      left join plaudit.review_requests q
        on q.org_id = tenant and q.external_id = k.external_id and k.external_id is not null
  )
  select jsonb_agg(jsonb_build_object(
           'idx', c.idx, 'id', c.id, 'email', c.email, 'name', c.name, 'form_id', c.form_id,
           'order_id', c.order_id, 'external_id', c.external_id, 'locale', c.locale, 'send_at', c.send_at,
           'incentive', c.incentive,
           'error', c.error, 'suppressed', case when c.error is null then c.suppressed end,
           'product_ids', coalesce(c.product_ids, '[]'), 'product_names', coalesce(c.product_names, '[]'))
         order by c.idx)
    into batch
    from checked c;

  select count(*) into to_send
    from jsonb_to_recordset(coalesce(batch, '[]')) as b(error text, suppressed text)
   where b.error is null and b.suppressed is null;
  perform plaudit.take_review_request_quota(tenant, to_send);

  -- A concurrent call may have taken an external_id since: that row is reported, not inserted.
  with inserted_rows as (
    insert into plaudit.review_requests as q
      (id, org_id, form_id, email, name, order_id, external_id, locale, send_at, link_base, status, failed_at,
       incentive)
    select b.id, tenant, b.form_id, b.email, b.name, b.order_id, b.external_id, b.locale, b.send_at,
           rtrim(p_link_base, '/'),
           case when b.suppressed is null then 'queued' else 'failed' end,
           case when b.suppressed is null then null else now() end, nullif(b.incentive, 'null')
      from jsonb_to_recordset(coalesce(batch, '[]')) as b(idx integer, id uuid, email text, name text, form_id uuid,
             order_id text, external_id text, locale text, send_at timestamptz, error text, suppressed text,
             incentive jsonb)
     where b.error is null
     order by b.idx
    on conflict (org_id, external_id) where external_id is not null do nothing
    returning q.id
  )
  select coalesce(array_agg(r.id), '{}') into inserted from inserted_rows r;

  insert into plaudit.review_request_products (org_id, request_id, product_id, position)
  select tenant, b.id, p.product_id::uuid, p.ord - 1
    from jsonb_to_recordset(batch) as b(id uuid, product_ids jsonb)
    cross join lateral jsonb_array_elements_text(b.product_ids) with ordinality as p(product_id, ord)
   where b.id = any(inserted);

  insert into plaudit.review_request_events (org_id, request_id, type, dedupe_key, occurred_at, applied, data)
  select tenant, b.id, 'queued', 'queued', now(), true,
         case when b.send_at > now() then jsonb_build_object('send_at', b.send_at) else '{}' end
    from jsonb_to_recordset(batch) as b(id uuid, send_at timestamptz)
   where b.id = any(inserted);

  insert into plaudit.review_request_events (org_id, request_id, type, dedupe_key, occurred_at, applied, data)
  select tenant, b.id, 'failed', 'failed', now(), true,
         jsonb_build_object('reason', 'suppressed', 'suppression_reason', b.suppressed)
    from jsonb_to_recordset(batch) as b(id uuid, suppressed text)
   where b.id = any(inserted) and b.suppressed is not null;

  insert into plaudit.email_outbox (org_id, to_address, template, locale, data, idempotency_key, next_attempt_at)
  select tenant, b.email, 'review_request', b.locale,
         jsonb_build_object('review_request_id', b.id, 'name', b.name, 'form_name', f.name,
                            'product_names', b.product_names)
           || plaudit.review_request_links(b.id, p_link_base),
         'review_request:' || b.id, b.send_at
    from jsonb_to_recordset(batch) as b(id uuid, email text, name text, form_id uuid, locale text,
           send_at timestamptz, suppressed text, product_names jsonb)
    join plaudit.review_forms f on f.id = b.form_id
   where b.id = any(inserted) and b.suppressed is null;

  if to_send > 0 then
    perform pg_notify('plaudit_outbox', 'email');
  end if;

  return query
    select b.idx,
           case when b.error is null and b.id = any(inserted) then b.id end,
           coalesce(b.error, case when not (b.id = any(inserted))
             then 'external_id: a review request with this external_id exists already; it is not sent again' end)
      from jsonb_to_recordset(coalesce(batch, '[]')) as b(idx integer, id uuid, error text)
     order by b.idx;
end
$$;
comment on function plaudit.create_review_requests(jsonb,text) is 'Creates up to 1,000 review requests of the transaction''s tenant; answers each row''s id or why it was refused.';
grant execute on function plaudit.create_review_requests(jsonb,text) to plaudit_api;

-- Reminders go to requests sent but not completed nor suppressed, reminder_delay_days after the
-- last e-mail, up to reminder_max; SKIP LOCKED and the idempotency key let two runs overlap.
create or replace function plaudit.queue_due_reminders(
  p_now timestamptz default null, p_limit integer default 1000, p_org_ids uuid[] default null
)
returns integer
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  clock timestamptz := coalesce(p_now, now());
  n integer;
begin
  with due as (
    select q.id, q.org_id, q.email, q.name, q.locale, q.link_base, q.reminders_sent + 1 as reminder, f.name as form_name,
           s.reminder_max
    from plaudit.review_request_settings s
    join plaudit.review_requests q
      on q.org_id = s.org_id
     and q.status in ('sent', 'delivered', 'opened', 'clicked')
     and q.sent_at <= clock - make_interval(days => s.reminder_delay_days)
    join plaudit.review_forms f on f.id = q.form_id
    where s.reminders_enabled
      and (p_org_ids is null or s.org_id = any (p_org_ids))
      and q.completed_at is null
      and q.reminders_sent < s.reminder_max
      and coalesce(q.last_reminder_at, q.sent_at) <= clock - make_interval(days => s.reminder_delay_days)
      and not exists (select from plaudit.email_suppressions x
                      where x.org_id = q.org_id and x.email_key = plaudit.email_key(q.org_id, q.email))
    order by q.sent_at
    limit p_limit
    for update of q skip locked
  ), marked as (
    update plaudit.review_requests q
      set reminders_sent = due.reminder, last_reminder_at = clock
      from due where q.id = due.id
      returning q.id
  ), events as (
    insert into plaudit.review_request_events (org_id, request_id, type, dedupe_key, occurred_at, data)
    select due.org_id, due.id, 'reminder_queued', 'reminder_queued:' || due.reminder, now(),
           jsonb_build_object('reminder', due.reminder)
    from due join marked using (id)
    on conflict (org_id, request_id, dedupe_key) do nothing
  )
  insert into plaudit.email_outbox (org_id, to_address, template, locale, data, idempotency_key)
  select due.org_id, due.email, 'review_reminder', due.locale,
         jsonb_build_object('review_request_id', due.id, 'name', due.name, 'form_name', due.form_name,
                            'reminder', due.reminder, 'reminder_max', due.reminder_max,
                            'product_names', plaudit.review_request_product_names(due.id))
           || plaudit.review_request_links(due.id, due.link_base),
         'review_reminder:' || due.id || ':' || due.reminder
  from due join marked using (id)
  on conflict (idempotency_key) do nothing;
  get diagnostics n = row_count;
  if n > 0 then
    perform pg_notify('plaudit_outbox', 'email');
  end if;
  return n;
end
$$;
comment on function plaudit.queue_due_reminders(timestamp with time zone,integer,uuid[]) is 'Queues the reminder e-mails that are due under each organization''s settings; answers how many.';

-- What runs every minute for review requests: due reminders, idempotency keys past their 24
-- hours, and the old events of shop connections (which make requests). pg_cron schedules it where it is loaded; elsewhere the worker calls it.
create or replace function plaudit.run_review_request_maintenance()
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  perform plaudit.queue_due_reminders();
  delete from plaudit.idempotency_keys where created_at < now() - interval '24 hours';
  perform plaudit.run_connection_maintenance();
end
$$;
comment on function plaudit.run_review_request_maintenance() is 'What runs every minute for review requests: due reminders, and idempotency keys past their 24 hours.';
grant execute on function plaudit.run_review_request_maintenance() to plaudit_worker;

create trigger review_requests_guard_update
  before update on plaudit.review_requests
  for each row execute function plaudit.review_requests_guard_update();

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own suppression list"
  on plaudit.email_suppressions for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can add addresses to their own suppression list"
  on plaudit.email_suppressions for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()) and reason = 'manual');

create policy "Tenants can lift entries of their own suppression list"
  on plaudit.email_suppressions for delete to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own idempotency keys"
  on plaudit.idempotency_keys for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can record their own idempotency keys"
  on plaudit.idempotency_keys for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can store the answers of their own idempotency keys"
  on plaudit.idempotency_keys for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read the timelines of their own review requests"
  on plaudit.review_request_events for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read the products named in their own review requests"
  on plaudit.review_request_products for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read which reviews their own review requests brought"
  on plaudit.review_request_reviews for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own review request settings"
  on plaudit.review_request_settings for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can create their own review request settings"
  on plaudit.review_request_settings for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can change their own review request settings"
  on plaudit.review_request_settings for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own review request usage"
  on plaudit.review_request_usage for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own review requests"
  on plaudit.review_requests for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select, delete on plaudit.email_suppressions to plaudit_api;
grant insert (org_id, email, reason) on plaudit.email_suppressions to plaudit_api;
grant select on plaudit.idempotency_keys to plaudit_api;
grant insert (org_id, key, route, request_hash) on plaudit.idempotency_keys to plaudit_api;
grant update (status_code, response) on plaudit.idempotency_keys to plaudit_api;
grant select on plaudit.review_request_events to plaudit_api;
grant select on plaudit.review_request_products to plaudit_api;
grant select on plaudit.review_request_reviews to plaudit_api;
grant select on plaudit.review_request_settings to plaudit_api;
grant insert (org_id, daily_quota, reminders_enabled, reminder_delay_days, reminder_max) on plaudit.review_request_settings to plaudit_api;
grant update (daily_quota, reminders_enabled, reminder_delay_days, reminder_max, updated_at) on plaudit.review_request_settings to plaudit_api;
grant select on plaudit.review_request_usage to plaudit_api;
grant select on plaudit.review_requests to plaudit_api;
