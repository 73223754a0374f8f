-- merge media: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- A public review item, the one writer of it for every public list (the profile's, the widget's,
-- a product's, the pages'): the review's public columns (its source among them), its product
-- (`{"external_id","name"}`, or null for a review of the business), its visible photos and videos,
-- its reply and its helpful votes. A plain expression of its arguments, which the planner inlines
-- into its callers (hence no SET clause: every name is schema-qualified).
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
    || ',"media":' || plaudit.review_media_json(pr.id, true)
    || ',"reply":' || coalesce(plaudit.reply_json(reply), 'null')
    || ',"helpful_count":' || pr.helpful_count::text
    || ',"created_at":"' || pg_catalog.to_char(pr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '"}'
$$;
comment on function plaudit.public_review_json(plaudit.public_reviews,plaudit.review_replies,plaudit.products) is 'A public review item as compact JSON: the one writer of it, for every public list.';

-- The first line of a CSV export: the review's own columns, the product reviewed (empty for a
-- review of the business), where the review came from, the addresses of its photos and videos
-- (media_urls: in upload order, separated by spaces), then a column per custom field in the order export_custom_field_keys
-- fixed.
create or replace function plaudit.export_csv_header(p_custom_field_keys text[])
returns text
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select 'id,rating,title,content,reviewer_name,reviewer_email,verification_status,is_hidden,created_at,form_id,'
         || 'product_external_id,product_name,source,media_urls'
         || coalesce((select string_agg(',' || plaudit.csv_cell('custom_fields.' || k), '' order by i)
                        from unnest(p_custom_field_keys) with ordinality u(k, i)), '')
$$;
comment on function plaudit.export_csv_header(text[]) is 'The header line of a CSV export: the review''s columns, its product''s, its source, its media''s URLs, then one `custom_fields.<key>` column per custom field.';

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
             -- Its photos and videos, hidden ones too (the file is the organization's), by index.
             || ',' || plaudit.csv_cell((select string_agg(m.url, ' ' order by m.position)
                                           from plaudit.review_media m where m.review_id = p.id))
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
    || ',"reviewer_email":' || coalesce(pg_catalog.to_json(r.reviewer_email)::text, 'null')
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
    || ',"media":' || plaudit.review_media_json(r.id, false)
    || ',"reply":' || coalesce(plaudit.reply_json(reply), 'null')
    || '}'
$$;
comment on function plaudit.review_json(plaudit.reviews,plaudit.review_replies) is 'The organization''s Review as compact JSON: the one writer of it, for every route and the JSON export.';

revoke execute on all functions in schema plaudit from public;
reset role;
