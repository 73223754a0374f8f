-- Attribute ratings: the answers of scale and rating fields checked at submission (the field named,
-- nothing stored), kept as the review's public `attributes`, counted per answer for the business
-- and per product by the statistics triggers (in and out of public view), recounted the same way,
-- summarized from the counters; the counters readable by their tenant only, never by the public.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(19);

insert into plaudit.organizations (id, name, slug) values
  ('82000000-0000-4000-8000-000000000001', 'Shoes Co', 'attr-shoes'),
  ('82000000-0000-4000-8000-000000000002', 'Other Co', 'attr-other');
insert into plaudit.review_forms (id, org_id, name, verification_mode, custom_fields) values
  ('82000000-0000-4000-8000-0000000000f1', '82000000-0000-4000-8000-000000000001', 'Fit', 'none',
   '[{"key":"fit","label":"Fit","type":"scale","required":false,"scale":["Runs small","True to size","Runs large"]},
     {"key":"quality","label":"Quality","type":"rating","required":false},
     {"key":"note","label":"Note","type":"text","required":false}]'),
  ('82000000-0000-4000-8000-0000000000f2', '82000000-0000-4000-8000-000000000002', 'Fit', 'none',
   '[{"key":"fit","label":"Fit","type":"scale","required":false,"scale":["Runs small","True to size","Runs large"]}]');
insert into plaudit.products (id, org_id, external_id, name) values
  ('82000000-0000-4000-8000-0000000000a1', '82000000-0000-4000-8000-000000000001', 'SHOE', 'Shoe');

-- The owner: the submission's checks, the public part of the answers, and the counters.
select is(plaudit.attribute_answers(
    (select custom_fields from plaudit.review_forms where id = '82000000-0000-4000-8000-0000000000f1'),
    '{"fit":"Runs small","quality":4,"note":"private"}'),
  '{"fit":"Runs small","quality":4}'::jsonb, 'only the scale and rating answers are public');
select is(plaudit.check_custom_field_values(
    (select custom_fields from plaudit.review_forms where id = '82000000-0000-4000-8000-0000000000f1'),
    '{"quality":"5"}'),
  '{"quality":5}'::jsonb, 'stars sent as text are kept as a number');
select throws_ok($$select plaudit.check_custom_field_values(
    (select custom_fields from plaudit.review_forms where id = '82000000-0000-4000-8000-0000000000f1'),
    '{"fit":"Huge"}')$$,
  '23514', 'custom_fields.fit: must be one of Runs small, True to size, Runs large', 'a label outside the scale is refused');
select throws_ok($$select plaudit.check_custom_field_values(
    (select custom_fields from plaudit.review_forms where id = '82000000-0000-4000-8000-0000000000f1'),
    '{"quality":0}')$$,
  '23514', 'custom_fields.quality: must be a whole number of stars from 1 to 5', 'stars outside 1–5 are refused');

insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email,
                             verification_status, product_id, custom_fields, attributes) values
  ('82000000-0000-4000-8000-000000000e01', '82000000-0000-4000-8000-000000000001', '82000000-0000-4000-8000-0000000000f1',
   5, 'Shoe one', 'Ada', 'ada@example.com', 'unverified', '82000000-0000-4000-8000-0000000000a1',
   '{"fit":"True to size","quality":5,"note":"x"}', '{"fit":"True to size","quality":5}'),
  ('82000000-0000-4000-8000-000000000e02', '82000000-0000-4000-8000-000000000001', '82000000-0000-4000-8000-0000000000f1',
   4, 'Shoe two', 'Bo', 'bo@example.com', 'unverified', '82000000-0000-4000-8000-0000000000a1',
   '{"fit":"Runs small","quality":3}', '{"fit":"Runs small","quality":3}'),
  ('82000000-0000-4000-8000-000000000e03', '82000000-0000-4000-8000-000000000001', '82000000-0000-4000-8000-0000000000f1',
   4, 'Pending shoe', 'Cy', 'cy@example.com', 'pending', '82000000-0000-4000-8000-0000000000a1',
   '{"fit":"Runs small"}', '{"fit":"Runs small"}'),
  ('82000000-0000-4000-8000-000000000e04', '82000000-0000-4000-8000-000000000001', '82000000-0000-4000-8000-0000000000f1',
   3, 'The shop', 'Di', 'di@example.com', 'unverified', null, '{"fit":"Runs large"}', '{"fit":"Runs large"}'),
  ('82000000-0000-4000-8000-000000000e05', '82000000-0000-4000-8000-000000000002', '82000000-0000-4000-8000-0000000000f2',
   3, 'Theirs', 'Ed', 'ed@example.com', 'unverified', null, '{"fit":"Runs large"}', '{"fit":"Runs large"}');

create temporary table counted as
  select org_id, product_id, key, answer, count from plaudit.attribute_statistics
   where org_id in ('82000000-0000-4000-8000-000000000001', '82000000-0000-4000-8000-000000000002')
     and count <> 0;
