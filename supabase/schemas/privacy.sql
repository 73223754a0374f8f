-- Privacy: forgetting a reviewer's address (erasure) and answering what is held about it (access),
-- for the organization's admins (docs/trust.md). Both act on the transaction's tenant only.

-- A JSON value with a reviewer's traces taken out: every string holding the address (in any case)
-- has it replaced by "[removed]". For the outboxes' copies of past events, whose shape varies.
create or replace function plaudit.json_without_address(p_value jsonb, p_email text)
returns jsonb
language sql
immutable
strict
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select case when strpos(lower(p_value::text), lower(p_email)) = 0 then p_value
    else regexp_replace(p_value::text, regexp_replace(p_email, '([^A-Za-z0-9@])', '\\\1', 'g'), '[removed]', 'gi')::jsonb
  end
$$;
comment on function plaudit.json_without_address(jsonb,text) is 'A JSON value with every occurrence of an address (any case) replaced by [removed].';

-- The review events (review.created and the others that copy a review's words) of erased reviews,
-- as they would have been written after the erasure: the reviewer's name "Anonymous", no answers,
-- and the title and text replaced by the notice when the reviewer asked for that too.
create or replace function plaudit.review_event_forgotten(p_data jsonb, p_redact boolean)
returns jsonb
language sql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select p_data
    || case when p_data ? 'reviewer_name' then jsonb_build_object('reviewer_name', 'Anonymous') else '{}' end
    || case when p_data ? 'reviewer_email' then jsonb_build_object('reviewer_email', null) else '{}' end
    || case when p_data ? 'custom_fields' then jsonb_build_object('custom_fields', '{}'::jsonb) else '{}' end
    || case when p_redact and p_data ? 'content' then jsonb_build_object('content', plaudit.erasure_notice()) else '{}' end
    || case when p_redact and p_data ->> 'title' is not null then jsonb_build_object('title', plaudit.erasure_notice())
            else '{}' end
$$;
comment on function plaudit.review_event_forgotten(jsonb,boolean) is 'A review event''s data with the reviewer forgotten: name Anonymous, no address or answers, the text removed on request.';

-- POST /organizations/:orgId/privacy/erasures: forgets an address in the transaction's tenant.
--   * its reviews keep their rating, dates, product, verification and moderation state; they lose
--     the address, the name ("Anonymous") and the custom-field answers, and with p_redact their
--     title and text (the notice instead); each is an `anonymize` entry of the moderation trail
--     and emits review.anonymized; the CDN purge follows from the reviews' own triggers;
--   * the copies of what they said in past events and webhook deliveries are forgotten the same
--     way, and any other copy of the address in them replaced;
--   * its rows in imports waiting for the worker are refused (an import never brings the address
--     back: plaudit.import_batch refuses it too), and refusal lists and import.completed events
--     quoting it lose it;
--   * the questions it asked keep their answers without the address and the name (with p_redact,
--     their text too);
--   * its review requests are deleted (their timelines with them), its e-mails (queued or sent)
--     deleted, its orders keep their ids without the address, cached idempotent answers holding it
--     dropped, and exports holding it expired with their files deleted;
--   * the address is suppressed, kept only as its key (plaudit.email_key), and the erasure recorded.
-- Answers {"reviews","review_requests","questions","media","files"}: what this call removed, and the storage
-- keys of the photos' and videos' files for the API to delete. A repeat finds nothing left and
-- answers zeros (and is recorded, as asked).
create or replace function plaudit.erase_reviewer(p_email text, p_redact_content boolean, p_actor text)
returns json
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.current_org_id();
  address text := lower(btrim(p_email));
  redact boolean := coalesce(p_redact_content, false);
  erased uuid[];
  requests integer;
  questions integer;
  media integer := 0;
  files json := '[]'::json;
  r plaudit.reviews;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;
  if address is null or char_length(address) > 320 or address !~ '^[^@\s]+@[^@\s]+$' then
    raise exception 'email: must be an e-mail address' using errcode = 'invalid_parameter_value';
  end if;

  -- The reviews.
  with forgotten as (
    update plaudit.reviews x
       set reviewer_email = null, reviewer_name = 'Anonymous', custom_fields = '{}',
           title = case when redact and x.title is not null then plaudit.erasure_notice() else x.title end,
           content = case when redact then plaudit.erasure_notice() else x.content end
     where x.org_id = tenant and lower(x.reviewer_email) = address
    returning x.id
  )
  select coalesce(array_agg(f.id order by f.id), '{}') into erased from forgotten f;
  if cardinality(erased) > 0 then
    -- Public answers show names and texts: their version (and every ETag) moves.
    perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(tenant)));
  end if;

  for r in select * from plaudit.reviews x where x.id = any (erased) order by x.id loop
    perform plaudit.append_moderation_entry(tenant, r.id, 'anonymize',
      case when redact then 'erased at the reviewer''s request, text removed'
           else 'erased at the reviewer''s request' end,
      p_actor);
  end loop;
  -- One review.anonymized a review, written in one statement, each with the chain's head after the
  -- erasure (which covers its entry).
  if cardinality(erased) > 0 then
    insert into plaudit.events (org_id, type, data, created_at)
    select tenant, 'review.anonymized', jsonb_build_object(
             'id', x.id, 'form_id', x.form_id, 'product', plaudit.review_product_json(x.product_id)::jsonb,
             'reviewer_name', x.reviewer_name, 'content_removed', redact,
             'anonymized_at', plaudit.iso_utc(clock_timestamp()),
             'moderation_chain', plaudit.moderation_chain_head(tenant)), clock_timestamp()
      from plaudit.reviews x where x.id = any (erased) order by x.id;
    perform pg_notify('plaudit_outbox', 'event');
  end if;

  -- What past events said of these reviews (events name a review by its id and never carry an
  -- address; any copy of it is replaced all the same); their webhook deliveries carry the event's
  -- data, and take it again. The ids are joined as a set: an array compared per event would cost
  -- the erased count for each of the 30 days of events.
  with ids as (
    select x.id::text as id from unnest(erased) x(id)
  ), changed as (
    update plaudit.events e
       set data = plaudit.json_without_address(plaudit.review_event_forgotten(e.data, redact), address)
      from ids
     where e.org_id = tenant and e.type like 'review.%' and e.type <> 'review.anonymized'
       and e.data ->> 'id' = ids.id
    returning e.id, e.data
  )
  update plaudit.webhook_deliveries d
     set payload = jsonb_set(d.payload::jsonb, '{data}', c.data)::text
    from changed c
   where d.event_id = c.id;

  -- Their photos and videos: the rows go here, the files (named in the answer's `files`, which the
  -- API removes from the storage and does not pass on) with them; upload tokens too.
  with gone as (
    delete from plaudit.review_media m where m.org_id = tenant and m.review_id = any (erased)
    returning m.storage_key, m.thumbnail_key
  )
  select (select count(*) from gone)::integer,
         coalesce((select json_agg(k.key) from gone g cross join lateral (values (g.storage_key), (g.thumbnail_key)) k(key)
                    where k.key is not null), '[]'::json)
    into media, files;
  delete from plaudit.media_upload_tokens t where t.org_id = tenant and t.review_id = any (erased);

  -- Its review requests (their events, products and links go with them) and its e-mails.
  with gone as (
    delete from plaudit.review_requests q where q.org_id = tenant and lower(q.email) = address returning 1
  )
  select count(*)::integer into requests from gone;
  delete from plaudit.email_outbox m where m.org_id = tenant and lower(m.to_address) = address;
  -- The reports it made keep their content for the business's record, without the address.
  update plaudit.review_reports x set reporter_email = null
   where x.org_id = tenant and lower(x.reporter_email) = address;
  update plaudit.orders o set email = null where o.org_id = tenant and lower(o.email) = address;
  -- The questions it asked keep their answers, without the address and the name, and with p_redact
  -- without their text; the public pages that show them are refreshed.
  with forgotten as (
    update plaudit.questions q
       set asker_email = null, asker_name = 'Anonymous',
           question = case when redact then plaudit.erasure_notice() else q.question end, updated_at = now()
     where q.org_id = tenant and lower(q.asker_email) = address
    returning 1
  )
  select count(*)::integer into questions from forgotten;
  if questions > 0 then
    perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(tenant)));
    perform plaudit.request_cdn_purge(tenant, false);
  end if;
  delete from plaudit.idempotency_keys k where k.org_id = tenant and strpos(lower(k.response), address) > 0;

  -- Exports that hold the address: their files go, and they read as expired.
  with holding as (
    select distinct c.export_id from plaudit.export_chunks c
     where c.org_id = tenant and strpos(lower(c.body), address) > 0
  ), emptied as (
    delete from plaudit.export_chunks c using holding h where c.export_id = h.export_id returning c.export_id
  )
  update plaudit.exports x set expires_at = least(coalesce(x.expires_at, now()), now())
   where x.id in (select h.export_id from holding h);

  -- Imports: rows still waiting for the worker with the address are refused (taken out of the queue,
  -- counted and listed as erased), and the refusal lists and import.completed events (with their
  -- webhook deliveries) that quote it lose it.
  with gone as (
    delete from plaudit.import_rows s
     where s.org_id = tenant and lower(s.data ->> 'reviewer_email') = address
    returning s.import_id, s.row_number
  ), refused as (
    select g.import_id, count(*)::integer as n,
           jsonb_agg(jsonb_build_object('row', g.row_number, 'message', plaudit.import_erased_message())) as rows
      from gone g group by g.import_id
  )
  update plaudit.imports i
     set rejected_count = i.rejected_count + f.n, rejected = plaudit.import_refusals_kept(i.rejected, f.rows)
    from refused f
   where i.id = f.import_id;
  update plaudit.imports i set rejected = plaudit.json_without_address(i.rejected, address)
   where i.org_id = tenant and strpos(lower(i.rejected::text), address) > 0;
  with changed as (
    update plaudit.events e set data = plaudit.json_without_address(e.data, address)
     where e.org_id = tenant and e.type = 'import.completed' and strpos(lower(e.data::text), address) > 0
    returning e.id, e.data
  )
  update plaudit.webhook_deliveries d
     set payload = jsonb_set(d.payload::jsonb, '{data}', c.data)::text
    from changed c
   where d.event_id = c.id;

  -- Suppressed, kept only as its key.
  delete from plaudit.email_suppressions s
   where s.org_id = tenant and s.email_key = plaudit.email_key(tenant, address) and s.reason <> 'erased';
  insert into plaudit.email_suppressions (org_id, email, email_key, reason)
  values (tenant, null, plaudit.email_key(tenant, address), 'erased')
  on conflict (org_id, email_key) do nothing;

  insert into plaudit.privacy_erasures (org_id, email_key, redact_content, reviews, review_requests, media, actor)
  values (tenant, plaudit.email_key(tenant, address), redact, cardinality(erased), requests, media,
          coalesce(nullif(p_actor, ''), 'database:' || session_user));

  return json_build_object('reviews', cardinality(erased), 'review_requests', requests, 'questions', questions,
                           'media', media, 'files', files);
