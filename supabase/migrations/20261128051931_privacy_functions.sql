-- privacy functions: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- What an erased review's title and text read when the reviewer asked for them to go too.
create or replace function plaudit.erasure_notice()
returns text
language sql
immutable
parallel safe
as $$ select '[removed at the reviewer''s request]'::text $$;
comment on function plaudit.erasure_notice() is 'The text an erased review''s title and content are replaced with when the reviewer asked for it.';

-- Only the columns moderation and verification own may change, and the verification status moves
-- only forward: pending to verified or rejected; and an unverified review to verified by an
-- invitation (the one other way a review proves its writer).
create or replace function plaudit.reviews_guard_update()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  if (new.id, new.org_id, new.form_id, new.rating, new.title, new.content, new.reviewer_name,
      new.reviewer_email, new.custom_fields, new.created_at)
     is distinct from
     (old.id, old.org_id, old.form_id, old.rating, old.title, old.content, old.reviewer_name,
      old.reviewer_email, old.custom_fields, old.created_at)
     -- Forgetting the reviewer (plaudit.erase_reviewer) is the one rewrite: the address, name and
     -- answers gone, the text kept or replaced by the removal notice, nothing else changed.
     and not ((new.id, new.org_id, new.form_id, new.rating, new.created_at)
                is not distinct from (old.id, old.org_id, old.form_id, old.rating, old.created_at)
              and new.reviewer_email is null and new.reviewer_name = 'Anonymous' and new.custom_fields = '{}'
              and (new.title is not distinct from old.title or new.title = plaudit.erasure_notice())
              and (new.content = old.content or new.content = plaudit.erasure_notice()))
  then
    raise exception 'a review cannot be rewritten: only moderation and verification may change it'
      using errcode = 'restrict_violation';
  end if;
  if new.verification_status is distinct from old.verification_status then
    if not ((old.verification_status = 'pending' and new.verification_status in ('verified', 'rejected'))
            or (old.verification_status = 'unverified' and new.verification_status = 'verified'
                and new.verification_method is not distinct from 'invitation')) then
      raise exception 'a review''s verification status can only move from pending to verified or rejected'
        using errcode = 'restrict_violation';
    end if;
  elsif (new.verification_method, new.verification_at, new.verification_key_id, new.verification_token_id,
         new.verification_order_hash, new.verification_reason)
        is distinct from
        (old.verification_method, old.verification_at, old.verification_key_id, old.verification_token_id,
         old.verification_order_hash, old.verification_reason)
  then
    raise exception 'verification provenance changes only with the verification status'
      using errcode = 'restrict_violation';
  end if;
  new.updated_at := now();
  return new;
end
$$;
comment on function plaudit.reviews_guard_update() is 'A review is never rewritten (but for forgetting its reviewer): only moderation and verification change it, and its verification status only moves forward.';

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
           coalesce(r -> 'products', '[]') as products,
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
    select k.idx, k.id, k.email, k.name, k.form_id, k.order_id, k.external_id, k.locale, k.send_at,
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
      (id, org_id, form_id, email, name, order_id, external_id, locale, send_at, link_base, status, failed_at)
    select b.id, tenant, b.form_id, b.email, b.name, b.order_id, b.external_id, b.locale, b.send_at,
           rtrim(p_link_base, '/'),
           case when b.suppressed is null then 'queued' else 'failed' end,
           case when b.suppressed is null then null else now() end
      from jsonb_to_recordset(coalesce(batch, '[]')) as b(idx integer, id uuid, email text, name text, form_id uuid,
             order_id text, external_id text, locale text, send_at timestamptz, error text, suppressed text)
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

-- A JSON value with a reviewer's traces taken out: every string holding the address (in any case)
-- has it replaced by "[removed]". For the outboxes' copies of past events, whose shape varies.
create or replace function plaudit.json_without_address(p_value jsonb, p_email text)
returns jsonb
language sql
immutable
strict
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select case when strpos(lower(p_value::text), lower(p_email)) = 0 then p_value
    else regexp_replace(p_value::text, regexp_replace(p_email, '([^A-Za-z0-9@])', '\\\1', 'g'), '[removed]', 'gi')::jsonb
  end
