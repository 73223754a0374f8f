-- Housekeeping that runs every minute. Where pg_cron is loaded (Supabase; the test cluster) it
-- schedules itself; elsewhere (embedded PostgreSQL) the local process calls it on a timer.
create function plaudit.run_maintenance()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform plaudit.prune_rate_limits();
end
$$;

do $$
begin
  if exists (select from pg_available_extensions where name = 'pg_cron')
     and current_setting('shared_preload_libraries', true) like '%pg_cron%'
     and coalesce(current_setting('cron.database_name', true), 'postgres') = current_database()
  then
    create extension if not exists pg_cron with schema pg_catalog;
    perform cron.schedule('plaudit-maintenance', '* * * * *', 'select plaudit.run_maintenance()');
  else
    raise notice 'pg_cron is not loaded here: the local process runs plaudit.run_maintenance()';
  end if;
end
$$;
