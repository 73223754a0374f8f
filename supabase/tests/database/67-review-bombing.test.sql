-- Review bombing holds: the worker's detection (the clock given), what one address, praise and a
-- steady flow never make, the hold at submission, the member's release, and tenant isolation.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(25);

insert into plaudit.organizations (id, name, slug) values
  ('67000000-0000-4000-8000-000000000001', 'Bombed Co', 'bombed-co'),
  ('67000000-0000-4000-8000-000000000002', 'Praised Co', 'praised-co');
insert into plaudit.members (id, org_id, email, role) values
  ('67000000-0000-4000-8000-0000000000e1', '67000000-0000-4000-8000-000000000001', 'owner@bombed.example', 'owner'),
  ('67000000-0000-4000-8000-0000000000e2', '67000000-0000-4000-8000-000000000001', 'staff@bombed.example', 'member');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('67000000-0000-4000-8000-0000000000f1', '67000000-0000-4000-8000-000000000001', 'Form', 'none'),
  ('67000000-0000-4000-8000-0000000000f2', '67000000-0000-4000-8000-000000000002', 'Form', 'none');
insert into plaudit.products (id, org_id, external_id, name, group_key) values
  ('67000000-0000-4000-8000-0000000000c1', '67000000-0000-4000-8000-000000000001', 'mug-red', 'Red mug', 'mugs'),
  ('67000000-0000-4000-8000-0000000000c2', '67000000-0000-4000-8000-000000000001', 'mug-blue', 'Blue mug', 'mugs');

create function pg_temp.submit(p_form uuid, p_rating integer, p_client text, p_product uuid default null,
                               p_n integer default 1)
returns table (id uuid, verification_status text)
language sql as $$
  select s.id, s.verification_status
    from generate_series(1, p_n) i,
         plaudit.submit_review(jsonb_populate_record(null::plaudit.review_submission, jsonb_build_object(
           'form_id', p_form, 'rating', p_rating, 'content', 'Words ' || p_client || ' ' || i || ' ' || random(),
           'reviewer_name', 'Rev', 'reviewer_email', p_client || '.' || i || '@example.com', 'product_id', p_product)),
           'submit:' || p_client, 100000, 'https://reviews.example') s
$$;

-- The public submits: 12 one-star reviews of the business from ONE address; 12 of the mugs'
-- group from 6 addresses; Praised Co gets a request batch's praise with a few low ones.
create temporary table sent (id uuid) on commit drop;
grant insert on sent to plaudit_public;
select tests.act_as_public();
insert into sent select s.id from pg_temp.submit('67000000-0000-4000-8000-0000000000f1', 1, 'lone', p_n => 12) s;
insert into sent select s.id from generate_series(1, 6) a,
  lateral pg_temp.submit('67000000-0000-4000-8000-0000000000f1', 2, 'c' || a,
                         ('67000000-0000-4000-8000-0000000000c' || (1 + a % 2))::uuid, 2) s;
insert into sent select s.id from generate_series(1, 20) a,
  lateral pg_temp.submit('67000000-0000-4000-8000-0000000000f2', 5, 'p' || a, p_n => 4) s;
insert into sent select s.id from generate_series(1, 12) a,
  lateral pg_temp.submit('67000000-0000-4000-8000-0000000000f2', 1, 'q' || a) s;

-- The worker ------------------------------------------------------------------------------------
select tests.act_as_worker();
create temporary table found_holds on commit drop as
  select * from plaudit.detect_review_bursts(now() + interval '1 second');
select results_eq($$select org_id, subject from found_holds$$,
  $$values ('67000000-0000-4000-8000-000000000001'::uuid, 'group:mugs'::text)$$,
  'worker: only the mugs'' burst from six addresses is a hold: one address and a batch''s praise are not');
select results_eq(
  $$select (figures ->> 'low_ratings')::int, (figures ->> 'client_addresses')::int,
           (figures ->> 'hourly_median_28_days')::numeric, figures -> 'thresholds' ->> 'min_reviews' from found_holds$$,
  $$values (12, 6, 0::numeric, '10')$$, 'worker: the hold keeps the figures that made it');
select is_empty($$select * from plaudit.detect_review_bursts(now() + interval '2 seconds')$$,
  'worker: an open hold is not opened again');
select is_empty($$select * from plaudit.detect_review_bursts(now() + interval '2 hours')$$,
  'worker: the hour after, nothing new is a burst');

-- The owner checks what the hold left --------------------------------------------------------------
select tests.clear_persona();
select is((select count(*)::int from plaudit.moderation_trail
            where org_id = '67000000-0000-4000-8000-000000000001' and action = 'burst_detected'
              and actor = 'system:burst_detection' and reason like 'hold % on group:mugs: {%"low_ratings": 12%'), 1,
  'trail: the burst is in the trail with its figures');
