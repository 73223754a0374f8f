-- How a review request learns about its e-mail: from the outbox (the worker's transport accepted
-- it: `sent`; or gave up: `failed`) and from the provider's event webhook (delivered, bounced,
-- complained, delayed), matched by the provider's message id.

-- The worker records each send with plaudit.record_email_result; this trigger turns the outbox
-- row's new status into the request's event, in the same transaction. SMTP acceptance (or the
-- HTTP provider's 2xx) counts as `sent`.
create function plaudit.email_outbox_track_review_requests()
returns trigger
language plpgsql
security definer
set search_path = ''
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

create trigger email_outbox_track_review_requests
  after update of status on plaudit.email_outbox
  for each row
  when (new.status is distinct from old.status and new.data ? 'review_request_id')
  execute function plaudit.email_outbox_track_review_requests();

-- Provider events name the message by the id the provider gave at sending.
create index email_outbox_provider_message_id on plaudit.email_outbox (provider_message_id)
  where provider_message_id is not null;

-- Records one provider event (the API has checked its signature). p_type: delivered, bounced,
-- soft_bounced, complained, delivery_delayed, opened, clicked. p_event_id is the provider's
-- event id: a repeated delivery of the webhook applies once. Answers the outcome of
-- plaudit.apply_review_request_event, or 'ignored' when the message is not a review request's.
-- A hard bounce or complaint also suppresses the address when the message was a reminder.
create function plaudit.record_email_provider_event(
  p_provider_message_id text, p_type text, p_event_id text, p_occurred_at timestamptz, p_data jsonb default '{}'
)
returns text
language plpgsql
volatile
security definer
set search_path = ''
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
  if not found or m.request_id is null then
    return 'ignored';
  end if;
  return plaudit.apply_review_request_event(m.request_id::uuid, p_type,
    'provider:' || left(coalesce(p_event_id, p_type || ':' || p_provider_message_id), 280),
    p_occurred_at, coalesce(p_data, '{}'));
end
$$;

revoke execute on function plaudit.email_outbox_track_review_requests(),
  plaudit.record_email_provider_event(text, text, text, timestamptz, jsonb) from public;
grant execute on function plaudit.record_email_provider_event(text, text, text, timestamptz, jsonb) to plaudit_public;
