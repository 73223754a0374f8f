-- The read floor of the replicas: the WAL position every hot standby must have replayed to serve
-- the public's reads. The worker's purge lane raises it when a replica did not replay a purge's
-- change in time, so that the replica leaves the reads before the CDN refills from it
-- (docs/scaling.md, "A purge waits for the replicas"); each API process reads it with each check
-- of its replicas. One row, which only rises.
create table plaudit.replica_read_floor (
  id boolean primary key default true check (id),
  lsn pg_lsn not null,
  raised_at timestamptz not null default now()
);
comment on table plaudit.replica_read_floor is 'The WAL position a read replica must have replayed to serve reads; raised by the CDN purge lane when a replica falls behind a purge.';
alter table plaudit.replica_read_floor enable row level security;
