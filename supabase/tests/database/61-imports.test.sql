-- plaudit.create_import and plaudit.run_imports: a tenant stages an import and the worker applies
-- it; imported reviews are unverified, keyed, hidden when unpublished, with their replies; the same
-- rows again are duplicates; an import is one chain entry and one event; another tenant reads none
-- of it; the public and the tenant cannot touch the staged rows or run imports.
begin;
select tests.lend_temporary_to_runtime_roles();
select no_plan();

insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex');

create temporary table staged (rows jsonb);
insert into staged values ('[
  {"row": 2, "source_id": "j1", "rating": 5, "title": "Great", "content": "Lovely", "reviewer_name": "Ann",
   "reviewer_email": "ann@example.com", "created_at": "2024-03-01T10:00:00.000Z", "reply": "Thanks",
   "replied_at": "2024-03-02T00:00:00.000Z", "product_external_id": "MUG-1", "product_name": "Mug",
   "published": true, "imported_as_verified": true, "media_urls": []},
  {"row": 3, "source_id": "j2", "rating": 1, "title": null, "content": "Spam", "reviewer_name": "Bot",
   "reviewer_email": null, "created_at": "2024-03-03T00:00:00.000Z", "reply": null, "replied_at": null,
   "product_external_id": null, "product_name": null, "published": false, "imported_as_verified": false,
   "media_urls": []},
  {"row": 4, "source_id": "j1", "rating": 5, "title": "Great", "content": "Lovely", "reviewer_name": "Ann",
   "reviewer_email": "ann@example.com", "created_at": "2024-03-01T10:00:00.000Z", "reply": null,
   "replied_at": null, "product_external_id": "MUG-1", "product_name": "Mug", "published": true,
   "imported_as_verified": true, "media_urls": []}
]');
grant select on staged to public;

------------
--- Tenant A
------------
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select is(
  (select status from plaudit.create_import('judgeme', false, 4, (select rows from staged),
                                            '[{"row": 5, "message": "rating: must be a whole number from 1 to 5, not \"9\""}]',
                                            'api_key:k1')),
  'pending', 'tenant A: stages an import'
);
select throws_ok($$ select * from plaudit.import_rows $$, '42501', 'permission denied for table import_rows',
  'tenant A: cannot read the staged rows');
select throws_ok($$ select plaudit.run_imports() $$, '42501', 'permission denied for function run_imports',
  'tenant A: cannot run imports');
select tests.clear_persona();

------------
--- The worker
------------
select tests.act_as_worker();
select is(plaudit.run_imports(), 0, 'the worker: applies the import, nothing left');
select tests.clear_persona();

select results_eq(
  $$ select status, total_rows, imported, duplicates, jsonb_array_length(rejected) from plaudit.imports $$,
  $$ values ('completed'::text, 4, 2, 1, 1) $$,
  'the import: two reviews, one duplicate row, one refusal'
);
select results_eq(
  $$ select content, verification_status, is_hidden, source, source_platform, imported_as_verified,
            (select external_id from plaudit.products p where p.id = r.product_id)
       from plaudit.reviews r order by created_at $$,
  $$ values ('Lovely'::text, 'unverified'::text, false, 'import'::text, 'judgeme'::text, true, 'MUG-1'::text),
            ('Spam', 'unverified', true, 'import', 'judgeme', false, null) $$,
  'imported reviews are unverified (the claim kept), hidden when unpublished, with their products'
);
select results_eq(
  $$ select content, imported from plaudit.review_replies $$,
  $$ values ('Thanks'::text, true) $$,
  'the reply comes along, marked imported'
);
select results_eq(
  $$ select type from plaudit.events $$,
  $$ values ('import.completed'::text) $$,
  'one import.completed event, no review.created or review.replied'
);
select results_eq(
  $$ select t.action, (select content from plaudit.reviews r where r.id = t.review_id), t.reason
       from plaudit.moderation_trail t order by t.seq $$,
  $$ values ('hide'::text, 'Spam'::text, 'not published on judgeme'::text),
            ('import', null, 'imported 2 reviews from judgeme (1 duplicates, 1 rows refused), import ' ||
                             (select id from plaudit.imports)) $$,
  'one entry of the chain for the import, and one hide with its reason for the review imported hidden'
);
select is((select valid from plaudit.verify_moderation_chain('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa')), true,
  'the chain verifies');

