-- Reviews: submission decided by the database, tenant isolation, and reviews that nobody can
-- delete or rewrite, the table owner included.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(40);

insert into plaudit.organizations (id, name, slug) values
  ('11000000-0000-4000-8000-000000000001', 'Owner Co', 'reviews-owner'),
  ('11000000-0000-4000-8000-000000000002', 'Stranger Co', 'reviews-stranger');
insert into plaudit.review_forms (id, org_id, name, verification_mode, custom_fields, is_active) values
  ('11000000-0000-4000-8000-0000000000f1', '11000000-0000-4000-8000-000000000001', 'Open', 'none',
   '[{"key":"size","label":"Size","type":"select","required":true,"options":["S","M"]},{"key":"n","label":"N","type":"number"}]', true),
  ('11000000-0000-4000-8000-0000000000f2', '11000000-0000-4000-8000-000000000001', 'Manual', 'manual', '[]', true),
  ('11000000-0000-4000-8000-0000000000f3', '11000000-0000-4000-8000-000000000001', 'Off', 'none', '[]', false),
  ('11000000-0000-4000-8000-0000000000f9', '11000000-0000-4000-8000-000000000002', 'Theirs', 'none', '[]', true);

create temporary table submitted (label text primary key, id uuid) on commit drop;
grant select, insert on submitted to plaudit_public, plaudit_api;

create function pg_temp.submit(p_form uuid, p_content text, p_email text default 'ada@example.com',
                               p_fields jsonb default '{"size":"S"}', p_honeypot boolean default false)
returns table (error_code text, error_message text, id uuid, verification_status text, error_constraint text,
               error_table text)
language sql as $$
  select s.error_code, s.error_message, s.id, s.verification_status, s.error_constraint, s.error_table
  from plaudit.submit_review(
    jsonb_populate_record(null::plaudit.review_submission, jsonb_build_object(
      'form_id', p_form, 'rating', 4, 'title', 'Title', 'content', p_content, 'reviewer_name', 'Ada',
      'reviewer_email', p_email, 'custom_fields', p_fields, 'honeypot', p_honeypot)),
    'submit:test', 1000, 'https://reviews.example') s
$$;

-- Anonymous / public role: submits through plaudit.submit_review only ----------------------------
select tests.act_as_public();


insert into submitted select 'open', id from pg_temp.submit('11000000-0000-4000-8000-0000000000f1', 'Good mug');
insert into submitted select 'manual', id from pg_temp.submit('11000000-0000-4000-8000-0000000000f2', 'Nice plate', p_fields => '{}');
insert into submitted select 'stranger', id from pg_temp.submit('11000000-0000-4000-8000-0000000000f9', 'Their review', p_fields => '{}');

select isnt((select id from submitted where label = 'open'), null, 'public: a valid submission is stored');
select results_eq(
  $$select error_code, error_message from pg_temp.submit('11000000-0000-4000-8000-0000000000f1', 'Good mug', 'ADA@example.com')$$,
  $$values ('23505'::text, 'This review was already submitted: the same e-mail address sent the same text to this form within the last 24 hours'::text)$$,
  'public: the same e-mail, form and text within 24 hours is refused');
select results_eq(
  $$select error_code, error_message from pg_temp.submit('11000000-0000-4000-8000-0000000000f1', 'Other', p_fields => '{}')$$,
  $$values ('23514'::text, 'custom_fields.size: is required'::text)$$,
  'public: a required custom field is enforced');
select results_eq(
  $$select error_code, error_message from pg_temp.submit('11000000-0000-4000-8000-0000000000f1', 'Other', p_fields => '{"size":"XL"}')$$,
  $$values ('23514'::text, 'custom_fields.size: must be one of S, M'::text)$$,
  'public: a select field takes only its options');
select results_eq(
  $$select error_code, error_message from pg_temp.submit('11000000-0000-4000-8000-0000000000f1', 'Other', p_fields => '{"size":"S","n":"3"}')$$,
  $$values ('23514'::text, 'custom_fields.n: must be a number'::text)$$,
  'public: a number field takes numbers');
select results_eq(
  $$select error_code, error_message from pg_temp.submit('11000000-0000-4000-8000-0000000000f3', 'Other', p_fields => '{}')$$,
  $$values ('P0002'::text, 'Review form not found'::text)$$,
  'public: an inactive form takes no reviews');
select results_eq(
  $$select error_code, error_constraint, error_table from pg_temp.submit('11000000-0000-4000-8000-0000000000f1', repeat('x', 5001))$$,
  $$values ('23514'::text, 'reviews_content_check'::text, 'reviews'::text)$$,
  'public: the table''s own limits answer the constraint that refused, as the database raised it');
