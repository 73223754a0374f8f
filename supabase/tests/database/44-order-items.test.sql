-- Orders' items: each tenant reads and replaces only its own orders' items, and purchase proof of a
-- product matches only an order of the review's organization holding the product or its group.
-- And the product a hosted form shows: its own organization's, while the form takes reviews.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(16);

insert into plaudit.organizations (id, name, slug) values
  ('42000000-0000-4000-8000-000000000001', 'Shop Co', 'order-items-shop'),
  ('42000000-0000-4000-8000-000000000002', 'Stranger Co', 'order-items-stranger');
insert into plaudit.products (id, org_id, external_id, name, group_key) values
  ('42000000-0000-4000-8000-0000000000a1', '42000000-0000-4000-8000-000000000001', 'MUG-S', 'Small mug', 'mug'),
  ('42000000-0000-4000-8000-0000000000a2', '42000000-0000-4000-8000-000000000001', 'MUG-L', 'Large mug', 'mug'),
  ('42000000-0000-4000-8000-0000000000a3', '42000000-0000-4000-8000-000000000001', 'TEE', 'Tee', null),
  ('42000000-0000-4000-8000-0000000000b1', '42000000-0000-4000-8000-000000000002', 'TEE', 'Their tee', 'mug');

-- Tenant A ------------------------------------------------------------------------------------------
select tests.act_as_tenant('42000000-0000-4000-8000-000000000001');
select results_eq($$select * from plaudit.upsert_orders('42000000-0000-4000-8000-000000000001', '[
    {"order_id":"A-1","items":[{"product_external_id":"MUG-L","quantity":2},{"product_external_id":"LATER"}]},
    {"order_id":"A-2","items":[{"product_external_id":"TEE"}]},
    {"order_id":"A-3"}]')$$,
  $$values (3, 0)$$, 'tenant: loads orders with items');
select results_eq($$select order_id, position::integer, product_external_id, quantity from plaudit.order_items order by 1, 2$$,
  $$values ('A-1', 0, 'MUG-L', 2), ('A-1', 1, 'LATER', 1), ('A-2', 0, 'TEE', 1)$$,
  'tenant: items are kept as given, unknown external ids included, quantity 1 by default');
select results_eq($$select * from plaudit.upsert_orders('42000000-0000-4000-8000-000000000001',
    '[{"order_id":"A-2","items":[{"product_external_id":"MUG-S","quantity":3}]}]')$$,
  $$values (0, 1)$$, 'tenant: loads an order again');
select results_eq($$select product_external_id, quantity from plaudit.order_items where order_id = 'A-2'$$,
  $$values ('MUG-S'::text, 3)$$, 'tenant: loading an order again replaces its items');
select is(plaudit.purchase_proof_refusal('42000000-0000-4000-8000-000000000001', 'A-1', 'x@example.com',
  '42000000-0000-4000-8000-0000000000a1'), null, 'tenant: an order holding a product of the group proves it');
select is(plaudit.purchase_proof_refusal('42000000-0000-4000-8000-000000000001', 'A-1', 'x@example.com',
  '42000000-0000-4000-8000-0000000000a3'),
  'order_id: the order does not hold the reviewed product or a product of its group',
  'tenant: an order listing other products does not prove it');
select is(plaudit.purchase_proof_refusal('42000000-0000-4000-8000-000000000001', 'A-3', 'x@example.com',
  '42000000-0000-4000-8000-0000000000a3'), null, 'tenant: an order without items proves any product');
select is(plaudit.purchase_proof_refusal('42000000-0000-4000-8000-000000000001', 'A-2', 'x@example.com', null),
  null, 'tenant: a review of the business needs the order only');
select throws_ok($$insert into plaudit.order_items (org_id, order_id, position, product_external_id)
    values ('42000000-0000-4000-8000-000000000001', 'A-3', 0, repeat('x', 201))$$,
  '23514', null, 'tenant: an external id past 200 characters is refused');
select tests.clear_persona();

-- Stranger tenant: same external ids, its own orders only -----------------------------------------------
select tests.act_as_tenant('42000000-0000-4000-8000-000000000002');
select is((select count(*)::integer from plaudit.order_items), 0, 'stranger: sees no other tenant''s items');
select throws_ok($$insert into plaudit.order_items (org_id, order_id, position, product_external_id)
    values ('42000000-0000-4000-8000-000000000001', 'A-3', 1, 'PLANTED')$$,
  '42501', 'new row violates row-level security policy for table "order_items"',
  'stranger: cannot add items to another tenant''s order');
delete from plaudit.order_items where org_id = '42000000-0000-4000-8000-000000000001';
select tests.clear_persona();
select is((select count(*)::integer from plaudit.order_items where org_id = '42000000-0000-4000-8000-000000000001'), 3,
  'stranger: deleted none of another tenant''s items');

-- The owner: another organization's order never proves a purchase, even with the same ids --------
insert into plaudit.orders (org_id, order_id) values ('42000000-0000-4000-8000-000000000002', 'B-1');
insert into plaudit.order_items (org_id, order_id, position, product_external_id) values
  ('42000000-0000-4000-8000-000000000002', 'B-1', 0, 'TEE');
select is(plaudit.purchase_proof_refusal('42000000-0000-4000-8000-000000000001', 'B-1', 'x@example.com',
  '42000000-0000-4000-8000-0000000000a3'),
  'order_id: does not match an order of this organization for this reviewer',
  'owner: another organization''s order does not match');

-- The public role: a hosted form's product ----------------------------------------------------------
insert into plaudit.review_forms (id, org_id, name, is_active) values
  ('42000000-0000-4000-8000-0000000000f1', '42000000-0000-4000-8000-000000000001', 'Open', true),
  ('42000000-0000-4000-8000-0000000000f2', '42000000-0000-4000-8000-000000000001', 'Paused', false);
update plaudit.products set archived = true where external_id = 'MUG-L';
select tests.act_as_public();
select results_eq($$select external_id, name, archived from plaudit.public_form_product('42000000-0000-4000-8000-0000000000f1', 'MUG-L')$$,
  $$values ('MUG-L'::text, 'Large mug'::text, true)$$, 'public: a form''s product, archived or not (the page says which)');
select is_empty($$select * from plaudit.public_form_product('42000000-0000-4000-8000-0000000000f1', 'TEE')
                  where name = 'Their tee'$$, 'public: never another organization''s product of the same external id');
select is_empty($$select * from plaudit.public_form_product('42000000-0000-4000-8000-0000000000f2', 'TEE')$$,
  'public: nothing while the form takes no reviews');
select tests.clear_persona();

select * from finish();
rollback;
