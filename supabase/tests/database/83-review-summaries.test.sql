-- Review summaries: the worker finds the subjects due (5 published reviews, then 10 % more), saves
-- a summary whose citations are its own inputs, of its own subject, with a summarize entry in the
-- trail; a cited review hidden or erased leaves it at once (its quoting sentence gone, the topics'
-- counts following); the public reads it below no 5 published reviews; tenants read only their own.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(16);

insert into plaudit.organizations (id, name, slug) values
  ('83000000-0000-4000-8000-000000000001', 'Summaries Co', 'summaries-co'),
  ('83000000-0000-4000-8000-000000000002', 'Other Co', 'summaries-other');
insert into plaudit.review_forms (id, org_id, name) values
  ('83000000-0000-4000-8000-0000000000f1', '83000000-0000-4000-8000-000000000001', 'Form'),
  ('83000000-0000-4000-8000-0000000000f2', '83000000-0000-4000-8000-000000000002', 'Form');
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status)
select ('83000000-0000-4000-8000-0000000000a' || i)::uuid, '83000000-0000-4000-8000-000000000001',
       '83000000-0000-4000-8000-0000000000f1', case when i = 6 then 1 else 5 end,
       case when i = 6 then 'The zipper broke at once' else 'The zipper is smooth and strong' end,
       'Ann ' || i, 'ann' || i || '@example.com', 'unverified'
  from generate_series(1, 6) i;
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, verification_status)
values ('83000000-0000-4000-8000-0000000000b1', '83000000-0000-4000-8000-000000000002',
        '83000000-0000-4000-8000-0000000000f2', 5, 'Theirs', 'Bo', 'unverified');

-- The worker ----------------------------------------------------------------------------------------
select tests.act_as_worker();
select results_eq($$select org_id, product_id, group_key, published from plaudit.review_summaries_due(10,
                      '{83000000-0000-4000-8000-000000000001,83000000-0000-4000-8000-000000000002}')$$,
  $$values ('83000000-0000-4000-8000-000000000001'::uuid, null::uuid, null::text, 6::bigint)$$,
  'worker: the business with 5 published reviews or more is due, the other not');
select results_eq($$select count(*) from plaudit.review_summary_inputs('83000000-0000-4000-8000-000000000001', null, null)$$,
  $$values (6::bigint)$$, 'worker: reads the business''s published reviews');
select throws_ok($$select plaudit.save_review_summary('83000000-0000-4000-8000-000000000001', null, null, 'en',
    '[{"text":"x","sentiment":"positive","review_ids":["83000000-0000-4000-8000-0000000000b1"]}]', '{}',
    '{83000000-0000-4000-8000-0000000000a1}', 6)$$,
  '23514', 'a summary cites only the reviews it was made from', 'worker: a citation of another input is refused');
select throws_ok($$select plaudit.save_review_summary('83000000-0000-4000-8000-000000000001', null, null, 'en', '[]', '{}',
    '{83000000-0000-4000-8000-0000000000b1}', 6)$$,
  '23514', 'a summary is made from reviews of its own subject', 'worker: another tenant''s review is refused');
select isnt(plaudit.save_review_summary('83000000-0000-4000-8000-000000000001', null, null, 'en',
    '[{"text":"The zipper is smooth and strong","sentiment":"positive","review_ids":["83000000-0000-4000-8000-0000000000a1","83000000-0000-4000-8000-0000000000a2","83000000-0000-4000-8000-0000000000a3"]},
      {"text":"The zipper broke at once","sentiment":"negative","review_ids":["83000000-0000-4000-8000-0000000000a6"]}]',
    '{"zipper":{"ids":["83000000-0000-4000-8000-0000000000a1","83000000-0000-4000-8000-0000000000a2","83000000-0000-4000-8000-0000000000a3","83000000-0000-4000-8000-0000000000a6"],"sentiments":["positive","positive","positive","negative"]}}',
    '{83000000-0000-4000-8000-0000000000a1,83000000-0000-4000-8000-0000000000a2,83000000-0000-4000-8000-0000000000a3,83000000-0000-4000-8000-0000000000a4,83000000-0000-4000-8000-0000000000a5,83000000-0000-4000-8000-0000000000a6}',
    6), null, 'worker: saves the summary');
