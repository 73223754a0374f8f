-- Schedules: delivery housekeeping, and what pg_cron runs where it is loaded.
--
-- Sections: delivery schedules.

-- ============================================================================================
-- delivery schedules
-- ============================================================================================
set role plaudit_owner;

-- Housekeeping of the delivery tables, and the schedules that drive exports and the worker.
--   plaudit-exports               every minute: generate pending exports (pg_cron);
--   plaudit-delivery-maintenance  every minute: prune and expire (pg_cron);
--   plaudit-wake-worker           every 10 s (pg_cron >= 1.5) or minute: POST the worker's URL
--                                 through pg_net, only where pg_net exists (hosted Supabase).
-- Where pg_cron is not loaded, the worker process runs exports and maintenance itself.
create function plaudit.run_delivery_maintenance()
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  -- A rotation's previous secret stops signing after its 24 hours.
  update plaudit.webhook_endpoints
    set previous_secret = null, previous_secret_expires_at = null
    where previous_secret is not null and previous_secret_expires_at <= now();
  -- Expired export files go; the job row stays (status completed, expires_at in the past).
  delete from plaudit.export_chunks c
    using plaudit.exports e
    where c.export_id = e.id and e.expires_at <= now();
  delete from plaudit.exports where created_at < now() - interval '90 days';
  -- The delivery log and the outboxes keep 30 days of finished work.
  delete from plaudit.webhook_deliveries
    where status <> 'pending' and created_at < now() - interval '30 days';
  delete from plaudit.events e
    where e.created_at < now() - interval '30 days'
      and not exists (select from plaudit.webhook_deliveries d
                      where d.event_id = e.id and d.status = 'pending');
  delete from plaudit.email_outbox
    where status in ('sent', 'failed') and created_at < now() - interval '30 days';
end
$$;
comment on function plaudit.run_delivery_maintenance() is 'Housekeeping of the delivery tables: drops expired rotation secrets and export files, and old deliveries, events and e-mails.';

grant execute on function plaudit.run_delivery_maintenance() to plaudit_worker;

-- Scheduling needs the migrations' own role (pg_cron's schema is not the owner's).
reset role;
do $$
declare
  cron_version integer[];
begin
  if not (exists (select from pg_available_extensions where name = 'pg_cron')
          and current_setting('shared_preload_libraries', true) like '%pg_cron%'
          and coalesce(current_setting('cron.database_name', true), 'postgres') = current_database())
  then
    raise notice 'pg_cron is not loaded here: the worker generates exports and runs maintenance itself';
    return;
  end if;

  create extension if not exists pg_cron with schema pg_catalog;
  perform cron.schedule('plaudit-exports', '* * * * *', 'select plaudit.run_exports(50000)');
  perform cron.schedule('plaudit-delivery-maintenance', '* * * * *', 'select plaudit.run_delivery_maintenance()');

  if not exists (select from pg_available_extensions where name = 'pg_net') then
    raise notice 'pg_net is not available here: the worker is woken by NOTIFY and its own timer';
    return;
  end if;

  create extension if not exists pg_net;
  -- The worker's URL and secret are database settings, set when deploying:
  --   alter database postgres set plaudit.worker_url = 'https://<project>.supabase.co/functions/v1/worker';
  --   alter database postgres set plaudit.worker_secret = '<WORKER_SECRET>';
  -- pg_net only rings the bell: the worker does the delivering, with its own retries and timeouts.
  execute $fn$
    create or replace function plaudit.wake_worker()
    returns void
    language plpgsql
    volatile
    security definer
    set search_path = pg_catalog, pg_temp
    as $body$
    declare
      url text := nullif(current_setting('plaudit.worker_url', true), '');
    begin
      if url is null then
        return;
      end if;
      if not exists (select from plaudit.webhook_deliveries where status = 'pending' and next_attempt_at <= now())
         and not exists (select from plaudit.email_outbox where status in ('queued', 'sending') and next_attempt_at <= now())
         and not exists (select from plaudit.exports where status in ('pending', 'processing')) then
        return;
      end if;
      perform net.http_post(
        url := url,
        headers := jsonb_build_object('authorization',
                     'Bearer ' || coalesce(current_setting('plaudit.worker_secret', true), ''),
                     'content-type', 'application/json'),
        body := '{}'::jsonb,
        timeout_milliseconds := 5000);
    end
    $body$
  $fn$;

  select string_to_array(extversion, '.')::integer[] into cron_version
    from pg_extension where extname = 'pg_cron';
  if cron_version >= array[1, 5] then
    perform cron.schedule('plaudit-wake-worker', '10 seconds', 'select plaudit.wake_worker()');
  else
    perform cron.schedule('plaudit-wake-worker', '* * * * *', 'select plaudit.wake_worker()');
  end if;
end
$$;
set role plaudit_owner;

-- New functions are executable by PUBLIC by default; only the grants above stand.
revoke execute on all functions in schema plaudit from public;

revoke execute on all functions in schema plaudit from public;
reset role;
