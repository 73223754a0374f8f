-- Imports of reviews from other platforms (docs/trust.md): the API reads and checks a file
-- (functions/_shared/core/imports/) and stages its rows with the job (plaudit.create_import); the
-- worker applies them in batches (plaudit.run_imports), set-based, each batch in one transaction.
-- Imported reviews are never verified here (unverified, whatever the platform claimed: kept as
-- imported_as_verified), keep their dates, replies and products, and are told apart by a key of
-- their platform and their own id (or their content), so that the same file twice imports nothing.

-- The key an imported review is known by: its platform and the platform's id of it; without an
-- id, what the row says (date, address, name, rating, title, text, product).
create or replace function plaudit.import_key(p_format text, p_row jsonb)
returns bytea
language sql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select sha256(convert_to(p_format || ':' || coalesce('id:' || (p_row ->> 'source_id'),
    jsonb_build_array(p_row ->> 'created_at', lower(p_row ->> 'reviewer_email'), p_row ->> 'reviewer_name',
                      p_row ->> 'rating', p_row ->> 'title', p_row ->> 'content',
                      p_row ->> 'product_external_id')::text), 'UTF8'))
$$;
comment on function plaudit.import_key(text,jsonb) is 'The key of an imported review: its platform and its own id there, or what its row says.';

-- POST …/imports: the job and its checked rows, for the transaction's tenant. p_rows is the
-- reader's reviews ([{"row", …}], each once), p_rejected its first refusals ([{"row","message"}]: the
-- first hundred are kept), p_rejected_count every refusal (the kept ones when null), p_duplicates
-- the rows that repeat an earlier row of the file.
create or replace function plaudit.create_import(
  p_format text, p_dry_run boolean, p_total_rows integer, p_rows jsonb, p_rejected jsonb, p_actor text,
  p_rejected_count integer default null, p_duplicates integer default 0
)
returns setof plaudit.imports
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.current_org_id();
  job plaudit.imports;
  kept jsonb := plaudit.import_refusals_kept('[]', coalesce(p_rejected, '[]'));
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;
  insert into plaudit.imports (org_id, format, dry_run, total_rows, rejected, rejected_count, duplicates, actor)
  values (tenant, p_format, p_dry_run, p_total_rows, kept,
          greatest(coalesce(p_rejected_count, 0), jsonb_array_length(coalesce(p_rejected, '[]'))),
          greatest(coalesce(p_duplicates, 0), 0), coalesce(nullif(p_actor, ''), 'database:' || session_user))
  returning * into job;
  insert into plaudit.import_rows (import_id, org_id, row_number, data)
  select job.id, tenant, (r ->> 'row')::integer, r - 'row'
    from jsonb_array_elements(coalesce(p_rows, '[]')) r;
  perform pg_notify('plaudit_outbox', 'import');
  return next job;
end
$$;
comment on function plaudit.create_import(text,boolean,integer,jsonb,jsonb,text,integer,integer) is 'Records an import job of the transaction''s tenant with its checked rows, for the worker to apply.';
grant execute on function plaudit.create_import(text,boolean,integer,jsonb,jsonb,text,integer,integer) to plaudit_api;

-- An import's kept refusals with more added: in row order, the first hundred only (every refusal is
-- counted in rejected_count; the list stays small, and so do the answers and events that carry it).
create or replace function plaudit.import_refusals_kept(p_kept jsonb, p_more jsonb)
returns jsonb
language sql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(jsonb_agg(r.x order by (r.x ->> 'row')::integer), '[]')
    from (select x from jsonb_array_elements(p_kept || p_more) x
           order by (x ->> 'row')::integer limit 100) r
$$;
comment on function plaudit.import_refusals_kept(jsonb,jsonb) is 'An import''s refusals with more added: the first hundred by row.';

-- The form imported reviews belong to: the organization's "Imported reviews", made (inactive: it
-- takes no submissions) on the first import.
create or replace function plaudit.import_form(p_org_id uuid)
returns uuid
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  form uuid;
begin
  perform pg_advisory_xact_lock(hashtextextended('plaudit.import_form:' || p_org_id::text, 0));
  select f.id into form from plaudit.review_forms f
   where f.org_id = p_org_id and f.name = 'Imported reviews' and not f.is_active and f.deleted_at is null
   order by f.created_at limit 1;
  if form is null then
    insert into plaudit.review_forms (org_id, name, is_active) values (p_org_id, 'Imported reviews', false)
    returning id into form;
  end if;
  return form;
