-- Appeals (EU DSA Art. 20): a reviewer whose review was hidden appeals through the link of its
-- statement of reasons, once per statement; a member of the team upholds the decision or reverses
-- it (which shows the review again). Each step is in the moderation trail.
create table plaudit.review_appeals (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  review_id uuid not null references plaudit.reviews (id) on delete cascade,
  statement_id uuid not null unique references plaudit.review_statements (id) on delete cascade,
  text text not null constraint review_appeals_text_check check (char_length(text) between 1 and 5000),
  status text not null default 'open' constraint review_appeals_status_check check (status in ('open', 'upheld', 'reversed')),
  resolution text constraint review_appeals_resolution_check check (char_length(resolution) between 1 and 2000),
  decided_at timestamp with time zone,
  decided_by text constraint review_appeals_decided_by_check check (char_length(decided_by) <= 200),
  created_at timestamp with time zone not null default now(),
  constraint review_appeals_decided_check check ((status = 'open') = (decided_at is null)
                                                 and (status = 'open') = (resolution is null)
                                                 and (status = 'open') = (decided_by is null))
);
comment on table plaudit.review_appeals is 'Reviewers'' appeals against a hide (EU DSA Art. 20), one per statement of reasons, decided by a member.';
create index review_appeals_org_id on plaudit.review_appeals (org_id, status, created_at, id);
create index review_appeals_review_id on plaudit.review_appeals (review_id);
alter table plaudit.review_appeals enable row level security;

alter table plaudit.moderation_trail drop constraint moderation_trail_action_check;
alter table plaudit.moderation_trail add constraint moderation_trail_action_check check (action = any (array[
  'hide', 'unhide', 'verify', 'approve', 'reject', 'reply', 'edit_reply', 'withdraw_reply', 'anonymize', 'import',
  'hide_media', 'unhide_media', 'appeal', 'uphold_appeal', 'reverse_appeal']));
