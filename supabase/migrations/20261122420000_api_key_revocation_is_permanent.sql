-- Revoking an API key is permanent. plaudit_api may update revoked_at and replaced_by (that is
-- how the API revokes and rotates its tenant's keys), so without this an API-role session could
-- un-revoke a key of its own organization (`set revoked_at = null`), move its revocation time,
-- or point a rotated key at another successor. Once set, revoked_at and replaced_by never
-- change again, for every role, the table's owner included: setting them the first time (revoke,
-- then rotate's replaced_by) is all an update may do to them.
create function plaudit.api_keys_guard_revocation()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.revoked_at is not null and new.revoked_at is distinct from old.revoked_at then
    raise exception 'an API key''s revocation is permanent: revoked_at cannot be cleared or changed once set'
      using errcode = 'restrict_violation';
  end if;
  if old.replaced_by is not null and new.replaced_by is distinct from old.replaced_by then
    raise exception 'an API key''s successor is permanent: replaced_by cannot be cleared or changed once set'
      using errcode = 'restrict_violation';
  end if;
  return new;
end
$$;

-- Live keys (the only ones plaudit.authenticate updates, for last_used_at) skip the trigger.
create trigger api_keys_guard_revocation
  before update on plaudit.api_keys
  for each row
  when (old.revoked_at is not null or old.replaced_by is not null)
  execute function plaudit.api_keys_guard_revocation();

revoke execute on function plaudit.api_keys_guard_revocation() from public;
