-- Creating review requests, one or up to 1,000 at a time, in one round trip: each row is checked
-- against the database (the form is the tenant's, active and not deleted; the external_id is
-- new), accepted rows are stored with a `queued` event and their e-mail is put in the outbox
-- (due at send_at), and the day's quota is taken. Rows whose address is on the suppression list
-- are stored as `failed` (reason `suppressed`) and no e-mail is queued for them; they do not
-- count against the quota. Rows refused here come back with their index and a message; the
-- caller (the API) has validated shapes and formats already.
--
-- p_rows: [{"index", "email", "name", "form_id", "order_id"?, "send_at"?, "external_id"?, "locale"?}]
-- The tenant is the transaction's (plaudit.current_org_id()), never a parameter.
create function plaudit.create_review_requests(p_rows jsonb, p_link_base text)
returns table (idx integer, id uuid, error text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  tenant uuid := plaudit.current_org_id();
  to_send integer;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;

  -- The rows of this call, checked in a few set-based statements (a temporary table, dropped at
  -- commit; a second call in the same transaction reuses it).
  if to_regclass('pg_temp.rr_batch') is null then
    create temporary table rr_batch (
      idx integer, id uuid, email text, name text, form_id uuid, order_id text, external_id text,
      locale text, send_at timestamptz, error text, suppressed text
    ) on commit drop;
  else
    truncate pg_temp.rr_batch;
  end if;

  insert into pg_temp.rr_batch (idx, id, email, name, form_id, order_id, external_id, locale, send_at, error, suppressed)
  select (r ->> 'index')::integer, gen_random_uuid(), r ->> 'email', r ->> 'name', (r ->> 'form_id')::uuid,
         nullif(r ->> 'order_id', ''), nullif(r ->> 'external_id', ''), coalesce(nullif(r ->> 'locale', ''), 'en'),
         coalesce((r ->> 'send_at')::timestamptz, now()), null, null
  from jsonb_array_elements(p_rows) r;

  update pg_temp.rr_batch b set error = 'form_id: no active review form with this id in this organization'
  where not exists (select from plaudit.review_forms f
                    where f.id = b.form_id and f.org_id = tenant and f.deleted_at is null and f.is_active);

  update pg_temp.rr_batch b set error = 'external_id: repeats the external_id of row ' || d.first_idx
  from (select x.idx, min(x.idx) over (partition by x.external_id) as first_idx
        from pg_temp.rr_batch x where x.external_id is not null and x.error is null) d
  where b.idx = d.idx and d.first_idx <> d.idx;

  update pg_temp.rr_batch b set error = 'external_id: a review request with this external_id exists already (' || q.id || '); it is not sent again'
  from plaudit.review_requests q
  where b.error is null and b.external_id is not null and q.org_id = tenant and q.external_id = b.external_id;

  update pg_temp.rr_batch b set suppressed = s.reason
  from plaudit.email_suppressions s
  where b.error is null and s.org_id = tenant and lower(s.email) = lower(b.email);

  select count(*) into to_send from pg_temp.rr_batch b where b.error is null and b.suppressed is null;
  perform plaudit.take_review_request_quota(tenant, to_send);

  -- A concurrent call may have taken an external_id since: that row is reported, not inserted.
  with inserted as (
    insert into plaudit.review_requests as q
      (id, org_id, form_id, email, name, order_id, external_id, locale, send_at, link_base, status, failed_at)
    select b.id, tenant, b.form_id, b.email, b.name, b.order_id, b.external_id, b.locale, b.send_at,
           rtrim(p_link_base, '/'),
           case when b.suppressed is null then 'queued' else 'failed' end,
           case when b.suppressed is null then null else now() end
    from pg_temp.rr_batch b where b.error is null
    order by b.idx
    on conflict (org_id, external_id) where external_id is not null do nothing
    returning q.id
  )
  update pg_temp.rr_batch b set error = 'external_id: a review request with this external_id exists already; it is not sent again'
  where b.error is null and not exists (select from inserted i where i.id = b.id);

  insert into plaudit.review_request_events (org_id, request_id, type, dedupe_key, occurred_at, applied, data)
  select tenant, b.id, 'queued', 'queued', now(), true,
         case when b.send_at > now() then jsonb_build_object('send_at', b.send_at) else '{}' end
  from pg_temp.rr_batch b where b.error is null;

  insert into plaudit.review_request_events (org_id, request_id, type, dedupe_key, occurred_at, applied, data)
  select tenant, b.id, 'failed', 'failed', now(), true,
         jsonb_build_object('reason', 'suppressed', 'suppression_reason', b.suppressed)
  from pg_temp.rr_batch b where b.error is null and b.suppressed is not null;

  insert into plaudit.email_outbox (org_id, to_address, template, locale, data, idempotency_key, next_attempt_at)
  select tenant, b.email, 'review_request', b.locale,
         jsonb_build_object('review_request_id', b.id, 'name', b.name, 'form_name', f.name)
           || plaudit.review_request_links(b.id, p_link_base),
         'review_request:' || b.id, b.send_at
  from pg_temp.rr_batch b join plaudit.review_forms f on f.id = b.form_id
  where b.error is null and b.suppressed is null;

  if to_send > 0 then
    perform pg_notify('plaudit_outbox', 'email');
  end if;

  return query select b.idx, case when b.error is null then b.id end, b.error
    from pg_temp.rr_batch b order by b.idx;
end
$$;

grant execute on function plaudit.create_review_requests(jsonb, text) to plaudit_api;
revoke execute on function plaudit.create_review_requests(jsonb, text) from public;
