-- Questions: the public asks (pending until the e-mailed link confirms it), the tenant answers and
-- moderates on the questions' trail, another tenant sees nothing, the public sees only published
-- questions and visible answers, never an address; nothing is deleted.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(26);

insert into plaudit.organizations (id, name, slug) values
  ('80000000-aaaa-4aaa-8aaa-000000000001', 'Acme', 'acme80'),
  ('80000000-bbbb-4bbb-8bbb-000000000002', 'Globex', 'globex80');
insert into plaudit.products (id, org_id, external_id, name) values
  ('80000000-0000-4000-8000-0000000000a1', '80000000-aaaa-4aaa-8aaa-000000000001', 'MUG-1', 'Mug');

create temporary table asked (id uuid, token text);
grant select, insert on asked to public;

--------------
--- The public
--------------
select tests.act_as_public();

select is(
  (select error_message from plaudit.ask_question('q80:a', 10, 'acme80', 'NOPE', 'Is it dishwasher safe?', 'Ann',
                                                 'ann@example.com', 'https://reviews.test')),
  'Product not found', 'public: a question about an unknown product is refused');
select is(
  (select error_message from plaudit.ask_question('q80:a', 10, 'nobody80', null, 'Is it dishwasher safe?', 'Ann',
                                                 'ann@example.com', 'https://reviews.test')),
  'Business not found', 'public: a question to an unknown business is refused');
select is(
  (select error_code from plaudit.ask_question('q80:a', 10, 'acme80', null, 'Too short', 'Ann',
                                              'ann@example.com', 'https://reviews.test')),
  '23514', 'public: a question under 10 characters is refused');

insert into asked (id)
select id from plaudit.ask_question('q80:a', 10, 'acme80', 'MUG-1', '  Is it dishwasher safe?  ', 'Ann',
                                    'ann@example.com', 'https://reviews.test');
select is((select count(*)::integer from asked where id is not null), 1, 'public: asks about a product');

select throws_ok($$ select * from plaudit.questions $$, '42501', 'permission denied for table questions',
  'public: cannot read questions');

select tests.clear_persona();
update asked set token = (select split_part(data ->> 'confirm_url', '/questions/confirm/', 2)
                            from plaudit.email_outbox where template = 'question_confirmation');
select is((select status from plaudit.questions), 'pending', 'the question waits for its confirmation');
select is((select data ->> 'confirm_url' like 'https://reviews.test/questions/confirm/%'
             from plaudit.email_outbox where template = 'question_confirmation'), true,
  'the asker is mailed a confirmation link');

select tests.act_as_public();
select is((select body from plaudit.public_question_page('acme80', 'MUG-1', 1, 10)),
  '{"data":[],"meta":{"total":0,"page":1,"limit":10,"totalPages":0}}', 'public: an unconfirmed question never shows');
select is((select outcome from plaudit.confirm_question('wrong', 'https://reviews.test')), 'invalid',
  'public: a wrong link confirms nothing');
select is((select outcome from plaudit.confirm_question((select token from asked), 'https://reviews.test')),
  'confirmed', 'public: the link confirms the question');
select is((select outcome from plaudit.confirm_question((select token from asked), 'https://reviews.test')),
  'already_confirmed', 'public: the link works once');

------------
--- Tenant A
------------
select tests.act_as_tenant('80000000-aaaa-4aaa-8aaa-000000000001');
select isnt((select answer_id from plaudit.write_business_answer((select id from asked), 'Yes, up to 50 °C.',
                                                                  'api_key:k1')), null,
  'tenant A: answers its question');
select results_eq(
  $$ select created from plaudit.write_business_answer((select id from asked), '  Yes, up to 60 °C.  ', 'api_key:k1')
     union all
     select created from plaudit.write_business_answer((select id from asked), 'Yes, up to 60 °C.', 'api_key:k1') $$,
  $$ values (false), (false) $$, 'tenant A: writing its answer again edits it, and the same text changes nothing');
select is((select string_agg(content, '|') from plaudit.question_answers where author = 'business'),
  'Yes, up to 60 °C.', 'tenant A: the business has one answer, with its new text');
select throws_ok($$ select plaudit.write_business_answer((select id from asked), '   ', 'api_key:k1') $$,
  '23514', 'content: must be 1 to 5000 characters', 'tenant A: an empty answer is refused');
select is((select plaudit.question_json(id) ->> 'answered' from asked), 'true', 'tenant A: the question is answered');
select throws_ok($$ delete from plaudit.questions $$, '42501', 'permission denied for table questions',
  'tenant A: cannot delete a question');

select tests.act_as_public();
select is((select (body::json -> 'data' -> 0 -> 'answers' -> 0 ->> 'content')
             || '/' || (body::json -> 'data' -> 0 -> 'answers' -> 0 ->> 'author')
             || '/' || (body::json -> 'data' -> 0 -> 'answers' -> 0 ->> 'author_name')
             || '/' || (body not like '%@%')::text
             from plaudit.public_question_page('acme80', 'MUG-1', 1, 10)),
  'Yes, up to 60 °C./business/Acme/true', 'public: the published question shows its answer, without any address');

select tests.act_as_tenant('80000000-aaaa-4aaa-8aaa-000000000001');
select lives_ok($$ select plaudit.moderate_question((select id from asked), 'hide', 'Off topic', 'api_key:k1') $$,
  'tenant A: hides its question');
select throws_ok($$ select plaudit.moderate_question((select id from asked), 'hide', null, 'api_key:k1') $$,
  '55000', 'Question is already hidden', 'tenant A: hiding twice is refused');
select results_eq($$ select action, reason, actor from plaudit.question_moderation_trail order by created_at $$,
  $$ values ('answer', null, 'api_key:k1'), ('edit_answer', 'Yes, up to 50 °C.', 'api_key:k1'),
            ('hide', 'Off topic', 'api_key:k1') $$,
  'tenant A: the answer, its edit (with the text it replaced) and the hide are on the trail, with reason and actor');

select tests.act_as_public();
select is((select body::json -> 'meta' ->> 'total' from plaudit.public_question_page('acme80', 'MUG-1', 1, 10)), '0',
  'public: a hidden question never shows');

------------
--- Tenant B
------------
select tests.act_as_tenant('80000000-bbbb-4bbb-8bbb-000000000002');
select is((select count(*)::integer from plaudit.questions), 0, 'tenant B: reads none of tenant A''s questions');
select throws_ok($$ select plaudit.write_business_answer((select id from asked), 'Mine now', 'api_key:k9') $$,
  'P0002', 'Question not found', 'tenant B: cannot answer tenant A''s question');
select throws_ok($$ select plaudit.moderate_question((select id from asked), 'unhide', null, 'api_key:k9') $$,
  'P0002', 'Question not found', 'tenant B: cannot moderate tenant A''s question');

-------------
--- The owner
-------------
select tests.act_as_owner();
select throws_ok($$ update plaudit.question_moderation_trail set reason = 'changed' $$, '23001',
  'the moderation trail is append-only: entries cannot be changed or deleted', 'owner: the trail is append-only');

select * from finish();
rollback;