select is_empty($$select * from plaudit.review_summaries_due(10, '{83000000-0000-4000-8000-000000000001}')$$,
  'worker: once made, it is not due again below 10 % more');
select throws_ok('select * from plaudit.review_summaries', '42501', 'permission denied for table review_summaries',
  'worker: reads no summary directly');
select tests.clear_persona();

-- The owner: the trail, and a cited review leaving ----------------------------------------------------
select matches((select reason from plaudit.moderation_trail where action = 'summarize'),
  '^summary [0-9a-f-]{36} of the business made from 6 published reviews, ids sha256 [0-9a-f]{64}: 83000000-0000-4000-8000-0000000000a1,',
  'owner: the trail names the summary and its inputs');
select is((select body -> 'topics' from plaudit.review_summaries),
  '[{"name":"zipper","mentions":4,"positive":3,"negative":1,"review_ids":["83000000-0000-4000-8000-0000000000a1","83000000-0000-4000-8000-0000000000a2","83000000-0000-4000-8000-0000000000a3","83000000-0000-4000-8000-0000000000a6"]}]'::jsonb,
  'owner: topics are counted from the evidence, each review once');
update plaudit.reviews set is_hidden = true where id = '83000000-0000-4000-8000-0000000000a2';
select is((select body from plaudit.review_summaries),
  '{"review_count":5,"sentences":[{"text":"The zipper is smooth and strong","sentiment":"positive","review_ids":["83000000-0000-4000-8000-0000000000a1","83000000-0000-4000-8000-0000000000a3"],"count":2},{"text":"The zipper broke at once","sentiment":"negative","review_ids":["83000000-0000-4000-8000-0000000000a6"],"count":1}],"topics":[{"name":"zipper","mentions":3,"positive":2,"negative":1,"review_ids":["83000000-0000-4000-8000-0000000000a1","83000000-0000-4000-8000-0000000000a3","83000000-0000-4000-8000-0000000000a6"]}]}'::jsonb,
  'owner: a hidden citation leaves every sentence and topic at once, the counts following');
select tests.act_as_tenant('83000000-0000-4000-8000-000000000001');
select plaudit.erase_reviewer('ann6@example.com', false, 'api_key:test');
select tests.clear_persona();
select is((select jsonb_array_length(body -> 'sentences') from plaudit.review_summaries), 1,
  'owner: an erased review takes the sentence quoting it');
update plaudit.reviews set is_hidden = true where id = '83000000-0000-4000-8000-0000000000a1';
select is((select body -> 'sentences' from plaudit.review_summaries), '[]'::jsonb,
  'owner: the sentence quoting a hidden review goes');

-- The public ------------------------------------------------------------------------------------------
select tests.act_as_public();
select is((select body from plaudit.public_review_summary('summaries-co', null)), null,
  'public: below 5 published reviews there is no summary');
select is((select body from plaudit.public_review_summary('summaries-other', null)), null,
  'public: a business without a summary has none');
select tests.clear_persona();
update plaudit.reviews set is_hidden = false where id = '83000000-0000-4000-8000-0000000000a2';

-- Tenants -----------------------------------------------------------------------------------------------
select tests.act_as_tenant('83000000-0000-4000-8000-000000000002');
select is_empty('select * from plaudit.review_summaries', 'tenant B: reads none of A''s summaries');
select tests.act_as_tenant('83000000-0000-4000-8000-000000000001');
select results_eq('select count(*) from plaudit.review_summaries', $$values (1::bigint)$$,
  'tenant A: reads its own summary');
select tests.clear_persona();

select * from finish();
rollback;
