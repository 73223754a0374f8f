-- Webhook endpoints, deliveries and the worker's functions: the fan-out trigger writes a delivery
-- for each subscribed endpoint in the transaction of the event; secrets are readable by nobody
-- but the signing functions; the claim takes due rows with a lease and per-endpoint limits;
-- recording decides retries, 410 and success; tenants see only their own rows.
begin;
select tests.lend_temporary_to_runtime_roles();
select no_plan();

insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex');

insert into plaudit.webhook_endpoints (id, org_id, url, events, secret) values
  ('a1111111-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'https://a.example/created',
   array['review.created'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'),
  ('a1111111-0000-4000-8000-000000000002', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'https://a.example/all',
   array['*'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'),
  ('a1111111-0000-4000-8000-000000000003', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'https://a.example/exports',
   array['export.completed'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'),
  ('b2222222-0000-4000-8000-000000000001', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'https://b.example/all',
   array['*'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');

------------
--- Fan-out, in the transaction of the event
------------
select plaudit.emit_event('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'review.created', '{"id": "r1", "rating": 5}');

select results_eq(
  $$ select endpoint_id from plaudit.webhook_deliveries order by endpoint_id $$,
  $$ values ('a1111111-0000-4000-8000-000000000001'::uuid), ('a1111111-0000-4000-8000-000000000002'::uuid) $$,
  'fan-out: one delivery per subscribed endpoint of the organization (and * subscribes to all)'
);

select ok(
  (select bool_and(payload::jsonb ->> 'event' = 'review.created'
                   and payload::jsonb -> 'data' = '{"id": "r1", "rating": 5}'::jsonb
                   and payload::jsonb ->> 'timestamp' ~ '^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$'
                   and payload like '{"event":%' and status = 'pending' and message_id ~ '^msg_[0-9a-f]{32}$')
     from plaudit.webhook_deliveries),
  'fan-out: the body is {"event","timestamp","data"}, queued with a msg_ id'
);

update plaudit.webhook_endpoints set enabled = false where id = 'a1111111-0000-4000-8000-000000000002';
select plaudit.emit_event('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'review.created', '{"id": "r2"}');
select is(
  (select count(*)::integer from plaudit.webhook_deliveries
    where endpoint_id = 'a1111111-0000-4000-8000-000000000002' and payload like '%"r2"%'),
  0,
  'fan-out: a disabled endpoint gets nothing'
);
select results_eq(
  $$ select status, last_error from plaudit.webhook_deliveries where endpoint_id = 'a1111111-0000-4000-8000-000000000002' $$,
  $$ values ('cancelled'::text, 'endpoint disabled'::text) $$,
  'disabling an endpoint cancels what it had queued'
);
update plaudit.webhook_endpoints set enabled = true where id = 'a1111111-0000-4000-8000-000000000002';

select is(
  (select count(*)::integer from plaudit.webhook_deliveries where org_id = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'),
  0,
  'fan-out: another organization''s endpoints never receive the event'
);

-- A review written by the reviews triggers reaches the outbox and the deliveries in the same
-- transaction.
insert into plaudit.review_forms (id, org_id, name) values
  ('f0000000-0000-4000-8000-00000000000a', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Form');
insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status)
values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'f0000000-0000-4000-8000-00000000000a', 4, 'Nice', 'Ann', 'ann@example.com', 'unverified');
select ok(
  exists (select from plaudit.webhook_deliveries d join plaudit.events e on e.id = d.event_id
          where e.type = 'review.created' and e.data ->> 'content' = 'Nice'
            and d.endpoint_id = 'a1111111-0000-4000-8000-000000000001'),
  'outbox: inserting a review writes review.created and its delivery in the same transaction'
);

------------
--- Secrets
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select throws_ok(
  $$ select secret from plaudit.webhook_endpoints $$, '42501', null,
  'plaudit_api: cannot read webhook secrets'
);
select throws_ok(
  $$ select previous_secret from plaudit.webhook_endpoints $$, '42501', null,
  'plaudit_api: cannot read the previous secret'
);
select throws_ok(
  $$ select * from plaudit.claim_webhook_deliveries(10, 60, 4, null) $$, '42501', null,
  'plaudit_api: cannot claim deliveries (the worker''s function)'
);
select throws_ok(
  $$ select * from plaudit.webhook_signatures('whsec_x', null, null, 'm', 1, 'b') $$, '42501', null,
  'plaudit_api: cannot call the signing helper'
);
select tests.clear_persona();

select tests.act_as_public();
select throws_ok(
  $$ select * from plaudit.claim_emails(10, 60, null) $$, '42501', null,
  'plaudit_public: cannot claim e-mail'
);
select tests.clear_persona();

------------
--- Claim, sign, lease
------------
update plaudit.webhook_deliveries set next_attempt_at = now() - interval '1 second';
select tests.act_as_worker();
create temporary table claimed on commit drop as
  select * from plaudit.claim_webhook_deliveries(10, 60, 1, array['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa']::uuid[]);
select tests.clear_persona();

select is(
  (select count(distinct endpoint_id)::integer from claimed), (select count(*)::integer from claimed),
  'claim: with a limit of 1 per endpoint, never two deliveries of one endpoint'
);
select ok((select count(*) from claimed) >= 2, 'claim: takes the due deliveries of several endpoints');
select ok(
  (select bool_and(signature_hex = encode(extensions.hmac(convert_to(payload, 'UTF8'),
                     convert_to('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'UTF8'), 'sha256'), 'hex')
                   and webhook_signature ~ '^v1,[A-Za-z0-9+/]{43}=$' and attempt = 1)
     from claimed),
  'claim: each row comes signed (hex HMAC of the body; Standard Webhooks v1)'
);

select tests.act_as_worker();
select is(
  (select count(*)::integer from plaudit.claim_webhook_deliveries(10, 60, 4, array['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa']::uuid[])
    where id in (select id from claimed)),
  0,
  'claim: a leased delivery is not claimed again'
);
select tests.clear_persona();

update plaudit.webhook_deliveries set locked_until = now() - interval '1 second'
  where id = (select id from claimed order by id limit 1);
select tests.act_as_worker();
select is(
  (select attempt from plaudit.claim_webhook_deliveries(10, 60, 4, array['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa']::uuid[])
    where id = (select id from claimed order by id limit 1)),
  2,
  'claim: once its lease has expired (a dead worker), the delivery is claimed again'
);
select tests.clear_persona();

------------
--- Recording outcomes
------------
create temporary table fresh on commit drop as
  select d.id, d.claim_token from plaudit.webhook_deliveries d where d.locked_until > now();
grant select on fresh to plaudit_worker;

select tests.act_as_worker();
select is(
  plaudit.record_webhook_attempt((select id from fresh order by id limit 1), (select claim_token from fresh order by id limit 1),
                                 500, 12, 'answered 500', 'oops', 'retry', 5000),
  'pending',
  'record: a failure with time left on the schedule stays pending'
);
select is(
  plaudit.record_webhook_attempt((select id from fresh order by id limit 1), '00000000-0000-4000-8000-000000000000',
                                 500, 12, 'late', null, 'retry', 5000),
  'stale',
  'record: a late failure from an expired claim changes nothing'
);
select tests.clear_persona();
select ok(
  (select next_attempt_at > now() + interval '4 seconds' and failing_since is not null
     from plaudit.webhook_deliveries d join plaudit.webhook_endpoints e on e.id = d.endpoint_id
    where d.id = (select id from fresh order by id limit 1)),
  'record: the retry is scheduled, and the endpoint''s failure run has begun'
);
select is(
  (select count(*)::integer from plaudit.webhook_delivery_attempts where delivery_id = (select id from fresh order by id limit 1)),
  2,
  'record: every attempt is logged'
);

select plaudit.emit_event('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'review.moderated', '{"id": "r3"}');
update plaudit.webhook_deliveries set locked_until = now() + interval '1 minute', claim_token = '11111111-0000-4000-8000-000000000000'
  where endpoint_id = 'a1111111-0000-4000-8000-000000000002' and event_type = 'review.moderated';
create temporary table gone on commit drop as
  select id from plaudit.webhook_deliveries
   where endpoint_id = 'a1111111-0000-4000-8000-000000000002' and event_type = 'review.moderated';
grant select on gone to plaudit_worker;
select tests.act_as_worker();
select is(
  plaudit.record_webhook_attempt(
    (select id from gone),
    '11111111-0000-4000-8000-000000000000', 410, 3, 'answered 410', null, 'gone', null),
  'failed',
  'record: 410 fails the delivery'
);
select tests.clear_persona();
select results_eq(
  $$ select enabled, disabled_reason from plaudit.webhook_endpoints where id = 'a1111111-0000-4000-8000-000000000002' $$,
  $$ values (false, 'the endpoint answered 410 Gone') $$,
  'record: 410 disables the endpoint'
);
select is(
  (select count(*)::integer from plaudit.webhook_deliveries
    where endpoint_id = 'a1111111-0000-4000-8000-000000000002' and status = 'pending'),
  0,
  'record: nothing stays queued for a disabled endpoint'
);

------------
--- Slow endpoints, and the share of a worker that slow or failing endpoints may hold
------------
insert into plaudit.organizations (id, name, slug) values ('cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'Initech', 'initech');
insert into plaudit.webhook_endpoints (id, org_id, url, events, secret) values
  ('c3333333-0000-4000-8000-000000000001', 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'https://c.example/slow-1', array['*'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'),
  ('c3333333-0000-4000-8000-000000000002', 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'https://c.example/slow-2', array['*'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'),
  ('c3333333-0000-4000-8000-000000000003', 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'https://c.example/failing', array['*'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'),
  ('c3333333-0000-4000-8000-000000000004', 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'https://c.example/fast', array['*'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
insert into plaudit.webhook_deliveries (id, org_id, endpoint_id, event_type, payload, is_test, attempts, locked_until, claim_token) values
  ('c4444444-0000-4000-8000-000000000001', 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'c3333333-0000-4000-8000-000000000001', 'review.created', '{}', false, 1, now() + interval '1 minute', 'c5555555-0000-4000-8000-000000000001'),
  ('c4444444-0000-4000-8000-000000000002', 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'c3333333-0000-4000-8000-000000000002', 'review.created', '{}', false, 1, now() + interval '1 minute', 'c5555555-0000-4000-8000-000000000002'),
  ('c4444444-0000-4000-8000-000000000003', 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'c3333333-0000-4000-8000-000000000004', 'review.created', '{}', true, 1, now() + interval '1 minute', 'c5555555-0000-4000-8000-000000000003'),
  ('c4444444-0000-4000-8000-000000000004', 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'c3333333-0000-4000-8000-000000000004', 'review.created', '{}', false, 1, now() + interval '1 minute', 'c5555555-0000-4000-8000-000000000004');

select tests.act_as_worker();
select plaudit.record_webhook_attempt('c4444444-0000-4000-8000-000000000001', 'c5555555-0000-4000-8000-000000000001',
                                      200, 2500, null, null, 'succeeded', null, 432000, 1000);
select plaudit.record_webhook_attempt('c4444444-0000-4000-8000-000000000002', 'c5555555-0000-4000-8000-000000000002',
                                      null, 1000, 'timed out', null, 'retry', 5000, 432000, 1000);
select plaudit.record_webhook_attempt('c4444444-0000-4000-8000-000000000003', 'c5555555-0000-4000-8000-000000000003',
                                      200, 9000, null, null, 'succeeded', null, 432000, 1000);
select tests.clear_persona();
select results_eq(
  $$ select id, slow_since is not null from plaudit.webhook_endpoints
      where org_id = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc' order by id $$,
  $$ values ('c3333333-0000-4000-8000-000000000001'::uuid, true), ('c3333333-0000-4000-8000-000000000002'::uuid, true),
            ('c3333333-0000-4000-8000-000000000003'::uuid, false), ('c3333333-0000-4000-8000-000000000004'::uuid, false) $$,
  'record: an attempt that takes the slow limit or longer, answered or not, marks its endpoint slow; a test delivery marks nothing'
);

update plaudit.webhook_endpoints set failing_since = now() where id = 'c3333333-0000-4000-8000-000000000003';
update plaudit.webhook_endpoints set slow_since = null where id = 'c3333333-0000-4000-8000-000000000002';
insert into plaudit.webhook_deliveries (org_id, endpoint_id, event_type, payload)
  select 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', e, 'review.created', '{}'
  from unnest(array['c3333333-0000-4000-8000-000000000001', 'c3333333-0000-4000-8000-000000000003',
                    'c3333333-0000-4000-8000-000000000004']::uuid[]) e, generate_series(1, 3);
select tests.act_as_worker();
create temporary table suspect_claim on commit drop as
  select endpoint_id, suspect from plaudit.claim_webhook_deliveries(
    20, 60, 4, array['cccccccc-cccc-4ccc-8ccc-cccccccccccc']::uuid[], null, '{}', 0);
select tests.clear_persona();
select results_eq(
  $$ select endpoint_id, suspect, count(*)::integer from suspect_claim group by 1, 2 order by 1 $$,
  $$ values ('c3333333-0000-4000-8000-000000000004'::uuid, false, 3) $$,
  'claim: with no room for suspects, the slow and the failing endpoints get nothing and the fast one all it has'
);
select tests.act_as_worker();
select results_eq(
  $$ select endpoint_id, suspect from plaudit.claim_webhook_deliveries(
       20, 60, 4, array['cccccccc-cccc-4ccc-8ccc-cccccccccccc']::uuid[], null, '{}', 2) order by 1 $$,
  $$ values ('c3333333-0000-4000-8000-000000000001'::uuid, true), ('c3333333-0000-4000-8000-000000000003'::uuid, true) $$,
  'claim: room for two suspects gives each its first delivery (round-robin), the failing one its single probe'
);
select plaudit.record_webhook_attempt('c4444444-0000-4000-8000-000000000004', 'c5555555-0000-4000-8000-000000000004',
                                      200, 40, null, null, 'succeeded', null, 432000, 1000);
select tests.clear_persona();
create temporary table slow_leased on commit drop as
  select d.id, d.claim_token from plaudit.webhook_deliveries d
   where d.endpoint_id = 'c3333333-0000-4000-8000-000000000001' and d.locked_until > now();
grant select on slow_leased to plaudit_worker;
select tests.act_as_worker();
select plaudit.record_webhook_attempt(l.id, l.claim_token, 200, 40, null, null, 'succeeded', null, 432000, 1000)
  from slow_leased l;
select tests.clear_persona();
select is(
  (select slow_since from plaudit.webhook_endpoints where id = 'c3333333-0000-4000-8000-000000000001'),
  null,
  'record: a fast attempt makes a slow endpoint fast again'
);

------------
--- Tenant isolation (tenant B looks at A's rows)
------------
select tests.act_as_tenant('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');
select is((select count(*)::integer from plaudit.webhook_endpoints where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'), 0,
  'tenant B: sees none of A''s webhook endpoints');
select is((select count(*)::integer from plaudit.webhook_deliveries where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'), 0,
  'tenant B: sees none of A''s deliveries');
select is((select count(*)::integer from plaudit.webhook_delivery_attempts where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'), 0,
  'tenant B: sees none of A''s delivery attempts');
select is_empty(
  $$ update plaudit.webhook_endpoints set url = 'https://evil.example' where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' returning id $$,
  'tenant B: cannot change A''s endpoints'
);
select is_empty(
  $$ update plaudit.webhook_deliveries set status = 'pending' where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' returning id $$,
  'tenant B: cannot requeue A''s deliveries'
);
select is_empty(
  $$ delete from plaudit.webhook_endpoints where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' returning id $$,
  'tenant B: cannot delete A''s endpoints'
);
select throws_ok(
  $$ insert into plaudit.webhook_endpoints (org_id, url, events, secret)
     values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'https://evil.example', array['*'], 'whsec_AAAA') $$,
  '42501', null,
  'tenant B: cannot register an endpoint for A'
);
select is_empty(
  $$ select * from plaudit.rotate_webhook_secret('a1111111-0000-4000-8000-000000000001') $$,
  'tenant B: cannot rotate A''s secret'
);
select is_empty(
  $$ select * from plaudit.create_test_delivery('a1111111-0000-4000-8000-000000000001', 'webhook.test', '{}') $$,
  'tenant B: cannot send test events to A''s endpoint'
);
select tests.clear_persona();

------------
--- E-mail outbox
------------
select plaudit.enqueue_email('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'ann@example.com', 'review_verification',
                             '{"verify_url": "https://x.example"}', 'de', 'idem-1');
select plaudit.enqueue_email('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'ann@example.com', 'review_verification',
                             '{"verify_url": "https://x.example"}', 'de', 'idem-1');
select is((select count(*)::integer from plaudit.email_outbox where idempotency_key = 'idem-1'), 1,
  'e-mail: one message per idempotency key');
select tests.act_as_worker();
create temporary table mails on commit drop as
  select * from plaudit.claim_emails(10, 60, array['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa']::uuid[]);
select results_eq(
  $$ select org_name, to_address, template, locale, attempt from mails where idempotency_key = 'idem-1' $$,
  $$ values ('Acme'::text, 'ann@example.com'::text, 'review_verification'::text, 'de'::text, 1) $$,
  'e-mail: the claim answers what the template needs'
);
select is((select count(*)::integer from plaudit.claim_emails(10, 60, array['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa']::uuid[])), 0,
  'e-mail: a claimed message is not claimed twice');
select is(plaudit.record_email_result((select id from mails where idempotency_key = 'idem-1'),
                                      (select claim_token from mails where idempotency_key = 'idem-1'),
                                      false, null, 'SMTP 451', 30000),
  'queued', 'e-mail: a transient failure queues it again');
select tests.clear_persona();
select ok((select next_attempt_at > now() + interval '20 seconds' and status = 'queued' and last_error = 'SMTP 451'
             from plaudit.email_outbox where idempotency_key = 'idem-1'),
  'e-mail: the retry waits its turn');

-- A long transaction (the worker's export run) must not date its events before the changes they follow.
select pg_sleep(0.01);
select plaudit.emit_event('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'export.completed', '{"id": "e0"}');
select ok(
  (select created_at > now() from plaudit.events where data ->> 'id' = 'e0'),
  'an event is stamped when it is written, not when its transaction began'
);

select * from finish();
rollback;
