-- plaudit.authenticate, hit_rate_limit and prune_rate_limits: one call finds a key by its hash,
-- counts the request in a fixed one-minute window and answers the rate limit decision.
-- The API calls authenticate as the login role plaudit_authenticator (before it switches role),
-- and public routes call hit_rate_limit as plaudit_public.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(31);

-- Fixtures (as the superuser): tenant A (Acme) and its keys. Plaintext keys are kept in the
-- temporary table `keys`; the answers of each call in `calls`. Every role may use both.
insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme');

create temporary table keys (label text primary key, id uuid not null, key text not null, prefix text not null);
create temporary table calls (
  label text not null, n integer not null, key_id uuid, org_id uuid, scope text, prefix text,
  rate_limit integer, allowed boolean, remaining integer, reset_at bigint,
  primary key (label, n)
);
grant select, insert on keys, calls to public;

insert into keys select 'default', id, key, prefix
  from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Dashboard', 'read');
insert into keys select 'three', id, key, prefix
  from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Tiny', 'write', 3);
insert into keys select 'revoked', id, key, prefix
  from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Gone', 'admin');
insert into keys select 'recent', id, key, prefix
  from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Busy', 'read');
insert into keys select 'stale', id, key, prefix
  from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Idle', 'read');

update plaudit.api_keys set revoked_at = now() - interval '1 hour'
  where id = (select id from keys where label = 'revoked');
update plaudit.api_keys set last_used_at = now() - interval '30 seconds'
  where id = (select id from keys where label = 'recent');
update plaudit.api_keys set last_used_at = now() - interval '2 minutes'
  where id = (select id from keys where label = 'stale');

------------
--- The authenticator login role: authenticate
------------
set local session authorization plaudit_authenticator;

select is_empty(
  $$ select * from plaudit.authenticate(sha256(convert_to('rk_notakey', 'UTF8')), 600) $$,
  'authenticate: an unknown hash answers no row'
);

select is_empty(
  $$ select * from plaudit.authenticate('\x00'::bytea, 600) $$,
  'authenticate: a value that is not a SHA-256 answers no row'
);

select is_empty(
  $$ select * from plaudit.authenticate(
       sha256(convert_to((select key from keys where label = 'revoked'), 'UTF8')), 600) $$,
  'authenticate: a revoked key answers no row'
);

-- The key the client sent must be hashed: its plaintext bytes are not a hash.
select is_empty(
  $$ select * from plaudit.authenticate(convert_to((select key from keys where label = 'default'), 'UTF8'), 600) $$,
  'authenticate: the plaintext key itself does not authenticate'
);

insert into calls
  select 'default', 1, a.* from plaudit.authenticate(
    sha256(convert_to((select key from keys where label = 'default'), 'UTF8')), 600) a;

select results_eq(
  $$ select key_id, org_id, scope, prefix, rate_limit, allowed, remaining from calls where label = 'default' $$,
  $$ select id, 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid, 'read'::text, prefix, 600, true, 599
       from keys where label = 'default' $$,
  'authenticate: a valid key answers its org, scope, prefix and the default limit passed in'
);

-- A key with rate_limit_per_minute = 3, called four times within the minute.
insert into calls select 'three', 1, a.* from plaudit.authenticate(
  sha256(convert_to((select key from keys where label = 'three'), 'UTF8')), 600) a;
insert into calls select 'three', 2, a.* from plaudit.authenticate(
  sha256(convert_to((select key from keys where label = 'three'), 'UTF8')), 600) a;
insert into calls select 'three', 3, a.* from plaudit.authenticate(
  sha256(convert_to((select key from keys where label = 'three'), 'UTF8')), 600) a;
insert into calls select 'three', 4, a.* from plaudit.authenticate(
  sha256(convert_to((select key from keys where label = 'three'), 'UTF8')), 600) a;

select results_eq(
  $$ select distinct key_id, scope, rate_limit from calls where label = 'three' $$,
  $$ select id, 'write'::text, 3 from keys where label = 'three' $$,
  'authenticate: a key''s own rate_limit_per_minute overrides the default'
);

