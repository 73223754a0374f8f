-- CDN purges: the purge outbox. Whatever changes what the public sees writes a pending purge of
-- its organization in the same transaction (the triggers of 20261127090102_cdn_purge_triggers),
-- so a purge exists if and only if its change committed; the worker's purge lane claims them,
-- sends them to every configured CDN and records the outcome (docs/scaling.md).
set role plaudit_owner;

-- At most one pending purge per organization: changes coalesce into it until the worker claims
-- it (status 'sending'); a change after the claim makes a new pending one, sent after it.
-- No foreign key to organizations: a deleted organization's pages must be purged too, after the
-- row that named it is gone.
create table plaudit.cdn_purges (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null,
  -- Also purge the sitemaps (their own key): the organization's page moved, came or went.
  include_sitemap boolean not null default false,
  status text not null default 'pending'
    check (status in ('pending', 'sending', 'retrying', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  claim_token uuid,
  -- The primary's WAL position when the worker claimed it: replicas must have replayed this far
  -- before the purge goes out, or a CDN could refill from a replica that still shows the old data.
  claimed_lsn pg_lsn,
  last_error text check (char_length(last_error) <= 1000),
  sent_at timestamptz,
  created_at timestamptz not null default now()
);
comment on table plaudit.cdn_purges is 'The CDN purge outbox: one pending purge per organization, written in the transaction of the public change, sent by the worker.';

create unique index cdn_purges_one_pending on plaudit.cdn_purges (org_id) where status = 'pending';
create index cdn_purges_due on plaudit.cdn_purges (next_attempt_at) where status in ('pending', 'sending', 'retrying');
create index cdn_purges_org_id_created_at on plaudit.cdn_purges (org_id, created_at desc);

-- Only the worker's and the triggers' SECURITY DEFINER functions touch it; tenants see nothing.
alter table plaudit.cdn_purges enable row level security;

revoke execute on all functions in schema plaudit from public;
reset role;
