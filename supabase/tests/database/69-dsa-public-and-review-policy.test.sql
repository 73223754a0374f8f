-- The public side of the DSA figures and the review policy page: the public reads a slug's year
-- through the same computation as the tenant's report (plaudit.dsa_transparency_of), with the
-- years that have data, and nothing of another year or tenant; a tenant calling the computation
-- with another organization's id counts nothing (RLS); the policy's facts follow the settings; the
-- business's own text is bounded and only its tenant writes it; a notice moves the page's version
-- and asks for a CDN purge.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(14);

insert into plaudit.organizations (id, name, slug) values
  ('69000000-0000-4000-8000-000000000001', 'Policy Co', 'policy-co'),
  ('69000000-0000-4000-8000-000000000002', 'Other Co', 'policy-other');
insert into plaudit.public_profiles (org_id, review_policy) values
  ('69000000-0000-4000-8000-000000000001', 'Staff do not review us.');
insert into plaudit.review_forms (id, org_id, name, verification_mode, incentive) values
  ('69000000-0000-4000-8000-0000000000f1', '69000000-0000-4000-8000-000000000001', 'Form', 'email',
   '{"type": "discount", "description": "10% off"}'),
  ('69000000-0000-4000-8000-0000000000f2', '69000000-0000-4000-8000-000000000002', 'Form', 'manual', null);
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, verification_status) values
  ('69000000-0000-4000-8000-0000000000a1', '69000000-0000-4000-8000-000000000001',
   '69000000-0000-4000-8000-0000000000f1', 1, 'Harsh', 'Ann', 'unverified'),
  ('69000000-0000-4000-8000-0000000000b1', '69000000-0000-4000-8000-000000000002',
   '69000000-0000-4000-8000-0000000000f2', 1, 'Harsh', 'Bob', 'unverified');
insert into plaudit.review_reports (org_id, review_id, reason, reporter_hash, kind, legal_ground, good_faith, status,
                                    decision, resolution, resolved_at, resolved_by, created_at, reporter_email) values
  ('69000000-0000-4000-8000-000000000001', '69000000-0000-4000-8000-0000000000a1', 'other', sha256('1'::bytea),
   'illegal', 'Defamation law', true, 'resolved', 'kept', 'Opinion', '2025-03-01 02:00Z', 'member:m1',
   '2025-03-01 00:00Z', 'reporter@example.com'),
  ('69000000-0000-4000-8000-000000000001', '69000000-0000-4000-8000-0000000000a1', 'other', sha256('2'::bytea),
   'policy', null, true, 'open', null, null, null, null, '2024-06-01 00:00Z', null),
  ('69000000-0000-4000-8000-000000000002', '69000000-0000-4000-8000-0000000000b1', 'other', sha256('3'::bytea),
   'policy', null, true, 'open', null, null, null, null, '2023-06-01 00:00Z', null);
insert into plaudit.review_statements (org_id, review_id, facts, automated, ground_type, ground, source, actor,
                                       appeal_token_hash, created_at) values
  ('69000000-0000-4000-8000-000000000001', '69000000-0000-4000-8000-0000000000a1', 'Facts', false, 'policy',
   'Clause 2: no advertising', 'moderation', 'member:m1', sha256('69-1'::bytea), now() - interval '1 day');

-- Tenant A ------------------------------------------------------------------------------------------
select tests.act_as_tenant('69000000-0000-4000-8000-000000000001');
create temporary table report_a as select plaudit.dsa_transparency(2025)::jsonb as r;
grant select on report_a to public;
select is((select r from report_a),
          plaudit.dsa_transparency_of('69000000-0000-4000-8000-000000000001', 2025)::jsonb,
          'tenant A: its report is the computation of its own organization');
