-- Exports generated in SQL, the CSV cell rules, export.completed through the outbox, expiry,
-- tenant isolation of jobs and files, and the pg_cron schedules where pg_cron is installed.
begin;
select tests.lend_temporary_to_runtime_roles();
select no_plan();

------------
--- CSV cells: RFC 4180 quoting and the formula guard
------------
select is(plaudit.csv_cell(null), '', 'csv: a missing value is an empty field');
select is(plaudit.csv_cell(''), '""', 'csv: an empty string is quoted, as COPY does');
select is(plaudit.csv_cell('plain_42'), 'plain_42', 'csv: lowercase letters, digits and underscores are left alone');
select is(plaudit.csv_cell('Two words'), '"Two words"', 'csv: anything else is quoted, which a reader cannot tell from bare');
select is(plaudit.csv_cell('back\slash'), '"back\slash"', 'csv: a backslash is not an escape and stays single');
select is(plaudit.csv_cell('a,b'), '"a,b"', 'csv: a comma is quoted');
select is(plaudit.csv_cell('say "hi"'), '"say ""hi"""', 'csv: quotes are doubled inside quotes');
select is(plaudit.csv_cell(E'two\nlines'), E'"two\nlines"', 'csv: a line feed is quoted');
select is(plaudit.csv_cell(E'cr\rhere'), E'"cr\rhere"', 'csv: a carriage return is quoted');
select is(plaudit.csv_cell('=1+2'), '"''=1+2"', 'csv: = is neutralised with an apostrophe (and the cell quoted)');
select is(plaudit.csv_cell('+1'), '"''+1"', 'csv: + is neutralised');
select is(plaudit.csv_cell('-1'), '"''-1"', 'csv: - is neutralised');
select is(plaudit.csv_cell('@SUM(1)'), '"''@SUM(1)"', 'csv: @ is neutralised');
select is(plaudit.csv_cell(E'\tx'), E'"''\tx"', 'csv: a leading tab is neutralised');
select is(plaudit.csv_cell(E'\rx'), E'"''\rx"', 'csv: a leading carriage return is neutralised and quoted');
select is(plaudit.csv_cell('=HYPERLINK("x","y")'), '"''=HYPERLINK(""x"",""y"")"', 'csv: guard, then quoting');
select is(plaudit.csv_cell('a=b'), '"a=b"', 'csv: a formula sign inside a value is harmless (no apostrophe)');
select is(plaudit.csv_cell('👍 émoji'), '"👍 émoji"', 'csv: UTF-8 passes through');

