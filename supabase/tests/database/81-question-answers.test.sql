-- Verified buyers and votes: a confirmed product question is mailed to up to 10 buyers of the
-- product (not the asker, not a suppressed address, only when the profile asks buyers); each link
-- answers its own question once, marked verified_buyer; helpful votes count once per visitor.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(12);

insert into plaudit.organizations (id, name, slug) values
  ('81000000-aaaa-4aaa-8aaa-000000000001', 'Acme', 'acme81');
insert into plaudit.products (id, org_id, external_id, name) values
  ('81000000-0000-4000-8000-0000000000a1', '81000000-aaaa-4aaa-8aaa-000000000001', 'MUG-1', 'Mug'),
  ('81000000-0000-4000-8000-0000000000a2', '81000000-aaaa-4aaa-8aaa-000000000001', 'CUP-1', 'Cup');
insert into plaudit.orders (org_id, order_id, email, name, purchased_at)
select '81000000-aaaa-4aaa-8aaa-000000000001', 'O' || n, 'buyer' || n || '@example.com', 'Buyer' || n || ' Smith',
       now() - make_interval(days => n)
  from generate_series(1, 12) n;
insert into plaudit.orders (org_id, order_id, email, name) values
  ('81000000-aaaa-4aaa-8aaa-000000000001', 'ASKER', 'ann@example.com', 'Ann'),
  ('81000000-aaaa-4aaa-8aaa-000000000001', 'CUPS', 'cups@example.com', 'Carl');
insert into plaudit.order_items (org_id, order_id, position, product_external_id)
select '81000000-aaaa-4aaa-8aaa-000000000001', order_id, 0, case when order_id = 'CUPS' then 'CUP-1' else 'MUG-1' end
  from plaudit.orders where org_id = '81000000-aaaa-4aaa-8aaa-000000000001';
insert into plaudit.email_suppressions (org_id, email, reason) values
  ('81000000-aaaa-4aaa-8aaa-000000000001', 'buyer1@example.com', 'unsubscribed');

create temporary table asked (id uuid, token text);
grant select, insert, update on asked to public;

select tests.act_as_public();
insert into asked (id)
select id from plaudit.ask_question('q81:a', 10, 'acme81', 'MUG-1', 'Is it dishwasher safe?', 'Ann',
                                    'ann@example.com', 'https://reviews.test')
union all
select id from plaudit.ask_question('q81:a', 10, 'acme81', null, 'Do you ship to Norway?', 'Ann',
                                    'ann@example.com', 'https://reviews.test');
select tests.clear_persona();
update asked set token = (select split_part(data ->> 'confirm_url', '/questions/confirm/', 2)
                            from plaudit.email_outbox where template = 'question_confirmation'
                             and data ->> 'question_id' = asked.id::text);
select tests.act_as_public();
select is((select count(*)::integer from asked a, plaudit.confirm_question(a.token, 'https://reviews.test') c
            where c.outcome = 'confirmed'), 2, 'public: both questions are confirmed');

select tests.clear_persona();
select is((select count(*)::integer from plaudit.email_outbox where template = 'question_for_buyer'), 10,
  'ten buyers of the product are asked');
select is((select count(*)::integer from plaudit.email_outbox where template = 'question_for_buyer'
            and to_address in ('ann@example.com', 'buyer1@example.com', 'cups@example.com')), 0,
  'neither the asker, a suppressed address, nor a buyer of another product is asked');
select is((select string_agg(distinct author_name, ',') from plaudit.question_answer_tokens where author_name = 'Buyer2'),
  'Buyer2', 'a buyer answers under the first word of their name');
select is((select count(distinct question_id)::integer from plaudit.question_answer_tokens), 1,
  'only the product question is sent to buyers');

create temporary table buyer (token text);
grant select on buyer to public;
insert into buyer select split_part(data ->> 'answer_url', '/answers/', 2)
  from plaudit.email_outbox where template = 'question_for_buyer' and to_address = 'buyer2@example.com';

select tests.act_as_public();
select is((select outcome from plaudit.answer_question_by_token('a81:a', 10, (select token from buyer), 'Yes, it is.')),
  'answered', 'public: a buyer answers through their link');
select is((select outcome from plaudit.answer_question_by_token('a81:a', 10, (select token from buyer), 'Again.')),
  'already_used', 'public: the link works once');
select is((select outcome from plaudit.answer_question_by_token('a81:a', 10, 'not-a-token', 'Hello')),
  'invalid', 'public: an unknown link answers nothing');
select is((select body::json -> 'data' -> 0 -> 'answers' -> 0 ->> 'author'
             from plaudit.public_question_page('acme81', 'MUG-1', 1, 10)),
  'verified_buyer', 'public: the answer shows on its question, marked verified_buyer');
select is((select body::json -> 'meta' ->> 'total' || ':' || (body::json -> 'data' -> 0 -> 'answers')::text
             from plaudit.public_question_page('acme81', null, 1, 10)),
  '1:[]', 'public: the business question got no answer from the link');

select is((select published from plaudit.vote_answer_helpful('h81:a', 10, 'acme81', gen_random_uuid(),
                                                           gen_random_uuid(), '\x01'::bytea)),
  false, 'public: a vote on no answer counts nothing');

select tests.clear_persona();
create temporary table ans as select a.id, a.question_id from plaudit.question_answers a;
grant select on ans to public;
select tests.act_as_public();
select is((select count(*)::integer from ans a,
                  plaudit.vote_answer_helpful('h81:a', 10, 'acme81', a.question_id, a.id, '\x01'::bytea) v,
                  plaudit.vote_answer_helpful('h81:b', 10, 'acme81', a.question_id, a.id, '\x01'::bytea) w
            where v.helpful_count = 1 and w.helpful_count = 1), 1,
  'public: a helpful vote counts once per visitor');

select * from finish();
rollback;
