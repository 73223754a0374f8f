-- plaudit.api_keys, issue_api_key, rotate_api_key and api_key_checksum: a tenant lists, issues,
-- revokes and rotates its own keys; it never reads a key hash; only the SHA-256 of a key is stored.
-- A tenant acts as the API does: `set local role plaudit_api` and the transaction's tenant
-- (`set local plaudit.org_id = …` is what set_config('plaudit.org_id', …, true) does).
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(75);

-- Fixtures (as the superuser): tenants A (Acme) and B (Globex), and their keys. Every plaintext
-- key the tests learn is kept in the temporary table `keys`, which every role may use.
insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex');

create temporary table keys (label text primary key, id uuid not null, key text not null);
grant select, insert on keys to public;

insert into keys (label, id, key)
  select 'a_read', id, key from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Dashboard', 'read');
insert into keys (label, id, key)
  select 'a_rotate', id, key from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Deploy', 'write', 120);
insert into keys (label, id, key)
  select 'a_spare', id, key from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Old laptop', 'read');
insert into keys (label, id, key)
  select 'b_main', id, key from plaudit.issue_api_key('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex main', 'admin');

------------
--- Tenant A (owner of the rows)
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');

select set_eq(
  $$ select id from plaudit.api_keys $$,
  $$ select id from keys where label like 'a\_%' $$,
  'tenant A: sees exactly its own keys'
);

-- Key hashes are out of reach of the API role, its own tenant's included.
select throws_ok(
  $$ select key_hash from plaudit.api_keys where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  '42501', 'permission denied for table api_keys',
  'tenant A: cannot read the key hash of its own keys'
);

select throws_ok(
  $$ select * from plaudit.api_keys $$,
  '42501', 'permission denied for table api_keys',
  'tenant A: select * fails because key_hash is not readable'
);

select throws_ok(
  $$ select id from plaudit.api_keys where key_hash = sha256('guess'::bytea) $$,
  '42501', 'permission denied for table api_keys',
  'tenant A: cannot even filter on key_hash (no hash oracle)'
);

select lives_ok(
  $$ insert into keys (label, id, key)
       select 'a_issued', id, key
         from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'CI', 'write') $$,
  'tenant A: can issue a key for itself through the API role'
);

select results_eq(
  $$ select k.org_id, k.name, k.scope, k.rate_limit_per_minute, k.revoked_at
       from plaudit.api_keys k join keys using (id) where label = 'a_issued' $$,
  $$ values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, 'CI', 'write', null::integer, null::timestamptz) $$,
  'tenant A: the issued key is stored for A with its name and scope, active'
);

select throws_ok(
  $$ select * from plaudit.issue_api_key('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Sneaky', 'admin') $$,
  '42501', 'new row violates row-level security policy for table "api_keys"',
  'tenant A: cannot issue a key for tenant B'
);

select results_eq(
  $$ update plaudit.api_keys set revoked_at = now()
      where id = (select id from keys where label = 'a_spare') returning id $$,
  $$ select id from keys where label = 'a_spare' $$,
  'tenant A: can revoke its own key'
);

select throws_ok(
  $$ update plaudit.api_keys set scope = 'admin' where id = (select id from keys where label = 'a_read') $$,
  '42501', 'permission denied for table api_keys',
  'tenant A: cannot raise the scope of its own key'
);

select throws_ok(
  $$ update plaudit.api_keys set key_hash = sha256('known'::bytea) where id = (select id from keys where label = 'a_read') $$,
  '42501', 'permission denied for table api_keys',
  'tenant A: cannot replace the hash of its own key'
);

select throws_ok(
  $$ delete from plaudit.api_keys where id = (select id from keys where label = 'a_spare') $$,
  '42501', 'permission denied for table api_keys',
  'tenant A: cannot delete keys (they are revoked, never deleted)'
);

-- Rotation, as the API runs it.
select lives_ok(
  $$ insert into keys (label, id, key)
       select 'a_rotated', id, key from plaudit.rotate_api_key((select id from keys where label = 'a_rotate')) $$,
  'tenant A: can rotate its own key'
);

select is(
  (select count(*)::integer from keys where label = 'a_rotated'),
  1,
  'tenant A: rotation answered exactly one new key'
);