select results_eq(
  $$ select n, allowed, remaining from calls where label = 'three' order by n $$,
  $$ values (1, true, 2), (2, true, 1), (3, true, 0), (4, false, 0) $$,
  'authenticate: remaining counts down to 0 and allowed flips to false on the fourth call'
);

select results_eq(
  $$ select distinct reset_at from calls $$,
  $$ select extract(epoch from date_trunc('minute', now()) + interval '1 minute')::bigint $$,
  'authenticate: reset_at is the next minute boundary, in epoch seconds'
);

select ok(
  (select bool_and(reset_at % 60 = 0
                   and reset_at > extract(epoch from now())
                   and reset_at <= extract(epoch from now()) + 60) from calls),
  'authenticate: reset_at is a whole minute, within the next 60 seconds'
);

-- Limits are per key: the exhausted key does not spend the other key's allowance.
insert into calls select 'default', 2, a.* from plaudit.authenticate(
  sha256(convert_to((select key from keys where label = 'default'), 'UTF8')), 600) a;

select results_eq(
  $$ select allowed, remaining from calls where label = 'default' and n = 2 $$,
  $$ values (true, 598) $$,
  'authenticate: each key counts in its own bucket'
);

-- The default is what the caller passes now, not something stored.
insert into calls select 'default', 3, a.* from plaudit.authenticate(
  sha256(convert_to((select key from keys where label = 'default'), 'UTF8')), 5) a;

select results_eq(
  $$ select rate_limit, allowed, remaining from calls where label = 'default' and n = 3 $$,
  $$ values (5, true, 2) $$,
  'authenticate: a key without its own limit follows the default passed in'
);

insert into calls select 'recent', 1, a.* from plaudit.authenticate(
  sha256(convert_to((select key from keys where label = 'recent'), 'UTF8')), 600) a;
insert into calls select 'stale', 1, a.* from plaudit.authenticate(
  sha256(convert_to((select key from keys where label = 'stale'), 'UTF8')), 600) a;

-- The login role can authenticate, and nothing else.
select throws_ok(
  $$ select * from plaudit.hit_rate_limit('key:whatever', 1000000) $$,
  '42501', 'permission denied for function hit_rate_limit',
  'authenticator: cannot call hit_rate_limit directly'
);

select throws_ok(
  $$ update plaudit.api_keys set last_used_at = null $$,
  '42501', 'permission denied for table api_keys',
  'authenticator: cannot write api_keys directly'
);

------------
--- Tenant A as plaudit_api: no authenticating from inside a request
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');

select throws_ok(
  $$ select * from plaudit.authenticate(sha256(convert_to('rk_guess', 'UTF8')), 600) $$,
  '42501', 'permission denied for function authenticate',
  'tenant A: the API role cannot call authenticate (no key-hash oracle inside a request)'
);

select throws_ok(
  $$ select * from plaudit.hit_rate_limit('key:whatever', 1000000) $$,
  '42501', 'permission denied for function hit_rate_limit',
  'tenant A: the API role cannot bump rate limit counters'
);

------------
--- Anonymous public routes (plaudit_public): hit_rate_limit
------------
select tests.act_as_public();
set local plaudit.org_id = '';

create temporary table hits (bucket text, n integer, allowed boolean, remaining integer, reset_at bigint);

insert into hits select 'test:ip:1', 1, h.* from plaudit.hit_rate_limit('test:ip:1', 2) h;
insert into hits select 'test:ip:1', 2, h.* from plaudit.hit_rate_limit('test:ip:1', 2) h;
insert into hits select 'test:ip:2', 1, h.* from plaudit.hit_rate_limit('test:ip:2', 2) h;
insert into hits select 'test:ip:1', 3, h.* from plaudit.hit_rate_limit('test:ip:1', 2) h;

select results_eq(
  $$ select bucket, n, allowed, remaining from hits order by bucket, n $$,
  $$ values ('test:ip:1', 1, true, 1), ('test:ip:1', 2, true, 0), ('test:ip:1', 3, false, 0),
            ('test:ip:2', 1, true, 1) $$,
  'hit_rate_limit: counts each bucket independently and refuses past the limit'
);

