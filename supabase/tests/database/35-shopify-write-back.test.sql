-- Shopify write-back: a change of a Shopify product's public counters writes one pending
-- write-back per Shopify connection with an access token (coalesced), none for other products or
-- connections; tenants read their own log only; the worker claims with the current figures and
-- records each attempt.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(12);

insert into plaudit.organizations (id, name, slug) values
  ('35000000-0000-4000-8000-000000000001', 'Write Co', 'write-co'),
  ('35000000-0000-4000-8000-000000000002', 'Other Co', 'write-other');
insert into plaudit.review_forms (id, org_id, name) values
  ('35000000-0000-4000-8000-0000000000f1', '35000000-0000-4000-8000-000000000001', 'Form');
insert into plaudit.products (id, org_id, external_id, name) values
  ('35000000-0000-4000-8000-0000000000b1', '35000000-0000-4000-8000-000000000001', '632910392', 'Bike'),
  ('35000000-0000-4000-8000-0000000000b2', '35000000-0000-4000-8000-000000000001', 'SKU-1', 'Bell');
insert into plaudit.connections (id, org_id, platform, name, settings, secret, access_token) values
  ('35000000-0000-4000-8000-0000000000c1', '35000000-0000-4000-8000-000000000001', 'shopify', 'Shop',
   '{"shop_domain":"write-co.myshopify.com"}', 'shpss_x', 'shpat_x'),
  ('35000000-0000-4000-8000-0000000000c2', '35000000-0000-4000-8000-000000000001', 'shopify', 'No token',
   '{"shop_domain":"write-co.myshopify.com"}', 'shpss_y', null);

create temporary view pending as
  select connection_id, product_id from plaudit.shopify_write_backs where status = 'pending';
grant select on pending to public;

-- The owner: what asks for a write-back ---------------------------------------------------------
insert into plaudit.reviews (id, org_id, form_id, product_id, rating, content, reviewer_name, reviewer_email, verification_status)
values ('35000000-0000-4000-8000-0000000000a1', '35000000-0000-4000-8000-000000000001',
        '35000000-0000-4000-8000-0000000000f1', '35000000-0000-4000-8000-0000000000b1', 4, 'Pending', 'Ann',
        'ann@example.com', 'pending');
select is((select count(*)::int from pending), 0, 'owner: a review awaiting verification changes no public figure: nothing');

insert into plaudit.reviews (id, org_id, form_id, product_id, rating, content, reviewer_name, reviewer_email, verification_status)
values ('35000000-0000-4000-8000-0000000000a2', '35000000-0000-4000-8000-000000000001',
        '35000000-0000-4000-8000-0000000000f1', '35000000-0000-4000-8000-0000000000b1', 5, 'Good', 'Bob',
        'bob@example.com', 'unverified'),
       ('35000000-0000-4000-8000-0000000000a3', '35000000-0000-4000-8000-000000000001',
        '35000000-0000-4000-8000-0000000000f1', '35000000-0000-4000-8000-0000000000b2', 5, 'Good', 'Cy',
        'cy@example.com', 'unverified');
select results_eq('select connection_id::text, product_id::text from pending',
  $$values ('35000000-0000-4000-8000-0000000000c1', '35000000-0000-4000-8000-0000000000b1')$$,
  'owner: a published review of a Shopify product asks for a write-back to the connection with a token only');

update plaudit.reviews set verification_status = 'verified', verification_method = 'manual'
 where id = '35000000-0000-4000-8000-0000000000a1';
select is((select count(*)::int from plaudit.shopify_write_backs), 1, 'owner: another review while one is pending: still one');

select throws_ok($$insert into plaudit.shopify_write_backs (org_id, connection_id, product_id)
                   values ('35000000-0000-4000-8000-000000000001', '35000000-0000-4000-8000-0000000000c1',
                           '35000000-0000-4000-8000-0000000000b1')$$,
  '23505', null, 'owner: two pending write-backs of one product and connection cannot exist');

-- Tenants and the public ------------------------------------------------------------------------
select tests.act_as_tenant('35000000-0000-4000-8000-000000000001');
select is((select count(*)::int from plaudit.shopify_write_backs), 1, 'tenant A: reads its own write-back log');
select throws_ok($$select plaudit.claim_shopify_write_backs(10, 60, null)$$, '42501',
  'permission denied for function claim_shopify_write_backs', 'tenant A: cannot claim write-backs');
select tests.clear_persona();
select tests.act_as_tenant('35000000-0000-4000-8000-000000000002');
select is((select count(*)::int from plaudit.shopify_write_backs), 0, 'tenant B: sees none of tenant A''s');
select tests.clear_persona();
select tests.act_as_public();
select throws_ok('select * from plaudit.shopify_write_backs', '42501', 'permission denied for table shopify_write_backs',
  'public: cannot read the write-back log');
select tests.clear_persona();

-- The worker: claim with the current figures, record ---------------------------------------------
select tests.act_as_worker();
create temporary table claimed as
  select * from plaudit.claim_shopify_write_backs(10, 60, '{35000000-0000-4000-8000-000000000001}');
select results_eq('select shop_domain, access_token, external_id, public_count, rating_sum, attempt from claimed',
  $$values ('write-co.myshopify.com'::text, 'shpat_x'::text, '632910392'::text, 2::bigint, 9::bigint, 1)$$,
  'worker: claims the write-back with the shop, its token and the product''s figures now');
select is((select count(*)::int from plaudit.claim_shopify_write_backs(10, 60, null) c
            where c.org_id = '35000000-0000-4000-8000-000000000001'), 0,
  'worker: a claimed write-back is not claimed again while leased');
select is(plaudit.record_shopify_write_back((select claim_token from claimed), array[(select id from claimed)],
                                            true, null, null, '4.5', 2), 'sent',
  'worker: records the write-back sent');
select tests.clear_persona();
select results_eq($$select status, attempts, rating, rating_count from plaudit.shopify_write_backs$$,
  $$values ('sent'::text, 1, '4.5'::text, 2)$$, 'owner: the attempt is in the log');

select * from finish();
rollback;
