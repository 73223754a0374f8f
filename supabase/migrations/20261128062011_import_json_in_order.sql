-- import json in order: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- Works on waiting imports, oldest first, one at a time (row lock, SKIP LOCKED: workers and
-- pg_cron share the queue), a batch per transaction step, until p_budget_ms has passed. A finished
-- import is completed: one import.completed event and, when it wrote, one `import` entry of the
-- moderation chain. A batch that fails marks its import failed with the reason, its reviews rolled
-- back. Answers 0 when nothing is left that this call could take, else the number still waiting.
create or replace function plaudit.run_imports(p_budget_ms integer default 2000, p_rows integer default 2000)
returns integer
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  deadline timestamptz := clock_timestamp() + make_interval(secs => p_budget_ms / 1000.0);
  job plaudit.imports;
  taken integer;
  waiting integer;
begin
  loop
    select * into job from plaudit.imports i
     where i.status in ('pending', 'processing')
     order by i.created_at, i.id
     limit 1 for update skip locked;
    exit when job.id is null;
    update plaudit.imports set status = 'processing' where id = job.id and status = 'pending';
    loop
      begin
        taken := plaudit.import_batch(job, p_rows);
      exception when others then
        update plaudit.imports set status = 'failed', error = left(sqlerrm, 500), completed_at = clock_timestamp()
         where id = job.id;
        delete from plaudit.import_rows where import_id = job.id;
        taken := -1;
      end;
      exit when taken <= 0 or clock_timestamp() >= deadline;
    end loop;
    if taken = 0 then
      update plaudit.imports set status = 'completed', completed_at = clock_timestamp()
       where id = job.id returning * into job;
      if not job.dry_run and job.imported > 0 then
        perform plaudit.append_moderation_entry(job.org_id, null, 'import',
          format('imported %s reviews from %s (%s duplicates, %s rows refused), import %s', job.imported, job.format,
                 job.duplicates, jsonb_array_length(job.rejected), job.id),
          job.actor);
        -- Public answers show the imported reviews: their version (and ETags) move.
        perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(job.org_id)));
      end if;
      perform plaudit.emit_event(job.org_id, 'import.completed', plaudit.import_json(job)::jsonb);
    end if;
    exit when clock_timestamp() >= deadline;
  end loop;
  select count(*)::integer into waiting from plaudit.imports i where i.status in ('pending', 'processing');
  return case when job.id is null then 0 else waiting end;
end
$$;
comment on function plaudit.run_imports(integer,integer) is 'Applies waiting imports in batches until the time budget is spent; completes each with its event and chain entry.';

drop function plaudit.import_json(plaudit.imports);
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
    'rejected', p_import.rejected, 'created_at', plaudit.iso_utc(p_import.created_at),
    'completed_at', plaudit.iso_utc(p_import.completed_at))
$$;
comment on function plaudit.import_json(plaudit.imports) is 'An import job as the API answers it and import.completed carries it.';
grant execute on function plaudit.import_json(plaudit.imports) to plaudit_api;

revoke execute on all functions in schema plaudit from public;
reset role;