select results_eq(
  $$ select distinct reset_at from hits $$,
  $$ select extract(epoch from date_trunc('minute', now()) + interval '1 minute')::bigint $$,
  'hit_rate_limit: reset_at is the next minute boundary'
);

select throws_ok(
  $$ delete from plaudit.rate_limit_counters where bucket = 'test:ip:1' $$,
  '42501', 'permission denied for table rate_limit_counters',
  'plaudit_public: cannot reset a counter by deleting it'
);

select throws_ok(
  $$ select bucket, hits from plaudit.rate_limit_counters $$,
  '42501', 'permission denied for table rate_limit_counters',
  'plaudit_public: cannot read the counters'
);

select throws_ok(
  $$ select plaudit.prune_rate_limits() $$,
  '42501', 'permission denied for function prune_rate_limits',
  'plaudit_public: cannot prune the counters'
);

select tests.clear_persona();
reset session authorization;

------------
--- Superuser: what authenticate and hit_rate_limit wrote
------------

select results_eq(
  $$ select c.hits from plaudit.rate_limit_counters c
      where c.bucket = 'key:' || (select id from keys where label = 'three')
        and c.window_start = date_trunc('minute', now()) $$,
  $$ values (4) $$,
  'authenticate: counts in the bucket key:<key id>, in the current window'
);

select results_eq(
  $$ select bucket, hits from plaudit.rate_limit_counters
      where bucket like 'test:%' and window_start = date_trunc('minute', now()) order by bucket $$,
  $$ values ('test:ip:1', 3), ('test:ip:2', 1) $$,
  'hit_rate_limit: one counter row per bucket and window'
);

select results_eq(
  $$ select last_used_at from plaudit.api_keys where id = (select id from keys where label = 'default') $$,
  $$ values (now()) $$,
  'authenticate: notes last_used_at on a key never used before'
);

select results_eq(
  $$ select last_used_at from plaudit.api_keys where id = (select id from keys where label = 'recent') $$,
  $$ values (now() - interval '30 seconds') $$,
  'authenticate: leaves last_used_at alone when it is less than a minute old'
);

select results_eq(
  $$ select last_used_at from plaudit.api_keys where id = (select id from keys where label = 'stale') $$,
  $$ values (now()) $$,
  'authenticate: refreshes last_used_at when it is more than a minute old'
);

select is(
  (select last_used_at from plaudit.api_keys where id = (select id from keys where label = 'revoked')),
  null,
  'authenticate: a refused (revoked) key is not marked as used'
);

------------
--- prune_rate_limits
------------

insert into plaudit.rate_limit_counters (bucket, window_start, hits) values
  ('test:old', date_trunc('minute', now()) - interval '5 minutes', 7),
  ('test:two-ago', date_trunc('minute', now()) - interval '2 minutes', 1),
  ('test:previous', date_trunc('minute', now()) - interval '1 minute', 2),
  ('test:ip:1', date_trunc('minute', now()) - interval '3 minutes', 9);

select cmp_ok(
  plaudit.prune_rate_limits(), '>=', 3,
  'prune_rate_limits: reports the windows it removed'
);

select results_eq(
  $$ select bucket, window_start - date_trunc('minute', now()), hits
       from plaudit.rate_limit_counters where bucket like 'test:%' order by bucket, window_start $$,
  $$ values ('test:ip:1', interval '0', 3), ('test:ip:2', interval '0', 1),
            ('test:previous', interval '-1 minute', 2) $$,
  'prune_rate_limits: removes windows older than the previous minute, keeps the previous and current ones'
);

select is(
  plaudit.prune_rate_limits(),
  0,
  'prune_rate_limits: a second run finds nothing of ours to remove'
);

-- A hit in the previous window does not count in the current one.
select results_eq(
  $$ select allowed, remaining from plaudit.hit_rate_limit('test:previous', 2) $$,
  $$ values (true, 1) $$,
  'hit_rate_limit: a new minute starts a new count'
);

select results_eq(
  $$ select allowed, remaining from plaudit.hit_rate_limit('test:ip:1', 2) $$,
  $$ values (false, 0) $$,
  'hit_rate_limit: pruning old windows does not reset the current one'
);

select * from finish();
rollback;
