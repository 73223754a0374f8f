-- Review requests: e-mails that ask customers for a review, their tracking, reminders and hosted pages; team invitation e-mails.
--
--
-- The functions and views of this concern, each once, as the database has them now.

-- Review requests: an e-mail that asks a customer to review the organization on one of its
-- forms. Rows are written only through the SECURITY DEFINER functions of the following
-- migrations (creation, tracking, provider events, reminders); tenants read their own.
--
-- Lifecycle. The status is the most advanced fact known about the request, by this precedence:
--   queued < sent < delivered < opened < clicked < failed < bounced < complained < unsubscribed < completed
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
          'unsubscribed', 'completed'],
    p_status)
$$;
comment on function plaudit.review_request_status_rank(text) is 'The rank of a review-request status in the lifecycle''s precedence; null for an event that is not a status.';

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

-- An address as the suppression list matches it: SHA-256 of the organization's id and the address
-- in lower case. Keyed by the organization, so that one hash says nothing of the same address
-- elsewhere; an erased address is kept as this alone. No search_path of its own: inlined.
create or replace function plaudit.email_key(p_org_id uuid, p_email text)
returns bytea
language sql
immutable
strict
parallel safe
as $$
  select pg_catalog.sha256(pg_catalog.convert_to(p_org_id::text || ':' || pg_catalog.lower(p_email), 'UTF8'))
$$;
comment on function plaudit.email_key(uuid,text) is 'An address as the suppression list matches it: the SHA-256 of the organization''s id and the address in lower case.';

-- Every suppression is matched by its key; an address written (not an erased one) keys itself.
create or replace function plaudit.email_suppressions_set_key()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  if new.email is not null then
    new.email_key := plaudit.email_key(new.org_id, new.email);
  end if;
  return new;
end
$$;
comment on function plaudit.email_suppressions_set_key() is 'A suppressed address is keyed by plaudit.email_key, whoever writes it.';

-- Whether the organization suppresses the address (answers the reason, or null).
create or replace function plaudit.suppression_reason(p_org_id uuid, p_email text)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select s.reason from plaudit.email_suppressions s
  where s.org_id = p_org_id and s.email_key = plaudit.email_key(p_org_id, p_email)
$$;
comment on function plaudit.suppression_reason(uuid,text) is 'The reason the organization suppresses an address, or null when it does not.';

-- Withdraws the review-request e-mails (first sends and reminders) not yet handed to the
-- transport. `p_request_id` null: every such e-mail to `p_email`; else only that request's.
-- Answers how many were withdrawn.
create or replace function plaudit.cancel_queued_request_emails(p_org_id uuid, p_email text, p_request_id uuid, p_reason text)
returns integer
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  n integer;
begin
  if p_request_id is not null then
    update plaudit.email_outbox e
      set status = 'failed', last_error = 'cancelled: ' || p_reason, locked_until = null
      where e.org_id = p_org_id and e.status = 'queued'
        and e.data ->> 'review_request_id' = p_request_id::text
        and e.template in ('review_request', 'review_reminder');
  else
    update plaudit.email_outbox e
      set status = 'failed', last_error = 'cancelled: ' || p_reason, locked_until = null
      where e.org_id = p_org_id and e.status = 'queued' and lower(e.to_address) = lower(p_email)
        and e.template in ('review_request', 'review_reminder');
  end if;
  get diagnostics n = row_count;
  return n;
end
$$;
comment on function plaudit.cancel_queued_request_emails(uuid,text,uuid,text) is 'Withdraws the queued review-request e-mails to an address, or of one request; answers how many.';

-- A manual addition withdraws what is queued for the address, as the automatic ones do.
create or replace function plaudit.email_suppressions_cancel_queued()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  perform plaudit.cancel_queued_request_emails(new.org_id, new.email, null, 'the address is on the suppression list');
  return null;
end
$$;
comment on function plaudit.email_suppressions_cancel_queued() is 'An address added to the suppression list has its queued review-request e-mails withdrawn.';

