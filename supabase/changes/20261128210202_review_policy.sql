-- The business's own words on its generated review policy page (/p/:slug/policy): shown after the
-- generated sections, as text (never as markup), on the page and its markdown twin.
alter table plaudit.public_profiles
  add column review_policy text
    constraint public_profiles_review_policy_check check (char_length(review_policy) between 1 and 10000);

comment on column plaudit.public_profiles.review_policy is 'The business''s own sections of its review policy page, as plain text (blank lines part paragraphs); null for none.';
