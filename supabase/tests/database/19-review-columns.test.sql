-- What may change in a review, column by column: every column of plaudit.reviews, read from the
-- catalog (so that a column added later is tried too), is changed alone by every role that might
-- update a review: the table's owner (and so every SECURITY DEFINER function), the API's tenant
-- (its column grants, row-level security), the public, the worker and the authenticator. Only the
-- columns moderation, verification, helpful votes and forgetting the reviewer own may change,
-- each as its rule allows; every other one is refused with the guard's message. Then each path
-- that changes a review in the product changes exactly its own columns.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(23);

insert into plaudit.organizations (id, name, slug) values
  ('19000000-0000-4000-8000-000000000001', 'Columns Co', 'columns-co');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('19000000-0000-4000-8000-0000000000f1', '19000000-0000-4000-8000-000000000001', 'Form', 'email'),
  ('19000000-0000-4000-8000-0000000000f2', '19000000-0000-4000-8000-000000000001', 'Proof', 'purchase_proof');
insert into plaudit.products (id, org_id, external_id, name) values
  ('19000000-0000-4000-8000-0000000000b1', '19000000-0000-4000-8000-000000000001', 'mug', 'Mug');
insert into plaudit.orders (org_id, order_id, email) values
  ('19000000-0000-4000-8000-000000000001', 'ORD-19', 'buyer@example.com');
-- a1 is the review every column is tried on (each trial undone); the others take one path each.
-- Every column holds a value, dates in the past, so that any change shows.
insert into plaudit.reviews (id, org_id, form_id, product_id, rating, title, content, reviewer_name, reviewer_email,
                             custom_fields, verification_status, incentive, created_at, updated_at)
select ('19000000-0000-4000-8000-0000000000' || x.suffix)::uuid, '19000000-0000-4000-8000-000000000001',
       x.form::uuid, '19000000-0000-4000-8000-0000000000b1', 4, 'Title ' || x.suffix, 'Content ' || x.suffix,
       'Reviewer ' || x.suffix, x.email, '{"size": "S"}', x.status,
       '{"type": "gift", "description": "A mug"}', '2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z'
  from (values ('a1', '19000000-0000-4000-8000-0000000000f1', 'trial@example.com', 'pending'),
               ('a2', '19000000-0000-4000-8000-0000000000f1', 'hide@example.com', 'unverified'),
               ('a3', '19000000-0000-4000-8000-0000000000f1', 'approve@example.com', 'pending'),
               ('a4', '19000000-0000-4000-8000-0000000000f1', 'reject@example.com', 'pending'),
               ('a5', '19000000-0000-4000-8000-0000000000f1', 'token@example.com', 'pending'),
               ('a6', '19000000-0000-4000-8000-0000000000f2', 'buyer@example.com', 'pending'),
               ('a7', '19000000-0000-4000-8000-0000000000f1', 'vote@example.com', 'unverified'),
               ('a8', '19000000-0000-4000-8000-0000000000f1', 'erase@example.com', 'unverified')) x(suffix, form, email, status);
insert into plaudit.review_verification_tokens (org_id, review_id, token_hash) values
  ('19000000-0000-4000-8000-000000000001', '19000000-0000-4000-8000-0000000000a5',
   sha256(convert_to('columns-token', 'UTF8')));

