-- E-mail delivery: the worker claims due messages of the outbox and records each outcome.

-- Claims up to p_limit due messages (status 'sending' while leased), with what the templates
-- need: the message's data and its organization's brand (plaudit.brand_name).
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
set search_path = pg_catalog, pg_temp
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
    select c.id, c.claim_token, c.org_id, plaudit.brand_name(c.org_id), c.to_address, c.template, c.locale, c.data,
           c.idempotency_key, c.attempts
    from claimed c;
    get diagnostics claimed = row_count;

    wanted := wanted - claimed;
    exit when withdrawn = 0 or wanted <= 0;
  end loop;
end
$$;
comment on function plaudit.claim_emails(integer,integer,uuid[]) is 'Claims up to p_limit due e-mails under a lease, with their data and brand, failing those withdrawn meanwhile.';
grant execute on function plaudit.claim_emails(integer,integer,uuid[]) to plaudit_worker;

-- Records a send: sent, retried after p_retry_in_ms, or failed for good (p_retry_in_ms null).
create or replace function plaudit.record_email_result(
  p_id uuid, p_claim_token uuid, p_sent boolean, p_provider_message_id text, p_error text,
  p_retry_in_ms bigint
)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
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
comment on function plaudit.record_email_result(uuid,uuid,boolean,text,text,bigint) is 'Records a claimed e-mail''s send: sent, queued again for a retry, or failed for good; answers its status.';
grant execute on function plaudit.record_email_result(uuid,uuid,boolean,text,text,bigint) to plaudit_worker;
