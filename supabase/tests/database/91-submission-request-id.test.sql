-- A review request's id reaches the submission only from a checked token: the public submits a
-- form's review (plaudit.submit_review takes no request id: its source is `form` and its incentive
-- the form's), or a request's through its link's token (plaudit.submit_requested_review); the
-- function that takes a request id (plaudit.store_submitted_review) is executable by no runtime
-- role, so no caller marks a review `invitation` or takes another organization's request's
-- incentive by naming the request's id.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(8);

insert into plaudit.organizations (id, name, slug) values
  ('91000000-0000-4000-8000-000000000001', 'Shop Co', 'request-id-shop'),
  ('91000000-0000-4000-8000-000000000002', 'Stranger Co', 'request-id-stranger');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('91000000-0000-4000-8000-0000000000f1', '91000000-0000-4000-8000-000000000001', 'Open', 'none'),
  ('91000000-0000-4000-8000-0000000000f2', '91000000-0000-4000-8000-000000000002', 'Theirs', 'none');

select tests.act_as_tenant('91000000-0000-4000-8000-000000000001');
select plaudit.create_review_requests($$[
    {"index": 0, "email": "ada@example.com", "name": "Ada", "form_id": "91000000-0000-4000-8000-0000000000f1",
     "external_id": "order-1", "incentive": {"type": "gift", "description": "A secret gift"}}
  ]$$::jsonb, 'https://reviews.example');
select tests.clear_persona();

create temporary table request as
  select q.id, plaudit.review_request_token(q.id) as token from plaudit.review_requests q where q.external_id = 'order-1';
grant select on request to public;

create function pg_temp.submission(p_form uuid, p_email text, p_content text)
returns plaudit.review_submission
language sql as $$
  select jsonb_populate_record(null::plaudit.review_submission, jsonb_build_object(
    'form_id', p_form, 'rating', 5, 'content', p_content, 'reviewer_name', 'Eve', 'reviewer_email', p_email))
$$;

-- ---- The public ----------------------------------------------------------------------------------
select tests.act_as_public();
select throws_ok($$select * from plaudit.submit_review(
                     pg_temp.submission('91000000-0000-4000-8000-0000000000f2', 'eve@example.com', 'Stolen'),
                     'test:91', 100, 'https://reviews.example', (select id from request))$$,
  '42883', null, 'public: the submission takes no request id');
select throws_ok($$select * from plaudit.store_submitted_review(
                     pg_temp.submission('91000000-0000-4000-8000-0000000000f2', 'eve@example.com', 'Stolen'),
                     'test:91', 100, 'https://reviews.example', (select id from request))$$,
  '42501', 'permission denied for function store_submitted_review',
  'public: cannot store a review under a request it names by id');
select results_eq($$select error_code, (review::jsonb ->> 'source'), (review::jsonb -> 'incentive')
                      from plaudit.submit_review(
                        pg_temp.submission('91000000-0000-4000-8000-0000000000f2', 'eve@example.com', 'Mine'),
                        'test:91', 100, 'https://reviews.example')$$,
  $$values (null::text, 'form'::text, 'null'::jsonb)$$,
  'public: a form''s review is of the form, with the form''s incentive');
select results_eq($$select error_code, verification_status from plaudit.submit_requested_review((select token from request),
                      pg_temp.submission(null, 'ada@example.com', 'Through the link'), 'test:91', 100,
                      'https://reviews.example')$$,
  $$values (null::text, 'verified'::text)$$, 'public: the link''s token submits the request''s review');
select tests.clear_persona();

-- ---- The owner -----------------------------------------------------------------------------------
select results_eq($$select org_id, source, incentive ->> 'description' from plaudit.reviews order by created_at, source$$,
  $$values ('91000000-0000-4000-8000-000000000002'::uuid, 'form'::text, null::text),
           ('91000000-0000-4000-8000-000000000001'::uuid, 'invitation'::text, 'A secret gift'::text)$$,
  'owner: only the token''s review is an invitation, with its request''s incentive');
select is((select count(*)::integer from information_schema.role_routine_grants
            where routine_schema = 'plaudit' and routine_name = 'store_submitted_review'
              and grantee in ('plaudit_public', 'plaudit_api', 'plaudit_worker', 'PUBLIC')), 0,
  'owner: no runtime role may execute the function that takes a request id');
select is((select count(*)::integer from pg_proc
            where pronamespace = 'plaudit'::regnamespace and proname = 'submit_review'), 1,
  'owner: one public submission function, without a request id');
select ok(not has_function_privilege('plaudit_api',
  'plaudit.store_submitted_review(plaudit.review_submission,text,integer,text,uuid)', 'execute'),
  'owner: the API''s role cannot either');

select * from finish();
rollback;
