-- Review forms: how an organization collects reviews, with custom fields and a verification mode.

-- True when `fields` is a valid list of custom-field definitions:
--   [{key, label, type: text|textarea|number|select|boolean|scale|rating, required?, options?, scale?}]
-- keys are unique identifiers, select fields list 1–50 distinct options, scale fields 2–7
-- distinct ordered labels (an attribute such as fit: Runs small … Runs large), other types
-- neither. A rating field (1–5 stars of one aspect, such as Quality) takes nothing more. Scale
-- and rating answers are public (plaudit.attribute_answers); the other types' stay private.
create or replace function plaudit.custom_field_definitions_are_valid(fields jsonb)
returns boolean
language plpgsql
immutable
set search_path = pg_catalog, pg_temp
as $$
declare
  f jsonb;
  keys text[] := '{}';
begin
  if jsonb_typeof(fields) <> 'array' or jsonb_array_length(fields) > 50 then
    return false;
  end if;
  for f in select value from jsonb_array_elements(fields) loop
    if jsonb_typeof(f) <> 'object'
       or jsonb_typeof(f -> 'key') is distinct from 'string'
       or (f ->> 'key') !~ '^[a-z][a-z0-9_]{0,49}$'
       or (f ->> 'key') = any (keys)
       or jsonb_typeof(f -> 'label') is distinct from 'string'
       or char_length(f ->> 'label') not between 1 and 200
       or (f ->> 'type') is null
       or (f ->> 'type') not in ('text', 'textarea', 'number', 'select', 'boolean', 'scale', 'rating')
       or coalesce(jsonb_typeof(f -> 'required'), 'boolean') <> 'boolean'
       or exists (select from jsonb_object_keys(f) k where k not in ('key', 'label', 'type', 'required', 'options', 'scale'))
    then
      return false;
    end if;
    if (f ->> 'type') = 'select' then
      if jsonb_typeof(f -> 'options') is distinct from 'array'
         or jsonb_array_length(f -> 'options') not between 1 and 50
         or exists (select from jsonb_array_elements(f -> 'options') o
                    where jsonb_typeof(o) <> 'string' or char_length(o #>> '{}') not between 1 and 200)
         or (select count(distinct o) from jsonb_array_elements(f -> 'options') o)
            <> jsonb_array_length(f -> 'options')
      then
        return false;
      end if;
    elsif f ? 'options' then
      return false;
    end if;
    if (f ->> 'type') = 'scale' then
      if jsonb_typeof(f -> 'scale') is distinct from 'array'
         or jsonb_array_length(f -> 'scale') not between 2 and 7
         or exists (select from jsonb_array_elements(f -> 'scale') o
                    where jsonb_typeof(o) <> 'string' or char_length(o #>> '{}') not between 1 and 100)
         or (select count(distinct o) from jsonb_array_elements(f -> 'scale') o)
            <> jsonb_array_length(f -> 'scale')
      then
        return false;
      end if;
    elsif f ? 'scale' then
      return false;
    end if;
    keys := keys || (f ->> 'key');
  end loop;
  return true;
end
$$;
comment on function plaudit.custom_field_definitions_are_valid(jsonb) is 'True when `fields` is a valid list of custom-field definitions: unique keys, known types, options for select fields only, 2–7 labels for scale fields only.';
grant execute on function plaudit.custom_field_definitions_are_valid(jsonb) to plaudit_api;

-- A deleted form stays deleted: nothing can bring it back or change it afterwards.
create or replace function plaudit.review_forms_stay_deleted()
returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  if old.deleted_at is not null then
    raise exception 'review form % is deleted and cannot be changed', old.id
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  return new;
end
$$;
comment on function plaudit.review_forms_stay_deleted() is 'A deleted form stays deleted: nothing can bring it back or change it afterwards.';

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger review_forms_stay_deleted
  before update on plaudit.review_forms
  for each row execute function plaudit.review_forms_stay_deleted();

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read their own review forms"
  on plaudit.review_forms for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can create review forms for themselves"
  on plaudit.review_forms for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can update their own review forms"
  on plaudit.review_forms for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.review_forms to plaudit_api;
grant insert (org_id, name, verification_mode, custom_fields, is_active, incentive) on plaudit.review_forms to plaudit_api;
grant update (name, verification_mode, custom_fields, is_active, deleted_at, incentive) on plaudit.review_forms to plaudit_api;