-- Applies one event to a request, idempotently (keyed by p_dedupe_key, which defaults to the
-- type). Answers 'applied' (the status moved), 'recorded' (kept in the timeline, status
-- unchanged: a late or lesser event), 'duplicate' (seen before: nothing changes) or 'not_found'.
-- Side effects, in the same transaction: a bounce (hard), complaint or unsubscribe puts the
-- address on the organization's suppression list; a request that reached an end (completed,
-- bounced, complained, unsubscribed, failed) has its e-mails still queued withdrawn.
create or replace function plaudit.apply_review_request_event(
  p_request_id uuid,
  p_type text,
  p_dedupe_key text default null,
  p_occurred_at timestamptz default null,
  p_data jsonb default '{}'
)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  r plaudit.review_requests;
  at timestamptz := coalesce(p_occurred_at, now());
  event_id bigint;
  is_status boolean := plaudit.review_request_status_rank(p_type) is not null;
  moves boolean;
begin
  select * into r from plaudit.review_requests where id = p_request_id for update;
  if not found then
    return 'not_found';
  end if;
  moves := is_status
    and plaudit.review_request_status_rank(p_type) > plaudit.review_request_status_rank(r.status);

  insert into plaudit.review_request_events as e (org_id, request_id, type, dedupe_key, occurred_at, applied, data)
  values (r.org_id, r.id, p_type, coalesce(p_dedupe_key, p_type), at, moves, coalesce(p_data, '{}'))
  on conflict (org_id, request_id, dedupe_key) do nothing
  returning e.id into event_id;
  if event_id is null then
    return 'duplicate';
  end if;

  -- Each stage keeps the earliest time it is known to have been reached; a later stage implies
  -- the earlier ones (a click proves the open and the delivery).
  update plaudit.review_requests q set
    status = case when moves then p_type else q.status end,
    sent_at = case when p_type in ('sent', 'delivered', 'opened', 'clicked') then least(q.sent_at, at) else q.sent_at end,
    delivered_at = case when p_type in ('delivered', 'opened', 'clicked') then least(q.delivered_at, at) else q.delivered_at end,
    opened_at = case when p_type in ('opened', 'clicked') then least(q.opened_at, at) else q.opened_at end,
    clicked_at = case when p_type = 'clicked' then least(q.clicked_at, at) else q.clicked_at end,
    completed_at = case when p_type = 'completed' then least(q.completed_at, at) else q.completed_at end,
    bounced_at = case when p_type = 'bounced' then least(q.bounced_at, at) else q.bounced_at end,
    complained_at = case when p_type = 'complained' then least(q.complained_at, at) else q.complained_at end,
    unsubscribed_at = case when p_type = 'unsubscribed' then least(q.unsubscribed_at, at) else q.unsubscribed_at end,
    failed_at = case when p_type = 'failed' then least(q.failed_at, at) else q.failed_at end,
    review_id = coalesce(q.review_id, case when p_type = 'completed' then (p_data ->> 'review_id')::uuid end)
  where q.id = r.id;

  if p_type in ('bounced', 'complained', 'unsubscribed') then
    insert into plaudit.email_suppressions (org_id, email, reason, request_id)
    values (r.org_id, r.email, p_type, r.id)
    on conflict (org_id, email_key) do nothing;
    perform plaudit.cancel_queued_request_emails(r.org_id, r.email, null, 'the address is on the suppression list');
  end if;
  if p_type in ('completed', 'bounced', 'complained', 'unsubscribed', 'failed') then
    perform plaudit.cancel_queued_request_emails(r.org_id, r.email, r.id, 'the request is ' || p_type);
  end if;

  return case when moves then 'applied' else 'recorded' end;
end
$$;
comment on function plaudit.apply_review_request_event(uuid,text,text,timestamp with time zone,jsonb) is 'Applies one event to a review request, once per dedupe key; answers what it did.';

-- A review of the same address on the same form completes the organization's open requests,
-- however it was submitted (the landing page, the hosted form, the API). A request still
-- waiting for its send time is completed too, and its e-mail withdrawn: nobody is asked for a
-- review they already wrote. The review also counts as the request's review of its subject (the
-- business, or a product the request names), so the request's page no longer asks for that one.
-- Imported reviews never reach it: its trigger's WHEN leaves them out (they answer no request of today).
create or replace function plaudit.reviews_complete_review_requests()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  q record;
begin
  for q in
    select rr.id from plaudit.review_requests rr
    where rr.org_id = new.org_id and rr.form_id = new.form_id
      and lower(rr.email) = lower(new.reviewer_email) and rr.completed_at is null
  loop
    perform plaudit.apply_review_request_event(q.id, 'completed', 'completed', new.created_at,
      jsonb_build_object('review_id', new.id));
    insert into plaudit.review_request_reviews (org_id, request_id, product_id, review_id)
    select new.org_id, q.id, new.product_id, new.id
     where new.product_id is null
        or exists (select from plaudit.review_request_products rp
                    where rp.org_id = new.org_id and rp.request_id = q.id and rp.product_id = new.product_id)
    on conflict do nothing;
  end loop;
  return null;
