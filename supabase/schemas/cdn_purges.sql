-- CDN purges: a public change asks for its organization's purge in its own transaction; the
-- worker claims the purges, sends them to the configured CDNs and records each attempt.

-- Asks for a purge of an organization's public answers, in the caller's transaction: the purge
-- exists if and only if the change commits. Coalesced: while a pending purge of the organization
-- exists (committed, or being written by another transaction, which this one then waits for),
-- nothing more is written, so a burst of changes costs one purge and hot rows are only read.
create or replace function plaudit.request_cdn_purge(p_org_id uuid, p_include_sitemap boolean default false)
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  if exists (select from plaudit.cdn_purges c
              where c.org_id = p_org_id and c.status = 'pending' and (c.include_sitemap or not p_include_sitemap)) then
    return;
  end if;
  if p_include_sitemap then
    insert into plaudit.cdn_purges (org_id, include_sitemap) values (p_org_id, true)
    on conflict (org_id) where status = 'pending' do update set include_sitemap = true;
  else
    insert into plaudit.cdn_purges (org_id) values (p_org_id)
    on conflict (org_id) where status = 'pending' do nothing;
  end if;
  perform pg_notify('plaudit_outbox', 'purge');
end
$$;
comment on function plaudit.request_cdn_purge(uuid,boolean) is 'Writes a pending CDN purge of an organization in the caller''s transaction, unless one is pending already.';

-- The trigger behind every public change (its triggers say which changes): the organization is
-- the row's org_id, or its id on plaudit.organizations; a change to the organization or its
-- public profile also purges the sitemaps, which list the profile pages.
create or replace function plaudit.cdn_purge_on_change()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  r jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
begin
  perform plaudit.request_cdn_purge(
    case when tg_table_name = 'organizations' then r ->> 'id' else r ->> 'org_id' end::uuid,
    tg_table_name in ('organizations', 'public_profiles'));
  return null;
end
$$;
comment on function plaudit.cdn_purge_on_change() is 'Asks for a CDN purge of the changed row''s organization (and of the sitemaps for an organization or profile change).';

-- Claims the due purges, up to p_limit, with a lease: pending ones, retries whose time has come,
-- and claims whose lease ran out (a worker died). All due purges of an organization come in the
-- same claim, so that the lane sends one purge per organization. Each claim notes the primary's
-- WAL position, which replicas must reach before the purge goes out.
create or replace function plaudit.claim_cdn_purges(
  p_limit integer default 100,
  p_lease_seconds integer default 60,
  p_org_ids uuid[] default null
)
returns table (id uuid, claim_token uuid, org_id uuid, include_sitemap boolean, attempt integer, claimed_lsn pg_lsn)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
  now_ts timestamptz := clock_timestamp();
  token uuid := gen_random_uuid();
  lsn pg_lsn := pg_current_wal_lsn();
begin
  return query
  with due as (
    select c.id from plaudit.cdn_purges c
     where c.status in ('pending', 'sending', 'retrying') and c.next_attempt_at <= now_ts
       and (c.locked_until is null or c.locked_until <= now_ts)
       and (p_org_ids is null or c.org_id = any (p_org_ids))
     order by c.next_attempt_at
     limit p_limit
     for update skip locked
  ), claimed as (
    update plaudit.cdn_purges c
       set status = 'sending', attempts = c.attempts + 1, claim_token = token, claimed_lsn = lsn,
           locked_until = now_ts + make_interval(secs => p_lease_seconds)
      from due where c.id = due.id
    returning c.id, c.claim_token, c.org_id, c.include_sitemap, c.attempts, c.claimed_lsn
  )
  select * from claimed;
end
$$;
comment on function plaudit.claim_cdn_purges(integer,integer,uuid[]) is 'Claims up to p_limit due CDN purges under a lease, noting the primary''s WAL position.';
grant execute on function plaudit.claim_cdn_purges(integer,integer,uuid[]) to plaudit_worker;

-- Records the send of an organization's purges of one claim: sent, retried after p_retry_in_ms,
-- or failed for good (p_retry_in_ms null). A claim whose lease was taken over records nothing.
create or replace function plaudit.record_cdn_purge(
  p_claim_token uuid, p_org_id uuid, p_sent boolean, p_error text, p_retry_in_ms bigint
)
returns text
language sql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
  with recorded as (
    update plaudit.cdn_purges c
       set status = case when p_sent then 'sent' when p_retry_in_ms is null then 'failed' else 'retrying' end,
           sent_at = case when p_sent then now() end,
           last_error = case when p_sent then null else left(p_error, 1000) end,
           next_attempt_at = case when p_sent or p_retry_in_ms is null then c.next_attempt_at
                                  else now() + make_interval(secs => p_retry_in_ms / 1000.0) end,
           locked_until = null, claim_token = null
     where c.claim_token = p_claim_token and c.org_id = p_org_id and c.status = 'sending'
    returning c.status
  )
  select coalesce(min(status), 'stale') from recorded
$$;
comment on function plaudit.record_cdn_purge(uuid,uuid,boolean,text,bigint) is 'Records the outcome of an organization''s claimed CDN purges: sent, retrying or failed; answers the status.';
grant execute on function plaudit.record_cdn_purge(uuid,uuid,boolean,text,bigint) to plaudit_worker;

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger organizations_purge_cdn_on_delete
  after delete on plaudit.organizations
  for each row execute function plaudit.cdn_purge_on_change();

create trigger organizations_purge_cdn_on_update
  after update on plaudit.organizations
  for each row when ((old.name, old.slug, old.website) is distinct from (new.name, new.slug, new.website))
  execute function plaudit.cdn_purge_on_change();

create trigger products_purge_cdn
  after insert or update or delete on plaudit.products
  for each row execute function plaudit.cdn_purge_on_change();

create trigger public_profiles_purge_cdn
  after insert or update or delete on plaudit.public_profiles
  for each row execute function plaudit.cdn_purge_on_change();

-- A visible item coming, going or changing changes the public pages (docs/scaling.md).
create trigger review_media_purge_cdn
  after insert or update or delete on plaudit.review_media
  for each row execute function plaudit.cdn_purge_on_change();

create trigger review_replies_purge_cdn
  after insert or update or delete on plaudit.review_replies
  for each row execute function plaudit.cdn_purge_on_change();

create trigger reviews_purge_cdn_on_insert after insert on plaudit.reviews
  for each row when (plaudit.review_is_public(new.is_hidden, new.verification_status) and new.source <> 'import')
  execute function plaudit.cdn_purge_on_change();

create trigger reviews_purge_cdn_on_update
  after update on plaudit.reviews
  for each row when (plaudit.review_is_public(old.is_hidden, old.verification_status)
                     or plaudit.review_is_public(new.is_hidden, new.verification_status))
  execute function plaudit.cdn_purge_on_change();
