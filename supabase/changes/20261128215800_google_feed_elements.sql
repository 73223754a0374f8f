-- Each product review's part of the Google Product Ratings feed, written when the review changes
-- rather than each time the feed is read: the feed's page walks this table's index and
-- concatenates kept text (docs/benchmarks.md, "The Google feed from kept elements"). Internal:
-- written by the reviews' and media's triggers, read by the feed's SECURITY DEFINER page only.
create table plaudit.review_feed_elements (
  review_id uuid primary key references plaudit.reviews (id) on delete cascade,
  org_id uuid not null references plaudit.organizations (id) on delete cascade,
  product_id uuid not null,
  created_at timestamptz not null,
  -- Whether the feed shows it: the review is public (plaudit.review_is_public).
  published boolean not null,
  -- <review><review_id> … </content>: what comes before the product's page address.
  head text not null,
  -- <reviewer_images> (the visible photos) and <ratings>: between the address and the product.
  middle text not null,
  -- <is_spam>, <collection_method> and the closing tag.
  ending text not null
);
comment on table plaudit.review_feed_elements is
  'Each product review''s Google feed XML, kept in three parts around its product''s (plaudit.google_product_feed_page).';
alter table plaudit.review_feed_elements enable row level security;
-- The feed's order, over what it shows.
create index review_feed_elements_feed_order on plaudit.review_feed_elements (org_id, product_id, created_at, review_id)
  where published;

-- The reviews there are: every product review's element, as the triggers would have written it.
insert into plaudit.review_feed_elements
select (plaudit.review_feed_element(r)).* from plaudit.reviews r where r.product_id is not null;
