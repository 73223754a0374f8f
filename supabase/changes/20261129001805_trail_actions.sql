-- The moderation trail's actions, a table instead of a CHECK constraint that every feature widened
-- in a change of its own (two parallel changes wrote two lists, and a third had to write their
-- union). Each feature's source file in supabase/schemas/ now inserts the actions it writes, next
-- to the code that writes them (CONTRIBUTING.md, "Recipe: a new trail action"): two branches
-- adding actions merge with git alone. Today's actions are filled in here so that the foreign key
-- holds for every entry already written; the sources give each its description right after.
create table plaudit.trail_actions (
  action text primary key check (action ~ '^[a-z][a-z_]*$' and char_length(action) <= 40),
  description text not null check (char_length(description) between 1 and 300)
);
comment on table plaudit.trail_actions is 'The actions a moderation trail entry may name, each inserted by the source file of the feature that writes it.';
alter table plaudit.trail_actions enable row level security;

insert into plaudit.trail_actions (action, description)
select a, 'An action of the moderation trail.'
  from unnest(array[
    'hide', 'unhide', 'verify', 'approve', 'reject', 'reply', 'edit_reply', 'withdraw_reply', 'anonymize', 'import',
    'hide_media', 'unhide_media', 'appeal', 'uphold_appeal', 'reverse_appeal', 'hold', 'burst_detected',
    'release_hold', 'summarize']) a;

alter table plaudit.moderation_trail drop constraint moderation_trail_action_check;
alter table plaudit.moderation_trail add constraint moderation_trail_action_fkey
  foreign key (action) references plaudit.trail_actions (action);
create index moderation_trail_action on plaudit.moderation_trail (action);
