-- The public projection: what unauthenticated routes can reach. No reviewer e-mail, and no
-- hidden, pending or rejected review, whatever the public role asks.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(25);

insert into plaudit.organizations (id, name, slug, website) values
  ('15000000-0000-4000-8000-000000000001', 'Public Co', 'public-owner', 'https://public.example'),
  ('15000000-0000-4000-8000-000000000002', 'Quiet Co', 'public-quiet', null);
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('15000000-0000-4000-8000-0000000000f1', '15000000-0000-4000-8000-000000000001', 'Open', 'none');
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status, is_hidden) values
  ('15000000-0000-4000-8000-0000000000a1', '15000000-0000-4000-8000-000000000001', '15000000-0000-4000-8000-0000000000f1', 5, 'Visible', 'A', 'a@example.com', 'unverified', false),
  ('15000000-0000-4000-8000-0000000000a2', '15000000-0000-4000-8000-000000000001', '15000000-0000-4000-8000-0000000000f1', 4, 'Verified', 'B', 'b@example.com', 'verified', false),
  ('15000000-0000-4000-8000-0000000000a3', '15000000-0000-4000-8000-000000000001', '15000000-0000-4000-8000-0000000000f1', 1, 'Hidden', 'C', 'c@example.com', 'unverified', true),
  ('15000000-0000-4000-8000-0000000000a4', '15000000-0000-4000-8000-000000000001', '15000000-0000-4000-8000-0000000000f1', 2, 'Pending', 'D', 'd@example.com', 'pending', false),
  ('15000000-0000-4000-8000-0000000000a5', '15000000-0000-4000-8000-000000000001', '15000000-0000-4000-8000-0000000000f1', 3, 'Rejected', 'E', 'e@example.com', 'rejected', false);
insert into plaudit.public_profiles (org_id, enabled) values ('15000000-0000-4000-8000-000000000002', false);

-- The projection's shape -------------------------------------------------------------------------
select columns_are('plaudit', 'public_reviews',
  array['org_id', 'id', 'rating', 'title', 'content', 'reviewer_name', 'verification_status', 'created_at',
        'verification_method', 'product_id', 'source', 'source_platform', 'incentivized', 'helpful_count', 'language', 'attributes'],
  'the public projection has exactly the public columns');
select hasnt_column('plaudit', 'public_reviews', 'reviewer_email', 'the public projection has no reviewer_email column');
select hasnt_column('plaudit', 'public_reviews', 'custom_fields', 'the public projection has no custom answers');
select is_empty(
  $$select p.oid::regprocedure::text from pg_proc p
    where p.oid in ('plaudit.public_version(text)'::regprocedure, 'plaudit.public_profile(text)'::regprocedure,
                    'plaudit.public_review_page(text,text,integer,integer,text,integer,boolean,text,text,jsonb)'::regprocedure,
                    'plaudit.submit_review(plaudit.review_submission,text,integer,text)'::regprocedure,
                    'plaudit.verify_review_by_token(text,uuid,uuid)'::regprocedure)
      and not (p.prosecdef and p.proconfig @> array['search_path=pg_catalog, pg_temp'])$$,
  'the public entry points are SECURITY DEFINER with the search_path pg_catalog, pg_temp');

-- Anonymous / public role ---------------------------------------------------------------------------
select results_eq($$select content from plaudit.public_reviews where org_id = '15000000-0000-4000-8000-000000000001' order by rating desc$$,
  $$values ('Visible'::text), ('Verified')$$, 'the projection holds only visible, verified or unverified reviews');
select ok((select reloptions @> array['security_invoker=true'] from pg_class where oid = 'plaudit.public_reviews'::regclass),
  'the projection runs with its reader''s rights, not its owner''s');

select tests.act_as_public();
select throws_ok($$select content from plaudit.public_reviews$$, '42501', 'permission denied for view public_reviews',
  'public: the projection is read through the public functions only (they check the profile is enabled)');
select throws_ok($$select * from plaudit.reviews$$, '42501', 'permission denied for table reviews', 'public: no access to reviews');
select throws_ok($$select * from plaudit.review_statistics$$, '42501', 'permission denied for table review_statistics',
  'public: no access to statistics');
select throws_ok($$select * from plaudit.public_profiles$$, '42501', 'permission denied for table public_profiles',
  'public: no access to profile settings');
select throws_ok($$delete from plaudit.public_reviews$$, '42501', 'permission denied for view public_reviews',
  'public: the projection is read-only');

