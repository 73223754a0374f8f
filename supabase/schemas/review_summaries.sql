-- Summaries of published reviews that show their evidence (docs/summaries.md): the worker finds the
-- subjects due (a business, a product or a product group with 5 published reviews or more, and none
-- yet or 10 % more since the last), reads their reviews, makes the summary in TypeScript
-- (functions/_shared/core/summaries/) and saves it here, with an entry of the moderation trail that
-- names its inputs. A cited review that is hidden, rejected, erased or changed leaves every summary
-- at once, in the transaction of the change; public reads answer the summary with the public
-- version's ETag.

-- The products whose reviews a product summary covers: the group's, or the product alone.
create or replace function plaudit.review_summary_product_ids(p_org_id uuid, p_product_id uuid, p_group_key text)
returns uuid[]
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select case when p_product_id is null then null else plaudit.product_group_ids(p_org_id, p_product_id, p_group_key) end
$$;
comment on function plaudit.review_summary_product_ids(uuid,uuid,text) is 'The products a summary covers: a group''s members, or the product; null for the business''s.';

-- The subjects whose summary is due, biggest first: the business (its own reviews, as its public
-- figures count them) and each product or product group, with 5 published reviews or more and no
-- summary yet, or 10 % more published reviews than when their summary was made. Counted from the
-- counters the reviews' triggers keep, never by counting reviews.
create or replace function plaudit.review_summaries_due(p_limit integer, p_org_ids uuid[] default null)
returns table (org_id uuid, product_id uuid, group_key text, published bigint)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  with subjects as (
    select s.org_id, null::uuid as product_id, null::text as group_key, sum(s.public_count)::bigint as published
      from plaudit.review_statistics s
     where p_org_ids is null or s.org_id = any (p_org_ids)
     group by s.org_id
    union all
    select p.org_id, (array_agg(p.id order by p.id))[1], p.group_key, sum(st.public_count)::bigint
      from plaudit.product_review_statistics st
      join plaudit.products p on p.id = st.product_id
     where p_org_ids is null or p.org_id = any (p_org_ids)
     group by p.org_id, p.group_key, case when p.group_key is null then p.id end
  )
  select x.org_id, x.product_id, x.group_key, x.published
    from subjects x
   where x.published >= 5
     and not exists (
       select from plaudit.review_summaries r
        where r.org_id = x.org_id
          and case when x.group_key is not null then r.group_key = x.group_key
                   when x.product_id is not null then r.product_id = x.product_id and r.group_key is null
                   else r.product_id is null end
          and x.published * 10 < r.review_count * 11)
   order by x.published desc
   limit p_limit
$$;
comment on function plaudit.review_summaries_due(integer,uuid[]) is 'The businesses, products and groups whose summary is due: 5 published reviews or more, none yet or 10 % more since.';
grant execute on function plaudit.review_summaries_due(integer,uuid[]) to plaudit_worker;

-- The published reviews a summary is made from, oldest first.
create or replace function plaudit.review_summary_inputs(p_org_id uuid, p_product_id uuid, p_group_key text)
returns table (id uuid, rating smallint, title text, content text, language text)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select r.id, r.rating, r.title, r.content, r.language
    from plaudit.reviews r
   where r.org_id = p_org_id and plaudit.review_is_public(r.is_hidden, r.verification_status)
     and case when p_product_id is null then r.product_id is null
              else r.product_id = any (plaudit.review_summary_product_ids(p_org_id, p_product_id, p_group_key)) end
   order by r.created_at, r.id
$$;
comment on function plaudit.review_summary_inputs(uuid,uuid,text) is 'The published reviews of a business (its own) or of a product or group, which its summary is made from.';
grant execute on function plaudit.review_summary_inputs(uuid,uuid,text) to plaudit_worker;

-- A summary's topics, from the evidence of each (every review of the topic, each once, with its
-- stance): mentions, positive and negative counts, the first 20 review ids; most mentioned first.
create or replace function plaudit.review_summary_topics(p_evidence jsonb)
returns jsonb
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'name', t.key,
           'mentions', jsonb_array_length(t.value -> 'ids'),
           'positive', (select count(*) from jsonb_array_elements_text(t.value -> 'sentiments') s(v) where s.v = 'positive'),
           'negative', (select count(*) from jsonb_array_elements_text(t.value -> 'sentiments') s(v) where s.v = 'negative'),
           'review_ids', (select coalesce(jsonb_agg(i.id order by i.n), '[]')
                            from jsonb_array_elements_text(t.value -> 'ids') with ordinality i(id, n) where i.n <= 20))
           order by jsonb_array_length(t.value -> 'ids') desc, t.key), '[]')
    from jsonb_each(p_evidence) t
   where jsonb_array_length(t.value -> 'ids') > 0