select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select lives_ok($$ select plaudit.create_import('judgeme', false, 3, (select rows from staged), '[]', 'api_key:k1') $$,
  'tenant A: the same rows again');
select tests.clear_persona();
select tests.act_as_worker();
select is(plaudit.run_imports(), 0, 'the worker: applies it');
select tests.clear_persona();
select results_eq(
  $$ select imported, duplicates from plaudit.imports where total_rows = 3 $$,
  $$ values (0, 3) $$,
  'the same rows again import nothing'
);

-- A product named only by its handle is made archived; an erased address is refused, never imported;
-- a worker pinned to other organizations leaves the import alone.
insert into plaudit.email_suppressions (org_id, email, email_key, reason)
values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', null,
        plaudit.email_key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'gone@example.com'), 'erased');
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select lives_ok($$ select plaudit.create_import('judgeme', false, 2, '[
  {"row": 2, "source_id": null, "rating": 4, "title": null, "content": "Handle only", "reviewer_name": "Cy",
   "reviewer_email": null, "created_at": "2024-04-01T00:00:00.000Z", "reply": null, "replied_at": null,
   "product_external_id": "cup-handle", "product_name": "cup-handle", "product_named": false, "published": true,
   "hidden_reason": null, "imported_as_verified": false, "media_urls": []},
  {"row": 3, "source_id": null, "rating": 5, "title": null, "content": "Erased me", "reviewer_name": "Gone",
   "reviewer_email": "Gone@Example.com", "created_at": "2024-04-02T00:00:00.000Z", "reply": null, "replied_at": null,
   "product_external_id": null, "product_name": null, "product_named": false, "published": true,
   "hidden_reason": null, "imported_as_verified": false, "media_urls": []}
]', '[]', 'api_key:k1', 0, 0) $$, 'tenant A: stages rows of a handle-only product and of an erased address');
select tests.clear_persona();
select tests.act_as_worker();
select is(plaudit.run_imports(2000, 2000, array['bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb']::uuid[]), 0,
  'the worker pinned to B: nothing of A to take');
select tests.clear_persona();
select is((select status from plaudit.imports where total_rows = 2), 'pending', 'the import of A still waits');
select tests.act_as_worker();
select is(plaudit.run_imports(2000, 2000, array['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa']::uuid[]), 0,
  'the worker pinned to A: applies it');
select tests.clear_persona();
select results_eq(
  $$ select imported, duplicates, rejected_count, rejected from plaudit.imports where total_rows = 2 $$,
  $$ values (1, 0, 1, '[{"row": 3, "message": "reviewer_email: this reviewer''s data was erased at their request; the row is not imported"}]'::jsonb) $$,
  'the erased address is refused with its row'
);
select results_eq(
  $$ select name, archived from plaudit.products where external_id = 'cup-handle' $$,
  $$ values ('cup-handle'::text, true) $$,
  'a product named only by its handle is made archived'
);
select is((select count(*)::integer from plaudit.reviews where content = 'Erased me'), 0, 'no review of the erased address');

------------
--- Tenant B
------------
select tests.act_as_tenant('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');
select is((select count(*)::integer from plaudit.imports), 0, 'tenant B: sees no import of A');

------------
--- The public
------------
select tests.act_as_public();
select throws_ok($$ select * from plaudit.imports $$, '42501', 'permission denied for table imports',
  'public: cannot read imports');
select tests.clear_persona();

-- A batch's statement joins its CTEs by hash, whatever the statistics say of a new import's rows
-- (a nested loop over 5,000 × 5,000 rows took minutes a batch once import_rows was analyzed).
select ok('enable_nestloop=off' = any (p.proconfig), 'an import''s batch is planned without nested loops')
  from pg_proc p where p.oid = 'plaudit.import_batch(plaudit.imports,integer)'::regprocedure;

select * from finish();
rollback;
