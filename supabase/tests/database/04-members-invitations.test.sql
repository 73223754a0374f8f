-- plaudit.members, plaudit.invitations and create_invitation: a tenant lists its own members,
-- changes and removes them (keeping an owner), invites and withdraws invitations for itself only, and never reads an invitation's token hash.
-- A tenant acts as the API does: `set local role plaudit_api` and the transaction's tenant
-- (`set local plaudit.org_id = …` is what set_config('plaudit.org_id', …, true) does).
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(64);

-- Fixtures (as the superuser): tenants A (Acme) and B (Globex), their members, an admin key of
-- A (the inviter), and open invitations, one of A's already expired.
insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex');

insert into plaudit.members (id, org_id, email, name, role) values
  ('a0000000-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'owner@acme.test', 'Ada', 'owner'),
  ('a0000000-0000-4000-8000-000000000002', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Member@Acme.test', 'Max', 'member'),
  ('b0000000-0000-4000-8000-000000000001', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'boss@globex.test', 'Bea', 'owner');

insert into plaudit.invitations (id, org_id, email, role, token_hash, expires_at, created_at) values
  ('a1000000-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'pending@acme.test', 'member',
   sha256('a-pending'::bytea), now() + interval '7 days', now()),
  ('a1000000-0000-4000-8000-000000000002', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'withdraw-me@acme.test', 'admin',
   sha256('a-withdraw'::bytea), now() + interval '7 days', now()),
  ('a1000000-0000-4000-8000-000000000003', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'late@acme.test', 'member',
   sha256('a-late'::bytea), now() - interval '1 day', now() - interval '8 days'),
  ('b1000000-0000-4000-8000-000000000001', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'pending@globex.test', 'member',
   sha256('b-pending'::bytea), now() + interval '7 days', now());

-- Tokens the tests learn are kept in the temporary table `tokens`, which every role may use.
create temporary table tokens (label text primary key, id uuid not null, token text not null);
grant select, insert on tokens to public;

create temporary table inviter as
  select id from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Admin', 'admin');
grant select on inviter to public;

------------
--- Tenant A (owner of the rows): members
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');

select set_eq(
  $$ select email, role from plaudit.members $$,
  $$ values ('owner@acme.test', 'owner'), ('Member@Acme.test', 'member') $$,
  'tenant A: sees exactly its own members'
);

select throws_ok(
  $$ insert into plaudit.members (org_id, email, role)
     values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'new@acme.test', 'admin') $$,
  '42501', 'permission denied for table members',
  'tenant A: cannot add members directly (members join through invitations)'
);

select throws_ok(
  $$ update plaudit.members set role = 'admin' where id = 'a0000000-0000-4000-8000-000000000001' $$,
  '55000', 'An organization keeps at least one owner: make another member owner first',
  'tenant A: cannot demote its last owner'
);

select throws_ok(
  $$ delete from plaudit.members where id = 'a0000000-0000-4000-8000-000000000001' $$,
  '55000', 'An organization keeps at least one owner: make another member owner first',
  'tenant A: cannot remove its last owner'
);

------------
--- Tenant A (owner of the rows): invitations
------------

select set_eq(
  $$ select id from plaudit.invitations $$,
  $$ values ('a1000000-0000-4000-8000-000000000001'::uuid), ('a1000000-0000-4000-8000-000000000002'::uuid),
            ('a1000000-0000-4000-8000-000000000003'::uuid) $$,
  'tenant A: sees exactly its own invitations'
);

select throws_ok(
  $$ select token_hash from plaudit.invitations where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  '42501', 'permission denied for table invitations',
  'tenant A: cannot read the token hash of its own invitations'
);

select throws_ok(
  $$ select id from plaudit.invitations where token_hash = sha256('a-pending'::bytea) $$,
  '42501', 'permission denied for table invitations',
  'tenant A: cannot even filter on token_hash (no token oracle)'
);

select results_eq(
  $$ update plaudit.invitations set revoked_at = now()
      where id = 'a1000000-0000-4000-8000-000000000002' returning id $$,
  $$ values ('a1000000-0000-4000-8000-000000000002'::uuid) $$,
  'tenant A: can withdraw its own invitation'
);

select throws_ok(
  $$ update plaudit.invitations set expires_at = now() + interval '1 year'
      where id = 'a1000000-0000-4000-8000-000000000001' $$,
  '42501', 'permission denied for table invitations',
  'tenant A: cannot extend an invitation'
);

select throws_ok(
  $$ update plaudit.invitations set accepted_at = now()
      where id = 'a1000000-0000-4000-8000-000000000001' $$,
  '42501', 'permission denied for table invitations',
  'tenant A: cannot mark an invitation accepted'
);

select throws_ok(
  $$ delete from plaudit.invitations where id = 'a1000000-0000-4000-8000-000000000002' $$,
  '42501', 'permission denied for table invitations',
  'tenant A: cannot delete invitations'
);

------------
--- Tenant A: create_invitation
------------

select lives_ok(
  $$ insert into tokens (label, id, token)
       select 'new', id, token
         from plaudit.create_invitation('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'New@Acme.test', 'admin',
                                        (select id from inviter)) $$,
  'tenant A: can invite an address'
);

select matches(
  (select token from tokens where label = 'new'),
  '^[0-9A-Za-z]{43}$',
  'create_invitation: answers a 43-character base62 token'
);

select results_eq(
  $$ select org_id, email, role, invited_by_key_id, expires_at, accepted_at, revoked_at
       from plaudit.invitations where id = (select id from tokens where label = 'new') $$,
  $$ select 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, 'New@Acme.test'::text, 'admin'::text,
            (select id from inviter), now() + interval '7 days', null::timestamptz, null::timestamptz $$,
  'create_invitation: stores an open invitation for A that expires in seven days'
);

select throws_ok(
  $$ select * from plaudit.create_invitation('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'new@ACME.test', 'member') $$,
  '23505', 'this address already has an open invitation',
  'create_invitation: a second open invitation for the same address (any case) is refused'
);

select throws_ok(
  $$ select * from plaudit.create_invitation('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'member@acme.TEST', 'member') $$,
  '23505', 'this address is already a member',
  'create_invitation: a member''s address (any case) is refused'
);

select lives_ok(
  $$ insert into tokens (label, id, token)
       select 'late', id, token
         from plaudit.create_invitation('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Late@Acme.test', 'member') $$,
  'create_invitation: an address whose open invitation expired can be invited again'
);

select results_eq(
  $$ select revoked_at from plaudit.invitations where id = 'a1000000-0000-4000-8000-000000000003' $$,
  $$ values (now()) $$,
  'create_invitation: the expired invitation was withdrawn'
);

select results_eq(
  $$ select id from plaudit.invitations
      where lower(email) = 'late@acme.test' and accepted_at is null and revoked_at is null $$,
  $$ select id from tokens where label = 'late' $$,
  'create_invitation: the new invitation is the only open one for that address'
);

select lives_ok(
  $$ insert into tokens (label, id, token)
       select 'withdrawn', id, token
         from plaudit.create_invitation('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'withdraw-me@acme.test', 'admin') $$,
  'create_invitation: an address whose invitation was withdrawn can be invited again'
);

-- Membership and open invitations of B say nothing about A.
select lives_ok(
  $$ insert into tokens (label, id, token)
       select 'boss', id, token
         from plaudit.create_invitation('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'boss@globex.test', 'member') $$,
  'create_invitation: a member of another organization can be invited'
);

select lives_ok(
  $$ insert into tokens (label, id, token)
       select 'globex_pending', id, token
         from plaudit.create_invitation('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'pending@globex.test', 'member') $$,
  'create_invitation: an address invited by another organization can be invited'
);

select throws_ok(
  $$ select * from plaudit.create_invitation('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'spy@acme.test', 'admin') $$,
  '42501', 'new row violates row-level security policy for table "invitations"',
  'tenant A: cannot invite into organization B'
);

------------
--- Tenant B (a stranger to A)
------------
select tests.act_as_tenant('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');

select is_empty(
  $$ select id from plaudit.members where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  'stranger: sees none of A''s members'
);

select results_eq(
  $$ select id from plaudit.members $$,
  $$ values ('b0000000-0000-4000-8000-000000000001'::uuid) $$,
  'stranger: sees only its own members'
);

select throws_ok(
  $$ insert into plaudit.members (org_id, email, role)
     values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'mole@globex.test', 'owner') $$,
  '42501', 'permission denied for table members',
  'stranger: cannot add a member to A'
);

select lives_ok(
  $$ update plaudit.members set role = 'member' where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  'stranger: an update of A''s members reaches no row (A''s members are unchanged, below)'
);

select lives_ok(
  $$ delete from plaudit.members where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  'stranger: a delete of A''s members reaches no row (A''s members are unchanged, below)'
);

select is_empty(
  $$ select id from plaudit.invitations where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  'stranger: sees none of A''s invitations'
);

select results_eq(
  $$ select id from plaudit.invitations $$,
  $$ values ('b1000000-0000-4000-8000-000000000001'::uuid) $$,
  'stranger: sees only its own invitations'
);

select throws_ok(
  $$ insert into plaudit.invitations (org_id, email, role, token_hash)
     values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'mole@globex.test', 'admin', sha256('known'::bytea)) $$,
  '42501', 'new row violates row-level security policy for table "invitations"',
  'stranger: cannot insert an invitation into A'
);

select throws_ok(
  $$ select * from plaudit.create_invitation('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'mole@globex.test', 'admin') $$,
  '42501', 'new row violates row-level security policy for table "invitations"',
  'stranger: cannot invite into A through create_invitation'
);

select is_empty(
  $$ update plaudit.invitations set revoked_at = now()
      where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' returning id $$,
  'stranger: withdrawing A''s invitations affects no row'
);

select is_empty(
  $$ update plaudit.invitations set revoked_at = null
      where id = 'a1000000-0000-4000-8000-000000000002' returning id $$,
  'stranger: reopening A''s withdrawn invitation affects no row'
);

select throws_ok(
  $$ delete from plaudit.invitations where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  '42501', 'permission denied for table invitations',
  'stranger: cannot delete A''s invitations'
);

------------
--- Anonymous (plaudit_api, no tenant set)
------------
set local plaudit.org_id = '';

select is_empty($$ select id from plaudit.members $$, 'anonymous: sees no member');
select is_empty($$ select id from plaudit.invitations $$, 'anonymous: sees no invitation');

select throws_ok(
  $$ select * from plaudit.create_invitation('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'anon@example.test', 'admin') $$,
  '42501', 'new row violates row-level security policy for table "invitations"',
  'anonymous: cannot invite into A'
);

select is_empty(
  $$ update plaudit.invitations set revoked_at = now() returning id $$,
  'anonymous: an unfiltered withdrawal affects no row'
);

------------
--- Anonymous public routes (plaudit_public) and the authenticator login role
------------
select tests.act_as_public();

select throws_ok(
  $$ select id from plaudit.invitations $$,
  '42501', 'permission denied for table invitations',
  'plaudit_public: cannot read invitations'
);

select throws_ok(
  $$ select id from plaudit.members $$,
  '42501', 'permission denied for table members',
  'plaudit_public: cannot read members'
);

select tests.clear_persona();
set local session authorization plaudit_authenticator;

select throws_ok(
  $$ select id from plaudit.invitations $$,
  '42501', 'permission denied for table invitations',
  'authenticator: cannot read invitations without switching to plaudit_api'
);

reset session authorization;

------------
--- Superuser: tokens are stored only as SHA-256; A's rows carry only A's changes
------------

select is_empty(
  $$ select t.label from tokens t join plaudit.invitations i using (id)
      where i.token_hash <> sha256(convert_to(t.token, 'UTF8')) $$,
  'create_invitation: the stored token_hash is the SHA-256 of every token it answered'
);

select is_empty(
  $$ select label from tokens where token !~ '^[0-9A-Za-z]{43}$' $$,
  'create_invitation: every token it answered has 43 base62 characters'
);

select is_empty(
  (select string_agg(format('select %L as tbl from %s t, tokens k where strpos(t::text, k.token) > 0',
                            c.oid::regclass, c.oid::regclass),
                     ' union all ')
     from pg_class c
    where c.relnamespace = 'plaudit'::regnamespace and c.relkind in ('r', 'p')),
  'create_invitation: no row of schema plaudit holds a plaintext token'
);

select set_eq(
  $$ select id, email, role from plaudit.members where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  $$ values ('a0000000-0000-4000-8000-000000000001'::uuid, 'owner@acme.test', 'owner'),
            ('a0000000-0000-4000-8000-000000000002'::uuid, 'Member@Acme.test', 'member') $$,
  'superuser: A''s members are unchanged'
);

select results_eq(
  $$ select lower(email), revoked_at is null
       from plaudit.invitations where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'
      order by lower(email), created_at, revoked_at nulls last $$,
  $$ values ('boss@globex.test', true),
            ('late@acme.test', false),
            ('late@acme.test', true),
            ('new@acme.test', true),
            ('pending@acme.test', true),
            ('pending@globex.test', true),
            ('withdraw-me@acme.test', false),
            ('withdraw-me@acme.test', true) $$,
  'superuser: A''s invitations are exactly those A made, withdrawn only by A'
);

select results_eq(
  $$ select id, org_id, revoked_at from plaudit.invitations where org_id = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb' $$,
  $$ values ('b1000000-0000-4000-8000-000000000001'::uuid, 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'::uuid, null::timestamptz) $$,
  'superuser: B has only its own, still open, invitation (A could not invite into B)'
);

select is(
  (select count(*)::integer from plaudit.members where lower(email) in ('new@acme.test', 'mole@globex.test')),
  0,
  'superuser: nobody became a member through the API role'
);

------------
--- An invitation's end is permanent: revoked_at and accepted_at never change once set
------------
select tests.act_as_public();

select is(
  plaudit.accept_invitation('a-pending', 'Pat'),
  'accepted',
  'public: accepting an open invitation still works'
);

select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');

select results_eq(
  $$ update plaudit.invitations set revoked_at = now()
      where id = (select id from tokens where label = 'new') returning id $$,
  $$ select id from tokens where label = 'new' $$,
  'tenant A: withdrawing an open invitation still works'
);

select throws_ok(
  $$ update plaudit.invitations set revoked_at = null where id = 'a1000000-0000-4000-8000-000000000002' $$,
  '23001', 'an invitation''s withdrawal is permanent: revoked_at cannot be cleared or changed once set',
  'tenant A: cannot reopen its own withdrawn invitation'
);

select throws_ok(
  $$ update plaudit.invitations set revoked_at = null where id = 'a1000000-0000-4000-8000-000000000003' $$,
  '23001', 'an invitation''s withdrawal is permanent: revoked_at cannot be cleared or changed once set',
  'tenant A: cannot reopen the expired invitation that inviting the address again withdrew'
);

select throws_ok(
  $$ update plaudit.invitations set revoked_at = '2100-01-01' where id = 'a1000000-0000-4000-8000-000000000002' $$,
  '23001', 'an invitation''s withdrawal is permanent: revoked_at cannot be cleared or changed once set',
  'tenant A: cannot move the withdrawal time of its own invitation'
);

select throws_ok(
  $$ update plaudit.invitations set accepted_at = null where id = 'a1000000-0000-4000-8000-000000000001' $$,
  '42501', 'permission denied for table invitations',
  'tenant A: cannot clear the acceptance of its own invitation'
);

select throws_ok(
  $$ update plaudit.invitations set revoked_at = now() where id = 'a1000000-0000-4000-8000-000000000001' $$,
  '23514', 'new row for relation "invitations" violates check constraint "invitations_accepted_or_withdrawn"',
  'tenant A: cannot withdraw an invitation once it was accepted'
);

select lives_ok(
  $$ update plaudit.invitations set revoked_at = revoked_at
      where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  'tenant A: an update that leaves revoked_at as it is passes'
);

select tests.clear_persona();

-- The table's owner is bound too.
select tests.act_as_owner();
select is(
  current_user::text,
  (select pg_get_userbyid(relowner)::text from pg_class where oid = 'plaudit.invitations'::regclass),
  'owner: these checks run as the owner of plaudit.invitations'
);

select throws_ok(
  $$ update plaudit.invitations set revoked_at = null where id = 'a1000000-0000-4000-8000-000000000002' $$,
  '23001', 'an invitation''s withdrawal is permanent: revoked_at cannot be cleared or changed once set',
  'owner: cannot reopen a withdrawn invitation'
);

select throws_ok(
  $$ update plaudit.invitations set accepted_at = null where id = 'a1000000-0000-4000-8000-000000000001' $$,
  '23001', 'an invitation''s acceptance is permanent: accepted_at cannot be cleared or changed once set',
  'owner: cannot clear an invitation''s acceptance'
);

select throws_ok(
  $$ update plaudit.invitations set accepted_at = now() + interval '1 day'
      where id = 'a1000000-0000-4000-8000-000000000001' $$,
  '23001', 'an invitation''s acceptance is permanent: accepted_at cannot be cleared or changed once set',
  'owner: cannot move an invitation''s acceptance time'
);

select throws_ok(
  $$ update plaudit.invitations set revoked_at = now() where id = 'a1000000-0000-4000-8000-000000000001' $$,
  '23514', 'new row for relation "invitations" violates check constraint "invitations_accepted_or_withdrawn"',
  'owner: cannot withdraw an accepted invitation'
);

select results_eq(
  $$ select id, accepted_at, revoked_at is not null from plaudit.invitations
      where id in ('a1000000-0000-4000-8000-000000000001', 'a1000000-0000-4000-8000-000000000002',
                   'a1000000-0000-4000-8000-000000000003')
      order by id $$,
  $$ values ('a1000000-0000-4000-8000-000000000001'::uuid, now(), false),
            ('a1000000-0000-4000-8000-000000000002'::uuid, null::timestamptz, true),
            ('a1000000-0000-4000-8000-000000000003'::uuid, null::timestamptz, true) $$,
  'owner: the accepted invitation stays accepted and the withdrawn ones stay withdrawn'
);

select tests.act_as_public();

select is(
  plaudit.accept_invitation('a-withdraw', 'Wes'),
  'revoked',
  'public: the withdrawn invitation whose reopening was refused cannot be accepted'
);

select tests.clear_persona();

select * from finish();
rollback;
