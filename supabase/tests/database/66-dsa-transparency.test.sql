-- The DSA transparency report (Art. 15, 24): a tenant's yearly figures, counted from its notices,
-- statements of reasons and appeals; the year's bounds in UTC; another tenant's rows never counted.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(5);

insert into plaudit.organizations (id, name, slug) values
  ('66000000-0000-4000-8000-000000000001', 'Figures Co', 'figures-co'),
  ('66000000-0000-4000-8000-000000000002', 'Other Co', 'figures-other');
insert into plaudit.review_forms (id, org_id, name) values
  ('66000000-0000-4000-8000-0000000000f1', '66000000-0000-4000-8000-000000000001', 'Form'),
  ('66000000-0000-4000-8000-0000000000f2', '66000000-0000-4000-8000-000000000002', 'Form');
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, verification_status) values
  ('66000000-0000-4000-8000-0000000000a1', '66000000-0000-4000-8000-000000000001',
   '66000000-0000-4000-8000-0000000000f1', 1, 'Harsh', 'Ann', 'unverified'),
  ('66000000-0000-4000-8000-0000000000b1', '66000000-0000-4000-8000-000000000002',
   '66000000-0000-4000-8000-0000000000f2', 1, 'Harsh', 'Bob', 'unverified');

-- Notices: received by created_at, decided by resolved_at (the decisions took 1 h, 3 h, 2 h and 4 h:
-- median 2.5 h); one decided in the year before, one still open, one of the tenant's other years.
insert into plaudit.review_reports (org_id, review_id, reason, reporter_hash, kind, legal_ground, good_faith, status,
                                    decision, resolution, resolved_at, resolved_by, created_at)
select '66000000-0000-4000-8000-000000000001', '66000000-0000-4000-8000-0000000000a1', 'other', sha256(n::text::bytea),
       kind, case when kind = 'illegal' then 'Defamation law' end, true, case when resolved is null then 'open' else 'resolved' end,
       decision, case when resolved is not null then 'Decided' end, resolved::timestamptz,
       case when resolved is not null then 'member:m1' end, created::timestamptz
  from (values (1, 'illegal', '2025-03-01 00:00Z', '2025-03-01 01:00Z', 'hidden'),
               (2, 'policy', '2025-04-01 00:00Z', '2025-04-01 03:00Z', 'kept'),
               (3, 'policy', '2025-05-01 00:00Z', '2025-05-01 02:00Z', 'kept'),
               (4, 'illegal', '2025-12-31 23:00Z', null, null),
               (5, 'policy', '2024-12-31 22:00Z', '2025-01-01 02:00Z', 'hidden'),
               (6, 'policy', '2024-06-01 00:00Z', '2024-06-02 00:00Z', 'kept'))
       v(n, kind, created, resolved, decision);

-- Statements of reasons: those of the business's own initiative count; a notice's decision does not.
insert into plaudit.review_statements (id, org_id, review_id, facts, automated, ground_type, ground, source, actor,
                                       appeal_token_hash, created_at)
select ('66000000-0000-4000-8000-00000000005' || n)::uuid, '66000000-0000-4000-8000-000000000001',
       '66000000-0000-4000-8000-0000000000a1', 'Facts', automated, ground_type, ground, source, 'member:m1',
       sha256(('66-' || n)::bytea), created::timestamptz
  from (values (1, false, 'policy', 'Figures Co''s review policy', 'moderation', '2025-02-01 00:00Z'),
               (2, false, 'policy', 'Figures Co''s review policy', 'moderation', '2025-06-01 00:00Z'),
               (3, true, 'policy', 'Spam clause', 'automatic', '2025-07-01 00:00Z'),
               (4, false, 'law', 'Defamation law', 'moderation', '2025-08-01 00:00Z'),
               (5, false, 'law', 'Defamation law', 'report', '2025-03-01 01:00Z'),
               (6, false, 'policy', 'Figures Co''s review policy', 'moderation', '2024-05-01 00:00Z'))
       v(n, automated, ground_type, ground, source, created);

-- Appeals: lodged by created_at, decided by decided_at (1 day, 1 h and 1 day: median 1 day).
insert into plaudit.review_appeals (org_id, review_id, statement_id, text, status, resolution, decided_at, decided_by,
                                    created_at)
select '66000000-0000-4000-8000-000000000001', '66000000-0000-4000-8000-0000000000a1',
       ('66000000-0000-4000-8000-00000000005' || n)::uuid, 'I was fair', status,
       case when decided is not null then 'Reasons' end, decided::timestamptz,
       case when decided is not null then 'member:m1' end, created::timestamptz
  from (values (1, 'upheld', '2025-02-02 00:00Z', '2025-02-03 00:00Z'),
               (2, 'reversed', '2025-06-02 00:00Z', '2025-06-02 01:00Z'),
               (3, 'open', '2025-07-02 00:00Z', null),
               (6, 'upheld', '2024-12-31 00:00Z', '2025-01-01 00:00Z'))
       v(n, status, created, decided);

