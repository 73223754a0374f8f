-- incentives collected: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

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
  -- Where a review came from, and what was offered for it, are written once.
  if (new.source, new.source_platform, new.imported_as_verified, new.incentive::jsonb)
     is distinct from (old.source, old.source_platform, old.imported_as_verified, old.incentive::jsonb) then
    raise exception 'a review cannot be rewritten: only moderation and verification may change it'
      using errcode = 'restrict_violation';
  end if;
  new.updated_at := now();
  return new;
end
$$;
comment on function plaudit.reviews_guard_update() is 'A review is never rewritten: only moderation and verification change it, and its verification status only moves forward.';

-- The public submission in one round trip, as SECURITY DEFINER because a submitter has no tenant:
-- rate limit, form, custom fields, the product reviewed (by id or external id), the duplicate rule,
-- purchase proof and the verification e-mail. Expected refusals come back as error_code and error_message rather than as exceptions.
-- p_request_id names the review request whose page the review was written on (its source is then
-- `invitation`, else `form`): plaudit.submit_requested_review passes it, after checking the request.
-- The review keeps the incentive offered for it, the request's or else the form's, as it is now.
create or replace function plaudit.submit_review(
  p_rate_bucket text,
  p_rate_limit integer,
  p_form_id uuid,
  p_rating integer,
  p_title text,
  p_content text,
  p_reviewer_name text,
  p_reviewer_email text,
  p_custom_fields jsonb,
  p_order_id text,
  p_verify_url_base text,
  p_honeypot boolean default false,
  p_product_id uuid default null,
  p_product_external_id text default null,
  p_request_id uuid default null
)
returns table (
  rate_allowed boolean, rate_remaining integer, rate_reset bigint,
  error_code text, error_message text,
  id uuid, form_id uuid, rating integer, title text, content text, reviewer_name text,
  reviewer_email text, verification_status text, is_hidden boolean, created_at timestamptz,
  custom_fields jsonb, verification_method text, verification_at timestamptz,
  -- The stored review as the organization's Review (plaudit.review_json), for the API's answer.
  review text
)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  hit record;
  f record;
  answers jsonb;
  status text;
  order_hash text;
  r plaudit.reviews;
  token text;
  failed_constraint text;
  product_field text;
  product_ref uuid;
  product_archived boolean;
  proof_refusal text;
