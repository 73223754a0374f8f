-- The database linter, as CI: plpgsql_check over every PL/pgSQL function of plaudit, and the
-- rules of Supabase's splinter that apply to a private schema, as catalog queries. A finding fails
-- the suite unless the one list below accepts it with a reason; an acceptance nothing matches
-- fails too, so the list never outlives its findings.
begin;
select plan(4);

create extension if not exists plpgsql_check with schema extensions;

------------
--- Accepted findings, each with its reason (reviewed like code)
------------

create temporary table accepted (rule text, object text, reason text not null, primary key (rule, object));
insert into accepted values
  ('plpgsql_check: target type is different type than source type', 'plaudit.append_moderation_entry(uuid,uuid,text,text,text)',
   'a bytea literal in a declaration, cast once when the block starts'),
  ('plpgsql_check: target type is different type than source type', 'plaudit.verify_moderation_chain(uuid)',
   'a bytea literal in a declaration, cast once when the block starts'),
  ('plpgsql_check: target type is different type than source type', 'plaudit.check_custom_field_values(jsonb,jsonb)',
   'a jsonb literal in a declaration, cast once when the block starts'),
  ('plpgsql_check: target type is different type than source type', 'plaudit.custom_field_definitions_are_valid(jsonb)',
   'an empty text[] literal in a declaration, cast once when the block starts'),
  ('function_search_path_mutable', 'plaudit.csv_cell(text)',
   'an inlined SQL function (a SET clause would stop inlining, per cell of an export); not SECURITY DEFINER, it runs with its caller''s rights and names pg_catalog functions only'),
  ('function_search_path_mutable', 'plaudit.csv_guard(text)',
   'an inlined SQL function, as csv_cell; not SECURITY DEFINER'),
  ('function_search_path_mutable', 'plaudit.export_page(uuid,timestamp with time zone,timestamp with time zone,timestamp with time zone,uuid,integer,uuid,boolean,integer)',
   'inlined into the export queries of its SECURITY DEFINER callers, which fix the search_path; every name in it is schema-qualified'),
  ('function_search_path_mutable', 'plaudit.review_json(plaudit.reviews,plaudit.review_replies)',
   'inlined into the reads that write reviews as JSON (once per row); not SECURITY DEFINER; every name in it is schema-qualified'),
  ('function_search_path_mutable', 'plaudit.reply_json(plaudit.review_replies)',
   'inlined beside review_json; not SECURITY DEFINER; every name in it is schema-qualified'),
  ('plpgsql_check: relation "new_products" does not exist', 'plaudit.products_signal_changes()',
   'a statement trigger of insert, update and delete: each reads the transition table its operation has, which the checker, given one trigger, cannot know'),
  ('function_search_path_mutable', 'plaudit.public_review_json(plaudit.public_reviews,plaudit.review_replies,plaudit.products)',
   'inlined into every public list (once per item), as review_json; not SECURITY DEFINER; every name in it is schema-qualified'),
  ('function_search_path_mutable', 'plaudit.review_has_public_media(uuid)',
   'inlined into the has_media filter of the public feeds (once per review); not SECURITY DEFINER; every name in it is schema-qualified'),
  ('function_search_path_mutable', 'plaudit.review_media_json(uuid,boolean)',
   'inlined beside review_json and public_review_json (once per review); not SECURITY DEFINER; every name in it is schema-qualified'),
  ('function_search_path_mutable', 'plaudit.page_meta(bigint,integer,integer)',
   'an inlined SQL expression of its arguments; not SECURITY DEFINER'),
  ('function_search_path_mutable', 'plaudit.xml_text(text)',
   'an inlined SQL function, as csv_cell (per field of the Google feed); not SECURITY DEFINER; pg_catalog names only'),
  ('function_search_path_mutable', 'plaudit.xml_element_or_nothing(text,text)',
   'inlined beside xml_text; not SECURITY DEFINER; every name in it is schema-qualified'),
  ('function_search_path_mutable', 'plaudit.erasure_notice()',
   'a constant, inlined into the reviews'' guard; not SECURITY DEFINER; it names nothing'),
  ('function_search_path_mutable', 'plaudit.media_per_review_limit()',
   'a constant, inlined into the media checks; not SECURITY DEFINER; it names nothing'),
  ('function_search_path_mutable', 'plaudit.media_upload_token_lifetime()',
   'a constant, inlined where an upload token is issued; not SECURITY DEFINER; it names nothing'),
  ('function_search_path_mutable', 'plaudit.review_is_incentivized(plaudit.reviews)',
   'inlined into the Google feed''s page (once per review); not SECURITY DEFINER; it names nothing'),
  ('function_search_path_mutable', 'plaudit.review_is_public(boolean,text)',
   'the one rule of which reviews are public, inlined into the public reads, their partial index walks and the triggers'' WHEN clauses (once per review); not SECURITY DEFINER; it names nothing'),
  ('extension_in_public', 'pgtap',
   'test-only: npm test installs pgTAP into its throwaway database'),
  ('rls_enabled_no_policy', 'plaudit.moderation_chain_heads',
   'internal: written by the trail''s trigger and read by SECURITY DEFINER functions only; no role may read it directly'),
  ('rls_enabled_no_policy', 'plaudit.import_rows',
   'internal: an import''s staged rows, written by plaudit.create_import and read by plaudit.run_imports only'),
  ('rls_enabled_no_policy', 'plaudit.media_upload_tokens',
   'internal: reviewers'' upload tokens, reached through SECURITY DEFINER functions by token hash only'),
  ('rls_enabled_no_policy', 'plaudit.rate_limit_counters',
   'internal: counted by plaudit.authenticate only'),
  ('rls_enabled_no_policy', 'plaudit.sessions',
   'internal: dashboard sessions, reached through SECURITY DEFINER functions by token hash only'),
  ('rls_enabled_no_policy', 'plaudit.sign_in_challenges',
   'internal: sign-in mails, reached through SECURITY DEFINER functions by token hash or address only'),
  ('plpgsql_check: unmodified OUT variable "key_id"', 'plaudit.authenticate_session(bytea,uuid,integer)',
   'shaped as plaudit.authenticate''s row; a session has no key, so key_id stays null'),
  ('plpgsql_check: unmodified OUT variable "prefix"', 'plaudit.authenticate_session(bytea,uuid,integer)',
   'shaped as plaudit.authenticate''s row; a session has no key prefix'),
  ('rls_enabled_no_policy', 'plaudit.signing_secrets',
   'internal: read by the worker''s SECURITY DEFINER functions only'),
  ('rls_enabled_no_policy', 'plaudit.cdn_purges',
   'internal: the CDN purge outbox, written by triggers and claimed by the worker''s SECURITY DEFINER functions only'),
  ('rls_enabled_no_policy', 'plaudit.review_votes',
   'internal: helpful votes, written and read by plaudit.vote_helpful only; tenants see the count on the review'),
  ('rls_enabled_no_policy', 'plaudit.answer_votes',
   'internal: helpful votes on answers, written and read by plaudit.vote_answer_helpful only; tenants see the count'),
  ('rls_enabled_no_policy', 'plaudit.question_answer_tokens',
   'internal: buyers'' answer links, reached through SECURITY DEFINER functions by token hash only'),
  ('rls_enabled_no_policy', 'plaudit.visitor_hash_keys',
   'internal: the keys of the visitors'' hashes, used by the public writes'' SECURITY DEFINER functions only'),
  ('rls_enabled_no_policy', 'plaudit.replica_read_floor',
   'internal: one WAL position, raised by the worker''s and read by the API''s SECURITY DEFINER functions only'),
  ('rls_enabled_no_policy', 'plaudit.review_arrivals',
   'internal: what each submission leaves for the burst and duplicate checks (a client hash among it), written by plaudit.submit_review and read by the SECURITY DEFINER checks only'),
  ('rls_enabled_no_policy', 'plaudit.worker_bell',
   'internal: the worker''s address and secret, written by the operator and read by pg_cron''s bell as the owner''s member');

