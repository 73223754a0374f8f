-- Per-organization review statistics, kept by triggers in the transaction of each change, so
-- that nothing ever counts reviews per request:
--   total_count   every review (meta.total of an unfiltered review list);
--   public_count, rating_sum, rating_1 … rating_5   the publicly visible reviews (not hidden,
--                 status verified or unverified): average, count and distribution;
--   version       bumped whenever the publicly visible set changes (ETags of public responses).
-- An organization's statistics are spread over up to 16 slot rows, each transaction writing the
-- slot of its backend, so concurrent submissions do not queue on one row lock. Readers sum the
-- slots (at most 16 rows through the primary key).
create table plaudit.review_statistics (
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  slot smallint not null check (slot between 0 and 15),
  total_count bigint not null default 0,
  public_count bigint not null default 0,
  rating_sum bigint not null default 0,
  rating_1 bigint not null default 0,
  rating_2 bigint not null default 0,
  rating_3 bigint not null default 0,
  rating_4 bigint not null default 0,
  rating_5 bigint not null default 0,
  version bigint not null default 0,
  updated_at timestamptz not null default now(),
  primary key (org_id, slot)
);

alter table plaudit.review_statistics enable row level security;

create policy "Tenants can read their own review statistics"
  on plaudit.review_statistics for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- Written by the triggers below only.
grant select on plaudit.review_statistics to plaudit_api;

create function plaudit.review_is_public(p_is_hidden boolean, p_status text)
returns boolean
language sql
immutable
set search_path = ''
as $$ select not p_is_hidden and p_status in ('verified', 'unverified') $$;

-- Adds signed deltas, one row per organization, in organization order (so two multi-tenant
-- statements cannot deadlock), to this backend's slot.
create function plaudit.add_review_statistics(p_deltas jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into plaudit.review_statistics as s
    (org_id, slot, total_count, public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5, version)
  select d.org_id, pg_backend_pid() % 16, d.total_count, d.public_count, d.rating_sum,
         d.rating_1, d.rating_2, d.rating_3, d.rating_4, d.rating_5, d.version
  from jsonb_to_recordset(p_deltas) as d(
    org_id uuid, total_count bigint, public_count bigint, rating_sum bigint, rating_1 bigint,
    rating_2 bigint, rating_3 bigint, rating_4 bigint, rating_5 bigint, version bigint)
  order by d.org_id
  on conflict (org_id, slot) do update set
    total_count = s.total_count + excluded.total_count,
    public_count = s.public_count + excluded.public_count,
    rating_sum = s.rating_sum + excluded.rating_sum,
    rating_1 = s.rating_1 + excluded.rating_1,
    rating_2 = s.rating_2 + excluded.rating_2,
    rating_3 = s.rating_3 + excluded.rating_3,
    rating_4 = s.rating_4 + excluded.rating_4,
    rating_5 = s.rating_5 + excluded.rating_5,
    version = s.version + excluded.version,
    updated_at = now();
end
$$;

create function plaudit.reviews_count_inserted()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  deltas jsonb;
begin
  select jsonb_agg(d) into deltas from (
    select n.org_id,
           count(*) as total_count,
           count(*) filter (where p) as public_count,
           coalesce(sum(n.rating) filter (where p), 0) as rating_sum,
           count(*) filter (where p and n.rating = 1) as rating_1,
           count(*) filter (where p and n.rating = 2) as rating_2,
           count(*) filter (where p and n.rating = 3) as rating_3,
           count(*) filter (where p and n.rating = 4) as rating_4,
           count(*) filter (where p and n.rating = 5) as rating_5,
           case when bool_or(p) then 1 else 0 end as version
    from (select r.*, plaudit.review_is_public(r.is_hidden, r.verification_status) as p from new_reviews r) n
    group by n.org_id
  ) d;
  if deltas is not null then
    perform plaudit.add_review_statistics(deltas);
  end if;
  return null;
end
$$;

-- Ratings never change, so an update matters only when it moves a review in or out of public view.
create function plaudit.reviews_count_updated()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  deltas jsonb;
begin
  select jsonb_agg(d) into deltas from (
    select c.org_id,
           0 as total_count,
           sum(c.sign) as public_count,
           sum(c.sign * c.rating) as rating_sum,
           coalesce(sum(c.sign) filter (where c.rating = 1), 0) as rating_1,
           coalesce(sum(c.sign) filter (where c.rating = 2), 0) as rating_2,
           coalesce(sum(c.sign) filter (where c.rating = 3), 0) as rating_3,
           coalesce(sum(c.sign) filter (where c.rating = 4), 0) as rating_4,
           coalesce(sum(c.sign) filter (where c.rating = 5), 0) as rating_5,
           1 as version
    from (
      select n.org_id, n.rating,
             case when plaudit.review_is_public(n.is_hidden, n.verification_status) then 1 else -1 end as sign
      from new_reviews n join old_reviews o on o.id = n.id
      where plaudit.review_is_public(n.is_hidden, n.verification_status)
            <> plaudit.review_is_public(o.is_hidden, o.verification_status)
    ) c
    group by c.org_id
  ) d;
  if deltas is not null then
    perform plaudit.add_review_statistics(deltas);
  end if;
  return null;
end
$$;

create trigger reviews_count_inserted
  after insert on plaudit.reviews
  referencing new table as new_reviews
  for each statement execute function plaudit.reviews_count_inserted();

create trigger reviews_count_updated
  after update on plaudit.reviews
  referencing old table as old_reviews new table as new_reviews
  for each statement execute function plaudit.reviews_count_updated();

-- Recounts an organization from its reviews (after a bulk load with triggers disabled, or to
-- check the counters): one slot row with the true figures, version moved past every earlier one.
create function plaudit.rebuild_review_statistics(p_org_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  old_version bigint;
begin
  perform 1 from plaudit.organizations where id = p_org_id for update;
  select coalesce(sum(version), 0) into old_version from plaudit.review_statistics where org_id = p_org_id;
  delete from plaudit.review_statistics where org_id = p_org_id;
  insert into plaudit.review_statistics
    (org_id, slot, total_count, public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5, version)
  select p_org_id, 0, count(*),
         count(*) filter (where p), coalesce(sum(rating) filter (where p), 0),
         count(*) filter (where p and rating = 1), count(*) filter (where p and rating = 2),
         count(*) filter (where p and rating = 3), count(*) filter (where p and rating = 4),
         count(*) filter (where p and rating = 5), old_version + 1
  from (select rating, plaudit.review_is_public(is_hidden, verification_status) as p
        from plaudit.reviews where org_id = p_org_id) r;
end
$$;

revoke execute on function plaudit.review_is_public(boolean, text), plaudit.add_review_statistics(jsonb),
  plaudit.reviews_count_inserted(), plaudit.reviews_count_updated(),
  plaudit.rebuild_review_statistics(uuid) from public;
