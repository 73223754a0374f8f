-- Statements of reasons (EU DSA Art. 17): every hide of a review writes one in its transaction,
-- from the hiding transaction's settings (moderation on the policy by default; a notice's law; an
-- automatic hold), and queues its mail with an appeal token to a reviewer with an address; an
-- unhide writes none; tenants read their own statements, never the token's hash; the public learns
-- a hidden review's ground and nothing else.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(12);

insert into plaudit.organizations (id, name, slug) values
  ('64000000-0000-4000-8000-000000000001', 'Reasons Co', 'reasons-co'),
  ('64000000-0000-4000-8000-000000000002', 'Other Co', 'reasons-other');
insert into plaudit.review_forms (id, org_id, name) values
  ('64000000-0000-4000-8000-0000000000f1', '64000000-0000-4000-8000-000000000001', 'Form');
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status)
values
  ('64000000-0000-4000-8000-0000000000a1', '64000000-0000-4000-8000-000000000001',
   '64000000-0000-4000-8000-0000000000f1', 1, 'Rude words', 'Ann', 'ann@example.com', 'unverified'),
  ('64000000-0000-4000-8000-0000000000a2', '64000000-0000-4000-8000-000000000001',
   '64000000-0000-4000-8000-0000000000f1', 1, 'Imported', 'Bob', null, 'unverified'),
  ('64000000-0000-4000-8000-0000000000a3', '64000000-0000-4000-8000-000000000001',
   '64000000-0000-4000-8000-0000000000f1', 1, 'Burst', 'Cy', 'cy@example.com', 'unverified');

-- Tenant A hides and unhides --------------------------------------------------------------------------
select tests.act_as_tenant('64000000-0000-4000-8000-000000000001');
select lives_ok($$select * from plaudit.moderate_review('64000000-0000-4000-8000-0000000000a1', 'hide', 'Insults staff', 'api_key:a')$$,
  'tenant A: hides a review through moderation');
select lives_ok($$select * from plaudit.moderate_review('64000000-0000-4000-8000-0000000000a2', 'hide', 'Off topic', 'api_key:a')$$,
  'tenant A: hides a review without an address');
select lives_ok($$select * from plaudit.moderate_review('64000000-0000-4000-8000-0000000000a2', 'unhide', 'Second look', 'api_key:a')$$,
  'tenant A: unhides it');
select results_eq($$select (s ->> 'facts'), (s -> 'ground' ->> 'type'), (s -> 'ground' ->> 'text'), (s ->> 'automated')::boolean,
                          (s ->> 'source'), (s ->> 'actor'), (s ->> 'mailed')::boolean
                     from json_array_elements(plaudit.review_statements_json('64000000-0000-4000-8000-0000000000a1')) s$$,
  $$values ('Insults staff'::text, 'policy'::text, 'Reasons Co''s review policy'::text, false, 'moderation'::text,
            'api_key:a'::text, true)$$, 'tenant A: the moderation''s statement, on the policy, by a person, mailed');
select is(json_array_length(plaudit.review_statements_json('64000000-0000-4000-8000-0000000000a2')), 1,
  'tenant A: the unhide wrote no statement');
select throws_ok('select appeal_token_hash from plaudit.review_statements', '42501',
  'permission denied for table review_statements', 'tenant A: never reads the appeal token''s hash');

-- Tenant B -----------------------------------------------------------------------------------------
select tests.act_as_tenant('64000000-0000-4000-8000-000000000002');
select ok(plaudit.review_statements_json('64000000-0000-4000-8000-0000000000a1') is null,
  'tenant B: A''s review has no statements for it');
select is((select count(*)::integer from plaudit.review_statements), 0, 'tenant B: reads none of A''s statements');
select tests.clear_persona();

-- An automatic hold (as the worker's would) ----------------------------------------------------------
select plaudit.set_restriction('automatic', 'policy', 'Unusual burst of one-star reviews', true);
update plaudit.reviews set is_hidden = true where id = '64000000-0000-4000-8000-0000000000a3';
select plaudit.set_restriction(null, null, null, null);
select results_eq($$select source, automated, ground from plaudit.review_statements
                     where review_id = '64000000-0000-4000-8000-0000000000a3'$$,
  $$values ('automatic'::text, true, 'Unusual burst of one-star reviews'::text)$$, 'owner: an automatic hold says so');

select results_eq($$select to_address, octet_length(data ->> 'appeal_token') from plaudit.email_outbox
                     where template = 'statement_of_reasons' order by to_address$$,
  $$values ('ann@example.com'::text, 43), ('cy@example.com', 43)$$,
  'owner: each statement with an address is mailed with its appeal token; none without one');

-- The public ---------------------------------------------------------------------------------------
select tests.act_as_public();
select results_eq($$select ground_type, ground from plaudit.public_hidden_review_ground('reasons-co',
                     '64000000-0000-4000-8000-0000000000a1')$$,
  $$values ('policy'::text, 'Reasons Co''s review policy'::text)$$, 'public: a hidden review''s ground');
select is_empty($$select * from plaudit.public_hidden_review_ground('reasons-co', '64000000-0000-4000-8000-0000000000a2')
                  union all select * from plaudit.public_hidden_review_ground('reasons-other', '64000000-0000-4000-8000-0000000000a1')$$,
  'public: nothing for a shown review, nor under another slug');
select tests.clear_persona();

select * from finish();
rollback;
