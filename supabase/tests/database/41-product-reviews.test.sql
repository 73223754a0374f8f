-- Reviews of products: a review names a product of its own organization only, an archived product
-- takes no new reviews, the Review writes `product`, and a product with reviews is not deleted.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(20);

insert into plaudit.organizations (id, name, slug) values
  ('41000000-0000-4000-8000-000000000001', 'Shop Co', 'product-reviews-shop'),
  ('41000000-0000-4000-8000-000000000002', 'Stranger Co', 'product-reviews-stranger');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('41000000-0000-4000-8000-0000000000f1', '41000000-0000-4000-8000-000000000001', 'Open', 'none');
insert into plaudit.products (id, org_id, external_id, name, archived) values
  ('41000000-0000-4000-8000-0000000000a1', '41000000-0000-4000-8000-000000000001', 'MUG-1', 'Mug "Blue"', false),
  ('41000000-0000-4000-8000-0000000000a2', '41000000-0000-4000-8000-000000000001', 'OLD-1', 'Old mug', true),
  ('41000000-0000-4000-8000-0000000000b1', '41000000-0000-4000-8000-000000000002', 'MUG-1', 'Their mug', false);

create function pg_temp.submit(p_content text, p_product_id uuid, p_external_id text)
returns table (error_code text, error_message text, id uuid, review text)
language sql as $$
  select error_code, error_message, id, review from plaudit.submit_review(
    jsonb_populate_record(null::plaudit.review_submission, jsonb_build_object(
      'form_id', '41000000-0000-4000-8000-0000000000f1', 'rating', 4, 'content', p_content, 'reviewer_name', 'Ada',
      'reviewer_email', 'ada@example.com', 'product_id', p_product_id, 'product_external_id', p_external_id)),
    'submit:products', 1000, 'https://x')
$$;

select tests.act_as_public();
select is((select (review::jsonb) -> 'product' from pg_temp.submit('by external id', null, 'MUG-1')),
  '{"id":"41000000-0000-4000-8000-0000000000a1","external_id":"MUG-1","name":"Mug \"Blue\""}'::jsonb,
  'a review by the product''s external id names the organization''s own product');
select is((select (review::jsonb) -> 'product' ->> 'id' from pg_temp.submit('by id', '41000000-0000-4000-8000-0000000000a1', null)),
  '41000000-0000-4000-8000-0000000000a1', 'a review by the product''s id names it');
select is((select review::jsonb -> 'product' from pg_temp.submit('of the business', null, null)),
  'null'::jsonb, 'a review of the business has product null');
select is((select (error_code, error_message)::text from pg_temp.submit('archived', null, 'OLD-1')),
  '(22023,"product_external_id: the product is archived and takes no new reviews")',
  'an archived product takes no new reviews, and the refusal names the field');
select is((select (error_code, error_message)::text from pg_temp.submit('stranger by id', '41000000-0000-4000-8000-0000000000b1', null)),
  '(22023,"product_id: no such product in this organization")',
  'another organization''s product, by id, is refused');
select is((select (error_code, error_message)::text from pg_temp.submit('unknown', null, 'NOPE')),
  '(22023,"product_external_id: no such product in this organization")',
  'an unknown external id is refused');
select tests.clear_persona();

select is((select count(*)::integer from plaudit.reviews where product_id is not null), 2,
  'refused submissions stored nothing');

-- The table itself: whatever writes the row, a review never points at another organization's product.
select throws_ok(
  $$insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status, product_id)
    values ('41000000-0000-4000-8000-000000000001', '41000000-0000-4000-8000-0000000000f1', 5, 'x', 'Ada',
            'ada@example.com', 'unverified', '41000000-0000-4000-8000-0000000000b1')$$,
  '23503', null, 'the composite foreign key refuses another organization''s product even to the owner');

-- The tenant reads its reviews with their product, and may not delete a product that has reviews.
select tests.act_as_tenant('41000000-0000-4000-8000-000000000001');
select is((select count(*)::integer from plaudit.reviews r where plaudit.review_json(r, null)::jsonb -> 'product' ->> 'external_id' = 'MUG-1'), 2,
  'the tenant''s Review writes the product');
select throws_ok($$delete from plaudit.products where id = '41000000-0000-4000-8000-0000000000a1'$$, '23503', null,
  'a product with reviews is not deleted');
select lives_ok($$delete from plaudit.products where id = '41000000-0000-4000-8000-0000000000a2'$$,
  'a product without reviews is deleted');
select tests.clear_persona();

-- The version of the answers that show a product (their ETag, their cache keys): the
-- organization's, then `~` and the product's id, read by the public role.
select tests.act_as_public();
select is(plaudit.public_product_version('product-reviews-shop', 'MUG-1', false),
  plaudit.public_version('product-reviews-shop') || '~41000000-0000-4000-8000-0000000000a1',
  'a product answer''s version is the organization''s public version, then ~ and the product''s id');
select is(plaudit.public_product_version('product-reviews-shop', 'MUG-1', true),
  plaudit.public_profile_version('product-reviews-shop') || '~41000000-0000-4000-8000-0000000000a1',
  'a product page''s version is the profile''s, then ~ and the product''s id');
select is(plaudit.public_product_version('product-reviews-shop', 'NOPE', false),
  plaudit.public_version('product-reviews-shop'), 'for an unknown product, the organization''s version alone');
select is(plaudit.public_product_version('no-such-shop', 'MUG-1', false), null, 'for an unknown slug, none');
select is((select p ->> 'version' from plaudit.public_product('product-reviews-shop', 'MUG-1') p),
  plaudit.public_product_version('product-reviews-shop', 'MUG-1', false),
  'the product''s summary carries the same version, so its ETag and its 304''s agree');
select is((select version from plaudit.public_product_reviews('product-reviews-shop', 'MUG-1', 1, 10, 'newest', null, false)),
  plaudit.public_product_version('product-reviews-shop', 'MUG-1', false),
  'a page of the product''s reviews carries the same version');
select tests.clear_persona();

-- A group's products, for its ProductGroup JSON-LD: each with its own identifiers, by external
-- id, archived ones included; none for a product without a group.
insert into plaudit.products (id, org_id, external_id, name, group_key, sku, gtin, archived) values
  ('41000000-0000-4000-8000-0000000000c1', '41000000-0000-4000-8000-000000000001', 'TEE-S', 'Tee S', 'tee', 'S-1', '4006381333931', false),
  ('41000000-0000-4000-8000-0000000000c2', '41000000-0000-4000-8000-000000000001', 'TEE-L', 'Tee L', 'tee', null, null, true),
  ('41000000-0000-4000-8000-0000000000c3', '41000000-0000-4000-8000-000000000002', 'TEE-X', 'Their tee', 'tee', null, null, false);
select tests.act_as_public();
select is((select (p::jsonb) -> 'variants' from plaudit.public_product('product-reviews-shop', 'TEE-S') p),
  '[{"external_id":"TEE-L","name":"Tee L","url":null,"image_url":null,"sku":null,"gtin":null,"mpn":null},
    {"external_id":"TEE-S","name":"Tee S","url":null,"image_url":null,"sku":"S-1","gtin":"4006381333931","mpn":null}]'::jsonb,
  'a product of a group lists the group''s products of its organization, archived ones included, by external id');
select is((select p ->> 'group' from plaudit.public_product('product-reviews-shop', 'TEE-L') p), 'tee',
  'and names its group');
select is((select (p::jsonb) -> 'variants' from plaudit.public_product('product-reviews-shop', 'MUG-1') p), 'null'::jsonb,
  'a product without a group lists none');
select tests.clear_persona();

select * from finish();
rollback;
