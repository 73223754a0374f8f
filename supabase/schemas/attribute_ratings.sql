-- Attribute ratings: a form's scale fields (fit: Runs small … Runs large) and rating fields (1–5
-- stars of one aspect, such as Quality), whose answers are public: each review keeps them in
-- `attributes`, its public item carries them, and they are counted per answer for the business
-- and per product (plaudit.attribute_statistics) by the reviews' statistics triggers, so that a
-- summary reads counters, never reviews.

-- The answers of a form's scale and rating fields among a review's checked answers
-- (plaudit.check_custom_field_values): the public part of its custom fields. PL/pgSQL, so that the
-- submission's session keeps its plan (plaudit.submit_review): as an SQL function with a search_path
-- (never inlined) it was planned at every submission.
create or replace function plaudit.attribute_answers(p_definitions jsonb, p_answers jsonb)
returns jsonb
language plpgsql
immutable
set search_path = pg_catalog, pg_temp
as $$
begin
  return coalesce((select jsonb_object_agg(f ->> 'key', p_answers -> (f ->> 'key'))
                     from jsonb_array_elements(p_definitions) f
                    where f ->> 'type' in ('scale', 'rating') and p_answers ? (f ->> 'key')), '{}');
end
$$;
comment on function plaudit.attribute_answers(jsonb,jsonb) is 'The answers of a form''s scale and rating fields among a review''s answers: the public part of its custom fields.';

-- Adds signed counts, one row per (organization, product or the business, key, answer), in that
-- order (so that two statements cannot deadlock). Called by the reviews' counting triggers.
create or replace function plaudit.add_attribute_statistics(p_deltas jsonb)
returns void
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  insert into plaudit.attribute_statistics as s (org_id, product_id, key, answer, count)
  select d.org_id, d.product_id, d.key, d.answer, d.count
    from jsonb_to_recordset(p_deltas) as d(org_id uuid, product_id uuid, key text, answer text, count bigint)
   order by d.org_id, d.product_id nulls first, d.key, d.answer
  on conflict (org_id, product_id, key, answer) do update set
    count = s.count + excluded.count,
    updated_at = now();
end
$$;
comment on function plaudit.add_attribute_statistics(jsonb) is 'Adds signed deltas to the public answers'' counters, in key order.';

-- The counters' deltas of some reviews: each public answer of theirs, counted with its sign
-- (+1 when it comes into public view, -1 when it leaves), for the business's reviews and each
-- product's. Null when there is nothing to count; strict, so that a statement of reviews without
-- answers (most) is answered without its query being planned.
create or replace function plaudit.attribute_deltas(p_reviews jsonb)
returns jsonb
language sql
immutable
strict
set search_path = pg_catalog, pg_temp
as $$
  select jsonb_agg(d) from (
    select r.org_id, r.product_id, a.key, a.value #>> '{}' as answer, sum(r.sign) as count
      from jsonb_to_recordset(p_reviews) as r(org_id uuid, product_id uuid, attributes jsonb, sign integer)
     cross join lateral jsonb_each(r.attributes) a
     group by r.org_id, r.product_id, a.key, a.value #>> '{}'
  ) d
$$;
comment on function plaudit.attribute_deltas(jsonb) is 'The public answers'' counters'' deltas of reviews coming into or leaving public view.';

-- Recounts an organization's answer counters from its public reviews (after a bulk load with
-- triggers disabled, or to check them).
create or replace function plaudit.rebuild_attribute_statistics(p_org_id uuid)
returns void
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  perform 1 from plaudit.organizations where id = p_org_id for update;
  delete from plaudit.attribute_statistics where org_id = p_org_id;
  insert into plaudit.attribute_statistics (org_id, product_id, key, answer, count)
  select p_org_id, r.product_id, a.key, a.value #>> '{}', count(*)
    from plaudit.reviews r cross join lateral jsonb_each(r.attributes) a
   where r.org_id = p_org_id and r.attributes <> '{}'
     and plaudit.review_is_public(r.is_hidden, r.verification_status)
   group by r.product_id, a.key, a.value #>> '{}';
end
$$;
comment on function plaudit.rebuild_attribute_statistics(uuid) is 'Recounts an organization''s public answers'' counters from its public reviews.';

-- The public summary of the answers to an organization's scale and rating fields: the business's
-- (p_product_ids null) or those of the products given (a product's group), from the counters.
-- Each field answered at least once, as the newest form that has it defines it (its label, type
-- and scale), in that form's order: `{"key","label","type","count","average" (rating only),
-- "distribution":{label: count}}`, every label of a scale in its order (stars 1 to 5 for a
-- rating), zeros included. Reads the organization's forms and counters only.
create or replace function plaudit.attribute_summary(p_org_id uuid, p_product_ids uuid[])
returns json
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  with defined as (
    select distinct on (f.value ->> 'key') f.value ->> 'key' as key, f.value ->> 'label' as label,
           f.value ->> 'type' as type,
           case when f.value ->> 'type' = 'scale' then f.value -> 'scale' else '["1","2","3","4","5"]' end as labels,
           fm.created_at, f.ord
      from plaudit.review_forms fm
     cross join lateral jsonb_array_elements(fm.custom_fields) with ordinality f(value, ord)
     where fm.org_id = p_org_id and f.value ->> 'type' in ('scale', 'rating')
     order by f.value ->> 'key', fm.created_at desc
  ), counted as (
    select s.key, s.answer, sum(s.count) as count
      from plaudit.attribute_statistics s
     where s.org_id = p_org_id
       and (case when p_product_ids is null then s.product_id is null else s.product_id = any (p_product_ids) end)
     group by s.key, s.answer
    having sum(s.count) > 0
  )
  select coalesce(json_agg(x.item order by x.created_at desc, x.ord), '[]')
    from (
      -- json, not jsonb: a scale's labels keep their order.
      select d.created_at, d.ord, case when d.type = 'rating'
               then json_build_object('key', d.key, 'label', d.label, 'type', d.type, 'count', t.count,
                                      'average', t.average, 'distribution', dist.labels)
               else json_build_object('key', d.key, 'label', d.label, 'type', d.type, 'count', t.count,
                                      'distribution', dist.labels) end as item
        from defined d
        cross join lateral (
          select sum(c.count) as count,
                 round(sum(c.count * c.answer::integer) filter (where c.answer ~ '^[1-5]$')
                       / nullif(sum(c.count) filter (where c.answer ~ '^[1-5]$'), 0), 2) as average
            from counted c where c.key = d.key) t
        cross join lateral (
          select json_object_agg(l.label, coalesce(c.count, 0) order by l.ord) as labels
            from jsonb_array_elements_text(d.labels) with ordinality l(label, ord)
            left join counted c on c.key = d.key and c.answer = l.label) dist
       where t.count > 0
    ) x
$$;
comment on function plaudit.attribute_summary(uuid,uuid[]) is 'The public summary of the answers to scale and rating fields, the business''s or some products'', from the counters.';

-- Whether a review's public answers hold every answer a list filters by ({key: label or stars}).
create or replace function plaudit.attributes_match(p_attributes jsonb, p_filter jsonb)
returns boolean
language sql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select p_filter is null
      or not exists (select 1 from jsonb_each_text(p_filter) f
                      where (p_attributes ->> f.key) is distinct from f.value)
$$;
comment on function plaudit.attributes_match(jsonb,jsonb) is 'Whether a review''s public answers hold every answer a public list filters by.';
grant execute on function plaudit.attributes_match(jsonb,jsonb) to plaudit_api;

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own answers' statistics"
  on plaudit.attribute_statistics for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.attribute_statistics to plaudit_api;
