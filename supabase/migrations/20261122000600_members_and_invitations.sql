-- Team members and the invitations that make them. Members join by accepting an invitation
-- (the e-mail and accept page come with review requests); the API lists members and invites.
create table plaudit.members (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  email text not null check (char_length(email) <= 320 and email ~ '^[^@\s]+@[^@\s]+$'),
  name text check (char_length(name) <= 200),
  role text not null check (role in ('owner', 'admin', 'member')),
  created_at timestamptz not null default now()
);

create unique index members_org_id_email on plaudit.members (org_id, lower(email));
create index members_org_id_created_at on plaudit.members (org_id, created_at, id);

alter table plaudit.members enable row level security;

create policy "Tenants can read their own members"
  on plaudit.members for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select on plaudit.members to plaudit_api;

create table plaudit.invitations (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  email text not null check (char_length(email) <= 320 and email ~ '^[^@\s]+@[^@\s]+$'),
  role text not null check (role in ('admin', 'member')),
  token_hash bytea not null unique check (octet_length(token_hash) = 32),
  invited_by_key_id uuid references plaudit.api_keys (id),
  expires_at timestamptz not null default now() + interval '7 days',
  created_at timestamptz not null default now(),
  accepted_at timestamptz,
  revoked_at timestamptz
);

-- At most one open invitation per address and organization.
create unique index invitations_one_open_per_email
  on plaudit.invitations (org_id, lower(email))
  where accepted_at is null and revoked_at is null;
create index invitations_org_id_created_at on plaudit.invitations (org_id, created_at, id);

alter table plaudit.invitations enable row level security;

create policy "Tenants can read their own invitations"
  on plaudit.invitations for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can invite into their own organization"
  on plaudit.invitations for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can withdraw their own invitations"
  on plaudit.invitations for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

-- Like key hashes, invitation token hashes are never readable by the API role.
grant select (id, org_id, email, role, invited_by_key_id, expires_at, created_at, accepted_at,
              revoked_at)
  on plaudit.invitations to plaudit_api;
grant insert (org_id, email, role, token_hash, invited_by_key_id) on plaudit.invitations to plaudit_api;
grant update (revoked_at) on plaudit.invitations to plaudit_api;

-- Invites an address. An expired open invitation to the same address is withdrawn first; an
-- address that is already a member, or has a live invitation, raises unique_violation with a
-- message the API passes on as 409. Answers the invitation and its one-time token.
create function plaudit.create_invitation(
  p_org_id uuid, p_email text, p_role text, p_invited_by_key_id uuid default null
)
returns table (
  id uuid, email text, role text, expires_at timestamptz, created_at timestamptz, token text
)
language plpgsql
volatile
set search_path = ''
as $$
declare
  new_token text := plaudit.random_base62(43);
begin
  if exists (select from plaudit.members m
             where m.org_id = p_org_id and lower(m.email) = lower(p_email)) then
    raise unique_violation using message = 'this address is already a member';
  end if;
  update plaudit.invitations as i set revoked_at = now()
    where i.org_id = p_org_id and lower(i.email) = lower(p_email)
      and i.accepted_at is null and i.revoked_at is null and i.expires_at <= now();
  begin
    return query
      insert into plaudit.invitations as i (org_id, email, role, token_hash, invited_by_key_id)
      values (p_org_id, p_email, p_role, sha256(convert_to(new_token, 'UTF8')), p_invited_by_key_id)
      returning i.id, i.email, i.role, i.expires_at, i.created_at, new_token;
  exception when unique_violation then
    raise unique_violation using message = 'this address already has an open invitation';
  end;
end
$$;

grant execute on function plaudit.create_invitation(uuid, text, text, uuid) to plaudit_api;
