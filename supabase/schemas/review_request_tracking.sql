-- Tracking review requests: the suppression list, the events of each request (sent, opened, clicked, completed) and the provider's reports.

-- An address as the suppression list, erasures and data requests match it: the HMAC-SHA256, keyed
-- with a secret the database made and only its owner reads (plaudit.signing_secrets, `email_keys`),
-- of the SHA-256 of the organization's id, a colon and the address in lower case. Keyed by the
-- organization, one key says nothing of the same address elsewhere; keyed by the secret, a
-- dictionary of addresses does not reverse a stored key (a copy of the tables without the
-- secret). The inner SHA-256 is the key before it was keyed, so the change that keyed it re-keyed
-- every stored key from itself, erased addresses' too. An erased address is kept as this alone.
create or replace function plaudit.email_key(p_org_id uuid, p_email text)
returns bytea
language sql
stable
strict
parallel safe
security definer
set search_path = pg_catalog, pg_temp
as $$
  select extensions.hmac(sha256(convert_to(p_org_id::text || ':' || lower(p_email), 'UTF8')), s.secret, 'sha256')
    from plaudit.signing_secrets s where s.purpose = 'email_keys'
$$;
comment on function plaudit.email_key(uuid,text) is 'An address as the suppression list matches it: the HMAC-SHA256, with the database''s email_keys secret, of the SHA-256 of the organization''s id and the address in lower case.';
grant execute on function plaudit.email_key(uuid,text) to plaudit_api;

-- Every suppression is matched by its key; an address written (not an erased one) keys itself.
create or replace function plaudit.email_suppressions_set_key()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  if new.email is not null then
    new.email_key := plaudit.email_key(new.org_id, new.email);
  end if;
  return new;
end
$$;
comment on function plaudit.email_suppressions_set_key() is 'A suppressed address is keyed by plaudit.email_key, whoever writes it.';

-- Whether the organization suppresses the address (answers the reason, or null).
create or replace function plaudit.suppression_reason(p_org_id uuid, p_email text)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select s.reason from plaudit.email_suppressions s
  where s.org_id = p_org_id and s.email_key = plaudit.email_key(p_org_id, p_email)
$$;
comment on function plaudit.suppression_reason(uuid,text) is 'The reason the organization suppresses an address, or null when it does not.';

-- Withdraws the review-request e-mails (first sends and reminders) not yet handed to the
-- transport. `p_request_id` null: every such e-mail to `p_email`; else only that request's.
-- Answers how many were withdrawn.
create or replace function plaudit.cancel_queued_request_emails(p_org_id uuid, p_email text, p_request_id uuid, p_reason text)
returns integer
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  n integer;
begin
  if p_request_id is not null then
    update plaudit.email_outbox e
      set status = 'failed', last_error = 'cancelled: ' || p_reason, locked_until = null
      where e.org_id = p_org_id and e.status = 'queued'
        and e.data ->> 'review_request_id' = p_request_id::text
        and e.template in ('review_request', 'review_reminder');
  else
    update plaudit.email_outbox e
      set status = 'failed', last_error = 'cancelled: ' || p_reason, locked_until = null
      where e.org_id = p_org_id and e.status = 'queued' and lower(e.to_address) = lower(p_email)
        and e.template in ('review_request', 'review_reminder');
  end if;
  get diagnostics n = row_count;
  return n;
end
$$;
comment on function plaudit.cancel_queued_request_emails(uuid,text,uuid,text) is 'Withdraws the queued review-request e-mails to an address, or of one request; answers how many.';

-- A manual addition withdraws what is queued for the address, as the automatic ones do.
create or replace function plaudit.email_suppressions_cancel_queued()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  perform plaudit.cancel_queued_request_emails(new.org_id, new.email, null, 'the address is on the suppression list');
  return null;
end
$$;
comment on function plaudit.email_suppressions_cancel_queued() is 'An address added to the suppression list has its queued review-request e-mails withdrawn.';

-- Applies one event to a request, idempotently (keyed by p_dedupe_key, which defaults to the
-- type). Answers 'applied' (the status moved), 'recorded' (kept in the timeline, status
-- unchanged: a late or lesser event), 'duplicate' (seen before: nothing changes) or 'not_found'.
-- Side effects, in the same transaction: a bounce (hard), complaint or unsubscribe puts the
-- address on the organization's suppression list; a request that reached an end (completed,
-- bounced, complained, unsubscribed, failed) has its e-mails still queued withdrawn.
create or replace function plaudit.apply_review_request_event(
  p_request_id uuid,
  p_type text,
  p_dedupe_key text default null,
  p_occurred_at timestamptz default null,
  p_data jsonb default '{}'
)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  r plaudit.review_requests;
  at timestamptz := coalesce(p_occurred_at, now());
  event_id bigint;
  is_status boolean := plaudit.review_request_status_rank(p_type) is not null;
  moves boolean;