$$;
comment on function plaudit.review_summary_topics(jsonb) is 'A summary''s topics from their evidence: each review counted once, the first 20 ids, most mentioned first.';

-- Takes reviews out of an organization's summaries: out of every sentence's citations (its count
-- follows), a sentence quoting one of them (its first citation) or left with none dropped; out of
-- the topics' evidence (their counts follow); out of the inputs and the review count.
create or replace function plaudit.review_summaries_forget(p_org_id uuid, p_review_ids uuid[])
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  s plaudit.review_summaries;
  gone text[];
  kept_sentences jsonb;
  kept_evidence jsonb;
begin
  for s in select * from plaudit.review_summaries x
            where x.org_id = p_org_id and x.input_review_ids && p_review_ids order by x.id for update loop
    gone := array(select i::text from unnest(p_review_ids) i where i = any (s.input_review_ids));
    select coalesce(jsonb_agg(e.value || jsonb_build_object(
             'review_ids', (e.value -> 'review_ids') - gone,
             'count', jsonb_array_length((e.value -> 'review_ids') - gone)) order by e.n), '[]')
      into kept_sentences
      from jsonb_array_elements(s.body -> 'sentences') with ordinality e(value, n)
     where (e.value -> 'review_ids' ->> 0) <> all (gone)
       and jsonb_array_length((e.value -> 'review_ids') - gone) > 0;
    select coalesce(jsonb_object_agg(t.key, k.kept), '{}')
      into kept_evidence
      from jsonb_each(s.evidence) t
      cross join lateral (
        select jsonb_build_object('ids', coalesce(jsonb_agg(i.id order by i.n), '[]'),
                                  'sentiments', coalesce(jsonb_agg(t.value -> 'sentiments' -> (i.n::integer - 1) order by i.n), '[]')) as kept,
               count(*) as n
          from jsonb_array_elements_text(t.value -> 'ids') with ordinality i(id, n)
         where i.id <> all (gone)) k
     where k.n > 0;
    update plaudit.review_summaries x
       set body = jsonb_build_object('review_count', greatest(0, (x.body ->> 'review_count')::integer - cardinality(gone)),
                                     'sentences', kept_sentences,
                                     'topics', plaudit.review_summary_topics(kept_evidence)),
           evidence = kept_evidence,
           input_review_ids = array(select i from unnest(x.input_review_ids) i where i <> all (p_review_ids))
     where x.id = s.id;
  end loop;
end
$$;
comment on function plaudit.review_summaries_forget(uuid,uuid[]) is 'Takes reviews out of their organization''s summaries: citations, quoting sentences, topics and counts.';

-- Whether a change of a review takes it out of the summaries: it was published, and it stops being
-- published (hidden, rejected) or its words or author change (an erasure, with or without its text).
create or replace function plaudit.review_leaves_summaries(p_old plaudit.reviews, p_new plaudit.reviews)
returns boolean
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$
  select plaudit.review_is_public(p_old.is_hidden, p_old.verification_status)
     and (not plaudit.review_is_public(p_new.is_hidden, p_new.verification_status)
          or (p_new.title, p_new.content, p_new.reviewer_name, p_new.product_id)
             is distinct from (p_old.title, p_old.content, p_old.reviewer_name, p_old.product_id))
$$;
comment on function plaudit.review_leaves_summaries(plaudit.reviews,plaudit.reviews) is 'Whether a review''s change takes it out of the summaries: no longer published, or its words or author changed.';
-- The trigger's condition runs as whoever updates the review, as review_is_public's grant has it.
grant execute on function plaudit.review_leaves_summaries(plaudit.reviews,plaudit.reviews) to plaudit_api;

-- A cited review that leaves (review_leaves_summaries) leaves every summary of its organization, in
-- the same transaction.
create or replace function plaudit.reviews_leave_summaries()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  perform plaudit.review_summaries_forget(new.org_id, array[new.id]);
  return null;
end
$$;
comment on function plaudit.reviews_leave_summaries() is 'A cited review hidden, rejected, erased or changed leaves its organization''s summaries at once.';

create trigger reviews_leave_summaries after update on plaudit.reviews
  for each row when (plaudit.review_leaves_summaries(old.*, new.*))
  execute function plaudit.reviews_leave_summaries();

