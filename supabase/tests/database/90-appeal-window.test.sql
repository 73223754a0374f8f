-- The appeal window (EU DSA Art. 20(1): at least six months after the decision): a statement's
-- decision may be appealed for plaudit.appeal_window() (six months) from the statement's date; the
-- form says until when and, past it, shows the refusal; the public's appeal is refused then with
-- the day it ended, but an appeal made in time is still answered as made. The statement's mail and
-- a hidden review's public address say until when.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(9);

insert into plaudit.organizations (id, name, slug) values
  ('90000000-0000-4000-8000-000000000001', 'Window Co', 'window-co');
insert into plaudit.review_forms (id, org_id, name) values
  ('90000000-0000-4000-8000-0000000000f1', '90000000-0000-4000-8000-000000000001', 'Form');
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status)
values ('90000000-0000-4000-8000-0000000000a1', '90000000-0000-4000-8000-000000000001',
        '90000000-0000-4000-8000-0000000000f1', 1, 'Harsh', 'Ann', 'ann@example.com', 'unverified'),
       ('90000000-0000-4000-8000-0000000000a2', '90000000-0000-4000-8000-000000000001',
        '90000000-0000-4000-8000-0000000000f1', 1, 'Rude', 'Bob', 'bob@example.com', 'unverified');
update plaudit.reviews set is_hidden = true where org_id = '90000000-0000-4000-8000-000000000001';
create temporary table link as
  select data ->> 'review_id' as review_id, data ->> 'appeal_token' as token, data ->> 'appeal_until' as until
    from plaudit.email_outbox where template = 'statement_of_reasons';
grant select on link to public;

-- The owner ---------------------------------------------------------------------------------------
select is(plaudit.appeal_window(), interval '6 months', 'owner: the window is six months');
select ok((select bool_and(until = plaudit.iso_utc(s.created_at + interval '6 months'))
             from link join plaudit.review_statements s on s.review_id = link.review_id::uuid),
  'owner: the statement''s mail says until when one may appeal');
-- Ann's decision was made seven months ago, on 2026-01-10; Bob appealed in time, six months ago.
update plaudit.review_statements set created_at = '2026-01-10 12:00:00+00'
 where review_id = '90000000-0000-4000-8000-0000000000a1';
select plaudit.submit_appeal((select token from link where review_id = '90000000-0000-4000-8000-0000000000a2'), 'Fair');
update plaudit.review_statements set created_at = now() - interval '7 months'
 where review_id = '90000000-0000-4000-8000-0000000000a2';

-- The public: the reviewers' links ----------------------------------------------------------------
select tests.act_as_public();
select results_eq($$select appeal_until, appeal_closed, appeal_status from plaudit.appeal_form(
                      (select token from link where review_id = '90000000-0000-4000-8000-0000000000a1'))$$,
  $$values ('2026-07-10 12:00:00+00'::timestamptz, 'The time to appeal this decision ended on July 10, 2026.'::text,
            null::text)$$,
  'public: the form of a decision past its window shows when it ended');
select throws_ok($$select plaudit.submit_appeal((select token from link
                     where review_id = '90000000-0000-4000-8000-0000000000a1'), 'Too late')$$,
  '55000', 'The time to appeal this decision ended on July 10, 2026.', 'public: an appeal past the window is refused');
select results_eq($$select outcome from plaudit.submit_appeal((select token from link
                      where review_id = '90000000-0000-4000-8000-0000000000a2'), 'Again')$$,
  $$values ('already_appealed'::text)$$, 'public: an appeal made in time is still answered as made');
select results_eq($$select appeal_until from plaudit.public_hidden_review_ground('window-co',
                      '90000000-0000-4000-8000-0000000000a1')$$,
  $$values ('2026-07-10 12:00:00+00'::timestamptz)$$,
  'public: a hidden review''s address says until when its author could appeal');
select tests.clear_persona();

select is((select count(*)::integer from plaudit.review_appeals), 1, 'owner: no appeal was stored past the window');
select is((select count(*)::integer from plaudit.moderation_trail where action = 'appeal'), 1,
  'owner: the refused appeal is not in the trail');

-- A decision of today may be appealed for six months.
update plaudit.review_statements set created_at = now() where review_id = '90000000-0000-4000-8000-0000000000a1';
select tests.act_as_public();
select results_eq($$select outcome from plaudit.submit_appeal((select token from link
                      where review_id = '90000000-0000-4000-8000-0000000000a1'), 'In time')$$,
  $$values ('appealed'::text)$$, 'public: an appeal within the window is taken');
select tests.clear_persona();

select * from finish();
rollback;