------------
--- Findings
------------

create function pg_temp.lint_findings()
returns table (rule text, object text)
language sql
as $$
  -- plpgsql_check: every PL/pgSQL function of plaudit, trigger functions with their table and
  -- transition tables (of its first trigger by name: the order triggers were made in does not count).
  select 'plpgsql_check: ' || r.message, p.oid::regprocedure::text
    from pg_proc p
    left join lateral (select t.tgrelid, t.tgoldtable, t.tgnewtable
                         from pg_trigger t where t.tgfoid = p.oid order by t.tgname limit 1) trg on true
    cross join lateral extensions.plpgsql_check_function_tb(
      p.oid, coalesce(trg.tgrelid, 0), oldtable => trg.tgoldtable, newtable => trg.tgnewtable,
      security_warnings => true) r
   where p.pronamespace = 'plaudit'::regnamespace and p.prolang = (select oid from pg_language where lanname = 'plpgsql')
  union all
  -- function_search_path_mutable (splinter 0011).
  select 'function_search_path_mutable', p.oid::regprocedure::text
    from pg_proc p
   where p.pronamespace = 'plaudit'::regnamespace
     and not exists (select from unnest(p.proconfig) c where c like 'search_path=%')
  union all
  -- security_definer_view (0010): a view that runs with its owner's rights.
  select 'security_definer_view', c.oid::regclass::text
    from pg_class c
   where c.relkind = 'v' and c.relnamespace in ('plaudit'::regnamespace, 'public'::regnamespace)
     and not coalesce(c.reloptions && array['security_invoker=true', 'security_invoker=on'], false)
     and not exists (select from pg_depend d where d.objid = c.oid and d.deptype = 'e')
  union all
  -- Functions any role may execute (PUBLIC, Supabase's anon included): ours are granted by name.
  select 'function_executable_by_public', p.oid::regprocedure::text
    from pg_proc p
   where p.pronamespace = 'plaudit'::regnamespace
     and (p.proacl is null
          or exists (select from aclexplode(p.proacl) a where a.grantee = 0 and a.privilege_type = 'EXECUTE'))
  union all
  -- rls_disabled_in_public (0013), for plaudit and public.
  select 'rls_disabled', c.oid::regclass::text
    from pg_class c
   where c.relkind in ('r', 'p') and c.relnamespace in ('plaudit'::regnamespace, 'public'::regnamespace)
     and not c.relrowsecurity
  union all
  -- rls_enabled_no_policy (0008).
  select 'rls_enabled_no_policy', c.oid::regclass::text
    from pg_class c
   where c.relkind in ('r', 'p') and c.relnamespace = 'plaudit'::regnamespace and c.relrowsecurity
     and not exists (select from pg_policy pol where pol.polrelid = c.oid)
  union all
  -- policy_exists_rls_disabled (0007).
  select 'policy_exists_rls_disabled', c.oid::regclass::text
    from pg_class c
   where c.relnamespace = 'plaudit'::regnamespace and not c.relrowsecurity
     and exists (select from pg_policy pol where pol.polrelid = c.oid)
  union all
  -- unindexed_foreign_keys (0001): no index begins with exactly the key's columns.
  select 'unindexed_foreign_key', con.conrelid::regclass::text || ' (' || con.conname || ')'
    from pg_constraint con
   where con.contype = 'f' and con.connamespace = 'plaudit'::regnamespace
     and not exists (
       select from pg_index i
        where i.indrelid = con.conrelid
          and (i.indkey::int2[])[0:cardinality(con.conkey) - 1] @> con.conkey
          and (i.indkey::int2[])[0:cardinality(con.conkey) - 1] <@ con.conkey)
  union all
  -- duplicate_index (0009): one table, same columns, operator classes, expressions, predicate.
  select 'duplicate_index', a.indexrelid::regclass::text || ' = ' || b.indexrelid::regclass::text
    from pg_index a
    join pg_index b
      on a.indrelid = b.indrelid and a.indexrelid < b.indexrelid
     and a.indkey = b.indkey and a.indclass = b.indclass
     and coalesce(pg_get_expr(a.indexprs, a.indrelid), '') = coalesce(pg_get_expr(b.indexprs, b.indrelid), '')
     and coalesce(pg_get_expr(a.indpred, a.indrelid), '') = coalesce(pg_get_expr(b.indpred, b.indrelid), '')
   where a.indrelid in (select oid from pg_class where relnamespace = 'plaudit'::regnamespace)
  union all
  -- no_primary_key (0004).
  select 'no_primary_key', c.oid::regclass::text
    from pg_class c
   where c.relkind in ('r', 'p') and c.relnamespace = 'plaudit'::regnamespace
     and not exists (select from pg_index i where i.indrelid = c.oid and i.indisprimary)
  union all
  -- extension_in_public (0014).
  select 'extension_in_public', e.extname::text
    from pg_extension e
   where e.extnamespace = 'public'::regnamespace
  union all
  -- multiple_permissive_policies (0006): two permissive policies for one of our roles and command.
  select 'multiple_permissive_policies', c.oid::regclass::text || ' ' || r.rolname || ' ' || cmd.cmd
    from pg_class c
    cross join (values ('r'), ('a'), ('w'), ('d')) cmd (cmd)
    join pg_roles r on r.rolname like 'plaudit\_%'
   where c.relnamespace = 'plaudit'::regnamespace
     and (select count(*) from pg_policy pol
           where pol.polrelid = c.oid and pol.polpermissive
             and (pol.polcmd = cmd.cmd or pol.polcmd = '*')
             and (r.oid = any(pol.polroles) or 0 = any(pol.polroles))) > 1
$$;

select is_empty(
  $$ select rule, object from pg_temp.lint_findings() except select rule, object from accepted $$,
  'the database linter finds nothing beyond the accepted findings'
);

select is_empty(
  $$ select rule, object from accepted except select rule, object from pg_temp.lint_findings() $$,
  'every accepted finding is still found (the list holds no stale entry)'
);

------------
--- The linter is not vacuous
------------

create function plaudit.lint_probe_no_search_path() returns integer language sql security definer as $$ select 1 $$;
create table plaudit.lint_probe_child (id integer primary key, parent uuid references plaudit.organizations (id));
create view plaudit.lint_probe_view as select 1 as one;
create function plaudit.lint_probe_broken() returns integer language plpgsql set search_path = pg_catalog, pg_temp
  as $$ begin return (select count(*) from plaudit.no_such_table); end $$;

select set_eq(
  $$ select rule, object from pg_temp.lint_findings() where object like '%lint_probe%' $$,
  $$ values ('function_search_path_mutable', 'plaudit.lint_probe_no_search_path()'),
            ('function_executable_by_public', 'plaudit.lint_probe_no_search_path()'),
            ('function_executable_by_public', 'plaudit.lint_probe_broken()'),
            ('rls_disabled', 'plaudit.lint_probe_child'),
            ('unindexed_foreign_key', 'plaudit.lint_probe_child (lint_probe_child_parent_fkey)'),
            ('security_definer_view', 'plaudit.lint_probe_view'),
            ('plpgsql_check: relation "plaudit.no_such_table" does not exist', 'plaudit.lint_probe_broken()') $$,
  'the linter flags a function without search_path or grants, a table without RLS or FK index, an owner-rights view and a broken PL/pgSQL body'
);

select ok(
  (select count(*) from pg_proc where pronamespace = 'plaudit'::regnamespace
      and prolang = (select oid from pg_language where lanname = 'plpgsql')) > 30,
  'plpgsql_check looks at the PL/pgSQL functions of plaudit'
);

select * from finish();
rollback;