begin
  -- Counted first and outside the block below: a refused submission still counts.
  select * into hit from plaudit.hit_rate_limit(p_rate_bucket, p_rate_limit);
  rate_allowed := hit.allowed;
  rate_remaining := hit.remaining;
  rate_reset := hit.reset_at;
  if not hit.allowed then
    error_code := 'rate_limited';
    return next;
    return;
  end if;

  begin
    select fm.id, fm.org_id, fm.verification_mode, fm.custom_fields,
           coalesce((select rq.incentive from plaudit.review_requests rq where rq.id = p_request_id),
                    fm.incentive) as incentive into f
      from plaudit.review_forms fm
      where fm.id = p_form_id and fm.deleted_at is null and fm.is_active;
    if not found then
      raise exception 'Review form not found' using errcode = 'no_data_found';
    end if;
    answers := plaudit.check_custom_field_values(f.custom_fields, p_custom_fields);

    -- The product reviewed, by either id, of the form's organization only; an archived product
    -- keeps its reviews but takes no new ones.
    product_field := case when p_product_id is not null then 'product_id'
                          when p_product_external_id is not null then 'product_external_id' end;
    if product_field is not null then
      select p.id, p.archived into product_ref, product_archived from plaudit.products p
       where p.org_id = f.org_id
         and (p.id = p_product_id or (p_product_id is null and p.external_id = p_product_external_id));
      if not found then
        raise exception '%: no such product in this organization', product_field
          using errcode = 'invalid_parameter_value';
      elsif product_archived then
        raise exception '%: the product is archived and takes no new reviews', product_field
          using errcode = 'invalid_parameter_value';
      end if;
    end if;

    status := case f.verification_mode when 'none' then 'unverified' else 'pending' end;

    if p_honeypot then
      -- A bot filled the trap field: it gets a convincing answer and nothing is stored.
      id := gen_random_uuid(); form_id := f.id; rating := p_rating; title := p_title;
      content := p_content; reviewer_name := p_reviewer_name; reviewer_email := p_reviewer_email;
      verification_status := status; is_hidden := false; created_at := now(); custom_fields := answers;
      r.id := id; r.form_id := form_id; r.rating := rating; r.title := title; r.content := content;
      r.reviewer_name := reviewer_name; r.reviewer_email := reviewer_email; r.verification_status := status;
      r.is_hidden := false; r.created_at := created_at; r.custom_fields := answers; r.product_id := product_ref;
      r.source := case when p_request_id is null then 'form' else 'invitation' end; r.incentive := f.incentive;
      review := plaudit.review_json(r, null);
      return next;
      return;
    end if;

    -- The duplicate rule, race-free: submissions of one address to one form queue here. The same
    -- words about two products (a request's page asks about several) are two reviews.
    perform pg_advisory_xact_lock(hashtextextended(f.id::text || ':' || lower(p_reviewer_email), 0));
    if exists (select from plaudit.reviews rv
               where rv.form_id = f.id and lower(rv.reviewer_email) = lower(p_reviewer_email)
                 and rv.created_at > now() - interval '24 hours' and rv.content = p_content
                 and rv.product_id is not distinct from product_ref) then
      raise exception 'This review was already submitted: the same e-mail address sent the same text to this form within the last 24 hours'
        using errcode = 'unique_violation';
    end if;

    -- An order that does not prove the purchase leaves the review pending, with the reason why.
    if f.verification_mode = 'purchase_proof' and nullif(btrim(p_order_id), '') is not null then
      proof_refusal := plaudit.purchase_proof_refusal(f.org_id, p_order_id, p_reviewer_email, product_ref);
      if proof_refusal is null then
        status := 'verified';
        order_hash := plaudit.order_hash(f.org_id, btrim(p_order_id));
      end if;
    end if;

    insert into plaudit.reviews as rv
      (org_id, form_id, rating, title, content, reviewer_name, reviewer_email, custom_fields,
       verification_status, verification_method, verification_at, verification_order_hash, product_id,
       verification_reason, source, incentive)
    values
      (f.org_id, f.id, p_rating, nullif(p_title, ''), p_content, p_reviewer_name, p_reviewer_email, answers,
       status, case when order_hash is not null then 'purchase_proof' end,
       case when order_hash is not null then now() end, order_hash, product_ref, proof_refusal,
       case when p_request_id is null then 'form' else 'invitation' end, f.incentive)
    returning rv.* into r;

    if f.verification_mode = 'email' then
      token := plaudit.random_base62(43);
      insert into plaudit.review_verification_tokens (org_id, review_id, token_hash)
      values (f.org_id, r.id, sha256(convert_to(token, 'UTF8')));
      perform plaudit.enqueue_email(
        f.org_id, r.reviewer_email, 'review_verification',
        jsonb_build_object('review_id', r.id, 'token', token, 'reviewer_name', r.reviewer_name,
                           'verify_url', p_verify_url_base || '/api/v1/public/verifications/' || token),
        'en', 'review_verification:' || r.id);
    end if;

    id := r.id; form_id := r.form_id; rating := r.rating; title := r.title; content := r.content;
    reviewer_name := r.reviewer_name; reviewer_email := r.reviewer_email;
    verification_status := r.verification_status; is_hidden := r.is_hidden; created_at := r.created_at;
    verification_method := r.verification_method; verification_at := r.verification_at;
    custom_fields := r.custom_fields;
    review := plaudit.review_json(r, null);
    return next;
  exception
    when no_data_found or unique_violation or check_violation or invalid_parameter_value
         or string_data_right_truncation or not_null_violation then
      get stacked diagnostics error_code = returned_sqlstate, error_message = message_text,
                              failed_constraint = constraint_name;
      if error_code = '23514' and failed_constraint <> '' then
        error_message := regexp_replace(regexp_replace(failed_constraint, '^reviews_', ''), '_check$', '') || ': is invalid';
      end if;
      return next;
  end;
end
$$;
comment on function plaudit.submit_review(text,integer,uuid,integer,text,text,text,text,jsonb,text,text,boolean,uuid,text,uuid) is 'Submits a public review in one round trip; answers the review or an error code.';

-- ============================================================================================
-- public projection
-- ============================================================================================
-- What the public may see, and nothing else. plaudit.public_reviews is the public projection of
-- reviews: only reviews that are not hidden and whose status is verified or unverified, and no
-- reviewer e-mail, no custom answers, no provenance but how a verified review was verified, where
-- it came from (source, platform), whether it was incentivized and the product it is about. The public functions below take every review column they answer from
-- it (a page's ids come from an index walk with the same filter), and aggregates from
-- plaudit.review_statistics and plaudit.product_review_statistics only (never by counting).
-- It runs with its reader's rights (security_invoker): only the public SECURITY DEFINER functions
-- below read it, and they check that the profile is enabled; plaudit_public cannot read it itself.
create or replace view plaudit.public_reviews with (security_barrier = true, security_invoker = true) as
  select r.org_id, r.id, r.rating, r.title, r.content, r.reviewer_name, r.verification_status, r.created_at,
         case when r.verification_status = 'verified' then r.verification_method end as verification_method,
         r.product_id, r.source, r.source_platform, r.incentive is not null as incentivized
  from plaudit.reviews r
  where not r.is_hidden and r.verification_status in ('verified', 'unverified');
comment on view plaudit.public_reviews is 'The public projection of reviews: those not hidden and verified or unverified, without e-mail, custom answers or provenance.';

-- A public review item, the one writer of it for every public list (the profile's, the widget's,
-- a product's, the pages'): the review's public columns (its source among them), its product (`{"external_id","name"}`, or
-- null for a review of the business) and its reply. A plain expression of its arguments, which
-- the planner inlines into its callers (hence no SET clause: every name is schema-qualified).
create or replace function plaudit.public_review_json(
  pr plaudit.public_reviews, reply plaudit.review_replies, product plaudit.products
)
returns text
language sql
stable
parallel safe
as $$
  select '{"id":"' || pr.id::text || '","rating":' || pr.rating::text
    || ',"title":' || coalesce(pg_catalog.to_json(pr.title)::text, 'null')
    || ',"content":' || pg_catalog.to_json(pr.content)::text
    || ',"reviewer_name":' || pg_catalog.to_json(pr.reviewer_name)::text
    || ',"verification_status":"' || pr.verification_status
    || '","verification_method":' || coalesce(pg_catalog.to_json(pr.verification_method)::text, 'null')
    || ',"source":"' || pr.source || '","source_platform":' || coalesce('"' || pr.source_platform || '"', 'null')
    || ',"incentivized":' || pr.incentivized::text
    || ',"product":' || case when product.id is null then 'null'
         else '{"external_id":' || pg_catalog.to_json(product.external_id)::text
              || ',"name":' || pg_catalog.to_json(product.name)::text || '}' end
    || ',"reply":' || coalesce(plaudit.reply_json(reply), 'null')
    || ',"created_at":"' || pg_catalog.to_char(pr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '"}'
$$;
comment on function plaudit.public_review_json(plaudit.public_reviews,plaudit.review_replies,plaudit.products) is 'A public review item as compact JSON: the one writer of it, for every public list.';

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

-- The organization's Review, the contract's schema, written in one place: every route that
-- answers a Review (one review, the list and its first page, the submission, moderation,
-- verification, replies) and the JSON export call it with the review's row and its reply's row.
-- A field of the Review is added here, and nowhere else (CONTRIBUTING.md).
create or replace function plaudit.review_json(r plaudit.reviews, reply plaudit.review_replies)
returns text
language sql
stable
parallel safe
as $$
  select '{"id":"' || r.id::text || '","rating":' || r.rating::text
    || ',"title":' || coalesce(pg_catalog.to_json(r.title)::text, 'null')
    || ',"content":' || pg_catalog.to_json(r.content)::text
    || ',"reviewer_name":' || pg_catalog.to_json(r.reviewer_name)::text
    || ',"reviewer_email":' || pg_catalog.to_json(r.reviewer_email)::text
    || ',"verification_status":"' || r.verification_status
    || '","verification_method":' || coalesce(pg_catalog.to_json(r.verification_method)::text, 'null')
    || ',"verification_at":' || coalesce('"' || pg_catalog.to_char(r.verification_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')
    || ',"source":"' || r.source || '","source_platform":' || coalesce('"' || r.source_platform || '"', 'null')
    || ',"incentive":' || coalesce('{"type":"' || (r.incentive ->> 'type') || '","description":'
         || pg_catalog.to_json(r.incentive ->> 'description')::text || '}', 'null')
    || ',"is_hidden":' || r.is_hidden::text
    || ',"created_at":"' || pg_catalog.to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","form_id":"' || r.form_id::text
    || '","product":' || case when r.product_id is null then 'null' else coalesce(plaudit.review_product_json(r.product_id), 'null') end
    || ',"custom_fields":' || case when r.custom_fields = '{}'::jsonb then '{}' else plaudit.canonical_json(r.custom_fields) end
    || ',"reply":' || coalesce(plaudit.reply_json(reply), 'null')
    || '}'
$$;
comment on function plaudit.review_json(plaudit.reviews,plaudit.review_replies) is 'The organization''s Review as compact JSON: the one writer of it, for every route and the JSON export.';

-- Whether a review was collected with an incentive (a discount, a gift …), for the feed's
-- is_incentivized_review: the review keeps the incentive of its form or request (docs/trust.md),
-- and this is the one place that decides it. No search_path of its own: inlined, it costs the feed
-- a null test per review.
create or replace function plaudit.review_is_incentivized(r plaudit.reviews)
returns boolean
language sql
immutable
parallel safe
as $$ select r.incentive is not null $$;
comment on function plaudit.review_is_incentivized(plaudit.reviews) is 'Whether a review was collected with an incentive: the Google feed''s is_incentivized_review.';

revoke execute on all functions in schema plaudit from public;
reset role;
