-- Statements of reasons (EU DSA Art. 17): each time a review is hidden, what was restricted, the
-- facts, whether automated means decided, the ground (the business's policy or the law named),
-- where it came from, and the hash of the single-purpose token its appeal link carries. Kept for
-- as long as the review; the reviewer is mailed it when the review has an address.
create table plaudit.review_statements (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  review_id uuid not null references plaudit.reviews (id) on delete cascade,
  restriction text not null default 'hidden' constraint review_statements_restriction_check check (restriction in ('hidden')),
  facts text not null constraint review_statements_facts_check check (char_length(facts) between 1 and 2000),
  automated boolean not null default false,
  ground_type text not null constraint review_statements_ground_type_check check (ground_type in ('policy', 'law')),
  ground text not null constraint review_statements_ground_check check (char_length(ground) between 1 and 500),
  source text not null constraint review_statements_source_check check (source in ('moderation', 'report', 'automatic')),
  report_id uuid references plaudit.review_reports (id) on delete set null,
  actor text not null constraint review_statements_actor_check check (char_length(actor) <= 200),
  appeal_token_hash bytea not null unique constraint review_statements_appeal_token_hash_check check (octet_length(appeal_token_hash) = 32),
  mailed boolean not null default false,
  created_at timestamp with time zone not null default now()
);
comment on table plaudit.review_statements is 'Statements of reasons (EU DSA Art. 17): why a review was hidden, on what ground, whether automatically, and the appeal token''s hash.';
create index review_statements_review_id on plaudit.review_statements (review_id, created_at);
create index review_statements_report_id on plaudit.review_statements (report_id);
-- The organization's statements by time, as the transparency figures count them.
create index review_statements_org_id on plaudit.review_statements (org_id, created_at);
alter table plaudit.review_statements enable row level security;
