-- Reviews of products: a review may name one product of its own organization (null: a review of
-- the business). The composite key makes "another organization's product" impossible in the
-- table itself, whatever writes the row.
set role plaudit_owner;

-- The composite foreign key below needs a unique key on both columns (id alone is the primary key).
alter table plaudit.products add constraint products_id_org_id_key unique (id, org_id);

-- New columns go last, so that the row type's order stays.
alter table plaudit.reviews add column product_id uuid;
alter table plaudit.reviews add constraint reviews_product_id_fkey
  foreign key (product_id, org_id) references plaudit.products (id, org_id);
comment on column plaudit.reviews.product_id is 'The product reviewed, of the review''s own organization; null for a review of the business.';

-- The list filtered by product, newest first; also what DELETE of a product checks (no cascade:
-- a product with reviews is archived, not deleted).
create index reviews_org_id_product_id_created_at on plaudit.reviews (org_id, product_id, created_at, id)
  where product_id is not null;

reset role;
