-- The business has one answer per question and edits it in place (plaudit.write_business_answer):
-- each edit is an entry of the questions' trail, `edit_answer`, keeping the text it replaced.
alter table plaudit.question_moderation_trail drop constraint question_moderation_trail_action_check;
alter table plaudit.question_moderation_trail add constraint question_moderation_trail_action_check
  check (action in ('hide', 'unhide', 'answer', 'edit_answer'));
comment on table plaudit.question_moderation_trail is 'The questions'' moderation trail: an append-only entry for each hide, unhide, business answer and edit of it.';
