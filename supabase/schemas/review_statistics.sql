-- Review statistics: the counters of public reviews per organization, kept by triggers, and their rebuild.

-- Whether a review shows in public, the one definition of it: the public projection
-- (plaudit.public_reviews), the public feeds' index walks and counts, the Google feed, the
-- transparency report, the shoppers' signals, the statistics triggers and their recounts, and the
-- CDN purge triggers' WHEN clauses all call it. A plain expression of its arguments, which the
-- planner inlines where it is called (hence no SET clause, and it names nothing): a query that
-- calls it still matches the partial indexes whose predicate writes the rule out
-- (reviews_public_business_feed and its siblings), and costs no call per review. The API's tenant
-- evaluates it itself, in those WHEN clauses, when it moderates or verifies a review.
create or replace function plaudit.review_is_public(p_is_hidden boolean, p_status text)
returns boolean
language sql
immutable
parallel safe
as $$ select not p_is_hidden and p_status in ('verified', 'unverified') $$;
comment on function plaudit.review_is_public(boolean,text) is 'True when a review shows in public: not hidden, and verified or unverified. Inlined where it is called.';
grant execute on function plaudit.review_is_public(boolean,text) to plaudit_api;

-- Adds signed deltas, one row per organization, in organization order (so two multi-tenant
-- statements cannot deadlock), to this backend's slot.
create or replace function plaudit.add_review_statistics(p_deltas jsonb)
returns void
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
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
comment on function plaudit.add_review_statistics(jsonb) is 'Adds signed deltas to this backend''s slot of the review statistics, one row per organization, in organization order.';

-- A delta of the review statistics that moves an organization's public version and counts nothing.
create or replace function plaudit.public_version_delta(p_org_id uuid)
returns jsonb
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select jsonb_build_object('org_id', p_org_id, 'total_count', 0, 'public_count', 0, 'rating_sum', 0, 'rating_1', 0,
                            'rating_2', 0, 'rating_3', 0, 'rating_4', 0, 'rating_5', 0, 'version', 1)
$$;
comment on function plaudit.public_version_delta(uuid) is 'A review statistics delta that moves an organization''s public version and counts nothing.';

-- Statement-level, over the inserted rows: one statistics write per organization and statement,
-- however many reviews it inserts; the version moves only when a public review arrives. The
-- business's public figures count reviews of the business only (total_count counts every review,
-- for the organization's own list); a product's public reviews go to its own counters.
create or replace function plaudit.reviews_count_inserted()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  deltas jsonb;
  product_deltas jsonb;
  answer_deltas jsonb;
begin
  select jsonb_agg(d) into deltas from (
    select n.org_id,
           count(*) as total_count,
           count(*) filter (where b) as public_count,
           coalesce(sum(n.rating) filter (where b), 0) as rating_sum,
           count(*) filter (where b and n.rating = 1) as rating_1,
           count(*) filter (where b and n.rating = 2) as rating_2,
           count(*) filter (where b and n.rating = 3) as rating_3,
           count(*) filter (where b and n.rating = 4) as rating_4,
           count(*) filter (where b and n.rating = 5) as rating_5,
           case when bool_or(p) then 1 else 0 end as version
    from (select r.*, plaudit.review_is_public(r.is_hidden, r.verification_status) as p,
                 plaudit.review_is_public(r.is_hidden, r.verification_status) and r.product_id is null as b
          from new_reviews r) n
    group by n.org_id
  ) d;
  if deltas is not null then
    perform plaudit.add_review_statistics(deltas);
  end if;
  select jsonb_agg(d) into product_deltas from (
    select n.product_id, n.org_id, count(*) as public_count, sum(n.rating) as rating_sum,
           count(*) filter (where n.rating = 1) as rating_1, count(*) filter (where n.rating = 2) as rating_2,
           count(*) filter (where n.rating = 3) as rating_3, count(*) filter (where n.rating = 4) as rating_4,
           count(*) filter (where n.rating = 5) as rating_5
    from new_reviews n
    where n.product_id is not null and plaudit.review_is_public(n.is_hidden, n.verification_status)
    group by n.product_id, n.org_id
  ) d;
  if product_deltas is not null then
    perform plaudit.add_product_review_statistics(product_deltas);
  end if;
  -- The public answers of scale and rating fields (plaudit.attribute_statistics).
  answer_deltas := plaudit.attribute_deltas((
    select jsonb_agg(jsonb_build_object('org_id', n.org_id, 'product_id', n.product_id,
                                        'attributes', n.attributes, 'sign', 1))
      from new_reviews n
     where n.attributes <> '{}' and plaudit.review_is_public(n.is_hidden, n.verification_status)));
  if answer_deltas is not null then
    perform plaudit.add_attribute_statistics(answer_deltas);
  end if;
  return null;
