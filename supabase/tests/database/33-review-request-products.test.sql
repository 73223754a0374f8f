-- Review requests that name products: a request names products of its own organization only (not
-- archived, each once), its page's token writes one review per subject of its own request (each
-- named product and the business), each verified by the invitation, and tenants read only their own.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(21);

insert into plaudit.organizations (id, name, slug) values
  ('33000000-0000-4000-8000-000000000001', 'Shop Co', 'request-products-shop'),
  ('33000000-0000-4000-8000-000000000002', 'Stranger Co', 'request-products-stranger');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('33000000-0000-4000-8000-0000000000f1', '33000000-0000-4000-8000-000000000001', 'Open', 'none'),
  ('33000000-0000-4000-8000-0000000000f2', '33000000-0000-4000-8000-000000000002', 'Theirs', 'none');
insert into plaudit.products (id, org_id, external_id, name, archived) values
  ('33000000-0000-4000-8000-0000000000a1', '33000000-0000-4000-8000-000000000001', 'MUG-1', 'Mug <b>Blue</b>', false),
  ('33000000-0000-4000-8000-0000000000a2', '33000000-0000-4000-8000-000000000001', 'TEE-1', 'Tee', false),
  ('33000000-0000-4000-8000-0000000000a3', '33000000-0000-4000-8000-000000000001', 'OLD-1', 'Old mug', true),
  ('33000000-0000-4000-8000-0000000000a4', '33000000-0000-4000-8000-000000000001', 'CAP-1', 'Cap', false),
  ('33000000-0000-4000-8000-0000000000b1', '33000000-0000-4000-8000-000000000002', 'THEIRS-1', 'Their mug', false);

create function pg_temp.create_requests(p_rows jsonb)
returns table (idx integer, id uuid, error text)
language sql as $$
  select idx, id, error from plaudit.create_review_requests(p_rows, 'https://reviews.example')
$$;

-- ---- Tenant A -----------------------------------------------------------------------------------
select tests.act_as_tenant('33000000-0000-4000-8000-000000000001');

select is((select array_agg(coalesce(error, 'ok') order by idx) from pg_temp.create_requests($$[
    {"index": 0, "email": "ada@example.com", "name": "Ada", "form_id": "33000000-0000-4000-8000-0000000000f1",
     "external_id": "order-1", "products": ["TEE-1", "MUG-1"]},
    {"index": 1, "email": "bo@example.com", "name": "Bo", "form_id": "33000000-0000-4000-8000-0000000000f1",
     "products": ["MUG-1", "THEIRS-1"]},
    {"index": 2, "email": "cy@example.com", "name": "Cy", "form_id": "33000000-0000-4000-8000-0000000000f1",
     "products": ["MUG-1", "OLD-1"]},
    {"index": 3, "email": "di@example.com", "name": "Di", "form_id": "33000000-0000-4000-8000-0000000000f1",
     "products": ["MUG-1", "TEE-1", "MUG-1"]},
    {"index": 4, "email": "ed@example.com", "name": "Ed", "form_id": "33000000-0000-4000-8000-0000000000f1",
     "external_id": "order-5", "products": ["CAP-1"]}
  ]$$::jsonb)),
  array['ok', 'products[1]: no such product in this organization',
        'products[1]: the product is archived and takes no new reviews', 'products[2]: repeats products[0]', 'ok'],
  'a request names products of its own organization, not archived, each once; a refusal names products[i]');

select is((select array_agg(p.external_id order by rp.position)
             from plaudit.review_request_products rp
             join plaudit.review_requests q on q.id = rp.request_id
             join plaudit.products p on p.id = rp.product_id
            where q.external_id = 'order-1'),
  array['TEE-1', 'MUG-1'], 'the tenant reads its request''s products in the order it named them');
select is((select count(*)::integer from plaudit.review_requests where email in ('bo@example.com', 'cy@example.com', 'di@example.com')),
  0, 'refused rows store no request');
select tests.clear_persona();

select is((select data -> 'product_names' from plaudit.email_outbox
            where template = 'review_request' and to_address = 'ada@example.com'),
  '["Tee", "Mug <b>Blue</b>"]'::jsonb, 'the e-mail''s data names the products, in order');

-- ---- Tenant B -----------------------------------------------------------------------------------
select tests.act_as_tenant('33000000-0000-4000-8000-000000000002');
select is((select error from pg_temp.create_requests($$[
    {"index": 0, "email": "x@example.com", "name": "X", "form_id": "33000000-0000-4000-8000-0000000000f2",
     "products": ["MUG-1"]}]$$::jsonb)),
  'products[0]: no such product in this organization', 'another organization''s product can never be named');
select is((select count(*)::integer from plaudit.review_request_products), 0,
  'a tenant reads no other organization''s request products');
select is((select count(*)::integer from plaudit.review_request_reviews), 0,
  'a tenant reads no other organization''s request reviews');
