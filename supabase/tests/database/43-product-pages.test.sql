-- The product pages' reads, as the public role: the catalog lists the products sold and the
-- archived ones with public reviews of their own (an archived one without is left out), by name,
-- with their group's figures; a switched-off profile or an unknown slug has none; the sitemap
-- lists each enabled profile's page, its review policy, its catalog and its listed products, and
-- nothing of a switched-off profile.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(9);

insert into plaudit.organizations (id, name, slug) values
  ('43000000-0000-4000-8000-000000000001', 'Page Shop', 'page-shop'),
  ('43000000-0000-4000-8000-000000000002', 'Dark Shop', 'page-dark');
insert into plaudit.public_profiles (org_id, enabled) values ('43000000-0000-4000-8000-000000000002', false);
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('43000000-0000-4000-8000-0000000000f1', '43000000-0000-4000-8000-000000000001', 'Open', 'none');
insert into plaudit.products (org_id, external_id, name, group_key, archived) values
  ('43000000-0000-4000-8000-000000000001', 'MUG-BLUE', 'Mug blue', 'mug', false),
  ('43000000-0000-4000-8000-000000000001', 'MUG-RED', 'Mug red', 'mug', false),
  ('43000000-0000-4000-8000-000000000001', 'OLD', 'An old thing', null, false),
  ('43000000-0000-4000-8000-000000000001', 'BOWL', 'Bowl', null, false),
  ('43000000-0000-4000-8000-000000000002', 'DARK', 'Dark product', null, false);

create function pg_temp.submit(p_rating integer, p_product text)
returns uuid
language sql as $$
  select id from plaudit.submit_review(
    jsonb_populate_record(null::plaudit.review_submission, jsonb_build_object(
      'form_id', '43000000-0000-4000-8000-0000000000f1', 'rating', p_rating, 'content', 'text ' || p_rating || p_product,
      'reviewer_name', 'Ada', 'reviewer_email', 'ada' || p_rating || p_product || '@example.com',
      'product_external_id', p_product)),
    'submit:pages', 1000, 'https://x')
$$;
select tests.act_as_public();
select pg_temp.submit(5, 'MUG-RED');
select pg_temp.submit(4, 'MUG-RED');
select pg_temp.submit(3, 'MUG-BLUE');
select tests.clear_persona();
-- The red mug and the old thing leave the catalog: one with reviews, one without.
update plaudit.products set archived = true where external_id in ('MUG-RED', 'OLD');

select tests.act_as_public();
select is(
  (select json_agg(i->>'external_id')::text from json_array_elements(plaudit.public_product_catalog('page-shop', 1, 10)->'items') i),
  '["BOWL", "MUG-BLUE", "MUG-RED"]',
  'the catalog lists by name the products sold and the archived ones with reviews, not an archived one without'
);
select is((plaudit.public_product_catalog('page-shop', 1, 10)->>'total')::int, 3, 'its total counts the listed products');
select is(
  (select (i->>'average_rating', i->>'review_count', i->>'archived')::text
     from json_array_elements(plaudit.public_product_catalog('page-shop', 1, 10)->'items') i where i->>'external_id' = 'MUG-BLUE'),
  '(4.00,3,false)',
  'each product shows its group''s figures'
);
select is(
  (select json_agg(i->>'external_id')::text from json_array_elements(plaudit.public_product_catalog('page-shop', 2, 2)->'items') i),
  '["MUG-RED"]',
  'pages follow the same order'
);
select is((plaudit.public_product_catalog('page-shop', 1, 0)->>'total')::int, 3, 'a page of none still counts them');
select is(plaudit.public_product_catalog('page-dark', 1, 10)::text, null, 'a switched-off profile has no catalog');
select is(plaudit.public_product_catalog('no-such-shop', 1, 10)::text, null, 'an unknown slug has none');
select is(
  (select array_agg(concat_ws(':', s.page, s.external_id) order by ord)::text
     from plaudit.public_sitemap(1, 50000) with ordinality s(slug, page, external_id, updated_at, total, ord)
    where s.slug = 'page-shop'),
  '{profile,policy,transparency,catalog,product:BOWL,product:MUG-BLUE,product:MUG-RED}',
  'the sitemap lists the profile page, its review policy, its transparency page, then its catalog, then each listed product''s page'
);
select is(
  (select count(*)::int from plaudit.public_sitemap(1, 50000) s where s.slug = 'page-dark'),
  0,
  'and nothing of a switched-off profile'
);
select tests.clear_persona();

select * from finish();
rollback;
