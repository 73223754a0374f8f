-- The moderation trail: written by the database for every moderation and verification change,
-- append-only for everyone, and a hash chain that verifies and detects tampering.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(24);

insert into plaudit.organizations (id, name, slug) values
  ('13000000-0000-4000-8000-000000000001', 'Trail Co', 'trail-owner'),
  ('13000000-0000-4000-8000-000000000002', 'Other Co', 'trail-stranger');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('13000000-0000-4000-8000-0000000000f1', '13000000-0000-4000-8000-000000000001', 'Manual', 'manual'),
  ('13000000-0000-4000-8000-0000000000f2', '13000000-0000-4000-8000-000000000002', 'Manual', 'manual');
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status) values
  ('13000000-0000-4000-8000-0000000000a1', '13000000-0000-4000-8000-000000000001', '13000000-0000-4000-8000-0000000000f1', 5, 'One', 'A', 'a@example.com', 'pending'),
  ('13000000-0000-4000-8000-0000000000a2', '13000000-0000-4000-8000-000000000001', '13000000-0000-4000-8000-0000000000f1', 2, 'Two', 'B', 'b@example.com', 'pending'),
  ('13000000-0000-4000-8000-0000000000b1', '13000000-0000-4000-8000-000000000002', '13000000-0000-4000-8000-0000000000f2', 4, 'Theirs', 'C', 'c@example.com', 'pending');

-- Owner tenant: moderation and verification through the API's functions -------------------------
select tests.act_as_tenant('13000000-0000-4000-8000-000000000001');

select lives_ok($$select plaudit.moderate_review('13000000-0000-4000-8000-0000000000a1', 'hide', 'Spam', 'api_key:k1')$$,
  'owner: hides a review');
select throws_ok($$select plaudit.moderate_review('13000000-0000-4000-8000-0000000000a1', 'hide', 'Again', 'api_key:k1')$$,
  '55000', 'Review is already hidden', 'owner: hiding a hidden review is a conflict');
select lives_ok($$select plaudit.moderate_review('13000000-0000-4000-8000-0000000000a1', 'unhide', 'Appeal', 'api_key:k2')$$,
  'owner: unhides it');
select throws_ok($$select plaudit.moderate_review('13000000-0000-4000-8000-0000000000a1', 'unhide', 'x', 'api_key:k2')$$,
  '55000', 'Review is not hidden', 'owner: unhiding a visible review is a conflict');
select throws_ok($$select plaudit.moderate_review('13000000-0000-4000-8000-0000000000a1', 'delete', 'x', 'api_key:k2')$$,
  '22023', 'action: must be hide or unhide', 'owner: only hide and unhide');
select lives_ok($$select plaudit.approve_review('13000000-0000-4000-8000-0000000000a1', 'Looks genuine', null)$$,
  'owner: approves a pending review');
select throws_ok($$select plaudit.approve_review('13000000-0000-4000-8000-0000000000a1', null, null)$$,
  '55000', 'Only a pending review can be approved; this one is verified', 'owner: approving twice is a conflict');
select lives_ok($$select plaudit.reject_review('13000000-0000-4000-8000-0000000000a2', 'Fake', null)$$,
  'owner: rejects a pending review');

select results_eq(
  $$select seq, review_id, action, reason from plaudit.moderation_trail order by seq$$,
  $$values (1::bigint, '13000000-0000-4000-8000-0000000000a1'::uuid, 'hide'::text, 'Spam'::text),
           (2, '13000000-0000-4000-8000-0000000000a1', 'unhide', 'Appeal'),
           (3, '13000000-0000-4000-8000-0000000000a1', 'approve', 'Looks genuine'),
           (4, '13000000-0000-4000-8000-0000000000a2', 'reject', 'Fake')$$,
  'owner: the trail holds each change, in order, with its reason');
select results_eq($$select actor from plaudit.moderation_trail where seq <= 2 order by seq$$,
  $$values ('api_key:k1'::text), ('api_key:k2')$$, 'owner: the trail names the actor');