select throws_ok($$insert into plaudit.review_request_products (org_id, request_id, product_id, position)
                   select org_id, id, '33000000-0000-4000-8000-0000000000b1', 5 from plaudit.review_requests limit 1$$,
  '42501', null, 'the API''s role writes no request products itself');
select tests.clear_persona();

-- ---- The owner: the keys hold whatever writes the row --------------------------------------------
select throws_ok($$insert into plaudit.review_request_products (org_id, request_id, product_id, position)
                   select q.org_id, q.id, '33000000-0000-4000-8000-0000000000b1', 5
                     from plaudit.review_requests q where q.external_id = 'order-1'$$,
  '23503', null, 'a request can never name another organization''s product, even written by the owner');

create temporary table request_tokens as
  select q.external_id, plaudit.review_request_token(q.id) as token from plaudit.review_requests q
   where q.external_id in ('order-1', 'order-5');
grant select on request_tokens to plaudit_public;

create function pg_temp.submit(p_external_id text, p_content text, p_product text)
returns table (error_code text, error_message text, id uuid, verification_status text)
language sql as $$
  select error_code, error_message, id, verification_status from plaudit.submit_requested_review(
    (select token from request_tokens where external_id = p_external_id),
    jsonb_populate_record(null::plaudit.review_submission, jsonb_build_object(
      'rating', 5, 'content', p_content, 'reviewer_name', 'Ada', 'reviewer_email', 'ada@example.com',
      'product_external_id', p_product)),
    'submit:request-products', 1000, 'https://reviews.example')
$$;

-- ---- The public page, through the token ----------------------------------------------------------
select tests.act_as_public();
select is((select (error_code, verification_status)::text from pg_temp.submit('order-1', 'Lovely mug.', 'MUG-1')),
  '(,verified)', 'the page writes a review of a named product, verified by the invitation');
select is((select (error_code, error_message)::text from pg_temp.submit('order-1', 'Lovely mug again.', 'MUG-1')),
  '(23505,"Your review of Mug <b>Blue</b> was already written through this request")',
  'a second review of the same product through the same request is refused');
select is((select (error_code, error_message)::text from pg_temp.submit('order-1', 'A cap?', 'CAP-1')),
  '(22023,"product_external_id: this review request does not name this product")',
  'the token writes no review of another request''s product');
select is((select (error_code, error_message)::text from pg_temp.submit('order-1', 'Not ours.', 'THEIRS-1')),
  '(22023,"product_external_id: this review request does not name this product")',
  'the token writes no review of another organization''s product');
select is((select (error_code, verification_status)::text from pg_temp.submit('order-1', 'Friendly shop.', null)),
  '(,verified)', 'the page writes a review of the business too');
select is((select (error_code, error_message)::text from pg_temp.submit('order-1', 'Friendly shop again.', null)),
  '(23505,"Your review of Shop Co was already written through this request")',
  'a second review of the business through the same request is refused');
select is((select error_code from pg_temp.submit('order-1', 'Soft tee.', 'TEE-1')), null,
  'the completed request still takes the review of a product not yet reviewed');
select is((select array_agg((product_external_id, reviewed)::text) from plaudit.review_request_subjects(
             (select token from request_tokens where external_id = 'order-1'))),
  array['(TEE-1,t)', '(MUG-1,t)', '(,t)'], 'the page''s subjects: the products in order, then the business, all reviewed');
select tests.clear_persona();

select is((select array_agg(coalesce(p.external_id, '-') order by p.external_id nulls first)
             from plaudit.reviews r left join plaudit.products p on p.id = r.product_id
            where r.reviewer_email = 'ada@example.com' and r.verification_method = 'invitation'),
  array['-', 'MUG-1', 'TEE-1'], 'three reviews, each of its subject, each verified by the invitation');
select is((select (q.status, q.review_id = r.id)::text from plaudit.review_requests q
             join plaudit.reviews r on r.content = 'Lovely mug.' where q.external_id = 'order-1'),
  '(completed,t)', 'the first review written through the request completes it');

-- A review of the same address on the hosted form completes an open request and counts as its
-- review of the business: the page no longer asks for it.
select lives_ok($$select * from plaudit.submit_review(jsonb_populate_record(null::plaudit.review_submission,
                  '{"form_id": "33000000-0000-4000-8000-0000000000f1", "rating": 4, "content": "From the form.", "reviewer_name": "Ed", "reviewer_email": "ed@example.com"}'),
                  'submit:request-products', 1000, 'https://reviews.example')$$, 'a review from the hosted form');
select is((select array_agg((product_external_id, reviewed)::text) from plaudit.review_request_subjects(
             (select token from request_tokens where external_id = 'order-5'))),
  array['(CAP-1,f)', '(,t)'], 'the hosted form''s review counts as the request''s review of the business');

select * from finish();
rollback;
