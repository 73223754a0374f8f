-- Shoppers' signals on published reviews (docs/trust.md, "Helpful votes and reports"): a helpful
-- vote per visitor and review, counted on the review, and reports for the business to look at. A
-- visitor is told apart by a keyed hash of its address, browser and the review, never by a cookie;
-- neither table holds an address. Only the SECURITY DEFINER functions of
-- supabase/sql/19_shopper_signals.sql write them.
set role plaudit_owner;

-- New columns go last, so that the row type's order stays. Kept by plaudit.vote_helpful, in the
-- transaction of the vote it counts.
alter table plaudit.reviews add column helpful_count integer not null default 0 check (helpful_count >= 0);
comment on column plaudit.reviews.helpful_count is 'How many visitors found the review helpful: one vote each (plaudit.review_votes).';

-- The public lists' `sort=helpful`: most helpful first, ties newest first, walked by an index per
-- source (the business, or one product) as the other orders are.
create index reviews_public_business_helpful on plaudit.reviews (org_id, helpful_count, created_at, id) include (rating)
  where product_id is null and not is_hidden and verification_status in ('verified', 'unverified');
create index reviews_public_product_helpful on plaudit.reviews (product_id, helpful_count, created_at, id) include (rating)
  where product_id is not null and not is_hidden and verification_status in ('verified', 'unverified');

-- The keys of the visitors' hashes, one per 30-day period: a vote or report is hashed with the
-- current key, and a repeat is recognized under the current or the previous one. Older keys are
-- deleted, after which no one can tell whose hash an old vote holds.
create table plaudit.visitor_hash_keys (
  period integer primary key,
  secret bytea not null default extensions.gen_random_bytes(32),
  created_at timestamptz not null default now()
);
comment on table plaudit.visitor_hash_keys is 'The secret keys of the visitors'' hashes, one per 30-day period; only the last two are kept.';
alter table plaudit.visitor_hash_keys enable row level security;

create table plaudit.review_votes (
  review_id uuid not null references plaudit.reviews (id),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  -- HMAC-SHA256 of the review and the visitor (a digest of its address and browser), keyed by the
  -- period's secret of plaudit.visitor_hash_keys.
  visitor_hash bytea not null check (octet_length(visitor_hash) = 32),
  created_at timestamptz not null default now(),
  primary key (review_id, visitor_hash)
);
comment on table plaudit.review_votes is 'Helpful votes: one per visitor and review, the visitor kept only as a keyed hash.';
create index review_votes_org_id on plaudit.review_votes (org_id);
-- Nothing reads votes but the voting function: tenants see the count on the review.
alter table plaudit.review_votes enable row level security;

create table plaudit.review_reports (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  review_id uuid not null references plaudit.reviews (id),
  reason text not null
    check (reason in ('spam', 'offensive', 'personal_data', 'fake', 'conflict_of_interest', 'other')),
  details text check (char_length(details) between 1 and 2000),
  -- The reporter as a review's visitor hash (as review_votes): one open report per visitor and review.
  reporter_hash bytea not null check (octet_length(reporter_hash) = 32),
  status text not null default 'open' check (status in ('open', 'resolved')),
  resolution text check (char_length(resolution) between 1 and 2000),
  resolved_at timestamptz,
  -- Who resolved it: `api_key:<id>` or `member:<id>` (plaudit.current_actor's form).
  resolved_by text check (char_length(resolved_by) <= 200),
  created_at timestamptz not null default now(),
  check ((status = 'open') = (resolved_at is null) and (status = 'open') = (resolution is null)
         and (status = 'open') = (resolved_by is null))
);
comment on table plaudit.review_reports is 'Visitors'' reports of published reviews, open until the business resolves them; a report never hides a review.';
create unique index review_reports_one_open_per_reporter on plaudit.review_reports (review_id, reporter_hash)
  where status = 'open';
create index review_reports_org_id_status on plaudit.review_reports (org_id, status, created_at, id);
create index review_reports_review_id on plaudit.review_reports (review_id);

alter table plaudit.review_reports enable row level security;
create policy "Tenants can read their own reports" on plaudit.review_reports for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));
create policy "Tenants can resolve their own reports" on plaudit.review_reports for update to plaudit_api
  using (org_id = (select plaudit.current_org_id())) with check (org_id = (select plaudit.current_org_id()));

-- Never the reporter's hash; only the resolution's columns change.
grant select (id, org_id, review_id, reason, details, status, resolution, resolved_at, resolved_by, created_at)
  on plaudit.review_reports to plaudit_api;
grant update (status, resolution, resolved_at, resolved_by) on plaudit.review_reports to plaudit_api;

revoke execute on all functions in schema plaudit from public;
reset role;
