-- Appeals (EU DSA Art. 20): the reviewer appeals through the statement's token, once, in the trail,
-- acknowledged by mail; an unknown token is refused; a member of the tenant decides an open appeal
-- (never an API key), reversing shows the review again in the trail, each decision mailed; another
-- tenant neither reads nor decides it.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(13);

insert into plaudit.organizations (id, name, slug) values
  ('65000000-0000-4000-8000-000000000001', 'Appeals Co', 'appeals-co'),
  ('65000000-0000-4000-8000-000000000002', 'Other Co', 'appeals-other');
insert into plaudit.review_forms (id, org_id, name) values
  ('65000000-0000-4000-8000-0000000000f1', '65000000-0000-4000-8000-000000000001', 'Form');
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status)
values ('65000000-0000-4000-8000-0000000000a1', '65000000-0000-4000-8000-000000000001',
        '65000000-0000-4000-8000-0000000000f1', 1, 'Harsh', 'Ann', 'ann@example.com', 'unverified');
select set_config('plaudit.moderation_reason', 'Insults', true);
update plaudit.reviews set is_hidden = true where id = '65000000-0000-4000-8000-0000000000a1';
select set_config('plaudit.moderation_reason', '', true);
create temporary table link as
  select data ->> 'appeal_token' as token from plaudit.email_outbox where template = 'statement_of_reasons';
grant select on link to public;

-- The public: the reviewer's link ------------------------------------------------------------------
select tests.act_as_public();
select results_eq($$select ground, facts, appeal_status, still_hidden from plaudit.appeal_form((select token from link))$$,
  $$values ('Appeals Co''s review policy'::text, 'Insults'::text, null::text, true)$$,
  'public: the link''s form shows the statement');
select is_empty($$select * from plaudit.appeal_form('not-a-token')$$, 'public: an unknown token shows nothing');
select results_eq($$select outcome from plaudit.submit_appeal('not-a-token', 'Hi')$$, $$values ('invalid'::text)$$,
  'public: an unknown token appeals nothing');
select results_eq($$select outcome from plaudit.submit_appeal((select token from link), ' I was fair ')$$,
  $$values ('appealed'::text)$$, 'public: the reviewer appeals');
select results_eq($$select outcome from plaudit.submit_appeal((select token from link), 'Again')$$,
  $$values ('already_appealed'::text)$$, 'public: once per statement');
select throws_ok('select * from plaudit.review_appeals', '42501', 'permission denied for table review_appeals',
  'public: reads no appeal');
select tests.clear_persona();

select results_eq($$select action, reason, actor from plaudit.moderation_trail order by seq$$,
  $$values ('hide'::text, 'Insults'::text, 'database:postgres'::text),
           ('appeal', 'appeal ' || (select id from plaudit.review_appeals) || ': I was fair', 'reviewer:appeal_link')$$,
  'owner: the appeal is in the trail');
create temporary table appeal as select id from plaudit.review_appeals;
grant select on appeal to public;

-- Tenant B ------------------------------------------------------------------------------------------
select tests.act_as_tenant('65000000-0000-4000-8000-000000000002');
select ok(plaudit.review_appeal_json((select id from appeal)) is null, 'tenant B: cannot read A''s appeal');
select is(plaudit.decide_appeal((select id from appeal), 'reversed', 'Mine now', 'member:b'), null,
  'tenant B: cannot decide A''s appeal');

-- Tenant A ------------------------------------------------------------------------------------------
select tests.act_as_tenant('65000000-0000-4000-8000-000000000001');
select throws_ok($$select plaudit.decide_appeal((select id from appeal), 'reversed', 'Fair', 'api_key:a')$$, '42501',
  'Appeals are decided by a member of the team, signed in to the dashboard', 'tenant A: an API key does not decide');
select is(plaudit.decide_appeal((select id from appeal), 'reversed', 'Fair words', 'member:m1'), (select id from appeal),
  'tenant A: a member reverses');
select throws_ok($$select plaudit.decide_appeal((select id from appeal), 'upheld', 'No', 'member:m1')$$, '55000',
  'Appeal is already decided', 'tenant A: a decided appeal stays decided');
select tests.clear_persona();

select results_eq($$select (select is_hidden from plaudit.reviews), array_agg(action order by seq),
                          (select count(*)::integer from plaudit.email_outbox where template like 'appeal_%')
                     from plaudit.moderation_trail$$,
  $$values (false, array['hide', 'appeal', 'reverse_appeal', 'unhide']::text[], 2)$$,
  'owner: the review is shown again, each step in the trail, the appeal and the decision mailed');

select * from finish();
rollback;