select results_eq(
  $$select coalesce(product_id::text, 'business'), key, answer, count from counted
     where org_id = '82000000-0000-4000-8000-000000000001' order by 1, 2, 3$$,
  $$values ('82000000-0000-4000-8000-0000000000a1', 'fit', 'Runs small', 1::bigint),
           ('82000000-0000-4000-8000-0000000000a1', 'fit', 'True to size', 1),
           ('82000000-0000-4000-8000-0000000000a1', 'quality', '3', 1),
           ('82000000-0000-4000-8000-0000000000a1', 'quality', '5', 1),
           ('business', 'fit', 'Runs large', 1)$$,
  'an insert counts each public answer, for its product or the business; a pending review counts nothing');

update plaudit.reviews set verification_status = 'verified', verification_method = 'manual', verification_at = now()
 where id = '82000000-0000-4000-8000-000000000e03';
select is((select count from plaudit.attribute_statistics
            where product_id = '82000000-0000-4000-8000-0000000000a1' and key = 'fit' and answer = 'Runs small'),
  2::bigint, 'a review coming into public view is counted');
update plaudit.reviews set is_hidden = true where id = '82000000-0000-4000-8000-000000000e01';
select is((select count from plaudit.attribute_statistics
            where product_id = '82000000-0000-4000-8000-0000000000a1' and key = 'quality' and answer = '5'),
  0::bigint, 'a hidden review leaves the counts');
select is(plaudit.attribute_summary('82000000-0000-4000-8000-000000000001', array['82000000-0000-4000-8000-0000000000a1'::uuid])::jsonb,
  '[{"key":"fit","label":"Fit","type":"scale","count":2,
     "distribution":{"Runs small":2,"True to size":0,"Runs large":0}},
    {"key":"quality","label":"Quality","type":"rating","count":1,"average":3.00,
     "distribution":{"1":0,"2":0,"3":1,"4":0,"5":0}}]'::jsonb,
  'the product''s summary reads the counters, in the form''s order, every label counted');
select is(plaudit.attribute_summary('82000000-0000-4000-8000-000000000001', null)::jsonb,
  '[{"key":"fit","label":"Fit","type":"scale","count":1,
     "distribution":{"Runs small":0,"True to size":0,"Runs large":1}}]'::jsonb,
  'the business''s summary counts its own reviews only, and leaves out fields nobody answered');

create temporary table kept as
  select product_id, key, answer, count from plaudit.attribute_statistics
   where org_id = '82000000-0000-4000-8000-000000000001' and count <> 0;
select plaudit.rebuild_attribute_statistics('82000000-0000-4000-8000-000000000001');
select set_eq(
  $$select product_id, key, answer, count from plaudit.attribute_statistics
     where org_id = '82000000-0000-4000-8000-000000000001'$$,
  $$select * from kept$$,
  'a recount finds what the triggers kept');

select throws_ok($$update plaudit.reviews set attributes = '{"fit":"Runs large"}'
                    where id = '82000000-0000-4000-8000-000000000e02'$$,
  '23001', 'a review cannot be rewritten: only moderation and verification may change it',
  'the public answers are never rewritten');
select throws_ok($$insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email,
                                                verification_status, attributes)
                   values ('82000000-0000-4000-8000-000000000001', '82000000-0000-4000-8000-0000000000f1', 5, 'x',
                           'x', 'x@example.com', 'unverified', '["fit"]')$$,
  '23514', null, 'the public answers are an object');

-- Tenant A: reads its own counters, not B's, and writes none.
select tests.act_as_tenant('82000000-0000-4000-8000-000000000001');
select is((select count(distinct org_id)::int from plaudit.attribute_statistics), 1, 'a tenant reads its own counters');
select is((select count(*)::int from plaudit.attribute_statistics
            where org_id = '82000000-0000-4000-8000-000000000002'), 0, 'a tenant never reads another''s counters');
select throws_ok($$insert into plaudit.attribute_statistics (org_id, key, answer, count)
                   values ('82000000-0000-4000-8000-000000000001', 'fit', 'Runs small', 100)$$,
  '42501', null, 'a tenant cannot write the counters');
select tests.clear_persona();

-- The public: no counters, the summaries only through the public functions.
select tests.act_as_public();
select throws_ok($$select * from plaudit.attribute_statistics$$, '42501', null, 'the public cannot read the counters');
select is((plaudit.public_profile('attr-shoes') -> 'attributes' -> 0 ->> 'count'), '1',
  'the public reads the business''s summary through its profile');
select is(json_array_length(plaudit.public_product('attr-shoes', 'SHOE') -> 'attributes'), 2,
  'the public reads a product''s summary through its own');
select is((plaudit.public_profile('attr-other') -> 'attributes' -> 0 -> 'distribution' ->> 'Runs large'), '1',
  'each business''s summary counts its own answers');
select tests.clear_persona();

select * from finish();
rollback;
