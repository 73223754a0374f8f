-- Shoppers' signals: a helpful vote counts once per visitor and review, on published reviews only,
-- limited per address, and moves the public version and the CDN; a report is stored open with its
-- event and hides nothing; tenants read and resolve only their own reports, never a reporter's
-- hash, and nobody but the functions reads votes or keys.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(41);

insert into plaudit.organizations (id, name, slug) values
  ('60000000-0000-4000-8000-000000000001', 'Votes Co', 'votes-co'),
  ('60000000-0000-4000-8000-000000000002', 'Other Co', 'votes-other'),
  ('60000000-0000-4000-8000-000000000003', 'Closed Co', 'votes-closed');
insert into plaudit.public_profiles (org_id, enabled) values ('60000000-0000-4000-8000-000000000003', false);
insert into plaudit.review_forms (id, org_id, name) values
  ('60000000-0000-4000-8000-0000000000f1', '60000000-0000-4000-8000-000000000001', 'Form'),
  ('60000000-0000-4000-8000-0000000000f2', '60000000-0000-4000-8000-000000000002', 'Form'),
  ('60000000-0000-4000-8000-0000000000f3', '60000000-0000-4000-8000-000000000003', 'Form');
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status,
                             is_hidden, created_at)
values
  ('60000000-0000-4000-8000-0000000000a1', '60000000-0000-4000-8000-000000000001',
   '60000000-0000-4000-8000-0000000000f1', 5, 'Oldest', 'Ann', 'ann@example.com', 'unverified', false, now() - interval '3 days'),
  ('60000000-0000-4000-8000-0000000000a2', '60000000-0000-4000-8000-000000000001',
   '60000000-0000-4000-8000-0000000000f1', 4, 'Middle', 'Bob', 'bob@example.com', 'verified', false, now() - interval '2 days'),
  ('60000000-0000-4000-8000-0000000000a3', '60000000-0000-4000-8000-000000000001',
   '60000000-0000-4000-8000-0000000000f1', 3, 'Newest', 'Cy', 'cy@example.com', 'unverified', false, now() - interval '1 day'),
  ('60000000-0000-4000-8000-0000000000a4', '60000000-0000-4000-8000-000000000001',
   '60000000-0000-4000-8000-0000000000f1', 2, 'Pending', 'Di', 'di@example.com', 'pending', false, now()),
  ('60000000-0000-4000-8000-0000000000a5', '60000000-0000-4000-8000-000000000001',
   '60000000-0000-4000-8000-0000000000f1', 1, 'Hidden', 'Ed', 'ed@example.com', 'unverified', true, now()),
  ('60000000-0000-4000-8000-0000000000b1', '60000000-0000-4000-8000-000000000002',
   '60000000-0000-4000-8000-0000000000f2', 5, 'Other', 'Flo', 'flo@example.com', 'unverified', false, now()),
  ('60000000-0000-4000-8000-0000000000c1', '60000000-0000-4000-8000-000000000003',
   '60000000-0000-4000-8000-0000000000f3', 5, 'Closed', 'Gus', 'gus@example.com', 'unverified', false, now());
update plaudit.cdn_purges set status = 'sent';

-- Visitors: the SHA-256 the API sends of an address and a browser.
create temporary table visitor (name text primary key, digest bytea);
insert into visitor values ('v1', sha256('203.0.113.1 Firefox')), ('v2', sha256('203.0.113.1 Chrome')),
                           ('v3', sha256('203.0.113.2 Firefox'));
grant select on visitor to public;
create temporary view version as select coalesce(sum(version), 0) as v from plaudit.review_statistics
  where org_id = '60000000-0000-4000-8000-000000000001';
grant select on version to public;
create temporary table version_before as select v from version;
grant select on version_before to public;
create temporary view a1_updated as select updated_at from plaudit.reviews where id = '60000000-0000-4000-8000-0000000000a1';
create temporary table a1_before as select updated_at from a1_updated;

-- The public: helpful votes -----------------------------------------------------------------------
select tests.act_as_public();
select results_eq($$select rate_allowed, published, helpful_count from plaudit.vote_helpful('t:v1', 100, 'votes-co',
                     '60000000-0000-4000-8000-0000000000a1', (select digest from visitor where name = 'v1'))$$,
  $$values (true, true, 1)$$, 'public: a vote on a published review counts');
select results_eq($$select published, helpful_count from plaudit.vote_helpful('t:v1', 100, 'votes-co',
                     '60000000-0000-4000-8000-0000000000a1', (select digest from visitor where name = 'v1'))$$,
  $$values (true, 1)$$, 'public: the same visitor again changes nothing');
select results_eq($$select helpful_count from plaudit.vote_helpful('t:v2', 100, 'votes-co',
                     '60000000-0000-4000-8000-0000000000a1', (select digest from visitor where name = 'v2'))$$,
  $$values (2)$$, 'public: another browser at the same address is another visitor');
select results_eq($$select helpful_count from plaudit.vote_helpful('t:v3', 100, 'votes-co',
                     '60000000-0000-4000-8000-0000000000a2', (select digest from visitor where name = 'v3'))$$,
  $$values (1)$$, 'public: a vote on another review counts on that review');
