-- A provider event can overtake the worker: the provider may report `delivered` (or a bounce)
-- before the worker has recorded the message id the provider answered at sending. Such an event
-- was answered 'ignored' and lost. Now an id that no outbox row carries answers 'unknown', which
-- the API turns into a 404 so that the provider delivers the event again later; 'ignored'
-- remains for messages that are known but not a review request's.
create or replace function plaudit.record_email_provider_event(
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
