-- Members sign in: the sign-in mail's challenge (token and code kept as hashes, once, fifteen
-- minutes, five wrong codes), sessions (hashed, idle and absolute expiry, sign-out here or
-- everywhere, an end that is permanent), and what a session may reach: the organizations its
-- person belongs to, with the scope of their role. Grouped by who acts: the authenticator (the
-- API's login), the API role, the superuser.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(24);

insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex');
insert into plaudit.members (org_id, email, name, role, created_at) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Ada@Acme.test', 'Ada', 'owner', now() - interval '1 day'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'ada@acme.test', null, 'member', now());

-- What the tests learn (tokens, codes) is kept here, which every role may use.
create temporary table learned (label text primary key, value text not null);
grant select, insert on learned to public;

------------
--- The authenticator (the API's login): asking for a mail, signing in
------------
set local role plaudit_authenticator;

select is(plaudit.request_sign_in('ada@ACME.test', '192.0.2.1', 'https://reviews.example'), 'sent',
  'request_sign_in: a member''s address (any case) gets a mail');
select is(plaudit.request_sign_in('nobody@acme.test', '192.0.2.1', 'https://reviews.example'), 'unknown',
  'request_sign_in: an unknown address gets none (the API answers both alike)');
select is(plaudit.request_sign_in('ada@acme.test', '192.0.2.1', 'https://reviews.example'), 'sent',
  'request_sign_in: a second mail');
select is(plaudit.request_sign_in('ada@acme.test', '192.0.2.2', 'https://reviews.example'), 'sent',
  'request_sign_in: a third mail');
select is(plaudit.request_sign_in('ada@acme.test', '192.0.2.3', 'https://reviews.example'), 'rate_limited',
  'request_sign_in: a fourth in the minute is refused, whatever the client');
select is(plaudit.request_sign_in('nobody-1@acme.test', '192.0.2.1', 'https://reviews.example', 3), 'rate_limited',
  'request_sign_in: the client''s own limit counts unknown addresses too');

select tests.clear_persona();
-- The superuser reads the queued mails: the link carries the token in its fragment.
insert into learned
  select 'token' || row_number() over (order by created_at, id),
         substring(data ->> 'link' from '#token=([0-9A-Za-z]{43})$')
    from plaudit.email_outbox where template = 'sign_in' and to_address = 'ada@acme.test';
-- The code of the mail a code is checked against: the newest open one (one transaction makes
-- them all at the same now(), so the id breaks the tie, as in verify_sign_in).
insert into learned
  select 'code3', o.data ->> 'code'
    from plaudit.email_outbox o
   where o.idempotency_key = 'sign_in:' || (select c.id from plaudit.sign_in_challenges c
                                             order by c.created_at desc, c.id desc limit 1);

select results_eq(
  $$ select o.org_id, o.data ->> 'link' like 'https://reviews.example/app/sign-in#token=%', o.data ->> 'code' ~ '^\d{6}$'
       from plaudit.email_outbox o where o.template = 'sign_in' order by o.created_at, o.id limit 1 $$,
  $$ values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, true, true) $$,
  'the mail goes out for the organization joined first, with the link and a 6-digit code'
);

select is_empty(
  $$ select c.id from plaudit.sign_in_challenges c, learned l where strpos(c::text, l.value) > 0 $$,
  'a challenge keeps neither its token nor its code in the clear'
);

set local role plaudit_authenticator;

select results_eq(
  $$ select outcome, session_token is null from plaudit.verify_sign_in(null, 'ada@acme.test',
       (select case when value = '000000' then '000001' else '000000' end from learned where label = 'code3'), null) $$,
  $$ values ('invalid', true) $$,
  'verify_sign_in: a wrong code is refused'
);

select results_eq(
  $$ select outcome, session_token ~ '^[0-9A-Za-z]{43}$'
       from plaudit.verify_sign_in(null, 'ADA@acme.test', (select value from learned where label = 'code3'), 'Test browser') $$,
  $$ values ('signed_in', true) $$,
  'verify_sign_in: the newest mail''s code signs in'
);

select results_eq(
  $$ select outcome from plaudit.verify_sign_in((select value from learned where label = 'token1'), null, null, null) $$,
  $$ values ('used') $$,
  'verify_sign_in: signing in used up the older mails'' links'
);

select results_eq(
  $$ select outcome from plaudit.verify_sign_in('x', null, null, null) $$,
  $$ values ('invalid') $$,
  'verify_sign_in: an unknown token is invalid'
);

select tests.clear_persona();
-- A fresh mail whose five wrong codes lock it.
delete from plaudit.rate_limit_counters; -- the next minute
select is(plaudit.request_sign_in('ada@acme.test', '192.0.2.9', 'https://reviews.example'), 'sent', 'a fourth mail, next minute');
insert into learned
  select 'code4', data ->> 'code' from plaudit.email_outbox
   where template = 'sign_in' and to_address = 'ada@acme.test' order by created_at desc, id desc limit 1;

set local role plaudit_authenticator;
-- Six wrong codes, each its own statement (as six requests would be).
insert into learned select 'try1', outcome from plaudit.verify_sign_in(null, 'ada@acme.test',
  (select case when value = '999999' then '999998' else '999999' end from learned where label = 'code4'), null);
insert into learned select 'try2', outcome from plaudit.verify_sign_in(null, 'ada@acme.test',
  (select case when value = '999999' then '999998' else '999999' end from learned where label = 'code4'), null);
insert into learned select 'try3', outcome from plaudit.verify_sign_in(null, 'ada@acme.test',
  (select case when value = '999999' then '999998' else '999999' end from learned where label = 'code4'), null);
insert into learned select 'try4', outcome from plaudit.verify_sign_in(null, 'ada@acme.test',
  (select case when value = '999999' then '999998' else '999999' end from learned where label = 'code4'), null);
insert into learned select 'try5', outcome from plaudit.verify_sign_in(null, 'ada@acme.test',
  (select case when value = '999999' then '999998' else '999999' end from learned where label = 'code4'), null);
insert into learned select 'try6', outcome from plaudit.verify_sign_in(null, 'ada@acme.test',
  (select case when value = '999999' then '999998' else '999999' end from learned where label = 'code4'), null);
select results_eq(
  $$ select string_agg(value, ',' order by label) from learned where label like 'try%' $$,
  $$ values ('invalid,invalid,invalid,invalid,locked,locked') $$,
  'verify_sign_in: the fifth wrong code locks the mail'
);
select results_eq(
  $$ select outcome from plaudit.verify_sign_in(null, 'ada@acme.test', (select value from learned where label = 'code4'), null) $$,
  $$ values ('locked') $$,
  'verify_sign_in: a locked mail refuses even its right code'
);

------------
--- Sessions: what they reach
------------
select tests.clear_persona();
-- Two sessions of Ada's, made as verify_sign_in makes them, with known tokens.
insert into plaudit.sessions (id, email, token_hash) values
  ('5e000000-0000-4000-8000-000000000001', 'ada@acme.test', sha256('session-one'::bytea)),
  ('5e000000-0000-4000-8000-000000000002', 'ada@acme.test', sha256('session-two'::bytea));

set local role plaudit_authenticator;

select results_eq(
  $$ select org_id, scope, member_role, key_id is null from plaudit.authenticate_session(sha256('session-one'::bytea), 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600) $$,
  $$ values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, 'admin', 'owner', true) $$,
  'authenticate_session: an owner acts in her organization with the admin scope'
);
select results_eq(
  $$ select org_id, scope, member_role from plaudit.authenticate_session(sha256('session-one'::bytea), 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 600) $$,
  $$ values ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'::uuid, 'write', 'member') $$,
  'authenticate_session: the same person is a member (write) of another organization'
);
select results_eq(
  $$ select org_id is null, scope is null from plaudit.authenticate_session(sha256('session-one'::bytea), gen_random_uuid(), 600) $$,
  $$ values (true, true) $$,
  'authenticate_session: an organization she does not belong to gives no tenant and no scope'
);
select results_eq(
  $$ select json_array_length(plaudit.session_summary(sha256('session-one'::bytea)) -> 'organizations'),
            plaudit.session_summary(sha256('session-one'::bytea)) ->> 'name' $$,
  $$ values (2, 'Ada') $$,
  'session_summary: the person and both her organizations'
);

select is(plaudit.end_session(sha256('session-one'::bytea), false), 1, 'end_session: signs this session out');
select is_empty(
  $$ select * from plaudit.authenticate_session(sha256('session-one'::bytea), 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600) $$,
  'an ended session authenticates nothing'
);

select tests.clear_persona();
update plaudit.sessions set last_seen_at = now() - interval '7 days 1 second' where id = '5e000000-0000-4000-8000-000000000002';
set local role plaudit_authenticator;
select is_empty(
  $$ select * from plaudit.authenticate_session(sha256('session-two'::bytea), 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600) $$,
  'a session unused for seven days authenticates nothing'
);

------------
--- The API role and the superuser
------------
select tests.clear_persona();
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select throws_ok(
  $$ select * from plaudit.sessions $$,
  '42501', 'permission denied for table sessions',
  'the API role cannot read sessions, even its tenant''s members'''
);

select tests.clear_persona();
select throws_ok(
  $$ update plaudit.sessions set ended_at = null where id = '5e000000-0000-4000-8000-000000000001' $$,
  '23001', 'a session''s end is permanent: ended_at cannot be cleared or changed once set',
  'superuser: an ended session never comes back'
);

select * from finish();
rollback;
