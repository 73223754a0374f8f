-- What the database linter's rules (Supabase's splinter, 08-database-lint.test.sql) found:
-- - the public projection ran with its owner's rights, so plaudit_public could read every
--   organization's visible reviews straight from it, profiles switched off included. It now runs
--   with the rights of whoever reads it, and only the public SECURITY DEFINER functions (which
--   check that a profile is enabled) read it;
-- - foreign keys without an index starting with their columns: deleting or re-keying the
--   referenced row scanned the referencing table.
set role plaudit_owner;

alter view plaudit.public_reviews set (security_invoker = true);
revoke select on plaudit.public_reviews from plaudit_public;

create index api_keys_replaced_by on plaudit.api_keys (replaced_by) where replaced_by is not null;
create index email_suppressions_request_id on plaudit.email_suppressions (request_id) where request_id is not null;
create index exports_created_by_key_id on plaudit.exports (created_by_key_id) where created_by_key_id is not null;
create index invitations_invited_by_key_id on plaudit.invitations (invited_by_key_id) where invited_by_key_id is not null;
create index moderation_trail_review_id on plaudit.moderation_trail (review_id);
create index review_request_events_request_id on plaudit.review_request_events (request_id);
create index review_requests_review_id on plaudit.review_requests (review_id) where review_id is not null;
create index reviews_verification_key_id on plaudit.reviews (verification_key_id) where verification_key_id is not null;
create index reviews_verification_token_id on plaudit.reviews (verification_token_id) where verification_token_id is not null;

reset role;
