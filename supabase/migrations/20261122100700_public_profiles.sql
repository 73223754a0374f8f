-- Public-profile settings of an organization: the search-engine-indexed profile page and the
-- embeddable widget. An organization without a row has the defaults (enabled, list layout,
-- light theme, 10 reviews, every rating); the first PATCH creates the row.
create table plaudit.public_profiles (
  org_id uuid primary key references plaudit.organizations (id) on delete cascade,
  enabled boolean not null default true,
  display_name text check (char_length(display_name) between 1 and 200),
  description text check (char_length(description) <= 2000),
  website text check (char_length(website) <= 2048 and website ~* '^https?://'),
  logo_url text check (char_length(logo_url) <= 2048 and logo_url ~* '^https://'),
  embed_layout text not null default 'list' check (embed_layout in ('list', 'grid', 'carousel')),
  embed_theme text not null default 'light' check (embed_theme in ('light', 'dark')),
  embed_max_reviews integer not null default 10 check (embed_max_reviews between 1 and 100),
  embed_min_rating integer not null default 1 check (embed_min_rating between 1 and 5),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create trigger public_profiles_touch_updated_at
  before update on plaudit.public_profiles
  for each row execute function plaudit.touch_updated_at();

alter table plaudit.public_profiles enable row level security;

create policy "Tenants can read their own public profile"
  on plaudit.public_profiles for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can create their own public profile"
  on plaudit.public_profiles for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can update their own public profile"
  on plaudit.public_profiles for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

grant select on plaudit.public_profiles to plaudit_api;
grant insert (org_id, enabled, display_name, description, website, logo_url, embed_layout, embed_theme,
              embed_max_reviews, embed_min_rating)
  on plaudit.public_profiles to plaudit_api;
grant update (enabled, display_name, description, website, logo_url, embed_layout, embed_theme,
              embed_max_reviews, embed_min_rating)
  on plaudit.public_profiles to plaudit_api;