select results_eq(
  $$select error_code, error_message from pg_temp.submit('11000000-0000-4000-8000-0000000000f1', 'Trap', p_honeypot => true)$$,
  $$values (null::text, null::text)$$,
  'public: a honeypot submission looks like a success');
select results_eq(
  $$select r.rate_allowed, r.error_code from plaudit.submit_review(jsonb_populate_record(null::plaudit.review_submission,
      '{"form_id": "11000000-0000-4000-8000-0000000000f3", "rating": 4, "content": "x", "reviewer_name": "A", "reviewer_email": "a@example.com"}'),
      'submit:tiny', 1, 'https://x') r
    union all
    select r.rate_allowed, r.error_code from plaudit.submit_review(jsonb_populate_record(null::plaudit.review_submission,
      '{"form_id": "11000000-0000-4000-8000-0000000000f1", "rating": 4, "content": "x", "reviewer_name": "A", "reviewer_email": "a@example.com", "custom_fields": {"size": "S"}}'),
      'submit:tiny', 1, 'https://x') r$$,
  $$values (true, 'P0002'::text), (false, 'rate_limited'::text)$$,
  'public: the per-address window counts refused submissions and then refuses');
select throws_ok($$select id from plaudit.reviews$$, '42501', 'permission denied for table reviews',
  'public: cannot read reviews');
select throws_ok(
  $$insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status)
    values ('11000000-0000-4000-8000-000000000001', '11000000-0000-4000-8000-0000000000f1', 5, 'x', 'y', 'z@example.com', 'verified')$$,
  '42501', 'permission denied for table reviews', 'public: cannot insert a review directly');

select tests.clear_persona();
select results_eq(
  $$select r.verification_status, r.is_hidden, r.org_id, r.custom_fields from plaudit.reviews r
    join submitted s on s.id = r.id order by s.label$$,
  $$values ('pending'::text, false, '11000000-0000-4000-8000-000000000001'::uuid, '{}'::jsonb),
           ('unverified', false, '11000000-0000-4000-8000-000000000001'::uuid, '{"size": "S"}'::jsonb),
           ('unverified', false, '11000000-0000-4000-8000-000000000002'::uuid, '{}'::jsonb)$$,
  'status follows the form''s mode; the organization is the form''s');
select is((select count(*)::integer from plaudit.reviews where content = 'Trap'), 0, 'the honeypot stored nothing');
select is((select count(*)::integer from plaudit.events e join submitted s on (e.data ->> 'id')::uuid = s.id
           where e.type = 'review.created'), 3, 'each stored review wrote review.created');
select is((select count(*)::integer from plaudit.events e join submitted s on (e.data ->> 'id')::uuid = s.id
           where e.data ? 'reviewer_email'), 0, 'no event carries the reviewer''s e-mail');

-- Owner tenant ------------------------------------------------------------------------------------
select tests.act_as_tenant('11000000-0000-4000-8000-000000000001');

select is((select count(*)::integer from plaudit.reviews), 2, 'owner: sees its own two reviews');
select lives_ok(
  $$update plaudit.reviews set is_hidden = true where id = (select id from submitted where label = 'open')$$,
  'owner: can hide its review');
select throws_ok(
  $$update plaudit.reviews set content = 'rewritten' where id = (select id from submitted where label = 'open')$$,
  '42501', 'permission denied for table reviews', 'owner: cannot rewrite a review''s text');
select throws_ok(
  $$update plaudit.reviews set org_id = '11000000-0000-4000-8000-000000000002' where id = (select id from submitted where label = 'open')$$,
  '42501', 'permission denied for table reviews', 'owner: cannot move a review to another tenant');
select throws_ok(
  $$delete from plaudit.reviews where id = (select id from submitted where label = 'open')$$,
  '42501', 'permission denied for table reviews', 'owner: cannot delete a review');
select throws_ok($$truncate plaudit.reviews$$, '42501', 'permission denied for table reviews', 'owner: cannot truncate');
select throws_ok(
  $$update plaudit.reviews set verification_status = 'verified' where id = (select id from submitted where label = 'open')$$,
  '23001', 'a review''s verification status can only move from pending to verified or rejected',
  'owner: an unverified review cannot become verified');
select throws_ok(
  $$update plaudit.reviews set verification_reason = 'because' where id = (select id from submitted where label = 'manual')$$,
  '23001', 'verification provenance changes only with the verification status',
  'owner: provenance cannot be edited on its own');
select throws_ok(
  $$select * from plaudit.submit_review(jsonb_populate_record(null::plaudit.review_submission,
      '{"form_id": "11000000-0000-4000-8000-0000000000f1", "rating": 4, "content": "x", "reviewer_name": "A", "reviewer_email": "a@example.com"}'),
      'x', 1, 'https://x')$$,
  '42501', 'permission denied for function submit_review', 'owner: the API role does not submit reviews');

