-- What the hosted pages may do as plaudit_public: only through their functions, only with a valid
-- signed token, and each answering only what its page shows. Team invitations: the e-mail can
-- only go to the invitation's own address, and accepting makes a member once.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(21);

insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex');
insert into plaudit.review_forms (id, org_id, name) values
  ('a2000000-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme form');
insert into plaudit.review_requests (id, org_id, form_id, email, name, link_base, status, sent_at) values
  ('a3000000-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
   'a2000000-0000-4000-8000-000000000001', 'ann@acme.test', 'Ann', 'http://x', 'sent', now());

create temporary table t (token text, forged text);
insert into t select plaudit.review_request_token('a3000000-0000-4000-8000-000000000001'),
                     plaudit.review_request_token('a3000000-0000-4000-8000-000000000002');
grant select on t to public;

select tests.act_as_public();

select throws_ok($$ select id from plaudit.review_requests $$, '42501', null, 'public: cannot read requests');
select throws_ok($$ select id from plaudit.email_suppressions $$, '42501', null, 'public: cannot read the suppression list');
select throws_ok($$ select id from plaudit.invitations $$, '42501', null, 'public: cannot read invitations');
select results_eq(
  $$ select name, email, org_name, form_name from plaudit.review_request_landing((select token from t)) $$,
  $$ values ('Ann'::text, 'ann@acme.test'::text, 'Acme'::text, 'Acme form'::text) $$,
  'public: the landing page of a valid token shows its recipient, form and organization'
);
select is_empty(
  $$ select * from plaudit.review_request_landing('a' || substr((select token from t), 2)) $$,
  'public: a token with another first character shows nothing'
);
select ok(plaudit.track_review_request((select token from t), 'opened'), 'public: a valid open is recorded');
select ok(plaudit.track_review_request((select token from t), 'opened'), 'public: a second open is counted');
select ok(not plaudit.track_review_request((select forged from t), 'opened'), 'public: a token of no request records nothing');
select ok(not plaudit.track_review_request('x', 'clicked'), 'public: a malformed token records nothing');
select is(plaudit.unsubscribe_review_request((select token from t)), 'unsubscribed', 'public: unsubscribes with a valid token');
select is(plaudit.unsubscribe_review_request((select token from t)), 'already', 'public: a second unsubscribe changes nothing');
select is(plaudit.unsubscribe_review_request('nonsense'), 'invalid', 'public: a bad token unsubscribes nobody');
select throws_ok(
  $$ select plaudit.queue_invitation_email('a4000000-0000-4000-8000-000000000001', 't', 'http://x') $$,
  '42501', null, 'public: cannot queue invitation e-mails'
);
select tests.clear_persona();

select results_eq(
  $$ select status, open_count from plaudit.review_requests where id = 'a3000000-0000-4000-8000-000000000001' $$,
  $$ values ('unsubscribed'::text, 2) $$,
  'the request is unsubscribed, with both opens counted'
);
select is(
  (select count(*)::int from plaudit.review_request_events where request_id = 'a3000000-0000-4000-8000-000000000001' and type = 'opened'),
  1, 'one opened event however many opens');

-- Invitations.
insert into plaudit.invitations (id, org_id, email, role, token_hash) values
  ('a4000000-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'new@acme.test', 'admin', sha256('inv-token'::bytea));

select tests.act_as_tenant('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');
select throws_ok(
  $$ select plaudit.queue_invitation_email('a4000000-0000-4000-8000-000000000001', 'inv-token', 'http://x') $$,
  'P0002', 'Invitation not found', 'tenant B: cannot mail tenant A''s invitation'
);
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select throws_ok(
  $$ select plaudit.queue_invitation_email('a4000000-0000-4000-8000-000000000001', 'wrong-token', 'http://x') $$,
  'P0002', 'Invitation not found', 'tenant A: the token must be the invitation''s'
);
select tests.clear_persona();

select tests.act_as_public();
select is(plaudit.accept_invitation('inv-token', 'Nia'), 'accepted', 'public: the invitee accepts');
select is(plaudit.accept_invitation('inv-token', 'Nia'), 'accepted_before', 'public: accepting again changes nothing');
select tests.clear_persona();

-- Withdrawing an invitation withdraws its e-mail while it waits in the outbox, and no other.
insert into plaudit.invitations (id, org_id, email, role, token_hash) values
  ('a4000000-0000-4000-8000-000000000002', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'second@acme.test', 'member', sha256('inv-2'::bytea)),
  ('a4000000-0000-4000-8000-000000000003', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'third@acme.test', 'member', sha256('inv-3'::bytea));
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select plaudit.queue_invitation_email('a4000000-0000-4000-8000-000000000002', 'inv-2', 'http://x');
select plaudit.queue_invitation_email('a4000000-0000-4000-8000-000000000003', 'inv-3', 'http://x');
select lives_ok(
  $$ update plaudit.invitations set revoked_at = now() where id = 'a4000000-0000-4000-8000-000000000002' $$,
  'tenant A: withdraws an invitation whose e-mail is queued'
);
select tests.clear_persona();
select results_eq(
  $$ select data ->> 'invitation_id', status, last_error from plaudit.email_outbox
      where template = 'team_invitation'
        and data ->> 'invitation_id' in ('a4000000-0000-4000-8000-000000000002', 'a4000000-0000-4000-8000-000000000003')
      order by 1 $$,
  $$ values ('a4000000-0000-4000-8000-000000000002', 'failed', 'cancelled: the invitation was withdrawn'),
            ('a4000000-0000-4000-8000-000000000003', 'queued', null::text) $$,
  'the withdrawn invitation''s queued e-mail is withdrawn with it; another invitation''s stays queued'
);

select * from finish();
rollback;
