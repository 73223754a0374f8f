-- Erasure and access for a reviewer's address (docs/trust.md). A forgotten reviewer's reviews keep
-- their rating, dates and moderation state but no address, name or answers; the erasure is an entry
-- of the moderation trail (the chain commits to ids, actions, the business's reasons and times, never
-- to a reviewer's data, so forgetting a person never breaks it); the address stays suppressed as a
-- keyed hash only; and each erasure is recorded, by hash, for the business's own accountability.
set role plaudit_owner;

-- A forgotten reviewer's reviews keep no address.
alter table plaudit.reviews alter column reviewer_email drop not null;

-- Finding an address's reviews in one organization (erasure, the access report) walks an index.
create index reviews_org_id_reviewer_email on plaudit.reviews (org_id, lower(reviewer_email))
  where reviewer_email is not null;

-- The erasure is an entry of the trail.
alter table plaudit.moderation_trail drop constraint moderation_trail_action_check;
alter table plaudit.moderation_trail add constraint moderation_trail_action_check check (action in (
  'hide', 'unhide', 'verify', 'approve', 'reject', 'reply', 'edit_reply', 'withdraw_reply', 'anonymize'));

-- Suppressions are matched by a keyed hash of the address (the organization's id and the address
-- in lower case, SHA-256), so that an erased address is suppressed without being kept: its row has
-- the hash and no address. Every other row keeps its address, for the business's list.
alter table plaudit.email_suppressions add column email_key bytea;
update plaudit.email_suppressions
   set email_key = sha256(convert_to(org_id::text || ':' || lower(email), 'UTF8'));
alter table plaudit.email_suppressions alter column email_key set not null;
alter table plaudit.email_suppressions alter column email drop not null;
alter table plaudit.email_suppressions drop constraint email_suppressions_reason_check;
alter table plaudit.email_suppressions add constraint email_suppressions_reason_check
  check (reason in ('unsubscribed', 'bounced', 'complained', 'manual', 'erased'));
alter table plaudit.email_suppressions add constraint email_suppressions_erased_has_no_address
  check ((reason = 'erased') = (email is null));
create unique index email_suppressions_org_id_email_key on plaudit.email_suppressions (org_id, email_key);
-- The hash's index says the same for every row, erased or not.
drop index plaudit.email_suppressions_org_id_email;

create table plaudit.privacy_erasures (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  -- The address as the suppressions key it, never in clear.
  email_key bytea not null check (octet_length(email_key) = 32),
  redact_content boolean not null,
  reviews integer not null check (reviews >= 0),
  review_requests integer not null check (review_requests >= 0),
  media integer not null check (media >= 0),
  actor text not null check (char_length(actor) between 1 and 200),
  created_at timestamptz not null default now()
);
comment on table plaudit.privacy_erasures is 'Each erasure asked for, by the address''s keyed hash: what it removed, who asked and when.';

create index privacy_erasures_org_id_created_at on plaudit.privacy_erasures (org_id, created_at);

alter table plaudit.privacy_erasures enable row level security;

create policy "Tenants can read their own erasures"
  on plaudit.privacy_erasures for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- Written by plaudit.erase_reviewer only.
grant select on plaudit.privacy_erasures to plaudit_api;

revoke execute on all functions in schema plaudit from public;
reset role;
