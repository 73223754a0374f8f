-- Review-request e-mails the worker has claimed already when their address is suppressed or
-- their request ends: a temporary failure withdraws them instead of queueing them again, and a
-- claim (after a lease ran out) never hands them out; other e-mails go on as before.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(15);

insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme');
insert into plaudit.review_forms (id, org_id, name) values
  ('a2000000-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme form');

create temporary table made (label text primary key, id uuid);
grant select, insert on made to public;

select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
insert into made
  select (array['ann', 'bob', 'cat', 'dan'])[idx + 1], id from plaudit.create_review_requests(
    '[{"index":0,"email":"ann@acme.test","name":"Ann","form_id":"a2000000-0000-4000-8000-000000000001"},
      {"index":1,"email":"bob@acme.test","name":"Bob","form_id":"a2000000-0000-4000-8000-000000000001"},
      {"index":2,"email":"cat@acme.test","name":"Cat","form_id":"a2000000-0000-4000-8000-000000000001"},
      {"index":3,"email":"dan@acme.test","name":"Dan","form_id":"a2000000-0000-4000-8000-000000000001"}]',
    'http://127.0.0.1:54321');
select tests.clear_persona();
-- A transactional e-mail to an address that will be suppressed: not a review request.
insert into made values ('verify', plaudit.enqueue_email('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'ann@acme.test',
  'review_verification', '{"verify_url": "https://x.example"}'));

create temporary view mail as
  select coalesce(m.label, v.label) as label, e.*
  from plaudit.email_outbox e
  left join made m on e.data ->> 'review_request_id' = m.id::text
  left join made v on v.label = 'verify' and v.id = e.id;
grant select on mail to public;

select tests.act_as_worker();
create temporary table first_claim on commit drop as
  select * from plaudit.claim_emails(10, 60, array['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa']::uuid[]);
select tests.clear_persona();
select is((select count(*)::int from first_claim), 5, 'the worker claims all five e-mails');

------------
--- Suppressed, or completed, while being sent; then a temporary failure
------------
insert into plaudit.email_suppressions (org_id, email, reason)
  values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'ANN@acme.test', 'manual');
select plaudit.apply_review_request_event((select id from made where label = 'bob'), 'completed', 'completed', now(), '{}');
select results_eq(
  $$ select label, status from mail where label in ('ann', 'bob') order by label $$,
  $$ values ('ann'::text, 'sending'::text), ('bob', 'sending') $$,
  'e-mails in flight are not withdrawn under the worker (it may be sending them)'
);

select tests.act_as_worker();
select is(plaudit.record_email_result(c.id, c.claim_token, false, null, 'SMTP 451 try later', 1000),
  'failed', 'a temporary failure to an address suppressed meanwhile is not queued again')
  from first_claim c where c.to_address = 'ann@acme.test' and c.template = 'review_request';
select is(plaudit.record_email_result(c.id, c.claim_token, false, null, 'SMTP 451 try later', 1000),
  'failed', 'a temporary failure of a request completed meanwhile is not queued again')
  from first_claim c where c.to_address = 'bob@acme.test';
select is(plaudit.record_email_result(c.id, c.claim_token, false, null, 'SMTP 451 try later', 1000),
  'queued', 'a temporary failure of a transactional e-mail to the suppressed address is queued again')
  from first_claim c where c.template = 'review_verification';
select tests.clear_persona();

select results_eq(
  $$ select label, status, last_error from mail where label in ('ann', 'bob', 'verify') order by label $$,
  $$ values ('ann'::text, 'failed'::text, 'cancelled: the address is on the suppression list'::text),
            ('bob', 'failed', 'cancelled: the request is completed'),
            ('verify', 'queued', 'SMTP 451 try later') $$,
  'withdrawn with the reason, as queued e-mails are'
);
select results_eq(
  $$ select q.status, e.data from plaudit.review_requests q
       join plaudit.review_request_events e on e.request_id = q.id and e.type = 'failed'
      where q.id = (select id from made where label = 'ann') $$,
  $$ values ('failed'::text, '{"reason": "suppressed"}'::jsonb) $$,
  'the request to the suppressed address failed as suppressed'
);
select results_eq(
  $$ select q.status, array_agg(e.type order by e.id) from plaudit.review_requests q
       join plaudit.review_request_events e on e.request_id = q.id
      where q.id = (select id from made where label = 'bob') group by q.status $$,
  $$ values ('completed'::text, array['queued', 'completed']) $$,
  'the completed request stays completed, with no failure in its timeline'
);

------------
--- Suppressed while being sent; then the worker's lease runs out
------------
insert into plaudit.email_suppressions (org_id, email, reason)
  values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'cat@acme.test', 'manual');
-- Both leases expire; cat's e-mail is the older one, so a claim of one meets it first.
update plaudit.email_outbox set locked_until = now() - interval '1 second', next_attempt_at = now() - interval '2 minutes'
  where id = (select id from mail where label = 'cat');
update plaudit.email_outbox set locked_until = now() - interval '1 second', next_attempt_at = now() - interval '1 minute'
  where id = (select id from mail where label = 'dan');
update plaudit.email_outbox set next_attempt_at = now() + interval '1 hour'
  where id = (select id from mail where label = 'verify');

select tests.act_as_worker();
create temporary table second_claim on commit drop as
  select * from plaudit.claim_emails(1, 60, array['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa']::uuid[]);
select tests.clear_persona();
select results_eq(
  $$ select to_address, attempt from second_claim $$,
  $$ values ('dan@acme.test'::text, 2) $$,
  'an expired lease is claimed again, but not to an address suppressed meanwhile; the batch is topped up'
);
select results_eq(
  $$ select status, last_error from mail where label = 'cat' $$,
  $$ values ('failed'::text, 'cancelled: the address is on the suppression list'::text) $$,
  'the claim withdrew the e-mail to the suppressed address'
);
select is((select status from plaudit.review_requests where id = (select id from made where label = 'cat')),
  'failed', 'and its request failed as suppressed');

------------
--- Nothing withdrawn is ever claimed again
------------
update plaudit.email_outbox set next_attempt_at = now() - interval '1 second', locked_until = null
  where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
select tests.act_as_worker();
create temporary table third_claim on commit drop as
  select * from plaudit.claim_emails(10, 60, array['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa']::uuid[]);
select tests.clear_persona();
select results_eq(
  $$ select template, to_address from third_claim order by to_address, template $$,
  $$ values ('review_verification'::text, 'ann@acme.test'::text), ('review_request', 'dan@acme.test') $$,
  'later claims take only what may still go'
);

------------
--- A reminder of an ended request, queued without being withdrawn, is withdrawn at the claim
------------
insert into plaudit.email_outbox (org_id, to_address, template, data, next_attempt_at)
  values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'bob@acme.test', 'review_reminder',
          jsonb_build_object('review_request_id', (select id from made where label = 'bob'), 'reminder', 1),
          now() - interval '1 second');
select tests.act_as_worker();
select is_empty(
  $$ select * from plaudit.claim_emails(10, 60, array['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa']::uuid[]) $$,
  'a reminder of a completed request is not claimed'
);
select tests.clear_persona();
select results_eq(
  $$ select status, last_error from plaudit.email_outbox where template = 'review_reminder' $$,
  $$ values ('failed'::text, 'cancelled: the request is completed'::text) $$,
  'it is withdrawn with the reason'
);
select is((select count(*)::int from plaudit.review_request_events
            where request_id = (select id from made where label = 'bob') and type = 'failed'),
  0, 'the completed request gets no failure from it');

select * from finish();
rollback;
