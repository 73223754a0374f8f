-- Duplicates at submission: a long text the same as, or at least 90 % alike to, another review of
-- the organization in the last 90 days, or an order id that already has a review of the same
-- product, is held as pending with its reason in the trail; only a person approves it then.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(15);

insert into plaudit.organizations (id, name, slug) values
  ('68000000-0000-4000-8000-000000000001', 'Copy Co', 'copy-co'),
  ('68000000-0000-4000-8000-000000000002', 'Other Co', 'copy-other');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('68000000-0000-4000-8000-0000000000f1', '68000000-0000-4000-8000-000000000001', 'Form', 'none'),
  ('68000000-0000-4000-8000-0000000000f2', '68000000-0000-4000-8000-000000000002', 'Form', 'none'),
  ('68000000-0000-4000-8000-0000000000f3', '68000000-0000-4000-8000-000000000001', 'Mailed', 'email');
insert into plaudit.products (id, org_id, external_id, name) values
  ('68000000-0000-4000-8000-0000000000c1', '68000000-0000-4000-8000-000000000001', 'lamp', 'Lamp'),
  ('68000000-0000-4000-8000-0000000000c2', '68000000-0000-4000-8000-000000000001', 'shade', 'Shade');
-- An old review, 100 days ago, out of the window.
insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, verification_status, created_at) values
  ('68000000-0000-4000-8000-000000000001', '68000000-0000-4000-8000-0000000000f1', 5,
   'An ancient text that nobody should compare any more, it is far older than ninety days.', 'Old', 'unverified',
   now() - interval '100 days');

create function pg_temp.submit(p_form uuid, p_content text, p_email text, p_order text default null,
                               p_product uuid default null)
returns table (id uuid, verification_status text)
language sql as $$
  select s.id, s.verification_status
    from plaudit.submit_review(jsonb_populate_record(null::plaudit.review_submission, jsonb_build_object(
           'form_id', p_form, 'rating', 5, 'content', p_content, 'reviewer_name', 'Rev', 'reviewer_email', p_email,
           'order_id', p_order, 'product_id', p_product)), 'submit:dup', 100000, 'https://reviews.example') s
$$;

create temporary table sent (label text primary key, id uuid, status text) on commit drop;
grant select, insert on sent to plaudit_public, plaudit_api;

-- The public ---------------------------------------------------------------------------------------
select tests.act_as_public();
insert into sent select 'first', * from pg_temp.submit('68000000-0000-4000-8000-0000000000f1',
  'The lamp arrived quickly, well packed, and the warm light is exactly what our living room needed.', 'a@example.com');
insert into sent select 'same', * from pg_temp.submit('68000000-0000-4000-8000-0000000000f1',
  'The lamp arrived quickly, well packed, and the warm light is exactly what our living room needed.', 'b@example.com');
insert into sent select 'alike', * from pg_temp.submit('68000000-0000-4000-8000-0000000000f1',
  'The lamp arrived quickly, well packed, and the warm light is exactly what our living room needed so much.', 'c@example.com');
insert into sent select 'other', * from pg_temp.submit('68000000-0000-4000-8000-0000000000f1',
  'The lamp arrived late and dented; the light flickers. I would not buy this lamp again from them.', 'd@example.com');
insert into sent select 'short', * from pg_temp.submit('68000000-0000-4000-8000-0000000000f1', 'Great lamp!', 'e@example.com');
insert into sent select 'short2', * from pg_temp.submit('68000000-0000-4000-8000-0000000000f1', 'Great lamp!', 'f@example.com');
insert into sent select 'tenant_b', * from pg_temp.submit('68000000-0000-4000-8000-0000000000f2',
  'The lamp arrived quickly, well packed, and the warm light is exactly what our living room needed.', 'a@example.com');
insert into sent select 'old', * from pg_temp.submit('68000000-0000-4000-8000-0000000000f1',
  'An ancient text that nobody should compare any more, it is far older than ninety days.', 'g@example.com');
insert into sent select 'order1', * from pg_temp.submit('68000000-0000-4000-8000-0000000000f1', 'Bright.', 'h@example.com',
  '#1001', '68000000-0000-4000-8000-0000000000c1');
insert into sent select 'order2', * from pg_temp.submit('68000000-0000-4000-8000-0000000000f1', 'Bright again.', 'i@example.com',
  '1001', '68000000-0000-4000-8000-0000000000c1');
insert into sent select 'order_other_product', * from pg_temp.submit('68000000-0000-4000-8000-0000000000f1', 'Nice shade.',
  'j@example.com', '1001', '68000000-0000-4000-8000-0000000000c2');
insert into sent select 'mailed', * from pg_temp.submit('68000000-0000-4000-8000-0000000000f3',
  'The lamp arrived quickly, well packed, and the warm light is exactly what our living room needed.', 'k@example.com');

select results_eq($$select label, status from sent order by label$$,
  $$values ('alike'::text, 'pending'::text), ('first', 'unverified'), ('mailed', 'pending'), ('old', 'unverified'),
           ('order1', 'unverified'), ('order2', 'pending'), ('order_other_product', 'unverified'), ('other', 'unverified'),
           ('same', 'pending'), ('short', 'unverified'), ('short2', 'unverified'), ('tenant_b', 'unverified')$$,
  'public: the same text, a 90 % alike one and a reused order of the same product are held; short texts, other tenants, old reviews and other products are not');

