-- Review requests: tenant isolation of every review-request table, creation through
-- plaudit.create_review_requests (the tenant of the transaction only), the lifecycle that never
-- moves backwards, events applied once whatever their order, suppression, quota and tokens.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(50);

insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex');
insert into plaudit.review_forms (id, org_id, name) values
  ('a2000000-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme form'),
  ('b2000000-0000-4000-8000-000000000001', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex form');

create temporary table made (label text primary key, id uuid);
grant select, insert on made to public;

------------
--- Tenant A creates requests
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');

insert into made
  select 'a' || idx, id from plaudit.create_review_requests(
    '[{"index":0,"email":"ann@acme.test","name":"Ann","form_id":"a2000000-0000-4000-8000-000000000001","external_id":"o-1"},
      {"index":1,"email":"bob@acme.test","name":"Bob","form_id":"a2000000-0000-4000-8000-000000000001"},
      {"index":2,"email":"eve@acme.test","name":"Eve","form_id":"b2000000-0000-4000-8000-000000000001"},
      {"index":3,"email":"dup@acme.test","name":"Dup","form_id":"a2000000-0000-4000-8000-000000000001","external_id":"o-1"}]',
    'http://127.0.0.1:54321');

select is((select count(*)::int from made where id is not null), 2, 'tenant A: two of four rows are accepted');
select results_eq(
  $$ select idx, error from plaudit.create_review_requests(
       '[{"index":0,"email":"x@acme.test","name":"X","form_id":"b2000000-0000-4000-8000-000000000001"},
         {"index":1,"email":"y@acme.test","name":"Y","form_id":"a2000000-0000-4000-8000-000000000001","external_id":"o-1"}]',
       'http://127.0.0.1:54321') $$,
  $$ values (0, 'form_id: no active review form with this id in this organization'),
            (1, 'external_id: a review request with this external_id exists already (' || (select id from made where label = 'a0') || '); it is not sent again') $$,
  'tenant A: another tenant''s form and a used external_id are refused, row by row'
);
select results_eq(
  $$ select status, count(*)::int from plaudit.review_requests group by status $$,
  $$ values ('queued'::text, 2) $$,
  'tenant A: sees its two queued requests'
);
select is((select count(*)::int from plaudit.review_request_events), 2, 'tenant A: one queued event per request');
select is(
  (select count(*)::int from plaudit.email_outbox where template = 'review_request'),
  2, 'tenant A: one e-mail queued per request');
select is(
  (select requests from plaudit.review_request_usage), 2, 'tenant A: the quota counts two requests today');

select throws_ok(
  $$ insert into plaudit.review_requests (org_id, form_id, email, name, link_base)
     values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'a2000000-0000-4000-8000-000000000001', 'z@acme.test', 'Z', 'http://x') $$,
  '42501', 'permission denied for table review_requests',
  'tenant A: cannot insert requests directly'
);
select throws_ok(
  $$ update plaudit.review_requests set status = 'completed' $$,
  '42501', 'permission denied for table review_requests',
  'tenant A: cannot change a status directly'
);
select throws_ok(
  $$ insert into plaudit.review_request_events (org_id, request_id, type, dedupe_key, occurred_at)
     select org_id, id, 'completed', 'x', now() from plaudit.review_requests limit 1 $$,
  '42501', 'permission denied for table review_request_events',
  'tenant A: cannot write timeline events'
);
select throws_ok(
  $$ select plaudit.apply_review_request_event((select id from made where label = 'a0'), 'completed') $$,
  '42501', 'permission denied for function apply_review_request_event',
  'tenant A: cannot apply events (only the database''s own paths do)'
);
select throws_ok(
  $$ select * from plaudit.signing_secrets $$,
  '42501', 'permission denied for table signing_secrets',
  'tenant A: cannot read the link signing secret'
);
select throws_ok(
  $$ select plaudit.review_request_token((select id from made where label = 'a0')) $$,
  '42501', 'permission denied for function review_request_token',
  'tenant A: cannot mint link tokens'
);
select throws_ok(
  $$ insert into plaudit.email_suppressions (org_id, email, reason) values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'x@acme.test', 'bounced') $$,
  '42501', null,
  'tenant A: can only add manual suppressions'
);
select lives_ok(
  $$ insert into plaudit.email_suppressions (org_id, email, reason) values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'manual@acme.test', 'manual') $$,
  'tenant A: can suppress an address by hand'
);
select lives_ok(
  $$ insert into plaudit.review_request_settings (org_id, reminders_enabled) values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', true) $$,
  'tenant A: can store its settings'
);
select lives_ok(
  $$ insert into plaudit.idempotency_keys (org_id, key, route, request_hash) values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'k1', 'r', sha256('x')) $$,
  'tenant A: can record an idempotency key'
);

