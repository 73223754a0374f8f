-- Attribute ratings: the public answers of a review's scale and rating fields (fit: "Runs small";
-- quality: 4), kept beside the private custom_fields so that the public projection can show
-- them without reading the form, and counted per business and per product for the summaries.
alter table plaudit.reviews add column attributes jsonb not null default '{}'
  constraint reviews_attributes_check check (jsonb_typeof(attributes) = 'object');
comment on column plaudit.reviews.attributes is
  'The public answers of the review''s scale and rating fields, {key: label or stars}: a part of custom_fields.';

-- Public answers counted per answer, for the business's reviews (product_id null) and each
-- product's, kept by the reviews' statistics triggers as the rating counters are.
-- A surrogate key: a business's own counters have no product, and a primary key takes no null.
create table plaudit.attribute_statistics (
  id bigint generated always as identity primary key,
  org_id uuid not null references plaudit.organizations on delete cascade,
  product_id uuid references plaudit.products on delete cascade,
  key text not null,
  answer text not null,
  count bigint not null default 0,
  updated_at timestamptz not null default now(),
  constraint attribute_statistics_answer_key unique nulls not distinct (org_id, product_id, key, answer)
);
comment on table plaudit.attribute_statistics is
  'Public reviews per answer of a scale or rating field, for the business (product_id null) or a product, kept by the reviews'' triggers.';
alter table plaudit.attribute_statistics enable row level security;
create index attribute_statistics_product_id on plaudit.attribute_statistics (product_id) where product_id is not null;
