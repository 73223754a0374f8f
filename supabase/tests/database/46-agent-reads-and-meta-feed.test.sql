-- What agents and other platforms read: the review search and product search of the MCP tools
-- (published reviews only, the slug's own, by words and filters), Meta's product review feed (off
-- by default, the tenant's own to switch, only published product reviews, no e-mail address) and
-- the feeds' report (counts by reason).
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(16);

insert into plaudit.organizations (id, name, slug) values
  ('46000000-0000-4000-8000-000000000001', 'Agent Co', 'agent-shop'),
  ('46000000-0000-4000-8000-000000000002', 'Other Co', 'agent-other');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('46000000-0000-4000-8000-0000000000f1', '46000000-0000-4000-8000-000000000001', 'Open', 'none'),
  ('46000000-0000-4000-8000-0000000000f2', '46000000-0000-4000-8000-000000000002', 'Open', 'none');
insert into plaudit.products (id, org_id, external_id, name, gtin, brand) values
  ('46000000-0000-4000-8000-0000000000a1', '46000000-0000-4000-8000-000000000001', 'MUG', 'Blue mug', '4006381333931', 'Acme'),
  ('46000000-0000-4000-8000-0000000000b1', '46000000-0000-4000-8000-000000000002', 'MUG', 'Their mug', null, null);
insert into plaudit.reviews (id, org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                             verification_status, verification_method, is_hidden, product_id, created_at) values
  ('46000000-0000-4000-8000-000000000e01', '46000000-0000-4000-8000-000000000001', '46000000-0000-4000-8000-0000000000f1',
   1, null, 'Broke, "badly"', 'Ada', 'ada@example.com', 'verified', 'invitation', false,
   '46000000-0000-4000-8000-0000000000a1', '2026-01-01 10:00:00+00'),
  ('46000000-0000-4000-8000-000000000e02', '46000000-0000-4000-8000-000000000001', '46000000-0000-4000-8000-0000000000f1',
   5, 'Fine', 'Hidden one', 'Bo', 'bo@example.com', 'unverified', null, true,
   '46000000-0000-4000-8000-0000000000a1', '2026-01-02 10:00:00+00'),
  ('46000000-0000-4000-8000-000000000e03', '46000000-0000-4000-8000-000000000001', '46000000-0000-4000-8000-0000000000f1',
   4, 'Business', 'Of the business', 'Cy', 'cy@example.com', 'unverified', null, false, null, '2026-01-03 10:00:00+00'),
  ('46000000-0000-4000-8000-000000000e04', '46000000-0000-4000-8000-000000000001', '46000000-0000-4000-8000-0000000000f1',
   3, 'Pending', 'Pending one', 'Di', 'di@example.com', 'pending', null, false,
   '46000000-0000-4000-8000-0000000000a1', '2026-01-04 10:00:00+00'),
  ('46000000-0000-4000-8000-000000000e05', '46000000-0000-4000-8000-000000000001', '46000000-0000-4000-8000-0000000000f1',
   2, 'Meh', 'Unverified one', 'Ed', 'ed@example.com', 'unverified', null, false,
   '46000000-0000-4000-8000-0000000000a1', '2026-01-05 10:00:00+00'),
  ('46000000-0000-4000-8000-000000000e06', '46000000-0000-4000-8000-000000000002', '46000000-0000-4000-8000-0000000000f2',
   5, 'Theirs', 'Another organization', 'Fy', 'fy@example.com', 'unverified', null, false,
   '46000000-0000-4000-8000-0000000000b1', '2026-01-06 10:00:00+00');

-- The tenant: Meta's feed is off by default, and its own to switch.
select is((select column_default from information_schema.columns
            where table_schema = 'plaudit' and table_name = 'public_profiles' and column_name = 'meta_review_feed'),
  'false', 'Meta''s feed is off by default');
select tests.act_as_tenant('46000000-0000-4000-8000-000000000001');
select lives_ok($$insert into plaudit.public_profiles (org_id, meta_review_feed)
                  values ('46000000-0000-4000-8000-000000000001', true)$$,
  'the tenant switches its Meta feed on');
select throws_ok($$insert into plaudit.public_profiles (org_id, meta_review_feed)
                   values ('46000000-0000-4000-8000-000000000002', true)$$,
  '42501', null, 'a tenant cannot switch on another organization''s feed');
select tests.clear_persona();

-- The public: the search of the MCP tools.
select tests.act_as_public();
select is((select array_agg(i ->> 'id' order by o)
             from json_array_elements(plaudit.public_search_reviews('agent-shop', null, null, null, false, false, 'newest', 0, 10) -> 'items')
                  with ordinality x(i, o)),
  array['46000000-0000-4000-8000-000000000e05', '46000000-0000-4000-8000-000000000e03', '46000000-0000-4000-8000-000000000e01'],
  'a business''s search answers its published reviews (its own and its products''), newest first: not hidden, not pending, not another''s');
select is((select array_agg(i ->> 'id')
             from json_array_elements(plaudit.public_search_reviews('agent-shop', 'MUG', 'broke', null, false, false, 'newest', 0, 10) -> 'items') i),
  array['46000000-0000-4000-8000-000000000e01'], 'a product''s search finds by words');
select is((select array_agg(i ->> 'id')
             from json_array_elements(plaudit.public_search_reviews('agent-shop', null, null, null, true, false, 'newest', 0, 10) -> 'items') i),
  array['46000000-0000-4000-8000-000000000e01'], 'verified_only keeps the verified reviews');
select is((plaudit.public_search_reviews('agent-shop', null, null, null, false, false, 'lowest', 0, 1)::jsonb) -> 'more',
  'true', 'a window says when more follow');
select is(plaudit.public_search_reviews('agent-shop', 'NOPE', null, null, false, false, 'newest', 0, 10)::jsonb,
  '{"product_missing": true}', 'an unknown product of a known business is said so');
select is(plaudit.public_search_reviews('nobody', null, null, null, false, false, 'newest', 0, 10)::text, null,
  'an unknown slug answers null');
select ok(position('example.com' in plaudit.public_search_reviews('agent-shop', null, null, null, false, false, 'newest', 0, 10)::text) = 0,
  'no e-mail address is in a search''s answer');
select is((select array_agg(i ->> 'external_id')
             from json_array_elements(plaudit.public_search_products('agent-shop', 'acme', 0, 10) -> 'items') i),
  array['MUG'], 'products are found by brand, and only the slug''s own');

-- Meta's feed and the report.
select is(plaudit.review_feed_state('agent-other', 'meta')::jsonb - 'org_id', '{"published": false}',
  'a feed never switched on is not published');
select is((select reviews from plaudit.meta_review_feed_page('agent-shop', 'https://x.example/p/agent-shop', null, null, null, 100)),
  2, 'the feed holds the published product reviews only');
select ok((select csv like 'Plaudit,"Agent Co","agent-shop","[""https://x.example/p/agent-shop""]",46000000-0000-4000-8000-000000000e01,1,,"Broke, ""badly""",2026-01-01T10:00:00Z,2026-%'
              and csv like E'%Z,,false,true,"Ada",false,"Blue mug","https://x.example/p/agent-shop/products/MUG",,"[""MUG""]","[""4006381333931""]",\r\n'
             from plaudit.meta_review_feed_page('agent-shop', 'https://x.example/p/agent-shop', null, null, null, 1)),
  'a row: Meta''s columns in order, text quoted, incentivized and has_verified_purchase, the product''s page when it has no url');
select ok((select position('example.com' in csv) = 0
             from plaudit.meta_review_feed_page('agent-shop', 'https://x.example/p/agent-shop', null, null, null, 100)),
  'no e-mail address is in the feed');
select is(plaudit.review_feeds_report('agent-shop')::jsonb,
  '{"google": {"published": false, "included": 2, "left_out": {"no_product_id": 1, "hidden": 1, "not_published": 1}},
    "meta": {"published": true, "included": 2, "left_out": {"no_product_id": 1, "hidden": 1, "not_published": 1}}}',
  'the report counts, per feed, the reviews in and those left out by reason');
select tests.clear_persona();

select * from finish();
rollback;
