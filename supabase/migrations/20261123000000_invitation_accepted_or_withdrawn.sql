-- An invitation ends once: accepted or withdrawn, never both. Withdrawing sets revoked_at, and
-- without this an accepted invitation (whose revoked_at is still empty) could be marked
-- withdrawn afterwards, by the API role or the owner, leaving a member whose invitation reads as
-- withdrawn. The API's withdrawal route only touches open invitations; this holds for every
-- other writer too.
alter table plaudit.invitations
  add constraint invitations_accepted_or_withdrawn check (accepted_at is null or revoked_at is null);
