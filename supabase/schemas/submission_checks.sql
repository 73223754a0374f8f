-- The checks a submission passes before it is stored (docs/compliance.md, "Review bombing and
-- duplicates"): the subject it counts towards, its text's sketch and its order's hash, computed
-- once; whether it is held (an open hold on its subject, a reused order, a duplicate text); and
-- its arrival, kept for the burst detection (review_holds.sql) and later duplicate checks.

-- The subject a review of this product counts towards: the product's group, the product, or the
-- business itself for a review of no product. PL/pgSQL, as plaudit.text_sketch; the business
-- answered before the lookup, whose custom plan a null product made cheaper than the kept one.
create or replace function plaudit.review_subject(p_product_id uuid)
returns text
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  if p_product_id is null then
    return 'business';
  end if;
  return coalesce((select coalesce('group:' || p.group_key, 'product:' || p.id)
                     from plaudit.products p where p.id = p_product_id), 'business');
end
$$;
comment on function plaudit.review_subject(uuid) is 'The burst subject of a review of this product: its group, the product, or the business for none.';

-- A text's sketch for the duplicate check's lookup: its lowercased words (letters and digits),
-- taken three at a time (shingles; the whole text when it has fewer), each hashed, and the 8
-- smallest hashes kept (a bottom-k sketch). Texts that are nearly the same share most of their
-- shingles, so most of their smallest hashes: kept with each submission's arrival, GIN-indexed,
-- they find the candidates sharing two hashes or more, where a trigram index walked the posting
-- lists of the commonest letters (docs/benchmarks.md). PL/pgSQL, so a session keeps its plan: an SQL
-- function with a search_path is never inlined, and was parsed and planned in every submission.
create or replace function plaudit.text_sketch(p_text text)
returns bigint[]
language plpgsql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$
begin
  return (
    with words as (
      select w, n from regexp_split_to_table(lower(coalesce(p_text, '')), '[^[:alnum:]]+') with ordinality as t(w, n)
       where w <> ''
    ), shingles as (
      select concat_ws(' ', w, lead(w, 1) over o, lead(w, 2) over o) as s, lead(w, 2) over o is not null as whole,
             n, count(*) over () as total
        from words window o as (order by n)
    )
    select coalesce(array_agg(h order by h), '{}') from (
      select distinct hashtextextended(s, 0) as h from shingles where whole or (total < 3 and n = 1) order by h limit 8) x);
end
$$;
comment on function plaudit.text_sketch(text) is 'A text''s bottom-8 sketch: the smallest hashes of its three-word shingles, lowercased; what the duplicate check looks reviews up by.';

-- Why a submission is held, decided before it is stored (the first that applies): an open hold
-- on its subject (`burst`); an order id that already has a review of the same product
-- (`order_reused`); a text of 60 characters or more that is the same as, or at least 90 % alike
-- to, another review of the organization in the last 90 days (`duplicate_text`). Alike is
-- pg_trgm's similarity: the share of the two texts' three-letter pieces (lowercased words) that
-- they have in common, 1 for the same words. The candidates are the submissions whose sketch
-- (plaudit.text_sketch) shares two hashes or more with this text's; the similarity keeps those at
-- 0.9 or more. Reviews imported, or stored before the check existed, have no sketch: not compared.
-- One row, reason null when it is not held, with what the checks worked out for the arrival
-- (plaudit.record_submission): its subject, order hash and sketch, each worked out once.
-- Its statements keep their plans for the session: plaudit.submit_review, its one caller, runs with
-- plan_cache_mode = auto (under the login's force_custom_plan they were planned at every
-- submission, more than they ran: docs/benchmarks.md, "Review bombing holds and duplicates").
create or replace function plaudit.submission_hold(
  p_org_id uuid, p_product_id uuid, p_content text, p_order_id text
)
returns table (reason text, hold_id uuid, duplicate_of uuid, similarity real, subject text, order_hash text,
               sketch bigint[])
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  v_order_forms text[];
begin
  subject := plaudit.review_subject(p_product_id);
  order_hash := plaudit.submitted_order_hash(p_org_id, p_order_id);
  if char_length(p_content) >= 60 then
    sketch := plaudit.text_sketch(p_content);
  end if;
  select 'burst', h.id into reason, hold_id from plaudit.review_holds h
   where h.org_id = p_org_id and h.subject = submission_hold.subject and h.released_at is null;
  if reason is null and order_hash is not null then
    -- Worked out once, before the lookup (the planner would otherwise run them row by row).
    v_order_forms := array(select plaudit.order_hash(p_org_id, o) from unnest(plaudit.order_id_forms(p_order_id)) o);
    select 'order_reused', x.review_id into reason, duplicate_of
      from (select a.review_id, a.created_at from plaudit.review_arrivals a
             where a.org_id = p_org_id and a.order_hash = submission_hold.order_hash
               and a.product_id is not distinct from p_product_id
            union all
            select r.id, r.created_at from plaudit.reviews r
             where r.org_id = p_org_id and r.verification_order_hash = any (v_order_forms)
               and r.product_id is not distinct from p_product_id) x
     order by x.created_at limit 1;
  end if;
  if reason is null and sketch is not null then
    with candidates as materialized (
      select a.review_id from plaudit.review_arrivals a
       where a.sketch && submission_hold.sketch and a.org_id = p_org_id and a.created_at > now() - interval '90 days'
         and cardinality(array(select unnest(a.sketch) intersect select unnest(submission_hold.sketch)))
             >= least(2, cardinality(submission_hold.sketch))
    )
    select 'duplicate_text', r.id, extensions.similarity(r.content, p_content) into reason, duplicate_of, similarity
      from candidates c join plaudit.reviews r on r.id = c.review_id
     where extensions.similarity(r.content, p_content) >= 0.9
     order by extensions.similarity(r.content, p_content) desc, r.created_at limit 1;
  end if;
  return next;
end
$$;
comment on function plaudit.submission_hold(uuid,uuid,text,text) is 'Why a submission is held (a burst''s hold, a reused order, a 90 % alike text; null: not), with its arrival''s subject, order hash and sketch.';

-- The order id a submission names, as the duplicate check keeps it: hashed with the
-- organization's secret as purchase proof does, without the `#` shops put before their numbers.
-- PL/pgSQL, as plaudit.text_sketch: worked out in every submission.
create or replace function plaudit.submitted_order_hash(p_org_id uuid, p_order_id text)
returns text
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  return case when nullif(ltrim(btrim(p_order_id), '#'), '') is not null
              then plaudit.order_hash(p_org_id, ltrim(btrim(p_order_id), '#')) end;
end
$$;
comment on function plaudit.submitted_order_hash(uuid,text) is 'The hash a submission''s order id is kept as for the reused-order check, without a leading #; null for none.';

-- What a stored submission leaves: its arrival for the burst and order checks (with the subject,
-- order hash and sketch plaudit.submission_hold worked out), and, when held, the held row and the
-- trail's `hold` with the reason. Plans kept for the session, as submission_hold's (its caller's mode).
create or replace function plaudit.record_submission(
  p_review plaudit.reviews, p_client_key bytea, p_subject text, p_order_hash text, p_sketch bigint[],
  p_reason text, p_hold_id uuid, p_duplicate_of uuid, p_similarity real
)
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  insert into plaudit.review_arrivals
    (review_id, org_id, subject, rating, client_key, product_id, order_hash, created_at, sketch)
  values (p_review.id, p_review.org_id, p_subject, p_review.rating, p_client_key, p_review.product_id, p_order_hash,
          p_review.created_at, p_sketch);
  if p_reason is null then
    return;
  end if;
  insert into plaudit.held_reviews (review_id, org_id, reason, hold_id, duplicate_of, similarity)
  values (p_review.id, p_review.org_id, p_reason, p_hold_id, p_duplicate_of, p_similarity);
  perform plaudit.append_moderation_entry(p_review.org_id, p_review.id, 'hold',
    plaudit.held_reason_text(p_reason, p_hold_id, p_duplicate_of, p_similarity), 'system:submission_checks');
end
$$;
comment on function plaudit.record_submission(plaudit.reviews,bytea,text,text,bigint[],text,uuid,uuid,real) is 'Records a stored submission''s arrival and, when held, its held row and the trail''s hold entry.';

-- The words of a hold's reason, for the trail and the review's pending reason.
create or replace function plaudit.held_reason_text(p_reason text, p_hold_id uuid, p_duplicate_of uuid, p_similarity real)
returns text
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select case p_reason
    when 'burst' then 'burst: held while hold ' || p_hold_id || ' checks an unusual number of recent one- and two-star reviews'
    when 'order_reused' then 'order_reused: the order id already has review ' || p_duplicate_of || ' of the same product'
    when 'duplicate_text' then 'duplicate_text: ' || round((p_similarity * 100)::numeric) || ' % alike to review '
                                || p_duplicate_of || ' of the last 90 days' end
$$;
comment on function plaudit.held_reason_text(text,uuid,uuid,real) is 'The words of a held review''s reason, for the trail and its pending reason.';
