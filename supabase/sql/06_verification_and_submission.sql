-- Verifying reviews (orders for purchase proof, e-mailed tokens, manual approval) and submitting them.
--
--
-- The functions and views of this concern, each once, as the database has them now.

-- The provenance of a purchase-proof verification: SHA-256 (hex) of the tenant and order id, so
-- equal order ids of two organizations hash differently.
create or replace function plaudit.order_hash(p_org_id uuid, p_order_id text)
returns text
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$ select encode(sha256(convert_to(p_org_id::text || ':' || p_order_id, 'UTF8')), 'hex') $$;
comment on function plaudit.order_hash(uuid,text) is 'The SHA-256 (hex) of the tenant and an order id: what a purchase-proof verification records.';

-- Why an order does not prove the purchase a review claims, or null when it does. The order must
-- be the organization's and, when it carries an e-mail address, the reviewer's (case-insensitively).
-- A review of a product also needs the order to hold that product or one of its group (by the
-- external_id of any product sharing the reviewed product's group), as Judge.me and Trustpilot
-- ask; an order loaded without items is "items unknown" and proves any product, as before
-- orders had items. Runs with the caller's rights: a tenant's orders and products only.
create or replace function plaudit.purchase_proof_refusal(p_org_id uuid, p_order_id text, p_email text, p_product_id uuid)
returns text
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select case
    when o.order_id is null then 'order_id: does not match an order of this organization for this reviewer'
    when p_product_id is null
      or not exists (select from plaudit.order_items i where i.org_id = o.org_id and i.order_id = o.order_id)
      or exists (
        select from plaudit.products reviewed
          join plaudit.products bought
            on bought.org_id = reviewed.org_id
           and (bought.id = reviewed.id or bought.group_key = reviewed.group_key)
          join plaudit.order_items i
            on i.org_id = bought.org_id and i.product_external_id = bought.external_id
         where reviewed.id = p_product_id and reviewed.org_id = o.org_id and i.order_id = o.order_id)
      then null
    else 'order_id: the order does not hold the reviewed product or a product of its group' end
  from (select) as one
  left join plaudit.orders o
    on o.org_id = p_org_id and o.order_id = btrim(p_order_id)
   and (o.email is null or lower(o.email) = lower(p_email))
$$;
comment on function plaudit.purchase_proof_refusal(uuid,text,text,uuid) is 'Why an order does not prove a review''s purchase (not the organization''s, another reviewer''s, or without the reviewed product or its group), or null when it does.';

-- Bulk upsert of up to 1,000 orders ([{order_id, email?, purchased_at?, items?}]); an order id
-- given twice keeps its last occurrence. An existing order takes the new e-mail, purchase date and
-- items (absent → none): loading an order again replaces what it held. Items ([{product_external_id,
-- quantity}]) keep the product's external id as given, known to the catalog or not. Answers how
-- many orders were inserted and how many updated.
create or replace function plaudit.upsert_orders(p_org_id uuid, p_orders jsonb)
returns table (inserted integer, updated integer)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
begin
  -- Statements of their own: the items of an order loaded again go before its new ones come.
  delete from plaudit.order_items oi
   where oi.org_id = p_org_id
     and oi.order_id in (select btrim(o.order_id) from jsonb_to_recordset(p_orders) as o(order_id text));
  return query
  with input as (
    select distinct on (btrim(o.order_id)) btrim(o.order_id) as order_id, o.email, o.purchased_at, o.items
    from rows from (jsonb_to_recordset(p_orders) as (order_id text, email text, purchased_at timestamptz, items jsonb))
      with ordinality as o(order_id, email, purchased_at, items, n)
    order by btrim(o.order_id), o.n desc
  ), written as (
    insert into plaudit.orders as t (org_id, order_id, email, purchased_at)
    select p_org_id, i.order_id, i.email, i.purchased_at from input i order by i.order_id
    on conflict (org_id, order_id) do update set email = excluded.email, purchased_at = excluded.purchased_at
    returning (t.xmax = 0) as is_new
  ), items as (
    insert into plaudit.order_items (org_id, order_id, position, product_external_id, quantity)
    select p_org_id, i.order_id, (x.n - 1)::smallint, btrim(x.product_external_id), coalesce(x.quantity, 1)
      from input i,
           rows from (jsonb_to_recordset(coalesce(i.items, '[]'))
                      as (product_external_id text, quantity integer)) with ordinality as x(product_external_id, quantity, n)
  )
  select (count(*) filter (where w.is_new))::integer, (count(*) filter (where not w.is_new))::integer from written w;
end
$$;
comment on function plaudit.upsert_orders(uuid,jsonb) is 'Inserts or updates up to 1,000 orders of an organization, replacing their items; answers how many were inserted and how many updated.';

-- Moves a pending review of the caller's tenant to `p_status`, recording provenance and the
-- actor for the trail: `api_key:<id>` for a key; for a signed-in member the API has set the
-- transaction's actor (`member:<id>`), which stays. Runs with the caller's rights.
create or replace function plaudit.change_verification(
  p_review_id uuid, p_status text, p_method text, p_reason text, p_key_id uuid,
  p_order_hash text, p_verb text
)
returns setof plaudit.reviews
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  current_status text;
  changed plaudit.reviews;
  prior_actor text := coalesce(current_setting('plaudit.actor', true), '');
begin
  select r.verification_status into current_status from plaudit.reviews r where r.id = p_review_id for update;
  if not found then
    raise exception 'Review not found' using errcode = 'no_data_found';
  end if;
  if current_status <> 'pending' then
    raise exception 'Only a pending review can be %; this one is %', p_verb, current_status
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  perform set_config('plaudit.actor', case when p_key_id is null then prior_actor else 'api_key:' || p_key_id end, true);
  update plaudit.reviews r
    set verification_status = p_status, verification_method = p_method, verification_at = now(),
        verification_key_id = p_key_id, verification_order_hash = p_order_hash,
        verification_reason = nullif(btrim(p_reason), '')
    where r.id = p_review_id
    returning r.* into changed;
  perform set_config('plaudit.actor', prior_actor, true);
  return next changed;
end
$$;
comment on function plaudit.change_verification(uuid,text,text,text,uuid,text,text) is 'Moves a pending review of the caller''s tenant to a verification status, recording provenance and actor.';

-- Manual approval of a pending review, through change_verification so that provenance and the
-- trail are written as for every other verification.
create or replace function plaudit.approve_review(p_review_id uuid, p_reason text, p_key_id uuid)
returns setof plaudit.reviews
language sql
volatile
set search_path = pg_catalog, pg_temp
as $$ select * from plaudit.change_verification(p_review_id, 'verified', 'manual', p_reason, p_key_id, null, 'approved') $$;
comment on function plaudit.approve_review(uuid,text,uuid) is 'Approves a pending review of the caller''s tenant by hand: verified, method manual.';

-- Manual rejection of a pending review: approve_review's counterpart.
create or replace function plaudit.reject_review(p_review_id uuid, p_reason text, p_key_id uuid)
returns setof plaudit.reviews
language sql
volatile
set search_path = pg_catalog, pg_temp
as $$ select * from plaudit.change_verification(p_review_id, 'rejected', 'manual', p_reason, p_key_id, null, 'rejected') $$;
comment on function plaudit.reject_review(uuid,text,uuid) is 'Rejects a pending review of the caller''s tenant by hand.';

-- Purchase proof after submission: the order id must match an order of the review's
-- organization (and the reviewer's e-mail when the order has one) and, for a review of a product,
-- hold that product or one of its group when the order lists its items.
create or replace function plaudit.verify_review_by_order(p_review_id uuid, p_order_id text, p_key_id uuid)
returns setof plaudit.reviews
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  r record;
  refusal text;
begin
  select rv.org_id, rv.reviewer_email, rv.verification_status, rv.product_id, f.verification_mode into r
    from plaudit.reviews rv join plaudit.review_forms f on f.id = rv.form_id
    where rv.id = p_review_id;
  if not found then
    raise exception 'Review not found' using errcode = 'no_data_found';
  end if;
  if r.verification_mode <> 'purchase_proof' then
    raise exception 'order_id: the review''s form does not use purchase-proof verification'
      using errcode = 'invalid_parameter_value';
  end if;
  if r.verification_status <> 'pending' then
    raise exception 'Only a pending review can be verified; this one is %', r.verification_status
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  refusal := plaudit.purchase_proof_refusal(r.org_id, p_order_id, r.reviewer_email, r.product_id);
  if refusal is not null then
    raise exception '%', refusal using errcode = 'invalid_parameter_value';
  end if;
  return query select * from plaudit.change_verification(
    p_review_id, 'verified', 'purchase_proof', null, p_key_id,
    plaudit.order_hash(r.org_id, btrim(p_order_id)), 'verified');
end
$$;
comment on function plaudit.verify_review_by_order(uuid,text,uuid) is 'Verifies a pending review by purchase proof: the order must be its organization''s, the reviewer''s when it has an e-mail, and hold the reviewed product or its group when it lists items.';

-- Spends an e-mail verification token. Used by the public link (no tenant, no key) and by the
-- authenticated verify route (tenant set: the review must be the tenant's; `p_review_id` must be
-- the token's review). Outcome: verified | already_used | expired | invalid | not_pending |
-- not_found (the review is not the tenant's).
create or replace function plaudit.verify_review_by_token(p_token text, p_review_id uuid default null, p_key_id uuid default null)
returns table (outcome text, review_id uuid)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.current_org_id();
  t plaudit.review_verification_tokens;
  status text;
begin
  if p_review_id is not null
     and not exists (select from plaudit.reviews r where r.id = p_review_id and (tenant is null or r.org_id = tenant))
  then
    return query select 'not_found'::text, p_review_id;
    return;
  end if;
  select * into t from plaudit.review_verification_tokens vt
    where vt.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    for update;
  if not found or t.review_id is distinct from coalesce(p_review_id, t.review_id)
     or t.org_id is distinct from coalesce(tenant, t.org_id) then
    return query select 'invalid'::text, p_review_id;
    return;
  end if;
  if t.used_at is not null then
    return query select 'already_used'::text, t.review_id;
    return;
  end if;
  if t.expires_at <= now() then
    return query select 'expired'::text, t.review_id;
    return;
  end if;
  select r.verification_status into status from plaudit.reviews r where r.id = t.review_id for update;
  if status <> 'pending' then
    return query select 'not_pending'::text, t.review_id;
    return;
  end if;
  update plaudit.review_verification_tokens set used_at = now() where id = t.id;
  perform set_config('plaudit.actor',
    case when p_key_id is null then 'reviewer:email_link' else 'api_key:' || p_key_id end, true);
  update plaudit.reviews r
    set verification_status = 'verified', verification_method = 'email', verification_at = now(),
        verification_token_id = t.id, verification_key_id = p_key_id
    where r.id = t.review_id;
  perform set_config('plaudit.actor', '', true);
  return query select 'verified'::text, t.review_id;
end
$$;
comment on function plaudit.verify_review_by_token(text,uuid,uuid) is 'Spends an e-mail verification token; answers the outcome and the review concerned.';

-- Validates answers against a form's field definitions and answers the answers to keep: only
-- the form's keys (anything else is dropped), strings trimmed. Raises check_violation naming
-- the field.
create or replace function plaudit.check_custom_field_values(p_definitions jsonb, p_values jsonb)
returns jsonb
language plpgsql
immutable
set search_path = pg_catalog, pg_temp
as $$
declare
  f jsonb;
  k text;
  v jsonb;
  kind text;
  kept jsonb := '{}';
begin
  p_values := coalesce(p_values, '{}');
  if jsonb_typeof(p_values) <> 'object' then
    raise exception 'custom_fields: must be an object keyed by field key' using errcode = 'check_violation';
  end if;
  for f in select value from jsonb_array_elements(p_definitions) loop
    k := f ->> 'key';
    v := p_values -> k;
    kind := jsonb_typeof(v);
    if kind = 'string' then
      v := to_jsonb(btrim(v #>> '{}'));
    end if;
    if v is null or kind = 'null' or v = '""'::jsonb then
      if coalesce((f ->> 'required')::boolean, false) then
        raise exception 'custom_fields.%: is required', k using errcode = 'check_violation';
      end if;
      continue;
    end if;
    case f ->> 'type'
      when 'text' then
        if kind <> 'string' or char_length(v #>> '{}') > 500 then
          raise exception 'custom_fields.%: must be a text of at most 500 characters', k using errcode = 'check_violation';
        end if;
      when 'textarea' then
        if kind <> 'string' or char_length(v #>> '{}') > 5000 then
          raise exception 'custom_fields.%: must be a text of at most 5000 characters', k using errcode = 'check_violation';
        end if;
      when 'number' then
        if kind <> 'number' then
          raise exception 'custom_fields.%: must be a number', k using errcode = 'check_violation';
        end if;
      when 'boolean' then
        if kind <> 'boolean' then
          raise exception 'custom_fields.%: must be true or false', k using errcode = 'check_violation';
        end if;
      when 'select' then
        if kind <> 'string' or not (f -> 'options') @> jsonb_build_array(v) then
          raise exception 'custom_fields.%: must be one of %', k,
            (select string_agg(o, ', ') from jsonb_array_elements_text(f -> 'options') o)
            using errcode = 'check_violation';
        end if;
    end case;
    kept := kept || jsonb_build_object(k, v);
  end loop;
  return kept;
end
$$;
comment on function plaudit.check_custom_field_values(jsonb,jsonb) is 'Validates answers against a form''s custom fields and answers those to keep: the form''s keys only, strings trimmed.';

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