end
$$;
comment on function plaudit.reviews_complete_review_requests() is 'A new review completes its organization''s open requests for the same address and form.';

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
  from (select rtrim(p_link_base, '/') as b, plaudit.review_request_token(p_request_id) as t) x
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
create or replace function plaudit.create_review_requests(p_rows jsonb, p_link_base text)
returns table (idx integer, id uuid, error text)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
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

-- The worker records each send with plaudit.record_email_result; this trigger turns the outbox
-- row's new status into the request's event, in the same transaction. SMTP acceptance (or the
-- HTTP provider's 2xx) counts as `sent`.
create or replace function plaudit.email_outbox_track_review_requests()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  request_id uuid := (new.data ->> 'review_request_id')::uuid;
begin
  if new.template = 'review_request' and new.status = 'sent' then
    perform plaudit.apply_review_request_event(request_id, 'sent', 'sent', coalesce(new.sent_at, now()),
      jsonb_build_object('email_id', new.id));
  elsif new.template = 'review_reminder' and new.status = 'sent' then
    perform plaudit.apply_review_request_event(request_id, 'reminder_sent',
      'reminder_sent:' || coalesce(new.data ->> 'reminder', '1'), coalesce(new.sent_at, now()),
      jsonb_build_object('email_id', new.id, 'reminder', (new.data ->> 'reminder')::integer));
  elsif new.template = 'review_request' and new.status = 'failed'
        and coalesce(new.last_error, '') not like 'cancelled: the request is %' then
    perform plaudit.apply_review_request_event(request_id, 'failed', 'failed', now(),
      case when new.last_error like 'cancelled: the address%'
           then jsonb_build_object('reason', 'suppressed')
           else jsonb_build_object('reason', 'send_failed', 'error', left(new.last_error, 300)) end);
  end if;
  return null;
end
$$;
comment on function plaudit.email_outbox_track_review_requests() is 'A review-request e-mail that is sent or fails records the matching event on its request.';

-- Provider webhooks name a message, not a request: the outbox row that sent it leads to the
-- request. The provider's event id is the dedupe key, so a redelivered event applies once.
create or replace function plaudit.record_email_provider_event(
  p_provider_message_id text, p_type text, p_event_id text, p_occurred_at timestamptz, p_data jsonb default '{}'
)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  m record;
begin
  if p_type not in ('delivered', 'bounced', 'soft_bounced', 'complained', 'delivery_delayed', 'opened', 'clicked') then
    raise exception 'unknown e-mail event type %', p_type using errcode = 'invalid_parameter_value';
  end if;
  select e.org_id, e.data ->> 'review_request_id' as request_id into m
    from plaudit.email_outbox e
    where e.provider_message_id = p_provider_message_id
    limit 1;
  if not found then
    return 'unknown';
  end if;
  if m.request_id is null then
    return 'ignored';
  end if;
  return plaudit.apply_review_request_event(m.request_id::uuid, p_type,
    'provider:' || left(coalesce(p_event_id, p_type || ':' || p_provider_message_id), 280),
    p_occurred_at, coalesce(p_data, '{}'));
end
$$;
comment on function plaudit.record_email_provider_event(text,text,text,timestamp with time zone,jsonb) is 'Applies an e-mail provider''s event to its message''s review request; answers the outcome.';

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

-- What runs every minute for review requests: due reminders, and idempotency keys past their
-- 24 hours. pg_cron schedules it where it is loaded; elsewhere the worker calls it.
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
end
$$;
comment on function plaudit.run_review_request_maintenance() is 'What runs every minute for review requests: due reminders, and idempotency keys past their 24 hours.';

-- The hosted form of /forms/:formId: an active form that is not deleted.
create or replace function plaudit.public_review_form(p_form_id uuid)
returns table (id uuid, org_name text, name text, verification_mode text, custom_fields jsonb, logo_url text)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select f.id, plaudit.brand_name(f.org_id), f.name, f.verification_mode, f.custom_fields, p.logo_url
  from plaudit.review_forms f left join plaudit.public_profiles p on p.org_id = f.org_id
  where f.id = p_form_id and f.deleted_at is null and f.is_active
$$;
comment on function plaudit.public_review_form(uuid) is 'The hosted form of /forms/:formId, when the form is active and not deleted.';

-- The landing page of /r/:token: the request's recipient (prefilled), its form and organization.
create or replace function plaudit.review_request_landing(p_token text)
returns table (
  request_id uuid, status text, name text, email text, order_id text, locale text,
  form_id uuid, form_name text, form_active boolean, verification_mode text, custom_fields jsonb,
  org_name text, logo_url text
)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select q.id, q.status, q.name, q.email, q.order_id, q.locale,
         f.id, f.name, f.is_active and f.deleted_at is null, f.verification_mode, f.custom_fields,
         plaudit.brand_name(q.org_id), p.logo_url
  from plaudit.review_requests q
  join plaudit.review_forms f on f.id = q.form_id
  left join plaudit.public_profiles p on p.org_id = q.org_id
  where q.id = plaudit.review_request_from_token(p_token)
$$;
comment on function plaudit.review_request_landing(text) is 'The landing page of /r/:token: the request''s recipient (prefilled), its form and organization.';

-- The subjects the page of /r/:token asks about, in order: each product the request names (an
-- archived one only when it was reviewed already: it takes no new reviews), then the business
-- (product_position and product_external_id null). `reviewed`: a review of it was written through the request.
create or replace function plaudit.review_request_subjects(p_token text)
returns table (product_position integer, product_external_id text, name text, image_url text, reviewed boolean)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select s.product_position, s.product_external_id, s.name, s.image_url, s.reviewed
    from (
      select rp.position::integer as product_position, p.external_id as product_external_id, p.name, p.image_url,
             p.archived,
             exists (select from plaudit.review_request_reviews w
                      where w.org_id = rp.org_id and w.request_id = rp.request_id
                        and w.product_id = rp.product_id) as reviewed
        from plaudit.review_request_products rp
        join plaudit.products p on p.id = rp.product_id and p.org_id = rp.org_id
       where rp.request_id = plaudit.review_request_from_token(p_token)
      union all
      select null, null, plaudit.brand_name(q.org_id), null, false,
             exists (select from plaudit.review_request_reviews w
                      where w.org_id = q.org_id and w.request_id = q.id and w.product_id is null)
        from plaudit.review_requests q
       where q.id = plaudit.review_request_from_token(p_token)
    ) s
   where not s.archived or s.reviewed
   order by s.product_position nulls last
$$;
comment on function plaudit.review_request_subjects(text) is 'The subjects the page of /r/:token asks about (its products in order, then the business), and which were reviewed through it.';

-- The names of the products a request names, in order, for its e-mails.
create or replace function plaudit.review_request_product_names(p_request_id uuid)
returns jsonb
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(jsonb_agg(p.name order by rp.position), '[]')
    from plaudit.review_request_products rp
    join plaudit.products p on p.id = rp.product_id and p.org_id = rp.org_id
   where rp.request_id = p_request_id
$$;
comment on function plaudit.review_request_product_names(uuid) is 'The names of the products a review request names, in order, for its e-mails.';

-- The open pixel and the click redirect: every open and click is counted; the first of each is
-- the event of the timeline (`opened`, `clicked`). Answers whether the token was valid.
create or replace function plaudit.track_review_request(p_token text, p_kind text)
returns boolean
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  request_id uuid := plaudit.review_request_from_token(p_token);
begin
  if request_id is null or p_kind not in ('opened', 'clicked') then
    return false;
  end if;
  update plaudit.review_requests q
    set open_count = q.open_count + case when p_kind = 'opened' then 1 else 0 end,
        click_count = q.click_count + case when p_kind = 'clicked' then 1 else 0 end
    where q.id = request_id;
  if not found then
    return false;
  end if;
  perform plaudit.apply_review_request_event(request_id, p_kind, p_kind, now(), '{}');
  return true;
end
$$;
comment on function plaudit.track_review_request(text,text) is 'Counts an open or a click of a request''s link, the first of each an event of its timeline; answers whether the token was valid.';

-- A review from the landing page: plaudit.submit_review for the request's form, and the request
-- completed with it (the first review written through it completes it; reminders stop then). The
-- review is of the business, or, with p_product_external_id, of a product the request names: each
-- subject takes one review through the request, so a second one of the same subject answers
-- error_code 23505, and a product the request does not name 22023 (`product_external_id: …`).
-- Answers what submit_review answers; an unknown token answers error_code P0002 (not found).
create or replace function plaudit.submit_requested_review(
  p_token text,
  p_rate_bucket text,
  p_rate_limit integer,
  p_rating integer,
  p_title text,
  p_content text,
  p_reviewer_name text,
  p_reviewer_email text,
  p_custom_fields jsonb,
  p_order_id text,
  p_verify_url_base text,
  p_honeypot boolean default false,
  p_product_external_id text default null
)
returns table (
  rate_allowed boolean, rate_remaining integer, rate_reset bigint,
  error_code text, error_message text,
  id uuid, form_id uuid, rating integer, title text, content text, reviewer_name text,
  reviewer_email text, verification_status text, is_hidden boolean, created_at timestamptz
)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  request_id uuid := plaudit.review_request_from_token(p_token);
  q plaudit.review_requests;
  s record;
  product uuid;
  subject text;
begin
  rate_allowed := true; rate_remaining := p_rate_limit; rate_reset := 0;
  -- Locked: two submissions of one subject through one request queue here.
  select * into q from plaudit.review_requests rr where rr.id = request_id for update;
  if not found then
    error_code := 'P0002'; error_message := 'Review request not found';
    return next;
    return;
  end if;
  if p_product_external_id is not null then
    select rp.product_id, p.name into product, subject
      from plaudit.review_request_products rp
      join plaudit.products p on p.id = rp.product_id and p.org_id = rp.org_id
     where rp.org_id = q.org_id and rp.request_id = q.id and p.external_id = p_product_external_id;
    if not found then
      error_code := '22023'; error_message := 'product_external_id: this review request does not name this product';
      return next;
      return;
    end if;
  end if;
  if exists (select from plaudit.review_request_reviews w
              where w.org_id = q.org_id and w.request_id = q.id and w.product_id is not distinct from product) then
    error_code := '23505';
    error_message := 'Your review of ' || coalesce(subject, plaudit.brand_name(q.org_id))
      || ' was already written through this request';
    return next;
    return;
  end if;
  select * into s from plaudit.submit_review(
    p_rate_bucket, p_rate_limit, q.form_id, p_rating, p_title, p_content, p_reviewer_name,
    p_reviewer_email, p_custom_fields, coalesce(nullif(btrim(p_order_id), ''), q.order_id),
    p_verify_url_base, p_honeypot, product, null, q.id);
  if s.rate_allowed and s.error_code is null and not p_honeypot then
    perform plaudit.apply_review_request_event(q.id, 'completed', 'completed', now(),
      jsonb_build_object('review_id', s.id));
    -- The completion trigger has linked the review already when it completed the request.
    insert into plaudit.review_request_reviews (org_id, request_id, product_id, review_id)
    values (q.org_id, q.id, product, s.id)
    on conflict do nothing;
    -- Written from the link mailed to the request's address, and signed with that address: the
    -- review is verified by the invitation, and no confirmation mail is needed (forms that want
    -- each review approved by hand stay pending).
    if lower(btrim(coalesce(p_reviewer_email, ''))) = lower(btrim(q.email))
       and s.verification_status in ('pending', 'unverified')
       and (select f.verification_mode from plaudit.review_forms f where f.id = q.form_id) <> 'manual'
    then
      perform set_config('plaudit.actor', 'reviewer:invitation', true);
      update plaudit.reviews r
         set verification_status = 'verified', verification_method = 'invitation', verification_at = now()
       where r.id = s.id;
      perform set_config('plaudit.actor', '', true);
      update plaudit.email_outbox e
         set status = 'failed', last_error = 'cancelled: verified by invitation', locked_until = null
       where e.org_id = q.org_id and e.template = 'review_verification' and e.status = 'queued'
         and e.data ->> 'review_id' = s.id::text;
      s.verification_status := 'verified';
    end if;
  end if;
  rate_allowed := s.rate_allowed; rate_remaining := s.rate_remaining; rate_reset := s.rate_reset;
  error_code := s.error_code; error_message := s.error_message;
  id := s.id; form_id := s.form_id; rating := s.rating; title := s.title; content := s.content;
  reviewer_name := s.reviewer_name; reviewer_email := s.reviewer_email;
  verification_status := s.verification_status; is_hidden := s.is_hidden; created_at := s.created_at;
  return next;
end
$$;
comment on function plaudit.submit_requested_review(text,text,integer,integer,text,text,text,text,jsonb,text,text,boolean,text) is 'Submits a landing page''s review of the business or of a product the request names, once per subject, and completes its request.';

-- The unsubscribe page: who would be unsubscribed, from which organization.
create or replace function plaudit.review_request_unsubscribe_info(p_token text)
returns table (email text, org_name text, suppressed boolean)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select q.email, o.name, plaudit.suppression_reason(q.org_id, q.email) is not null
  from plaudit.review_requests q join plaudit.organizations o on o.id = q.org_id
  where q.id = plaudit.review_request_from_token(p_token)
$$;
comment on function plaudit.review_request_unsubscribe_info(text) is 'The unsubscribe page: who would be unsubscribed, from which organization.';

-- Unsubscribes the request's address from the organization's review requests (the page's
-- button, and the one-click List-Unsubscribe-Post of mail clients). Answers 'unsubscribed',
-- 'already' or 'invalid'.
create or replace function plaudit.unsubscribe_review_request(p_token text)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  request_id uuid := plaudit.review_request_from_token(p_token);
  q plaudit.review_requests;
  already boolean;
begin
  select * into q from plaudit.review_requests rr where rr.id = request_id;
  if not found then
    return 'invalid';
  end if;
  already := plaudit.suppression_reason(q.org_id, q.email) is not null;
  perform plaudit.apply_review_request_event(q.id, 'unsubscribed', 'unsubscribed', now(), '{}');
  -- An address suppressed for another reason (a bounce, by hand) stays so.
  return case when already then 'already' else 'unsubscribed' end;
end
$$;
comment on function plaudit.unsubscribe_review_request(text) is 'Puts a request''s address on its organization''s suppression list; answers unsubscribed, already or invalid.';

-- The verification page: plaudit.verify_review_by_token (one implementation, shared with the
-- API), and the organization's name for the page.
create or replace function plaudit.verify_review_link(p_token text)
returns table (outcome text, org_name text)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  v record;
begin
  select * into v from plaudit.verify_review_by_token(p_token);
  return query
    select v.outcome, (select o.name from plaudit.reviews r join plaudit.organizations o on o.id = r.org_id
                       where r.id = v.review_id);
end
$$;
comment on function plaudit.verify_review_link(text) is 'Spends an e-mail verification token from the hosted page; answers the outcome and the organization''s name.';

-- Queues the invitation e-mail. The API calls it in the transaction that created the invitation,
-- with the plaintext token plaudit.create_invitation answered: the token must hash to the
-- invitation's, so the function can only ever mail an invitation's own address, of the tenant.
create or replace function plaudit.queue_invitation_email(p_invitation_id uuid, p_token text, p_link_base text)
returns uuid
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  i plaudit.invitations;
begin
  select * into i from plaudit.invitations inv
    where inv.id = p_invitation_id and inv.org_id = plaudit.current_org_id()
      and inv.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
      and inv.accepted_at is null and inv.revoked_at is null;
  if not found then
    raise exception 'Invitation not found' using errcode = 'no_data_found';
  end if;
  return plaudit.enqueue_email(i.org_id, i.email, 'team_invitation',
    jsonb_build_object('invitation_id', i.id, 'role', i.role, 'email', i.email,
                       'accept_url', rtrim(p_link_base, '/') || '/invitations/' || p_token,
                       'expires_at', to_char(i.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
    'en', 'team_invitation:' || i.id);
end
$$;
comment on function plaudit.queue_invitation_email(uuid,text,text) is 'Queues the e-mail of an invitation of the transaction''s tenant, given its plaintext token.';

-- The accept page: the invitation a token stands for, and its state
-- (pending | accepted | expired | revoked | invalid).
create or replace function plaudit.invitation_for_token(p_token text)
returns table (state text, email text, role text, org_name text, expires_at timestamptz)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(
           case when i.id is null then 'invalid'
                when i.accepted_at is not null then 'accepted'
                when i.revoked_at is not null then 'revoked'
                when i.expires_at <= now() then 'expired'
                else 'pending' end, 'invalid'),
         i.email, i.role, o.name, i.expires_at
  from (select 1) one
  left join plaudit.invitations i on i.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
  left join plaudit.organizations o on o.id = i.org_id
$$;
comment on function plaudit.invitation_for_token(text) is 'The accept page: the invitation a token stands for, and its state (pending | accepted | expired | revoked | invalid).';

-- Accepts: the invitee becomes a member with the invitation's role, once. Answers the state
-- afterwards: accepted (now), already_member, accepted_before, expired, revoked or invalid.
create or replace function plaudit.accept_invitation(p_token text, p_name text)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  i plaudit.invitations;
begin
  select * into i from plaudit.invitations inv
    where inv.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    for update;
  if not found then
    return 'invalid';
  elsif i.accepted_at is not null then
    return 'accepted_before';
  elsif i.revoked_at is not null then
    return 'revoked';
  elsif i.expires_at <= now() then
    return 'expired';
  end if;
  update plaudit.invitations set accepted_at = now() where id = i.id;
  insert into plaudit.members (org_id, email, name, role)
  values (i.org_id, i.email, nullif(left(btrim(coalesce(p_name, '')), 200), ''), i.role)
  on conflict (org_id, lower(email)) do nothing;
  if not found then
    return 'already_member';
  end if;
  return 'accepted';
end
$$;
comment on function plaudit.accept_invitation(text,text) is 'Accepts an invitation: the invitee becomes a member with its role, once; answers the state afterwards.';

-- Why a review-request e-mail (first send or reminder) must not go out any more: its request has
-- reached an end, or its address is on the organization's suppression list. Null: it may go.
-- Other templates (verification links, invitations) are not review requests and always may.
-- The texts are those of plaudit.cancel_queued_request_emails: the outbox trigger
-- (plaudit.email_outbox_track_review_requests) reads them. A request that ended is named first,
-- so that its timeline gets no `failed` event on top of its end.
-- Not granted to anyone: only the SECURITY DEFINER functions below call it.
create or replace function plaudit.review_request_email_withdrawal(p_org_id uuid, p_template text, p_to text, p_data jsonb)
returns text
language plpgsql
stable
set search_path = pg_catalog, pg_temp
as $$
declare
  request_status text;
begin
  if p_template not in ('review_request', 'review_reminder') then
    return null;
  end if;
  select q.status into request_status
    from plaudit.review_requests q where q.id = (p_data ->> 'review_request_id')::uuid;
  if request_status in ('completed', 'bounced', 'complained', 'unsubscribed', 'failed') then
    return 'the request is ' || request_status;
  end if;
  if exists (select from plaudit.email_suppressions s
             where s.org_id = p_org_id and s.email_key = plaudit.email_key(p_org_id, p_to)) then
    return 'the address is on the suppression list';
  end if;
  return null;
end
$$;
comment on function plaudit.review_request_email_withdrawal(uuid,text,text,jsonb) is 'Why a review-request e-mail must not go out any more, or null when it may.';

-- ============================================================================================
-- withdrawn invitation emails
-- ============================================================================================
-- Withdrawing an invitation also withdraws its e-mail when that is still waiting in the outbox
-- (the worker was down, or the send is being retried), so that nobody is invited after the
-- invitation was taken back. An e-mail the worker has already claimed may still go out; its link
-- then opens the page that says the invitation was withdrawn.
create or replace function plaudit.invitations_cancel_queued_email()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  update plaudit.email_outbox e
    set status = 'failed', last_error = 'cancelled: the invitation was withdrawn', locked_until = null
    where e.org_id = new.org_id and e.status = 'queued' and e.template = 'team_invitation'
      and e.data ->> 'invitation_id' = new.id::text;
  return null;
end
$$;
comment on function plaudit.invitations_cancel_queued_email() is 'Withdrawing an invitation withdraws its e-mail while that still waits in the outbox.';

-- The verification page shows a link's state without spending it: mail providers' link scanners
-- open every link, so only the page's button (plaudit.verify_review_link) verifies.
create or replace function plaudit.verification_link_state(p_token text)
returns table (state text, org_name text)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select case
           when t.id is null then 'invalid'
           when t.used_at is not null then 'already_used'
           when t.expires_at <= now() then 'expired'
           when r.verification_status <> 'pending' then 'not_pending'
           else 'pending'
         end,
         o.name
    from (select 1) one
    left join plaudit.review_verification_tokens t
      on t.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    left join plaudit.reviews r on r.id = t.review_id
    left join plaudit.organizations o on o.id = r.org_id
$$;
comment on function plaudit.verification_link_state(text) is 'The state of an e-mail verification link and the organization''s name, without spending the link.';
