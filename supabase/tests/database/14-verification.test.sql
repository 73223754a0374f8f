-- Verification: e-mail tokens (single use, expiring, stored hashed), purchase proof against
-- the tenant's orders, manual decisions; provenance on every change.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(25);

insert into plaudit.organizations (id, name, slug) values
  ('14000000-0000-4000-8000-000000000001', 'Verify Co', 'verify-owner'),
  ('14000000-0000-4000-8000-000000000002', 'Other Co', 'verify-stranger');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('14000000-0000-4000-8000-0000000000e1', '14000000-0000-4000-8000-000000000001', 'Email', 'email'),
  ('14000000-0000-4000-8000-0000000000b1', '14000000-0000-4000-8000-000000000001', 'Proof', 'purchase_proof'),
  ('14000000-0000-4000-8000-0000000000e2', '14000000-0000-4000-8000-000000000002', 'Email', 'email');
insert into plaudit.orders (org_id, order_id, email) values
  ('14000000-0000-4000-8000-000000000001', 'ORD-1', 'Buyer@Example.com'),
  ('14000000-0000-4000-8000-000000000001', 'ORD-2', null),
  ('14000000-0000-4000-8000-000000000002', 'ORD-9', null);

create temporary table made (label text primary key, id uuid) on commit drop;
grant select, insert on made to plaudit_public, plaudit_api;
create function pg_temp.submit(p_label text, p_form uuid, p_email text, p_order text default null)
returns void language sql as $$
  insert into made select p_label, s.id from plaudit.submit_review(
    jsonb_populate_record(null::plaudit.review_submission, jsonb_build_object(
      'form_id', p_form, 'rating', 5, 'content', 'Review ' || p_label, 'reviewer_name', 'Rev', 'reviewer_email', p_email,
      'order_id', p_order)),
    'submit:v', 1000, 'https://reviews.example') s
$$;

-- Anonymous / public role: submissions ----------------------------------------------------------
select tests.act_as_public();
select pg_temp.submit('mail1', '14000000-0000-4000-8000-0000000000e1', 'a@example.com');
select pg_temp.submit('mail2', '14000000-0000-4000-8000-0000000000e1', 'b@example.com');
select pg_temp.submit('mail3', '14000000-0000-4000-8000-0000000000e1', 'c@example.com');
select pg_temp.submit('theirs', '14000000-0000-4000-8000-0000000000e2', 'd@example.com');
select pg_temp.submit('proof_ok', '14000000-0000-4000-8000-0000000000b1', 'buyer@example.com', ' ORD-1 ');
select pg_temp.submit('proof_any', '14000000-0000-4000-8000-0000000000b1', 'anyone@example.com', 'ORD-2');
select pg_temp.submit('proof_wrong_mail', '14000000-0000-4000-8000-0000000000b1', 'thief@example.com', 'ORD-1');
select pg_temp.submit('proof_foreign', '14000000-0000-4000-8000-0000000000b1', 'x@example.com', 'ORD-9');
select pg_temp.submit('proof_none', '14000000-0000-4000-8000-0000000000b1', 'y@example.com');

select throws_ok($$select * from plaudit.review_verification_tokens$$, '42501',
  'permission denied for table review_verification_tokens', 'public: cannot read tokens');
select throws_ok($$select * from plaudit.orders$$, '42501', 'permission denied for table orders', 'public: cannot read orders');
select throws_ok($$select plaudit.approve_review((select id from made where label = 'mail1'), null, null)$$, '42501',
  'permission denied for function approve_review', 'public: cannot approve');
select results_eq($$select outcome from plaudit.verify_review_by_token('not-a-token')$$, $$values ('invalid'::text)$$,
  'public: an unknown token is invalid');

select tests.clear_persona();
create temporary table tokens (label text primary key, token text) on commit drop;
grant select on tokens to plaudit_public, plaudit_api;
insert into tokens select m.label, e.data ->> 'token' from made m
  join plaudit.email_outbox e on e.data ->> 'review_id' = m.id::text and e.template = 'review_verification';
select is((select count(*)::integer from tokens), 4, 'each e-mail-mode review has one verification e-mail');
select is_empty(
  $$select 1 from plaudit.review_verification_tokens t join tokens k on t.token_hash <> sha256(convert_to(k.token, 'UTF8'))
    join made m on m.id = t.review_id and m.label = k.label$$,
  'the stored hash is the SHA-256 of the e-mailed token');
select is((select data ->> 'verify_url' from plaudit.email_outbox e join made m on e.data ->> 'review_id' = m.id::text where m.label = 'mail1'),
  'https://reviews.example/api/v1/public/verifications/' || (select token from tokens where label = 'mail1'),
  'the e-mail carries the public verification link');
