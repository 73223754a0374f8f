-- Questions and answers about a product or the business (docs/questions.md): shoppers ask, the
-- business and verified buyers answer, moderation hides and unhides (nothing is deleted).

create table plaudit.questions (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations,
  product_id uuid references plaudit.products,
  question text not null check (char_length(question) between 10 and 1000),
  asker_name text not null check (char_length(asker_name) between 1 and 200),
  asker_email text not null check (char_length(asker_email) <= 320 and asker_email ~ '^[^@\s]+@[^@\s]+$'),
  status text not null default 'pending' check (status in ('pending', 'published', 'hidden')),
  confirmation_token_hash bytea not null unique check (octet_length(confirmation_token_hash) = 32),
  confirmation_expires_at timestamptz not null default now() + interval '7 days',
  confirmed_at timestamptz,
  last_answered_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Published or hidden only once the asker confirmed by the e-mailed link.
  constraint questions_confirmed_before_shown check (status = 'pending' or confirmed_at is not null)
);
comment on table plaudit.questions is 'Shoppers'' questions about a product (or the business), shown once the asker confirms by e-mail; never deleted.';
alter table plaudit.questions enable row level security;
create index questions_org_id_created on plaudit.questions (org_id, created_at desc);
create index questions_product_id on plaudit.questions (product_id) where product_id is not null;
create index questions_public_order on plaudit.questions (org_id, product_id, last_answered_at desc nulls last, created_at desc)
  where status = 'published';

create table plaudit.question_answer_tokens (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations,
  question_id uuid not null references plaudit.questions,
  token_hash bytea not null unique check (octet_length(token_hash) = 32),
  author_name text not null check (char_length(author_name) between 1 and 200),
  expires_at timestamptz not null default now() + interval '30 days',
  used_at timestamptz,
  created_at timestamptz not null default now()
);
comment on table plaudit.question_answer_tokens is 'Single-use links that let a verified buyer answer one question: only the SHA-256 of each token is kept.';
alter table plaudit.question_answer_tokens enable row level security;
create index question_answer_tokens_org_id on plaudit.question_answer_tokens (org_id);
create index question_answer_tokens_question_id on plaudit.question_answer_tokens (question_id);

create table plaudit.question_answers (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations,
  question_id uuid not null references plaudit.questions,
  author text not null check (author in ('business', 'verified_buyer')),
  author_name text not null check (char_length(author_name) between 1 and 200),
  content text not null check (char_length(content) between 1 and 5000),
  is_hidden boolean not null default false,
  helpful_count integer not null default 0 check (helpful_count >= 0),
  token_id uuid unique references plaudit.question_answer_tokens,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint question_answers_buyer_token check ((author = 'verified_buyer') = (token_id is not null))
);
comment on table plaudit.question_answers is 'Answers to questions, by the business or by a verified buyer through their link; hidden by moderation, never deleted.';
alter table plaudit.question_answers enable row level security;
create index question_answers_org_id on plaudit.question_answers (org_id);
create index question_answers_question_id on plaudit.question_answers (question_id, created_at);

create table plaudit.answer_votes (
  answer_id uuid not null references plaudit.question_answers,
  org_id uuid not null references plaudit.organizations on delete cascade,
  visitor_hash bytea not null check (octet_length(visitor_hash) = 32),
  created_at timestamptz not null default now(),
  primary key (answer_id, visitor_hash)
);
comment on table plaudit.answer_votes is 'Helpful votes on answers: one per visitor and answer, the visitor kept only as a keyed hash.';
alter table plaudit.answer_votes enable row level security;
create index answer_votes_org_id on plaudit.answer_votes (org_id);

create table plaudit.question_moderation_trail (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations,
  question_id uuid not null references plaudit.questions,
  answer_id uuid references plaudit.question_answers,
  action text not null check (action in ('hide', 'unhide', 'answer')),
  reason text check (char_length(reason) <= 5000),
  actor text not null check (char_length(actor) between 1 and 200),
  created_at timestamptz not null default clock_timestamp()
);
comment on table plaudit.question_moderation_trail is 'The questions'' moderation trail: an append-only entry for each hide, unhide and business answer.';
alter table plaudit.question_moderation_trail enable row level security;
create index question_moderation_trail_org_id on plaudit.question_moderation_trail (org_id, created_at);
create index question_moderation_trail_question_id on plaudit.question_moderation_trail (question_id);
create index question_moderation_trail_answer_id on plaudit.question_moderation_trail (answer_id) where answer_id is not null;

-- Whether a published question about a product is e-mailed to its verified buyers.
alter table plaudit.public_profiles add column ask_buyers boolean not null default true;
comment on column plaudit.public_profiles.ask_buyers is 'Whether a published product question is e-mailed to up to 10 customers whose orders held the product.';

-- An export is of reviews (as before) or of questions with their answers.
alter table plaudit.exports add column kind text not null default 'reviews'
  constraint exports_kind_check check (kind in ('reviews', 'questions'));
comment on column plaudit.exports.kind is 'What the file holds: reviews (the default) or questions with their answers.';
