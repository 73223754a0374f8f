-- plaudit.review_replies, reply_to_review and withdraw_review_reply: a tenant replies to its own
-- reviews, edits and withdraws the reply; each change is a trail entry, a review.replied event
-- and a new public version; another tenant can neither reply nor read.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(16);

insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex');
insert into plaudit.review_forms (id, org_id, name) values
  ('aaaaaaaa-0000-4000-8000-00000000000f', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Form A');
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status)
values ('aaaaaaaa-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
        'aaaaaaaa-0000-4000-8000-00000000000f', 2, 'Slow delivery', 'Ann', 'ann@example.com', 'unverified');

create temporary table versions as select plaudit.public_version('acme') as v;
grant select, insert on versions to public;

------------
--- Tenant A
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');

select is(
  (select content from plaudit.reply_to_review('aaaaaaaa-0000-4000-8000-000000000001', '  Sorry, we have a new courier.  ', 'api_key:k1')),
  'Sorry, we have a new courier.',
  'tenant A: replies to its review (trimmed)'
);

select results_eq(
  $$ select action, reason, actor from plaudit.moderation_trail order by seq $$,
  $$ values ('reply', 'Sorry, we have a new courier.', 'api_key:k1') $$,
  'tenant A: the reply is an entry of the trail, with its text and its author'
);

select lives_ok(
  $$ select * from plaudit.reply_to_review('aaaaaaaa-0000-4000-8000-000000000001', 'Sorry, we have a new courier.', 'api_key:k1') $$,
  'tenant A: the same text again passes'
);
select is((select count(*)::integer from plaudit.moderation_trail), 1, 'tenant A: ... and records nothing');

select is(
  (select content from plaudit.reply_to_review('aaaaaaaa-0000-4000-8000-000000000001', 'Sorry! Refund sent.', 'api_key:k2')),
  'Sorry! Refund sent.',
  'tenant A: edits its reply'
);

select is(plaudit.withdraw_review_reply('aaaaaaaa-0000-4000-8000-000000000001', 'api_key:k2'), true,
  'tenant A: withdraws its reply');
select is(plaudit.withdraw_review_reply('aaaaaaaa-0000-4000-8000-000000000001', 'api_key:k2'), false,
  'tenant A: withdrawing again finds nothing');

select results_eq(
  $$ select action, reason from plaudit.moderation_trail order by seq $$,
  $$ values ('reply', 'Sorry, we have a new courier.'), ('edit_reply', 'Sorry! Refund sent.'), ('withdraw_reply', null) $$,
  'tenant A: every change of the reply is kept in the trail'
);

select throws_ok(
  $$ select * from plaudit.reply_to_review('aaaaaaaa-0000-4000-8000-000000000001', '   ', 'api_key:k1') $$,
  '23514', 'content: must be 1 to 5000 characters',
  'tenant A: an empty reply is refused'
);

select throws_ok(
  $$ update plaudit.review_replies set org_id = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb' $$,
  '42501', 'permission denied for table review_replies',
  'tenant A: cannot move a reply to another organization'
);

select lives_ok(
  $$ select * from plaudit.reply_to_review('aaaaaaaa-0000-4000-8000-000000000001', 'Thank you for telling us.', 'api_key:k1') $$,
  'tenant A: replies again after withdrawing'
);

select tests.clear_persona();

-- One transaction here: the events share their time, so they are compared as a set.
select bag_eq(
  $$ select data ->> 'action' as action, data -> 'reply' ->> 'content' as content from plaudit.events
      where type = 'review.replied' $$,
  $$ values ('created', 'Sorry, we have a new courier.'), ('updated', 'Sorry! Refund sent.'), ('withdrawn', null),
            ('created', 'Thank you for telling us.') $$,
  'owner: each change emits review.replied'
);

select isnt(plaudit.public_version('acme'), (select v from versions), 'owner: the public version moved');

------------
--- Tenant B
------------
select tests.act_as_tenant('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');

select throws_ok(
  $$ select * from plaudit.reply_to_review('aaaaaaaa-0000-4000-8000-000000000001', 'Not yours', 'api_key:kb') $$,
  'P0002', 'Review not found',
  'tenant B: cannot reply to A''s review'
);

select is_empty($$ select * from plaudit.review_replies $$, 'tenant B: reads none of A''s replies');

select throws_ok(
  $$ insert into plaudit.review_replies (review_id, org_id, content)
     values ('aaaaaaaa-0000-4000-8000-000000000001', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Sneaky') $$,
  '42501', 'new row violates row-level security policy for table "review_replies"',
  'tenant B: cannot write a reply under A''s review by hand'
);

select tests.clear_persona();

select * from finish();
rollback;
