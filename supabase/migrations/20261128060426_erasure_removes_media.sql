-- erasure removes media: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- POST /organizations/:orgId/privacy/erasures: forgets an address in the transaction's tenant.
--   * its reviews keep their rating, dates, product, verification and moderation state; they lose
--     the address, the name ("Anonymous") and the custom-field answers, and with p_redact their
--     title and text (the notice instead); each is an `anonymize` entry of the moderation trail
--     and emits review.anonymized; the CDN purge follows from the reviews' own triggers;
--   * the copies of what they said in past events and webhook deliveries are forgotten the same
--     way, and any other copy of the address in them replaced;
--   * its review requests are deleted (their timelines with them), its e-mails (queued or sent)
--     deleted, its orders keep their ids without the address, cached idempotent answers holding it
--     dropped, and exports holding it expired with their files deleted;
--   * the address is suppressed, kept only as its key (plaudit.email_key), and the erasure recorded.
-- Answers {"reviews","review_requests","media","files"}: what this call removed, and the storage
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
  update plaudit.orders o set email = null where o.org_id = tenant and lower(o.email) = address;
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

  -- Suppressed, kept only as its key.
  delete from plaudit.email_suppressions s
   where s.org_id = tenant and s.email_key = plaudit.email_key(tenant, address) and s.reason <> 'erased';
  insert into plaudit.email_suppressions (org_id, email, email_key, reason)
  values (tenant, null, plaudit.email_key(tenant, address), 'erased')
  on conflict (org_id, email_key) do nothing;

  insert into plaudit.privacy_erasures (org_id, email_key, redact_content, reviews, review_requests, media, actor)
  values (tenant, plaudit.email_key(tenant, address), redact, cardinality(erased), requests, media,
          coalesce(nullif(p_actor, ''), 'database:' || session_user));

  return json_build_object('reviews', cardinality(erased), 'review_requests', requests, 'media', media, 'files', files);
end
$$;
comment on function plaudit.erase_reviewer(text,boolean,text) is 'Forgets an address in the transaction''s tenant: its reviews anonymized (text removed on request), its requests, e-mails and copies gone, the address suppressed as a hash; answers the counts.';

revoke execute on all functions in schema plaudit from public;
reset role;
