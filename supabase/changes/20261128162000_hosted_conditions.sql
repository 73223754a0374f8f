-- Hosted Supabase: where pg_cron's bell finds the worker, and the schedule that rings it.
--
-- On hosted Supabase the migrating role, `postgres`, is no superuser: it may not set a custom
-- parameter of the database (`alter database … set plaudit.worker_url` answers "permission denied
-- to set parameter" on PostgreSQL 15), and it cannot pass pg_net's rights on to plaudit_owner. So
-- the worker's address and secret are a row of plaudit.worker_bell (or two secrets of Supabase
-- Vault), which the operator writes in the SQL editor as `postgres`, and pg_cron's job, which runs
-- as `postgres`, calls net.http_post itself through plaudit.ring_worker(), a SECURITY INVOKER
-- function (docs/delivery.md, "Ringing the worker on hosted Supabase").
create table plaudit.worker_bell (
  id boolean primary key default true check (id),
  url text not null check (url ~ '^https?://'),
  secret text not null check (secret <> ''),
  cdn_purges boolean not null default false,
  updated_at timestamptz not null default now()
);
comment on table plaudit.worker_bell is 'Hosted Supabase: the worker function''s address and secret, one row, which pg_cron''s bell rings through pg_net; cdn_purges: due CDN purges ring it too.';
alter table plaudit.worker_bell enable row level security;

-- The schedule runs as the migrating role, the only one here that pg_net lets call it.
reset role;
do $$
begin
  if not exists (select from pg_extension where extname = 'pg_cron') then
    return;
  end if;
  -- Where pg_net can be had, have it: on hosted Supabase supautils creates it as supabase_admin.
  if exists (select from pg_available_extensions where name = 'pg_net')
     and not exists (select from pg_extension where extname = 'pg_net') then
    create extension pg_net;
  end if;
  if to_regprocedure('net.http_post(text,jsonb,jsonb,jsonb,integer)') is null then
    raise notice 'pg_net is not available here: the worker is woken by NOTIFY and its own timer';
    return;
  end if;
  -- pg_cron 1.5 and later take a schedule in seconds. Its version is read as numbers, so
  -- Debian's `1.4-1` and a future `1.10` compare right.
  perform cron.schedule('plaudit-wake-worker',
                        case when plaudit.version_at_least(
                                    (select extversion from pg_extension where extname = 'pg_cron'), array[1, 5])
                             then '10 seconds' else '* * * * *' end,
                        'select plaudit.ring_worker()');
end
$$;
set role plaudit_owner;
