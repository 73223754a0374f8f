-- Exports: a job row, and the file as numbered chunks of text generated inside the database.
-- No review travels through a function: plaudit.run_exports (called by pg_cron where present,
-- and by the worker right after creation and on its timer) renders up to `p_rows` reviews per
-- step with one keyset-paginated query, appends a chunk, and moves the cursor, for as long as
-- its time budget lasts. The download route streams the chunks in order.
--
-- CSV follows RFC 4180 (CRLF records; fields with a comma, quote, CR or LF quoted, quotes
-- doubled; an empty string quoted as COPY does, a missing value left empty). A field that begins
-- with = + - @ (or tab or CR) gets a leading apostrophe, so that a spreadsheet shows it as text
-- instead of running it as a formula. JSON is an array of Review objects.
create table plaudit.exports (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  format text not null check (format in ('csv', 'json')),
  filters jsonb not null default '{}',
  status text not null default 'pending'
    check (status in ('pending', 'processing', 'completed', 'failed')),
  row_count integer not null default 0,
  chunk_count integer not null default 0,
  byte_size bigint not null default 0,
  error text,
  -- Keyset cursor: the last review written.
  cursor_created_at timestamptz,
  cursor_id uuid,
  created_by_key_id uuid references plaudit.api_keys (id) on delete set null,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  completed_at timestamptz,
  expires_at timestamptz
);

create index exports_org_id_created_at on plaudit.exports (org_id, created_at desc, id);
create index exports_due on plaudit.exports (created_at) where status in ('pending', 'processing');

alter table plaudit.exports enable row level security;

create policy "Tenants can read their own exports"
  on plaudit.exports for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can request exports of their own data"
  on plaudit.exports for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

grant select (id, org_id, format, filters, status, row_count, chunk_count, byte_size, error,
              created_at, started_at, completed_at, expires_at)
  on plaudit.exports to plaudit_api;
grant insert (org_id, format, filters, created_by_key_id) on plaudit.exports to plaudit_api;

create table plaudit.export_chunks (
  export_id uuid not null references plaudit.exports (id) on delete cascade,
  seq integer not null,
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  body text not null,
  primary key (export_id, seq)
);

-- Chunks are written once and streamed out: compressing them would cost more time than space.
alter table plaudit.export_chunks alter column body set storage external;

create index export_chunks_org_id on plaudit.export_chunks (org_id, export_id);

alter table plaudit.export_chunks enable row level security;

create policy "Tenants can read the files of their own exports"
  on plaudit.export_chunks for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select on plaudit.export_chunks to plaudit_api;

-- A new job wakes the worker.
create function plaudit.notify_export_created()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_notify('plaudit_outbox', 'export');
  return null;
end
$$;

create trigger exports_notify_created
  after insert on plaudit.exports
  for each row execute function plaudit.notify_export_created();

