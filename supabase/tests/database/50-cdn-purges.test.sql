-- CDN purges: every public change writes one pending purge of its organization in its own
-- transaction (coalesced), private changes write none, tenants and the public cannot read or
-- write the outbox, and the worker claims, records and retries.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(28);

insert into plaudit.organizations (id, name, slug) values
  ('50000000-0000-4000-8000-000000000001', 'Purge Co', 'purge-co'),
  ('50000000-0000-4000-8000-000000000002', 'Other Co', 'purge-other');
insert into plaudit.review_forms (id, org_id, name) values
  ('50000000-0000-4000-8000-0000000000f1', '50000000-0000-4000-8000-000000000001', 'Form');

create temporary view pending as
  select org_id, include_sitemap from plaudit.cdn_purges where status = 'pending';
grant select on pending to public;

-- The owner: what asks for a purge -----------------------------------------------------------------
select results_eq('select org_id::text, include_sitemap from pending order by org_id',
  $$values ('50000000-0000-4000-8000-000000000001', true), ('50000000-0000-4000-8000-000000000002', true)$$,
  'owner: creating an organization purges the sitemaps, which list its profile page at once');
update plaudit.cdn_purges set status = 'sent';

insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status)
values ('50000000-0000-4000-8000-0000000000a1', '50000000-0000-4000-8000-000000000001',
        '50000000-0000-4000-8000-0000000000f1', 4, 'Pending', 'Ann', 'ann@example.com', 'pending');
select is((select count(*)::int from pending), 0, 'owner: a review awaiting verification is not public: no purge');

insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status)
values ('50000000-0000-4000-8000-0000000000a2', '50000000-0000-4000-8000-000000000001',
        '50000000-0000-4000-8000-0000000000f1', 5, 'Public', 'Bob', 'bob@example.com', 'unverified');
select results_eq('select org_id::text, include_sitemap from pending',
  $$values ('50000000-0000-4000-8000-000000000001', false)$$, 'owner: a published review asks for its purge');

select set_config('plaudit.moderation_reason', 'Spam', true);
update plaudit.reviews set is_hidden = true where id = '50000000-0000-4000-8000-0000000000a2';
select is((select count(*)::int from pending), 1, 'owner: hidden after it: still one purge (coalesced)');

update plaudit.cdn_purges set status = 'sent';
update plaudit.reviews set verification_status = 'verified', verification_method = 'manual'
 where id = '50000000-0000-4000-8000-0000000000a1';
select is((select count(*)::int from pending), 1, 'owner: a review verified (so published) asks for a purge');

update plaudit.cdn_purges set status = 'sent';
update plaudit.reviews set is_hidden = false where id = '50000000-0000-4000-8000-0000000000a2';
select is((select count(*)::int from pending), 1, 'owner: shown again after the purge went out: a new purge');

update plaudit.cdn_purges set status = 'sent';
insert into plaudit.review_replies (review_id, org_id, content)
values ('50000000-0000-4000-8000-0000000000a2', '50000000-0000-4000-8000-000000000001', 'Thanks');
select is((select count(*)::int from pending), 1, 'owner: a reply asks for a purge');
update plaudit.cdn_purges set status = 'sent';
delete from plaudit.review_replies where review_id = '50000000-0000-4000-8000-0000000000a2';
select is((select count(*)::int from pending), 1, 'owner: withdrawing a reply asks for a purge');

update plaudit.cdn_purges set status = 'sent';
insert into plaudit.products (id, org_id, external_id, name)
values ('50000000-0000-4000-8000-0000000000b1', '50000000-0000-4000-8000-000000000001', 'P-1', 'Mug');
select results_eq('select include_sitemap from pending', $$values (true)$$,
  'owner: a product added asks for a purge, with the sitemaps (its page is listed)');
update plaudit.cdn_purges set status = 'sent';
update plaudit.products set name = 'Big mug' where id = '50000000-0000-4000-8000-0000000000b1';
select results_eq('select include_sitemap from pending', $$values (false)$$,
  'owner: a product renamed asks for a purge, without the sitemaps (its page stays where it was)');
update plaudit.cdn_purges set status = 'sent';
update plaudit.products set archived = true where id = '50000000-0000-4000-8000-0000000000b1';
select results_eq('select include_sitemap from pending', $$values (true)$$,
  'owner: a product archived asks for a purge, with the sitemaps (its page leaves them)');
update plaudit.cdn_purges set status = 'sent';
insert into plaudit.reviews (org_id, form_id, product_id, rating, content, reviewer_name, reviewer_email, verification_status)
values ('50000000-0000-4000-8000-000000000001', '50000000-0000-4000-8000-0000000000f1',
        '50000000-0000-4000-8000-0000000000b1', 5, 'Still great', 'Di', 'di@example.com', 'unverified');
select results_eq('select include_sitemap from pending', $$values (true)$$,
  'owner: a public review of an archived product asks for the sitemaps too (its page is listed again)');
update plaudit.cdn_purges set status = 'sent';