-- The columns that may change, and what changing one alone does on a pending review (for a role
-- that holds the column's UPDATE privilege). The test's own list: a column the guard lets change
-- that is not here fails below.
create temporary table changeable (col name primary key, trial text not null, alone text not null);
insert into changeable values
  ('is_hidden', 'not r.is_hidden', 'changed'),
  ('verification_status', '''verified''', 'changed'),
  ('verification_method', '''manual''', '23001 verification provenance changes only with the verification status'),
  ('verification_at', 'now()', '23001 verification provenance changes only with the verification status'),
  ('verification_key_id', 'gen_random_uuid()', '23001 verification provenance changes only with the verification status'),
  ('verification_token_id', 'gen_random_uuid()', '23001 verification provenance changes only with the verification status'),
  ('verification_order_hash', 'encode(sha256(''\x00''::bytea), ''hex'')',
   '23001 verification provenance changes only with the verification status'),
  ('verification_reason', '''because''', '23001 verification provenance changes only with the verification status'),
  ('helpful_count', 'r.helpful_count + 1', 'changed'),
  -- Forgetting the reviewer changes these together or not at all.
  ('reviewer_email', 'null', '23001 a review cannot be rewritten: only moderation and verification may change it'),
  ('reviewer_name', '''Anonymous''', '23001 a review cannot be rewritten: only moderation and verification may change it'),
  ('custom_fields', '''{}''', '23001 a review cannot be rewritten: only moderation and verification may change it'),
  ('title', '''Rewritten''', '23001 a review cannot be rewritten: only moderation and verification may change it'),
  ('content', '''Rewritten''', '23001 a review cannot be rewritten: only moderation and verification may change it');
grant select on changeable to public;

-- Another value of a column's type, for the columns that may not change (refused before any
-- constraint is checked: the guard runs first). A type without one here fails below.
create function pg_temp.trial_value(p_col name, p_type regtype)
returns text
language sql
immutable
as $$
  select case p_type
    when 'uuid'::regtype then 'gen_random_uuid()'
    when 'text'::regtype then format('coalesce(r.%I, '''') || '' (changed)''', p_col)
    when 'smallint'::regtype then format('coalesce(r.%I, 0) + 1', p_col)
    when 'integer'::regtype then format('coalesce(r.%I, 0) + 1', p_col)
    when 'bigint'::regtype then format('coalesce(r.%I, 0) + 1', p_col)
    when 'boolean'::regtype then format('not coalesce(r.%I, false)', p_col)
    when 'timestamp with time zone'::regtype then format('coalesce(r.%I, now()) - interval ''1 day''', p_col)
    when 'jsonb'::regtype then '''{"changed": true}''::jsonb'
    when 'bytea'::regtype then format('sha256(coalesce(r.%I, ''''::bytea))', p_col)
    when 'tsvector'::regtype then 'to_tsvector(''simple'', ''changed'')'
    when 'plaudit.incentive'::regtype then '''{"type": "points", "description": "Other points"}''::plaudit.incentive'
  end
$$;

-- Changes one column of a review in a subtransaction that is undone, and says what happened:
-- `changed`, or the refusal's SQLSTATE and message.
create function pg_temp.try_change(p_id uuid, p_col name, p_value text)
returns text
language plpgsql
as $$
declare
  before jsonb;
  after jsonb;
  outcome text;
begin
  begin
    execute format('update plaudit.reviews r set %I = %s
                      from (select to_jsonb(o) as row from plaudit.reviews o where o.id = $1) o
                     where r.id = $1 returning o.row, to_jsonb(r)', p_col, p_value)
      into before, after using p_id;
    outcome := case when after is null then 'no row'
                    when after -> p_col is distinct from before -> p_col then 'changed'
                    else 'unchanged' end;
    raise exception 'undo the trial';
  exception when others then
    if outcome is not null and sqlerrm = 'undo the trial' then
      return outcome;
    end if;
    return sqlstate || ' ' || sqlerrm;
  end;
end
$$;

-- Every column of a review, tried alone on a1 by the current role.
create function pg_temp.tried()
returns table (col name, outcome text)
language sql
as $$
  select a.attname, pg_temp.try_change('19000000-0000-4000-8000-0000000000a1', a.attname,
                                       coalesce(c.trial, pg_temp.trial_value(a.attname, a.atttypid::regtype)))
    from pg_attribute a left join pg_temp.changeable c on c.col = a.attname
   where a.attrelid = 'plaudit.reviews'::regclass and a.attnum > 0 and not a.attisdropped
   order by a.attnum
$$;

-- What a role should get: a generated column is PostgreSQL's to write, a column the role may not
-- update is refused by privileges, the columns that may change as listed, every other one by the
-- guard.
create function pg_temp.expected(p_role name)
returns table (col name, outcome text)
language sql
as $$
  select a.attname,
         case when a.attgenerated <> '' then '428C9 column "' || a.attname || '" can only be updated to DEFAULT'
              when not has_column_privilege(p_role, 'plaudit.reviews', a.attname, 'UPDATE')
                then '42501 permission denied for table reviews'
              else coalesce(c.alone, '23001 a review cannot be rewritten: only moderation and verification may change it')
         end
    from pg_attribute a left join pg_temp.changeable c on c.col = a.attname
   where a.attrelid = 'plaudit.reviews'::regclass and a.attnum > 0 and not a.attisdropped
   order by a.attnum
$$;

select is_empty(
  $$select a.attname from pg_attribute a left join changeable c on c.col = a.attname
     where a.attrelid = 'plaudit.reviews'::regclass and a.attnum > 0 and not a.attisdropped
       and c.col is null and pg_temp.trial_value(a.attname, a.atttypid::regtype) is null$$,
  'every column of a review has a value to try');
select is_empty(
  $$select c.col from changeable c
     where not exists (select from pg_attribute a where a.attrelid = 'plaudit.reviews'::regclass
                         and a.attname = c.col and not a.attisdropped)$$,
  'every column listed as changeable exists');

create temporary table snapshot as select r.id, to_jsonb(r) as row from plaudit.reviews r
  where r.org_id = '19000000-0000-4000-8000-000000000001';
grant select on snapshot to public;

------------
--- The table's owner (and every SECURITY DEFINER function, which runs as it)
------------
set local role plaudit_owner;
select results_eq($$select * from pg_temp.tried()$$, $$select * from pg_temp.expected('plaudit_owner')$$,
  'owner: only the listed columns change, each as its rule allows; every other one is refused by the guard');
select is(
  pg_temp.try_change('19000000-0000-4000-8000-0000000000a1', 'verification_status',
    '''verified'', verification_method = ''manual'', verification_at = now(), verification_reason = ''checked'', '
    || 'verification_order_hash = encode(sha256(''\x00''::bytea), ''hex'')'),
  'changed', 'owner: a pending review is verified with its provenance');
