-- review request product functions: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

drop function plaudit.submit_requested_review(text,text,integer,integer,text,text,text,text,jsonb,text,text,boolean);

-- A review of the same address on the same form completes the organization's open requests,
-- however it was submitted (the landing page, the hosted form, the API). A request still
-- waiting for its send time is completed too, and its e-mail withdrawn: nobody is asked for a
-- review they already wrote. The review also counts as the request's review of its subject (the
-- business, or a product the request names), so the request's page no longer asks for that one.
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
             where s.org_id = tenant and lower(s.email) = lower(k.email) limit 1) as suppressed,
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
                      where x.org_id = q.org_id and lower(x.email) = lower(q.email))
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
    p_verify_url_base, p_honeypot, product);
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
grant execute on function plaudit.submit_requested_review(text,text,integer,integer,text,text,text,text,jsonb,text,text,boolean,text) to plaudit_public;
grant execute on function plaudit.review_request_subjects(text) to plaudit_public;

revoke execute on all functions in schema plaudit from public;
reset role;