------------
--- Generating an export
------------
insert into plaudit.organizations (id, name, slug) values
  ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Acme', 'acme'),
  ('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'Globex', 'globex');
insert into plaudit.review_forms (id, org_id, name) values
  ('f0000000-0000-4000-8000-00000000000a', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'Form');
insert into plaudit.webhook_endpoints (id, org_id, url, events, secret) values
  ('a1111111-0000-4000-8000-000000000003', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'https://a.example/exports',
   array['export.completed'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
insert into plaudit.reviews (org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                             verification_status, is_hidden, created_at)
select 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'f0000000-0000-4000-8000-00000000000a', 1 + g % 5,
       case when g % 2 = 0 then '=cmd|' || g end, 'content, "quoted" ' || g, 'Name ' || g,
       'r' || g || '@example.com', 'unverified', g % 5 = 0,
       timestamptz '2026-03-01 00:00:00+00' + g * interval '1 hour'
from generate_series(1, 25) g;

insert into plaudit.exports (id, org_id, format, filters) values
  ('e0000000-0000-4000-8000-000000000001', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'csv', '{}'),
  ('e0000000-0000-4000-8000-000000000002', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'json',
   '{"include_hidden": true, "startDate": "2026-03-01", "endDate": "2026-03-01"}');

select tests.act_as_worker();
select is(plaudit.run_exports(10000, 7), 0, 'run_exports: works through the queue and answers 0 when it is empty');
select tests.clear_persona();

select results_eq(
  $$ select attcompression::text, attstorage::text from pg_attribute
      where attrelid = 'plaudit.export_chunks'::regclass and attname = 'body' $$,
  $$ values ('l', 'x') $$,
  'export chunks are compressed with lz4 (this server has it; the migration skips it where it does not)'
);
select results_eq(
  $$ select status, row_count, chunk_count from plaudit.exports order by id $$,
  $$ values ('completed'::text, 20, 4), ('completed'::text, 23, 6) $$,
  'run_exports: both jobs complete in chunks of 7 rows, the opening (and JSON''s closing) chunks of their own (hidden reviews left out unless asked for)'
);
select results_eq(
  $$ with visible as (
       select id, created_at, row_number() over (order by created_at, id) as n
         from plaudit.reviews where org_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' and not is_hidden)
     select c.seq, c.row_count, (c.last_created_at, c.last_review_id) = (v.created_at, v.id)
       from plaudit.export_chunks c
       left join visible v on v.n = (select sum(c2.row_count) from plaudit.export_chunks c2
                                      where c2.export_id = c.export_id and c2.seq <= c.seq)
      where c.export_id = 'e0000000-0000-4000-8000-000000000001' order by c.seq $$,
  $$ values (0, 0, null::boolean), (1, 7, true), (2, 7, true), (3, 6, true) $$,
  'csv: the header is chunk 0; each chunk of rows records how many reviews it holds and the last of them'
);
select is(
  (select body from plaudit.export_chunks where export_id = 'e0000000-0000-4000-8000-000000000002' and seq = 0),
  '[',
  'json: the array opens in a chunk of its own'
);
select is(
  (select body from plaudit.export_chunks where export_id = 'e0000000-0000-4000-8000-000000000002' and seq = 5),
  ']',
  'json: and closes in one'
);
select is(
  (select string_agg(body, '' order by seq) from plaudit.export_chunks where export_id = 'e0000000-0000-4000-8000-000000000001')
    like E'id,rating,title,content,reviewer_name,reviewer_email,verification_status,is_hidden,created_at,form_id,product_external_id,product_name,source,media_urls,reply,replied_at\r\n%',
  true,
  'csv: the file starts with the header and CRLF'
);
select is(
  (select count(*)::integer from regexp_matches(
     (select string_agg(body, '' order by seq) from plaudit.export_chunks where export_id = 'e0000000-0000-4000-8000-000000000001'),
     E'\r\n', 'g')),
  21,
  'csv: one CRLF-terminated record per review, plus the header'
);
select is(
  jsonb_array_length((select string_agg(body, '' order by seq) from plaudit.export_chunks
                       where export_id = 'e0000000-0000-4000-8000-000000000002')::jsonb),
  23,
  'json: the chunks join into one array (23 reviews on 2026-03-01, hidden ones included)'
);
select is(
  (select byte_size from plaudit.exports where id = 'e0000000-0000-4000-8000-000000000001'),
  (select sum(octet_length(body)) from plaudit.export_chunks where export_id = 'e0000000-0000-4000-8000-000000000001'),
  'the job knows its file size in bytes'
);
select is(
  (select count(*)::integer from plaudit.events where type = 'export.completed'
     and data ->> 'id' in ('e0000000-0000-4000-8000-000000000001', 'e0000000-0000-4000-8000-000000000002')),
  2,
  'export.completed is emitted once per job'
);
select is(
  (select count(*)::integer from plaudit.webhook_deliveries
    where endpoint_id = 'a1111111-0000-4000-8000-000000000003' and event_type = 'export.completed'),
  2,
  'export.completed fans out to the subscribed endpoint'
);
select ok(
  (select expires_at = completed_at + interval '7 days' from plaudit.exports where id = 'e0000000-0000-4000-8000-000000000001'),
  'a completed file expires after 7 days'
);
select ok(
  (select now() < started_at and started_at < completed_at from plaudit.exports where id = 'e0000000-0000-4000-8000-000000000001'),
  'started_at and completed_at are the wall clock''s, not the start of the transaction that ran the steps'
);

insert into plaudit.exports (id, org_id, format, filters) values
  ('e0000000-0000-4000-8000-000000000003', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'csv', '{"form_id": "not-a-uuid"}');
select tests.act_as_worker();
select plaudit.run_exports(10000, 7);
select tests.clear_persona();
select results_eq(
  $$ select status, error is not null and error ~ 'uuid', completed_at > now() from plaudit.exports where id = 'e0000000-0000-4000-8000-000000000003' $$,
  $$ values ('failed'::text, true, true) $$,
  'a job that cannot be generated fails with its reason, stamped by the wall clock'
);

insert into plaudit.exports (id, org_id, format, filters) values
  ('e0000000-0000-4000-8000-000000000004', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'json', '{"rating": 2}');
select tests.act_as_worker();
select plaudit.run_exports(10000, 5);
select tests.clear_persona();
select results_eq(
  $$ select status, row_count, chunk_count,
            jsonb_array_length((select string_agg(body, '' order by seq) from plaudit.export_chunks where export_id = x.id)::jsonb)
       from plaudit.exports x where id = 'e0000000-0000-4000-8000-000000000004' $$,
  $$ values ('completed'::text, 5, 3, 5) $$,
  'json: a file of exactly one chunk of rows ends with the step that finds none, and closes'
);

update plaudit.exports set expires_at = now() - interval '1 second' where id = 'e0000000-0000-4000-8000-000000000001';
select plaudit.run_delivery_maintenance();
select is(
  (select count(*)::integer from plaudit.export_chunks where export_id = 'e0000000-0000-4000-8000-000000000001'),
  0,
  'maintenance: an expired file is deleted'
);

------------
--- Tenant isolation
------------
select tests.act_as_tenant('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');
select is((select count(*)::integer from plaudit.exports), 0, 'tenant B: sees none of A''s exports');
select is((select count(*)::integer from plaudit.export_chunks), 0, 'tenant B: reads none of A''s export files');
select throws_ok(
  $$ insert into plaudit.exports (org_id, format) values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'csv') $$,
  '42501', null, 'tenant B: cannot create an export for A'
);
select throws_ok($$ select plaudit.run_exports(100, 10) $$, '42501', null, 'plaudit_api: cannot run exports');
select tests.clear_persona();
select tests.act_as_tenant('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select is((select count(*)::integer from plaudit.exports), 4, 'tenant A: sees its own exports');
select throws_ok($$ update plaudit.exports set status = 'completed' $$, '42501', null,
  'tenant A: cannot change a job''s status itself');
select tests.clear_persona();

------------
--- Schedules (pg_cron where installed; skipped elsewhere)
------------
select * from tests.cron_job_is('plaudit-exports', '* * * * *', 'select plaudit.run_exports(50000)');
select * from tests.cron_job_is('plaudit-delivery-maintenance', '* * * * *', 'select plaudit.run_delivery_maintenance()');
-- The worker's wake-up job exists exactly where pg_net can ring it (hosted Supabase).
select ok(
  case when not exists (select from pg_extension where extname = 'pg_cron') then true
       else exists (select from cron.job where jobname = 'plaudit-wake-worker') = exists (select from pg_extension where extname = 'pg_net')
  end,
  'pg_cron: the worker is woken on a schedule exactly where pg_net can ring it');

------------
--- pg_cron's bell on hosted Supabase: plaudit.ring_worker through pg_net's interface (a stand-in
--- that records its calls), the worker's address from plaudit.worker_bell or else Vault
------------
select ok(plaudit.version_at_least('1.4-1', array[1, 4]), 'version: Debian''s pg_cron 1.4-1 reads as 1.4');
select ok(not plaudit.version_at_least('1.4-1', array[1, 5]), 'version: 1.4-1 is before 1.5 (no seconds in schedules)');
select ok(plaudit.version_at_least('1.6.4', array[1, 5]), 'version: 1.6.4 is at least 1.5');
select ok(plaudit.version_at_least('1.5', array[1, 5]), 'version: 1.5 is at least 1.5');
select ok(plaudit.version_at_least('1.10', array[1, 9]), 'version: 1.10 comes after 1.9 (numbers, not text)');
select ok(plaudit.version_at_least('2', array[1, 5]), 'version: 2 is after 1.5');
select ok(not plaudit.version_at_least('devel', array[0]), 'version: one without a leading number is never enough');
select ok(not plaudit.version_at_least(null, array[1]), 'version: none is never enough');

select ok(not (select prosecdef from pg_proc where oid = 'plaudit.ring_worker()'::regprocedure),
  'bell: plaudit.ring_worker runs with its caller''s rights (pg_cron''s job, as postgres), not its owner''s');

create schema net;
create table net.calls (url text, body jsonb, headers jsonb, timeout_milliseconds integer);
create function net.http_post(url text, body jsonb default '{}'::jsonb, params jsonb default '{}'::jsonb,
                              headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
                              timeout_milliseconds integer default 5000)
returns bigint language sql as $$
  insert into net.calls values (url, body, headers, timeout_milliseconds);
  select count(*) from net.calls;
$$;

delete from plaudit.webhook_deliveries;
delete from plaudit.export_chunks;
delete from plaudit.exports;
delete from plaudit.email_outbox;
delete from plaudit.cdn_purges;
select ok(not plaudit.worker_is_due(), 'bell: nothing is due once the outboxes are empty');
select is(plaudit.ring_worker(), null, 'bell: without an address it rings nobody');
insert into plaudit.worker_bell (url, secret) values ('https://ref.supabase.co/functions/v1/worker', 's3cret');
select is(plaudit.ring_worker(), null, 'bell: with nothing due it does not ring');

select plaudit.enqueue_email('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'ada@example.com', 'review_verification',
                             '{}'::jsonb, 'en', 'bell-test');
select ok(plaudit.worker_is_due(), 'bell: an e-mail due makes the worker due');
select is(plaudit.ring_worker(), 1::bigint, 'bell: with something due it rings, and answers pg_net''s request id');
select results_eq(
  $$ select url, body, headers, timeout_milliseconds from net.calls $$,
  $$ values ('https://ref.supabase.co/functions/v1/worker', '{}'::jsonb,
             '{"Authorization": "Bearer s3cret", "Content-Type": "application/json"}'::jsonb, 5000) $$,
  'bell: one POST of {} to the worker''s URL with its secret, through net.http_post');

delete from plaudit.email_outbox;
insert into plaudit.cdn_purges (org_id) values ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
select ok(not plaudit.worker_is_due(), 'bell: a CDN purge due does not count where the bell has no CDN');
update plaudit.worker_bell set cdn_purges = true;
select ok(plaudit.worker_is_due(), 'bell: ... and counts where it has one');

delete from plaudit.worker_bell;
select plaudit.enqueue_email('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'ada@example.com', 'review_verification',
                             '{}'::jsonb, 'en', 'bell-test-vault');
create schema vault;
create table vault.decrypted_secrets (name text, decrypted_secret text);
insert into vault.decrypted_secrets values
  ('plaudit_worker_url', 'https://vault.supabase.co/functions/v1/worker'), ('plaudit_worker_secret', 'v4ult'),
  ('another', 'unrelated');
select is(plaudit.ring_worker(), 2::bigint, 'bell: without the table''s row it finds the address in Vault');
select results_eq(
  $$ select url, headers->>'Authorization' from net.calls order by ctid desc limit 1 $$,
  $$ values ('https://vault.supabase.co/functions/v1/worker', 'Bearer v4ult') $$,
  'bell: ... and rings it with Vault''s secret');

select throws_ok(
  $$ insert into plaudit.worker_bell (url, secret) values ('ftp://x', 's') $$,
  '23514', null, 'bell: the address is an http(s) URL');
select throws_ok(
  $$ insert into plaudit.worker_bell (id, url, secret) values (false, 'https://x', 's') $$,
  '23514', null, 'bell: it has one row');

select * from finish();
rollback;
