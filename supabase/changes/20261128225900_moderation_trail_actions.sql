-- The trail's actions of both 0.3 changes that widened them: review bombing holds (hold,
-- burst_detected, release_hold) and summaries (summarize). Each of their change files wrote the
-- list it knew; this one writes the whole list, in whichever order they ran.
alter table plaudit.moderation_trail drop constraint moderation_trail_action_check;
alter table plaudit.moderation_trail add constraint moderation_trail_action_check check (action = any (array[
  'hide', 'unhide', 'verify', 'approve', 'reject', 'reply', 'edit_reply', 'withdraw_reply', 'anonymize', 'import',
  'hide_media', 'unhide_media', 'appeal', 'uphold_appeal', 'reverse_appeal', 'hold', 'burst_detected', 'release_hold',
  'summarize']));