------------
--- Tenant B sees none of it and cannot touch it
------------
select tests.act_as_tenant('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');

select is_empty($$ select id from plaudit.review_requests $$, 'tenant B: sees no request of A');
select is_empty($$ select id from plaudit.review_request_events $$, 'tenant B: sees no event of A');
select is_empty($$ select id from plaudit.email_suppressions $$, 'tenant B: sees no suppression of A');
select is_empty($$ select org_id from plaudit.review_request_settings $$, 'tenant B: sees no settings of A');
select is_empty($$ select org_id from plaudit.review_request_usage $$, 'tenant B: sees no usage of A');
select is_empty($$ select key from plaudit.idempotency_keys $$, 'tenant B: sees no idempotency key of A');
select is_empty($$ delete from plaudit.email_suppressions returning id $$, 'tenant B: cannot lift A''s suppressions');
select is_empty(
  $$ update plaudit.review_request_settings set daily_quota = 5 returning org_id $$,
  'tenant B: cannot change A''s settings');
select is_empty(
  $$ update plaudit.idempotency_keys set response = '{}' returning key $$,
  'tenant B: cannot overwrite A''s idempotency answers');
select throws_ok(
  $$ insert into plaudit.review_request_settings (org_id) values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa') $$,
  '42501', null,
  'tenant B: cannot write settings for A'
);
select throws_ok(
  $$ insert into plaudit.email_suppressions (org_id, email, reason) values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'x@acme.test', 'manual') $$,
  '42501', null,
  'tenant B: cannot suppress addresses for A'
);
select results_eq(
  $$ select idx, error from plaudit.create_review_requests(
       '[{"index":0,"email":"x@globex.test","name":"X","form_id":"a2000000-0000-4000-8000-000000000001"}]',
       'http://127.0.0.1:54321') $$,
  $$ values (0, 'form_id: no active review form with this id in this organization') $$,
  'tenant B: cannot request reviews on A''s form'
);

------------
--- Public role: only the hosted pages' functions
------------
select tests.clear_persona();
select tests.act_as_public();
select throws_ok(
  $$ select * from plaudit.create_review_requests('[]', 'http://x') $$,
  '42501', 'permission denied for function create_review_requests',
  'public: cannot create requests'
);
select throws_ok(
  $$ select id from plaudit.review_requests $$,
  '42501', 'permission denied for table review_requests',
  'public: cannot read requests'
);
select tests.clear_persona();

