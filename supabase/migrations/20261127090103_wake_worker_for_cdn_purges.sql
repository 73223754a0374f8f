-- Hosted Supabase: pg_cron's bell (plaudit.wake_worker, made by 20261125001000_schedules where
-- pg_net exists) also rings for CDN purges that are due, where the database says a CDN is
-- configured (`alter database postgres set plaudit.cdn_purges = 'on'`): without a CDN, purges
-- wait (one per organization) and must not ring the worker every ten seconds. Elsewhere the
-- worker's NOTIFY and its timer find them, and this changes nothing.
do $$
begin
  if not exists (select from pg_proc where proname = 'wake_worker' and pronamespace = 'plaudit'::regnamespace) then
    return;
  end if;
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
         and not exists (select from plaudit.exports where status in ('pending', 'processing'))
         and not (coalesce(current_setting('plaudit.cdn_purges', true), '') = 'on'
                  and exists (select from plaudit.cdn_purges
                               where status in ('pending', 'sending', 'retrying') and next_attempt_at <= now()
                                 and (locked_until is null or locked_until <= now()))) then
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
end
$$;

set role plaudit_owner;
revoke execute on all functions in schema plaudit from public;
reset role;
