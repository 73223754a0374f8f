-- Per-organization settings of review requests: the daily sending quota and reminders. An
-- organization without a row has the defaults (1,000 requests a day, no reminders).
create table plaudit.review_request_settings (
  org_id uuid primary key references plaudit.organizations (id) on delete cascade,
  -- Review requests accepted for sending per UTC day (reminders and suppressed addresses do
  -- not count). Beyond it, creating requests answers 429.
  daily_quota integer not null default 1000 check (daily_quota between 1 and 100000),
  reminders_enabled boolean not null default false,
  -- A reminder goes out this many days after the request (or the previous reminder) when no
  -- review came; at most reminder_max (1 or 2) of them.
  reminder_delay_days integer not null default 3 check (reminder_delay_days between 1 and 60),
  reminder_max integer not null default 1 check (reminder_max between 1 and 2),
  updated_at timestamptz not null default now()
);

alter table plaudit.review_request_settings enable row level security;

create policy "Tenants can read their own review request settings"
  on plaudit.review_request_settings for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can create their own review request settings"
  on plaudit.review_request_settings for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can change their own review request settings"
  on plaudit.review_request_settings for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

grant select on plaudit.review_request_settings to plaudit_api;
grant insert (org_id, daily_quota, reminders_enabled, reminder_delay_days, reminder_max)
  on plaudit.review_request_settings to plaudit_api;
grant update (daily_quota, reminders_enabled, reminder_delay_days, reminder_max, updated_at)
  on plaudit.review_request_settings to plaudit_api;

-- How many requests each organization was allowed per UTC day; bumped atomically at creation.
create table plaudit.review_request_usage (
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  day date not null,
  requests integer not null default 0 check (requests >= 0),
  primary key (org_id, day)
);

alter table plaudit.review_request_usage enable row level security;

create policy "Tenants can read their own review request usage"
  on plaudit.review_request_usage for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select on plaudit.review_request_usage to plaudit_api;

-- Takes p_count requests from today's quota, or raises program_limit_exceeded (the API answers
-- 429) and takes nothing. Concurrent callers queue on the day's row, so the quota is exact.
create function plaudit.take_review_request_quota(p_org_id uuid, p_count integer)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  quota integer := coalesce((select s.daily_quota from plaudit.review_request_settings s where s.org_id = p_org_id), 1000);
  today date := (now() at time zone 'UTC')::date;
  used integer;
begin
  if p_count <= 0 then
    return 0;
  end if;
  insert into plaudit.review_request_usage as u (org_id, day, requests)
  values (p_org_id, today, p_count)
  on conflict (org_id, day) do update set requests = u.requests + excluded.requests
  returning u.requests into used;
  if used > quota then
    raise exception 'Daily quota of % review requests reached: % remaining today (UTC), this call needs %',
      quota, greatest(quota - (used - p_count), 0), p_count
      using errcode = 'program_limit_exceeded';
  end if;
  return quota - used;
end
$$;

revoke execute on function plaudit.take_review_request_quota(uuid, integer) from public;