update plaudit.cdn_purges set status = 'sent';
insert into plaudit.public_profiles (org_id, description) values ('50000000-0000-4000-8000-000000000001', 'Mugs');
select results_eq('select include_sitemap from pending', $$values (true)$$,
  'owner: a profile setting asks for a purge, with the sitemaps');

update plaudit.cdn_purges set status = 'sent';
insert into plaudit.reviews (id, org_id, form_id, rating, content, reviewer_name, reviewer_email, verification_status)
values ('50000000-0000-4000-8000-0000000000a3', '50000000-0000-4000-8000-000000000001',
        '50000000-0000-4000-8000-0000000000f1', 3, 'Another', 'Cy', 'cy@example.com', 'unverified');
update plaudit.organizations set slug = 'purge-co-renamed' where id = '50000000-0000-4000-8000-000000000001';
select results_eq('select include_sitemap from pending', $$values (true)$$,
  'owner: a slug change after a review adds the sitemaps to the pending purge');

update plaudit.cdn_purges set status = 'sent';
update plaudit.organizations set updated_at = now() where id = '50000000-0000-4000-8000-000000000001';
select is((select count(*)::int from pending), 0, 'owner: an organization change nobody sees asks for nothing');

savepoint before_rollback;
update plaudit.reviews set is_hidden = true where id = '50000000-0000-4000-8000-0000000000a3';
rollback to savepoint before_rollback;
select is((select count(*)::int from pending), 0, 'owner: a change that rolled back leaves no purge');

select throws_ok($$insert into plaudit.cdn_purges (org_id) values ('50000000-0000-4000-8000-000000000001'),
                                                          ('50000000-0000-4000-8000-000000000001')$$,
  '23505', null, 'owner: two pending purges of one organization cannot exist');

-- Tenant A and the public: the outbox is the worker's --------------------------------------------
select tests.act_as_tenant('50000000-0000-4000-8000-000000000001');
select throws_ok('select * from plaudit.cdn_purges', '42501', 'permission denied for table cdn_purges',
  'tenant A: cannot read the purge outbox');
select throws_ok($$insert into plaudit.cdn_purges (org_id) values ('50000000-0000-4000-8000-000000000002')$$, '42501',
  'permission denied for table cdn_purges', 'tenant A: cannot write a purge of another organization');
select throws_ok($$select plaudit.claim_cdn_purges(10, 60, null)$$, '42501',
  'permission denied for function claim_cdn_purges', 'tenant A: cannot claim purges');
select tests.clear_persona();
select tests.act_as_public();
select throws_ok('select * from plaudit.cdn_purges', '42501', 'permission denied for table cdn_purges',
  'public: cannot read the purge outbox');
select tests.clear_persona();

-- The worker: claim, record, retry ----------------------------------------------------------------
update plaudit.cdn_purges set status = 'sent';
select set_config('plaudit.moderation_reason', 'Spam', true);
update plaudit.reviews set is_hidden = true where id = '50000000-0000-4000-8000-0000000000a3';
select tests.act_as_worker();
create temporary table claimed as
  select * from plaudit.claim_cdn_purges(10, 60, '{50000000-0000-4000-8000-000000000001}');
select results_eq('select org_id::text, attempt, claimed_lsn is not null from claimed',
  $$values ('50000000-0000-4000-8000-000000000001', 1, true)$$,
  'worker: claims the pending purge with its WAL position');
select is((select count(*)::int from plaudit.claim_cdn_purges(10, 60, null) c
            where c.org_id = '50000000-0000-4000-8000-000000000001'), 0,
  'worker: a claimed purge is not claimed again while leased');
select tests.clear_persona();
update plaudit.reviews set is_hidden = false where id = '50000000-0000-4000-8000-0000000000a3';
select tests.act_as_worker();
select is((select count(*)::int from plaudit.claim_cdn_purges(10, 60, null) c
            where c.org_id = '50000000-0000-4000-8000-000000000001'), 0,
  'worker: a change during the flight waits for it (one purge in flight per organization, on any worker)');
select is(plaudit.record_cdn_purge((select claim_token from claimed), '50000000-0000-4000-8000-000000000001',
                                   false, 'varnish: HTTP 503', 60000), 'retrying',
  'worker: a failed send waits for its retry');
select is(plaudit.record_cdn_purge((select claim_token from claimed), '50000000-0000-4000-8000-000000000001',
                                   true, null, null), 'stale',
  'worker: a claim already recorded records nothing more');
select tests.clear_persona();
select results_eq($$select status, attempts, last_error from plaudit.cdn_purges
                     where org_id = '50000000-0000-4000-8000-000000000001' and status <> 'sent' order by created_at$$,
  $$values ('retrying'::text, 1, 'varnish: HTTP 503'::text), ('pending', 0, null)$$,
  'owner: the attempt is recorded; the change of the flight waits, pending');
select tests.act_as_worker();
select results_eq($$select count(distinct claim_token)::int, count(*)::int
                      from plaudit.claim_cdn_purges(10, 60, '{50000000-0000-4000-8000-000000000001}')$$,
  $$values (1, 2)$$, 'worker: once the flight ended, the change of the flight goes at once, its retry riding along');
select tests.clear_persona();

select * from finish();
rollback;