select is((select data -> 'subject' ->> 'kind' || ':' || (data -> 'subject' ->> 'group') from plaudit.events
            where org_id = '67000000-0000-4000-8000-000000000001' and type = 'reviews.burst_detected'),
  'group:mugs', 'event: reviews.burst_detected names the subject');
select results_eq($$select to_address from plaudit.email_outbox where template = 'review_burst_detected' order by 1$$,
  $$values ('owner@bombed.example'::text)$$, 'mail: the owners and admins are told, not the other members');

-- A shopper reviews a mug of the group while the hold is open: held, not published -----------------
select tests.act_as_public();
create temporary table held_one on commit drop as
  select * from pg_temp.submit('67000000-0000-4000-8000-0000000000f1', 5, 'late', '67000000-0000-4000-8000-0000000000c2');
select is((select verification_status from held_one), 'pending', 'public: a review of the held subject is pending');
select ok(plaudit.subject_under_check('67000000-0000-4000-8000-000000000001', '67000000-0000-4000-8000-0000000000c1'),
  'public: the group''s products show the notice');
select ok(not plaudit.subject_under_check('67000000-0000-4000-8000-000000000001', null),
  'public: the business page does not');
select is((select verification_status from pg_temp.submit('67000000-0000-4000-8000-0000000000f1', 5, 'biz')), 'unverified',
  'public: a review of another subject publishes as before');

select tests.clear_persona();
grant select on found_holds, held_one to plaudit_api;
select results_eq(
  $$select h.reason, h.hold_id = (select id from found_holds) from plaudit.held_reviews h where h.review_id = (select id from held_one)$$,
  $$values ('burst'::text, true)$$, 'owner: the review is held by the hold');
select is((select reason from plaudit.moderation_trail where review_id = (select id from held_one) and action = 'hold'),
  'burst: held while hold ' || (select id from found_holds) || ' checks an unusual number of recent one- and two-star reviews',
  'trail: the hold of the review with its reason');

-- Tenant A ------------------------------------------------------------------------------------------
select tests.act_as_tenant('67000000-0000-4000-8000-000000000001');
select throws_ok($$select plaudit.approve_review((select id from held_one), 'fine', null)$$, '55000',
  'This review is held while an unusual number of recent reviews is checked: release the hold first',
  'tenant: a held review is not approved while its hold is open');
select throws_ok($$select plaudit.release_review_hold((select id from found_holds), 'api_key:k1')$$, '42501',
  'Holds are released by a member of the team, signed in to the dashboard', 'tenant: a key does not release a hold');
select is(plaudit.release_review_hold((select id from found_holds), 'member:67000000-0000-4000-8000-0000000000e2'),
  (select id from found_holds), 'tenant: a member releases the hold');
select throws_ok($$select plaudit.release_review_hold((select id from found_holds), 'member:m')$$, '55000',
  'Hold is already released', 'tenant: a released hold is not released again');
select is((select verification_status from plaudit.reviews where id = (select id from held_one)), 'pending',
  'tenant: releasing publishes nothing: the held review waits for a person');
select is((select verification_status from plaudit.approve_review((select id from held_one), 'Checked', null)), 'verified',
  'tenant: after the release, the held review is approved as manual verification does');

select is(plaudit.dsa_transparency(extract(year from now())::integer)::jsonb -> 'automated_holds',
  jsonb_build_object('bursts', 1, 'held_reviews', jsonb_build_object('burst', 1, 'duplicate_text', 0, 'order_reused', 0,
                                                                      'total', 1)),
  'tenant: the DSA transparency report counts the hold and the review it held');

select is((select row(t.*)::text from plaudit.review_hold_thresholds('67000000-0000-4000-8000-000000000001') t),
  '(10,5,5,0.5)', 'tenant: without settings, the thresholds are the defaults');
insert into plaudit.review_hold_settings (org_id, min_reviews) values ('67000000-0000-4000-8000-000000000001', 20);
select is((select row(t.*)::text from plaudit.review_hold_thresholds('67000000-0000-4000-8000-000000000001') t),
  (select row(s.min_reviews, s.min_addresses, s.median_factor, s.min_low_share)::text from plaudit.review_hold_settings s),
  'tenant: the defaults are the settings table''s own: a first change keeps the others as they were');

-- Tenant B --------------------------------------------------------------------------------------
select tests.act_as_tenant('67000000-0000-4000-8000-000000000002');
select is((select min_reviews from plaudit.review_hold_thresholds('67000000-0000-4000-8000-000000000001')), 10,
  'tenant B: another tenant''s thresholds are not read (its defaults answer)');
select ok(plaudit.review_hold_json((select id from found_holds)) is null, 'tenant B: another tenant''s hold is not read');
select is((select count(*)::int from plaudit.review_holds), 0, 'tenant B: sees no hold of another tenant');

select * from finish();
rollback;