select results_eq(
  $$ select revoked_at = now(), replaced_by from plaudit.api_keys
      where id = (select id from keys where label = 'a_rotate') $$,
  $$ select true, id from keys where label = 'a_rotated' $$,
  'tenant A: the rotated key is revoked and replaced_by points at its successor'
);

select results_eq(
  $$ select org_id, name, scope, rate_limit_per_minute, revoked_at, replaced_by
       from plaudit.api_keys where id = (select id from keys where label = 'a_rotated') $$,
  $$ values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, 'Deploy', 'write', 120, null::timestamptz, null::uuid) $$,
  'tenant A: the successor keeps name, scope and rate limit and is active'
);

select isnt(
  (select key from keys where label = 'a_rotated'),
  (select key from keys where label = 'a_rotate'),
  'tenant A: the successor is a different key'
);

select is_empty(
  $$ select * from plaudit.rotate_api_key((select id from keys where label = 'a_rotate')) $$,
  'tenant A: rotating an already revoked key answers no row'
);

select is_empty(
  $$ select * from plaudit.rotate_api_key('00000000-0000-4000-8000-000000000000') $$,
  'tenant A: rotating an unknown key answers no row'
);

------------
--- Tenant B (a stranger to A)
------------
select tests.act_as_tenant('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');

select is_empty(
  $$ select id from plaudit.api_keys where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  'stranger: sees none of A''s keys'
);

select set_eq(
  $$ select id from plaudit.api_keys $$,
  $$ select id from keys where label like 'b\_%' $$,
  'stranger: sees exactly its own keys'
);

select throws_ok(
  $$ insert into plaudit.api_keys (org_id, name, scope, prefix, key_hash)
     values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Backdoor', 'admin', 'rk_AAAAAAAA', sha256('backdoor'::bytea)) $$,
  '42501', 'new row violates row-level security policy for table "api_keys"',
  'stranger: cannot insert a key for A'
);

select throws_ok(
  $$ select * from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Backdoor', 'admin') $$,
  '42501', 'new row violates row-level security policy for table "api_keys"',
  'stranger: cannot issue a key for A'
);

select is_empty(
  $$ update plaudit.api_keys set revoked_at = now()
      where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' returning id $$,
  'stranger: revoking A''s keys affects no row'
);

select is_empty(
  $$ update plaudit.api_keys set replaced_by = null, revoked_at = null
      where id in (select id from keys where label like 'a\_%') returning id $$,
  'stranger: un-revoking A''s keys by id affects no row'
);

select throws_ok(
  $$ update plaudit.api_keys set org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'
      where id = (select id from keys where label = 'b_main') $$,
  '42501', 'permission denied for table api_keys',
  'stranger: cannot move its own key into A'
);

select throws_ok(
  $$ delete from plaudit.api_keys where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' $$,
  '42501', 'permission denied for table api_keys',
  'stranger: cannot delete A''s keys'
);

select is_empty(
  $$ select * from plaudit.rotate_api_key((select id from keys where label = 'a_read')) $$,
  'stranger: rotating A''s key answers no row'
);

------------
--- Anonymous (plaudit_api, no tenant set)
------------
set local plaudit.org_id = '';

select is_empty(
  $$ select id from plaudit.api_keys $$,
  'anonymous: sees no key'
);

select throws_ok(
  $$ select * from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Backdoor', 'admin') $$,
  '42501', 'new row violates row-level security policy for table "api_keys"',
  'anonymous: cannot issue a key for A'
);

select is_empty(
  $$ update plaudit.api_keys set revoked_at = now() returning id $$,
  'anonymous: an unfiltered revoke affects no row'
);

select is_empty(
  $$ select * from plaudit.rotate_api_key((select id from keys where label = 'a_read')) $$,
  'anonymous: rotating A''s key answers no row'
);

------------
--- Anonymous public routes (plaudit_public)
------------
select tests.act_as_public();

select throws_ok(
  $$ select id from plaudit.api_keys $$,
  '42501', 'permission denied for table api_keys',
  'plaudit_public: cannot read api keys'
);

select throws_ok(
  $$ select * from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Backdoor', 'admin') $$,
  '42501', 'permission denied for function issue_api_key',
  'plaudit_public: cannot issue keys'
);

------------
--- The authenticator login role: old keys stop working, successors work
------------
select tests.clear_persona();
set local session authorization plaudit_authenticator;