------------
--- Lifecycle (as the database's own paths run it)
------------
select is(plaudit.apply_review_request_event((select id from made where label = 'a0'), 'sent', 'sent', now() - interval '10 minutes'),
  'applied', 'sent applies');
select is(plaudit.apply_review_request_event((select id from made where label = 'a0'), 'opened', 'opened', now() - interval '5 minutes'),
  'applied', 'opened applies');
select is(plaudit.apply_review_request_event((select id from made where label = 'a0'), 'delivered', 'provider:evt-1', now() - interval '8 minutes'),
  'recorded', 'a late delivered is recorded without moving the status back');
select is(plaudit.apply_review_request_event((select id from made where label = 'a0'), 'delivered', 'provider:evt-1', now()),
  'duplicate', 'the same provider event twice applies once');
select results_eq(
  $$ select status, delivered_at = now() - interval '8 minutes', opened_at = now() - interval '5 minutes'
     from plaudit.review_requests where id = (select id from made where label = 'a0') $$,
  $$ values ('opened'::text, true, true) $$,
  'status opened; each stage keeps the time it was reached'
);
select is(
  (select count(*)::int from plaudit.review_request_events
    where request_id = (select id from made where label = 'a0') and type = 'delivered'),
  1, 'the duplicate left one delivered event');
select throws_ok(
  $$ update plaudit.review_requests set status = 'sent' where id = (select id from made where label = 'a0') $$,
  '23001', null,
  'the status never moves backwards, whoever writes it (even the owner)'
);
select is(plaudit.apply_review_request_event((select id from made where label = 'a0'), 'clicked', 'clicked'),
  'applied', 'clicked applies');
select is(plaudit.apply_review_request_event((select id from made where label = 'a0'), 'completed', 'completed', now(), '{}'),
  'applied', 'completed applies');
select is(plaudit.apply_review_request_event((select id from made where label = 'a0'), 'bounced', 'provider:evt-2'),
  'recorded', 'a bounce after completion is recorded; completed stays');
select is((select status from plaudit.review_requests where id = (select id from made where label = 'a0')),
  'completed', 'completed is final');
select ok(
  exists (select from plaudit.email_suppressions where lower(email) = 'ann@acme.test' and reason = 'bounced'),
  'the bounce suppressed the address all the same');

-- Out of order the other way: bounced first, then delivered and opened.
select is(plaudit.apply_review_request_event((select id from made where label = 'a1'), 'bounced', 'provider:b1'),
  'applied', 'a bounce before any other event applies');
select is(plaudit.apply_review_request_event((select id from made where label = 'a1'), 'delivered', 'provider:b2'),
  'recorded', 'a later delivered does not undo the bounce');
select results_eq(
  $$ select q.status, e.status, e.last_error from plaudit.review_requests q
       join plaudit.email_outbox e on e.data ->> 'review_request_id' = q.id::text
      where q.id = (select id from made where label = 'a1') $$,
  $$ values ('bounced'::text, 'failed'::text, 'cancelled: the address is on the suppression list'::text) $$,
  'bounced, and its queued e-mail was withdrawn'
);

------------
--- Suppressed addresses, quota, tokens
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
insert into made
  select 'sup', id from plaudit.create_review_requests(
    '[{"index":0,"email":"BOB@acme.test","name":"Bob","form_id":"a2000000-0000-4000-8000-000000000001"}]', 'http://x');
select tests.clear_persona();
select results_eq(
  $$ select q.status, (select count(*)::int from plaudit.email_outbox e where e.data ->> 'review_request_id' = q.id::text)
       from plaudit.review_requests q where q.id = (select id from made where label = 'sup') $$,
  $$ values ('failed'::text, 0) $$,
  'a request to a suppressed address is stored as failed and never queued'
);
set local role plaudit_api;
update plaudit.review_request_settings set daily_quota = 3;
select throws_ok(
  $$ select * from plaudit.create_review_requests(
       '[{"index":0,"email":"q1@acme.test","name":"Q","form_id":"a2000000-0000-4000-8000-000000000001"},
         {"index":1,"email":"q2@acme.test","name":"Q","form_id":"a2000000-0000-4000-8000-000000000001"}]', 'http://x') $$,
  '54000', null,
  'beyond the daily quota: program_limit_exceeded (the API answers 429)'
);
select tests.clear_persona();

select is(plaudit.review_request_from_token(plaudit.review_request_token((select id from made where label = 'a0'))),
  (select id from made where label = 'a0'), 'a token stands for its request');
select is(plaudit.review_request_from_token(
  overlay(plaudit.review_request_token((select id from made where label = 'a0')) placing
    case when substr(plaudit.review_request_token((select id from made where label = 'a0')), 40, 1) = 'A' then 'B' else 'A' end
    from 40 for 1)),
  null, 'a token with a changed MAC character stands for nothing');
select is(plaudit.review_request_from_token('not a token'), null, 'a malformed token stands for nothing');

select * from finish();
rollback;
