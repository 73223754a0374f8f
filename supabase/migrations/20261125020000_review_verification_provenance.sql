-- ============================================================================================
-- How a review was verified, in the organization's Review
-- ============================================================================================
-- The Review gains `verification_method` (email, purchase_proof, manual, invitation) and
-- `verification_at` (when the status was decided), both null while it is unverified or pending
-- (the columns are set only with a decided status: reviews_guard_update keeps it so).
-- The columns existed; the organization could only read them back from the trail.
set role plaudit_owner;

drop function plaudit.review_json(uuid, integer, text, text, text, text, text, boolean, timestamptz, uuid, jsonb, text);

create function plaudit.review_json(
  p_id uuid, p_rating integer, p_title text, p_content text, p_reviewer_name text, p_reviewer_email text,
  p_verification_status text, p_verification_method text, p_verification_at timestamptz, p_is_hidden boolean,
  p_created_at timestamptz, p_form_id uuid, p_custom_fields jsonb, p_reply text
)
returns text
language sql
stable
parallel safe
return '{"id":"' || p_id::text || '","rating":' || p_rating::text
  || ',"title":' || coalesce(pg_catalog.to_json(p_title)::text, 'null')
  || ',"content":' || pg_catalog.to_json(p_content)::text
  || ',"reviewer_name":' || pg_catalog.to_json(p_reviewer_name)::text
  || ',"reviewer_email":' || pg_catalog.to_json(p_reviewer_email)::text
  || ',"verification_status":"' || p_verification_status
  || '","verification_method":' || coalesce(pg_catalog.to_json(p_verification_method)::text, 'null')
  || ',"verification_at":' || coalesce('"' || pg_catalog.to_char(p_verification_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')
  || ',"is_hidden":' || p_is_hidden::text
  || ',"created_at":"' || pg_catalog.to_char(p_created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  || '","form_id":"' || p_form_id::text
  || '","custom_fields":' || case when p_custom_fields = '{}'::jsonb then '{}' else plaudit.canonical_json(p_custom_fields) end
  || ',"reply":' || coalesce(p_reply, 'null')
  || '}';

create or replace function plaudit.api_review(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_review_id uuid)
returns table (
  key_id uuid, org_id uuid, scope text, prefix text,
  rate_limit integer, allowed boolean, remaining integer, reset_at bigint, body text
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
begin
  if plaudit.begin_api_read(p_key_hash, p_org_id, p_rate_limit, 'read') then
    body := (select plaudit.review_json(r.id, r.rating, r.title, r.content, r.reviewer_name, r.reviewer_email,
                                        r.verification_status, r.verification_method, r.verification_at,
                                        r.is_hidden, r.created_at, r.form_id, r.custom_fields,
                                        plaudit.reply_json(rr.content, rr.created_at, rr.updated_at))
               from plaudit.reviews r left join plaudit.review_replies rr on rr.review_id = r.id
              where r.id = p_review_id);
    perform set_config('role', 'none', true);
  end if;
  return query select a.*, body from plaudit.authenticate_credential(p_key_hash, p_org_id, p_rate_limit) a;
end
$$;

-- plaudit.submit_review answers the stored review with how it was verified (an order matched at
-- once: purchase_proof), like every other Review.
drop function plaudit.submit_review(text, integer, uuid, integer, text, text, text, text, jsonb, text, text, boolean);

create function plaudit.submit_review(
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
  p_honeypot boolean default false
)
returns table (
  rate_allowed boolean, rate_remaining integer, rate_reset bigint,
  error_code text, error_message text,
  id uuid, form_id uuid, rating integer, title text, content text, reviewer_name text,
  reviewer_email text, verification_status text, is_hidden boolean, created_at timestamptz,
  custom_fields jsonb, verification_method text, verification_at timestamptz
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

    status := case f.verification_mode when 'none' then 'unverified' else 'pending' end;

    if p_honeypot then
      -- A bot filled the trap field: it gets a convincing answer and nothing is stored.
      id := gen_random_uuid(); form_id := f.id; rating := p_rating; title := p_title;
      content := p_content; reviewer_name := p_reviewer_name; reviewer_email := p_reviewer_email;
      verification_status := status; is_hidden := false; created_at := now(); custom_fields := answers;
      return next;
      return;
    end if;

    -- The duplicate rule, race-free: submissions of one address to one form queue here.
    perform pg_advisory_xact_lock(hashtextextended(f.id::text || ':' || lower(p_reviewer_email), 0));
    if exists (select from plaudit.reviews rv
               where rv.form_id = f.id and lower(rv.reviewer_email) = lower(p_reviewer_email)
                 and rv.created_at > now() - interval '24 hours' and rv.content = p_content) then
      raise exception 'This review was already submitted: the same e-mail address sent the same text to this form within the last 24 hours'
        using errcode = 'unique_violation';
    end if;

    if f.verification_mode = 'purchase_proof' and nullif(btrim(p_order_id), '') is not null
       and plaudit.order_matches(f.org_id, p_order_id, p_reviewer_email) then
      status := 'verified';
      order_hash := plaudit.order_hash(f.org_id, btrim(p_order_id));
    end if;

    insert into plaudit.reviews as rv
      (org_id, form_id, rating, title, content, reviewer_name, reviewer_email, custom_fields,
       verification_status, verification_method, verification_at, verification_order_hash)
    values
      (f.org_id, f.id, p_rating, nullif(p_title, ''), p_content, p_reviewer_name, p_reviewer_email, answers,
       status, case when order_hash is not null then 'purchase_proof' end,
       case when order_hash is not null then now() end, order_hash)
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

revoke execute on all functions in schema plaudit from public;
grant execute on function
  plaudit.review_json(uuid, integer, text, text, text, text, text, text, timestamptz, boolean, timestamptz, uuid, jsonb, text)
  to plaudit_api, plaudit_public;
grant execute on function plaudit.submit_review(text, integer, uuid, integer, text, text, text, text, jsonb, text, text, boolean)
  to plaudit_public;
reset role;
