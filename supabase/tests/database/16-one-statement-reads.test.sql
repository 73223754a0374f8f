-- The one-statement reads (plaudit.api_organization, api_review, api_review_first_page, and the public feed's): the authenticator
-- calls one per request; it authenticates the key (plaudit.authenticate: counted, rate-limited),
-- and when the key may read, runs as plaudit_api with the key's organization and answers the body
-- as JSON text beside the key's row.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(21);

insert into plaudit.organizations (id, name, slug, website, created_at) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme "Coffee"', 'acme', null, '2026-01-02T03:04:05.678Z'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex', 'https://globex.example', '2026-01-01Z');
insert into plaudit.review_forms (id, org_id, name) values
  ('aaaaaaaa-0000-4000-8000-00000000000f', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Form A'),
  ('bbbbbbbb-0000-4000-8000-00000000000f', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Form B');
insert into plaudit.reviews (id, org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                             verification_status, custom_fields, created_at) values
  ('aaaaaaaa-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'aaaaaaaa-0000-4000-8000-00000000000f',
   5, null, 'Line "one"' || E'\n' || 'two', 'Ann', 'ann@example.com', 'unverified', '{"size": "L", "gift": true}',
   '2026-02-01T00:00:00Z'),
  ('aaaaaaaa-0000-4000-8000-000000000002', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'aaaaaaaa-0000-4000-8000-00000000000f',
   2, 'Meh', 'Slow', 'Bo', 'bo@example.com', 'verified', '{}', '2026-02-02T00:00:00Z'),
  ('bbbbbbbb-0000-4000-8000-000000000001', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'bbbbbbbb-0000-4000-8000-00000000000f',
   4, null, 'Globex review', 'Cy', 'cy@example.com', 'unverified', '{}', '2026-02-03T00:00:00Z');

create temporary table keys (label text primary key, key text not null);
grant select on keys to public;
insert into keys select 'a_read', key from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Read', 'read');
insert into keys select 'a_tiny', key from plaudit.issue_api_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Tiny', 'read', 1);
insert into keys select 'b_read', key from plaudit.issue_api_key('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Read', 'read');
create temporary table expected as select plaudit.public_version('acme') as version;
grant select on expected to public;
create function pg_temp.h(label text) returns bytea language sql as $$
  select sha256(convert_to((select key from keys where keys.label = h.label), 'UTF8')) $$;

------------
--- The authenticator, as the API calls them
------------
set local session authorization plaudit_authenticator;

select is(
  (select body from plaudit.api_organization(pg_temp.h('a_read'), 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600)),
  '{"id":"aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa","name":"Acme \"Coffee\"","slug":"acme","website":null,"created_at":"2026-01-02T03:04:05.678Z"}',
  'authenticator: the organization of the key, as compact JSON'
);
select tests.clear_persona();

select is(current_user::text, 'plaudit_authenticator', 'authenticator: the role switch ends with the read (here: reset)');

select is(
  (select body from plaudit.api_organization(pg_temp.h('a_read'), 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 600)),
  null,
  'authenticator: another organization than the key''s answers nothing'
);
select is(current_user::text, 'plaudit_authenticator', 'authenticator: a refused read does not switch the role');

select is_empty(
  $$ select * from plaudit.api_organization('\x00'::bytea, 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600) $$,
  'authenticator: an unknown key answers no row'
);

select is(
  (select body from plaudit.api_review(pg_temp.h('a_read'), 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600, 'aaaaaaaa-0000-4000-8000-000000000001')),
  '{"id":"aaaaaaaa-0000-4000-8000-000000000001","rating":5,"title":null,"content":"Line \"one\"\ntwo","reviewer_name":"Ann","reviewer_email":"ann@example.com","verification_status":"unverified","verification_method":null,"verification_at":null,"source":"form","source_platform":null,"imported_as_verified":null,"incentive":null,"is_hidden":false,"created_at":"2026-02-01T00:00:00.000Z","form_id":"aaaaaaaa-0000-4000-8000-00000000000f","order_id":null,"product":null,"language":null,"custom_fields":{"gift":true,"size":"L"},"media":[],"reply":null}',
  'authenticator: a review as compact JSON, custom fields included'
);
select tests.clear_persona();

select is(
  (select body from plaudit.api_review(pg_temp.h('a_read'), 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600, 'bbbbbbbb-0000-4000-8000-000000000001')),
  null,
  'authenticator: another organization''s review is not found (row-level security)'
);
select tests.clear_persona();

select results_eq(
  $$ select array(select r ->> 'id' from jsonb_array_elements(body::jsonb -> 'data') r), body::jsonb -> 'meta'
       from plaudit.api_review_first_page(pg_temp.h('a_read'), 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600) $$,
  $$ values (array['aaaaaaaa-0000-4000-8000-000000000002', 'aaaaaaaa-0000-4000-8000-000000000001'],
             '{"total": 2, "page": 1, "limit": 20, "totalPages": 1}'::jsonb) $$,
  'authenticator: the list''s first page, newest first, only the key''s organization''s reviews, with its meta'
);
select tests.clear_persona();

select is(
  (select body from plaudit.api_review_first_page(pg_temp.h('a_read'), 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600))::jsonb -> 'data' -> 1,
  (select body from plaudit.api_review(pg_temp.h('a_read'), 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600, 'aaaaaaaa-0000-4000-8000-000000000001'))::jsonb,
  'authenticator: a review of the list reads as the review itself'
);
select tests.clear_persona();

select results_eq(
  $$ select org_id, body from plaudit.api_review_first_page(pg_temp.h('b_read'), 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600) $$,
  $$ values ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'::uuid, null::text) $$,
  'authenticator: another organization''s list answers the key''s row and no body'
);

-- A key that has used up its minute (plaudit.authenticate counted it) reads nothing.
select plaudit.authenticate(pg_temp.h('a_tiny'), 600);
select plaudit.authenticate(pg_temp.h('a_tiny'), 600);
select results_eq(
  $$ select allowed, body from plaudit.api_organization(pg_temp.h('a_tiny'), 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600) $$,
  $$ values (false, null::text) $$,
  'authenticator: a key over its rate limit (this read counted too) reads nothing'
);

select is(
  plaudit.begin_api_read(pg_temp.h('a_read'), null, 600, 'write'),
  false,
  'authenticator: a read key does not pass for a write'
);

select is(
  plaudit.public_read_version('acme'),
  (select version from expected),
  'authenticator: the public version, read as plaudit_public'
);
select is(current_user::text, 'plaudit_public', 'authenticator: the public read switched to plaudit_public');
select tests.clear_persona();

select is(
  (select body::jsonb -> 'meta' from plaudit.public_read_review_page('acme', 'embed', 1, 10, 'newest', null, false)),
  '{"total": 2, "page": 1, "limit": 10, "totalPages": 1}'::jsonb,
  'authenticator: a public page of reviews, with its meta'
);
select tests.clear_persona();

select is(
  (select json_build_array(profile ->> 'name', profile -> 'embed' ->> 'max_reviews',
                           (select json_agg(i ->> 'reviewer_name') from json_array_elements(items) i))::jsonb
     from plaudit.public_read_fragment('acme', 1, 'lowest')),
  '["Acme \"Coffee\"", "10", ["Bo"]]'::jsonb,
  'authenticator: a fragment''s read, the profile and the first reviews in the order and number asked'
);
select tests.clear_persona();
select is(
  (select json_array_length(items) from plaudit.public_read_fragment('acme', null, 'newest')),
  2,
  'authenticator: without a limit, a fragment reads the widget''s number of reviews'
);
select tests.clear_persona();
select results_eq(
  $$ select version is null, profile is null, items is null from plaudit.public_read_fragment('nobody', 5, 'newest') $$,
  $$ values (true, true, true) $$,
  'authenticator: an unknown business''s fragment reads nothing'
);
select tests.clear_persona();

reset session authorization;

------------
--- The runtime roles cannot call them
------------
set local role plaudit_api;
select throws_ok(
  $$ select (select body from plaudit.api_organization('\x00'::bytea, 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600)) $$,
  '42501', 'permission denied for function api_organization',
  'plaudit_api: cannot call a read meant for the authenticator'
);
select throws_ok(
  $$ select (select body from plaudit.api_review_first_page('\x00'::bytea, 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 600)) $$,
  '42501', 'permission denied for function api_review_first_page',
  'plaudit_api: cannot call the list''s read meant for the authenticator'
);
select tests.clear_persona();
select tests.act_as_public();
select throws_ok(
  $$ select plaudit.begin_api_read('\x00'::bytea, null, 600, 'read') $$,
  '42501', 'permission denied for function begin_api_read',
  'plaudit_public: cannot enter a tenant'
);
select tests.clear_persona();

select * from finish();
rollback;
