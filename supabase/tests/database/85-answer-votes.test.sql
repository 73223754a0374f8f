-- Helpful votes on answers reach readers as review votes do: a counted vote moves the
-- organization's public version (ETags) and asks for one coalesced CDN purge, in the vote itself;
-- the answers' update trigger leaves a count's change to the vote, and a repeat changes nothing.
-- A new answer and a moderation move the version and ask for a purge through the trigger.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(13);

insert into plaudit.organizations (id, name, slug) values
  ('85000000-aaaa-4aaa-8aaa-000000000001', 'Acme', 'acme85');
insert into plaudit.questions (id, org_id, question, asker_name, asker_email, status, confirmation_token_hash,
                               confirmed_at) values
  ('85000000-0000-4000-8000-0000000000c1', '85000000-aaaa-4aaa-8aaa-000000000001', 'Do you ship to Norway?', 'Ann',
   'ann@example.com', 'published', sha256('85-q1'), now());
insert into plaudit.question_answers (id, org_id, question_id, author, author_name, content) values
  ('85000000-0000-4000-8000-0000000000a1', '85000000-aaaa-4aaa-8aaa-000000000001',
   '85000000-0000-4000-8000-0000000000c1', 'business', 'Acme', 'Yes, in three days.');

create temporary view version as select coalesce(sum(version), 0)::bigint as v from plaudit.review_statistics
  where org_id = '85000000-aaaa-4aaa-8aaa-000000000001';
create temporary view purges as select count(*)::integer as n from plaudit.cdn_purges
  where org_id = '85000000-aaaa-4aaa-8aaa-000000000001' and status = 'pending';
create temporary table seen (step text primary key, v bigint);
grant select on version, purges to public;
grant select, insert on seen to public;

-- The public: votes ------------------------------------------------------------------------------
update plaudit.cdn_purges set status = 'sent' where org_id = '85000000-aaaa-4aaa-8aaa-000000000001';
insert into seen select 'before the vote', v from version;
select tests.act_as_public();
select is((select helpful_count from plaudit.vote_answer_helpful('h85:a', 10, 'acme85',
            '85000000-0000-4000-8000-0000000000c1', '85000000-0000-4000-8000-0000000000a1', sha256('v1'))),
  1, 'public: a vote counts');
select is((select v from version) - (select v from seen where step = 'before the vote'), 1::bigint,
  'public: a counted vote moves the public version once (ETags revalidate to the new count)');
select is((select n from purges), 1, 'public: a counted vote asks for its organization''s CDN purge');

insert into seen select 'before the second vote', v from version;
select is((select helpful_count from plaudit.vote_answer_helpful('h85:a', 10, 'acme85',
            '85000000-0000-4000-8000-0000000000c1', '85000000-0000-4000-8000-0000000000a1', sha256('v2'))),
  2, 'public: another visitor''s vote counts');
select is((select n from purges), 1, 'public: votes while a purge is pending share it (coalesced)');

insert into seen select 'before the repeat', v from version;
select is((select helpful_count from plaudit.vote_answer_helpful('h85:a', 10, 'acme85',
            '85000000-0000-4000-8000-0000000000c1', '85000000-0000-4000-8000-0000000000a1', sha256('v2'))),
  2, 'public: a repeated vote counts nothing');
select is((select v from version), (select v from seen where step = 'before the repeat'),
  'public: a repeated vote leaves the public version');
select tests.clear_persona();

-- The owner: the update trigger leaves the count to the vote ------------------------------------
update plaudit.cdn_purges set status = 'sent' where org_id = '85000000-aaaa-4aaa-8aaa-000000000001';
insert into seen select 'before the count alone', v from version;
update plaudit.question_answers set helpful_count = helpful_count + 1
 where id = '85000000-0000-4000-8000-0000000000a1';
select is((select v from version), (select v from seen where step = 'before the count alone'),
  'owner: a change of helpful_count alone moves no version through the trigger (the vote moves it)');
select is((select n from purges), 0, 'owner: a change of helpful_count alone asks for no purge through the trigger');

-- Tenant: moderation and a new answer move the version ------------------------------------------
insert into seen select 'before the hide', v from version;
select tests.act_as_tenant('85000000-aaaa-4aaa-8aaa-000000000001');
select lives_ok($$ select plaudit.moderate_answer('85000000-0000-4000-8000-0000000000a1', 'hide', 'Wrong', 'api_key:x') $$,
  'tenant: hides an answer');
select ok((select v from version) - (select v from seen where step = 'before the hide') = 1 and (select n from purges) = 1,
  'tenant: a hide moves the public version and asks for a purge');
select tests.clear_persona();
update plaudit.cdn_purges set status = 'sent' where org_id = '85000000-aaaa-4aaa-8aaa-000000000001';
insert into seen select 'before the answer', v from version;
select tests.act_as_tenant('85000000-aaaa-4aaa-8aaa-000000000001');
select lives_ok($$ select plaudit.write_business_answer('85000000-0000-4000-8000-0000000000c1', 'And to Sweden.', 'api_key:x') $$,
  'tenant: answers the question');
select ok((select v from version) - (select v from seen where step = 'before the answer') = 1 and (select n from purges) = 1,
  'tenant: a new answer moves the public version and asks for a purge');
select tests.clear_persona();

select * from finish();
rollback;
