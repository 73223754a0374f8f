-- A trigger function for columns that record a permanent end (a revocation, an acceptance):
-- once such a column is set, no update may clear or change it, whoever asks, the table's owner
-- included. Its arguments come in pairs: a column name, then what to call that fact in the error
-- ("an API key's revocation is permanent"). Setting the column the first time is untouched.
create function plaudit.refuse_changes_once_set()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  before jsonb := to_jsonb(old);
  after jsonb := to_jsonb(new);
  i integer := 0;
begin
  while i < tg_nargs loop
    if jsonb_typeof(before -> tg_argv[i]) <> 'null' and (after -> tg_argv[i]) is distinct from (before -> tg_argv[i]) then
      raise exception '%: % cannot be cleared or changed once set', tg_argv[i + 1], tg_argv[i]
        using errcode = 'restrict_violation';
    end if;
    i := i + 2;
  end loop;
  return new;
end
$$;

revoke execute on function plaudit.refuse_changes_once_set() from public;
