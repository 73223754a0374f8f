-- Business and products apart: the business's public counters count reviews of the business
-- only, each product's counters its own published reviews, through publishing, hiding, showing,
-- verifying and rejecting; the rebuild agrees; the counters' table is the tenant's to read only;
-- a product's change moves the public version.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(14);

insert into plaudit.organizations (id, name, slug) values
  ('42000000-0000-4000-8000-000000000001', 'Counter Shop', 'counter-shop'),
  ('42000000-0000-4000-8000-000000000002', 'Other Shop', 'counter-other');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('42000000-0000-4000-8000-0000000000f1', '42000000-0000-4000-8000-000000000001', 'Open', 'none'),
  ('42000000-0000-4000-8000-0000000000f2', '42000000-0000-4000-8000-000000000001', 'Manual', 'manual');
insert into plaudit.products (id, org_id, external_id, name) values
  ('42000000-0000-4000-8000-0000000000a1', '42000000-0000-4000-8000-000000000001', 'MUG', 'Mug'),
  ('42000000-0000-4000-8000-0000000000b1', '42000000-0000-4000-8000-000000000002', 'MUG', 'Their mug');

create function pg_temp.submit(p_form uuid, p_rating integer, p_product text)
returns uuid
language sql as $$
  select id from plaudit.submit_review(
    jsonb_populate_record(null::plaudit.review_submission, jsonb_build_object(
      'form_id', p_form, 'rating', p_rating, 'content', 'text ' || p_rating, 'reviewer_name', 'Ada',
      'reviewer_email', 'ada' || p_rating || '@example.com', 'product_external_id', p_product)),
    'submit:counters', 1000, 'https://x')
$$;
create function pg_temp.product_counts()
returns text
language sql as $$
  select coalesce((select (public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5)::text
                     from plaudit.product_review_statistics where product_id = '42000000-0000-4000-8000-0000000000a1'), 'none')
$$;
create function pg_temp.business_counts()
returns text
language sql as $$
  select (sum(total_count), sum(public_count), sum(rating_sum), sum(rating_4), sum(rating_5))::text
    from plaudit.review_statistics where org_id = '42000000-0000-4000-8000-000000000001'
$$;
create temporary table ids (name text primary key, id uuid) on commit drop;
grant insert on ids to plaudit_public;
grant select on ids to plaudit_public, plaudit_api;

-- Publishing ----------------------------------------------------------------------------------------
select tests.act_as_public();
insert into ids select 'business', pg_temp.submit('42000000-0000-4000-8000-0000000000f1', 5, null);
insert into ids select 'open', pg_temp.submit('42000000-0000-4000-8000-0000000000f1', 4, 'MUG');
insert into ids select 'manual', pg_temp.submit('42000000-0000-4000-8000-0000000000f2', 2, 'MUG');
insert into ids select 'manual2', pg_temp.submit('42000000-0000-4000-8000-0000000000f2', 3, 'MUG');
select tests.clear_persona();
select is(pg_temp.product_counts(), '(1,4,0,0,0,1,0)', 'a published review of a product counts for the product, a pending one not');
select is(pg_temp.business_counts(), '(4,1,5,0,1)', 'the business counts reviews of the business only (total_count: every review)');

-- Moving between statuses, as the tenant -----------------------------------------------------------
select tests.act_as_tenant('42000000-0000-4000-8000-000000000001');
select plaudit.moderate_review((select id from ids where name = 'open'), 'hide', 'spam', 'me');
select is(pg_temp.product_counts(), '(0,0,0,0,0,0,0)', 'hiding a product''s review takes it out of its counters');
select plaudit.moderate_review((select id from ids where name = 'open'), 'unhide', 'fine', 'me');
select is(pg_temp.product_counts(), '(1,4,0,0,0,1,0)', 'showing it again counts it again');
select 1 from plaudit.approve_review((select id from ids where name = 'manual'), 'ok', null);
select is(pg_temp.product_counts(), '(2,6,0,1,0,1,0)', 'verifying a pending review counts it');
select 1 from plaudit.reject_review((select id from ids where name = 'manual2'), 'no', null);
select is(pg_temp.product_counts(), '(2,6,0,1,0,1,0)', 'rejecting a pending review leaves the counters');
select plaudit.moderate_review((select id from ids where name = 'manual'), 'hide', 'x', 'me');
select is(pg_temp.product_counts(), '(1,4,0,0,0,1,0)', 'hiding a verified review uncounts it');
select is(pg_temp.business_counts(), '(4,1,5,0,1)', 'none of it moved the business''s public counters');

-- The tenant reads its own counters only --------------------------------------------------------------
select is((select count(*)::integer from plaudit.product_review_statistics), 1, 'tenant: reads its own products'' counters');
select throws_ok($$insert into plaudit.product_review_statistics (product_id, org_id) values
  ('42000000-0000-4000-8000-0000000000a1', '42000000-0000-4000-8000-000000000001')$$, '42501',
  'permission denied for table product_review_statistics', 'tenant: the counters are written by the triggers only');
select tests.act_as_tenant('42000000-0000-4000-8000-000000000002');
select is((select count(*)::integer from plaudit.product_review_statistics), 0, 'another tenant: sees none of them');
select tests.clear_persona();

select tests.act_as_public();
select throws_ok($$select * from plaudit.product_review_statistics$$, '42501',
  'permission denied for table product_review_statistics', 'public: no access to the counters');
select tests.clear_persona();

-- The owner's rebuild agrees; a product's change moves the public version ---------------------------------
select plaudit.rebuild_product_review_statistics('42000000-0000-4000-8000-000000000001');
select is(pg_temp.product_counts(), '(1,4,0,0,0,1,0)', 'the rebuild recounts what the triggers kept');
insert into ids select 'version ' || plaudit.public_version('counter-shop'), null;
update plaudit.products set name = 'Mug, blue' where id = '42000000-0000-4000-8000-0000000000a1';
select isnt('version ' || plaudit.public_version('counter-shop'), (select name from ids where name like 'version %'),
  'renaming a product moves the organization''s public version');

select * from finish();
rollback;