begin
  select * into r from plaudit.review_requests where id = p_request_id for update;
  if not found then
    return 'not_found';
  end if;
  moves := is_status
    and plaudit.review_request_status_rank(p_type) > plaudit.review_request_status_rank(r.status);

  insert into plaudit.review_request_events as e (org_id, request_id, type, dedupe_key, occurred_at, applied, data)
  values (r.org_id, r.id, p_type, coalesce(p_dedupe_key, p_type), at, moves, coalesce(p_data, '{}'))
  on conflict (org_id, request_id, dedupe_key) do nothing
  returning e.id into event_id;
  if event_id is null then
    return 'duplicate';
  end if;

  -- Each stage keeps the earliest time it is known to have been reached; a later stage implies
  -- the earlier ones (a click proves the open and the delivery).
  update plaudit.review_requests q set
    status = case when moves then p_type else q.status end,
    sent_at = case when p_type in ('sent', 'delivered', 'opened', 'clicked') then least(q.sent_at, at) else q.sent_at end,
    delivered_at = case when p_type in ('delivered', 'opened', 'clicked') then least(q.delivered_at, at) else q.delivered_at end,
    opened_at = case when p_type in ('opened', 'clicked') then least(q.opened_at, at) else q.opened_at end,
    clicked_at = case when p_type = 'clicked' then least(q.clicked_at, at) else q.clicked_at end,
    completed_at = case when p_type = 'completed' then least(q.completed_at, at) else q.completed_at end,
    bounced_at = case when p_type = 'bounced' then least(q.bounced_at, at) else q.bounced_at end,
    complained_at = case when p_type = 'complained' then least(q.complained_at, at) else q.complained_at end,
    unsubscribed_at = case when p_type = 'unsubscribed' then least(q.unsubscribed_at, at) else q.unsubscribed_at end,
    failed_at = case when p_type = 'failed' then least(q.failed_at, at) else q.failed_at end,
    canceled_at = case when p_type = 'canceled' and moves then least(q.canceled_at, at) else q.canceled_at end,
    review_id = coalesce(q.review_id, case when p_type = 'completed' then (p_data ->> 'review_id')::uuid end)
  where q.id = r.id;

  if p_type in ('bounced', 'complained', 'unsubscribed') then
    insert into plaudit.email_suppressions (org_id, email, reason, request_id)
    values (r.org_id, r.email, p_type, r.id)
    on conflict (org_id, email_key) do nothing;
    perform plaudit.cancel_queued_request_emails(r.org_id, r.email, null, 'the address is on the suppression list');
  end if;
  if p_type in ('completed', 'bounced', 'complained', 'unsubscribed', 'failed', 'canceled') then
    perform plaudit.cancel_queued_request_emails(r.org_id, r.email, r.id, 'the request is ' || p_type);
  end if;

  return case when moves then 'applied' else 'recorded' end;
end
$$;
comment on function plaudit.apply_review_request_event(uuid,text,text,timestamp with time zone,jsonb) is 'Applies one event to a review request, once per dedupe key; answers what it did.';

-- A review of the same address on the same form completes the organization's open requests,
-- however it was submitted (the landing page, the hosted form, the API). A request still
-- waiting for its send time is completed too, and its e-mail withdrawn: nobody is asked for a
-- review they already wrote. The review also counts as the request's review of its subject (the
-- business, or a product the request names), so the request's page no longer asks for that one.
-- Imported reviews never reach it: its trigger's WHEN leaves them out (they answer no request of today).
create or replace function plaudit.reviews_complete_review_requests()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  q record;
begin
  for q in
    select rr.id from plaudit.review_requests rr
    where rr.org_id = new.org_id and rr.form_id = new.form_id
      and lower(rr.email) = lower(new.reviewer_email) and rr.completed_at is null
  loop
    perform plaudit.apply_review_request_event(q.id, 'completed', 'completed', new.created_at,
      jsonb_build_object('review_id', new.id));
    insert into plaudit.review_request_reviews (org_id, request_id, product_id, review_id)
    select new.org_id, q.id, new.product_id, new.id
     where new.product_id is null
        or exists (select from plaudit.review_request_products rp
                    where rp.org_id = new.org_id and rp.request_id = q.id and rp.product_id = new.product_id)
    on conflict do nothing;
  end loop;
  return null;
end
$$;
comment on function plaudit.reviews_complete_review_requests() is 'A new review completes its organization''s open requests for the same address and form.';