$$;
comment on function plaudit.json_without_address(jsonb,text) is 'A JSON value with every occurrence of an address (any case) replaced by [removed].';

-- The review events (review.created and the others that copy a review's words) of erased reviews,
-- as they would have been written after the erasure: the reviewer's name "Anonymous", no answers,
-- and the title and text replaced by the notice when the reviewer asked for that too.
create or replace function plaudit.review_event_forgotten(p_data jsonb, p_redact boolean)
returns jsonb
language sql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select p_data
    || case when p_data ? 'reviewer_name' then jsonb_build_object('reviewer_name', 'Anonymous') else '{}' end
    || case when p_data ? 'reviewer_email' then jsonb_build_object('reviewer_email', null) else '{}' end
    || case when p_data ? 'custom_fields' then jsonb_build_object('custom_fields', '{}'::jsonb) else '{}' end
    || case when p_redact and p_data ? 'content' then jsonb_build_object('content', plaudit.erasure_notice()) else '{}' end
    || case when p_redact and p_data ->> 'title' is not null then jsonb_build_object('title', plaudit.erasure_notice())
            else '{}' end
$$;
comment on function plaudit.review_event_forgotten(jsonb,boolean) is 'A review event''s data with the reviewer forgotten: name Anonymous, no address or answers, the text removed on request.';

-- POST /organizations/:orgId/privacy/erasures: forgets an address in the transaction's tenant.
--   * its reviews keep their rating, dates, product, verification and moderation state; they lose
--     the address, the name ("Anonymous") and the custom-field answers, and with p_redact their
--     title and text (the notice instead); each is an `anonymize` entry of the moderation trail
--     and emits review.anonymized; the CDN purge follows from the reviews' own triggers;
--   * the copies of what they said in past events and webhook deliveries are forgotten the same
--     way, and any other copy of the address in them replaced;
--   * its review requests are deleted (their timelines with them), its e-mails (queued or sent)
--     deleted, its orders keep their ids without the address, cached idempotent answers holding it
--     dropped, and exports holding it expired with their files deleted;
--   * the address is suppressed, kept only as its key (plaudit.email_key), and the erasure recorded.
-- Answers {"reviews","review_requests","media"}: what this call removed. A repeat finds nothing
-- left and answers zeros (and is recorded, as asked).
create or replace function plaudit.erase_reviewer(p_email text, p_redact_content boolean, p_actor text)
returns json
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.current_org_id();
  address text := lower(btrim(p_email));
  redact boolean := coalesce(p_redact_content, false);
  erased uuid[];
  requests integer;
  media integer := 0;
  r plaudit.reviews;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;
  if address is null or char_length(address) > 320 or address !~ '^[^@\s]+@[^@\s]+$' then
    raise exception 'email: must be an e-mail address' using errcode = 'invalid_parameter_value';
  end if;

  -- The reviews.
  with forgotten as (
    update plaudit.reviews x
       set reviewer_email = null, reviewer_name = 'Anonymous', custom_fields = '{}',
           title = case when redact and x.title is not null then plaudit.erasure_notice() else x.title end,
           content = case when redact then plaudit.erasure_notice() else x.content end
     where x.org_id = tenant and lower(x.reviewer_email) = address
    returning x.id
  )
  select coalesce(array_agg(f.id order by f.id), '{}') into erased from forgotten f;
  if cardinality(erased) > 0 then
    -- Public answers show names and texts: their version (and every ETag) moves.
    perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(tenant)));
  end if;

  for r in select * from plaudit.reviews x where x.id = any (erased) order by x.id loop
    perform plaudit.append_moderation_entry(tenant, r.id, 'anonymize',
      case when redact then 'erased at the reviewer''s request, text removed'
           else 'erased at the reviewer''s request' end,
      p_actor);
  end loop;
  -- One review.anonymized a review, written in one statement, each with the chain's head after the
  -- erasure (which covers its entry).
  if cardinality(erased) > 0 then
    insert into plaudit.events (org_id, type, data, created_at)
    select tenant, 'review.anonymized', jsonb_build_object(
             'id', x.id, 'form_id', x.form_id, 'product', plaudit.review_product_json(x.product_id)::jsonb,
             'reviewer_name', x.reviewer_name, 'content_removed', redact,
             'anonymized_at', plaudit.iso_utc(clock_timestamp()),
             'moderation_chain', plaudit.moderation_chain_head(tenant)), clock_timestamp()
      from plaudit.reviews x where x.id = any (erased) order by x.id;
    perform pg_notify('plaudit_outbox', 'event');
  end if;

  -- What past events said of these reviews (events name a review by its id and never carry an
  -- address; any copy of it is replaced all the same); their webhook deliveries carry the event's
  -- data, and take it again. The ids are joined as a set: an array compared per event would cost
  -- the erased count for each of the 30 days of events.
  with ids as (
    select x.id::text as id from unnest(erased) x(id)
  ), changed as (
    update plaudit.events e
       set data = plaudit.json_without_address(plaudit.review_event_forgotten(e.data, redact), address)
      from ids
     where e.org_id = tenant and e.type like 'review.%' and e.type <> 'review.anonymized'
       and e.data ->> 'id' = ids.id
    returning e.id, e.data
  )
  update plaudit.webhook_deliveries d
     set payload = jsonb_set(d.payload::jsonb, '{data}', c.data)::text
    from changed c
   where d.event_id = c.id;

  -- Its review requests (their events, products and links go with them) and its e-mails.
  with gone as (
    delete from plaudit.review_requests q where q.org_id = tenant and lower(q.email) = address returning 1
  )
  select count(*)::integer into requests from gone;
  delete from plaudit.email_outbox m where m.org_id = tenant and lower(m.to_address) = address;
  update plaudit.orders o set email = null where o.org_id = tenant and lower(o.email) = address;
  delete from plaudit.idempotency_keys k where k.org_id = tenant and strpos(lower(k.response), address) > 0;

  -- Exports that hold the address: their files go, and they read as expired.
  with holding as (
    select distinct c.export_id from plaudit.export_chunks c
     where c.org_id = tenant and strpos(lower(c.body), address) > 0
  ), emptied as (
    delete from plaudit.export_chunks c using holding h where c.export_id = h.export_id returning c.export_id
  )
  update plaudit.exports x set expires_at = least(coalesce(x.expires_at, now()), now())
   where x.id in (select h.export_id from holding h);

  -- Suppressed, kept only as its key.
  delete from plaudit.email_suppressions s
   where s.org_id = tenant and s.email_key = plaudit.email_key(tenant, address) and s.reason <> 'erased';
  insert into plaudit.email_suppressions (org_id, email, email_key, reason)
  values (tenant, null, plaudit.email_key(tenant, address), 'erased')
  on conflict (org_id, email_key) do nothing;

  insert into plaudit.privacy_erasures (org_id, email_key, redact_content, reviews, review_requests, media, actor)
  values (tenant, plaudit.email_key(tenant, address), redact, cardinality(erased), requests, media,
          coalesce(nullif(p_actor, ''), 'database:' || session_user));

  return json_build_object('reviews', cardinality(erased), 'review_requests', requests, 'media', media);
