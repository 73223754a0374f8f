-- The moderation trail's actions are rows of plaudit.trail_actions, which the trail's action
-- references: each feature's source file inserts the actions it writes (CONTRIBUTING.md, "Recipe: a
-- new trail action"). An unknown action is refused by the foreign key; every action a function
-- writes is there; tenants read the actions as they read the trail, and no one but the owner
-- writes them.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(12);

insert into plaudit.organizations (id, name, slug) values
  ('86000000-aaaa-4aaa-8aaa-000000000001', 'Acme', 'acme86');

-- The actions each call of plaudit.append_moderation_entry writes, read from the functions' bodies:
-- its third argument, a literal or a case of literals (those after `then` and `else`), or a variable
-- declared as one (`action text := case … end;`). A call it cannot read answers a null action.
create function pg_temp.written_actions()
returns table (fn text, action text, argument text)
language plpgsql
as $$
declare
  p record;
  src text;
  at integer;
  i integer;
  depth integer;
  quoted boolean;
  ch text;
  cur text;
  args text[];
  arg text;
begin
  for p in select x.oid::regprocedure::text as name, x.prosrc from pg_proc x
            where x.pronamespace = 'plaudit'::regnamespace and x.proname <> 'append_moderation_entry'
              and x.prosrc like '%append_moderation_entry(%' loop
    src := p.prosrc;
    at := position('append_moderation_entry(' in src);
    while at > 0 loop
      i := at + length('append_moderation_entry(');
      depth := 0; quoted := false; cur := ''; args := '{}';
      loop
        ch := substr(src, i, 1);
        exit when ch = '';
        if quoted then
          quoted := ch <> '''';
        elsif ch = '''' then
          quoted := true;
        elsif ch = '(' then
          depth := depth + 1;
        elsif ch = ')' and depth = 0 then
          args := args || btrim(cur);
          exit;
        elsif ch = ')' then
          depth := depth - 1;
        elsif ch = ',' and depth = 0 then
          args := args || btrim(cur);
          cur := '';
          i := i + 1;
          continue;
        end if;
        cur := cur || ch;
        i := i + 1;
      end loop;
      arg := args[3];
      if arg ~ '^[a-z_]+$' then
        arg := substring(p.prosrc from '\m' || arg || '\s+text\s*:=\s*([^;]*);');
      end if;
      if arg is null or arg !~ '''' then
        return query select p.name, null::text, args[3];
      else
        return query select p.name, m[1], args[3]
                       from regexp_matches(arg, '(?:^|\mthen|\melse)\s*''([a-z_]+)''', 'g') m;
      end if;
      src := substr(src, i);
      at := position('append_moderation_entry(' in src);
    end loop;
  end loop;
end
$$;

-- The owner ----------------------------------------------------------------------------------------
select col_is_fk('plaudit', 'moderation_trail', 'action', 'owner: the trail''s action is a foreign key');
select throws_ok(
  $$ select plaudit.append_moderation_entry('86000000-aaaa-4aaa-8aaa-000000000001', null, 'teleport', null, 'test:86') $$,
  '23503', 'insert or update on table "moderation_trail" violates foreign key constraint "moderation_trail_action_fkey"',
  'owner: an unknown action is refused by the foreign key');
select lives_ok(
  $$ select plaudit.append_moderation_entry('86000000-aaaa-4aaa-8aaa-000000000001', null, 'import', 'imported', 'test:86') $$,
  'owner: a known action is appended');
select is_empty($$ select fn, argument from pg_temp.written_actions() where action is null $$,
  'owner: every call of append_moderation_entry names its action readably (a literal, a case, a declared variable)');
select ok((select count(distinct action) from pg_temp.written_actions()) >= 19
          and (select array_agg(distinct action) from pg_temp.written_actions())
              @> array['hide', 'reject', 'withdraw_reply', 'uphold_appeal', 'release_hold', 'summarize'],
  'owner: the functions'' actions are found (the check below is not vacuous)');
select is_empty($$ select action from pg_temp.written_actions() except select action from plaudit.trail_actions $$,
  'owner: every action a function writes is a trail action');

-- Tenant, worker and the public --------------------------------------------------------------------
select tests.act_as_tenant('86000000-aaaa-4aaa-8aaa-000000000001');
select ok((select count(*) from plaudit.trail_actions where description <> '') >= 19,
  'tenant: reads the trail''s actions with their descriptions');
select throws_ok($$ insert into plaudit.trail_actions (action, description) values ('teleport', 'Beamed.') $$,
  '42501', 'permission denied for table trail_actions', 'tenant: cannot add an action');
select throws_ok($$ update plaudit.trail_actions set description = 'Changed.' where action = 'hide' $$,
  '42501', 'permission denied for table trail_actions', 'tenant: cannot change an action');
select tests.act_as_worker();
select throws_ok($$ select count(*) from plaudit.trail_actions $$,
  '42501', 'permission denied for table trail_actions', 'worker: cannot read the actions (nor the trail)');
select tests.act_as_public();
select throws_ok($$ select count(*) from plaudit.trail_actions $$,
  '42501', 'permission denied for table trail_actions', 'public: cannot read the actions');
select tests.clear_persona();

-- The check finds a new action no source inserted -------------------------------------------------
create function plaudit.zz_probe86() returns void language plpgsql set search_path = pg_catalog, pg_temp as $$
begin
  perform plaudit.append_moderation_entry(null, null, case when random() > 2 then 'teleport' else 'hide' end, null, 'x');
end
$$;
select results_eq(
  $$ select action from pg_temp.written_actions() except select action from plaudit.trail_actions $$,
  $$ values ('teleport') $$,
  'owner: a function writing an action no source inserted is found');

select * from finish();
rollback;
