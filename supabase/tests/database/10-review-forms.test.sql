-- Review forms: definitions validated by the database, tenant isolation, no deletion.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(19);

insert into plaudit.organizations (id, name, slug) values
  ('10000000-0000-4000-8000-000000000001', 'Owner Co', 'forms-owner'),
  ('10000000-0000-4000-8000-000000000002', 'Stranger Co', 'forms-stranger');
insert into plaudit.review_forms (id, org_id, name, custom_fields) values
  ('10000000-0000-4000-8000-0000000000f1', '10000000-0000-4000-8000-000000000001', 'Owner form',
   '[{"key":"size","label":"Size","type":"select","required":true,"options":["S","M"]}]'),
  ('10000000-0000-4000-8000-0000000000f2', '10000000-0000-4000-8000-000000000002', 'Stranger form', '[]');

-- Definitions -----------------------------------------------------------------------------------
select ok(plaudit.custom_field_definitions_are_valid(
  '[{"key":"a","label":"A","type":"text"},{"key":"b","label":"B","type":"select","required":false,"options":["x","y"]}]'),
  'valid definitions pass');
select ok(not plaudit.custom_field_definitions_are_valid('{}'), 'an object is not a list of definitions');
select ok(not plaudit.custom_field_definitions_are_valid('[{"key":"a","label":"A","type":"text"},{"key":"a","label":"B","type":"text"}]'),
  'keys must be unique');
select ok(not plaudit.custom_field_definitions_are_valid('[{"key":"1a","label":"A","type":"text"}]'), 'keys are identifiers');
select ok(not plaudit.custom_field_definitions_are_valid('[{"key":"a","label":"A","type":"select","options":[]}]'),
  'a select field needs options');
select ok(not plaudit.custom_field_definitions_are_valid('[{"key":"a","label":"A","type":"text","options":["x"]}]'),
  'only select fields have options');
select ok(not plaudit.custom_field_definitions_are_valid('[{"key":"a","label":"A","type":"text","secret":1}]'),
  'unknown attributes are refused');
select throws_ok(
  $$insert into plaudit.review_forms (org_id, name, verification_mode)
    values ('10000000-0000-4000-8000-000000000001', 'x', 'sms')$$,
  '23514', 'new row for relation "review_forms" violates check constraint "review_forms_verification_mode_check"',
  'unknown verification modes are refused');

-- Owner tenant ------------------------------------------------------------------------------------
select tests.act_as_tenant('10000000-0000-4000-8000-000000000001');

select results_eq($$select name from plaudit.review_forms$$, $$values ('Owner form')$$,
  'the owner sees only its own forms');
select lives_ok(
  $$insert into plaudit.review_forms (org_id, name) values ('10000000-0000-4000-8000-000000000001', 'Second')$$,
  'the owner creates a form');
select lives_ok(
  $$update plaudit.review_forms set deleted_at = now() where id = '10000000-0000-4000-8000-0000000000f1'$$,
  'the owner deletes a form by marking it');
select throws_ok(
  $$update plaudit.review_forms set name = 'back' where id = '10000000-0000-4000-8000-0000000000f1'$$,
  '55000', 'review form 10000000-0000-4000-8000-0000000000f1 is deleted and cannot be changed',
  'a deleted form cannot be changed or restored');
select throws_ok(
  $$delete from plaudit.review_forms where id = '10000000-0000-4000-8000-0000000000f1'$$,
  '42501', 'permission denied for table review_forms', 'forms are never deleted through the API role');

-- Stranger tenant ---------------------------------------------------------------------------------
select tests.act_as_tenant('10000000-0000-4000-8000-000000000002');
select results_eq($$select name from plaudit.review_forms$$, $$values ('Stranger form')$$,
  'a stranger sees only its own forms');
update plaudit.review_forms set name = 'hijacked' where id = '10000000-0000-4000-8000-0000000000f1';
select throws_ok(
  $$insert into plaudit.review_forms (org_id, name) values ('10000000-0000-4000-8000-000000000001', 'planted')$$,
  '42501', 'new row violates row-level security policy for table "review_forms"',
  'a stranger cannot create a form in another organization');
select throws_ok(
  $$insert into plaudit.review_forms (org_id, name, created_at) values ('10000000-0000-4000-8000-000000000002', 'x', now())$$,
  '42501', 'permission denied for table review_forms', 'created_at is not the client''s to set');

-- Public role -------------------------------------------------------------------------------------
select tests.clear_persona();
select tests.act_as_public();
select throws_ok($$select * from plaudit.review_forms$$, '42501', 'permission denied for table review_forms',
  'the public role cannot read forms');

select tests.clear_persona();
select is((select name from plaudit.review_forms where id = '10000000-0000-4000-8000-0000000000f1'), 'Owner form',
  'the stranger''s update touched nothing');
select is((select count(*)::integer from plaudit.review_forms where org_id = '10000000-0000-4000-8000-000000000001'), 2,
  'the owner has both its forms, one marked deleted');

select * from finish();
rollback;
