-- An organization is one tenant: every other tenant table carries its org_id.
create table plaudit.organizations (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(name) between 1 and 200),
  slug text not null unique
    check (slug ~ '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$'),
  website text check (website is null or char_length(website) <= 2048),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create trigger organizations_touch_updated_at
  before update on plaudit.organizations
  for each row execute function plaudit.touch_updated_at();

alter table plaudit.organizations enable row level security;

create policy "Tenants can read their own organization"
  on plaudit.organizations for select to plaudit_api
  using (id = (select plaudit.current_org_id()));

create policy "Tenants can update their own organization"
  on plaudit.organizations for update to plaudit_api
  using (id = (select plaudit.current_org_id()))
  with check (id = (select plaudit.current_org_id()));

-- Organizations are created and removed by operators (admin command line), never by the API.
grant select on plaudit.organizations to plaudit_api;
grant update (name, website) on plaudit.organizations to plaudit_api;
