-- One brand everywhere a customer looks: the hosted review form, the review-request landing
-- page and the e-mails name the business as its public profile does (its display name, falling
-- back to the organization's name) and the pages show its logo. The organization's legal name
-- stays for the team's own mail (invitations).
set role plaudit_owner;

-- The name a business shows its customers.
create function plaudit.brand_name(p_org_id uuid)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(nullif(btrim(p.display_name), ''), o.name)
    from plaudit.organizations o left join plaudit.public_profiles p on p.org_id = o.id
   where o.id = p_org_id
$$;

-- The hosted form of /forms/:formId, now with the business's logo.
drop function plaudit.public_review_form(uuid);
create function plaudit.public_review_form(p_form_id uuid)
returns table (id uuid, org_name text, name text, verification_mode text, custom_fields jsonb, logo_url text)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select f.id, plaudit.brand_name(f.org_id), f.name, f.verification_mode, f.custom_fields, p.logo_url
  from plaudit.review_forms f left join plaudit.public_profiles p on p.org_id = f.org_id
  where f.id = p_form_id and f.deleted_at is null and f.is_active
$$;

-- The landing page of /r/:token, now with the business's logo.
drop function plaudit.review_request_landing(text);
create function plaudit.review_request_landing(p_token text)
returns table (
  request_id uuid, status text, name text, email text, order_id text, locale text,
  form_id uuid, form_name text, form_active boolean, verification_mode text, custom_fields jsonb,
  org_name text, logo_url text
)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select q.id, q.status, q.name, q.email, q.order_id, q.locale,
         f.id, f.name, f.is_active and f.deleted_at is null, f.verification_mode, f.custom_fields,
         plaudit.brand_name(q.org_id), p.logo_url
  from plaudit.review_requests q
  join plaudit.review_forms f on f.id = q.form_id
  left join plaudit.public_profiles p on p.org_id = q.org_id
  where q.id = plaudit.review_request_from_token(p_token)
$$;

-- The e-mails: the templates' organization name is the brand.
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

revoke execute on all functions in schema plaudit from public;
grant execute on function plaudit.public_review_form(uuid), plaudit.review_request_landing(text) to plaudit_public;

reset role;
