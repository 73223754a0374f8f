-- plaudit.erase_reviewer and plaudit.reviewer_data: a tenant forgets an address (its reviews
-- anonymized, the text removed on request, requests, e-mails and copies gone, the address kept as a
-- hash), the moderation chain still verifies, a repeat changes nothing; the access report holds the
-- address's data and no one else's; another tenant's data is never touched; the public cannot call them.
begin;
select tests.lend_temporary_to_runtime_roles();
select no_plan();

insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex');
insert into plaudit.review_forms (id, org_id, name) values
  ('aaaaaaaa-0000-4000-8000-00000000000f', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Form A'),
  ('bbbbbbbb-0000-4000-8000-00000000000f', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Form B');
insert into plaudit.reviews (id, org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                             custom_fields, verification_status) values
  ('aaaaaaaa-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'aaaaaaaa-0000-4000-8000-00000000000f',
   2, 'Slow', 'Slow delivery', 'Ann Smith', 'ann@example.com', '{"city": "Oslo"}', 'unverified'),
  ('aaaaaaaa-0000-4000-8000-000000000002', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'aaaaaaaa-0000-4000-8000-00000000000f',
   5, null, 'Great mug', 'Ann', 'Ann@Example.com', '{}', 'unverified'),
  ('aaaaaaaa-0000-4000-8000-000000000003', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'aaaaaaaa-0000-4000-8000-00000000000f',
   4, 'Fine', 'Fine shop', 'Bob', 'bob@example.com', '{"city": "Bergen"}', 'unverified'),
  ('aaaaaaaa-0000-4000-8000-000000000004', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'aaaaaaaa-0000-4000-8000-00000000000f',
   1, 'Bad', 'Broken on arrival', 'Cy', 'cy@example.com', '{}', 'unverified'),
  ('bbbbbbbb-0000-4000-8000-000000000001', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'bbbbbbbb-0000-4000-8000-00000000000f',
   3, null, 'Globex review by Ann', 'Ann', 'ann@example.com', '{}', 'unverified');
insert into plaudit.orders (org_id, order_id, email) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'ORD-1', 'ann@example.com'),
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'ORD-2', 'bob@example.com');
insert into plaudit.email_suppressions (org_id, email, reason) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'ANN@example.com', 'unsubscribed');
insert into plaudit.email_outbox (org_id, to_address, template, data) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'ann@example.com', 'verify_review', '{"name": "Ann Smith"}'),
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'bob@example.com', 'verify_review', '{"name": "Bob"}');
-- A hide before the erasure: the chain has history to keep.
select plaudit.moderate_review('aaaaaaaa-0000-4000-8000-000000000003', 'hide', 'checking', 'api_key:k0');
select plaudit.moderate_review('aaaaaaaa-0000-4000-8000-000000000003', 'unhide', 'fine', 'api_key:k0');

create temporary table versions as select plaudit.public_version('acme') as v;
grant select on versions to public;

------------
--- The guard: forgetting is the one rewrite of a review, and only whole
------------
select throws_ok(
  $$ update plaudit.reviews set reviewer_name = 'Anonymous' where id = 'aaaaaaaa-0000-4000-8000-000000000004' $$,
  '23001', 'a review cannot be rewritten: only moderation and verification may change it',
  'the guard: a name changed alone is a rewrite'
);
select throws_ok(
  $$ update plaudit.reviews set reviewer_email = null, reviewer_name = 'Anonymous', custom_fields = '{}', rating = 5
      where id = 'aaaaaaaa-0000-4000-8000-000000000004' $$,
  '23001', 'a review cannot be rewritten: only moderation and verification may change it',
  'the guard: an erasure that also changes the rating is a rewrite'
);
select throws_ok(
  $$ update plaudit.reviews set reviewer_email = null, reviewer_name = 'Anonymous', custom_fields = '{}', content = 'Lovely'
      where id = 'aaaaaaaa-0000-4000-8000-000000000004' $$,
  '23001', 'a review cannot be rewritten: only moderation and verification may change it',
  'the guard: an erasure that writes another text is a rewrite'
);

------------
--- The public role
------------
select tests.act_as_public();
select throws_ok(
  $$ select plaudit.erase_reviewer('ann@example.com', false, 'x') $$,
  '42501', 'permission denied for function erase_reviewer',
  'public: cannot erase'
);
select throws_ok(
  $$ select plaudit.reviewer_data('ann@example.com') $$,
  '42501', 'permission denied for function reviewer_data',
  'public: cannot read the access report'
);
select tests.clear_persona();

------------
--- Tenant A
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');

select throws_ok(
  $$ select plaudit.erase_reviewer('not an address', false, 'api_key:k1') $$,
  '22023', 'email: must be an e-mail address',
  'tenant A: an erasure needs an address'
);

select is(
  (select (plaudit.reviewer_data('ann@example.com') -> 'reviews')::jsonb -> 0 ->> 'reviewer_email'),
  'ann@example.com',
  'tenant A: before the erasure, the access report holds the reviews'
);
select is(
  (select json_array_length(plaudit.reviewer_data('ann@example.com') -> 'reviews')), 2,
  'tenant A: ... both of them, whatever the case of the address'
);
select ok(
  (select strpos(plaudit.reviewer_data('ann@example.com')::text, 'bob@example.com') = 0
      and strpos(plaudit.reviewer_data('ann@example.com')::text, 'Bergen') = 0
      and strpos(plaudit.reviewer_data('ann@example.com')::text, 'Globex') = 0),
  'tenant A: ... and nothing of another reviewer or another organization'
);

select is(
  plaudit.erase_reviewer(' ANN@example.com ', false, 'api_key:k1')::text,
  '{"reviews" : 2, "review_requests" : 0, "questions" : 0, "media" : 0, "files" : []}',
  'tenant A: erases an address, in any case: two reviews'
);
select tests.clear_persona();