select results_eq(
  $$select m.label, r.verification_status, r.verification_method, r.verification_order_hash from plaudit.reviews r join made m on m.id = r.id
    where m.label like 'proof%' order by m.label$$,
  $$values ('proof_any'::text, 'verified'::text, 'purchase_proof'::text, plaudit.order_hash('14000000-0000-4000-8000-000000000001', 'ORD-2')),
           ('proof_foreign', 'pending', null, null),
           ('proof_none', 'pending', null, null),
           ('proof_ok', 'verified', 'purchase_proof', plaudit.order_hash('14000000-0000-4000-8000-000000000001', 'ORD-1')),
           ('proof_wrong_mail', 'pending', null, null)$$,
  'purchase proof: verified at once only for the tenant''s order and, when it has one, its e-mail');
select is(plaudit.order_hash('14000000-0000-4000-8000-000000000001', 'ORD-1'),
  encode(sha256(convert_to('14000000-0000-4000-8000-000000000001:ORD-1', 'UTF8')), 'hex'),
  'the order hash is SHA-256 of tenant and order id');

-- Public role: the e-mailed link ------------------------------------------------------------------
select tests.act_as_public();
select results_eq($$select outcome from plaudit.verify_review_by_token((select token from tokens where label = 'mail1'))$$,
  $$values ('verified'::text)$$, 'public: the link verifies');
select results_eq($$select outcome from plaudit.verify_review_by_token((select token from tokens where label = 'mail1'))$$,
  $$values ('already_used'::text)$$, 'public: the link works once');
select tests.clear_persona();
update plaudit.review_verification_tokens set expires_at = now() - interval '1 second'
  where review_id = (select id from made where label = 'mail2');
select tests.act_as_public();
select results_eq($$select outcome from plaudit.verify_review_by_token((select token from tokens where label = 'mail2'))$$,
  $$values ('expired'::text)$$, 'public: an expired link does not verify');
select tests.clear_persona();
select results_eq(
  $$select r.verification_status, r.verification_method, r.verification_token_id is not null, r.verification_key_id
    from plaudit.reviews r join made m on m.id = r.id where m.label in ('mail1', 'mail2') order by m.label$$,
  $$values ('verified'::text, 'email'::text, true, null::uuid), ('pending', null, false, null)$$,
  'provenance of an e-mail verification: method and token');

-- Owner tenant --------------------------------------------------------------------------------------
select tests.act_as_tenant('14000000-0000-4000-8000-000000000001');
select results_eq(
  $$select outcome from plaudit.verify_review_by_token((select token from tokens where label = 'mail3'), (select id from made where label = 'mail2'))$$,
  $$values ('invalid'::text)$$, 'owner: a token verifies only its own review');
select results_eq(
  $$select outcome from plaudit.verify_review_by_token((select token from tokens where label = 'theirs'), (select id from made where label = 'theirs'))$$,
  $$values ('not_found'::text)$$, 'owner: cannot spend another tenant''s token');
select throws_ok(
  $$select plaudit.verify_review_by_order((select id from made where label = 'proof_none'), 'ORD-9', null)$$,
  '22023', 'order_id: does not match an order of this organization for this reviewer', 'owner: another tenant''s order does not match');
select lives_ok($$select plaudit.verify_review_by_order((select id from made where label = 'proof_none'), 'ORD-2', null)$$,
  'owner: a matching order verifies a pending review');
select throws_ok($$select plaudit.verify_review_by_order((select id from made where label = 'mail3'), 'ORD-2', null)$$,
  '22023', 'order_id: the review''s form does not use purchase-proof verification', 'owner: purchase proof only on its forms');
select throws_ok($$select plaudit.approve_review((select id from made where label = 'mail1'), null, null)$$,
  '55000', 'Only a pending review can be approved; this one is verified', 'owner: only pending reviews are approved');
select lives_ok($$select plaudit.reject_review((select id from made where label = 'mail3'), 'Fake', null)$$, 'owner: rejects');
select results_eq($$select * from plaudit.upsert_orders('14000000-0000-4000-8000-000000000001',
  '[{"order_id":"ORD-2","email":"new@example.com"},{"order_id":"ORD-3"},{"order_id":"ORD-3","purchased_at":"2026-01-01T00:00:00Z"}]')$$,
  $$values (1, 1)$$, 'owner: orders upsert, a repeated id once');
select is((select purchased_at from plaudit.orders where order_id = 'ORD-3'), '2026-01-01T00:00:00Z'::timestamptz,
  'owner: the last occurrence of a repeated order wins');

-- Stranger tenant ---------------------------------------------------------------------------------
select tests.act_as_tenant('14000000-0000-4000-8000-000000000002');
select results_eq($$select order_id from plaudit.orders$$, $$values ('ORD-9'::text)$$, 'stranger: sees only its own orders');
select throws_ok($$select plaudit.upsert_orders('14000000-0000-4000-8000-000000000001', '[{"order_id":"PLANTED"}]')$$,
  '42501', 'new row violates row-level security policy for table "orders"', 'stranger: cannot load orders into another tenant');
select throws_ok($$select plaudit.approve_review((select id from made where label = 'proof_wrong_mail'), null, null)$$,
  'P0002', 'Review not found', 'stranger: cannot approve another tenant''s review');
select tests.clear_persona();

select * from finish();
rollback;