select throws_ok($$update plaudit.moderation_trail set reason = 'edited' where seq = 1$$,
  '42501', 'permission denied for table moderation_trail', 'owner: cannot edit the trail');
select throws_ok($$delete from plaudit.moderation_trail where seq = 1$$,
  '42501', 'permission denied for table moderation_trail', 'owner: cannot delete from the trail');
select throws_ok($$insert into plaudit.moderation_trail (org_id, seq, review_id, action, actor, created_at, previous_hash, hash)
                   values ('13000000-0000-4000-8000-000000000001', 5, '13000000-0000-4000-8000-0000000000a1', 'hide', 'me', now(), '\x00', '\x00')$$,
  '42501', 'permission denied for table moderation_trail', 'owner: cannot forge an entry');

-- Stranger tenant ---------------------------------------------------------------------------------
select tests.act_as_tenant('13000000-0000-4000-8000-000000000002');
select is_empty($$select * from plaudit.moderation_trail$$, 'stranger: sees none of another tenant''s trail');
select throws_ok($$select plaudit.moderate_review('13000000-0000-4000-8000-0000000000a1', 'hide', 'x', 'api_key:evil')$$,
  'P0002', 'Review not found', 'stranger: cannot moderate another tenant''s review');
select throws_ok($$select plaudit.verify_moderation_chain('13000000-0000-4000-8000-000000000001')$$,
  '42501', 'permission denied for function verify_moderation_chain', 'stranger: cannot run the chain check');

-- Public role -------------------------------------------------------------------------------------
select tests.clear_persona();
select tests.act_as_public();
select throws_ok($$select * from plaudit.moderation_trail$$, '42501', 'permission denied for table moderation_trail',
  'public: cannot read the trail');

-- Table owner: append-only by trigger; the chain verifies and catches tampering -----------------------
select tests.clear_persona();
select results_eq($$select valid, entries, problem from plaudit.verify_moderation_chain('13000000-0000-4000-8000-000000000001')$$,
  $$values (true, 4::bigint, null::text)$$, 'the chain of four entries verifies');
set local timezone = 'Pacific/Chatham';
select results_eq($$select valid from plaudit.verify_moderation_chain('13000000-0000-4000-8000-000000000001')$$,
  $$values (true)$$, 'the chain verifies in any session time zone');
reset timezone;
select throws_ok($$update plaudit.moderation_trail set reason = 'edited' where seq = 1$$,
  '23001', 'the moderation trail is append-only: entries cannot be changed or deleted', 'table owner: cannot edit an entry');
select throws_ok($$delete from plaudit.moderation_trail where seq = 4$$,
  '23001', 'the moderation trail is append-only: entries cannot be changed or deleted', 'table owner: cannot delete an entry');
select throws_ok($$truncate plaudit.moderation_trail$$,
  '23001', 'the moderation trail is append-only: entries cannot be changed or deleted', 'table owner: cannot truncate the trail');

-- Only a superuser switching the guard off can edit an entry, and the chain then says so.
alter table plaudit.moderation_trail disable trigger moderation_trail_refuse_update;
update plaudit.moderation_trail set reason = 'Nothing to see' where org_id = '13000000-0000-4000-8000-000000000001' and seq = 2;
select results_eq($$select valid, broken_seq, problem from plaudit.verify_moderation_chain('13000000-0000-4000-8000-000000000001')$$,
  $$values (false, 2::bigint, 'entry 2 does not match its hash: its content was changed'::text)$$,
  'an edited entry is detected, and named');
update plaudit.moderation_trail set reason = 'Appeal' where org_id = '13000000-0000-4000-8000-000000000001' and seq = 2;
delete from plaudit.moderation_trail where org_id = '13000000-0000-4000-8000-000000000001' and seq = 4;
alter table plaudit.moderation_trail enable trigger moderation_trail_refuse_update;
select results_eq($$select valid, entries, problem from plaudit.verify_moderation_chain('13000000-0000-4000-8000-000000000001')$$,
  $$values (false, 3::bigint, 'the chain head records 4 entries but 3 verify: entries were removed'::text)$$,
  'a removed last entry is detected through the chain head');

select * from finish();
rollback;