select is(
  pg_temp.try_change('19000000-0000-4000-8000-0000000000a1', 'title',
    'plaudit.erasure_notice(), content = r.content, reviewer_email = null, reviewer_name = ''Anonymous'', custom_fields = ''{}'''),
  'changed', 'owner: the reviewer is forgotten whole (title removed, text kept)');
select is(
  pg_temp.try_change('19000000-0000-4000-8000-0000000000a1', 'product_id', 'null, is_hidden = true'),
  '23001 a review cannot be rewritten: only moderation and verification may change it',
  'owner: a change that may not be made is refused whole, with the moderation beside it');
-- A vote's count is told apart from the rest of the row: beside another change, the guard's rules hold.
select is(
  pg_temp.try_change('19000000-0000-4000-8000-0000000000a1', 'helpful_count', 'r.helpful_count + 1, rating = 1'),
  '23001 a review cannot be rewritten: only moderation and verification may change it',
  'owner: a change that may not be made is refused whole, with a helpful vote''s count beside it');
select is(
  pg_temp.try_change('19000000-0000-4000-8000-0000000000a1', 'helpful_count',
    'r.helpful_count + 1, verification_method = ''manual'''),
  '23001 verification provenance changes only with the verification status',
  'owner: provenance without its status is refused, with a helpful vote''s count beside it');
select is(
  pg_temp.try_change('19000000-0000-4000-8000-0000000000a1', 'helpful_count', 'r.helpful_count + 1, title = ''Rewritten'''),
  '23001 a review cannot be rewritten: only moderation and verification may change it',
  'owner: a rewritten title is refused, with a helpful vote''s count beside it');

------------
--- The migration user (a superuser here): the guard is no privilege, it refuses everyone
------------
reset role;
select results_eq($$select * from pg_temp.tried()$$, $$select * from pg_temp.expected(current_user)$$,
  'migration user: only the listed columns change; every other one is refused by the guard');