-- The other tenant: one of each in the same year.
insert into plaudit.review_reports (org_id, review_id, reason, reporter_hash, kind, legal_ground, good_faith, created_at)
values ('66000000-0000-4000-8000-000000000002', '66000000-0000-4000-8000-0000000000b1', 'other', sha256('b'::bytea),
        'illegal', 'Some law', true, '2025-03-01 00:00Z');
insert into plaudit.review_statements (id, org_id, review_id, facts, automated, ground_type, ground, source, actor,
                                       appeal_token_hash, created_at)
values ('66000000-0000-4000-8000-0000000000b5', '66000000-0000-4000-8000-000000000002',
        '66000000-0000-4000-8000-0000000000b1', 'Facts', true, 'policy', 'Other policy', 'automatic', 'system',
        sha256('66-b'::bytea), '2025-03-01 00:00Z');
insert into plaudit.review_appeals (org_id, review_id, statement_id, text, status, resolution, decided_at, decided_by,
                                    created_at)
values ('66000000-0000-4000-8000-000000000002', '66000000-0000-4000-8000-0000000000b1',
        '66000000-0000-4000-8000-0000000000b5', 'Mine', 'reversed', 'Yes', '2025-03-02 00:00Z', 'member:b',
        '2025-03-01 00:00Z');

-- Tenant A ------------------------------------------------------------------------------------------
select tests.act_as_tenant('66000000-0000-4000-8000-000000000001');
select is(plaudit.dsa_transparency(2025)::jsonb, jsonb_build_object(
  'year', 2025, 'org_id', '66000000-0000-4000-8000-000000000001',
  'notices', jsonb_build_object(
    'received', jsonb_build_object('illegal', 2, 'policy', 2, 'total', 4),
    'decided', jsonb_build_object('hidden', 2, 'kept', 2, 'total', 4),
    'median_seconds_to_decide', 9000),
  'own_initiative_restrictions', jsonb_build_object(
    'total', 4, 'automated', 1, 'not_automated', 3,
    'by_ground', jsonb_build_array(
      jsonb_build_object('ground_type', 'policy', 'ground', 'Figures Co''s review policy', 'automated', false, 'count', 2),
      jsonb_build_object('ground_type', 'law', 'ground', 'Defamation law', 'automated', false, 'count', 1),
      jsonb_build_object('ground_type', 'policy', 'ground', 'Spam clause', 'automated', true, 'count', 1))),
  'automated_holds', jsonb_build_object('bursts', 0, 'held_reviews', jsonb_build_object(
    'burst', 0, 'duplicate_text', 0, 'order_reused', 0, 'total', 0)),
  'appeals', jsonb_build_object(
    'received', 3,
    'decided', jsonb_build_object('upheld', 2, 'reversed', 1, 'total', 3),
    'median_seconds_to_decide', 86400)),
  'tenant A: the year''s figures, counted from its own notices, statements and appeals only');
select is(plaudit.dsa_transparency(2023)::jsonb - 'org_id', jsonb_build_object(
  'year', 2023,
  'notices', jsonb_build_object(
    'received', jsonb_build_object('illegal', 0, 'policy', 0, 'total', 0),
    'decided', jsonb_build_object('hidden', 0, 'kept', 0, 'total', 0),
    'median_seconds_to_decide', null),
  'own_initiative_restrictions', jsonb_build_object('total', 0, 'automated', 0, 'not_automated', 0, 'by_ground', '[]'::jsonb),
  'automated_holds', jsonb_build_object('bursts', 0, 'held_reviews', jsonb_build_object(
    'burst', 0, 'duplicate_text', 0, 'order_reused', 0, 'total', 0)),
  'appeals', jsonb_build_object(
    'received', 0, 'decided', jsonb_build_object('upheld', 0, 'reversed', 0, 'total', 0),
    'median_seconds_to_decide', null)),
  'tenant A: a year without anything counts zeros, medians null');

-- Tenant B ------------------------------------------------------------------------------------------
select tests.act_as_tenant('66000000-0000-4000-8000-000000000002');
select is(plaudit.dsa_transparency(2025)::jsonb #> '{notices,received,total}', '1'::jsonb,
  'tenant B: its own notice only');
select is(plaudit.dsa_transparency(2025)::jsonb -> 'own_initiative_restrictions' -> 'by_ground',
  jsonb_build_array(jsonb_build_object('ground_type', 'policy', 'ground', 'Other policy', 'automated', true, 'count', 1)),
  'tenant B: its own restriction only');

-- The public ----------------------------------------------------------------------------------------
select tests.act_as_public();
select throws_ok('select plaudit.dsa_transparency(2025)', '42501', 'permission denied for function dsa_transparency',
  'public: reads no figures');
select tests.clear_persona();

select * from finish();
rollback;
