-- Imports of reviews from other platforms (docs/trust.md): a job per uploaded file, its rows staged
-- as the API read them, applied by the worker in batches (plaudit.run_imports). An imported review
-- keeps a key of where it came from, so that the same file twice imports nothing new; an imported
-- reply is marked, so that neither it nor its review announces itself as new.
set role plaudit_owner;

create table plaudit.imports (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  format text not null check (format in ('plaudit', 'judgeme', 'yotpo', 'okendo', 'loox', 'shopify')),
  dry_run boolean not null,
  status text not null default 'pending' check (status in ('pending', 'processing', 'completed', 'failed')),
  total_rows integer not null check (total_rows >= 0),
  imported integer not null default 0 check (imported >= 0),
  duplicates integer not null default 0 check (duplicates >= 0),
  -- [{"row","message"}]: the rows the API refused, then any the database refused.
  rejected jsonb not null default '[]' check (jsonb_typeof(rejected) = 'array'),
  error text,
  actor text not null check (char_length(actor) between 1 and 200),
  created_at timestamptz not null default now(),
  completed_at timestamptz
);
comment on table plaudit.imports is 'A file of reviews from another platform, imported (or tried, dry_run) in the background.';

create index imports_org_id_created_at on plaudit.imports (org_id, created_at desc, id);
-- The worker's queue: what is left to do.
create index imports_waiting on plaudit.imports (created_at) where status in ('pending', 'processing');

alter table plaudit.imports enable row level security;

create policy "Tenants can read their own imports"
  on plaudit.imports for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

grant select on plaudit.imports to plaudit_api;

-- The rows of a file still to apply, as the API read and checked them; deleted as they are applied.
create table plaudit.import_rows (
  import_id uuid not null references plaudit.imports (id) on delete cascade,
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  row_number integer not null check (row_number >= 2),
  data jsonb not null,
  primary key (import_id, row_number)
);
comment on table plaudit.import_rows is 'The checked rows of an import not applied yet; internal, read by plaudit.run_imports only.';

create index import_rows_org_id on plaudit.import_rows (org_id);
alter table plaudit.import_rows enable row level security;
-- No policy: written by plaudit.create_import and read by plaudit.run_imports only.

-- Where an imported review came from: the platform and its own id of the review, or its content.
alter table plaudit.reviews add column import_key bytea check (octet_length(import_key) = 32);
create unique index reviews_org_id_import_key on plaudit.reviews (org_id, import_key) where import_key is not null;

-- A reply brought with an imported review: written once, by the import, not by the business here.
alter table plaudit.review_replies add column imported boolean not null default false;

-- An import is one entry of the moderation chain, about no review in particular.
alter table plaudit.moderation_trail alter column review_id drop not null;
alter table plaudit.moderation_trail drop constraint moderation_trail_action_check;
alter table plaudit.moderation_trail add constraint moderation_trail_action_check check (action in (
  'hide', 'unhide', 'verify', 'approve', 'reject', 'reply', 'edit_reply', 'withdraw_reply', 'anonymize', 'import'));

revoke execute on all functions in schema plaudit from public;
reset role;
