-- Review requests: an e-mail that asks a customer to review the organization on one of its
-- forms. Rows are written only through the SECURITY DEFINER functions of the following
-- migrations (creation, tracking, provider events, reminders); tenants read their own.
--
-- Lifecycle. The status is the most advanced fact known about the request, by this precedence:
--   queued < sent < delivered < opened < clicked < failed < bounced < complained < unsubscribed < completed
-- It never moves backwards (the trigger below refuses it, whoever writes), so events that
-- arrive late or out of order never undo a later state: `delivered` after `opened` is recorded
-- in the timeline and changes nothing. Each stage also keeps the time it was first reached.
create function plaudit.review_request_status_rank(p_status text)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select array_position(
    array['queued', 'sent', 'delivered', 'opened', 'clicked', 'failed', 'bounced', 'complained',
          'unsubscribed', 'completed'],
    p_status)
$$;

create table plaudit.review_requests (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  form_id uuid not null,
  email text not null
    check (char_length(email) <= 320 and email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  name text not null check (char_length(name) between 1 and 200),
  order_id text check (char_length(order_id) between 1 and 200),
  external_id text check (char_length(external_id) between 1 and 200),
  locale text not null default 'en' check (locale ~ '^[a-z]{2}(-[A-Z]{2})?$'),
  status text not null default 'queued'
    check (status in ('queued', 'sent', 'delivered', 'opened', 'clicked', 'failed', 'bounced',
                      'complained', 'unsubscribed', 'completed')),
  send_at timestamptz not null default now(),
  -- PUBLIC_URL when the request was made: the start of every link its e-mails carry.
  link_base text not null check (link_base ~ '^https?://' and char_length(link_base) <= 2048),
  sent_at timestamptz,
  delivered_at timestamptz,
  opened_at timestamptz,
  clicked_at timestamptz,
  completed_at timestamptz,
  bounced_at timestamptz,
  complained_at timestamptz,
  unsubscribed_at timestamptz,
  failed_at timestamptz,
  open_count integer not null default 0,
  click_count integer not null default 0,
  review_id uuid references plaudit.reviews (id),
  reminders_sent smallint not null default 0 check (reminders_sent between 0 and 2),
  last_reminder_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (form_id, org_id) references plaudit.review_forms (id, org_id)
);

-- A repeated external_id never makes a second request (nor a second e-mail).
create unique index review_requests_org_id_external_id on plaudit.review_requests (org_id, external_id)
  where external_id is not null;
-- The list (newest first) and its filters.
create index review_requests_org_id_created_at on plaudit.review_requests (org_id, created_at, id);
create index review_requests_org_id_status on plaudit.review_requests (org_id, status, created_at, id);
create index review_requests_org_id_email on plaudit.review_requests (org_id, lower(email), created_at);
-- A review of the same address on the same form completes the open request.
create index review_requests_org_id_open on plaudit.review_requests (org_id, form_id, lower(email))
  where completed_at is null;
-- Reminders look for requests sent a while ago and not answered.
create index review_requests_org_id_awaiting on plaudit.review_requests (org_id, sent_at)
  where status in ('sent', 'delivered', 'opened', 'clicked');

create function plaudit.review_requests_guard_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (new.id, new.org_id, new.form_id, new.email, new.created_at)
     is distinct from (old.id, old.org_id, old.form_id, old.email, old.created_at) then
    raise exception 'a review request''s recipient, form and organization cannot change'
      using errcode = 'restrict_violation';
  end if;
  if plaudit.review_request_status_rank(new.status) < plaudit.review_request_status_rank(old.status) then
    raise exception 'a review request''s status never moves backwards (% → %)', old.status, new.status
      using errcode = 'restrict_violation';
  end if;
  new.updated_at := now();
  return new;
end
$$;

create trigger review_requests_guard_update
  before update on plaudit.review_requests
  for each row execute function plaudit.review_requests_guard_update();

alter table plaudit.review_requests enable row level security;

create policy "Tenants can read their own review requests"
  on plaudit.review_requests for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select on plaudit.review_requests to plaudit_api;

revoke execute on function plaudit.review_request_status_rank(text),
  plaudit.review_requests_guard_update() from public;
grant execute on function plaudit.review_request_status_rank(text) to plaudit_api;