end
$$;
comment on function plaudit.erase_reviewer(text,boolean,text) is 'Forgets an address in the transaction''s tenant: its reviews anonymized (text removed on request), its requests, e-mails and copies gone, the address suppressed as a hash; answers the counts.';

-- GET /organizations/:orgId/privacy/data?email=: everything the transaction's tenant holds about
-- an address, and nothing about anyone else: its reviews (as the Review, the business's replies
-- included: they answer this person), its review requests, orders, e-mails and suppression. An
-- erased address holds only its suppression and its erasures.
create or replace function plaudit.reviewer_data(p_email text)
returns json
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.current_org_id();
  address text := lower(btrim(p_email));
  key bytea;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;
  if address is null or char_length(address) > 320 or address !~ '^[^@\s]+@[^@\s]+$' then
    raise exception 'email: must be an e-mail address' using errcode = 'invalid_parameter_value';
  end if;
  key := plaudit.email_key(tenant, address);
  return json_build_object(
    'email', address,
    'generated_at', plaudit.iso_utc(clock_timestamp()),
    'reviews', coalesce((
      select json_agg(plaudit.review_json(x, rr)::json order by x.created_at, x.id)
        from plaudit.reviews x
        left join plaudit.review_replies rr on rr.review_id = x.id
       where x.org_id = tenant and lower(x.reviewer_email) = address), '[]'),
    'review_requests', coalesce((
      select json_agg(json_build_object(
               'id', q.id, 'email', q.email, 'name', q.name, 'form_id', q.form_id, 'order_id', q.order_id,
               'external_id', q.external_id, 'locale', q.locale, 'status', q.status, 'review_id', q.review_id,
               'created_at', plaudit.iso_utc(q.created_at), 'sent_at', plaudit.iso_utc(q.sent_at),
               'opened_at', plaudit.iso_utc(q.opened_at), 'clicked_at', plaudit.iso_utc(q.clicked_at),
               'completed_at', plaudit.iso_utc(q.completed_at)) order by q.created_at, q.id)
        from plaudit.review_requests q where q.org_id = tenant and lower(q.email) = address), '[]'),
    'orders', coalesce((
      select json_agg(json_build_object(
               'order_id', o.order_id, 'email', o.email, 'purchased_at', plaudit.iso_utc(o.purchased_at),
               'items', coalesce((select json_agg(json_build_object('product_external_id', i.product_external_id,
                                                                      'quantity', i.quantity) order by i.position)
                                    from plaudit.order_items i
                                   where i.org_id = o.org_id and i.order_id = o.order_id), '[]'),
               'created_at', plaudit.iso_utc(o.created_at)) order by o.created_at, o.order_id)
        from plaudit.orders o where o.org_id = tenant and lower(o.email) = address), '[]'),
    'emails', coalesce((
      select json_agg(json_build_object('id', m.id, 'template', m.template, 'status', m.status,
                                          'created_at', plaudit.iso_utc(m.created_at),
                                          'sent_at', plaudit.iso_utc(m.sent_at)) order by m.created_at, m.id)
        from plaudit.email_outbox m where m.org_id = tenant and lower(m.to_address) = address), '[]'),
    'suppression', (
      select json_build_object('reason', s.reason, 'created_at', plaudit.iso_utc(s.created_at))
        from plaudit.email_suppressions s where s.org_id = tenant and s.email_key = key),
    'erasures', coalesce((
      select json_agg(json_build_object('reviews', e.reviews, 'review_requests', e.review_requests,
                                          'media', e.media, 'redact_content', e.redact_content,
                                          'created_at', plaudit.iso_utc(e.created_at)) order by e.created_at, e.id)
        from plaudit.privacy_erasures e where e.org_id = tenant and e.email_key = key), '[]'));
end
$$;
comment on function plaudit.reviewer_data(text) is 'Everything the transaction''s tenant holds about an address, as JSON, and nothing about anyone else.';

-- Every suppression is keyed, whoever writes it.
create trigger email_suppressions_set_key before insert or update of email on plaudit.email_suppressions
  for each row execute function plaudit.email_suppressions_set_key();

-- The guard runs as whoever updates a review; the suppressions route matches by key.
grant execute on function plaudit.erasure_notice() to plaudit_api, plaudit_worker;
grant execute on function plaudit.email_key(uuid, text) to plaudit_api;
-- The privacy routes (admin scope).
grant execute on function plaudit.erase_reviewer(text, boolean, text), plaudit.reviewer_data(text) to plaudit_api;

revoke execute on all functions in schema plaudit from public;
reset role;
