-- Review forms: how an organization collects reviews, with custom fields and a verification mode.
--
-- Sections: review forms.

-- ============================================================================================
-- review forms
-- ============================================================================================
set role plaudit_owner;

-- Review forms: how an organization collects reviews. A form has custom fields (validated here,
-- at submission, by plaudit.check_custom_field_values), a verification mode that decides the
-- status a new review starts with, and an on/off switch. Deleting a form only marks it deleted:
-- its reviews keep pointing at it, and it stops accepting submissions.

-- True when `fields` is a valid list of custom-field definitions:
--   [{key, label, type: text|textarea|number|select|boolean, required?, options?}]
-- keys are unique identifiers, select fields list 1–50 distinct options, other types none.
create function plaudit.custom_field_definitions_are_valid(fields jsonb)
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
       or (f ->> 'type') not in ('text', 'textarea', 'number', 'select', 'boolean')
       or coalesce(jsonb_typeof(f -> 'required'), 'boolean') <> 'boolean'
       or exists (select from jsonb_object_keys(f) k where k not in ('key', 'label', 'type', 'required', 'options'))
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
    keys := keys || (f ->> 'key');
  end loop;
  return true;
end
$$;
comment on function plaudit.custom_field_definitions_are_valid(jsonb) is 'True when `fields` is a valid list of custom-field definitions: unique keys, known types, options for select fields only.';

create table plaudit.review_forms (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 200),
  verification_mode text not null default 'none'
    check (verification_mode in ('email', 'purchase_proof', 'manual', 'none')),
  custom_fields jsonb not null default '[]'
    check (plaudit.custom_field_definitions_are_valid(custom_fields)),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  -- Lets a review reference (form, organization) together, so it always belongs to its form's tenant.
  unique (id, org_id)
);
comment on table plaudit.review_forms is 'Review forms: how an organization collects reviews, with custom fields, a verification mode and an on/off switch.';

-- Lists show the forms that are not deleted, newest first.
create index review_forms_org_id_created_at on plaudit.review_forms (org_id, created_at desc, id desc)
  where deleted_at is null;

create trigger review_forms_touch_updated_at
  before update on plaudit.review_forms
  for each row execute function plaudit.touch_updated_at();

-- A deleted form stays deleted: nothing can bring it back or change it afterwards.
create function plaudit.review_forms_stay_deleted()
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

create trigger review_forms_stay_deleted
  before update on plaudit.review_forms
  for each row execute function plaudit.review_forms_stay_deleted();

alter table plaudit.review_forms enable row level security;

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

-- No delete privilege: deleting a form sets deleted_at, so its reviews keep their form.
grant select on plaudit.review_forms to plaudit_api;
grant insert (org_id, name, verification_mode, custom_fields, is_active) on plaudit.review_forms to plaudit_api;
grant update (name, verification_mode, custom_fields, is_active, deleted_at) on plaudit.review_forms to plaudit_api;
grant execute on function plaudit.custom_field_definitions_are_valid(jsonb) to plaudit_api;

revoke execute on function plaudit.custom_field_definitions_are_valid(jsonb),
  plaudit.review_forms_stay_deleted() from public;

revoke execute on all functions in schema plaudit from public;
reset role;