end
$$;
comment on function plaudit.import_form(uuid) is 'The inactive form "Imported reviews" of an organization, made on its first import.';

-- Whether an address was erased in an organization (plaudit.erase_reviewer): an import never brings
-- it back; its row is refused instead.
create or replace function plaudit.import_address_erased(p_org_id uuid, p_email text)
returns boolean
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select p_email is not null and exists (
    select from plaudit.email_suppressions s
     where s.org_id = p_org_id and s.email_key = plaudit.email_key(p_org_id, p_email) and s.reason = 'erased')
$$;
comment on function plaudit.import_address_erased(uuid,text) is 'Whether an address was erased in an organization: an import refuses its rows.';

-- Applies up to p_limit staged rows of one import: its products made when missing (archived when the
-- file gives no name, only an id or handle), its reviews inserted unless their key is known
-- (duplicates: a key already imported, or met earlier in the file), their replies written as
-- imported, and a `hide` entry of the moderation chain with the platform's reason for each review
-- imported hidden. A row whose address was erased is refused. A dry run counts the same without
-- writing. Answers the rows taken. No nested loops: a new import's rows are not yet in import_rows'
-- statistics (once analyzed with another import's rows, a new import_id is estimated at one row),
-- and a nested loop between the batch's CTEs then joins 5,000 rows to 5,000, reading each row's
-- JSON for every pair (a batch of 5,000 took more than ten minutes instead of four seconds).
create or replace function plaudit.import_batch(p_import plaudit.imports, p_limit integer)
returns integer
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
set enable_nestloop = off
as $$
declare
  taken integer;
  fresh integer;
  refused jsonb;
  hidden jsonb;
  h jsonb;
  form uuid;
begin
  if p_import.dry_run then
    -- The whole file at once: a key met in an earlier batch would otherwise count as new twice.
    with batch as (
      delete from plaudit.import_rows s where s.import_id = p_import.id returning s.row_number, s.data
    ), marked as (
      select b.row_number, b.data, plaudit.import_address_erased(p_import.org_id, b.data ->> 'reviewer_email') as erased
        from batch b
    ), keyed as (
      select distinct plaudit.import_key(p_import.format, m.data) as key from marked m where not m.erased
    )
    select (select count(*) from batch)::integer,
           (select count(*) from keyed k
             where not exists (select from plaudit.reviews v
                                where v.org_id = p_import.org_id and v.import_key = k.key))::integer,
           (select coalesce(jsonb_agg(jsonb_build_object('row', m.row_number, 'message', plaudit.import_erased_message())
                                      order by m.row_number), '[]') from marked m where m.erased)
      into taken, fresh, refused;
  else
    form := plaudit.import_form(p_import.org_id);
    with batch as (
      delete from plaudit.import_rows s
       where s.import_id = p_import.id
         and s.row_number in (select x.row_number from plaudit.import_rows x where x.import_id = p_import.id
                               order by x.row_number limit p_limit)
      returning s.row_number, s.data
    ), marked as (
      select b.row_number, b.data, plaudit.import_address_erased(p_import.org_id, b.data ->> 'reviewer_email') as erased
        from batch b
    ), firsts as (
      select distinct on (k.key) k.row_number, k.data, k.key
        from (select m.row_number, m.data, plaudit.import_key(p_import.format, m.data) as key
                from marked m where not m.erased) k
       order by k.key, k.row_number
    ), new_products as (
      -- A product the file names only by its id or handle is made archived: no public page of its own
      -- until the business names it and puts it on sale.
      insert into plaudit.products (org_id, external_id, name, archived)
      select distinct on (f.data ->> 'product_external_id') p_import.org_id, f.data ->> 'product_external_id',
             coalesce(f.data ->> 'product_name', f.data ->> 'product_external_id'),
             not coalesce((f.data ->> 'product_named')::boolean, true)
        from firsts f where f.data ->> 'product_external_id' is not null
       order by f.data ->> 'product_external_id', coalesce((f.data ->> 'product_named')::boolean, true) desc,
                f.row_number
      on conflict (org_id, external_id) do nothing
      returning id, external_id
    ), named_products as (
      select n.id, n.external_id from new_products n
      union all
      select p.id, p.external_id from plaudit.products p
       where p.org_id = p_import.org_id
         and p.external_id in (select f.data ->> 'product_external_id' from firsts f)
    ), inserted as (
      insert into plaudit.reviews (org_id, form_id, product_id, rating, title, content, reviewer_name, reviewer_email,
                                   custom_fields, verification_status, is_hidden, created_at, source, source_platform,
                                   imported_as_verified, import_key, language)
      select p_import.org_id, form, np.id, (f.data ->> 'rating')::integer, f.data ->> 'title', f.data ->> 'content',
             f.data ->> 'reviewer_name', f.data ->> 'reviewer_email', '{}', 'unverified',
             not (f.data ->> 'published')::boolean, (f.data ->> 'created_at')::timestamptz, 'import', p_import.format,
             coalesce((f.data ->> 'imported_as_verified')::boolean, false), f.key,
             -- Told by the import reader (core/language/detect.ts); a malformed one is none.
             case when f.data ->> 'language' ~ '^[a-z]{2}$' then f.data ->> 'language' end
        from firsts f
        left join named_products np on np.external_id = f.data ->> 'product_external_id'
       order by f.row_number
      on conflict (org_id, import_key) where import_key is not null do nothing
      returning id, import_key, is_hidden
    ), replies as (
      insert into plaudit.review_replies (review_id, org_id, content, created_at, updated_at, imported)
      select i.id, p_import.org_id, f.data ->> 'reply', (f.data ->> 'replied_at')::timestamptz,
             (f.data ->> 'replied_at')::timestamptz, true
        from inserted i join firsts f on f.key = i.import_key
       where f.data ->> 'reply' is not null
      returning 1
    )
    -- (replies runs with the statement, as every data-modifying part does.)
    select (select count(*) from batch)::integer, (select count(*) from inserted)::integer,
           (select coalesce(jsonb_agg(jsonb_build_object('row', m.row_number, 'message', plaudit.import_erased_message())
                                      order by m.row_number), '[]') from marked m where m.erased),
           (select coalesce(jsonb_agg(jsonb_build_object(
                     'id', i.id, 'reason', coalesce(f.data ->> 'hidden_reason', 'not published on ' || p_import.format))
                     order by f.row_number), '[]')
              from inserted i join firsts f on f.key = i.import_key where i.is_hidden)
      into taken, fresh, refused, hidden;
    -- Why each was imported hidden, in the trail (one append at a time: the chain is a sequence).
    for h in select x from jsonb_array_elements(hidden) x loop
      perform plaudit.append_moderation_entry(p_import.org_id, (h ->> 'id')::uuid, 'hide', h ->> 'reason',
                                              p_import.actor);
    end loop;
  end if;
  update plaudit.imports
     set imported = imported + fresh,
         duplicates = duplicates + taken - fresh - jsonb_array_length(refused),
         rejected_count = rejected_count + jsonb_array_length(refused),
         rejected = case when jsonb_array_length(refused) = 0 then rejected
                         else plaudit.import_refusals_kept(rejected, refused) end,
         progressed_at = clock_timestamp()
   where id = p_import.id;
  -- One purge for the batch: the reviews' own trigger leaves imported ones to this.
  if fresh > 0 and not p_import.dry_run then
    perform plaudit.request_cdn_purge(p_import.org_id);
  end if;
  return taken;
end
$$;
comment on function plaudit.import_batch(plaudit.imports,integer) is 'Applies (or, for a dry run, counts) up to p_limit staged rows of an import; answers how many it took.';

-- Why an import refuses a row whose address was erased (the import of that address, or the erasure
-- that reached it while it waited).
create or replace function plaudit.import_erased_message()
returns text
language sql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$ select 'reviewer_email: this reviewer''s data was erased at their request; the row is not imported'::text $$;
comment on function plaudit.import_erased_message() is 'The refusal of an imported row whose address was erased.';

-- Works on waiting imports a batch at a time (row lock, SKIP LOCKED: workers and pg_cron share the
-- queue) until p_budget_ms has passed: each batch goes to the oldest waiting import of the
-- organization served longest ago (never served first), so a large file takes its turns beside
-- other organizations' imports instead of holding them up. p_org_ids limits it to those
-- organizations (a worker pinned to some). A finished import is completed: one import.completed
-- event and, when it wrote, one `import` entry of the moderation chain. A batch that fails marks its
-- import failed with the reason, its reviews rolled back. Answers 0 when nothing is left that this
-- call could take, else the number still waiting.
create or replace function plaudit.run_imports(
  p_budget_ms integer default 2000, p_rows integer default 2000, p_org_ids uuid[] default null
)
returns integer
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  deadline timestamptz := clock_timestamp() + make_interval(secs => p_budget_ms / 1000.0);
  job plaudit.imports;
  failed boolean;
  waiting integer;
begin
  loop
    job := null;
    select * into job from plaudit.imports i
     where i.status in ('pending', 'processing')
       and (p_org_ids is null or i.org_id = any (p_org_ids))
       and not exists (select from plaudit.imports o
                        where o.org_id = i.org_id and o.status in ('pending', 'processing')
                          and (o.created_at, o.id) < (i.created_at, i.id))
     order by i.progressed_at nulls first, i.created_at, i.id
     limit 1 for update skip locked;
    exit when job.id is null;
    update plaudit.imports set status = 'processing' where id = job.id and status = 'pending';
    failed := false;
    begin
      perform plaudit.import_batch(job, p_rows);
    exception when others then
      update plaudit.imports set status = 'failed', error = left(sqlerrm, 500), completed_at = clock_timestamp()
       where id = job.id;
      delete from plaudit.import_rows where import_id = job.id;
      failed := true;
    end;
    if not failed and not exists (select from plaudit.import_rows r where r.import_id = job.id) then
      update plaudit.imports set status = 'completed', completed_at = clock_timestamp()
       where id = job.id returning * into job;
      if not job.dry_run and job.imported > 0 then
        perform plaudit.append_moderation_entry(job.org_id, null, 'import',
          format('imported %s reviews from %s (%s duplicates, %s rows refused), import %s', job.imported, job.format,
                 job.duplicates, job.rejected_count, job.id),
          job.actor);
        -- Public answers show the imported reviews: their version (and ETags) move.
        perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(job.org_id)));
      end if;
      perform plaudit.emit_event(job.org_id, 'import.completed', plaudit.import_json(job)::jsonb);
    end if;
    exit when clock_timestamp() >= deadline;
  end loop;
  select count(*)::integer into waiting from plaudit.imports i
   where i.status in ('pending', 'processing') and (p_org_ids is null or i.org_id = any (p_org_ids));
  return case when job.id is null then 0 else waiting end;
