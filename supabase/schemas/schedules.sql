-- Schedules: delivery housekeeping, and what pg_cron runs where it is loaded.

-- Housekeeping of the delivery tables, and the schedules that drive exports and the worker.
--   plaudit-exports               every minute: generate pending exports (pg_cron);
--   plaudit-delivery-maintenance  every minute: prune and expire (pg_cron);
--   plaudit-wake-worker           every 10 s (pg_cron >= 1.5) or minute: plaudit.ring_worker()
--                                 POSTs to the worker's URL through pg_net, only where pg_net
--                                 exists (hosted Supabase).
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

-- Whether a version string is at least `p_minimum`, compared as numbers: its leading numbers
-- separated by dots, so that pg_cron's `1.4-1` (Debian) reads as 1.4 and `1.10` comes after
-- `1.9`. A version without a leading number is never at least anything.
create or replace function plaudit.version_at_least(p_version text, p_minimum integer[])
returns boolean
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(string_to_array(substring(p_version from '^\d+(?:\.\d+)*'), '.')::integer[] >= p_minimum, false)
$$;
comment on function plaudit.version_at_least(text,integer[]) is 'Whether a version string (its leading dotted numbers: 1.4-1 reads as 1.4) is at least the given numbers.';

-- Whether the worker has anything to do now: a webhook delivery or an e-mail due, an export
-- waiting, or (where the bell says a CDN is configured) a CDN purge due. Without a CDN, purges
-- wait, one per organization, and must not ring the worker every ten seconds.
create or replace function plaudit.worker_is_due()
returns boolean
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  return exists (select from plaudit.webhook_deliveries where status = 'pending' and next_attempt_at <= now())
      or exists (select from plaudit.email_outbox where status in ('queued', 'sending') and next_attempt_at <= now())
      or exists (select from plaudit.exports where status in ('pending', 'processing'))
      or (coalesce((select b.cdn_purges from plaudit.worker_bell b), false)
          and exists (select from plaudit.cdn_purges
                       where status in ('pending', 'sending', 'retrying') and next_attempt_at <= now()
                         and (locked_until is null or locked_until <= now())));
end
$$;
comment on function plaudit.worker_is_due() is 'Whether the worker has anything due now: deliveries, e-mails, exports, and CDN purges where the bell counts them.';

-- pg_cron's bell (hosted Supabase): when something is due, POSTs to the worker function through
-- pg_net, with `Authorization: Bearer <secret>`, and answers pg_net's request id (null when it did
-- not ring). The address and the secret are the row of plaudit.worker_bell, or else Vault's
-- secrets `plaudit_worker_url` and `plaudit_worker_secret`. SECURITY INVOKER on purpose: it runs as
-- pg_cron's job runs, as `postgres`, which Supabase lets call net.http_post and read Vault;
-- plaudit_owner, which owns it, holds neither right and needs none. pg_net and Vault are named in
-- dynamic SQL, so the function exists (and does nothing) where they do not. pg_net only rings the
-- bell: the worker does the delivering, with its own retries and timeouts.
create or replace function plaudit.ring_worker()
returns bigint
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  v_url text;
  v_secret text;
  v_request bigint;
begin
  select b.url, b.secret into v_url, v_secret from plaudit.worker_bell b;
  if v_url is null and to_regclass('vault.decrypted_secrets') is not null then
    begin
      execute format('select max(decrypted_secret) filter (where name = %L), max(decrypted_secret) filter (where name = %L)'
                     || ' from %I.decrypted_secrets where name in (%L, %L)',
                     'plaudit_worker_url', 'plaudit_worker_secret', 'vault', 'plaudit_worker_url', 'plaudit_worker_secret')
        into v_url, v_secret;
    exception when insufficient_privilege then
      raise warning 'plaudit.ring_worker: % may not read Vault', current_user;
    end;
  end if;
  if v_url is null or to_regnamespace('net') is null or not plaudit.worker_is_due() then
    return null;
  end if;
  execute format('select %I.http_post(url := $1, body := $2, headers := $3, timeout_milliseconds := $4)', 'net')
    into v_request
    using v_url, '{}'::jsonb,
          jsonb_build_object('Authorization', 'Bearer ' || coalesce(v_secret, ''), 'Content-Type', 'application/json'),
          5000;
  return v_request;
end
$$;
comment on function plaudit.ring_worker() is 'pg_cron''s bell on hosted Supabase: POSTs to the worker''s URL (plaudit.worker_bell, else Vault) through pg_net when something is due; runs with its caller''s rights.';
