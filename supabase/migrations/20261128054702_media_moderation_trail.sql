-- Hiding and showing a review's photo or video is moderation too: the trail takes its entries.
set role plaudit_owner;

alter table plaudit.moderation_trail drop constraint moderation_trail_action_check;
alter table plaudit.moderation_trail add constraint moderation_trail_action_check
  check (action in ('hide', 'unhide', 'verify', 'approve', 'reject', 'reply', 'edit_reply', 'withdraw_reply',
                    'anonymize', 'import', 'hide_media', 'unhide_media'));

revoke execute on all functions in schema plaudit from public;
reset role;