-- The owner checks the reasons ------------------------------------------------------------------
select tests.clear_persona();
select results_eq(
  $$select s.label, h.reason, case when s.label like 'order%' then h.duplicate_of = (select id from sent where label = 'order1')
                                   else (select content from plaudit.reviews where id = h.duplicate_of) like 'The lamp arrived quickly%' end
      from plaudit.held_reviews h join sent s on s.id = h.review_id order by s.label$$,
  $$values ('alike'::text, 'duplicate_text'::text, true), ('mailed', 'duplicate_text', true),
           ('order2', 'order_reused', true), ('same', 'duplicate_text', true)$$,
  'owner: each held review names its reason and the review it repeats');
select ok((select similarity from plaudit.held_reviews where review_id = (select id from sent where label = 'alike'))
           between 0.9 and 0.999, 'owner: the alike text''s similarity is kept');
select is((select similarity from plaudit.held_reviews where review_id = (select id from sent where label = 'same')), 1::real,
  'owner: the same text is 100 % alike');
select is((select reason from plaudit.moderation_trail where review_id = (select id from sent where label = 'same')),
  'duplicate_text: 100 % alike to review ' || (select id from sent where label = 'first') || ' of the last 90 days',
  'trail: duplicate_text with the review it repeats');
select is((select reason || ' by ' || actor from plaudit.moderation_trail where review_id = (select id from sent where label = 'order2')),
  'order_reused: the order id already has review ' || (select id from sent where label = 'order1') || ' of the same product by system:submission_checks',
  'trail: order_reused with the review of the order');
select is((select verification_reason from plaudit.reviews where id = (select id from sent where label = 'order2')),
  'order_reused: the order id already has review ' || (select id from sent where label = 'order1') || ' of the same product',
  'owner: the pending review says why it waits');

-- What each submission leaves for the checks, as the checks worked it out once --------------------
select results_eq(
  $$select s.label, a.subject, a.order_hash is not distinct from plaudit.submitted_order_hash(a.org_id, case s.label
           when 'order1' then '#1001' when 'order2' then '1001' when 'order_other_product' then '1001' end),
           a.sketch is not distinct from case when char_length(r.content) >= 60 then plaudit.text_sketch(r.content) end
      from sent s join plaudit.review_arrivals a on a.review_id = s.id join plaudit.reviews r on r.id = s.id
     where s.label in ('first', 'alike', 'short', 'order1', 'order2', 'order_other_product') order by s.label$$,
  $$values ('alike'::text, 'business'::text, true, true), ('first', 'business', true, true),
           ('order1', 'product:68000000-0000-4000-8000-0000000000c1', true, true),
           ('order2', 'product:68000000-0000-4000-8000-0000000000c1', true, true),
           ('order_other_product', 'product:68000000-0000-4000-8000-0000000000c2', true, true),
           ('short', 'business', true, true)$$,
  'arrivals: each keeps its subject, its order''s hash (none without an order) and its long text''s sketch');
select is((select array_agg(p.proname::text || ':' || coalesce(array_to_string(p.proconfig, ','), '') order by p.proname)
             from pg_proc p where p.oid in ('plaudit.submission_hold(uuid,uuid,text,text)'::regprocedure,
               'plaudit.record_submission(plaudit.reviews,bytea,text,text,bigint[],text,uuid,uuid,real)'::regprocedure,
               'plaudit.store_submitted_review(plaudit.review_submission,text,integer,text,uuid)'::regprocedure)),
  array['record_submission:search_path=pg_catalog, pg_temp',
        'store_submitted_review:search_path=pg_catalog, pg_temp,plan_cache_mode=auto',
        'submission_hold:search_path=pg_catalog, pg_temp'],
  'schema: the checks keep their plans for the session, in their caller''s plan_cache_mode (93-write-plans)');
select is((select reloptions from pg_class where oid = 'plaudit.review_arrivals_sketch'::regclass), array['fastupdate=off'],
  'schema: the sketch index has no pending list for every lookup to read');

-- The reviewer's e-mail link confirms nothing while held; a person decides -------------------------
update plaudit.review_verification_tokens set token_hash = sha256('tok-68'::bytea)
 where review_id = (select id from sent where label = 'mailed');
select tests.act_as_public();
select results_eq($$select outcome from plaudit.verify_review_by_token('tok-68')$$, $$values ('held'::text)$$,
  'public: the e-mail link of a held review leaves it pending');

select tests.act_as_tenant('68000000-0000-4000-8000-000000000001');
select is((select verification_status from plaudit.reviews where id = (select id from sent where label = 'mailed')), 'pending',
  'tenant: the held review is still pending');
select throws_ok($$select plaudit.change_verification((select id from sent where label = 'same'), 'verified', 'email', null, null, null, 'verified')$$,
  '55000', 'This review is held for a check: only a person approves or rejects it',
  'tenant: nothing but a person''s decision moves a held review');
select is((select verification_status from plaudit.reject_review((select id from sent where label = 'same'), 'Copied', null)),
  'rejected', 'tenant: a person rejects a held duplicate as manual verification does');
select is((select count(*)::int from plaudit.held_reviews where resolved_at is null), 3,
  'tenant: the decided review is no longer held; the others are');

select * from finish();
rollback;