end
$$;
comment on function plaudit.run_imports(integer,integer,uuid[]) is 'Applies waiting imports a batch at a time, the organization served longest ago first, until the time budget is spent; completes each with its event and chain entry.';
grant execute on function plaudit.run_imports(integer,integer,uuid[]) to plaudit_worker;

-- The trail's action of a completed import (an imported review hidden is a `hide`).
insert into plaudit.trail_actions (action, description) values
  ('import', 'Reviews were imported from another platform.')
on conflict (action) do update set description = excluded.description;

-- An import as the API answers it (json: its keys in the documented order), and as import.completed carries it.
create or replace function plaudit.import_json(p_import plaudit.imports)
returns json
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'id', p_import.id, 'format', p_import.format, 'dry_run', p_import.dry_run, 'status', p_import.status,
    'total_rows', p_import.total_rows, 'imported', p_import.imported, 'duplicates', p_import.duplicates,
    'rejected', p_import.rejected, 'rejected_count', p_import.rejected_count, 'created_at', plaudit.iso_utc(p_import.created_at),
    'completed_at', plaudit.iso_utc(p_import.completed_at))
$$;
comment on function plaudit.import_json(plaudit.imports) is 'An import job as the API answers it and import.completed carries it.';
grant execute on function plaudit.import_json(plaudit.imports) to plaudit_api;

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own imports"
  on plaudit.imports for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.imports to plaudit_api;
