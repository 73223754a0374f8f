-- review source: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

drop function plaudit.submit_review(text,integer,uuid,integer,text,text,text,text,jsonb,text,text,boolean,uuid,text);

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
  -- Where a review came from is written once.
  if (new.source, new.source_platform, new.imported_as_verified)
     is distinct from (old.source, old.source_platform, old.imported_as_verified) then
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
    select fm.id, fm.org_id, fm.verification_mode, fm.custom_fields into f
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
      r.source := case when p_request_id is null then 'form' else 'invitation' end;
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
       verification_reason, source)
    values
      (f.org_id, f.id, p_rating, nullif(p_title, ''), p_content, p_reviewer_name, p_reviewer_email, answers,
       status, case when order_hash is not null then 'purchase_proof' end,
       case when order_hash is not null then now() end, order_hash, product_ref, proof_refusal,
       case when p_request_id is null then 'form' else 'invitation' end)
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
grant execute on function plaudit.submit_review(text,integer,uuid,integer,text,text,text,text,jsonb,text,text,boolean,uuid,text,uuid) to plaudit_public;

-- ============================================================================================
-- public projection
-- ============================================================================================
-- What the public may see, and nothing else. plaudit.public_reviews is the public projection of
-- reviews: only reviews that are not hidden and whose status is verified or unverified, and no
-- reviewer e-mail, no custom answers, no provenance but how a verified review was verified, where
-- it came from (source, platform) and the product it is about. The public functions below take every review column they answer from
-- it (a page's ids come from an index walk with the same filter), and aggregates from
-- plaudit.review_statistics and plaudit.product_review_statistics only (never by counting).
-- It runs with its reader's rights (security_invoker): only the public SECURITY DEFINER functions
-- below read it, and they check that the profile is enabled; plaudit_public cannot read it itself.
create or replace view plaudit.public_reviews with (security_barrier = true, security_invoker = true) as
  select r.org_id, r.id, r.rating, r.title, r.content, r.reviewer_name, r.verification_status, r.created_at,
         case when r.verification_status = 'verified' then r.verification_method end as verification_method,
         r.product_id, r.source, r.source_platform
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
    || ',"product":' || case when product.id is null then 'null'
         else '{"external_id":' || pg_catalog.to_json(product.external_id)::text
              || ',"name":' || pg_catalog.to_json(product.name)::text || '}' end
    || ',"reply":' || coalesce(plaudit.reply_json(reply), 'null')
    || ',"created_at":"' || pg_catalog.to_char(pr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '"}'
$$;
comment on function plaudit.public_review_json(plaudit.public_reviews,plaudit.review_replies,plaudit.products) is 'A public review item as compact JSON: the one writer of it, for every public list.';

-- The first line of a CSV export: the review's own columns, the product reviewed (empty for a
-- review of the business), where the review came from, then a column per custom field in the order export_custom_field_keys
-- fixed.
create or replace function plaudit.export_csv_header(p_custom_field_keys text[])
returns text
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select 'id,rating,title,content,reviewer_name,reviewer_email,verification_status,is_hidden,created_at,form_id,'
         || 'product_external_id,product_name,source'
         || coalesce((select string_agg(',' || plaudit.csv_cell('custom_fields.' || k), '' order by i)
                        from unnest(p_custom_field_keys) with ordinality u(k, i)), '')
$$;
comment on function plaudit.export_csv_header(text[]) is 'The header line of a CSV export: the review''s columns, its product''s, its source, then one `custom_fields.<key>` column per custom field.';

-- Renders the next chunk of one export (the caller holds the job's row lock) and answers true
-- when the file is complete.
create or replace function plaudit.export_step(p_export_id uuid, p_rows integer default 10000)
returns boolean
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  e plaudit.exports;
  f jsonb;
  -- Filters and cursor as plain values, so the page query is one index range scan over
  -- (org_id, created_at, id): no OR, no jsonb per row.
  from_ts timestamptz;
  to_ts timestamptz;
  want_rating integer;
  want_form uuid;
  with_hidden boolean;
  after_ts timestamptz;
  after_id uuid;
  n integer;
  bytes integer;
  last_ts timestamptz;
  last_id uuid;
  edge text;
  done boolean;
  keys text[];
  -- The wall clock, not now(): a worker's transaction runs steps for seconds, and a job's
  -- start and completion are when they happened within it.
  began timestamptz := clock_timestamp();
  ended timestamptz;
begin
  select * into e from plaudit.exports where id = p_export_id;
  f := e.filters;
  from_ts := coalesce((f ->> 'startDate')::date::timestamp at time zone 'UTC', '-infinity');
  to_ts := coalesce(((f ->> 'endDate')::date + 1)::timestamp at time zone 'UTC', 'infinity');
  want_rating := (f ->> 'rating')::integer;
  want_form := (f ->> 'form_id')::uuid;
  with_hidden := coalesce((f ->> 'include_hidden')::boolean, false);
  after_ts := coalesce(e.cursor_created_at, '-infinity');
  after_id := coalesce(e.cursor_id, '00000000-0000-0000-0000-000000000000');

  if e.chunk_count = 0 then
    e.custom_field_keys := plaudit.export_custom_field_keys(e.org_id, want_form);
    update plaudit.exports set custom_field_keys = e.custom_field_keys where id = e.id;
    edge := case e.format when 'csv' then plaudit.export_csv_header(e.custom_field_keys) || E'\r\n' else '[' end;
    insert into plaudit.export_chunks (export_id, seq, org_id, body) values (e.id, 0, e.org_id, edge);
    e.chunk_count := 1;
    e.byte_size := octet_length(edge);
  end if;
  keys := e.custom_field_keys;

  -- The aggregates take their rows in the subquery's order (a Limit over an ordered index scan
  -- feeds the Aggregate directly; an ORDER BY inside string_agg would sort the rendered text
  -- again and halve the speed). The export tests compare the whole file with COPY … ORDER BY.
  if e.format = 'csv' then
    insert into plaudit.export_chunks (export_id, seq, org_id, body, row_count, last_created_at, last_review_id)
    select e.id, e.chunk_count, e.org_id,
           string_agg(
             p.id::text || ',' || p.rating::text || ',' || plaudit.csv_cell(p.title) || ','
             || plaudit.csv_cell(p.content) || ',' || plaudit.csv_cell(p.reviewer_name) || ','
             || plaudit.csv_cell(p.reviewer_email) || ',' || p.verification_status || ','
             || p.is_hidden::text || ',' || to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
             || ',' || p.form_id::text
             -- The product's cells go through csv_cell like the review's: a name is text, never a formula.
             || ',' || plaudit.csv_cell(x.external_id) || ',' || plaudit.csv_cell(x.name)
             || ',' || p.source
             -- One cell per custom field of the form; nothing at all for an organization without.
             || case when keys = '{}' then '' else plaudit.export_csv_custom_cells(p.custom_fields, keys) end
             || E'\r\n', ''),
           count(*)::integer, max(p.created_at), (array_agg(p.id))[count(*)::integer]
      from plaudit.export_page(e.org_id, from_ts, to_ts, after_ts, after_id, want_rating, want_form,
                               with_hidden, p_rows) p
      -- The product looked up per review in the page's order, as the JSON branch looks up replies.
      left join lateral (select pr.external_id, pr.name from plaudit.products pr where pr.id = p.product_id offset 0) x
        on true
    having count(*) > 0
    returning row_count, last_created_at, last_review_id, octet_length(body)
      into n, last_ts, last_id, bytes;
  else
    insert into plaudit.export_chunks (export_id, seq, org_id, body, row_count, last_created_at, last_review_id)
    select e.id, e.chunk_count, e.org_id,
           -- Array elements are separated by commas, across chunks too. Each is the organization's
           -- Review as every route answers it (plaudit.review_json), with its reply.
           case when e.row_count > 0 then ',' else '' end || string_agg(plaudit.review_json(p, x.reply), ','),
           count(*)::integer, max(p.created_at), (array_agg(p.id))[count(*)::integer]
      from plaudit.export_page(e.org_id, from_ts, to_ts, after_ts, after_id, want_rating, want_form,
                               with_hidden, p_rows) p
      -- The reply as a row of its own, looked up per review in the page's order (a parameterized
      -- scan, kept apart by OFFSET 0 so that no join reorders the page). Handed to review_json as a
      -- subquery instead, it stopped the function being inlined: twice the time per row.
      left join lateral (select rr as reply from plaudit.review_replies rr where rr.review_id = p.id offset 0) x
        on true
    having count(*) > 0
    returning row_count, last_created_at, last_review_id, octet_length(body)
      into n, last_ts, last_id, bytes;
  end if;

  n := coalesce(n, 0);
  if n > 0 then
    e.chunk_count := e.chunk_count + 1;
    e.byte_size := e.byte_size + bytes;
  end if;
  done := n < p_rows;
  if done and e.format = 'json' then
    edge := ']';
    insert into plaudit.export_chunks (export_id, seq, org_id, body) values (e.id, e.chunk_count, e.org_id, edge);
    e.chunk_count := e.chunk_count + 1;
    e.byte_size := e.byte_size + octet_length(edge);
  end if;

  ended := clock_timestamp();
  update plaudit.exports
  set status = case when done then 'completed' else 'processing' end,
      started_at = coalesce(started_at, began),
      row_count = row_count + n,
      chunk_count = e.chunk_count,
      byte_size = e.byte_size,
      cursor_created_at = coalesce(last_ts, cursor_created_at),
      cursor_id = coalesce(last_id, cursor_id),
      completed_at = case when done then ended end,
      expires_at = case when done then ended + interval '7 days' end
  where id = e.id
  returning * into e;

  if done then
    perform plaudit.emit_event(e.org_id, 'export.completed', jsonb_build_object(
      'id', e.id, 'format', e.format, 'status', e.status, 'filters', e.filters,
      'row_count', e.row_count, 'created_at', plaudit.iso_utc(e.created_at),
      'completed_at', plaudit.iso_utc(e.completed_at), 'expires_at', plaudit.iso_utc(e.expires_at),
      'download_url', plaudit.export_download_url(e)));
  end if;
  return done;
end
$$;
comment on function plaudit.export_step(uuid,integer) is 'Renders the next chunk of one export and answers true when the file is complete.';

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
    || ',"is_hidden":' || r.is_hidden::text
    || ',"created_at":"' || pg_catalog.to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","form_id":"' || r.form_id::text
    || '","product":' || case when r.product_id is null then 'null' else coalesce(plaudit.review_product_json(r.product_id), 'null') end
    || ',"custom_fields":' || case when r.custom_fields = '{}'::jsonb then '{}' else plaudit.canonical_json(r.custom_fields) end
    || ',"reply":' || coalesce(plaudit.reply_json(reply), 'null')
    || '}'
$$;
comment on function plaudit.review_json(plaudit.reviews,plaudit.review_replies) is 'The organization''s Review as compact JSON: the one writer of it, for every route and the JSON export.';

revoke execute on all functions in schema plaudit from public;
reset role;
