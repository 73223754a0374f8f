-- import purge per batch: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- Applies up to p_limit staged rows of one import: its products made when missing, its reviews
-- inserted unless their key is known (duplicates: a key already imported, or met earlier in the
-- file), their replies written as imported. A dry run counts the same without writing. One
-- statement each way (no temporary table: this runs as the owner). Answers the rows taken.
create or replace function plaudit.import_batch(p_import plaudit.imports, p_limit integer)
returns integer
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  taken integer;
  fresh integer;
  form uuid;
begin
  if p_import.dry_run then
    -- The whole file at once: a key met in an earlier batch would otherwise count as new twice.
    with batch as (
      delete from plaudit.import_rows s where s.import_id = p_import.id returning s.row_number, s.data
    ), keyed as (
      select distinct plaudit.import_key(p_import.format, b.data) as key from batch b
    )
    select (select count(*) from batch)::integer,
           (select count(*) from keyed k
             where not exists (select from plaudit.reviews v
                                where v.org_id = p_import.org_id and v.import_key = k.key))::integer
      into taken, fresh;
  else
    form := plaudit.import_form(p_import.org_id);
    with batch as (
      delete from plaudit.import_rows s
       where s.import_id = p_import.id
         and s.row_number in (select x.row_number from plaudit.import_rows x where x.import_id = p_import.id
                               order by x.row_number limit p_limit)
      returning s.row_number, s.data
    ), firsts as (
      select distinct on (k.key) k.row_number, k.data, k.key
        from (select b.row_number, b.data, plaudit.import_key(p_import.format, b.data) as key from batch b) k
       order by k.key, k.row_number
    ), new_products as (
      insert into plaudit.products (org_id, external_id, name)
      select distinct on (f.data ->> 'product_external_id') p_import.org_id, f.data ->> 'product_external_id',
             coalesce(f.data ->> 'product_name', f.data ->> 'product_external_id')
        from firsts f where f.data ->> 'product_external_id' is not null
       order by f.data ->> 'product_external_id', f.row_number
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
                                   imported_as_verified, import_key)
      select p_import.org_id, form, np.id, (f.data ->> 'rating')::integer, f.data ->> 'title', f.data ->> 'content',
             f.data ->> 'reviewer_name', f.data ->> 'reviewer_email', '{}', 'unverified',
             not (f.data ->> 'published')::boolean, (f.data ->> 'created_at')::timestamptz, 'import', p_import.format,
             coalesce((f.data ->> 'imported_as_verified')::boolean, false), f.key
        from firsts f
        left join named_products np on np.external_id = f.data ->> 'product_external_id'
       order by f.row_number
      on conflict (org_id, import_key) where import_key is not null do nothing
      returning id, import_key
    ), replies as (
      insert into plaudit.review_replies (review_id, org_id, content, created_at, updated_at, imported)
      select i.id, p_import.org_id, f.data ->> 'reply', (f.data ->> 'replied_at')::timestamptz,
             (f.data ->> 'replied_at')::timestamptz, true
        from inserted i join firsts f on f.key = i.import_key
       where f.data ->> 'reply' is not null
      returning 1
    )
    -- (replies runs with the statement, as every data-modifying part does.)
    select (select count(*) from batch)::integer, (select count(*) from inserted)::integer into taken, fresh;
  end if;
  update plaudit.imports set imported = imported + fresh, duplicates = duplicates + taken - fresh
   where id = p_import.id;
  -- One purge for the batch: the reviews' own trigger leaves imported ones to this.
  if fresh > 0 and not p_import.dry_run then
    perform plaudit.request_cdn_purge(p_import.org_id);
  end if;
  return taken;
end
$$;
comment on function plaudit.import_batch(plaudit.imports,integer) is 'Applies (or, for a dry run, counts) up to p_limit staged rows of an import; answers how many it took.';

revoke execute on all functions in schema plaudit from public;
reset role;