select results_eq($$select published, helpful_count from plaudit.vote_helpful('t:v1', 100, 'votes-co',
                     '60000000-0000-4000-8000-0000000000a4', (select digest from visitor where name = 'v1'))$$,
  $$values (false, null::integer)$$, 'public: a review awaiting verification cannot be voted on');
select results_eq($$select published from plaudit.vote_helpful('t:v1', 100, 'votes-co',
                     '60000000-0000-4000-8000-0000000000a5', (select digest from visitor where name = 'v1'))$$,
  $$values (false)$$, 'public: a hidden review cannot be voted on');
select results_eq($$select published from plaudit.vote_helpful('t:v1', 100, 'votes-co',
                     '60000000-0000-4000-8000-0000000000b1', (select digest from visitor where name = 'v1'))$$,
  $$values (false)$$, 'public: another organization''s review is not found under this slug');
select results_eq($$select published from plaudit.vote_helpful('t:v1', 100, 'votes-closed',
                     '60000000-0000-4000-8000-0000000000c1', (select digest from visitor where name = 'v1'))$$,
  $$values (false)$$, 'public: a switched-off profile''s reviews cannot be voted on');
select results_eq($$select rate_allowed, rate_remaining, published from plaudit.vote_helpful('t:limited', 1, 'votes-co',
                     '60000000-0000-4000-8000-0000000000a3', (select digest from visitor where name = 'v1'))$$,
  $$values (true, 0, true)$$, 'public: the first vote of an address within its limit counts');
select results_eq($$select rate_allowed, published from plaudit.vote_helpful('t:limited', 1, 'votes-co',
                     '60000000-0000-4000-8000-0000000000a3', (select digest from visitor where name = 'v2'))$$,
  $$values (false, false)$$, 'public: past the address''s limit nothing is counted');
select throws_ok('select * from plaudit.review_votes', '42501', 'permission denied for table review_votes',
  'public: cannot read the votes');
select throws_ok('select * from plaudit.visitor_hash_keys', '42501', 'permission denied for table visitor_hash_keys',
  'public: cannot read the keys');
select throws_ok($$select plaudit.visitor_hashes('60000000-0000-4000-8000-0000000000a1', '\x00')$$, '42501',
  'permission denied for function visitor_hashes', 'public: cannot hash visitors itself');
select tests.clear_persona();

-- The owner: what a vote changes --------------------------------------------------------------------
select results_eq($$select id::text, helpful_count from plaudit.reviews where org_id = '60000000-0000-4000-8000-000000000001'
                     and helpful_count > 0 order by id$$,
  $$values ('60000000-0000-4000-8000-0000000000a1', 2), ('60000000-0000-4000-8000-0000000000a2', 1),
           ('60000000-0000-4000-8000-0000000000a3', 1)$$, 'owner: each review counts its visitors'' votes');
select is((select count(*)::int from plaudit.review_votes where org_id = '60000000-0000-4000-8000-000000000001'), 4,
  'owner: one vote row each');
select ok((select bool_and(octet_length(visitor_hash) = 32) from plaudit.review_votes), 'owner: votes hold only a hash');
select is((select updated_at from a1_updated), (select updated_at from a1_before), 'owner: a vote does not touch the review''s updated_at');
select cmp_ok((select v from version), '>', (select v from version_before), 'owner: a vote moves the public version (ETags)');
select results_eq($$select org_id::text from plaudit.cdn_purges where status = 'pending'$$,
  $$values ('60000000-0000-4000-8000-000000000001')$$, 'owner: votes ask for one CDN purge of their organization');
select is(plaudit.public_feed_page_ids('60000000-0000-4000-8000-000000000001', null, '{1,2,3,4,5}', 'helpful', false, 0, 10),
  '{60000000-0000-4000-8000-0000000000a1,60000000-0000-4000-8000-0000000000a3,60000000-0000-4000-8000-0000000000a2}'::uuid[],
  'owner: sort=helpful orders by votes, ties newest first');
select is((select (plaudit.public_review_items('{60000000-0000-4000-8000-0000000000a1}')::json -> 0 ->> 'helpful_count')),
  '2'::text, 'owner: public items carry helpful_count');

-- A repeat under the previous period's key is still a repeat; keys older than that are deleted.
update plaudit.visitor_hash_keys set period = period - 1;
insert into plaudit.visitor_hash_keys (period) values (floor(extract(epoch from now()) / (30 * 86400))::integer - 5);
select tests.act_as_public();
select results_eq($$select helpful_count from plaudit.vote_helpful('t:v1', 100, 'votes-co',
                     '60000000-0000-4000-8000-0000000000a1', (select digest from visitor where name = 'v1'))$$,
  $$values (2)$$, 'public: a vote hashed under the previous period''s key is still recognized');
select tests.clear_persona();
select is((select count(*)::int from plaudit.visitor_hash_keys), 2, 'owner: only the current and previous keys are kept');

