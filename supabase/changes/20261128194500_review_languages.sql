-- Every review's language (ISO 639-1), told from its title and text where it is written (the API
-- at submission, the import reader for imports) and null when the text is too short to tell.
alter table plaudit.reviews add column language text
  constraint reviews_language_check check (language ~ '^[a-z]{2}$');
comment on column plaudit.reviews.language is
  'The language the review is written in (ISO 639-1), told from its text; null when too short to tell.';
alter type plaudit.review_submission add attribute language text;

-- Whether a business has reviews in another language than a reader's: two short walks of this
-- index (below and above the reader's), so that a business written in one language keeps its
-- lists' index walks when a reader asks for their language first.
create index reviews_org_language_idx on plaudit.reviews (org_id, language) where language is not null;