-- Saves the summary the worker made of a subject, in place of the last: the sentences as the
-- contract has them (each `count` its citations), the topics from the evidence. Refuses citations
-- of reviews it was not made from, and inputs that are not reviews of the subject; inputs no longer
-- published (hidden while it was being made) leave it at once. Appends a `summarize` entry to the
-- trail with the inputs' ids (their SHA-256 always, the ids themselves up to 100), and moves the
-- public version, so that ETags change; the CDN purge follows from the table's trigger.
create or replace function plaudit.save_review_summary(
  p_org_id uuid, p_product_id uuid, p_group_key text, p_language text, p_sentences jsonb, p_evidence jsonb,
  p_input_ids uuid[], p_review_count integer
)
returns uuid
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  members uuid[] := plaudit.review_summary_product_ids(p_org_id, p_product_id, p_group_key);
  inputs text[] := p_input_ids::text[];
  sentences jsonb;
  summary_id uuid;
  gone uuid[];
begin
  -- As sets (EXCEPT hashes): thousands of citations against thousands of inputs.
  if exists (select i from jsonb_array_elements(p_sentences) e, jsonb_array_elements_text(e -> 'review_ids') i
             union
             select i from jsonb_each(p_evidence) t, jsonb_array_elements_text(t.value -> 'ids') i
             except
             select unnest(inputs)) then
    raise exception 'a summary cites only the reviews it was made from' using errcode = 'check_violation';
  end if;
  if (select count(*) from plaudit.reviews r
       where r.id = any (p_input_ids) and r.org_id = p_org_id
         and case when members is null then r.product_id is null else r.product_id = any (members) end)
     <> (select count(distinct i) from unnest(p_input_ids) i) then
    raise exception 'a summary is made from reviews of its own subject' using errcode = 'check_violation';
  end if;
  select coalesce(jsonb_agg(jsonb_build_object(
           'text', e.value ->> 'text', 'sentiment', e.value ->> 'sentiment',
           'review_ids', e.value -> 'review_ids', 'count', jsonb_array_length(e.value -> 'review_ids')) order by e.n), '[]')
    into sentences
    from jsonb_array_elements(p_sentences) with ordinality e(value, n)
   where jsonb_array_length(e.value -> 'review_ids') > 0;

  select x.id into summary_id from plaudit.review_summaries x
   where x.org_id = p_org_id
     and case when p_group_key is not null then x.group_key = p_group_key
              when p_product_id is not null then x.product_id = p_product_id and x.group_key is null
              else x.product_id is null end
   for update;
  if summary_id is null then
    insert into plaudit.review_summaries (org_id, product_id, group_key, language, body, evidence, input_review_ids, review_count)
    values (p_org_id, p_product_id, p_group_key, p_language,
            jsonb_build_object('review_count', cardinality(p_input_ids), 'sentences', sentences,
                               'topics', plaudit.review_summary_topics(p_evidence)),
            p_evidence, p_input_ids, p_review_count)
    returning id into summary_id;
  else
    update plaudit.review_summaries x
       set product_id = p_product_id, language = p_language,
           body = jsonb_build_object('review_count', cardinality(p_input_ids), 'sentences', sentences,
                                     'topics', plaudit.review_summary_topics(p_evidence)),
           evidence = p_evidence, input_review_ids = p_input_ids, review_count = p_review_count,
           generated_at = now()
     where x.id = summary_id;
  end if;

  perform plaudit.append_moderation_entry(p_org_id, null, 'summarize', format(
    'summary %s of %s made from %s published reviews, ids sha256 %s%s', summary_id,
    case when p_group_key is not null then format('product group %s', p_group_key)
         when p_product_id is not null then format('product %s', p_product_id)
         else 'the business' end,
    cardinality(p_input_ids),
    encode(sha256(convert_to(array_to_string(p_input_ids, ','), 'UTF8')), 'hex'),
    case when cardinality(p_input_ids) <= 100 then ': ' || array_to_string(p_input_ids, ',') else '' end),
    'worker:summaries');

  gone := array(select r.id from plaudit.reviews r
                 where r.id = any (p_input_ids) and not plaudit.review_is_public(r.is_hidden, r.verification_status));
  if cardinality(gone) > 0 then
    perform plaudit.review_summaries_forget(p_org_id, gone);
  end if;
  perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(p_org_id)));
  return summary_id;
end
$$;
comment on function plaudit.save_review_summary(uuid,uuid,text,text,jsonb,jsonb,uuid[],integer) is 'Saves a subject''s summary in place of the last, checking its citations, with a summarize entry in the trail.';
grant execute on function plaudit.save_review_summary(uuid,uuid,text,text,jsonb,jsonb,uuid[],integer) to plaudit_worker;

-- The trail's action of a summary.
insert into plaudit.trail_actions (action, description) values
  ('summarize', 'A summary of published reviews was saved.')
