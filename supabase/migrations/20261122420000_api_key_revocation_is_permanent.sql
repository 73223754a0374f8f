-- Revoking an API key is permanent. plaudit_api may update revoked_at and replaced_by (that is
-- how the API revokes and rotates its tenant's keys), so without this an API-role session could
-- un-revoke a key of its own organization (`set revoked_at = null`), move its revocation time,
-- or point a rotated key at another successor. Once set, revoked_at and replaced_by never
-- change again, for every role, the table's owner included: setting them the first time (revoke,
-- then rotate's replaced_by) is all an update may do to them.
-- Live keys (the only ones plaudit.authenticate updates, for last_used_at) skip the trigger.
create trigger api_keys_guard_revocation
  before update on plaudit.api_keys
  for each row
  when (old.revoked_at is not null or old.replaced_by is not null)
  execute function plaudit.refuse_changes_once_set(
    'revoked_at', 'an API key''s revocation is permanent',
    'replaced_by', 'an API key''s successor is permanent');
