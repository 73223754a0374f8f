-- The transparency report counts the hides of the last twelve months by month and reason: one range
-- of this index per organization, however long its trail.
set role plaudit_owner;

create index moderation_trail_org_id_hides on plaudit.moderation_trail (org_id, created_at) where action = 'hide';

revoke execute on all functions in schema plaudit from public;
reset role;
