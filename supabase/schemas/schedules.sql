-- Schedules: delivery housekeeping, and what pg_cron runs where it is loaded.

-- Housekeeping of the delivery tables, and the schedules that drive exports and the worker.
--   plaudit-exports               every minute: generate pending exports (pg_cron);
--   plaudit-delivery-maintenance  every minute: prune and expire (pg_cron);
--   plaudit-wake-worker           every 10 s (pg_cron >= 1.5) or minute: POST the worker's URL
--                                 through pg_net, only where pg_net exists (hosted Supabase).
-- Where pg_cron is not loaded, the worker process runs exports and maintenance itself.
create or replace function plaudit.run_delivery_maintenance()
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
  delete from plaudit.cdn_purges
    where status in ('sent', 'failed') and created_at < now() - interval '30 days';
end
$$;
comment on function plaudit.run_delivery_maintenance() is 'Housekeeping of the delivery tables: drops expired rotation secrets and export files, and old deliveries, events, e-mails and CDN purges.';
grant execute on function plaudit.run_delivery_maintenance() to plaudit_worker;
