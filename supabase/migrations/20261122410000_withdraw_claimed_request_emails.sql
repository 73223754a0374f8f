-- A review-request e-mail is checked again when it is handed to the worker, not only while it
-- waits. plaudit.cancel_queued_request_emails withdraws queued rows when an address is
-- suppressed or a request ends, but a row the worker had claimed already (status `sending`)
-- escaped it: a temporary failure put it back in the queue, or its lease ran out and it was
-- claimed again, and it was sent all the same. Now every claim and every temporary failure asks
-- whether the e-mail may still go.

-- Why a review-request e-mail (first send or reminder) must not go out any more: its request has
-- reached an end, or its address is on the organization's suppression list. Null: it may go.
-- Other templates (verification links, invitations) are not review requests and always may.
-- The texts are those of plaudit.cancel_queued_request_emails: the outbox trigger
-- (plaudit.email_outbox_track_review_requests) reads them. A request that ended is named first,
-- so that its timeline gets no `failed` event on top of its end.
-- Not granted to anyone: only the SECURITY DEFINER functions below call it.
create function plaudit.review_request_email_withdrawal(p_org_id uuid, p_template text, p_to text, p_data jsonb)
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  request_status text;
begin
  if p_template not in ('review_request', 'review_reminder') then
    return null;
  end if;
  select q.status into request_status
    from plaudit.review_requests q where q.id = (p_data ->> 'review_request_id')::uuid;
  if request_status in ('completed', 'bounced', 'complained', 'unsubscribed', 'failed') then
    return 'the request is ' || request_status;
  end if;
  if exists (select from plaudit.email_suppressions s
             where s.org_id = p_org_id and lower(s.email) = lower(p_to)) then
    return 'the address is on the suppression list';
  end if;
  return null;
end
$$;

revoke execute on function plaudit.review_request_email_withdrawal(uuid, text, text, jsonb) from public;

-- As before, plus: each locked batch is checked first, and the e-mails that may no longer go are
-- withdrawn (`failed`, `cancelled: …`) instead of claimed. A batch thinned that way is topped up
-- from the queue, so withdrawn rows never make the worker believe the queue is empty.
create or replace function plaudit.claim_emails(
  p_limit integer default 20,
  p_lease_seconds integer default 60,
  p_org_ids uuid[] default null
)
returns table (
  id uuid, claim_token uuid, org_id uuid, org_name text, to_address text, template text,
  locale text, data jsonb, idempotency_key text, attempt integer
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  now_ts timestamptz := clock_timestamp();
  wanted integer := p_limit;
  batch uuid[];
  withdrawn integer;
  claimed integer;
begin
  loop
    select array_agg(d.id) into batch from (
      select e.id from plaudit.email_outbox e
      where e.status in ('queued', 'sending') and e.next_attempt_at <= now_ts
        and (e.locked_until is null or e.locked_until <= now_ts)
        and (p_org_ids is null or e.org_id = any (p_org_ids))
      order by e.next_attempt_at
      limit wanted
      for update skip locked
    ) d;
    exit when batch is null;

    -- The rows are locked: no suppression or end of a request can slip in between this check
    -- and the claim below without waiting for this transaction.
    update plaudit.email_outbox e
      set status = 'failed', last_error = 'cancelled: ' || w.reason, locked_until = null, claim_token = null
      from (select x.id, plaudit.review_request_email_withdrawal(x.org_id, x.template, x.to_address, x.data) as reason
            from plaudit.email_outbox x where x.id = any (batch)) w
      where e.id = w.id and w.reason is not null;
    get diagnostics withdrawn = row_count;

    -- Withdrawing one e-mail can withdraw others of the batch (the trigger's `failed` event
    -- cancels the request's other e-mails): only rows still waiting are claimed.
    return query
    with claimed as (
      update plaudit.email_outbox e
      set status = 'sending', attempts = e.attempts + 1, claim_token = gen_random_uuid(),
          locked_until = now_ts + make_interval(secs => p_lease_seconds)
      where e.id = any (batch) and e.status in ('queued', 'sending')
      returning e.id, e.claim_token, e.org_id, e.to_address, e.template, e.locale, e.data,
                e.idempotency_key, e.attempts
    )
    select c.id, c.claim_token, c.org_id, o.name, c.to_address, c.template, c.locale, c.data,
           c.idempotency_key, c.attempts
    from claimed c join plaudit.organizations o on o.id = c.org_id;
    get diagnostics claimed = row_count;

    wanted := wanted - claimed;
    exit when withdrawn = 0 or wanted <= 0;
  end loop;
end
$$;

-- As before, plus: a temporary failure of a review-request e-mail that may no longer go (its
-- address was suppressed or its request ended while it was being sent) withdraws it instead of
-- queueing it again.
create or replace function plaudit.record_email_result(
  p_id uuid, p_claim_token uuid, p_sent boolean, p_provider_message_id text, p_error text,
  p_retry_in_ms bigint
)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  new_status text;
  withdrawal text;
begin
  if not p_sent and p_retry_in_ms is not null then
    select plaudit.review_request_email_withdrawal(e.org_id, e.template, e.to_address, e.data) into withdrawal
      from plaudit.email_outbox e
      where e.id = p_id and e.status = 'sending' and e.claim_token = p_claim_token
      for update;
  end if;
  update plaudit.email_outbox e
  set status = case when p_sent then 'sent'
                    when p_retry_in_ms is null or withdrawal is not null then 'failed'
                    else 'queued' end,
      sent_at = case when p_sent then now() else e.sent_at end,
      provider_message_id = coalesce(p_provider_message_id, e.provider_message_id),
      last_error = case when p_sent then null
                        when withdrawal is not null then 'cancelled: ' || withdrawal
                        else left(p_error, 1000) end,
      next_attempt_at = case when p_sent or p_retry_in_ms is null or withdrawal is not null then e.next_attempt_at
                             else now() + make_interval(secs => p_retry_in_ms / 1000.0) end,
      locked_until = null, claim_token = null
  where e.id = p_id and e.status = 'sending' and (e.claim_token = p_claim_token or p_sent)
  returning e.status into new_status;
  return coalesce(new_status, 'stale');
end
$$;