select throws_ok(
  $$ select id from plaudit.api_keys $$,
  '42501', 'permission denied for table api_keys',
  'authenticator: cannot read api keys directly'
);

select is_empty(
  $$ select * from plaudit.authenticate(
       sha256(convert_to((select key from keys where label = 'a_rotate'), 'UTF8')), 600) $$,
  'authenticator: the rotated (old) key no longer authenticates'
);

select results_eq(
  $$ select key_id, org_id, scope from plaudit.authenticate(
       sha256(convert_to((select key from keys where label = 'a_rotated'), 'UTF8')), 600) $$,
  $$ select id, 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, 'write'::text from keys where label = 'a_rotated' $$,
  'authenticator: the successor key authenticates for A with the same scope'
);

select is_empty(
  $$ select * from plaudit.authenticate(
       sha256(convert_to((select key from keys where label = 'a_spare'), 'UTF8')), 600) $$,
  'authenticator: the key A revoked no longer authenticates'
);

select results_eq(
  $$ select key_id, org_id from plaudit.authenticate(
       sha256(convert_to((select key from keys where label = 'a_read'), 'UTF8')), 600) $$,
  $$ select id, 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid from keys where label = 'a_read' $$,
  'authenticator: the key the stranger tried to revoke and rotate still authenticates'
);

reset session authorization;

------------
--- Superuser: A's keys carry only A's own changes
------------

