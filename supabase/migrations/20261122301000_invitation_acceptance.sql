-- Team invitations: the e-mail that carries the one-time token, and the accept page that makes
-- the invitee a member.

-- Queues the invitation e-mail. The API calls it in the transaction that created the invitation,
-- with the plaintext token plaudit.create_invitation answered: the token must hash to the
-- invitation's, so the function can only ever mail an invitation's own address, of the tenant.
create function plaudit.queue_invitation_email(p_invitation_id uuid, p_token text, p_link_base text)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
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

-- The accept page: the invitation a token stands for, and its state
-- (pending | accepted | expired | revoked | invalid).
create function plaudit.invitation_for_token(p_token text)
returns table (state text, email text, role text, org_name text, expires_at timestamptz)
language sql
stable
security definer
set search_path = ''
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

-- Accepts: the invitee becomes a member with the invitation's role, once. Answers the state
-- afterwards: accepted (now), already_member, accepted_before, expired, revoked or invalid.
create function plaudit.accept_invitation(p_token text, p_name text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
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

revoke execute on function plaudit.queue_invitation_email(uuid, text, text),
  plaudit.invitation_for_token(text),
  plaudit.accept_invitation(text, text) from public;
grant execute on function plaudit.queue_invitation_email(uuid, text, text) to plaudit_api;
grant execute on function plaudit.invitation_for_token(text), plaudit.accept_invitation(text, text) to plaudit_public;
