-- The suppression list: addresses an organization never sends review requests (or reminders) to
-- again. An unsubscribe, a hard bounce or a complaint adds the address; the tenant can add one
-- by hand and lift any entry. E-mails that are transactional for the recipient (the review
-- verification link they asked for, a team invitation) are not review requests and are not
-- suppressed.
create table plaudit.email_suppressions (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  email text not null check (char_length(email) <= 320 and email ~ '^[^@\s]+@[^@\s]+$'),
  reason text not null check (reason in ('unsubscribed', 'bounced', 'complained', 'manual')),
  -- The request whose e-mail led to it, when there was one.
  request_id uuid references plaudit.review_requests (id) on delete set null,
  created_at timestamptz not null default now()
);

create unique index email_suppressions_org_id_email on plaudit.email_suppressions (org_id, lower(email));
create index email_suppressions_org_id_created_at on plaudit.email_suppressions (org_id, created_at, id);

alter table plaudit.email_suppressions enable row level security;

create policy "Tenants can read their own suppression list"
  on plaudit.email_suppressions for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can add addresses to their own suppression list"
  on plaudit.email_suppressions for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()) and reason = 'manual');

create policy "Tenants can lift entries of their own suppression list"
  on plaudit.email_suppressions for delete to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select, delete on plaudit.email_suppressions to plaudit_api;
grant insert (org_id, email, reason) on plaudit.email_suppressions to plaudit_api;

-- Review-request e-mails still waiting in the outbox are found by address and by request.
create index email_outbox_org_id_queued_address on plaudit.email_outbox (org_id, lower(to_address))
  where status = 'queued';
create index email_outbox_org_id_queued_request on plaudit.email_outbox (org_id, (data ->> 'review_request_id'))
  where status = 'queued';

-- Whether the organization suppresses the address (answers the reason, or null).
create function plaudit.suppression_reason(p_org_id uuid, p_email text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select s.reason from plaudit.email_suppressions s
  where s.org_id = p_org_id and lower(s.email) = lower(p_email)
$$;

-- Withdraws the review-request e-mails (first sends and reminders) not yet handed to the
-- transport. `p_request_id` null: every such e-mail to `p_email`; else only that request's.
-- Answers how many were withdrawn.
create function plaudit.cancel_queued_request_emails(p_org_id uuid, p_email text, p_request_id uuid, p_reason text)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
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

-- A manual addition withdraws what is queued for the address, as the automatic ones do.
create function plaudit.email_suppressions_cancel_queued()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform plaudit.cancel_queued_request_emails(new.org_id, new.email, null, 'the address is on the suppression list');
  return null;
end
$$;

create trigger email_suppressions_cancel_queued
  after insert on plaudit.email_suppressions
  for each row execute function plaudit.email_suppressions_cancel_queued();

revoke execute on function plaudit.suppression_reason(uuid, text),
  plaudit.cancel_queued_request_emails(uuid, text, uuid, text),
  plaudit.email_suppressions_cancel_queued() from public;
