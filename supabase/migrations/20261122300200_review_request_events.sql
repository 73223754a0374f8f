-- The timeline of a review request, and the one function that applies an event to it.
--
-- Every fact about a request (queued, sent by the worker, delivered/bounced/complained per the
-- provider, opened, clicked, completed, unsubscribed, a reminder) is an event with a dedupe key:
-- the provider's event id for provider events, a fixed key for facts that happen once (`sent`,
-- `opened` for the first open, …). The key is unique per request, so a duplicate delivery of
-- the same provider event applies once. The status follows the precedence of
-- plaudit.review_request_status_rank and never moves backwards, so out-of-order events converge
-- on the same state whatever their order.
create table plaudit.review_request_events (
  id bigint generated always as identity primary key,
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  request_id uuid not null references plaudit.review_requests (id) on delete cascade,
  type text not null check (type in (
    'queued', 'sent', 'delivered', 'opened', 'clicked', 'completed', 'bounced', 'complained',
    'unsubscribed', 'failed', 'soft_bounced', 'delivery_delayed', 'reminder_queued', 'reminder_sent')),
  dedupe_key text not null check (char_length(dedupe_key) between 1 and 300),
  -- When it happened (the provider's time for provider events); received_at: when we learnt it.
  occurred_at timestamptz not null,
  received_at timestamptz not null default now(),
  -- Whether it moved the status.
  applied boolean not null default false,
  data jsonb not null default '{}' check (jsonb_typeof(data) = 'object')
);

create unique index review_request_events_dedupe
  on plaudit.review_request_events (org_id, request_id, dedupe_key);
create index review_request_events_org_id_occurred_at
  on plaudit.review_request_events (org_id, occurred_at);

alter table plaudit.review_request_events enable row level security;

create policy "Tenants can read the timelines of their own review requests"
  on plaudit.review_request_events for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select on plaudit.review_request_events to plaudit_api;

-- Applies one event to a request, idempotently (keyed by p_dedupe_key, which defaults to the
-- type). Answers 'applied' (the status moved), 'recorded' (kept in the timeline, status
-- unchanged: a late or lesser event), 'duplicate' (seen before: nothing changes) or 'not_found'.
-- Side effects, in the same transaction: a bounce (hard), complaint or unsubscribe puts the
-- address on the organization's suppression list; a request that reached an end (completed,
-- bounced, complained, unsubscribed, failed) has its e-mails still queued withdrawn.
create function plaudit.apply_review_request_event(
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
set search_path = ''
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
    review_id = coalesce(q.review_id, case when p_type = 'completed' then (p_data ->> 'review_id')::uuid end)
  where q.id = r.id;

  if p_type in ('bounced', 'complained', 'unsubscribed') then
    insert into plaudit.email_suppressions (org_id, email, reason, request_id)
    values (r.org_id, r.email, p_type, r.id)
    on conflict (org_id, lower(email)) do nothing;
    perform plaudit.cancel_queued_request_emails(r.org_id, r.email, null, 'the address is on the suppression list');
  end if;
  if p_type in ('completed', 'bounced', 'complained', 'unsubscribed', 'failed') then
    perform plaudit.cancel_queued_request_emails(r.org_id, r.email, r.id, 'the request is ' || p_type);
  end if;

  return case when moves then 'applied' else 'recorded' end;
end
$$;

-- A review of the same address on the same form completes the organization's open requests,
-- however it was submitted (the landing page, the hosted form, the API). A request still
-- waiting for its send time is completed too, and its e-mail withdrawn: nobody is asked for a
-- review they already wrote.
create function plaudit.reviews_complete_review_requests()
returns trigger
language plpgsql
security definer
set search_path = ''
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
  end loop;
  return null;
end
$$;

create trigger reviews_complete_review_requests
  after insert on plaudit.reviews
  for each row execute function plaudit.reviews_complete_review_requests();

revoke execute on function
  plaudit.apply_review_request_event(uuid, text, text, timestamptz, jsonb),
  plaudit.reviews_complete_review_requests()
  from public;
