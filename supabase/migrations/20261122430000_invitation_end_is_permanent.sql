-- An invitation's end is permanent. plaudit_api may update revoked_at (that is how a tenant
-- withdraws its invitations), so without this an API-role session could reopen a withdrawn
-- invitation of its own organization (`set revoked_at = null`), making its token acceptable
-- again, or move its withdrawal time. Once set, revoked_at and accepted_at never change again,
-- for every role, the table's owner included: setting them the first time (withdrawing, which
-- plaudit.create_invitation also does to an expired invitation it replaces, and accepting
-- through plaudit.accept_invitation) is all an update may do to them.
-- Open invitations (the only ones withdrawing, re-inviting and accepting update) skip the trigger.
create trigger invitations_guard_end
  before update on plaudit.invitations
  for each row
  when (old.revoked_at is not null or old.accepted_at is not null)
  execute function plaudit.refuse_changes_once_set(
    'revoked_at', 'an invitation''s withdrawal is permanent',
    'accepted_at', 'an invitation''s acceptance is permanent');
