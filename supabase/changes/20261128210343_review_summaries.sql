-- Summaries of a business's or a product's published reviews that show their evidence
-- (docs/summaries.md): made by the worker, each sentence citing the reviews that support it.
create table plaudit.review_summaries (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  -- A product's summary: the product, or for a group the member it was made from; null for the business.
  product_id uuid references plaudit.products (id) on delete cascade,
  -- A group's summary answers for every product of the group.
  group_key text constraint review_summaries_group_key_check check (char_length(group_key) between 1 and 200),
  language text constraint review_summaries_language_check check (language ~ '^[a-z]{2}$'),
  -- {"review_count","sentences":[{"text","sentiment","review_ids","count"}],"topics":[…]}, as answered.
  body jsonb not null constraint review_summaries_body_check check (jsonb_typeof(body -> 'sentences') = 'array'
                                                                   and jsonb_typeof(body -> 'topics') = 'array'),
  -- Every review of each topic with its stance ({topic: {"ids": […], "sentiments": […]}}): topics count from it.
  evidence jsonb not null default '{}' constraint review_summaries_evidence_check check (jsonb_typeof(evidence) = 'object'),
  -- The published reviews it was made from, less those hidden or erased since.
  input_review_ids uuid[] not null,
  -- How many published reviews the subject had when it was made: it is made again at 10 % more.
  review_count integer not null constraint review_summaries_review_count_check check (review_count >= 0),
  generated_at timestamp with time zone not null default now(),
  constraint review_summaries_group_has_product check (group_key is null or product_id is not null)
);
comment on table plaudit.review_summaries is 'Summaries of a business''s or a product''s published reviews, each sentence citing its reviews; made by the worker.';
create unique index review_summaries_business on plaudit.review_summaries (org_id) where product_id is null;
create unique index review_summaries_product on plaudit.review_summaries (org_id, product_id) where group_key is null and product_id is not null;
create unique index review_summaries_group on plaudit.review_summaries (org_id, group_key) where group_key is not null;
create index review_summaries_product_id on plaudit.review_summaries (product_id);
create index review_summaries_input_review_ids on plaudit.review_summaries using gin (input_review_ids);
alter table plaudit.review_summaries enable row level security;

alter table plaudit.moderation_trail drop constraint moderation_trail_action_check;
alter table plaudit.moderation_trail add constraint moderation_trail_action_check check (action = any (array[
  'hide', 'unhide', 'verify', 'approve', 'reject', 'reply', 'edit_reply', 'withdraw_reply', 'anonymize', 'import',
  'hide_media', 'unhide_media', 'appeal', 'uphold_appeal', 'reverse_appeal', 'summarize']));
