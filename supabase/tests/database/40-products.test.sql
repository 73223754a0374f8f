-- The product catalog: GTIN check digits and field rules decided by the database, the bulk sync by
-- external_id, tenant isolation.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(35);

insert into plaudit.organizations (id, name, slug) values
  ('40000000-0000-4000-8000-000000000001', 'Shop Co', 'products-shop'),
  ('40000000-0000-4000-8000-000000000002', 'Stranger Co', 'products-stranger');
insert into plaudit.products (id, org_id, external_id, name, group_key) values
  ('40000000-0000-4000-8000-0000000000a1', '40000000-0000-4000-8000-000000000001', 'MUG-1', 'Mug', 'mugs'),
  ('40000000-0000-4000-8000-0000000000b1', '40000000-0000-4000-8000-000000000002', 'TEE-1', 'Tee', null);

-- GTIN check digits -------------------------------------------------------------------------------
select is(plaudit.gtin_is_valid(gtin), valid, description)
  from (values
    ('96385074', true, 'an EAN-8 with its right check digit is valid'),
    ('036000291452', true, 'a UPC-A (12 digits) with its right check digit is valid'),
    ('4006381333931', true, 'an EAN-13 with its right check digit is valid'),
    ('10012345678902', true, 'a GTIN-14 with its right check digit is valid'),
    ('96385075', false, 'an EAN-8 with a wrong check digit is invalid'),
    ('036000291453', false, 'a UPC-A with a wrong check digit is invalid'),
    ('4006381333932', false, 'an EAN-13 with a wrong check digit is invalid'),
    ('10012345678903', false, 'a GTIN-14 with a wrong check digit is invalid'),
    ('0000000000', false, 'ten digits are no GTIN, whatever their sum'),
    ('4006381333931 ', false, 'only digits: a trailing space is refused'),
    ('40063813339a1', false, 'only digits: a letter is refused')
  ) as t (gtin, valid, description);
select is(plaudit.gtin_is_valid(null), null, 'no GTIN is no verdict (the column may stay empty)');

-- Tenant A: the shop -------------------------------------------------------------------------------
select tests.act_as_tenant('40000000-0000-4000-8000-000000000001');

select results_eq($$select external_id from plaudit.products$$, $$values ('MUG-1')$$,
  'tenant A: sees only its own products');
select lives_ok(
  $$insert into plaudit.products (org_id, external_id, name, gtin, url, image_url)
    values ('40000000-0000-4000-8000-000000000001', 'PLATE-1', 'Plate', '4006381333931',
            'https://shop.example/plate', 'http://cdn.example/plate.jpg')$$,
  'tenant A: adds a product with a valid GTIN and http(s) links');
select throws_ok(
  $$insert into plaudit.products (org_id, external_id, name, gtin)
    values ('40000000-0000-4000-8000-000000000001', 'BOWL-1', 'Bowl', '4006381333932')$$,
  '23514', 'new row for relation "products" violates check constraint "products_gtin_check"',
  'tenant A: a GTIN with a wrong check digit is refused');
select throws_ok(
  $$insert into plaudit.products (org_id, external_id, name)
    values ('40000000-0000-4000-8000-000000000001', 'MUG-1', 'Second mug')$$,
  '23505', 'duplicate key value violates unique constraint "products_external_id_key"',
  'tenant A: an external_id is unique in the organization');
select throws_ok(
  $$insert into plaudit.products (org_id, external_id, name, image_url)
    values ('40000000-0000-4000-8000-000000000001', 'BOWL-1', 'Bowl', 'javascript:alert(1)')$$,
  '23514', 'new row for relation "products" violates check constraint "products_image_url_check"',
  'tenant A: an image_url must be http or https');
select throws_ok(
  $$insert into plaudit.products (org_id, external_id, name)
    values ('40000000-0000-4000-8000-000000000001', '', 'Bowl')$$,
  '23514', 'new row for relation "products" violates check constraint "products_external_id_check"',
  'tenant A: an external_id is 1–200 characters');
select throws_ok(
  $$insert into plaudit.products (org_id, external_id, name)
    values ('40000000-0000-4000-8000-000000000001', 'BOWL-1', repeat('n', 501))$$,
  '23514', 'new row for relation "products" violates check constraint "products_name_check"',
  'tenant A: a name is 1–500 characters');
select throws_ok(
  $$update plaudit.products set group_key = repeat('g', 201) where external_id = 'MUG-1'$$,
  '23514', 'new row for relation "products" violates check constraint "products_group_check"',
  'tenant A: a group is at most 200 characters, and its constraint names the field `group`');
