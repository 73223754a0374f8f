-- Notices (EU DSA Art. 16): a report names its kind, and an illegal one its law; an address queues
-- the acknowledgement, never reaching the tenant; a decision records hidden or kept, `hidden` hides
-- the review in the trail naming the report, and the reporter is mailed the decision; only the
-- tenant's own reports are decided; erasure takes the reporter's address out of its reports.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(17);

insert into plaudit.organizations (id, name, slug) values
  ('63000000-0000-4000-8000-000000000001', 'Notices Co', 'notices-co'),
  ('63000000-0000-4000-8000-000000000002', 'Other Co', 'notices-other');
insert into plaudit.review_forms (id, org_id, name) values
  ('63000000-0000-4000-8000-0000000000f1', '63000000-0000-4000-8000-000000000001', 'Form');
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status)
values
  ('63000000-0000-4000-8000-0000000000a1', '63000000-0000-4000-8000-000000000001',
   '63000000-0000-4000-8000-0000000000f1', 1, 'Jo Bloggs of 3 High Street is a thief', 'Ann', 'ann@example.com',
   'unverified'),
  ('63000000-0000-4000-8000-0000000000a2', '63000000-0000-4000-8000-000000000001',
   '63000000-0000-4000-8000-0000000000f1', 5, 'Lovely', 'Bob', 'bob@example.com', 'unverified');

-- The public: notices ------------------------------------------------------------------------------
select tests.act_as_public();
select throws_ok($$select * from plaudit.report_review('t:n1', 100, 'notices-co', '63000000-0000-4000-8000-0000000000a1',
                     sha256('v1'), 'personal_data', null, 'illegal', null, 'ida@reporters.example', true)$$,
  '23514', 'new row for relation "review_reports" violates check constraint "review_reports_illegal_names_its_ground"',
  'public: an illegal notice without its law is refused');
select throws_ok($$select * from plaudit.report_review('t:n1', 100, 'notices-co', '63000000-0000-4000-8000-0000000000a1',
                     sha256('v1'), 'personal_data', null, 'criminal', 'x', null, true)$$,
  '23514', 'new row for relation "review_reports" violates check constraint "review_reports_kind_check"',
  'public: an unknown kind is refused');
select results_eq($$select published from plaudit.report_review('t:n1', 100, 'notices-co',
                     '63000000-0000-4000-8000-0000000000a1', sha256('v1'), 'personal_data', 'A private person',
                     'illegal', ' GDPR Art. 6 ', 'ida@reporters.example', true)$$,
  $$values (true)$$, 'public: an illegal notice with its law, address and good faith is taken');
select results_eq($$select published from plaudit.report_review('t:n1', 100, 'notices-co',
                     '63000000-0000-4000-8000-0000000000a2', sha256('v2'), 'spam', null)$$,
  $$values (true)$$, 'public: a report without a kind is against the policy');
select tests.clear_persona();

select results_eq($$select kind, legal_ground, reporter_email, good_faith from plaudit.review_reports order by kind$$,
  $$values ('illegal'::text, 'GDPR Art. 6'::text, 'ida@reporters.example'::text, true),
           ('policy', null, null, null)$$, 'owner: the notices as made');
select results_eq($$select to_address, data ->> 'kind', data ->> 'legal_ground', data::text like '%ann@example.com%'
                     from plaudit.email_outbox where template = 'report_received'$$,
  $$values ('ida@reporters.example'::text, 'illegal'::text, 'GDPR Art. 6'::text, false)$$,
  'owner: one acknowledgement, to the reporter who left an address, without the reviewer''s');
select is((select count(*)::integer from plaudit.events where type = 'review.reported'
            and data::text like '%reporters.example%'), 0, 'owner: no event carries the reporter''s address');
create temporary table notice as
  select id from plaudit.review_reports where kind = 'illegal';
grant select on notice to public;
insert into plaudit.review_reports (org_id, review_id, reason, reporter_hash) values
  ('63000000-0000-4000-8000-000000000002', '63000000-0000-4000-8000-0000000000a2', 'spam', sha256('other'));
select throws_ok($$update plaudit.review_reports set decision = 'kept' where id = (select id from notice)$$,
  '23514', 'new row for relation "review_reports" violates check constraint "review_reports_decided_when_resolved"',
  'owner: an open report has no decision');

-- Tenant A: decides its notices --------------------------------------------------------------------
select tests.act_as_tenant('63000000-0000-4000-8000-000000000001');
select throws_ok('select reporter_email from plaudit.review_reports', '42501',
  'permission denied for table review_reports', 'tenant A: never reads a reporter''s address');
select throws_ok($$select plaudit.resolve_review_report((select id from notice), 'Gone', 'api_key:a', 'deleted')$$,
  '22023', 'decision: must be hidden or kept', 'tenant A: a decision is hidden or kept');
select is(plaudit.resolve_review_report((select id from notice), 'It names a private person.', 'api_key:a', 'hidden'),
  (select id from notice), 'tenant A: decides its notice: hidden');
select results_eq($$select action, reason, actor from plaudit.moderation_trail
                     where review_id = '63000000-0000-4000-8000-0000000000a1'$$,
  $$values ('hide'::text, 'report ' || (select id from notice) || ': It names a private person.', 'api_key:a'::text)$$,
  'tenant A: the review is hidden in the trail, naming the report');
select is(plaudit.resolve_review_report((select id from notice), 'Confirmed.', 'api_key:a', 'hidden'),
  (select id from notice), 'tenant A: deciding again replaces the reasons');

-- Tenant B: not A's notices ------------------------------------------------------------------------
select tests.act_as_tenant('63000000-0000-4000-8000-000000000002');
select is(plaudit.resolve_review_report((select id from notice), 'Taken over', 'api_key:b', 'kept'), null,
  'tenant B: cannot decide A''s notice');
select tests.clear_persona();

select results_eq($$select decision, resolution, (select count(*)::integer from plaudit.moderation_trail
                                                    where review_id = '63000000-0000-4000-8000-0000000000a1')
                     from plaudit.review_reports where id = (select id from notice)$$,
  $$values ('hidden'::text, 'Confirmed.'::text, 1)$$, 'owner: B changed nothing, and hiding again added no entry');
select results_eq($$select data ->> 'decision', data ->> 'resolution' from plaudit.email_outbox
                     where template = 'report_decided' order by data ->> 'resolution'$$,
  $$values ('hidden'::text, 'Confirmed.'::text), ('hidden', 'It names a private person.')$$,
  'owner: each decision is mailed to the reporter');

-- Erasure of the reporter's address ----------------------------------------------------------------
select tests.act_as_tenant('63000000-0000-4000-8000-000000000001');
select plaudit.erase_reviewer('IDA@reporters.example', false, 'api_key:a');
select tests.clear_persona();
select results_eq($$select reporter_email, kind, decision from plaudit.review_reports where id = (select id from notice)$$,
  $$values (null::text, 'illegal'::text, 'hidden'::text)$$, 'owner: erasure takes the address out, the notice stays');

select * from finish();
rollback;
