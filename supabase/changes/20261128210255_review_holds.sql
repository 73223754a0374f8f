-- Review bombing holds and duplicates (docs/compliance.md, "Review bombing and duplicates"): the
-- thresholds per organization, what each submission leaves for the detection (its subject, rating,
-- client and order), the holds the worker opens on a burst, and the reviews held at submission,
-- by a hold or as a duplicate. Nothing here deletes or publishes a review.

-- pg_trgm measures how alike two texts are (the share of their three-letter pieces they have in
-- common); hosted Supabase and embedded PostgreSQL both carry it. Extensions are made by the
-- migrating role, in schema extensions as pgcrypto is.
reset role;
create extension if not exists pg_trgm with schema extensions;
set role plaudit_owner;

create table plaudit.review_hold_settings (
  org_id uuid primary key references plaudit.organizations (id) on delete cascade,
  min_reviews integer not null default 10 constraint review_hold_settings_min_reviews_check check (min_reviews between 2 and 100000),
  min_addresses integer not null default 5 constraint review_hold_settings_min_addresses_check check (min_addresses between 2 and 100000),
  median_factor numeric not null default 5 constraint review_hold_settings_median_factor_check check (median_factor between 1 and 1000),
  min_low_share numeric not null default 0.5 constraint review_hold_settings_min_low_share_check check (min_low_share between 0 and 1),
  updated_at timestamp with time zone not null default now()
);
comment on table plaudit.review_hold_settings is 'An organization''s review-bombing thresholds; no row: the defaults (10 reviews, 5 addresses, 5x the median, half of the hour''s reviews).';
alter table plaudit.review_hold_settings enable row level security;

create table plaudit.review_arrivals (
  review_id uuid primary key references plaudit.reviews (id) on delete cascade,
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  subject text not null constraint review_arrivals_subject_check check (subject ~ '^(business|product:[0-9a-f-]{36}|group:.+)$'),
  rating smallint not null constraint review_arrivals_rating_check check (rating between 1 and 5),
  client_key bytea constraint review_arrivals_client_key_check check (octet_length(client_key) = 32),
  product_id uuid references plaudit.products (id) on delete cascade,
  order_hash text constraint review_arrivals_order_hash_check check (order_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamp with time zone not null,
  sketch bigint[] constraint review_arrivals_sketch_check check (cardinality(sketch) <= 8)
);
comment on table plaudit.review_arrivals is 'What each submitted review leaves for the burst and duplicate checks: its subject, rating, client (a hash, forgotten after 30 days), order and text''s sketch.';
create index review_arrivals_recent on plaudit.review_arrivals (created_at) include (org_id, subject, rating, client_key);
create index review_arrivals_subject on plaudit.review_arrivals (org_id, subject, created_at) where rating <= 2;
create index review_arrivals_order on plaudit.review_arrivals (org_id, order_hash, product_id) where order_hash is not null;
create index review_arrivals_clients_to_forget on plaudit.review_arrivals (created_at) where client_key is not null;
-- The duplicate check's lookup: long texts' sketches (plaudit.text_sketch).
create index review_arrivals_sketch on plaudit.review_arrivals using gin (sketch) where sketch is not null;
create index review_arrivals_product_id on plaudit.review_arrivals (product_id) where product_id is not null;
alter table plaudit.review_arrivals enable row level security;

create table plaudit.review_holds (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  subject text not null constraint review_holds_subject_check check (subject ~ '^(business|product:[0-9a-f-]{36}|group:.+)$'),
  started_at timestamp with time zone not null,
  figures jsonb not null constraint review_holds_figures_check check (jsonb_typeof(figures) = 'object'),
  released_at timestamp with time zone,
  released_by text constraint review_holds_released_by_check check (char_length(released_by) between 1 and 200),
  constraint review_holds_released_check check ((released_at is null) = (released_by is null))
);
comment on table plaudit.review_holds is 'A burst of one- and two-star reviews of one subject found by the worker: new reviews of it are held until a member releases it.';
create unique index review_holds_one_open on plaudit.review_holds (org_id, subject) where released_at is null;
create index review_holds_org_id on plaudit.review_holds (org_id, started_at, id);
alter table plaudit.review_holds enable row level security;

create table plaudit.held_reviews (
  review_id uuid primary key references plaudit.reviews (id) on delete cascade,
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  reason text not null constraint held_reviews_reason_check check (reason in ('burst', 'duplicate_text', 'order_reused')),
  hold_id uuid references plaudit.review_holds (id) on delete cascade,
  duplicate_of uuid references plaudit.reviews (id) on delete cascade,
  similarity real constraint held_reviews_similarity_check check (similarity between 0 and 1),
  created_at timestamp with time zone not null default now(),
  resolved_at timestamp with time zone,
  constraint held_reviews_cause_check check ((reason = 'burst') = (hold_id is not null)
                                             and (reason = 'burst') = (duplicate_of is null))
);
comment on table plaudit.held_reviews is 'Reviews held as pending at submission (a burst''s hold, a duplicate text, a reused order) until a person approves or rejects them.';
create index held_reviews_org_id on plaudit.held_reviews (org_id, created_at);
create index held_reviews_hold_id on plaudit.held_reviews (hold_id) where hold_id is not null;
create index held_reviews_duplicate_of on plaudit.held_reviews (duplicate_of) where duplicate_of is not null;
alter table plaudit.held_reviews enable row level security;



-- The reused-order check finds a review verified by the same order without walking the others.
create index reviews_verification_order_hash on plaudit.reviews (org_id, verification_order_hash)
  where verification_order_hash is not null;

alter table plaudit.moderation_trail drop constraint moderation_trail_action_check;
alter table plaudit.moderation_trail add constraint moderation_trail_action_check check (action = any (array[
  'hide', 'unhide', 'verify', 'approve', 'reject', 'reply', 'edit_reply', 'withdraw_reply', 'anonymize', 'import',
  'hide_media', 'unhide_media', 'appeal', 'uphold_appeal', 'reverse_appeal', 'hold', 'burst_detected', 'release_hold']));
