-- plaudit.review_media and plaudit.media_upload_tokens: a reviewer adds photos to the review just
-- submitted with its upload token, a tenant with its own key; at most 6, the same bytes once;
-- the organization's Review shows every item, the public only the visible ones; another tenant
-- and the public role read nothing.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(27);

insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex');
insert into plaudit.review_forms (id, org_id, name) values
  ('aaaaaaaa-0000-4000-8000-00000000000f', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Form A');
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status,
                             created_at)
values ('aaaaaaaa-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
        'aaaaaaaa-0000-4000-8000-00000000000f', 5, 'Lovely', 'Ann', 'ann@example.com', 'unverified', now()),
       ('aaaaaaaa-0000-4000-8000-000000000002', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
        'aaaaaaaa-0000-4000-8000-00000000000f', 4, 'Older', 'Bob', 'bob@example.com', 'unverified',
        now() - interval '1 hour');

create function pg_temp.add(p_review uuid, p_token bytea, p_n integer, p_org_key boolean default false)
returns text language sql as $$
  select coalesce(a.refusal, case when a.created then 'created' else 'repeated' end)
    from plaudit.add_review_media(p_review, p_token, gen_random_uuid(), 'image', 'image/jpeg',
           'k/' || p_review || '/' || p_n || '-' || gen_random_uuid(), 't/' || gen_random_uuid(),
           'https://cdn.example/' || p_n || '.jpg', 'https://cdn.example/' || p_n || '-t.jpg', 800, 600, 1000,
           sha256(convert_to(p_n::text, 'UTF8'))) a
$$;
grant execute on function pg_temp.add(uuid, bytea, integer, boolean) to public;

----------------
--- The public role (a reviewer with the token of the review just submitted)
----------------
select tests.act_as_public();

select is(plaudit.issue_media_upload_token('aaaaaaaa-0000-4000-8000-000000000001', sha256('\x01')),
  now() + interval '24 hours', 'public: the review created in this transaction gets a token for 24 hours');
select is(plaudit.issue_media_upload_token('aaaaaaaa-0000-4000-8000-000000000001', sha256('\x02')), null,
  'public: ... once');
select is(plaudit.issue_media_upload_token('aaaaaaaa-0000-4000-8000-000000000002', sha256('\x03')), null,
  'public: an older review gets none');
select is(pg_temp.add('aaaaaaaa-0000-4000-8000-000000000001', sha256('\x01'), 1), 'created',
  'public: the token adds a photo to its review');
select is(pg_temp.add('aaaaaaaa-0000-4000-8000-000000000001', sha256('\x01'), 1), 'repeated',
  'public: the same bytes again answer the item already stored');
select is(pg_temp.add('aaaaaaaa-0000-4000-8000-000000000002', sha256('\x01'), 2), 'wrong_review',
  'public: the token adds nothing to another review');
select is(pg_temp.add('aaaaaaaa-0000-4000-8000-000000000001', sha256('\x09'), 2), 'invalid_token',
  'public: an unknown token adds nothing');
select is(pg_temp.add('aaaaaaaa-0000-4000-8000-000000000001', null, 2), 'not_found',
  'public: without a token, nothing');
select throws_ok($$ select * from plaudit.review_media $$, '42501', 'permission denied for table review_media',
  'public: reads no media table');
select throws_ok($$ select * from plaudit.media_upload_tokens $$, '42501',
  'permission denied for table media_upload_tokens', 'public: reads no tokens');
select is((select org_id from plaudit.check_review_media_upload('aaaaaaaa-0000-4000-8000-000000000001',
             sha256('\x01'), 'media:test', 100, 100)), 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'::uuid,
  'public: the check before reading the file passes the token, answering the organization');
select is((select refusal from plaudit.check_review_media_upload('aaaaaaaa-0000-4000-8000-000000000001',
             sha256('\x01'), 'media:test', 1, 100)), 'rate_limited',
  'public: ... until the address has sent its limit');