end
$$;
comment on function plaudit.reviews_count_inserted() is 'The review statistics count every review an insert statement makes, in its transaction.';

-- Ratings and public answers never change, so an update matters only when it moves a review in
-- or out of public view: the business's figures follow reviews of the business, a product's its own; the
-- organization's version moves for both (its public answers show both).
create or replace function plaudit.reviews_count_updated()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  deltas jsonb;
  product_deltas jsonb;
  answer_deltas jsonb;
begin
  with c as (
    select n.org_id, n.product_id, n.rating, n.attributes,
           case when plaudit.review_is_public(n.is_hidden, n.verification_status) then 1 else -1 end as sign
    from new_reviews n join old_reviews o on o.id = n.id
    where plaudit.review_is_public(n.is_hidden, n.verification_status)
          <> plaudit.review_is_public(o.is_hidden, o.verification_status)
  )
  select
    (select jsonb_agg(d) from (
       select c.org_id,
              0 as total_count,
              coalesce(sum(c.sign) filter (where c.product_id is null), 0) as public_count,
              coalesce(sum(c.sign * c.rating) filter (where c.product_id is null), 0) as rating_sum,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 1), 0) as rating_1,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 2), 0) as rating_2,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 3), 0) as rating_3,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 4), 0) as rating_4,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 5), 0) as rating_5,
              1 as version
       from c group by c.org_id) d),
    (select jsonb_agg(d) from (
       select c.product_id, c.org_id, sum(c.sign) as public_count, sum(c.sign * c.rating) as rating_sum,
              coalesce(sum(c.sign) filter (where c.rating = 1), 0) as rating_1,
              coalesce(sum(c.sign) filter (where c.rating = 2), 0) as rating_2,
              coalesce(sum(c.sign) filter (where c.rating = 3), 0) as rating_3,
              coalesce(sum(c.sign) filter (where c.rating = 4), 0) as rating_4,
              coalesce(sum(c.sign) filter (where c.rating = 5), 0) as rating_5
       from c where c.product_id is not null group by c.product_id, c.org_id) d),
    plaudit.attribute_deltas((
      select jsonb_agg(jsonb_build_object('org_id', c.org_id, 'product_id', c.product_id,
                                          'attributes', c.attributes, 'sign', c.sign))
        from c where c.attributes <> '{}'))
    into deltas, product_deltas, answer_deltas;
  if deltas is not null then
    perform plaudit.add_review_statistics(deltas);
  end if;
  if product_deltas is not null then
    perform plaudit.add_product_review_statistics(product_deltas);
  end if;
  if answer_deltas is not null then
    perform plaudit.add_attribute_statistics(answer_deltas);
  end if;
  return null;
end
$$;
comment on function plaudit.reviews_count_updated() is 'The review statistics follow every update that moves a review in or out of public view.';

-- Recounts an organization from its reviews (after a bulk load with triggers disabled, or to
-- check the counters): one slot row with the true figures, version moved past every earlier one.
-- Its public figures are the business's (reviews of products: rebuild_product_review_statistics).
create or replace function plaudit.rebuild_review_statistics(p_org_id uuid)
returns void
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
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
  from (select rating, plaudit.review_is_public(is_hidden, verification_status) and product_id is null as p
        from plaudit.reviews where org_id = p_org_id) r;
end
$$;
comment on function plaudit.rebuild_review_statistics(uuid) is 'Recounts an organization''s review statistics from its reviews, into one slot with a version past every earlier one.';

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger reviews_count_inserted
  after insert on plaudit.reviews
  referencing new table as new_reviews
  for each statement execute function plaudit.reviews_count_inserted();

create trigger reviews_count_updated
  after update on plaudit.reviews
  referencing old table as old_reviews new table as new_reviews
  for each statement execute function plaudit.reviews_count_updated();
