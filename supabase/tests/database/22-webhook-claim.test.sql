-- The worker's claim of webhook deliveries: its rules (the per-endpoint cap counting live leases,
-- one probe for a failing endpoint, the first due delivery of every endpoint before the second of
-- any, pinned organizations, the per-organization share, lease, claim token and signatures), and
-- its cost: it starts from the endpoints that have something queued, so a thousand endpoints with
-- nothing queued are never read.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(15);

insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex');
-- 200 organizations with 5 endpoints each and nothing queued.
insert into plaudit.organizations (id, name, slug)
  select ('dddddddd-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'Idle ' || n, 'idle-' || n
  from generate_series(1, 200) n;
insert into plaudit.webhook_endpoints (org_id, url, events, secret)
  select o.id, 'https://idle.example/' || e, array['*'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
  from plaudit.organizations o cross join generate_series(1, 5) e
  where o.slug like 'idle-%';

insert into plaudit.webhook_endpoints (id, org_id, url, events, secret, failing_since) values
  ('e1111111-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'https://a.example/busy',
   array['*'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', null),
  ('e1111111-0000-4000-8000-000000000002', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'https://a.example/failing',
   array['*'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', now()),
  ('e1111111-0000-4000-8000-000000000003', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'https://a.example/probing',
   array['*'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', now()),
  ('e1111111-0000-4000-8000-000000000004', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'https://a.example/disabled',
   array['*'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', null),
  ('e2222222-0000-4000-8000-000000000001', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'https://b.example/all',
   array['*'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', null);
update plaudit.webhook_endpoints set enabled = false where id = 'e1111111-0000-4000-8000-000000000004';

-- busy: 6 due and one in flight; failing: 3 due; probing: 2 due and its probe in flight;
-- disabled: 1 due; Globex: 2 due, one whose lease expired (a dead worker's), one not yet due.
insert into plaudit.webhook_deliveries (org_id, endpoint_id, event_type, payload, next_attempt_at, locked_until)
  select o, e, 'review.created', '{"n":' || n || '}', now() - make_interval(secs => ago - n), l
  from (values
    ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, 'e1111111-0000-4000-8000-000000000001'::uuid, 6, 100, null::timestamptz),
    ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'e1111111-0000-4000-8000-000000000001', 1, 200, now() + interval '1 minute'),
    ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'e1111111-0000-4000-8000-000000000002', 3, 50, null),
    ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'e1111111-0000-4000-8000-000000000003', 2, 50, null),
    ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'e1111111-0000-4000-8000-000000000003', 1, 200, now() + interval '1 minute'),
    ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'e1111111-0000-4000-8000-000000000004', 1, 50, null),
    ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'e2222222-0000-4000-8000-000000000001', 1, 50, null),
    ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'e2222222-0000-4000-8000-000000000001', 1, 40, now() - interval '1 second')
  ) v(o, e, k, ago, l), generate_series(1, v.k) n;
insert into plaudit.webhook_deliveries (org_id, endpoint_id, event_type, payload, next_attempt_at) values
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'e2222222-0000-4000-8000-000000000001', 'review.created', '{}',
   now() + interval '1 hour');
-- The disabled endpoint's delivery was written after it was disabled (its trigger cancelled the rest).

create temporary table scans_before on commit drop as
  select seq_scan, seq_tup_read, idx_tup_fetch from pg_stat_xact_user_tables
  where relid = 'plaudit.webhook_endpoints'::regclass;

select tests.act_as_worker();
create temporary table first_round on commit drop as
  select * from plaudit.claim_webhook_deliveries(3, 60, 4, null);
select tests.clear_persona();

create temporary table scans_after on commit drop as
  select seq_scan, seq_tup_read, idx_tup_fetch from pg_stat_xact_user_tables
  where relid = 'plaudit.webhook_endpoints'::regclass;

------------
--- Cost: endpoints with nothing queued are never read
------------
select is(
  (select a.seq_scan - b.seq_scan from scans_before b, scans_after a), 0::bigint,
  'cost: the claim never scans the endpoints'' table'
);
-- The 5 endpoints with something queued, once each; and each claimed delivery's endpoint once more,
-- by the foreign key's check of the lease's update (fired only because this transaction inserted
-- the rows: a worker's claim in production skips it).
select cmp_ok(
  (select (a.seq_tup_read + a.idx_tup_fetch) - (b.seq_tup_read + b.idx_tup_fetch)
     from scans_before b, scans_after a), '<=',
  5 + (select count(*) from first_round),
  'cost: the claim reads only the endpoints that have deliveries queued (5 of 1,005), by their key'
);

------------
--- The rules
------------
select results_eq(
  $$ select endpoint_id, count(*)::integer from first_round group by 1 order by 1 $$,
  $$ values ('e1111111-0000-4000-8000-000000000001'::uuid, 1), ('e1111111-0000-4000-8000-000000000002'::uuid, 1),
            ('e2222222-0000-4000-8000-000000000001'::uuid, 1) $$,
  'claim: a batch of 3 takes the first due delivery of each endpoint with room before the second of any'
);
select results_eq(
  $$ select payload from first_round where endpoint_id = 'e1111111-0000-4000-8000-000000000001' $$,
  $$ values ('{"n":1}'::text) $$,
  'claim: an endpoint''s deliveries go in the order they fell due'
);

select tests.act_as_worker();
create temporary table second_round on commit drop as
  select * from plaudit.claim_webhook_deliveries(50, 60, 4, null);
select tests.clear_persona();
select results_eq(
  $$ select endpoint_id, count(*)::integer from (table first_round union all table second_round) c group by 1 order by 1 $$,
  $$ values ('e1111111-0000-4000-8000-000000000001'::uuid, 3), ('e1111111-0000-4000-8000-000000000002'::uuid, 1),
            ('e2222222-0000-4000-8000-000000000001'::uuid, 2) $$,
  'claim: 4 in flight at most per endpoint, the live lease counted; one probe for a failing endpoint, none while '
  'its probe is out; nothing of a disabled endpoint, nothing not yet due; an expired lease is due again'
);
select is(
  (select count(*)::integer from plaudit.claim_webhook_deliveries(50, 60, 4, null)), 0,
  'claim: what is leased is not claimed again'
);

select ok(
  (select bool_and(c.claim_token = d.claim_token and c.attempt = d.attempts and d.attempts = 1
                   and d.locked_until between now() + interval '59 seconds' and clock_timestamp() + interval '60 seconds'
                   and c.url = w.url and c.org_id = w.org_id and c.suspect = (w.failing_since is not null)
                   and not c.is_test and c.message_id = d.message_id and c.payload = d.payload)
     from second_round c
     join plaudit.webhook_deliveries d on d.id = c.id
     join plaudit.webhook_endpoints w on w.id = c.endpoint_id),
  'claim: each delivery is leased for p_lease_seconds under the claim token it answers, with its endpoint''s URL'
);
select ok(
  (select bool_and(
      signature_hex = encode(extensions.hmac(convert_to(payload, 'UTF8'),
                                             convert_to('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'UTF8'), 'sha256'), 'hex')
      and previous_signature_hex is null
      and webhook_signature = 'v1,' || encode(extensions.hmac(
            convert_to(message_id || '.' || webhook_timestamp || '.' || payload, 'UTF8'),
            decode('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'), 'sha256'), 'base64'))
   from second_round),
  'claim: each delivery is signed, hex and Standard Webhooks'
);

------------
--- Pinned organizations, and the per-organization share
------------
update plaudit.webhook_deliveries set locked_until = null, claim_token = null
  where id in (select id from first_round union all select id from second_round);

select tests.act_as_worker();
select results_eq(
  $$ select endpoint_id, count(*)::integer from plaudit.claim_webhook_deliveries(
       50, 60, 4, array['bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb']::uuid[]) group by 1 $$,
  $$ values ('e2222222-0000-4000-8000-000000000001'::uuid, 2) $$,
  'claim: a worker pinned to some organizations claims only theirs'
);
create temporary table shared_round on commit drop as
  select * from plaudit.claim_webhook_deliveries(
    50, 60, 4, array['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa']::uuid[], 2, '{"aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa": 1}');
select tests.clear_persona();
select is(
  (select count(*)::integer from shared_round), 1,
  'claim: an organization gets p_per_org in flight in a worker at most, counting what p_org_busy says it has'
);
select results_eq(
  $$ select endpoint_id from shared_round $$,
  $$ values ('e1111111-0000-4000-8000-000000000001'::uuid) $$,
  'claim: within an organization''s share, the earliest first due delivery of its endpoints comes first'
);
select tests.act_as_worker();
select results_eq(
  $$ select endpoint_id, count(*)::integer from plaudit.claim_webhook_deliveries(
       50, 60, 4, array['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa']::uuid[], 2, '{}') group by 1 order by 1 $$,
  $$ values ('e1111111-0000-4000-8000-000000000001'::uuid, 1), ('e1111111-0000-4000-8000-000000000002'::uuid, 1) $$,
  'claim: the share is taken round-robin over the organization''s endpoints'
);
select tests.clear_persona();

------------
--- The idle endpoints, once they have something queued
------------
update plaudit.webhook_endpoints set failing_since = null where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
select plaudit.emit_event('dddddddd-0000-4000-8000-000000000007', 'review.created', '{"id": "r1"}');
select tests.act_as_worker();
select results_eq(
  $$ select org_id, count(*)::integer from plaudit.claim_webhook_deliveries(
       50, 60, 4, array['dddddddd-0000-4000-8000-000000000007']::uuid[]) group by 1 $$,
  $$ values ('dddddddd-0000-4000-8000-000000000007'::uuid, 5) $$,
  'claim: an endpoint is found as soon as a delivery is queued for it'
);
select tests.clear_persona();

------------
--- Who may claim
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select throws_ok(
  $$ select * from plaudit.claim_webhook_deliveries(10, 60, 4, null) $$, '42501', null,
  'plaudit_api: cannot claim deliveries'
);
select tests.clear_persona();
select tests.act_as_public();
select throws_ok(
  $$ select * from plaudit.claim_webhook_deliveries(10, 60, 4, null) $$, '42501', null,
  'plaudit_public: cannot claim deliveries'
);
select tests.clear_persona();

select * from finish();
rollback;
