-- The Google Product Ratings feed's switch: a public-profile setting, off until the business turns
-- it on (docs/products.md, "The Google Product Ratings feed").
set role plaudit_owner;

-- New columns go last, so that the row type's order stays.
alter table plaudit.public_profiles add column google_product_feed boolean not null default false;
comment on column plaudit.public_profiles.google_product_feed is 'Whether the public Google Product Ratings feed of the organization''s product reviews is published.';

grant insert (google_product_feed), update (google_product_feed) on plaudit.public_profiles to plaudit_api;

-- The feed's Last-Modified and ETag follow the newest change to a product of the organization:
-- the newest updated_at is one index probe, however large the catalog.
create index products_org_id_updated_at on plaudit.products (org_id, updated_at);

revoke execute on all functions in schema plaudit from public;
reset role;