select is(
  (select json_array_length(plaudit.public_review_page('public-owner', 'profile', 1, 20) -> 'items')), 2,
  'public: the profile feed has the two public reviews');
select is_empty(
  $$select 1 from json_array_elements(plaudit.public_review_page('public-owner', 'profile', 1, 20) -> 'items') i
    where i::jsonb ? 'reviewer_email' or i::text like '%@example.com%'$$,
  'public: no feed item carries an e-mail');
select results_eq(
  $$select i ->> 'content' from json_array_elements(plaudit.public_review_page('public-owner', 'embed', 1, 1) -> 'items') i$$,
  $$values ('Verified'::text)$$, 'public: the feed pages, newest first');
select is((plaudit.public_review_page('public-owner', 'profile', 1, 20) ->> 'total')::integer, 2,
  'public: the total comes with the page');
select ok(plaudit.public_review_page('no-such-business', 'profile', 1, 20) is null, 'public: an unknown slug answers null');
select is((plaudit.public_review_page('public-quiet', 'profile', 1, 20) ->> 'enabled')::boolean, false,
  'public: a disabled profile says so');
select results_eq(
  $$select p ->> 'name', p ->> 'website', p ->> 'review_count', p ->> 'average_rating', (p -> 'rating_distribution')::text
    from plaudit.public_profile('public-owner') p$$,
  $$values ('Public Co'::text, 'https://public.example'::text, '2'::text, '4.50'::text, '{"1" : 0, "2" : 0, "3" : 0, "4" : 1, "5" : 1}'::text)$$,
  'public: the profile''s aggregates cover the public reviews only');
select is(plaudit.public_profile('public-owner')::text like '%@example.com%', false, 'public: the profile carries no e-mail');
select throws_ok($$select plaudit.moderate_review('15000000-0000-4000-8000-0000000000a1', 'hide', 'x', 'me')$$, '42501',
  'permission denied for function moderate_review', 'public: cannot moderate');

-- Owner tenant (API role): the public functions are not its business -----------------------------------
select tests.clear_persona();
set local role plaudit_api;
select throws_ok($$select plaudit.public_review_page('public-owner', 'profile', 1, 20)$$, '42501',
  'permission denied for function public_review_page', 'the API role does not call the public functions');
select tests.clear_persona();

-- The one rule of which reviews are public (as the functions' owner) ---------------------------------
-- plaudit.review_is_public is written once and inlined where it is called: a plain SQL expression, no
-- SECURITY DEFINER, no SET clause, immutable. Inlined, the public feeds' queries still imply the
-- predicates of the partial indexes that write it out, and walk them.
create function pg_temp.plan_of(p_query text)
returns text
language plpgsql
as $$
declare
  line text;
  plan text := '';
begin
  for line in execute 'explain (costs off) ' || p_query loop
    plan := plan || line || E'\n';
  end loop;
  return plan;
end
$$;
set local role plaudit_owner;
select ok(exists (select from pg_proc p
                   where p.oid = 'plaudit.review_is_public(boolean,text)'::regprocedure
                     and p.prolang = (select l.oid from pg_language l where l.lanname = 'sql')
                     and not p.prosecdef and p.proconfig is null and p.provolatile in ('i', 's') and not p.proretset),
  'the rule is a SQL function PostgreSQL can inline: not SECURITY DEFINER, no SET clause, immutable');
select unalike(
  pg_temp.plan_of($$select r.id from plaudit.reviews r where plaudit.review_is_public(r.is_hidden, r.verification_status)$$),
  '%review_is_public%', 'the rule is inlined: the plan filters on its expression, not on a call');
set local enable_seqscan = off;
set local enable_bitmapscan = off;
select alike(
  pg_temp.plan_of($$select r.id from plaudit.reviews r
                     where r.org_id = '15000000-0000-4000-8000-000000000001' and r.product_id is null
                       and plaudit.review_is_public(r.is_hidden, r.verification_status)
                     order by r.created_at desc, r.id desc limit 20$$),
  '%Index Only Scan Backward using reviews_public_business_feed on reviews r%',
  'the business''s public feed walks its partial index');
select alike(
  pg_temp.plan_of($$select r.id from plaudit.reviews r
                     where r.product_id is not null and r.product_id = '15000000-0000-4000-8000-0000000000c1'
                       and plaudit.review_is_public(r.is_hidden, r.verification_status)
                     order by r.created_at desc, r.id desc limit 20$$),
  '%Index Only Scan Backward using reviews_public_product_feed on reviews r%',
  'a product''s public feed walks its partial index');
reset role;

select * from finish();
rollback;