select results_eq(
  $$ select reviewer_email, reviewer_name, custom_fields, title, content, rating::integer from plaudit.reviews
      where id in ('aaaaaaaa-0000-4000-8000-000000000001', 'aaaaaaaa-0000-4000-8000-000000000002') order by id $$,
  $$ values (null::text, 'Anonymous'::text, '{}'::jsonb, 'Slow'::text, 'Slow delivery'::text, 2),
            (null, 'Anonymous', '{}'::jsonb, null, 'Great mug', 5) $$,
  'the reviews keep their rating and text, and lose the address, the name and the answers'
);
select results_eq(
  $$ select reviewer_email, reviewer_name from plaudit.reviews
      where id in ('aaaaaaaa-0000-4000-8000-000000000003', 'bbbbbbbb-0000-4000-8000-000000000001') order by id $$,
  $$ values ('bob@example.com'::text, 'Bob'::text), ('ann@example.com', 'Ann') $$,
  'another reviewer, and the same address in another organization, are untouched'
);
select results_eq(
  $$ select action, review_id, reason, actor from plaudit.moderation_trail
      where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' and action = 'anonymize' order by seq $$,
  $$ values ('anonymize'::text, 'aaaaaaaa-0000-4000-8000-000000000001'::uuid, 'erased at the reviewer''s request'::text, 'api_key:k1'::text),
            ('anonymize', 'aaaaaaaa-0000-4000-8000-000000000002'::uuid, 'erased at the reviewer''s request', 'api_key:k1') $$,
  'each erased review is an entry of the trail'
);
select is(
  (select valid from plaudit.verify_moderation_chain('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa')), true,
  'the moderation chain still verifies'
);
select is(
  (select count(*)::integer from plaudit.events
    where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' and type = 'review.anonymized'),
  2, 'each erased review emits review.anonymized'
);
select is(
  (select count(*)::integer from plaudit.events
    where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'
      and (data::text ilike '%ann@example.com%' or data::text like '%Ann Smith%' or data::text like '%Oslo%')),
  0, 'no past event holds the address, the name or the answers'
);
select is(
  (select data ->> 'reviewer_name' from plaudit.events
    where type = 'review.created' and data ->> 'id' = 'aaaaaaaa-0000-4000-8000-000000000001'),
  'Anonymous', 'a past review.created reads as if written after the erasure'
);
select results_eq(
  $$ select email, reason, email_key = plaudit.email_key(org_id, 'ann@example.com') from plaudit.email_suppressions
      where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  $$ values (null::text, 'erased'::text, true) $$,
  'the address is suppressed, kept only as its hash'
);
select is(plaudit.suppression_reason('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Ann@example.com'), 'erased',
  'the suppression still matches the address');
select results_eq(
  $$ select order_id, email from plaudit.orders where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' order by order_id $$,
  $$ values ('ORD-1'::text, null::text), ('ORD-2', 'bob@example.com') $$,
  'its orders keep their ids without the address'
);
select results_eq(
  $$ select distinct to_address from plaudit.email_outbox where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  $$ values ('bob@example.com'::text) $$,
  'its e-mails are gone, another reviewer''s stay'
);
select isnt((select v from versions), plaudit.public_version('acme'), 'the public version moves: names changed in public');

select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select is(
  plaudit.erase_reviewer('ann@example.com', true, 'api_key:k1')::text,
  '{"reviews" : 0, "review_requests" : 0, "questions" : 0, "media" : 0, "files" : []}',
  'tenant A: a repeat finds nothing left'
);
select is(
  (select count(*)::integer from plaudit.privacy_erasures), 2,
  'tenant A: both erasures are recorded'
);
select is(
  (select json_array_length(plaudit.reviewer_data('ann@example.com') -> 'reviews')), 0,
  'tenant A: after the erasure, the access report holds no review'
);
select is(
  (select plaudit.reviewer_data('ann@example.com') -> 'suppression' ->> 'reason'), 'erased',
  'tenant A: ... but the suppression'
);

select is(
  plaudit.erase_reviewer('cy@example.com', true, 'api_key:k1')::text,
  '{"reviews" : 1, "review_requests" : 0, "questions" : 0, "media" : 0, "files" : []}',
  'tenant A: erases another address with its text'
);
select tests.clear_persona();
select results_eq(
  $$ select title, content, reviewer_name from plaudit.reviews where id = 'aaaaaaaa-0000-4000-8000-000000000004' $$,
  $$ values ('[removed at the reviewer''s request]'::text, '[removed at the reviewer''s request]'::text, 'Anonymous'::text) $$,
  'with redact_content, the title and text read the notice'
);
select is(
  (select valid from plaudit.verify_moderation_chain('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa')), true,
  'the moderation chain still verifies after both'
);

------------
--- Tenant B
------------
select tests.act_as_tenant('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');
select is(
  plaudit.erase_reviewer('bob@example.com', false, 'api_key:kb')::text,
  '{"reviews" : 0, "review_requests" : 0, "questions" : 0, "media" : 0, "files" : []}',
  'tenant B: an address known only to A finds nothing'
);
select is(
  (select count(*)::integer from plaudit.privacy_erasures), 1,
  'tenant B: sees its own erasure only'
);
select is(
  (select json_array_length(plaudit.reviewer_data('bob@example.com') -> 'reviews')), 0,
  'tenant B: its access report holds nothing of A''s reviews'
);
select tests.clear_persona();
select is(
  (select reviewer_email from plaudit.reviews where id = 'aaaaaaaa-0000-4000-8000-000000000003'),
  'bob@example.com', 'A''s reviewer is untouched by B''s erasure'
);

select * from finish();
rollback;
