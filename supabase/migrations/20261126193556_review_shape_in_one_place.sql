-- review shape in one place: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

drop function plaudit.reply_json(text,timestamp with time zone,timestamp with time zone);

drop function plaudit.review_json(uuid,integer,text,text,text,text,text,text,timestamp with time zone,boolean,timestamp with time zone,uuid,jsonb,text);

drop function plaudit.submit_review(text,integer,uuid,integer,text,text,text,text,jsonb,text,text,boolean);
-- The public submission in one round trip, as SECURITY DEFINER because a submitter has no tenant:
-- rate limit, form, custom fields, the duplicate rule, purchase proof and the verification e-mail.
-- Expected refusals come back as error_code and error_message rather than as exceptions.
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
  p_honeypot boolean default false
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
      r.id := id; r.form_id := form_id; r.rating := rating; r.title := title; r.content := content;
      r.reviewer_name := reviewer_name; r.reviewer_email := reviewer_email; r.verification_status := status;
      r.is_hidden := false; r.created_at := created_at; r.custom_fields := answers;
      review := plaudit.review_json(r, null);
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
comment on function plaudit.submit_review(text,integer,uuid,integer,text,text,text,text,jsonb,text,text,boolean) is 'Submits a public review in one round trip; answers the review or an error code.';
grant execute on function plaudit.submit_review(text,integer,uuid,integer,text,text,text,text,jsonb,text,text,boolean) to plaudit_public;

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
             -- One cell per custom field of the form; nothing at all for an organization without.
             || case when keys = '{}' then '' else plaudit.export_csv_custom_cells(p.custom_fields, keys) end
             || E'\r\n', ''),
           count(*)::integer, max(p.created_at), (array_agg(p.id))[count(*)::integer]
      from plaudit.export_page(e.org_id, from_ts, to_ts, after_ts, after_id, want_rating, want_form,
                               with_hidden, p_rows) p
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

-- A reply as the Review's `reply` writes it; null for no reply (a null row, as a left join or an
-- empty subquery gives it).
create or replace function plaudit.reply_json(reply plaudit.review_replies)
returns text
language sql
stable
parallel safe
as $$
  select case when reply.review_id is null then null else
    '{"content":' || pg_catalog.to_json(reply.content)::text
    || ',"created_at":"' || pg_catalog.to_char(reply.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","updated_at":"' || pg_catalog.to_char(reply.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '"}' end
$$;
comment on function plaudit.reply_json(plaudit.review_replies) is 'A review''s reply as the Review''s `reply` writes it, or null.';
grant execute on function plaudit.reply_json(plaudit.review_replies) to plaudit_api;
grant execute on function plaudit.reply_json(plaudit.review_replies) to plaudit_public;

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
    || ',"is_hidden":' || r.is_hidden::text
    || ',"created_at":"' || pg_catalog.to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","form_id":"' || r.form_id::text
    || '","custom_fields":' || case when r.custom_fields = '{}'::jsonb then '{}' else plaudit.canonical_json(r.custom_fields) end
    || ',"reply":' || coalesce(plaudit.reply_json(reply), 'null')
    || '}'
$$;
comment on function plaudit.review_json(plaudit.reviews,plaudit.review_replies) is 'The organization''s Review as compact JSON: the one writer of it, for every route and the JSON export.';
grant execute on function plaudit.review_json(plaudit.reviews,plaudit.review_replies) to plaudit_api;
grant execute on function plaudit.review_json(plaudit.reviews,plaudit.review_replies) to plaudit_public;

-- GET /api/v1/organizations/:orgId/reviews/:id
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
    body := (select plaudit.review_json(r, rr)
               from plaudit.reviews r left join plaudit.review_replies rr on rr.review_id = r.id
              where r.id = p_review_id);
    perform set_config('role', 'none', true);
  end if;
  return query select a.*, body from plaudit.authenticate_credential(p_key_hash, p_org_id, p_rate_limit) a;
end
$$;
comment on function plaudit.api_review(bytea,uuid,integer,uuid) is 'Answers GET /api/v1/organizations/:orgId/reviews/:id in one statement.';

-- ============================================================================================
-- the review list's first page
-- ============================================================================================
-- GET /organizations/:orgId/reviews without a query string, or with only its defaults (`page=1`,
-- `limit=20`, as the SDK asks): page 1, 20 reviews, newest first, no filter, what an integrator's
-- poll and a dashboard's first look ask for, as one autocommitted
-- statement, as GET /organizations/:orgId already is: the key's check, the tenant and the role
-- switch (plaudit.begin_api_read), the page and its total written as the response body, and the
-- request counted last (plaudit.authenticate_credential). The API's fast reads call it
-- (functions/_shared/api/fast-reads/) and the route itself; every other list (another page or
-- size, a filter) is the route's tenant transaction (routes/reviews.ts, listReviews), whose page-1
-- query this is, word for word, so both answer the same bytes (tests/api/fast-reads.test.ts).
--
-- Its queries take no variable: the tenant is row-level security's (plaudit.org_id) and the page
-- size a number, so PL/pgSQL keeps one plan of each for the session. With LIMIT as a variable,
-- the login's force_custom_plan (or auto's cost comparison) planned the page on every call, which
-- is why an earlier list function was slower than the transaction (docs/benchmarks.md).
create or replace function plaudit.api_review_first_page(p_key_hash bytea, p_org_id uuid, p_rate_limit integer)
returns table (
  key_id uuid, org_id uuid, scope text, prefix text,
  rate_limit integer, allowed boolean, remaining integer, reset_at bigint, body text
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
declare
  items text;
  total integer;
begin
  if plaudit.begin_api_read(p_key_hash, p_org_id, p_rate_limit, 'read') then
    select coalesce(string_agg(plaudit.review_json(r, rr), ',' order by page.created_at desc, page.id desc), '')
      into items
      from (select id, created_at from plaudit.reviews where true
            order by created_at desc, id desc limit 20) page
      join plaudit.reviews r on r.id = page.id
      left join plaudit.review_replies rr on rr.review_id = r.id;
    select coalesce(sum(total_count), 0)::integer into total from plaudit.review_statistics;
    body := '{"data":[' || items || '],"meta":' || plaudit.page_meta(total, 1, 20) || '}';
    perform set_config('role', 'none', true);
  end if;
  return query select a.*, body from plaudit.authenticate_credential(p_key_hash, p_org_id, p_rate_limit) a;
end
$$;
comment on function plaudit.api_review_first_page(bytea,uuid,integer) is 'Answers the review list''s first page, 20 newest, in one statement.';

revoke execute on all functions in schema plaudit from public;
reset role;
