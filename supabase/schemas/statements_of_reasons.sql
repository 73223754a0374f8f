-- Statements of reasons (EU DSA Art. 17): hiding a review, whoever hides it (moderation, a report's
-- decision, an automatic hold), writes a statement in the same transaction, and mails it to the
-- reviewer when the review has an address, with a link to appeal (a single-purpose token, kept as
-- its hash). Who hides sets the statement's ground, source and whether automated means decided
-- through transaction-local settings (plaudit.restriction_*), as the trail takes its reason from
-- plaudit.moderation_reason; without them it is moderation on "<the business>'s review policy".

-- The settings a hide takes its statement from, in the hiding transaction; cleared by the caller.
create or replace function plaudit.set_restriction(
  p_source text, p_ground_type text, p_ground text, p_automated boolean, p_report_id uuid default null
)
returns void
language sql
volatile
set search_path = pg_catalog, pg_temp
as $$
  select set_config('plaudit.restriction_source', coalesce(p_source, ''), true),
         set_config('plaudit.restriction_ground_type', coalesce(p_ground_type, ''), true),
         set_config('plaudit.restriction_ground', coalesce(p_ground, ''), true),
         set_config('plaudit.restriction_automated', case when p_automated then 'true' else '' end, true),
         set_config('plaudit.restriction_report', coalesce(p_report_id::text, ''), true)
$$;
comment on function plaudit.set_restriction(text,text,text,boolean,uuid) is 'Sets, for the transaction, where the next hide''s statement of reasons comes from and on what ground; nulls clear it.';
grant execute on function plaudit.set_restriction(text,text,text,boolean,uuid) to plaudit_api;

-- The statement a review's hide writes, and its mail to the reviewer with the appeal link's token
-- and until when one may appeal (plaudit.appeal_until).
create or replace function plaudit.reviews_state_reasons()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  token text := plaudit.random_base62(43);
  statement plaudit.review_statements;
  ground_type text := coalesce(nullif(current_setting('plaudit.restriction_ground_type', true), ''), 'policy');
begin
  insert into plaudit.review_statements
    (org_id, review_id, facts, automated, ground_type, ground, source, report_id, actor, appeal_token_hash, mailed)
  values (
    new.org_id, new.id,
    left(coalesce(nullif(current_setting('plaudit.moderation_reason', true), ''), 'Hidden by the business.'), 2000),
    coalesce(current_setting('plaudit.restriction_automated', true), '') = 'true',
    ground_type,
    left(coalesce(nullif(current_setting('plaudit.restriction_ground', true), ''),
                  case when ground_type = 'law' then 'The applicable law'
                       else plaudit.brand_name(new.org_id) || '''s review policy' end), 500),
    coalesce(nullif(current_setting('plaudit.restriction_source', true), ''), 'moderation'),
    nullif(current_setting('plaudit.restriction_report', true), '')::uuid,
    left(plaudit.current_actor(), 200),
    sha256(convert_to(token, 'UTF8')),
    new.reviewer_email is not null)
  returning * into statement;
  if new.reviewer_email is not null then
    perform plaudit.enqueue_email(new.org_id, new.reviewer_email, 'statement_of_reasons',
      plaudit.statement_json(statement)::jsonb || jsonb_build_object(
        'appeal_token', token, 'appeal_until', plaudit.iso_utc(plaudit.appeal_until(statement)),
        'reviewer_name', new.reviewer_name,
        'org_slug', plaudit.policy_page_slug(new.org_id),
        'review', jsonb_build_object('rating', new.rating, 'title', new.title, 'excerpt', left(new.content, 200))),
      'en', 'statement_of_reasons:' || statement.id);
  end if;
  return null;
end
$$;
comment on function plaudit.reviews_state_reasons() is 'Every hide of a review writes its statement of reasons and mails it, with an appeal link, to a reviewer with an address.';

-- A statement as the API answers it.
create or replace function plaudit.statement_json(p_statement plaudit.review_statements)
returns json
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'id', p_statement.id, 'review_id', p_statement.review_id, 'restriction', p_statement.restriction,
    'facts', p_statement.facts, 'automated', p_statement.automated,
    'ground', json_build_object('type', p_statement.ground_type, 'text', p_statement.ground),
    'source', p_statement.source, 'report_id', p_statement.report_id, 'actor', p_statement.actor,
    'mailed', p_statement.mailed, 'created_at', plaudit.iso_utc(p_statement.created_at))
$$;
comment on function plaudit.statement_json(plaudit.review_statements) is 'A statement of reasons as the API answers it.';

-- The statements of a review of the caller's tenant, newest first; null when the review is not the
-- tenant's. Definer, so that the appeal token's hash stays unread by the API's role.
create or replace function plaudit.review_statements_json(p_review_id uuid)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select coalesce((select json_agg(plaudit.statement_json(s) order by s.created_at desc, s.id desc)
                     from plaudit.review_statements s where s.review_id = r.id), '[]'::json)
    from plaudit.reviews r
   where r.id = p_review_id and r.org_id = plaudit.current_org_id()
$$;
comment on function plaudit.review_statements_json(uuid) is 'The statements of reasons of a review of the caller''s tenant, newest first; null when it is not the tenant''s.';
grant execute on function plaudit.review_statements_json(uuid) to plaudit_api;

-- The ground a hidden review's public address answers with (410): its latest statement's, when the
-- review of the slug's (switched-on) profile is hidden, and until when its author may appeal; no
-- row otherwise. Nothing of the review.
create or replace function plaudit.public_hidden_review_ground(p_slug text, p_review_id uuid)
returns table (ground_type text, ground text, hidden_at timestamptz, appeal_until timestamptz)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select s.ground_type, s.ground, s.created_at, plaudit.appeal_until(s)
    from plaudit.organizations o
    left join plaudit.public_profiles p on p.org_id = o.id
    join plaudit.reviews r on r.org_id = o.id and r.id = p_review_id and r.is_hidden
    join lateral (select * from plaudit.review_statements x where x.review_id = r.id
                   order by x.created_at desc, x.id desc limit 1) s on true
   where o.slug = p_slug and coalesce(p.enabled, true)
$$;
comment on function plaudit.public_hidden_review_ground(text,uuid) is 'The ground of a hidden review of the slug and until when it may be appealed, for its public address''s 410; no row when it is not hidden.';
grant execute on function plaudit.public_hidden_review_ground(text,uuid) to plaudit_public;

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger reviews_state_reasons
  after update of is_hidden on plaudit.reviews
  for each row
  when (new.is_hidden and not old.is_hidden)
  execute function plaudit.reviews_state_reasons();

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own statements of reasons" on plaudit.review_statements for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select (id, org_id, review_id, restriction, facts, automated, ground_type, ground, source, report_id, actor, mailed,
              created_at) on plaudit.review_statements to plaudit_api;
