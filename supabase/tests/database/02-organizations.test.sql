-- plaudit.organizations: a tenant reads and renames its own organization and nothing else;
-- organizations are created and removed by operators, never through the API role.
-- A tenant acts as the API does: `set local role plaudit_api` and the transaction's tenant
-- (`set local plaudit.org_id = …` is what set_config('plaudit.org_id', …, true) does).
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(23);

-- Fixtures (as the superuser): tenant A (Acme) and tenant B (Globex). A's timestamps lie in the
-- past so that the updated_at trigger can be observed.
insert into plaudit.organizations (id, name, slug, website, created_at, updated_at) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme', 'https://acme.test',
   '2026-01-01 00:00:00+00', '2026-01-01 00:00:00+00'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex', null,
   '2026-01-01 00:00:00+00', '2026-01-01 00:00:00+00');

------------
--- Tenant A (owner of the row)
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');

select results_eq(
  $$ select id, name, slug from plaudit.organizations $$,
  $$ values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, 'Acme', 'acme') $$,
  'tenant A: sees exactly its own organization'
);

select results_eq(
  $$ update plaudit.organizations set name = 'Acme Corp', website = 'https://acme.example'
      where id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' returning name, website $$,
  $$ values ('Acme Corp', 'https://acme.example') $$,
  'tenant A: can rename its own organization and change its website'
);

select is(
  (select updated_at from plaudit.organizations where id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'),
  now(),
  'tenant A: the update touched updated_at'
);

select throws_ok(
  $$ update plaudit.organizations set slug = 'acme-2' where id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  '42501', 'permission denied for table organizations',
  'tenant A: cannot change its slug (no column grant)'
);

select throws_ok(
  $$ insert into plaudit.organizations (name, slug) values ('Acme Two', 'acme-two') $$,
  '42501', 'permission denied for table organizations',
  'tenant A: cannot create organizations'
);

select throws_ok(
  $$ delete from plaudit.organizations where id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  '42501', 'permission denied for table organizations',
  'tenant A: cannot delete its own organization'
);

------------
--- Tenant B (a stranger to A)
------------
select tests.act_as_tenant('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');

select is_empty(
  $$ select id from plaudit.organizations where id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  'stranger: does not see organization A'
);

select results_eq(
  $$ select id from plaudit.organizations $$,
  $$ values ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'::uuid) $$,
  'stranger: sees only its own organization'
);

select throws_ok(
  $$ insert into plaudit.organizations (id, name, slug)
     values ('cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'Acme Shadow', 'acme-shadow') $$,
  '42501', 'permission denied for table organizations',
  'stranger: cannot insert an organization'
);

select is_empty(
  $$ update plaudit.organizations set name = 'Pwned', website = 'https://evil.test'
      where id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' returning id $$,
  'stranger: updating organization A affects no row'
);

select results_eq(
  $$ update plaudit.organizations set name = name returning id $$,
  $$ values ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'::uuid) $$,
  'stranger: an unfiltered update reaches only its own organization'
);

select throws_ok(
  $$ delete from plaudit.organizations where id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  '42501', 'permission denied for table organizations',
  'stranger: cannot delete organization A'
);

------------
--- Anonymous (plaudit_api, no tenant set)
------------
set local plaudit.org_id = '';

select is_empty(
  $$ select id from plaudit.organizations $$,
  'anonymous: sees no organization'
);

select is_empty(
  $$ update plaudit.organizations set name = 'Pwned' returning id $$,
  'anonymous: an unfiltered update affects no row'
);

select throws_ok(
  $$ delete from plaudit.organizations $$,
  '42501', 'permission denied for table organizations',
  'anonymous: cannot delete organizations'
);

-- A tenant id that is not a UUID is an error, not a way around the policy.
set local plaudit.org_id = 'not-a-uuid';

select throws_ok(
  $$ select id from plaudit.organizations $$,
  '22P02', 'invalid input syntax for type uuid: "not-a-uuid"',
  'anonymous: a malformed tenant id is refused'
);

------------
--- Anonymous public routes (plaudit_public)
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select tests.act_as_public();

select throws_ok(
  $$ select id from plaudit.organizations $$,
  '42501', 'permission denied for table organizations',
  'plaudit_public: cannot read organizations even with a tenant set'
);

select throws_ok(
  $$ update plaudit.organizations set name = 'Pwned' $$,
  '42501', 'permission denied for table organizations',
  'plaudit_public: cannot update organizations'
);

------------
--- The authenticator login role
------------
select tests.clear_persona();
set local session authorization plaudit_authenticator;

select throws_ok(
  $$ select id from plaudit.organizations $$,
  '42501', 'permission denied for table organizations',
  'authenticator: cannot read organizations without switching to plaudit_api'
);

select throws_ok(
  $$ update plaudit.organizations set name = 'Pwned' $$,
  '42501', 'permission denied for table organizations',
  'authenticator: cannot update organizations'
);

reset session authorization;

------------
--- Superuser: A's row is exactly as tenant A left it, B's as it was
------------

select results_eq(
  $$ select id, name, slug, website from plaudit.organizations
      where id in ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb')
      order by slug $$,
  $$ values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, 'Acme Corp', 'acme', 'https://acme.example'),
            ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'::uuid, 'Globex', 'globex', null) $$,
  'superuser: organization A carries only its own tenant''s changes; B is unchanged'
);

select is(
  (select count(*)::integer from plaudit.organizations where slug in ('acme-two', 'acme-shadow', 'acme-2')),
  0,
  'superuser: no organization was created or re-slugged through the API role'
);

select is(
  (select count(*)::integer from plaudit.organizations
    where id in ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb')),
  2,
  'superuser: both organizations still exist'
);

select * from finish();
rollback;