-- The public: reports ---------------------------------------------------------------------------------
select tests.act_as_public();
select results_eq($$select rating, title, content, reviewer_name from plaudit.public_reported_review('votes-co',
                     '60000000-0000-4000-8000-0000000000a2')$$,
  $$values (4, null::text, 'Middle'::text, 'Bob'::text)$$, 'public: the report form reads the published review it is about');
select is_empty($$select * from plaudit.public_reported_review('votes-co', '60000000-0000-4000-8000-0000000000a5')
                  union all select * from plaudit.public_reported_review('votes-co', '60000000-0000-4000-8000-0000000000a4')
                  union all select * from plaudit.public_reported_review('votes-co', '60000000-0000-4000-8000-0000000000b1')
                  union all select * from plaudit.public_reported_review('votes-closed', '60000000-0000-4000-8000-0000000000c1')$$,
  'public: no hidden or pending review, none of another organization, none of a switched-off profile');
select results_eq($$select rate_allowed, published from plaudit.report_review('t:r1', 100, 'votes-co',
                     '60000000-0000-4000-8000-0000000000a2', (select digest from visitor where name = 'v1'), 'spam', ' Ads ')$$,
  $$values (true, true)$$, 'public: a report of a published review is taken');
select results_eq($$select published from plaudit.report_review('t:r1', 100, 'votes-co',
                     '60000000-0000-4000-8000-0000000000a2', (select digest from visitor where name = 'v1'), 'fake', null)$$,
  $$values (true)$$, 'public: the same visitor again while it is open is taken and changes nothing');
select results_eq($$select published from plaudit.report_review('t:r1', 100, 'votes-co',
                     '60000000-0000-4000-8000-0000000000a5', (select digest from visitor where name = 'v1'), 'spam', null)$$,
  $$values (false)$$, 'public: a hidden review cannot be reported');
select throws_ok($$select * from plaudit.report_review('t:r1', 100, 'votes-co',
                     '60000000-0000-4000-8000-0000000000a3', (select digest from visitor where name = 'v1'), 'boring', null)$$,
  '23514', 'new row for relation "review_reports" violates check constraint "review_reports_reason_check"',
  'public: an unknown reason is refused');
select tests.clear_persona();

select results_eq($$select reason, details, status, is_hidden from plaudit.review_reports x
                     join plaudit.reviews r on r.id = x.review_id$$,
  $$values ('spam'::text, 'Ads'::text, 'open'::text, false)$$, 'owner: one open report, and the review stays published');
select results_eq($$select data ->> 'id', data ->> 'reason', data ->> 'details' from plaudit.events
                     where type = 'review.reported'$$,
  $$values ('60000000-0000-4000-8000-0000000000a2', 'spam', 'Ads')$$, 'owner: one review.reported event');
insert into plaudit.review_reports (org_id, review_id, reason, reporter_hash) values
  ('60000000-0000-4000-8000-000000000002', '60000000-0000-4000-8000-0000000000b1', 'offensive', sha256('x'));
create temporary table a_report as
  select id from plaudit.review_reports where org_id = '60000000-0000-4000-8000-000000000001';
grant select on a_report to public;

-- Tenant A: its reports -----------------------------------------------------------------------------
select tests.act_as_tenant('60000000-0000-4000-8000-000000000001');
select results_eq($$select reason from plaudit.review_reports$$, $$values ('spam'::text)$$,
  'tenant A: reads its own reports only');
select throws_ok('select reporter_hash from plaudit.review_reports', '42501',
  'permission denied for table review_reports', 'tenant A: never reads a reporter''s hash');
select throws_ok('select * from plaudit.review_votes', '42501', 'permission denied for table review_votes',
  'tenant A: cannot read the votes');
select is((plaudit.resolve_review_report((select id from plaudit.review_reports), 'Not spam: kept', 'api_key:test')
           is not null), true, 'tenant A: resolves its report');
select results_eq($$select (j ->> 'status'), (j ->> 'resolution'), (j ->> 'resolved_by'), (j -> 'review' ->> 'content')
                     from (select plaudit.review_report_json(id) j from plaudit.review_reports) x$$,
  $$values ('resolved', 'Not spam: kept', 'api_key:test', 'Middle')$$, 'tenant A: the report as JSON, resolved, with its review');
select throws_ok($$update plaudit.review_reports set reason = 'fake'$$, '42501', 'permission denied for table review_reports',
  'tenant A: cannot change what was reported');

-- Tenant B: not A's reports -------------------------------------------------------------------------
select tests.act_as_tenant('60000000-0000-4000-8000-000000000002');
select results_eq($$select reason from plaudit.review_reports$$, $$values ('offensive'::text)$$,
  'tenant B: sees none of A''s reports');
select is(plaudit.resolve_review_report((select id from a_report), 'Taken over', 'api_key:b'), null,
  'tenant B: cannot resolve A''s report');
select ok(plaudit.review_report_json((select id from a_report)) is null, 'tenant B: cannot read A''s report by its id');
select tests.clear_persona();
select results_eq($$select resolution, resolved_by from plaudit.review_reports
                     where org_id = '60000000-0000-4000-8000-000000000001'$$,
  $$values ('Not spam: kept'::text, 'api_key:test'::text)$$, 'owner: tenant B changed none of A''s reports');

select * from finish();
rollback;
