-- Team invitations: their e-mails, the link's state, and accepting them.

-- Queues the invitation e-mail. The API calls it in the transaction that created the invitation,
-- with the plaintext token plaudit.create_invitation answered: the token must hash to the
-- invitation's, so the function can only ever mail an invitation's own address, of the tenant.
create or replace function plaudit.queue_invitation_email(p_invitation_id uuid, p_token text, p_link_base text)
returns uuid
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  i plaudit.invitations;
begin
  select * into i from plaudit.invitations inv
    where inv.id = p_invitation_id and inv.org_id = plaudit.current_org_id()
      and inv.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
      and inv.accepted_at is null and inv.revoked_at is null;
  if not found then
    raise exception 'Invitation not found' using errcode = 'no_data_found';
  end if;
  return plaudit.enqueue_email(i.org_id, i.email, 'team_invitation',
    jsonb_build_object('invitation_id', i.id, 'role', i.role, 'email', i.email,
                       'accept_url', rtrim(p_link_base, '/') || '/invitations/' || p_token,
                       'expires_at', to_char(i.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
    'en', 'team_invitation:' || i.id);
end
$$;
comment on function plaudit.queue_invitation_email(uuid,text,text) is 'Queues the e-mail of an invitation of the transaction''s tenant, given its plaintext token.';
grant execute on function plaudit.queue_invitation_email(uuid,text,text) to plaudit_api;

-- The accept page: the invitation a token stands for, and its state
-- (pending | accepted | expired | revoked | invalid).
create or replace function plaudit.invitation_for_token(p_token text)
returns table (state text, email text, role text, org_name text, expires_at timestamptz)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(
           case when i.id is null then 'invalid'
                when i.accepted_at is not null then 'accepted'
                when i.revoked_at is not null then 'revoked'
                when i.expires_at <= now() then 'expired'
                else 'pending' end, 'invalid'),
         i.email, i.role, o.name, i.expires_at
  from (select 1) one
  left join plaudit.invitations i on i.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
  left join plaudit.organizations o on o.id = i.org_id
$$;
comment on function plaudit.invitation_for_token(text) is 'The accept page: the invitation a token stands for, and its state (pending | accepted | expired | revoked | invalid).';
grant execute on function plaudit.invitation_for_token(text) to plaudit_public;

-- Accepts: the invitee becomes a member with the invitation's role, once. Answers the state
-- afterwards: accepted (now), already_member, accepted_before, expired, revoked or invalid.
create or replace function plaudit.accept_invitation(p_token text, p_name text)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  i plaudit.invitations;
begin
  select * into i from plaudit.invitations inv
    where inv.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    for update;
  if not found then
    return 'invalid';
  elsif i.accepted_at is not null then
    return 'accepted_before';
  elsif i.revoked_at is not null then
    return 'revoked';
  elsif i.expires_at <= now() then
    return 'expired';
  end if;
  update plaudit.invitations set accepted_at = now() where id = i.id;
  insert into plaudit.members (org_id, email, name, role)
  values (i.org_id, i.email, nullif(left(btrim(coalesce(p_name, '')), 200), ''), i.role)
  on conflict (org_id, lower(email)) do nothing;
  if not found then
    return 'already_member';
  end if;
  return 'accepted';
end
$$;
comment on function plaudit.accept_invitation(text,text) is 'Accepts an invitation: the invitee becomes a member with its role, once; answers the state afterwards.';
grant execute on function plaudit.accept_invitation(text,text) to plaudit_public;

-- Why a review-request e-mail (first send or reminder) must not go out any more: its request has
-- reached an end, or its address is on the organization's suppression list. Null: it may go.
-- Other templates (verification links, invitations) are not review requests and always may.
-- The texts are those of plaudit.cancel_queued_request_emails: the outbox trigger
-- (plaudit.email_outbox_track_review_requests) reads them. A request that ended is named first,
-- so that its timeline gets no `failed` event on top of its end.
-- Not granted to anyone: only the SECURITY DEFINER functions below call it.
create or replace function plaudit.review_request_email_withdrawal(p_org_id uuid, p_template text, p_to text, p_data jsonb)
returns text
language plpgsql
stable
set search_path = pg_catalog, pg_temp
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
             where s.org_id = p_org_id and s.email_key = plaudit.email_key(p_org_id, p_to)) then
    return 'the address is on the suppression list';
  end if;
  return null;
end
$$;
comment on function plaudit.review_request_email_withdrawal(uuid,text,text,jsonb) is 'Why a review-request e-mail must not go out any more, or null when it may.';

-- ============================================================================================
-- withdrawn invitation emails
-- ============================================================================================
-- Withdrawing an invitation also withdraws its e-mail when that is still waiting in the outbox
-- (the worker was down, or the send is being retried), so that nobody is invited after the
-- invitation was taken back. An e-mail the worker has already claimed may still go out; its link
-- then opens the page that says the invitation was withdrawn.
create or replace function plaudit.invitations_cancel_queued_email()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  update plaudit.email_outbox e
    set status = 'failed', last_error = 'cancelled: the invitation was withdrawn', locked_until = null
    where e.org_id = new.org_id and e.status = 'queued' and e.template = 'team_invitation'
      and e.data ->> 'invitation_id' = new.id::text;
  return null;
end
$$;
comment on function plaudit.invitations_cancel_queued_email() is 'Withdrawing an invitation withdraws its e-mail while that still waits in the outbox.';

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger invitations_cancel_queued_email
  after update of revoked_at on plaudit.invitations
  for each row
  when (old.revoked_at is null and new.revoked_at is not null)
  execute function plaudit.invitations_cancel_queued_email();
