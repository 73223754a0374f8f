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

-- Whether a change alters what the sitemaps list (plaudit.public_sitemap: every enabled profile's
-- page, its review policy page, its catalog page and each listed product's page, by slug): a page
-- that comes, goes or moves. An organization created (listed by default), renamed or deleted, a
-- profile setting (it switches the pages on or off), a product added, removed, archived or
-- restored, or given another external id; a review of an archived product, which is listed while it
-- has public reviews of its own. Anything else (a review, a reply, a product's name or image)
-- leaves the sitemaps as they are: their keys are not purged with it, so a busy business does not
-- empty them with every review. PL/pgSQL, whose session keeps the plan of the one lookup: as an SQL
-- function with a search_path (never inlined) its CASE was parsed and planned at every public change,
-- ~0.7 ms of each submission (docs/benchmarks.md, "Submissions keep their plans").
create or replace function plaudit.cdn_change_alters_sitemap(
  p_table text, p_op text, p_old jsonb, p_new jsonb
)
returns boolean
language plpgsql
stable
set search_path = pg_catalog, pg_temp
as $$
begin
  case p_table
    when 'organizations' then
      return true; -- its update trigger fires for the slug, name and website alone
    when 'public_profiles' then
      return true;
    when 'products' then
      return p_op <> 'UPDATE'
        or (p_old ->> 'external_id', p_old ->> 'archived') is distinct from (p_new ->> 'external_id', p_new ->> 'archived');
    when 'reviews' then
      -- A review of the business names no product: answered before the lookup, whose custom plan
      -- would otherwise be cheaper than the kept one.
      if p_old ->> 'product_id' is null and p_new ->> 'product_id' is null then
        return false;
      end if;
      return exists (select from plaudit.products p
                      where p.id in ((p_old ->> 'product_id')::uuid, (p_new ->> 'product_id')::uuid) and p.archived);
    else
      return false;
  end case;
end
$$;
comment on function plaudit.cdn_change_alters_sitemap(text,text,jsonb,jsonb) is 'Whether a public change adds, removes or moves a page the sitemaps list, so that its purge names the sitemaps too.';

-- The trigger behind every public change (its triggers say which changes): the organization is
-- the row's org_id, or its id on plaudit.organizations; the sitemaps are purged with it when the
-- change alters what they list.
create or replace function plaudit.cdn_purge_on_change()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  o jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) end;
  n jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) end;
  r jsonb := coalesce(n, o);
begin
  perform plaudit.request_cdn_purge(
    case when tg_table_name = 'organizations' then r ->> 'id' else r ->> 'org_id' end::uuid,
    plaudit.cdn_change_alters_sitemap(tg_table_name, tg_op, o, n));
  return null;
end
$$;
comment on function plaudit.cdn_purge_on_change() is 'Asks for a CDN purge of the changed row''s organization, and of the sitemaps when the change alters what they list.';

-- Claims the due purges, up to p_limit, with a lease: pending ones, retries whose time has come
-- (or whose organization has a pending purge, which covers them), and claims whose lease ran out
-- (a worker died). All due purges of an organization come in the
-- same claim, so that the lane sends one purge per organization. An organization whose purge is
-- in flight (claimed, its lease running) is skipped: what arrived meanwhile waits, coalesced into
-- one pending purge, for the flight to end, so one organization has one purge in flight across
-- every worker. Claims take turns (a transaction-scoped advisory lock), so two workers never see
-- the same organization free at once. Each claim notes the primary's WAL position, past the commit
-- of every change it announces, which replicas must replay before the purge goes out.
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
begin
  perform pg_advisory_xact_lock(hashtext('plaudit.claim_cdn_purges'));
  return query
  with due as (
    select c.id from plaudit.cdn_purges c
     where c.status in ('pending', 'sending', 'retrying')
       and (c.next_attempt_at <= now_ts
            -- A retry rides along with its organization's pending purge: one request covers both.
            or (c.status = 'retrying' and exists (select from plaudit.cdn_purges p
                                                   where p.org_id = c.org_id and p.status = 'pending'
                                                     and p.next_attempt_at <= now_ts)))
       and (c.locked_until is null or c.locked_until <= now_ts)
       and (p_org_ids is null or c.org_id = any (p_org_ids))
       and not exists (select from plaudit.cdn_purges f
                        where f.org_id = c.org_id and f.status = 'sending' and f.locked_until > now_ts)
     order by c.next_attempt_at
     limit p_limit
     for update skip locked
  ), claimed as (
    update plaudit.cdn_purges c
       -- Read once, after this statement's snapshot: past the commit of every change it claims.
       set status = 'sending', attempts = c.attempts + 1, claim_token = token,
           claimed_lsn = (select pg_current_wal_insert_lsn()),
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

-- Raises the replicas' read floor to p_lsn (never lowers it) and answers the floor: the purge
-- lane's move when a replica that serves reads has not replayed a purge's change within the
-- bound. A replica behind the floor serves no read (core/db/replicas.ts) until it has replayed it.
create or replace function plaudit.raise_replica_read_floor(p_lsn pg_lsn)
returns pg_lsn
language sql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
  insert into plaudit.replica_read_floor as f (lsn) values (p_lsn)
  on conflict (id) do update set lsn = greatest(f.lsn, excluded.lsn), raised_at = now()
  returning f.lsn
$$;
comment on function plaudit.raise_replica_read_floor(pg_lsn) is 'Raises the WAL position read replicas must have replayed to serve reads; answers it.';
grant execute on function plaudit.raise_replica_read_floor(pg_lsn) to plaudit_worker;

-- The replicas' read floor, null until first raised: read by every process that routes reads
-- with each check of its replicas, as the login (no tenant, no role switch).
create or replace function plaudit.current_replica_read_floor()
returns pg_lsn
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select f.lsn from plaudit.replica_read_floor f
$$;
comment on function plaudit.current_replica_read_floor() is 'The WAL position read replicas must have replayed to serve reads, or null.';
grant execute on function plaudit.current_replica_read_floor() to plaudit_authenticator;

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
-- A new organization's profile page is listed in the sitemaps at once (profiles are on by default).
create trigger organizations_purge_cdn_on_insert
  after insert on plaudit.organizations
  for each row execute function plaudit.cdn_purge_on_change();

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

-- A helpful vote (only plaudit.vote_helpful changes helpful_count) asks for its purge itself,
-- without the rows' JSON this trigger's function builds.
create trigger reviews_purge_cdn_on_update
  after update on plaudit.reviews
  for each row when ((plaudit.review_is_public(old.is_hidden, old.verification_status)
                      or plaudit.review_is_public(new.is_hidden, new.verification_status))
                     and old.helpful_count is not distinct from new.helpful_count)
  execute function plaudit.cdn_purge_on_change();

-- The transparency page shows the year's DSA figures (dsa_transparency.sql): a notice received or
-- decided, a statement of reasons written, an appeal lodged or decided changes them.
create trigger review_reports_purge_cdn
  after insert or update of status, decision, resolved_at on plaudit.review_reports
  for each row execute function plaudit.cdn_purge_on_change();

create trigger review_statements_purge_cdn
  after insert on plaudit.review_statements
  for each row execute function plaudit.cdn_purge_on_change();

create trigger review_appeals_purge_cdn
  after insert or update of status, decided_at on plaudit.review_appeals
  for each row execute function plaudit.cdn_purge_on_change();
