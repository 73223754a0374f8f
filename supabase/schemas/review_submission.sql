-- Submitting a review: custom answers checked against the form, and the one function every submission goes through.

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
      when 'scale' then
        if kind <> 'string' or not (f -> 'scale') @> jsonb_build_array(v) then
          raise exception 'custom_fields.%: must be one of %', k,
            (select string_agg(o, ', ') from jsonb_array_elements_text(f -> 'scale') o)
            using errcode = 'check_violation';
        end if;
      when 'rating' then
        -- Stars as a number; the hosted form's "4" is the same answer.
        if kind = 'string' and (v #>> '{}') ~ '^[1-5]$' then
          v := to_jsonb((v #>> '{}')::integer);
        elsif kind <> 'number' or (v #>> '{}') !~ '^[1-5]$' then
          raise exception 'custom_fields.%: must be a whole number of stars from 1 to 5', k
            using errcode = 'check_violation';
        end if;
    end case;
    kept := kept || jsonb_build_object(k, v);
  end loop;
  return kept;
end
$$;
comment on function plaudit.check_custom_field_values(jsonb,jsonb) is 'Validates answers against a form''s custom fields and answers those to keep: the form''s keys only, strings trimmed.';

-- Every submission in one round trip, as SECURITY DEFINER because a submitter has no tenant:
-- rate limit, form, custom fields, the product reviewed (by id or external id), the duplicate rule,
-- purchase proof and the verification e-mail. The review is p_review, as every caller builds it
-- (plaudit.review_submission); the rest is the request's: the client's rate-limit bucket and its
-- limit, and the base of the verification link. Expected refusals come back as error_code and
-- error_message rather than as exceptions, as PostgreSQL raised them: a table's CHECK constraint
-- is named in error_constraint and error_table, and the API says which field that is
-- (functions/_shared/api/http/db-errors.ts).
-- p_request_id names the review request whose page the review was written on (its source is then
-- `invitation`, else `form`, and it takes the request's incentive): only plaudit.submit_requested_review
-- passes it, the id it read from the link's checked token. So no role may execute this function:
-- the public submits through plaudit.submit_review (no request) or submit_requested_review (a token).
-- The review keeps the incentive offered for it, the request's or else the form's, as it is now.
-- A burst's hold, a reused order or a duplicate text keeps it pending (supabase/schemas/review_holds.sql);
-- its client (a hash of the rate-limit bucket, itself a hash of the address) goes to the burst check.
-- Its statements, and those of every function and trigger it runs, keep their plans for the session
-- (plan_cache_mode = auto, as hit_rate_limit's): under the login's force_custom_plan, kept for the
-- reads' deep pages, ~45 % of a submission's database time went to planning them afresh. Each is a
-- lookup by key, whose generic plan walks the same index for a tenant of 5 reviews or of a million
-- (docs/benchmarks.md, "Submissions keep their plans").
create or replace function plaudit.store_submitted_review(
  p_review plaudit.review_submission,
  p_rate_bucket text,
  p_rate_limit integer,
  p_verify_url_base text,
  p_request_id uuid
)
returns table (
  rate_allowed boolean, rate_remaining integer, rate_reset bigint,
  error_code text, error_message text, error_constraint text, error_table text,
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
set plan_cache_mode = auto
as $$
declare
  hit record;
  f record;
  answers jsonb;
  status text;
  order_hash text;
  r plaudit.reviews;
  token text;
  product_field text;
  product_ref uuid;
  product_archived boolean;
  proof_refusal text;
  held record;
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
    select fm.id, fm.org_id, fm.verification_mode, fm.custom_fields, fm.incentive into f
      from plaudit.review_forms fm
      where fm.id = p_review.form_id and fm.deleted_at is null and fm.is_active;
    if not found then
      raise exception 'Review form not found' using errcode = 'no_data_found';
    end if;
    -- A statement of its own: folded into the form's, a null request made its custom plan cheaper
    -- than the kept one, and the statement was planned at every submission.
    if p_request_id is not null then
      f.incentive := coalesce((select rq.incentive from plaudit.review_requests rq where rq.id = p_request_id),
                              f.incentive);
    end if;
    answers := plaudit.check_custom_field_values(f.custom_fields, p_review.custom_fields);

    -- The product reviewed, by either id, of the form's organization only; an archived product
    -- keeps its reviews but takes no new ones.
    product_field := case when p_review.product_id is not null then 'product_id'
                          when p_review.product_external_id is not null then 'product_external_id' end;
    if product_field is not null then
      select p.id, p.archived into product_ref, product_archived from plaudit.products p
       where p.org_id = f.org_id
         and (p.id = p_review.product_id
              or (p_review.product_id is null and p.external_id = p_review.product_external_id));
      if not found then
        raise exception '%: no such product in this organization', product_field
          using errcode = 'invalid_parameter_value';
      elsif product_archived then
        raise exception '%: the product is archived and takes no new reviews', product_field
          using errcode = 'invalid_parameter_value';
      end if;
    end if;

    status := case f.verification_mode when 'none' then 'unverified' else 'pending' end;

    if p_review.honeypot then
      -- A bot filled the trap field: it gets a convincing answer and nothing is stored.
      id := gen_random_uuid(); form_id := f.id; rating := p_review.rating; title := p_review.title;
      content := p_review.content; reviewer_name := p_review.reviewer_name;
      reviewer_email := p_review.reviewer_email;
      verification_status := status; is_hidden := false; created_at := now(); custom_fields := answers;
      r.id := id; r.form_id := form_id; r.rating := rating; r.title := title; r.content := content;
      r.reviewer_name := reviewer_name; r.reviewer_email := reviewer_email; r.verification_status := status;
      r.is_hidden := false; r.created_at := created_at; r.custom_fields := answers; r.product_id := product_ref;
      r.source := case when p_request_id is null then 'form' else 'invitation' end; r.incentive := f.incentive;
      r.language := p_review.language; r.attributes := plaudit.attribute_answers(f.custom_fields, answers);
      review := plaudit.review_json(r, null);
      return next;
      return;
    end if;

    -- The duplicate rule, race-free: submissions of one address to one form queue here. The same
    -- words about two products (a request's page asks about several) are two reviews.
    perform pg_advisory_xact_lock(hashtextextended(f.id::text || ':' || lower(p_review.reviewer_email), 0));
    if exists (select from plaudit.reviews rv
               where rv.form_id = f.id and lower(rv.reviewer_email) = lower(p_review.reviewer_email)
                 and rv.created_at > now() - interval '24 hours' and rv.content = p_review.content
                 and rv.product_id is not distinct from product_ref) then
      raise exception 'This review was already submitted: the same e-mail address sent the same text to this form within the last 24 hours'
        using errcode = 'unique_violation';
    end if;

    -- An order that does not prove the purchase leaves the review pending, with the reason why.
    if f.verification_mode = 'purchase_proof' and nullif(btrim(p_review.order_id), '') is not null then
      proof_refusal := plaudit.purchase_proof_refusal(f.org_id, p_review.order_id, p_review.reviewer_email, product_ref);
      if proof_refusal is null then
        status := 'verified';
        order_hash := plaudit.order_hash(f.org_id, btrim(p_review.order_id));
      end if;
    end if;

    -- A burst's open hold, a reused order or a duplicate text keeps the review pending, with why.
    select * into held from plaudit.submission_hold(f.org_id, product_ref, p_review.content, p_review.order_id);
    if held.reason is not null then
      status := 'pending';
      order_hash := null;
      proof_refusal := plaudit.held_reason_text(held.reason, held.hold_id, held.duplicate_of, held.similarity);
    end if;

    insert into plaudit.reviews as rv
      (org_id, form_id, rating, title, content, reviewer_name, reviewer_email, custom_fields,
       verification_status, verification_method, verification_at, verification_order_hash, product_id,
       verification_reason, source, incentive, language, attributes)
    values
      (f.org_id, f.id, p_review.rating, nullif(p_review.title, ''), p_review.content, p_review.reviewer_name,
       p_review.reviewer_email, answers,
       status, case when order_hash is not null then 'purchase_proof' end,
       case when order_hash is not null then now() end, order_hash, product_ref, proof_refusal,
       case when p_request_id is null then 'form' else 'invitation' end, f.incentive, p_review.language,
       plaudit.attribute_answers(f.custom_fields, answers))
    returning rv.* into r;
    perform plaudit.record_submission(r, sha256(convert_to(p_rate_bucket, 'UTF8')), held.subject, held.order_hash,
                                      held.sketch, held.reason, held.hold_id, held.duplicate_of, held.similarity);

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
                              error_constraint = constraint_name, error_table = table_name;
      error_constraint := nullif(error_constraint, '');
      error_table := nullif(error_table, '');
      return next;
  end;
end
$$;
comment on function plaudit.store_submitted_review(plaudit.review_submission,text,integer,text,uuid) is 'Stores a form''s submission, or a checked token''s request''s; no role may call it.';

-- The public submission of a form's review (no review request: its source is `form`), in one
-- round trip; what plaudit.store_submitted_review answers.
create or replace function plaudit.submit_review(
  p_review plaudit.review_submission,
  p_rate_bucket text,
  p_rate_limit integer,
  p_verify_url_base text
)
returns table (
  rate_allowed boolean, rate_remaining integer, rate_reset bigint,
  error_code text, error_message text, error_constraint text, error_table text,
  id uuid, form_id uuid, rating integer, title text, content text, reviewer_name text,
  reviewer_email text, verification_status text, is_hidden boolean, created_at timestamptz,
  custom_fields jsonb, verification_method text, verification_at timestamptz,
  review text
)
language sql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
  select * from plaudit.store_submitted_review(p_review, p_rate_bucket, p_rate_limit, p_verify_url_base, null)
$$;
comment on function plaudit.submit_review(plaudit.review_submission,text,integer,text) is 'Submits a public review of a form in one round trip; answers the review or the refusal as the database raised it.';
grant execute on function plaudit.submit_review(plaudit.review_submission,text,integer,text) to plaudit_public;