-- The worker records each send with plaudit.record_email_result; this trigger turns the outbox
-- row's new status into the request's event, in the same transaction. SMTP acceptance (or the
-- HTTP provider's 2xx) counts as `sent`.
create or replace function plaudit.email_outbox_track_review_requests()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  request_id uuid := (new.data ->> 'review_request_id')::uuid;
begin
  if new.template = 'review_request' and new.status = 'sent' then
    perform plaudit.apply_review_request_event(request_id, 'sent', 'sent', coalesce(new.sent_at, now()),
      jsonb_build_object('email_id', new.id));
  elsif new.template = 'review_reminder' and new.status = 'sent' then
    perform plaudit.apply_review_request_event(request_id, 'reminder_sent',
      'reminder_sent:' || coalesce(new.data ->> 'reminder', '1'), coalesce(new.sent_at, now()),
      jsonb_build_object('email_id', new.id, 'reminder', (new.data ->> 'reminder')::integer));
  elsif new.template = 'review_request' and new.status = 'failed'
        and coalesce(new.last_error, '') not like 'cancelled: the request is %' then
    perform plaudit.apply_review_request_event(request_id, 'failed', 'failed', now(),
      case when new.last_error like 'cancelled: the address%'
           then jsonb_build_object('reason', 'suppressed')
           else jsonb_build_object('reason', 'send_failed', 'error', left(new.last_error, 300)) end);
  end if;
  return null;
end
$$;
comment on function plaudit.email_outbox_track_review_requests() is 'A review-request e-mail that is sent or fails records the matching event on its request.';

-- Provider webhooks name a message, not a request: the outbox row that sent it leads to the
-- request. The provider's event id is the dedupe key, so a redelivered event applies once.
create or replace function plaudit.record_email_provider_event(
  p_provider_message_id text, p_type text, p_event_id text, p_occurred_at timestamptz, p_data jsonb default '{}'
)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  m record;
begin
  if p_type not in ('delivered', 'bounced', 'soft_bounced', 'complained', 'delivery_delayed', 'opened', 'clicked') then
    raise exception 'unknown e-mail event type %', p_type using errcode = 'invalid_parameter_value';
  end if;
  select e.org_id, e.data ->> 'review_request_id' as request_id into m
    from plaudit.email_outbox e
    where e.provider_message_id = p_provider_message_id
    limit 1;
  if not found then
    return 'unknown';
  end if;
  if m.request_id is null then
    return 'ignored';
  end if;
  return plaudit.apply_review_request_event(m.request_id::uuid, p_type,
    'provider:' || left(coalesce(p_event_id, p_type || ':' || p_provider_message_id), 280),
    p_occurred_at, coalesce(p_data, '{}'));
end
$$;
comment on function plaudit.record_email_provider_event(text,text,text,timestamp with time zone,jsonb) is 'Applies an e-mail provider''s event to its message''s review request; answers the outcome.';
grant execute on function plaudit.record_email_provider_event(text,text,text,timestamp with time zone,jsonb) to plaudit_public;

-- The open pixel and the click redirect: every open and click is counted; the first of each is
-- the event of the timeline (`opened`, `clicked`). Answers whether the token was valid.
create or replace function plaudit.track_review_request(p_token text, p_kind text)
returns boolean
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  request_id uuid := plaudit.review_request_from_token(p_token);
begin
  if request_id is null or p_kind not in ('opened', 'clicked') then
    return false;
  end if;
  update plaudit.review_requests q
    set open_count = q.open_count + case when p_kind = 'opened' then 1 else 0 end,
        click_count = q.click_count + case when p_kind = 'clicked' then 1 else 0 end
    where q.id = request_id;
  if not found then
    return false;
  end if;
  perform plaudit.apply_review_request_event(request_id, p_kind, p_kind, now(), '{}');
  return true;
end
$$;
comment on function plaudit.track_review_request(text,text) is 'Counts an open or a click of a request''s link, the first of each an event of its timeline; answers whether the token was valid.';
grant execute on function plaudit.track_review_request(text,text) to plaudit_public;

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger email_outbox_track_review_requests
  after update of status on plaudit.email_outbox
  for each row
  when (new.status is distinct from old.status and new.data ? 'review_request_id')
  execute function plaudit.email_outbox_track_review_requests();

create trigger email_suppressions_cancel_queued
  after insert on plaudit.email_suppressions
  for each row execute function plaudit.email_suppressions_cancel_queued();

-- Every suppression is keyed, whoever writes it.
create trigger email_suppressions_set_key before insert or update of email on plaudit.email_suppressions
  for each row execute function plaudit.email_suppressions_set_key();

create trigger reviews_complete_review_requests after insert on plaudit.reviews
  for each row when (new.source <> 'import')
  execute function plaudit.reviews_complete_review_requests();
