-- The public-profile setting that publishes Meta's product review feed (CSV), off by default as
-- the Google feed's is.
alter table plaudit.public_profiles add column meta_review_feed boolean not null default false;
comment on column plaudit.public_profiles.meta_review_feed is 'Whether the public Meta product review feed (CSV) of the organization''s product reviews is published.';
