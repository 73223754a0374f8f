-- Exports: files of an organization's reviews, generated inside the database in chunks.

-- A new job wakes the worker.
create or replace function plaudit.notify_export_created()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  perform pg_notify('plaudit_outbox', 'export');
  return null;
end
$$;
comment on function plaudit.notify_export_created() is 'A new export job wakes the worker.';

-- CSV cells. Simple SQL expressions, so the planner inlines them into the export query: they
-- carry no `set search_path` (a function with SET clauses is never inlined), and they call
-- nothing but pg_catalog built-ins and each other, schema-qualified.
create or replace function plaudit.csv_guard(v text)
returns text
language sql
immutable
parallel safe
as $$
  select case when ascii(v) in (61, 43, 45, 64, 9, 13) then '''' || v else v end
$$;
comment on function plaudit.csv_guard(text) is 'A CSV cell''s text, led by an apostrophe when a spreadsheet would read it as a formula.';
grant execute on function plaudit.csv_guard(text) to plaudit_api, plaudit_worker;

-- One CSV cell: guarded as csv_guard does, then quoted.
-- CSV cells are quoted by quote_ident, in C. quote_ident applies RFC 4180's quoting exactly (the value in double quotes, inner
-- quotes doubled; nothing else is escaped) and leaves bare only values made of lowercase ASCII
-- letters, digits and underscores, which never need quotes in CSV. It quotes more often than
-- COPY (any space, capital or non-ASCII character), which a CSV reader cannot tell apart: the
-- file parses to the same values. Rendering the export's four text columns took 0.45 s less on
-- 1,000,000 reviews (docs/benchmarks.md).
--
-- Still a plain SQL expression without SET clauses, so that the planner inlines it into the
-- export query; `v` is a column there, so referencing it twice costs nothing.
create or replace function plaudit.csv_cell(v text)
returns text
language sql
immutable
parallel safe
as $$
  select coalesce(pg_catalog.quote_ident(
    case when pg_catalog.ascii(v) in (61, 43, 45, 64, 9, 13) then '''' || v else v end), '')
$$;
comment on function plaudit.csv_cell(text) is 'One CSV cell: guarded as csv_guard does, then quoted as RFC 4180 asks; null is an empty cell.';
grant execute on function plaudit.csv_cell(text) to plaudit_api, plaudit_worker;

-- The first line of a CSV export: the review's own columns, the product reviewed (empty for a
-- review of the business), where the review came from, the addresses of its photos and videos
-- (media_urls: in upload order, separated by spaces), the business's public reply and when it was
-- written (empty without one: an export imported elsewhere keeps its replies), then a column per
-- custom field in the order export_custom_field_keys fixed.
create or replace function plaudit.export_csv_header(p_custom_field_keys text[])
returns text
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select 'id,rating,title,content,reviewer_name,reviewer_email,verification_status,is_hidden,created_at,form_id,'
         || 'product_external_id,product_name,source,media_urls,reply,replied_at'
         || coalesce((select string_agg(',' || plaudit.csv_cell('custom_fields.' || k), '' order by i)
                        from unnest(p_custom_field_keys) with ordinality u(k, i)), '')