select throws_ok(
  $$insert into plaudit.products (org_id, external_id, name, created_at)
    values ('40000000-0000-4000-8000-000000000001', 'BOWL-1', 'Bowl', now())$$,
  '42501', 'permission denied for table products', 'tenant A: created_at is not the client''s to set');

-- The bulk sync: a new product, a changed one, an unchanged one, and two refused rows.
select results_eq(
  $$select idx, outcome, error from plaudit.upsert_products('[
      {"index": 0, "external_id": "BOWL-1", "name": "Bowl", "gtin": "96385074", "group": "bowls"},
      {"index": 1, "external_id": "MUG-1", "name": "Big mug"},
      {"index": 2, "external_id": "PLATE-1", "name": "Plate"},
      {"index": 3, "external_id": "CUP-1", "name": "Cup", "gtin": "96385075"},
      {"index": 4, "external_id": "BOWL-1", "name": "Bowl again"}
    ]')$$,
  $$values (0, 'created', null::text), (1, 'updated', null), (2, 'unchanged', null),
           (3, null, 'gtin: must be 8, 12, 13 or 14 digits with a valid check digit'),
           (4, null, 'external_id: repeats the external_id of row 0')$$,
  'tenant A: the sync adds, updates and leaves alone by external_id, and refuses bad rows by index');
select results_eq(
  $$select name, gtin, group_key, archived from plaudit.products where external_id in ('BOWL-1', 'MUG-1')
     order by external_id$$,
  $$values ('Bowl', '96385074', 'bowls', false), ('Big mug', null, 'mugs', false)$$,
  'tenant A: fields a row leaves out stay as they are');
select is(
  (select count(*)::integer from plaudit.products where external_id = 'CUP-1'), 0,
  'tenant A: a refused row adds nothing');
select results_eq(
  $$select outcome from plaudit.upsert_products('[
      {"index": 0, "external_id": "BOWL-1", "name": "Bowl", "gtin": "96385074", "group": "bowls"},
      {"index": 1, "external_id": "MUG-1", "name": "Big mug"}]')$$,
  $$values ('unchanged'), ('unchanged')$$,
  'tenant A: the same sync again changes nothing');
select results_eq(
  $$select outcome from plaudit.upsert_products('[
      {"index": 0, "external_id": "MUG-1", "name": "Big mug", "group": null, "archived": true}]')$$,
  $$values ('updated')$$,
  'tenant A: a row clears a field with null and archives a product');
select results_eq(
  $$select group_key, archived from plaudit.products where external_id = 'MUG-1'$$,
  $$values (null::text, true)$$,
  'tenant A: the cleared group and the archive are stored');
select lives_ok(
  $$delete from plaudit.products where external_id = 'PLATE-1'$$,
  'tenant A: deletes its own product');

-- Tenant B: a stranger -----------------------------------------------------------------------------
select tests.act_as_tenant('40000000-0000-4000-8000-000000000002');
select results_eq($$select external_id from plaudit.products$$, $$values ('TEE-1')$$,
  'tenant B: sees only its own products');
update plaudit.products set name = 'hijacked' where id = '40000000-0000-4000-8000-0000000000a1';
delete from plaudit.products where id = '40000000-0000-4000-8000-0000000000a1';
select throws_ok(
  $$insert into plaudit.products (org_id, external_id, name)
    values ('40000000-0000-4000-8000-000000000001', 'PLANTED', 'Planted')$$,
  '42501', 'new row violates row-level security policy for table "products"',
  'tenant B: cannot add a product to another organization''s catalog');
select results_eq(
  $$select idx, outcome from plaudit.upsert_products('[{"index": 0, "external_id": "MUG-1", "name": "Mine now"}]')$$,
  $$values (0, 'created')$$,
  'tenant B: the same external_id as another organization''s is a product of its own');

-- Public role --------------------------------------------------------------------------------------
select tests.clear_persona();
select tests.act_as_public();
select throws_ok($$select * from plaudit.products$$, '42501', 'permission denied for table products',
  'public: cannot read the catalog');
select throws_ok($$select * from plaudit.upsert_products('[]')$$, '42501',
  'permission denied for function upsert_products', 'public: cannot sync a catalog');

select tests.clear_persona();
select is((select name from plaudit.products where id = '40000000-0000-4000-8000-0000000000a1'), 'Big mug',
  'tenant B''s update and delete touched nothing of tenant A');
select is((select count(*)::integer from plaudit.products where external_id = 'MUG-1'), 2,
  'one MUG-1 in each organization');

select * from finish();
rollback;
