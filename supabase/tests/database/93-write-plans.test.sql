-- Writes keep their plans: the API's login plans every statement for its own values
-- (plan_cache_mode = force_custom_plan, for the reads' deep pages), but a public submission, a
-- helpful vote and the other hot writes run with plan_cache_mode = auto, and so do the functions and
-- triggers they run: their statements, lookups by key, keep a plan for the session instead of being
-- planned at every call (docs/benchmarks.md, "Submissions keep their plans").
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(8);

insert into plaudit.organizations (id, name, slug) values
  ('93000000-0000-4000-8000-000000000001', 'Plans Co', 'plans-co');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('93000000-0000-4000-8000-0000000000f1', '93000000-0000-4000-8000-000000000001', 'Form', 'none');
insert into plaudit.products (id, org_id, external_id, name, archived) values
  ('93000000-0000-4000-8000-0000000000c1', '93000000-0000-4000-8000-000000000001', 'kept', 'Kept', false),
  ('93000000-0000-4000-8000-0000000000c2', '93000000-0000-4000-8000-000000000001', 'gone', 'Gone', true);

-- What the statements of a write see: triggers of this file's own, rolled back with it.
create temporary table modes (relation text, mode text) on commit drop;
grant select, insert, delete on modes to public;
create function pg_temp.note_mode() returns trigger language plpgsql as $$
begin
  insert into modes values (tg_table_name, current_setting('plan_cache_mode'));
  return null;
end
$$;
create trigger note_mode_93 after insert on plaudit.reviews for each row execute function pg_temp.note_mode();
create trigger note_mode_93 after insert on plaudit.review_votes for each row execute function pg_temp.note_mode();

-- The login ----------------------------------------------------------------------------------------
select ok(exists (select from pg_db_role_setting
                   where setrole = 'plaudit_authenticator'::regrole
                     and 'plan_cache_mode=force_custom_plan' = any (setconfig)),
  'login: plans each statement for its values, as the reads'' deep pages need');

-- The public, logged in as the API is --------------------------------------------------------------
set plan_cache_mode = force_custom_plan;
select tests.act_as_public();
create temporary table submitted on commit drop as
select s.id, s.error_code
  from plaudit.submit_review(jsonb_populate_record(null::plaudit.review_submission, jsonb_build_object(
         'form_id', '93000000-0000-4000-8000-0000000000f1', 'rating', 5, 'content', 'Kept its plans.',
         'reviewer_name', 'Rev', 'reviewer_email', 'plans@example.com')), 'submit:plans', 100, 'https://r.example') s;
select results_eq($$select error_code from submitted$$, $$values (null::text)$$,
  'public: the review is stored');
select results_eq($$select relation, mode from modes$$, $$values ('reviews'::text, 'auto'::text)$$,
  'public: the submission''s statements, its triggers'' too, keep their plans whatever the login''s mode');
select is(current_setting('plan_cache_mode'), 'force_custom_plan',
  'public: the login''s mode is its own again once the submission is done');

delete from modes;
select results_eq($$select published from plaudit.vote_helpful('vote:plans', 100, 'plans-co',
                      (select id from submitted), sha256('visitor-93'::bytea))$$,
  $$values (true)$$, 'public: the helpful vote counts');
select results_eq($$select relation, mode from modes$$, $$values ('review_votes'::text, 'auto'::text)$$,
  'public: a helpful vote''s statements keep their plans too');
select tests.clear_persona();
reset plan_cache_mode;

-- The owner ----------------------------------------------------------------------------------------
select is((select array_agg(p.proname::text order by p.proname) from pg_proc p
            where p.pronamespace = 'plaudit'::regnamespace and 'plan_cache_mode=auto' = any (p.proconfig)
              and p.proname in ('create_review_requests', 'inbound_connection_event', 'issue_media_upload_token',
                                'receive_connection_event', 'report_review', 'store_submitted_review',
                                'submit_requested_review', 'vote_helpful')),
  array['create_review_requests', 'inbound_connection_event', 'issue_media_upload_token', 'receive_connection_event',
        'report_review', 'store_submitted_review', 'submit_requested_review', 'vote_helpful'],
  'owner: the hot writes keep their plans: submissions and their upload tokens, signals, connection events, requests');

-- Reviews of the business never look products up for the sitemaps; a product's does.
select results_eq($$values (plaudit.cdn_change_alters_sitemap('reviews', 'INSERT', null, '{"product_id": null}')),
                           (plaudit.cdn_change_alters_sitemap('reviews', 'INSERT', null,
                              '{"product_id": "93000000-0000-4000-8000-0000000000c1"}')),
                           (plaudit.cdn_change_alters_sitemap('reviews', 'UPDATE',
                              '{"product_id": "93000000-0000-4000-8000-0000000000c2"}',
                              '{"product_id": "93000000-0000-4000-8000-0000000000c2"}'))$$,
  $$values (false), (false), (true)$$,
  'owner: a review alters the sitemaps only when its product is archived');

select * from finish();
rollback;