select tests.clear_persona();

update plaudit.media_upload_tokens set expires_at = now() - interval '1 second';
select tests.act_as_public();
select is(pg_temp.add('aaaaaaaa-0000-4000-8000-000000000001', sha256('\x01'), 3), 'invalid_token',
  'public: an expired token adds nothing');
select tests.clear_persona();

------------
--- Tenant A
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');

select results_eq(
  $$ select pg_temp.add('aaaaaaaa-0000-4000-8000-000000000001', null, n) from generate_series(2, 7) n $$,
  $$ values ('created'), ('created'), ('created'), ('created'), ('created'), ('too_many') $$,
  'tenant A: its key adds photos, at most 6 a review'
);
select is((select count(*)::integer from plaudit.review_media), 6, 'tenant A: reads its media');
select is((select refusal from plaudit.check_review_media_upload('aaaaaaaa-0000-4000-8000-000000000001', null,
             'media:a', 100, 100)), 'too_many', 'tenant A: a full review refuses before the file is read');
select throws_ok($$ update plaudit.review_media set is_hidden = true $$, '42501',
  'permission denied for table review_media', 'tenant A: changes no item by hand');
select tests.clear_persona();

update plaudit.review_media set is_hidden = true where position = 2;
create temporary table hidden_file as select storage_key from plaudit.review_media where position = 2;
grant select on hidden_file to public;

select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select is(
  (select json_array_length(plaudit.review_json(r, null)::json -> 'media') from plaudit.reviews r
    where r.id = 'aaaaaaaa-0000-4000-8000-000000000001'),
  6, 'tenant A: its Review shows every item, the hidden one too');
select tests.clear_persona();

select is(
  (select json_array_length(plaudit.public_review_items(array['aaaaaaaa-0000-4000-8000-000000000001'::uuid])::json
     -> 0 -> 'media')),
  5, 'owner: the public item shows the visible ones only');
select ok(plaudit.review_has_public_media('aaaaaaaa-0000-4000-8000-000000000001'),
  'owner: the review has public media');

select tests.act_as_public();
select is(plaudit.public_media_file((select storage_key from hidden_file)), null,
  'public: a hidden item''s file is not public');
select tests.clear_persona();

------------
--- Tenant B
------------
select tests.act_as_tenant('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');
select is((select count(*)::integer from plaudit.review_media), 0, 'tenant B: reads none of tenant A''s media');
select is(pg_temp.add('aaaaaaaa-0000-4000-8000-000000000002', null, 8), 'not_found',
  'tenant B: adds nothing to tenant A''s review');
select tests.clear_persona();

------------
--- Moderation: tenant A hides and shows its item; tenant B reaches none
------------
create temporary table first_item as select id from plaudit.review_media where position = 1;
grant select on first_item to public;

select tests.act_as_tenant('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');
select throws_ok(
  $$ select plaudit.moderate_review_media('aaaaaaaa-0000-4000-8000-000000000001', (select id from first_item), 'hide', 'x', 'api_key:b') $$,
  'P0002', 'Media not found', 'tenant B: hides nothing of tenant A''s');
select tests.clear_persona();

select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select lives_ok(
  $$ select plaudit.moderate_review_media('aaaaaaaa-0000-4000-8000-000000000001', (select id from first_item), 'hide', 'A face', 'api_key:a') $$,
  'tenant A: hides its item');
select throws_ok(
  $$ select plaudit.moderate_review_media('aaaaaaaa-0000-4000-8000-000000000001', (select id from first_item), 'hide', 'x', 'api_key:a') $$,
  '55000', 'Media is already hidden', 'tenant A: hiding it again is a conflict');
select results_eq(
  $$ select action, reason, actor from plaudit.moderation_trail order by seq $$,
  $$ select 'hide_media', 'media ' || id || ': A face', 'api_key:a' from first_item $$,
  'tenant A: the trail records it, naming the item');
select tests.clear_persona();

select * from finish();
rollback;