-- CSV cells. Simple SQL expressions, so the planner inlines them into the export query: they
-- carry no `set search_path` (a function with SET clauses is never inlined), and they call
-- nothing but pg_catalog built-ins and each other, schema-qualified.
create function plaudit.csv_guard(v text)
returns text
language sql
immutable
parallel safe
return case when ascii(v) in (61, 43, 45, 64, 9, 13) then '''' || v else v end;

create function plaudit.csv_quote(v text)
returns text
language sql
immutable
parallel safe
return case
  when v is null then ''
  when v = '' or strpos(v, '"') > 0 or strpos(v, ',') > 0 or strpos(v, E'\n') > 0 or strpos(v, E'\r') > 0
    then '"' || replace(v, '"', '""') || '"'
  else v
end;

-- csv_quote(csv_guard(v)) in one CASE over a plain column, so that it inlines (a nested call
-- as an argument referenced several times would not), with strpos/ascii rather than regular
-- expressions: about twice as fast on a million rows.
create function plaudit.csv_cell(v text)
returns text
language sql
immutable
parallel safe
return case
  when v is null then ''
  when ascii(v) in (61, 43, 45, 64, 9, 13) then
    case when strpos(v, '"') > 0 or strpos(v, ',') > 0 or strpos(v, E'\n') > 0 or strpos(v, E'\r') > 0
      then '"''' || replace(v, '"', '""') || '"'
      else '''' || v
    end
  when v = '' or strpos(v, '"') > 0 or strpos(v, ',') > 0 or strpos(v, E'\n') > 0 or strpos(v, E'\r') > 0
    then '"' || replace(v, '"', '""') || '"'
  else v
end;

grant execute on function plaudit.csv_guard(text), plaudit.csv_quote(text), plaudit.csv_cell(text)
  to plaudit_api, plaudit_worker;

create function plaudit.export_csv_header()
returns text
language sql
immutable
set search_path = ''
return 'id,rating,title,content,reviewer_name,reviewer_email,verification_status,is_hidden,created_at,form_id';

-- Renders the next chunk of one export (the caller holds the job's row lock) and answers true
-- when the file is complete.
create function plaudit.export_step(p_export_id uuid, p_rows integer default 10000)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
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
  body text;
  n integer;
  last_ts timestamptz;
  last_id uuid;
  prefix text := '';
  done boolean;
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

  -- The aggregates take their rows in the subquery's order (a Limit over an ordered index scan
  -- feeds the Aggregate directly; an ORDER BY inside string_agg would sort the rendered text
  -- again and halve the speed). The export tests compare the whole file with COPY … ORDER BY.
  if e.format = 'csv' then
    select string_agg(
             p.id::text || ',' || p.rating::text || ',' || plaudit.csv_cell(p.title) || ','
             || plaudit.csv_cell(p.content) || ',' || plaudit.csv_cell(p.reviewer_name) || ','
             || plaudit.csv_cell(p.reviewer_email) || ',' || p.verification_status || ','
             || p.is_hidden::text || ',' || to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
             || ',' || p.form_id::text || E'\r\n', ''),
           count(*)::integer, max(p.created_at), (array_agg(p.id))[count(*)::integer]
      into body, n, last_ts, last_id
      from (select r.id, r.rating, r.title, r.content, r.reviewer_name, r.reviewer_email,
                   r.verification_status, r.is_hidden, r.created_at, r.form_id
              from plaudit.reviews r
             where r.org_id = e.org_id
               and r.created_at >= from_ts and r.created_at < to_ts
               and (r.created_at, r.id) > (after_ts, after_id)
               and (want_rating is null or r.rating = want_rating)
               and (want_form is null or r.form_id = want_form)
               and (with_hidden or not r.is_hidden)
             order by r.created_at, r.id
             limit p_rows) p;
  else
    select string_agg(json_build_object(
             'id', p.id, 'rating', p.rating, 'title', p.title, 'content', p.content,
             'reviewer_name', p.reviewer_name, 'reviewer_email', p.reviewer_email,
             'verification_status', p.verification_status, 'is_hidden', p.is_hidden,
             'created_at', to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'form_id', p.form_id)::text, ','),
           count(*)::integer, max(p.created_at), (array_agg(p.id))[count(*)::integer]
      into body, n, last_ts, last_id
      from (select r.id, r.rating, r.title, r.content, r.reviewer_name, r.reviewer_email,
                   r.verification_status, r.is_hidden, r.created_at, r.form_id
              from plaudit.reviews r
             where r.org_id = e.org_id
               and r.created_at >= from_ts and r.created_at < to_ts
               and (r.created_at, r.id) > (after_ts, after_id)
               and (want_rating is null or r.rating = want_rating)
               and (want_form is null or r.form_id = want_form)
               and (with_hidden or not r.is_hidden)
             order by r.created_at, r.id
             limit p_rows) p;
  end if;

  done := n < p_rows;
  if e.chunk_count = 0 then
    prefix := case e.format when 'csv' then plaudit.export_csv_header() || E'\r\n' else '[' end;
  elsif e.format = 'json' and n > 0 and e.row_count > 0 then
    prefix := ',';
  end if;
  body := prefix || coalesce(body, '') || case when done and e.format = 'json' then ']' else '' end;

  if body <> '' then
    insert into plaudit.export_chunks (export_id, seq, org_id, body)
    values (e.id, e.chunk_count, e.org_id, body);
  end if;

  update plaudit.exports
  set status = case when done then 'completed' else 'processing' end,
      started_at = coalesce(started_at, now()),
      row_count = row_count + n,
      chunk_count = chunk_count + case when body <> '' then 1 else 0 end,
      byte_size = byte_size + octet_length(body),
      cursor_created_at = coalesce(last_ts, cursor_created_at),
      cursor_id = coalesce(last_id, cursor_id),
      completed_at = case when done then now() end,
      expires_at = case when done then now() + interval '7 days' end
  where id = e.id
  returning * into e;

  if done then
    perform plaudit.emit_event(e.org_id, 'export.completed', jsonb_build_object(
      'id', e.id, 'format', e.format, 'status', e.status, 'filters', e.filters,
      'row_count', e.row_count, 'created_at', plaudit.iso_utc(e.created_at),
      'completed_at', plaudit.iso_utc(e.completed_at), 'expires_at', plaudit.iso_utc(e.expires_at),
      'download_path', '/api/v1/organizations/' || e.org_id || '/exports/' || e.id || '/download'));
  end if;
  return done;
end
$$;

-- Works on pending exports, oldest first, one at a time (row lock, SKIP LOCKED: workers and
-- pg_cron share the queue), until p_budget_ms has passed. A step that fails marks its export
-- failed with the reason. Answers 0 when no export is left that this call could take, else the
-- number still waiting (the budget ran out first).
create function plaudit.run_exports(p_budget_ms integer default 2000, p_rows integer default 10000)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  deadline timestamptz := clock_timestamp() + make_interval(secs => p_budget_ms / 1000.0);
  job uuid;
  done boolean;
  left_over integer;
begin
  while clock_timestamp() < deadline loop
    select x.id into job from plaudit.exports x
      where x.status in ('pending', 'processing')
      order by x.created_at
      limit 1
      for update skip locked;
    if job is null then
      return 0;
    end if;
    done := false;
    while not done and clock_timestamp() < deadline loop
      begin
        done := plaudit.export_step(job, p_rows);
      exception when others then
        update plaudit.exports
          set status = 'failed', error = left(sqlerrm, 500), completed_at = now()
          where id = job;
        delete from plaudit.export_chunks where export_id = job;
        done := true;
      end;
    end loop;
    job := null;
  end loop;
  select count(*)::integer into left_over from plaudit.exports where status in ('pending', 'processing');
  return left_over;
end
$$;

grant execute on function plaudit.run_exports(integer, integer) to plaudit_worker;

-- The export query walks reviews by (org_id, created_at, id): reviews_org_id_created_at_id.

-- New functions are executable by PUBLIC by default; only the grants above stand.
revoke execute on all functions in schema plaudit from public;
