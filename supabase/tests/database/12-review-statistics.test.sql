-- Statistics kept by triggers equal a recount after a random mix of submissions, hides,
-- unhides, approvals and rejections, across two tenants; public versions move when (and only
-- when) the public set changes.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(9);

insert into plaudit.organizations (id, name, slug) values
  ('12000000-0000-4000-8000-000000000001', 'Stats One', 'stats-one'),
  ('12000000-0000-4000-8000-000000000002', 'Stats Two', 'stats-two');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('12000000-0000-4000-8000-0000000000a1', '12000000-0000-4000-8000-000000000001', 'Open', 'none'),
  ('12000000-0000-4000-8000-0000000000a2', '12000000-0000-4000-8000-000000000001', 'Manual', 'manual'),
  ('12000000-0000-4000-8000-0000000000b1', '12000000-0000-4000-8000-000000000002', 'Open', 'none'),
  ('12000000-0000-4000-8000-0000000000b2', '12000000-0000-4000-8000-000000000002', 'Manual', 'manual');

create function pg_temp.recount(p_org uuid)
returns table (total bigint, public_count bigint, rating_sum bigint, r1 bigint, r2 bigint, r3 bigint, r4 bigint, r5 bigint)
language sql as $$
  select count(*), count(*) filter (where p), coalesce(sum(rating) filter (where p), 0),
         count(*) filter (where p and rating = 1), count(*) filter (where p and rating = 2),
         count(*) filter (where p and rating = 3), count(*) filter (where p and rating = 4),
         count(*) filter (where p and rating = 5)
  from (select rating, not is_hidden and verification_status in ('verified', 'unverified') as p
        from plaudit.reviews where org_id = p_org) r
$$;

create function pg_temp.counters(p_org uuid)
returns table (total bigint, public_count bigint, rating_sum bigint, r1 bigint, r2 bigint, r3 bigint, r4 bigint, r5 bigint)
language sql as $$
  select coalesce(sum(total_count), 0)::bigint, coalesce(sum(public_count), 0)::bigint, coalesce(sum(rating_sum), 0)::bigint,
         coalesce(sum(rating_1), 0)::bigint, coalesce(sum(rating_2), 0)::bigint, coalesce(sum(rating_3), 0)::bigint,
         coalesce(sum(rating_4), 0)::bigint, coalesce(sum(rating_5), 0)::bigint
  from plaudit.review_statistics where org_id = p_org
$$;

-- The random mix, run as the roles that do it in production: the public submits, the tenant's
-- API role moderates and verifies through the same functions as the API.
select setseed(0.42);
create temporary table mix_log (op text) on commit drop;
grant insert on mix_log to plaudit_public, plaudit_api;

do $$
declare
  orgs uuid[] := array['12000000-0000-4000-8000-000000000001', '12000000-0000-4000-8000-000000000002']::uuid[];
  forms uuid[] := array['12000000-0000-4000-8000-0000000000a1', '12000000-0000-4000-8000-0000000000a2',
                        '12000000-0000-4000-8000-0000000000b1', '12000000-0000-4000-8000-0000000000b2']::uuid[];
  org uuid;
  target uuid;
  op integer;
  res record;
begin
  for i in 1 .. 400 loop
    op := floor(random() * 5)::integer;
    org := orgs[1 + floor(random() * 2)::integer];
    if op = 0 or i <= 40 then
      set local role plaudit_public;
      select * into res from plaudit.submit_review(
        jsonb_populate_record(null::plaudit.review_submission, jsonb_build_object(
          'form_id', forms[(case when org = orgs[1] then 0 else 2 end) + 1 + floor(random() * 2)::integer],
          'rating', 1 + floor(random() * 5)::integer, 'content', 'review ' || i, 'reviewer_name', 'Rev',
          'reviewer_email', 'r' || i || '@example.com')),
        'submit:mix', 100000, 'https://x');
      insert into mix_log values ('submit:' || coalesce(res.error_code, 'ok'));
    else
      reset role;
      select r.id into target from plaudit.reviews r where r.org_id = org
        and (op not in (3, 4) or r.verification_status = 'pending')
        order by random() limit 1;
      continue when target is null;
      set local role plaudit_api;
      perform set_config('plaudit.org_id', org::text, true);
      begin
        case op
          when 1 then perform plaudit.moderate_review(target, 'hide', 'mix', 'test');
          when 2 then perform plaudit.moderate_review(target, 'unhide', 'mix', 'test');
          when 3 then perform plaudit.approve_review(target, null, null);
          when 4 then perform plaudit.reject_review(target, 'mix', null);
        end case;
        insert into mix_log values ('op' || op || ':ok');
      exception when object_not_in_prerequisite_state then
        insert into mix_log values ('op' || op || ':conflict');
      end;
    end if;
    reset role;
  end loop;
end
$$;

select ok((select count(*) from mix_log where op = 'submit:ok') >= 40, 'the mix submitted reviews');
select ok((select count(distinct op) from mix_log where op like 'op%:ok') = 4,
  'the mix hid, unhid, approved and rejected');
select results_eq($$select * from pg_temp.counters('12000000-0000-4000-8000-000000000001')$$,
                  $$select * from pg_temp.recount('12000000-0000-4000-8000-000000000001')$$,
  'tenant one: counters equal a recount');
select results_eq($$select * from pg_temp.counters('12000000-0000-4000-8000-000000000002')$$,
                  $$select * from pg_temp.recount('12000000-0000-4000-8000-000000000002')$$,
  'tenant two: counters equal a recount');
select ok((select count(*) from plaudit.review_statistics where org_id = '12000000-0000-4000-8000-000000000001') between 1 and 16,
  'an organization''s statistics take at most 16 slot rows');

-- Versions: a pending submission does not change what the public sees; an approval does.
create temporary table versions (label text, v text) on commit drop;
insert into versions values ('start', plaudit.public_version('stats-one'));
select count(*) from plaudit.submit_review(jsonb_populate_record(null::plaudit.review_submission,
  '{"form_id": "12000000-0000-4000-8000-0000000000a2", "rating": 3, "content": "pending one", "reviewer_name": "P", "reviewer_email": "p@example.com"}'),
  'submit:v', 100, 'https://x');
insert into versions values ('pending', plaudit.public_version('stats-one'));
select count(*) from plaudit.approve_review(
  (select id from plaudit.reviews where content = 'pending one'), null, null);
insert into versions values ('approved', plaudit.public_version('stats-one'));
select is((select v from versions where label = 'pending'), (select v from versions where label = 'start'),
  'a pending review leaves the public version alone');
select isnt((select v from versions where label = 'approved'), (select v from versions where label = 'pending'),
  'an approval moves the public version');

-- Rebuilding from the reviews gives the same figures and a newer version.
select plaudit.rebuild_review_statistics('12000000-0000-4000-8000-000000000002');
select results_eq($$select * from pg_temp.counters('12000000-0000-4000-8000-000000000002')$$,
                  $$select * from pg_temp.recount('12000000-0000-4000-8000-000000000002')$$,
  'a rebuild gives the same figures');

set local role plaudit_api;
select throws_ok($$insert into plaudit.review_statistics (org_id, slot) values ('12000000-0000-4000-8000-000000000001', 0)$$,
  '42501', 'permission denied for table review_statistics', 'the API role cannot write statistics');
select tests.clear_persona();

select * from finish();
rollback;
