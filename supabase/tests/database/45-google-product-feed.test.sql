-- The Google Product Ratings feed: the setting (off by default, the tenant's own to change), the
-- feed's state and pages as the public reads them (published only when switched on, only the
-- slug's own published product reviews, text escaped, the cursor), and the helpers' escaping.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(20);

insert into plaudit.organizations (id, name, slug) values
  ('42000000-0000-4000-8000-000000000001', 'Feed Co', 'feed-shop'),
  ('42000000-0000-4000-8000-000000000002', 'Other Co', 'feed-other');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('42000000-0000-4000-8000-0000000000f1', '42000000-0000-4000-8000-000000000001', 'Open', 'none'),
  ('42000000-0000-4000-8000-0000000000f2', '42000000-0000-4000-8000-000000000002', 'Open', 'none');
insert into plaudit.products (id, org_id, external_id, name, gtin, sku) values
  ('42000000-0000-4000-8000-0000000000a1', '42000000-0000-4000-8000-000000000001', 'MUG 1/é', E'Mug <b>&]]>\x01', '4006381333931', 'SKU-1'),
  ('42000000-0000-4000-8000-0000000000b1', '42000000-0000-4000-8000-000000000002', 'THEIRS', 'Their mug', null, null);
insert into plaudit.reviews (id, org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                             verification_status, verification_method, is_hidden, product_id, created_at) values
  ('42000000-0000-4000-8000-000000000e01', '42000000-0000-4000-8000-000000000001', '42000000-0000-4000-8000-0000000000f1',
   1, null, E'Broke <script>x</script>\x02', 'Ada', 'ada@example.com', 'verified', 'invitation', false,
   '42000000-0000-4000-8000-0000000000a1', '2026-01-01 10:00:00+00'),
  ('42000000-0000-4000-8000-000000000e02', '42000000-0000-4000-8000-000000000001', '42000000-0000-4000-8000-0000000000f1',
   5, 'Fine', 'Hidden one', 'Bo', 'bo@example.com', 'unverified', null, true,
   '42000000-0000-4000-8000-0000000000a1', '2026-01-02 10:00:00+00'),
  ('42000000-0000-4000-8000-000000000e03', '42000000-0000-4000-8000-000000000001', '42000000-0000-4000-8000-0000000000f1',
   4, 'Business', 'Of the business', 'Cy', 'cy@example.com', 'unverified', null, false, null, '2026-01-03 10:00:00+00'),
  ('42000000-0000-4000-8000-000000000e04', '42000000-0000-4000-8000-000000000001', '42000000-0000-4000-8000-0000000000f1',
   3, 'Pending', 'Pending one', 'Di', 'di@example.com', 'pending', null, false,
   '42000000-0000-4000-8000-0000000000a1', '2026-01-04 10:00:00+00'),
  ('42000000-0000-4000-8000-000000000e05', '42000000-0000-4000-8000-000000000001', '42000000-0000-4000-8000-0000000000f1',
   2, 'Meh', 'Unverified one', 'Ed', 'ed@example.com', 'unverified', null, false,
   '42000000-0000-4000-8000-0000000000a1', '2026-01-05 10:00:00+00'),
  ('42000000-0000-4000-8000-000000000e06', '42000000-0000-4000-8000-000000000002', '42000000-0000-4000-8000-0000000000f2',
   5, 'Theirs', 'Another organization', 'Fy', 'fy@example.com', 'unverified', null, false,
   '42000000-0000-4000-8000-0000000000b1', '2026-01-06 10:00:00+00');

-- The helpers.
select is(plaudit.xml_text(E'a<b>&c]]>\x01\x1f\t\n\uFFFEd'), E'a&lt;b&gt;&amp;c]]&gt;\t\nd',
  'xml_text drops what XML 1.0 forbids and escapes &, < and >');
select is(plaudit.uri_component('MUG 1/é'), 'MUG%201%2F%C3%A9', 'uri_component encodes as encodeURIComponent');
select is(plaudit.uri_component('A-z_0.!~*''()'), 'A-z_0.!~*''()', 'uri_component leaves the unreserved characters');
select is(plaudit.xml_element_or_nothing('title', plaudit.xml_text(E' \x01 ')), '', 'a blank text makes no element');

-- The tenant: the setting is off by default, and its own to switch.
set local role plaudit_api;
select set_config('plaudit.org_id', '42000000-0000-4000-8000-000000000001', true) is not null as tenant_set;
select is((select column_default from information_schema.columns
            where table_schema = 'plaudit' and table_name = 'public_profiles' and column_name = 'google_product_feed'),
  'false', 'the feed is off by default');
select lives_ok($$insert into plaudit.public_profiles (org_id, google_product_feed)
                  values ('42000000-0000-4000-8000-000000000001', false)$$,
  'the tenant makes its own profile row with the setting');
select lives_ok($$update plaudit.public_profiles set google_product_feed = true$$, 'the tenant switches its feed on');
select throws_ok($$insert into plaudit.public_profiles (org_id, google_product_feed)
                   values ('42000000-0000-4000-8000-000000000002', true)$$,
  '42501', null, 'a tenant cannot switch on another organization''s feed');
select tests.clear_persona();

-- The public: the feed of a slug, only when it is published.
select tests.act_as_public();
select is(plaudit.google_product_feed_state('feed-other')::jsonb - 'org_id', '{"published": false}',
  'a feed never switched on is not published');
select is(plaudit.google_product_feed_state('nobody')::text, null, 'an unknown slug has no feed');
select is((select count(*)::integer from plaudit.google_product_feed_page('feed-other', 'https://x.example/p/feed-other/products/', null, null, null, 100)),
  0, 'a feed that is off has no pages');
select is((plaudit.google_product_feed_state('feed-shop')::jsonb) ->> 'name', 'Feed Co', 'a published feed names the business');
select is((select reviews from plaudit.google_product_feed_page('feed-shop', 'https://x.example/p/feed-shop/products/', null, null, null, 100)),
  2, 'the published product reviews only: not hidden, not pending, not of the business, not another organization''s');
select is((select xml from plaudit.google_product_feed_page('feed-shop', 'https://x.example/p/feed-shop/products/', null, null, null, 1)),
  E'\n    <review><review_id>42000000-0000-4000-8000-000000000e01</review_id><reviewer><name>Ada</name></reviewer>'
  '<is_verified_purchase>true</is_verified_purchase><is_incentivized_review>false</is_incentivized_review>'
  '<review_timestamp>2026-01-01T10:00:00Z</review_timestamp><content>Broke &lt;script&gt;x&lt;/script&gt;</content>'
  '<review_url type="singleton">https://x.example/p/feed-shop/products/MUG%201%2F%C3%A9</review_url>'
  '<ratings><overall min="1" max="5">1</overall></ratings><products><product><product_ids>'
  '<gtins><gtin>4006381333931</gtin></gtins><skus><sku>SKU-1</sku></skus></product_ids>'
  '<product_name>Mug &lt;b&gt;&amp;]]&gt;</product_name>'
  '<product_url>https://x.example/p/feed-shop/products/MUG%201%2F%C3%A9</product_url></product></products>'
  '<is_spam>false</is_spam><collection_method>post_fulfillment</collection_method></review>',
  'a review''s element: its fields in the schema''s order, text escaped, the product''s page when the product has no url');
select ok((select position('example.com' in xml) = 0
             from plaudit.google_product_feed_page('feed-shop', 'https://x.example/p/feed-shop/products/', null, null, null, 100)),
  'no e-mail address is in the feed');
select is((select (reviews, last_id)::text from plaudit.google_product_feed_page('feed-shop', 'https://x/',
            '42000000-0000-4000-8000-0000000000a1', '2026-01-01T10:00:00.000000Z', '42000000-0000-4000-8000-000000000e01', 100)),
  '(1,42000000-0000-4000-8000-000000000e05)', 'the next page starts after the cursor');
select ok((select position('<is_verified_purchase>false</is_verified_purchase>' in xml) > 0
                  and position('<collection_method>unsolicited</collection_method>' in xml) > 0
             from plaudit.google_product_feed_page('feed-shop', 'https://x/', '42000000-0000-4000-8000-0000000000a1',
                                                  '2026-01-01T10:00:00.000000Z', '42000000-0000-4000-8000-000000000e01', 100)),
  'an unverified review is no verified purchase, and unsolicited');
select throws_ok($$select * from plaudit.reviews$$, '42501', null, 'the public still cannot read reviews');
select tests.clear_persona();

-- The version moves when a product changes (the feed shows its name).
create temporary table feed_version as select plaudit.google_product_feed_state('feed-shop')::jsonb ->> 'version' as v;
-- Past the trigger that stamps now(): the whole test is one transaction, whose now() never moves.
set local session_replication_role = replica;
update plaudit.products set name = 'Mug', updated_at = now() + interval '1 second'
 where id = '42000000-0000-4000-8000-0000000000a1';
set local session_replication_role = origin;
select isnt(plaudit.google_product_feed_state('feed-shop')::jsonb ->> 'version', (select v from feed_version),
  'a product changed changes the feed''s version');
update plaudit.public_profiles set enabled = false where org_id = '42000000-0000-4000-8000-000000000001';
select is(plaudit.google_product_feed_state('feed-shop')::jsonb - 'org_id', '{"published": false}',
  'a profile switched off publishes no feed');

select * from finish();
rollback;