$$;
comment on function plaudit.export_csv_header(text[]) is 'The header line of a CSV export: the review''s columns, its product''s, its source, its media''s URLs, its reply and when it was written, then one `custom_fields.<key>` column per custom field.';

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
    e.custom_field_keys := case when e.kind = 'reviews' then plaudit.export_custom_field_keys(e.org_id, want_form)
                                else '{}' end;
    update plaudit.exports set custom_field_keys = e.custom_field_keys where id = e.id;
    edge := case when e.format = 'json' then '['
                 when e.kind = 'questions' then plaudit.export_question_csv_header() || E'\r\n'
                 else plaudit.export_csv_header(e.custom_field_keys) || E'\r\n' end;
    insert into plaudit.export_chunks (export_id, seq, org_id, body) values (e.id, 0, e.org_id, edge);
    e.chunk_count := 1;
    e.byte_size := octet_length(edge);
  end if;
  keys := e.custom_field_keys;

  -- The aggregates take their rows in the subquery's order (a Limit over an ordered index scan
  -- feeds the Aggregate directly; an ORDER BY inside string_agg would sort the rendered text
  -- again and halve the speed). The export tests compare the whole file with COPY … ORDER BY.
  if e.kind = 'questions' then
    -- Questions with their answers (questions.sql), in the same chunks and cursor.
    insert into plaudit.export_chunks (export_id, seq, org_id, body, row_count, last_created_at, last_review_id)
    select e.id, e.chunk_count, e.org_id,
           case when e.format = 'json' and e.row_count > 0 then ',' else '' end || q.body,
           q.row_count, q.last_created_at, q.last_id
      from plaudit.export_question_chunk(e.org_id, e.format, from_ts, to_ts, after_ts, after_id, with_hidden, p_rows) q
     where q.row_count > 0
    returning row_count, last_created_at, last_review_id, octet_length(body)
      into n, last_ts, last_id, bytes;
  elsif e.format = 'csv' then
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
             -- Its photos and videos, hidden ones too (the file is the organization's), by index.
             || ',' || plaudit.csv_cell((select string_agg(m.url, ' ' order by m.position)
                                           from plaudit.review_media m where m.review_id = p.id))
             -- Its public reply and when it was first written, as the import reads them back.
             || ',' || plaudit.csv_cell(r.content) || ','
             || coalesce(to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')
             -- One cell per custom field of the form; nothing at all for an organization without.
             || case when keys = '{}' then '' else plaudit.export_csv_custom_cells(p.custom_fields, keys) end
             || E'\r\n', ''),
           count(*)::integer, max(p.created_at), (array_agg(p.id))[count(*)::integer]
      from plaudit.export_page(e.org_id, from_ts, to_ts, after_ts, after_id, want_rating, want_form,
                               with_hidden, p_rows) p
      -- The product looked up per review in the page's order, as the JSON branch looks up replies.
      left join lateral (select pr.external_id, pr.name from plaudit.products pr where pr.id = p.product_id offset 0) x
        on true
      left join lateral (select rr.content, rr.created_at from plaudit.review_replies rr where rr.review_id = p.id
                          offset 0) r
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

-- Works on pending exports, oldest first, one at a time (row lock, SKIP LOCKED: workers and
-- pg_cron share the queue), until p_budget_ms has passed. A step that fails marks its export
-- failed with the reason. Answers 0 when no export is left that this call could take, else the
-- number still waiting (the budget ran out first).
create or replace function plaudit.run_exports(p_budget_ms integer default 2000, p_rows integer default 10000)
returns integer
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
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
          set status = 'failed', error = left(sqlerrm, 500), completed_at = clock_timestamp()
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
comment on function plaudit.run_exports(integer,integer) is 'Works through pending exports, oldest first, until p_budget_ms has passed; answers how many still wait.';
grant execute on function plaudit.run_exports(integer,integer) to plaudit_worker;

-- The next reviews of an export, in file order. A plain SQL function that the planner inlines
-- into the caller's query (no SECURITY DEFINER, no SET clause, names schema-qualified), so the
-- Limit over the ordered index scan still feeds the caller's aggregates directly.
create or replace function plaudit.export_page(
  p_org_id uuid, p_from timestamptz, p_to timestamptz, p_after_ts timestamptz, p_after_id uuid,
  p_rating integer, p_form_id uuid, p_with_hidden boolean, p_rows integer
)
returns setof plaudit.reviews
language sql
stable
as $$
  select r.*
    from plaudit.reviews r
   where r.org_id = p_org_id
     and r.created_at >= p_from and r.created_at < p_to
     and (r.created_at, r.id) > (p_after_ts, p_after_id)
     and (p_rating is null or r.rating = p_rating)
     and (p_form_id is null or r.form_id = p_form_id)
     and (p_with_hidden or not r.is_hidden)
   order by r.created_at, r.id
   limit p_rows
$$;
comment on function plaudit.export_page(uuid,timestamp with time zone,timestamp with time zone,timestamp with time zone,uuid,integer,uuid,boolean,integer) is 'The next reviews an export writes.';

-- ============================================================================================
-- the chain head of each export
-- ============================================================================================
-- An export notes the organization's moderation chain head when it is requested, so that whoever
-- keeps the file can later check it against the trail (SECURITY.md).
create or replace function plaudit.exports_note_chain_head()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  select h.last_seq, h.last_hash into new.moderation_chain_entries, new.moderation_chain_head
    from plaudit.moderation_chain_heads h where h.org_id = new.org_id;
  new.moderation_chain_entries := coalesce(new.moderation_chain_entries, 0);
  return new;
end
$$;
comment on function plaudit.exports_note_chain_head() is 'Every export records the moderation chain head as it stood when the export was requested.';

-- ============================================================================================
-- custom fields and the download URL
-- ============================================================================================
-- A CSV export has one column per custom field, named `custom_fields.<key>`, after the
-- review's own columns: the fields of the exported form, or of all the organization's forms
-- (oldest form first, each field once, in the form's order). The columns are fixed when the
-- first chunk is written, so every row of the file has the same cells. A JSON export carries
-- each review's `custom_fields` object.
create or replace function plaudit.export_custom_field_keys(p_org_id uuid, p_form_id uuid)
returns text[]
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(array_agg(k.key order by k.pos), '{}')
    from (select distinct on (f.value ->> 'key') f.value ->> 'key' as key,
                 row_number() over (order by rf.created_at, rf.id, f.ord) as pos
            from plaudit.review_forms rf,
                 jsonb_array_elements(rf.custom_fields) with ordinality f(value, ord)
           where rf.org_id = p_org_id and (p_form_id is null or rf.id = p_form_id)
           order by f.value ->> 'key', pos) k
$$;
comment on function plaudit.export_custom_field_keys(uuid,uuid) is 'The custom-field keys a CSV export has columns for: the exported form''s, or all forms'', each once.';

-- A review's custom-field cells, each led by its comma: text as written, numbers and booleans
-- as JSON writes them, an unanswered field empty.
create or replace function plaudit.export_csv_custom_cells(p_values jsonb, p_keys text[])
returns text
language sql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select (select string_agg(',' || plaudit.csv_cell(p_values ->> k), '' order by i)
            from unnest(p_keys) with ordinality u(k, i))
$$;
comment on function plaudit.export_csv_custom_cells(jsonb,text[]) is 'A review''s custom-field cells for a CSV row, each led by its comma, an unanswered field empty.';

-- The file's absolute download URL.
create or replace function plaudit.export_download_url(e plaudit.exports)
returns text
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(e.public_url, '') || '/api/v1/organizations/' || e.org_id || '/exports/' || e.id || '/download'
$$;
comment on function plaudit.export_download_url(plaudit.exports) is 'The absolute download URL of an export''s file.';
grant execute on function plaudit.export_download_url(plaudit.exports) to plaudit_api;

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger exports_note_chain_head
  before insert on plaudit.exports
  for each row execute function plaudit.exports_note_chain_head();

create trigger exports_notify_created
  after insert on plaudit.exports
  for each row execute function plaudit.notify_export_created();

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read the files of their own exports"
  on plaudit.export_chunks for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own exports"
  on plaudit.exports for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can request exports of their own data"
  on plaudit.exports for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.export_chunks to plaudit_api;
grant insert (org_id, format, filters, created_by_key_id, public_url, kind) on plaudit.exports to plaudit_api;
grant select (id, org_id, kind, format, filters, status, row_count, chunk_count, byte_size, error, created_at, started_at, completed_at, expires_at, moderation_chain_entries, moderation_chain_head, custom_field_keys, public_url) on plaudit.exports to plaudit_api;
