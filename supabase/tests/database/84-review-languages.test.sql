-- Reviews' languages: the column takes two lowercase letters or nothing; the reader's language
-- reorders a public list only where the business has reviews in another language, and then puts
-- the reader's (and those too short to tell) first.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(7);

insert into plaudit.organizations (id, name, slug) values
  ('84000000-0000-4000-8000-000000000001', 'One Tongue', 'one-tongue'),
  ('84000000-0000-4000-8000-000000000002', 'Two Tongues', 'two-tongues');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('84000000-0000-4000-8000-0000000000f1', '84000000-0000-4000-8000-000000000001', 'Open', 'none'),
  ('84000000-0000-4000-8000-0000000000f2', '84000000-0000-4000-8000-000000000002', 'Open', 'none');
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email,
                             verification_status, language, created_at) values
  ('84000000-0000-4000-8000-000000000e01', '84000000-0000-4000-8000-000000000001', '84000000-0000-4000-8000-0000000000f1',
   5, 'Lovely', 'Ann', 'ann@example.com', 'unverified', 'en', '2026-01-01 10:00:00+00'),
  ('84000000-0000-4000-8000-000000000e02', '84000000-0000-4000-8000-000000000001', '84000000-0000-4000-8000-0000000000f1',
   4, 'Ok', 'Bo', 'bo@example.com', 'unverified', null, '2026-01-02 10:00:00+00'),
  ('84000000-0000-4000-8000-000000000e03', '84000000-0000-4000-8000-000000000002', '84000000-0000-4000-8000-0000000000f2',
   5, 'Schön', 'Cy', 'cy@example.com', 'unverified', 'de', '2026-01-01 10:00:00+00'),
  ('84000000-0000-4000-8000-000000000e04', '84000000-0000-4000-8000-000000000002', '84000000-0000-4000-8000-0000000000f2',
   4, 'Lovely', 'Di', 'di@example.com', 'unverified', 'en', '2026-01-02 10:00:00+00'),
  ('84000000-0000-4000-8000-000000000e05', '84000000-0000-4000-8000-000000000002', '84000000-0000-4000-8000-0000000000f2',
   3, 'Très bien', 'Ed', 'ed@example.com', 'unverified', 'fr', '2026-01-03 10:00:00+00');

select throws_ok(
  $$insert into plaudit.reviews (org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status, language)
    values ('84000000-0000-4000-8000-000000000001', '84000000-0000-4000-8000-0000000000f1', 5, 'Loud', 'Fy',
            'fy@example.com', 'unverified', 'EN')$$,
  '23514', 'new row for relation "reviews" violates check constraint "reviews_language_check"',
  'a language is two lowercase letters'
);

-- The probe behind the reader's order: a business written in one language has nothing to reorder.
select is(plaudit.has_reviews_in_other_language('84000000-0000-4000-8000-000000000001', 'en'), false,
  'a business whose reviews are English or too short to tell has none in another language than English');
select is(plaudit.has_reviews_in_other_language('84000000-0000-4000-8000-000000000001', 'de'), true,
  'it has for a German reader');
select is(plaudit.has_reviews_in_other_language('84000000-0000-4000-8000-000000000002', 'en'), true,
  'a business with German and French reviews has, for an English reader (below and above "en")');
select is(plaudit.has_reviews_in_other_language('84000000-0000-4000-8000-000000000002', 'zz'), true,
  'and for a reader whose language sorts after all of them');

select tests.act_as_public();
select is(
  (select array_agg(i ->> 'id' order by n) from json_array_elements(
     plaudit.public_review_page('two-tongues', 'profile', 1, 10, 'newest', null, false, null, 'en') -> 'items'
   ) with ordinality x(i, n)),
  array['84000000-0000-4000-8000-000000000e04', '84000000-0000-4000-8000-000000000e05',
        '84000000-0000-4000-8000-000000000e03'],
  'an English reader reads the English review first, then the others newest first'
);
select is(
  (select array_agg(i ->> 'id' order by n) from json_array_elements(
     plaudit.public_review_page('one-tongue', 'profile', 1, 10, 'oldest', null, false, null, 'en') -> 'items'
   ) with ordinality x(i, n)),
  array['84000000-0000-4000-8000-000000000e01', '84000000-0000-4000-8000-000000000e02'],
  'a business in one language keeps the order asked'
);
select tests.clear_persona();

select * from finish();
rollback;
