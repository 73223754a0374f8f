-- Business and products apart in public: the business's counters count reviews of the business
-- only (total_count still counts every review, for the organization's own list), and each product
-- has counters of its own, kept by the same triggers, so that nothing counts reviews per request.
-- The public lists get one partial index per kind of feed (the business's; a product's) and per
-- order (by date; by rating then date), each ending in id, the pagination's stable tiebreak.
set role plaudit_owner;

create table plaudit.product_review_statistics (
  -- The product's organization is the reviews': their foreign key keeps them of one organization.
  product_id uuid primary key references plaudit.products (id) on delete cascade,
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  public_count bigint not null default 0,
  rating_sum bigint not null default 0,
  rating_1 bigint not null default 0,
  rating_2 bigint not null default 0,
  rating_3 bigint not null default 0,
  rating_4 bigint not null default 0,
  rating_5 bigint not null default 0,
  updated_at timestamptz not null default now()
);
comment on table plaudit.product_review_statistics is 'Public review counts per product (published reviews: not hidden, verified or unverified), kept by the reviews'' triggers.';

create index product_review_statistics_org_id on plaudit.product_review_statistics (org_id);

alter table plaudit.product_review_statistics enable row level security;

create policy "Tenants can read their own products' review statistics"
  on plaudit.product_review_statistics for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- Written by the reviews' triggers only.
grant select on plaudit.product_review_statistics to plaudit_api;

-- The business's public feed (reviews of the business only), by date both ways.
create index reviews_public_business_feed on plaudit.reviews (org_id, created_at, id) include (rating)
  where product_id is null and not is_hidden and verification_status in ('verified', 'unverified');
-- By rating then date: highest and lowest first, and one rating only.
create index reviews_public_business_by_rating on plaudit.reviews (org_id, rating, created_at, id)
  where product_id is null and not is_hidden and verification_status in ('verified', 'unverified');
-- A product's public feed, and by rating; a group's feed walks one product at a time.
create index reviews_public_product_feed on plaudit.reviews (product_id, created_at, id) include (rating)
  where product_id is not null and not is_hidden and verification_status in ('verified', 'unverified');
create index reviews_public_product_by_rating on plaudit.reviews (product_id, rating, created_at, id)
  where product_id is not null and not is_hidden and verification_status in ('verified', 'unverified');
-- The business's feed replaces the feed of every review.
drop index plaudit.reviews_public_feed;

revoke execute on all functions in schema plaudit from public;
reset role;