------------
--- The API's tenant: its column grants, then the guard
------------
set local role plaudit_api;
select set_config('plaudit.org_id', '19000000-0000-4000-8000-000000000001', true);
select results_eq($$select * from pg_temp.tried()$$, $$select * from pg_temp.expected('plaudit_api')$$,
  'API tenant: only the listed columns it is granted change; the rest is refused by privileges or the guard');

------------
--- The public, the worker and the authenticator update no review themselves
------------
set local role plaudit_public;
select results_eq($$select * from pg_temp.tried()$$, $$select * from pg_temp.expected('plaudit_public')$$,
  'public: every column is refused');
set local role plaudit_worker;
select results_eq($$select * from pg_temp.tried()$$, $$select * from pg_temp.expected('plaudit_worker')$$,
  'worker: every column is refused');
set local role plaudit_authenticator;
select results_eq($$select * from pg_temp.tried()$$, $$select * from pg_temp.expected('plaudit_authenticator')$$,
  'authenticator: every column is refused');

------------
--- Each path that changes a review, as the role that takes it: exactly its columns change
------------
set local role plaudit_api;
select set_config('plaudit.org_id', '19000000-0000-4000-8000-000000000001', true);
select plaudit.moderate_review('19000000-0000-4000-8000-0000000000a2', 'hide', 'off topic', 'api_key:k19');
select plaudit.approve_review('19000000-0000-4000-8000-0000000000a3', 'checked the order', null);
select plaudit.reject_review('19000000-0000-4000-8000-0000000000a4', null, null);
select plaudit.verify_review_by_order('19000000-0000-4000-8000-0000000000a6', 'ORD-19', null);
select plaudit.erase_reviewer('erase@example.com', true, 'api_key:k19');
set local role plaudit_public;
select plaudit.verify_review_by_token('columns-token');
select plaudit.vote_helpful('t:columns', 100, 'columns-co', '19000000-0000-4000-8000-0000000000a7', sha256('visitor'));
reset role;

create temporary view changed as
  select right(s.id::text, 2) as review,
         array(select a.key from jsonb_each(to_jsonb(r)) a where a.value is distinct from s.row -> a.key order by a.key)
           as columns
    from snapshot s join plaudit.reviews r on r.id = s.id;

select is((select columns from changed where review = 'a1'), '{}'::text[], 'the trials changed nothing');
select is((select columns from changed where review = 'a2'), '{is_hidden,updated_at}'::text[],
  'moderation (moderate_review, the API''s tenant) changes is_hidden');
select is((select columns from changed where review = 'a3'),
  '{updated_at,verification_at,verification_method,verification_reason,verification_status}'::text[],
  'a manual approval (approve_review, the API''s tenant) changes the status and its provenance');
select is((select columns from changed where review = 'a4'),
  '{updated_at,verification_at,verification_method,verification_status}'::text[],
  'a manual rejection (reject_review) changes the status and its provenance');
select is((select columns from changed where review = 'a5'),
  '{updated_at,verification_at,verification_method,verification_status,verification_token_id}'::text[],
  'the e-mailed link (verify_review_by_token, the public) changes the status and its provenance');
select is((select columns from changed where review = 'a6'),
  '{updated_at,verification_at,verification_method,verification_order_hash,verification_status}'::text[],
  'a purchase proof (verify_review_by_order, the API''s tenant) changes the status and its provenance');
select is((select columns from changed where review = 'a7'), '{helpful_count}'::text[],
  'a helpful vote (vote_helpful, the public) changes the count only, not even updated_at');
select is((select columns from changed where review = 'a8'),
  '{content,custom_fields,reviewer_email,reviewer_name,search,title,updated_at}'::text[],
  'forgetting the reviewer (erase_reviewer, the API''s tenant) changes the reviewer''s columns and the text only');

------------
--- A column added later is refused as it comes, the guard unchanged
------------
alter table plaudit.reviews add column loyalty_tier text;
set local role plaudit_owner;
select is(pg_temp.try_change('19000000-0000-4000-8000-0000000000a1', 'loyalty_tier', '''gold'''),
  '23001 a review cannot be rewritten: only moderation and verification may change it',
  'owner: a column added after the guard was written is refused too');

select * from finish();
rollback;