select is((select r #> '{notices,received,total}' from report_a), '1'::jsonb, 'tenant A: the year''s one notice');
select is(plaudit.dsa_transparency_of('69000000-0000-4000-8000-000000000002', 2023)::jsonb #> '{notices,received,total}',
          '0'::jsonb, 'tenant A: another organization''s id counts nothing of it (RLS)');
select throws_ok($$ update plaudit.public_profiles set review_policy = '' $$, '23514',
  'new row for relation "public_profiles" violates check constraint "public_profiles_review_policy_check"',
  'tenant A: its own text is 1 to 10,000 characters');
update plaudit.public_profiles set review_policy = 'We reply within two days.';

-- Tenant B ------------------------------------------------------------------------------------------
select tests.act_as_tenant('69000000-0000-4000-8000-000000000002');
update plaudit.public_profiles set review_policy = 'Hijacked'
 where org_id = '69000000-0000-4000-8000-000000000001';
select tests.clear_persona();
select is((select review_policy from plaudit.public_profiles where org_id = '69000000-0000-4000-8000-000000000001'),
          'We reply within two days.', 'tenant B: cannot write another tenant''s text');

-- The public ----------------------------------------------------------------------------------------
select tests.act_as_public();
select is(plaudit.public_dsa_transparency('policy-co', 2025)::jsonb -> 'report', (select r from report_a),
          'public: the same figures as the tenant''s report');
select is(plaudit.public_dsa_transparency('policy-co', 2025)::jsonb -> 'years',
          jsonb_build_array(extract(year from (now() - interval '1 day') at time zone 'UTC')::int, 2025, 2024),
          'public: the years with a notice, statement or appeal, newest first, of this tenant only');
select ok(plaudit.public_dsa_transparency('policy-co', 2025)::text not like '%reporter@example.com%',
          'public: no reporter''s address in the figures');
select is(plaudit.public_dsa_transparency('no-such-slug', 2025)::jsonb, null, 'public: an unknown slug answers null');
select throws_ok('select plaudit.dsa_transparency_of(''69000000-0000-4000-8000-000000000001'', 2025)', '42501',
  'permission denied for function dsa_transparency_of', 'public: cannot call the computation itself');
select is(plaudit.public_review_policy('policy-co')::jsonb - 'version',
  jsonb_build_object('enabled', true, 'slug', 'policy-co', 'name', 'Policy Co',
    'forms', jsonb_build_object('none', 0, 'email', 1, 'purchase_proof', 0, 'manual', 0),
    'form_incentives', '[{"type": "discount", "description": "10% off"}]'::jsonb,
    'requests_last_12_months', false, 'request_incentives_last_12_months', false,
    'imports', jsonb_build_object('count', 0, 'platforms', '[]'::jsonb),
    'grounds', '[{"type": "policy", "text": "Clause 2: no advertising", "count": 1}]'::jsonb,
    'widget_min_rating', 1, 'media_moderation', 'auto', 'own_text', 'We reply within two days.'),
  'public: the policy''s facts are the settings and the grounds of the last 12 months');
select is(plaudit.public_review_policy('policy-other')::jsonb #>> '{own_text}', null,
          'public: a business without its own text has none');

-- A notice moves the version and asks for a purge ---------------------------------------------------
select tests.clear_persona();
create temporary table before as select plaudit.public_transparency_version('policy-co') as v;
delete from plaudit.cdn_purges where org_id = '69000000-0000-4000-8000-000000000001';
insert into plaudit.review_reports (org_id, review_id, reason, reporter_hash, kind, good_faith, created_at)
values ('69000000-0000-4000-8000-000000000001', '69000000-0000-4000-8000-0000000000a1', 'other', sha256('4'::bytea),
        'policy', true, '2025-05-01 00:00Z');
select isnt(plaudit.public_transparency_version('policy-co'), (select v from before),
            'owner: a notice moves the transparency (and policy) page''s version');
select is((select count(*)::int from plaudit.cdn_purges
            where org_id = '69000000-0000-4000-8000-000000000001' and status = 'pending'), 1,
          'owner: a notice asks for a CDN purge of its organization');

select * from finish();
rollback;