on conflict (action) do update set description = excluded.description;

-- A business's summary (p_external_id null) or a product's (over its group), as the response body,
-- with the version of the answers that show it; no body for an unknown slug, a switched-off
-- profile, an unknown product, fewer than 5 published reviews, or no summary yet.
create or replace function plaudit.public_review_summary(p_slug text, p_external_id text)
returns table (version text, body text)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  with subject as (
    select o.id as org_id, null::uuid as product_id, null::text as group_key,
           plaudit.public_version(p_slug) as version,
           (select coalesce(sum(s.public_count), 0) from plaudit.review_statistics s where s.org_id = o.id) as published
      from plaudit.organizations o
      left join plaudit.public_profiles pp on pp.org_id = o.id
     where o.slug = p_slug and coalesce(pp.enabled, true) and p_external_id is null
    union all
    select x.org_id, (x.product).id, (x.product).group_key,
           plaudit.public_version(p_slug) || '~' || (x.product).id,
           (plaudit.product_group_statistics(x.group_ids)).public_count
      from plaudit.public_product_of(p_slug, p_external_id) x
     where p_external_id is not null
  )
  select j.version,
         (select json_build_object(
                   'review_count', (r.body ->> 'review_count')::integer,
                   'generated_at', plaudit.iso_utc(r.generated_at),
                   'language', r.language,
                   -- Keys in the contract's order (jsonb keeps its own).
                   'sentences', (select coalesce(json_agg(json_build_object(
                                    'text', e ->> 'text', 'sentiment', e ->> 'sentiment',
                                    'review_ids', e -> 'review_ids', 'count', (e ->> 'count')::integer) order by n), '[]')
                                   from jsonb_array_elements(r.body -> 'sentences') with ordinality x(e, n)),
                   'topics', (select coalesce(json_agg(json_build_object(
                                 'name', e ->> 'name', 'mentions', (e ->> 'mentions')::integer,
                                 'positive', (e ->> 'positive')::integer, 'negative', (e ->> 'negative')::integer,
                                 'review_ids', e -> 'review_ids') order by n), '[]')
                                from jsonb_array_elements(r.body -> 'topics') with ordinality x(e, n)))::text
            from plaudit.review_summaries r
           where j.published >= 5 and r.org_id = j.org_id
             and case when j.group_key is not null then r.group_key = j.group_key
                      when j.product_id is not null then r.product_id = j.product_id and r.group_key is null
                      else r.product_id is null end)
    from subject j
$$;
comment on function plaudit.public_review_summary(text,text) is 'A business''s or a product''s summary as the response body, with its version; no body below 5 published reviews.';
grant execute on function plaudit.public_review_summary(text,text) to plaudit_public;

-- The summary (public_review_summary) read as plaudit_public, in one statement.
create or replace function plaudit.public_read_review_summary(p_slug text, p_external_id text, out version text, out body text)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
begin
  perform set_config('role', 'plaudit_public', true);
  select s.version, s.body into version, body from plaudit.public_review_summary(p_slug, p_external_id) s;
end
$$;
comment on function plaudit.public_read_review_summary(text,text) is 'A business''s or a product''s summary as the response body, with its version, read as plaudit_public.';
grant execute on function plaudit.public_read_review_summary(text,text) to plaudit_authenticator;

create trigger review_summaries_purge_cdn after insert or update or delete on plaudit.review_summaries
  for each row execute function plaudit.cdn_purge_on_change();

create policy "Tenants can read their own review summaries" on plaudit.review_summaries for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));
grant select on plaudit.review_summaries to plaudit_api;

-- The public items of each sentence's first cited reviews (up to p_per_sentence), one JSON array a
-- sentence in the summary's order, for the pages that open a sentence's reviews; `[]` without a
-- summary to show. The ids are the summary's own, which are published reviews of the subject.
create or replace function plaudit.public_review_summary_cited(p_slug text, p_external_id text, p_per_sentence integer)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select '[' || coalesce(string_agg(plaudit.public_review_items(array(
           select x::uuid from jsonb_array_elements_text(y.e -> 'review_ids') with ordinality t(x, k)
            where k <= p_per_sentence order by k)), ',' order by y.n), '') || ']'
    from plaudit.public_review_summary(p_slug, p_external_id) s
    cross join lateral jsonb_array_elements(s.body::jsonb -> 'sentences') with ordinality y(e, n)
   where s.body is not null
$$;
comment on function plaudit.public_review_summary_cited(text,text,integer) is 'The public items of each summary sentence''s first cited reviews, one array a sentence, for the pages.';
grant execute on function plaudit.public_review_summary_cited(text,text,integer) to plaudit_public;