-- Stranger tenant ---------------------------------------------------------------------------------
select tests.act_as_tenant('11000000-0000-4000-8000-000000000002');
select results_eq($$select content from plaudit.reviews$$, $$values ('Their review')$$,
  'stranger: sees only its own review');
select is_empty(
  $$update plaudit.reviews set is_hidden = false where id = (select id from submitted where label = 'open') returning id$$,
  'stranger: cannot unhide another tenant''s review');
select is_empty($$select * from plaudit.review_statistics where org_id = '11000000-0000-4000-8000-000000000001'$$,
  'stranger: cannot read another tenant''s statistics');

-- Table owner (the migration user): triggers refuse what privileges would allow ----------------------
select tests.clear_persona();
select is((select is_hidden from plaudit.reviews where id = (select id from submitted where label = 'open')), true,
  'the stranger''s update changed nothing');
select throws_ok(
  $$delete from plaudit.reviews where id = (select id from submitted where label = 'open')$$,
  '23001', 'reviews cannot be deleted; hide them through moderation instead', 'table owner: cannot delete a review');
select throws_ok($$truncate plaudit.reviews cascade$$,
  '23001', 'reviews cannot be deleted; hide them through moderation instead', 'table owner: cannot truncate reviews');
select throws_ok(
  $$update plaudit.reviews set content = 'rewritten' where id = (select id from submitted where label = 'open')$$,
  '23001', 'a review cannot be rewritten: only moderation and verification may change it',
  'table owner: cannot rewrite a review');
select throws_ok(
  $$update plaudit.reviews set rating = 1 where id = (select id from submitted where label = 'open')$$,
  '23001', 'a review cannot be rewritten: only moderation and verification may change it',
  'table owner: cannot change a rating');
select throws_ok(
  $$update plaudit.reviews set verification_status = 'pending' where id = (select id from submitted where label = 'open')$$,
  '23001', 'a review''s verification status can only move from pending to verified or rejected',
  'table owner: a status never moves backwards');
select throws_ok(
  $$delete from plaudit.organizations where id = '11000000-0000-4000-8000-000000000002'$$,
  '23503', null, 'an organization with reviews cannot be deleted (its reviews would go with it)');
select throws_ok(
  $$insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status)
    values ('11000000-0000-4000-8000-000000000002', '11000000-0000-4000-8000-0000000000f1', 5, 'x', 'y', 'z@example.com', 'unverified')$$,
  '23503', null, 'a review belongs to its form''s organization');

-- Platform checks cover the new tables --------------------------------------------------------------
select is_empty(
  $$select c.relname from pg_class c
    where c.relnamespace = 'plaudit'::regnamespace and c.relkind = 'r'
      and c.relname in ('review_forms', 'reviews', 'review_statistics', 'moderation_trail', 'moderation_chain_heads',
                        'orders', 'review_verification_tokens', 'public_profiles')
      and not c.relrowsecurity$$,
  'every review table has row-level security');
select is((select count(*)::integer from pg_class c
           where c.relnamespace = 'plaudit'::regnamespace and c.relkind = 'r'
             and c.relname in ('review_forms', 'reviews', 'review_statistics', 'moderation_trail', 'moderation_chain_heads',
                               'orders', 'review_verification_tokens', 'public_profiles')), 8,
  'the check above looks at all eight tables');
select is_empty(
  $$select polname from pg_policy p join pg_class c on c.oid = p.polrelid
    where c.relnamespace = 'plaudit'::regnamespace
      and c.relname in ('review_forms', 'reviews', 'review_statistics', 'moderation_trail', 'orders',
                        'review_verification_tokens', 'public_profiles')
      and (pg_get_expr(p.polqual, p.polrelid) is distinct from null
           and pg_get_expr(p.polqual, p.polrelid) not like '%org_id = ( SELECT plaudit.current_org_id()%')$$,
  'every policy compares org_id with the tenant setting');
select ok(not has_table_privilege('plaudit_api', 'plaudit.reviews', 'delete')
          and not has_table_privilege('plaudit_api', 'plaudit.reviews', 'truncate')
          and not has_table_privilege('plaudit_api', 'plaudit.reviews', 'insert')
          and not has_column_privilege('plaudit_api', 'plaudit.reviews', 'content', 'update'),
  'the API role may neither insert, delete, truncate nor rewrite reviews');
select ok(not has_column_privilege('plaudit_api', 'plaudit.review_verification_tokens', 'token_hash', 'select'),
  'the API role cannot read verification token hashes');

select * from finish();
rollback;
