-- Review requests that name products: the request's page asks the customer to rate each product
-- and the business. Two tables: what a request asks about (its products, in order), and what was
-- written through it (one review per subject at most: each product, and the business). Both are
-- written only by the SECURITY DEFINER functions of supabase/sql/11_review_requests.sql; tenants
-- read their own. The composite keys keep every row in its request's organization, whatever
-- writes it: a request can never name another organization's product.
set role plaudit_owner;

-- The composite foreign keys below need a unique key on both columns (id alone is the primary key).
alter table plaudit.review_requests add constraint review_requests_id_org_id_key unique (id, org_id);

create table plaudit.review_request_products (
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  request_id uuid not null,
  product_id uuid not null,
  -- 0-based, in the order the request named them (the page and the e-mail keep it).
  position smallint not null check (position between 0 and 19),
  primary key (org_id, request_id, position),
  constraint review_request_products_product_key unique (org_id, request_id, product_id),
  foreign key (request_id, org_id) references plaudit.review_requests (id, org_id) on delete cascade,
  -- A product deleted by mistake leaves the requests that named it (one with reviews cannot be
  -- deleted at all: archived products keep their place).
  foreign key (product_id, org_id) references plaudit.products (id, org_id) on delete cascade
);
comment on table plaudit.review_request_products is 'The products a review request asks about, in order (up to 20), of the request''s own organization.';

create index review_request_products_product_id on plaudit.review_request_products (product_id, org_id);

alter table plaudit.review_request_products enable row level security;

create policy "Tenants can read the products named in their own review requests"
  on plaudit.review_request_products for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select on plaudit.review_request_products to plaudit_api;

-- One row per subject a request's link has a review of: a product it names (product_id), or the
-- business (product_id null; NULLS NOT DISTINCT makes the business one subject too). A second
-- review of the same subject through the same request is refused by this key, race-free.
create table plaudit.review_request_reviews (
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  request_id uuid not null,
  product_id uuid,
  -- Reviews are never deleted; the review is of the request's organization by construction (the
  -- functions that write here take it from the review they just stored).
  review_id uuid not null references plaudit.reviews (id),
  created_at timestamptz not null default now(),
  primary key (org_id, request_id, review_id),
  constraint review_request_reviews_subject_key unique nulls not distinct (org_id, request_id, product_id),
  foreign key (request_id, org_id) references plaudit.review_requests (id, org_id) on delete cascade,
  -- Only a product the request names (a null product_id, the business, is not checked).
  foreign key (org_id, request_id, product_id)
    references plaudit.review_request_products (org_id, request_id, product_id) on delete cascade
);
comment on table plaudit.review_request_reviews is 'The reviews written through a review request: one per subject (each named product, and the business) at most.';

create index review_request_reviews_review_id on plaudit.review_request_reviews (review_id);

alter table plaudit.review_request_reviews enable row level security;

create policy "Tenants can read which reviews their own review requests brought"
  on plaudit.review_request_reviews for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select on plaudit.review_request_reviews to plaudit_api;

revoke execute on all functions in schema plaudit from public;
reset role;