select results_eq(
  $$ select k.label, a.org_id, a.revoked_at is null, a.replaced_by is null
       from plaudit.api_keys a join keys k using (id) order by k.label $$,
  $$ values ('a_issued', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, true, true),
            ('a_read', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, true, true),
            ('a_rotate', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, false, false),
            ('a_rotated', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, true, true),
            ('a_spare', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, false, true),
            ('b_main', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'::uuid, true, true) $$,
  'superuser: each key is where it was issued, revoked only by its own tenant'
);

select is(
  (select count(*)::integer from plaudit.api_keys where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'),
  5,
  'superuser: A has exactly the five keys its own tenant made'
);

select is(
  (select scope from plaudit.api_keys where id = (select id from keys where label = 'a_read')),
  'read',
  'superuser: A''s read key still has the read scope'
);

------------
--- Revocation is permanent: revoked_at and replaced_by never change once set
------------
insert into keys (label, id, key)
  select 'a_live', id, key from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Kiosk', 'read');
insert into keys (label, id, key)
  select 'a_to_rotate', id, key from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Backup', 'read');

select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');

select results_eq(
  $$ update plaudit.api_keys set revoked_at = now()
      where id = (select id from keys where label = 'a_live') returning id $$,
  $$ select id from keys where label = 'a_live' $$,
  'tenant A: revoking a live key still works'
);

select throws_ok(
  $$ update plaudit.api_keys set revoked_at = null where id = (select id from keys where label = 'a_live') $$,
  '23001', 'an API key''s revocation is permanent: revoked_at cannot be cleared or changed once set',
  'tenant A: cannot un-revoke its own key'
);

select throws_ok(
  $$ update plaudit.api_keys set revoked_at = null, replaced_by = null
      where id = (select id from keys where label = 'a_rotate') $$,
  '23001', 'an API key''s revocation is permanent: revoked_at cannot be cleared or changed once set',
  'tenant A: cannot undo the rotation of its own key'
);

select throws_ok(
  $$ update plaudit.api_keys set revoked_at = '2100-01-01'
      where id = (select id from keys where label = 'a_spare') $$,
  '23001', 'an API key''s revocation is permanent: revoked_at cannot be cleared or changed once set',
  'tenant A: cannot move the revocation time of its own key'
);

select throws_ok(
  $$ update plaudit.api_keys set replaced_by = null where id = (select id from keys where label = 'a_rotate') $$,
  '23001', 'an API key''s successor is permanent: replaced_by cannot be cleared or changed once set',
  'tenant A: cannot detach a rotated key from its successor'
);

select throws_ok(
  $$ update plaudit.api_keys set replaced_by = (select id from keys where label = 'a_read')
      where id = (select id from keys where label = 'a_rotate') $$,
  '23001', 'an API key''s successor is permanent: replaced_by cannot be cleared or changed once set',
  'tenant A: cannot point a rotated key at another successor'
);

select lives_ok(
  $$ update plaudit.api_keys set revoked_at = revoked_at, replaced_by = replaced_by
      where id in (select id from keys where label like 'a\_%') $$,
  'tenant A: an update that leaves revoked_at and replaced_by as they are passes'
);

select lives_ok(
  $$ insert into keys (label, id, key)
       select 'a_to_rotate_successor', id, key
         from plaudit.rotate_api_key((select id from keys where label = 'a_to_rotate')) $$,
  'tenant A: rotation still works'
);

select results_eq(
  $$ select revoked_at is not null, replaced_by from plaudit.api_keys
      where id = (select id from keys where label = 'a_to_rotate') $$,
  $$ select true, id from keys where label = 'a_to_rotate_successor' $$,
  'tenant A: the rotated key is revoked and points at its successor'
);

select tests.clear_persona();

-- The table's owner is bound too.
select tests.act_as_owner();
select is(
  current_user::text,
  (select pg_get_userbyid(relowner)::text from pg_class where oid = 'plaudit.api_keys'::regclass),
  'owner: these checks run as the owner of plaudit.api_keys'
);

select throws_ok(
  $$ update plaudit.api_keys set revoked_at = null where id = (select id from keys where label = 'a_live') $$,
  '23001', 'an API key''s revocation is permanent: revoked_at cannot be cleared or changed once set',
  'owner: cannot un-revoke a key'
);

select throws_ok(
  $$ update plaudit.api_keys set replaced_by = null where id = (select id from keys where label = 'a_to_rotate') $$,
  '23001', 'an API key''s successor is permanent: replaced_by cannot be cleared or changed once set',
  'owner: cannot detach a rotated key from its successor'
);

select results_eq(
  $$ select k.label, a.revoked_at is not null, a.replaced_by is not null
       from plaudit.api_keys a join keys k using (id)
      where k.label in ('a_live', 'a_rotate', 'a_spare', 'a_to_rotate', 'a_to_rotate_successor')
      order by k.label $$,
  $$ values ('a_live', true, false), ('a_rotate', true, true), ('a_spare', true, false),
            ('a_to_rotate', true, true), ('a_to_rotate_successor', false, false) $$,
  'owner: revoked keys stay revoked and rotated keys keep their successor'
);

set local session authorization plaudit_authenticator;

select is_empty(
  $$ select * from plaudit.authenticate(
       sha256(convert_to((select key from keys where label = 'a_live'), 'UTF8')), 600) $$,
  'authenticator: the key whose un-revocation was refused does not authenticate'
);

reset session authorization;

------------
--- Rotation with a grace period: both keys work until the old one's revoked_at
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');

insert into keys (label, id, key)
  select 'a_fleet', id, key from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Fleet', 'write');
insert into keys (label, id, key)
  select 'a_fleet_successor', id, key
    from plaudit.rotate_api_key((select id from keys where label = 'a_fleet'), 3600);

select is(
  (select revoked_at from plaudit.api_keys where id = (select id from keys where label = 'a_fleet')),
  now() + interval '1 hour',
  'tenant A: a rotation with a grace period of 3,600 s revokes the old key an hour ahead'
);

select throws_ok(
  $$ select * from plaudit.rotate_api_key((select id from keys where label = 'a_fleet_successor'), 86401) $$,
  '22023', 'expires_in_seconds: must be between 0 and 86400',
  'tenant A: a grace period over 24 hours is refused'
);

select is_empty(
  $$ select * from plaudit.rotate_api_key((select id from keys where label = 'a_fleet'), 60) $$,
  'tenant A: a key in its grace period cannot be rotated again'
);

select throws_ok(
  $$ update plaudit.api_keys set revoked_at = now() + interval '2 hours'
      where id = (select id from keys where label = 'a_fleet') $$,
  '23001', 'an API key''s revocation is permanent: revoked_at cannot be cleared or changed once set',
  'tenant A: cannot lengthen a grace period'
);

select throws_ok(
  $$ update plaudit.api_keys set revoked_at = now() + interval '25 hours'
      where id = (select id from keys where label = 'a_fleet_successor') $$,
  '23514', 'an API key''s revocation may lie at most 24 hours ahead',
  'tenant A: cannot set a live key''s revocation more than 24 hours ahead'
);

select tests.clear_persona();
set local session authorization plaudit_authenticator;

select results_eq(
  $$ select count(*)::integer from keys k,
       lateral plaudit.authenticate(sha256(convert_to(k.key, 'UTF8')), 600) a
      where k.label in ('a_fleet', 'a_fleet_successor') $$,
  $$ values (2) $$,
  'authenticator: during the grace period the old key and its successor both authenticate'
);

reset session authorization;
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');

select lives_ok(
  $$ update plaudit.api_keys set revoked_at = now() where id = (select id from keys where label = 'a_fleet') $$,
  'tenant A: a key in its grace period can be revoked at once'
);

select tests.clear_persona();
set local session authorization plaudit_authenticator;

select is_empty(
  $$ select * from plaudit.authenticate(
       sha256(convert_to((select key from keys where label = 'a_fleet'), 'UTF8')), 600) $$,
  'authenticator: the old key stops at once when its grace period is cut short'
);

reset session authorization;

------------
--- Key material: no plaintext stored, only SHA-256; prefix and checksum
------------

select matches(
  (select key from keys where label = 'a_issued'),
  '^rk_[0-9A-Za-z]{38}$',
  'key: rk_ followed by 38 base62 characters'
);

select is(
  (select a.prefix from plaudit.api_keys a join keys k using (id) where k.label = 'a_issued'),
  (select left(key, 11) from keys where label = 'a_issued'),
  'key: the stored prefix is the first 11 characters of the key'
);

select is(
  (select a.key_hash from plaudit.api_keys a join keys k using (id) where k.label = 'a_issued'),
  (select sha256(convert_to(key, 'UTF8')) from keys where label = 'a_issued'),
  'key: key_hash is the SHA-256 of the whole key'
);

select is(
  (select plaudit.api_key_checksum(substr(key, 4, 32)) from keys where label = 'a_issued'),
  (select right(key, 6) from keys where label = 'a_issued'),
  'key: the last six characters are the checksum of the 32-character body'
);

-- Every key made in this file, the rotated successor included, has the same shape.
select is_empty(
  $$ select k.label
       from keys k join plaudit.api_keys a using (id)
      where k.key !~ '^rk_[0-9A-Za-z]{38}$'
         or a.prefix <> left(k.key, 11)
         or a.key_hash <> sha256(convert_to(k.key, 'UTF8'))
         or plaudit.api_key_checksum(substr(k.key, 4, 32)) <> right(k.key, 6) $$,
  'key: every issued or rotated key has prefix, hash and checksum right'
);

select is(
  (select count(distinct key)::integer from keys),
  (select count(*)::integer from keys),
  'key: no two issued keys are equal'
);

-- No text column of api_keys holds the key (the catalog decides which columns are text).
select is_empty(
  (select string_agg(format('select %L as col from plaudit.api_keys where strpos(%I::text, %L) > 0',
                            a.attname, a.attname, (select key from keys where label = 'a_issued')),
                     ' union all ')
     from pg_attribute a
    where a.attrelid = 'plaudit.api_keys'::regclass and a.attnum > 0 and not a.attisdropped
      and a.atttypid in ('text'::regtype, 'varchar'::regtype, 'bpchar'::regtype, 'name'::regtype)),
  'key: no text column of plaudit.api_keys contains the plaintext key'
);

-- Nor does any row of any table of the schema hold the secret part of any key (what follows
-- the stored prefix).
select is_empty(
  (select string_agg(format('select %L as tbl from %s t, keys k where strpos(t::text, substr(k.key, 12)) > 0',
                            c.oid::regclass, c.oid::regclass),
                     ' union all ')
     from pg_class c
    where c.relnamespace = 'plaudit'::regnamespace and c.relkind in ('r', 'p')),
  'key: the secret part of a key appears in no row of schema plaudit'
);

-- Known vectors, shared with functions/_shared/api-keys/format.ts.
select is(plaudit.api_key_checksum('abc'), '3Pia9n', 'checksum: known vector abc');
select is(plaudit.api_key_checksum('xyz'), '0zLl33', 'checksum: known vector xyz (leading zero digit)');
select is(plaudit.api_key_checksum('café'), '2R4rJ6', 'checksum: known vector with a non-ASCII body (UTF-8)');
select is(plaudit.api_key_checksum('0123456789ABCDEFGHIJKLMNOPQRSTUV'), '1Ccxw3',
  'checksum: known vector for a 32-character body');

select * from finish();
rollback;