end
$$;
comment on function plaudit.erase_reviewer(text,boolean,text) is 'Forgets an address in the transaction''s tenant: its reviews anonymized (text removed on request), its requests, e-mails and copies gone, the address suppressed as a hash; answers the counts.';
grant execute on function plaudit.erase_reviewer(text,boolean,text) to plaudit_api;

-- The trail's action of an erasure.
insert into plaudit.trail_actions (action, description) values
  ('anonymize', 'A review was anonymized at its reviewers request.')
on conflict (action) do update set description = excluded.description;

-- GET /organizations/:orgId/privacy/data?email=: everything the transaction's tenant holds about
-- an address, and nothing about anyone else: its reviews (as the Review, the business's replies
-- included: they answer this person), its review requests, orders, the reports it made, e-mails and suppression. An
-- erased address holds only its suppression and its erasures.
create or replace function plaudit.reviewer_data(p_email text)
returns json
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  tenant uuid := plaudit.current_org_id();
  address text := lower(btrim(p_email));
  key bytea;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;
  if address is null or char_length(address) > 320 or address !~ '^[^@\s]+@[^@\s]+$' then
    raise exception 'email: must be an e-mail address' using errcode = 'invalid_parameter_value';
  end if;
  key := plaudit.email_key(tenant, address);
  return json_build_object(
    'email', address,
    'generated_at', plaudit.iso_utc(clock_timestamp()),
    'reviews', coalesce((
      select json_agg(plaudit.review_json(x, rr)::json order by x.created_at, x.id)
        from plaudit.reviews x
        left join plaudit.review_replies rr on rr.review_id = x.id
       where x.org_id = tenant and lower(x.reviewer_email) = address), '[]'),
    'review_requests', coalesce((
      select json_agg(json_build_object(
               'id', q.id, 'email', q.email, 'name', q.name, 'form_id', q.form_id, 'order_id', q.order_id,
               'external_id', q.external_id, 'locale', q.locale, 'status', q.status, 'review_id', q.review_id,
               'created_at', plaudit.iso_utc(q.created_at), 'sent_at', plaudit.iso_utc(q.sent_at),
               'opened_at', plaudit.iso_utc(q.opened_at), 'clicked_at', plaudit.iso_utc(q.clicked_at),
               'completed_at', plaudit.iso_utc(q.completed_at)) order by q.created_at, q.id)
        from plaudit.review_requests q where q.org_id = tenant and lower(q.email) = address), '[]'),
    'orders', coalesce((
      select json_agg(json_build_object(
               'order_id', o.order_id, 'email', o.email, 'purchased_at', plaudit.iso_utc(o.purchased_at),
               'items', coalesce((select json_agg(json_build_object('product_external_id', i.product_external_id,
                                                                      'quantity', i.quantity) order by i.position)
                                    from plaudit.order_items i
                                   where i.org_id = o.org_id and i.order_id = o.order_id), '[]'),
               'created_at', plaudit.iso_utc(o.created_at)) order by o.created_at, o.order_id)
        from plaudit.orders o where o.org_id = tenant and lower(o.email) = address), '[]'),
    'reports', coalesce((
      select json_agg(json_build_object(
               'id', x.id, 'review_id', x.review_id, 'kind', x.kind, 'reason', x.reason,
               'legal_ground', x.legal_ground, 'details', x.details, 'status', x.status, 'decision', x.decision,
               'created_at', plaudit.iso_utc(x.created_at)) order by x.created_at, x.id)
        from plaudit.review_reports x where x.org_id = tenant and lower(x.reporter_email) = address), '[]'),
    'questions', coalesce((
      select json_agg(json_build_object(
               'id', q.id, 'product_id', q.product_id, 'question', q.question, 'asker_name', q.asker_name,
               'status', q.status, 'created_at', plaudit.iso_utc(q.created_at)) order by q.created_at, q.id)
        from plaudit.questions q where q.org_id = tenant and lower(q.asker_email) = address), '[]'),
    'emails', coalesce((
      select json_agg(json_build_object('id', m.id, 'template', m.template, 'status', m.status,
                                          'created_at', plaudit.iso_utc(m.created_at),
                                          'sent_at', plaudit.iso_utc(m.sent_at)) order by m.created_at, m.id)
        from plaudit.email_outbox m where m.org_id = tenant and lower(m.to_address) = address), '[]'),
    'suppression', (
      select json_build_object('reason', s.reason, 'created_at', plaudit.iso_utc(s.created_at))
        from plaudit.email_suppressions s where s.org_id = tenant and s.email_key = key),
    'erasures', coalesce((
      select json_agg(json_build_object('reviews', e.reviews, 'review_requests', e.review_requests,
                                          'media', e.media, 'redact_content', e.redact_content,
                                          'created_at', plaudit.iso_utc(e.created_at)) order by e.created_at, e.id)
        from plaudit.privacy_erasures e where e.org_id = tenant and e.email_key = key), '[]'),
    'data_requests', coalesce((
      select json_agg(json_build_object('connection_id', d.connection_id, 'received_at', plaudit.iso_utc(d.received_at))
                      order by d.received_at, d.id)
        from plaudit.privacy_data_requests d where d.org_id = tenant and d.email_key = key), '[]'));
end
$$;
comment on function plaudit.reviewer_data(text) is 'Everything the transaction''s tenant holds about an address, as JSON, and nothing about anyone else.';
grant execute on function plaudit.reviewer_data(text) to plaudit_api;

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own erasures"
  on plaudit.privacy_erasures for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.privacy_erasures to plaudit_api;
