-- Schema plaudit at HEAD, written by `npm run schema:dump` (pg_dump, made readable); tests/schema/schema-dump.test.ts
-- fails while it is stale. Every object is owned by plaudit_owner and EXECUTE on every function is revoked from
-- PUBLIC: the GRANT lines say who may use what. Tables come from supabase/migrations/ and supabase/changes/; functions,
-- views, trigger bindings, policies and grants from supabase/schemas/. A function is listed here by its signature,
-- with the file that holds its body.

CREATE SCHEMA plaudit;

CREATE DOMAIN plaudit.incentive AS jsonb
	CONSTRAINT incentive_description_is_1_to_500_characters CHECK (((VALUE IS NULL) OR COALESCE(((jsonb_typeof((VALUE -> 'description'::text)) = 'string'::text) AND ((char_length((VALUE ->> 'description'::text)) >= 1) AND (char_length((VALUE ->> 'description'::text)) <= 500))), false)))
	CONSTRAINT incentive_has_only_type_and_description CHECK (
CASE
    WHEN (jsonb_typeof(VALUE) = 'object'::text) THEN (((VALUE - 'type'::text) - 'description'::text) = '{}'::jsonb)
    ELSE NULL::boolean
END)
	CONSTRAINT incentive_is_an_object CHECK ((jsonb_typeof(VALUE) = 'object'::text))
	CONSTRAINT incentive_type_is_known CHECK (((VALUE IS NULL) OR COALESCE(((VALUE ->> 'type'::text) = ANY (ARRAY['discount'::text, 'gift'::text, 'points'::text, 'free_product'::text, 'sweepstake'::text, 'other'::text])), false)));

COMMENT ON DOMAIN plaudit.incentive IS 'An incentive offered for a review: {"type": discount|gift|points|free_product|sweepstake|other, "description": 1 to 500 characters}.';

CREATE TYPE plaudit.review_submission AS (
	form_id uuid,
	rating integer,
	title text,
	content text,
	reviewer_name text,
	reviewer_email text,
	custom_fields jsonb,
	order_id text,
	honeypot boolean,
	product_id uuid,
	product_external_id text,
	language text
);

COMMENT ON TYPE plaudit.review_submission IS 'A review as a reviewer sends it, the input of plaudit.submit_review and plaudit.submit_requested_review.';

-- FUNCTION plaudit.accept_invitation (supabase/schemas/team_invitations.sql)
--   (p_token text, p_name text) RETURNS text

COMMENT ON FUNCTION plaudit.accept_invitation(p_token text, p_name text) IS 'Accepts an invitation: the invitee becomes a member with its role, once; answers the state afterwards.';

-- FUNCTION plaudit.add_attribute_statistics (supabase/schemas/attribute_ratings.sql)
--   (p_deltas jsonb) RETURNS void

COMMENT ON FUNCTION plaudit.add_attribute_statistics(p_deltas jsonb) IS 'Adds signed deltas to the public answers'' counters, in key order.';

-- FUNCTION plaudit.add_product_review_statistics (supabase/schemas/products.sql)
--   (p_deltas jsonb) RETURNS void

COMMENT ON FUNCTION plaudit.add_product_review_statistics(p_deltas jsonb) IS 'Adds signed deltas to products'' public review counters, in product order.';

-- FUNCTION plaudit.add_review_media (supabase/schemas/review_media.sql)
--   (p_review_id uuid, p_token_hash bytea, p_id uuid, p_type text, p_content_type text, p_storage_key text, p_thumbnail_key text, p_url text,
--     p_thumbnail_url text, p_width integer, p_height integer, p_bytes bigint, p_sha256 bytea, OUT refusal text, OUT created boolean, OUT item text) RETURNS record

COMMENT ON FUNCTION plaudit.add_review_media(p_review_id uuid, p_token_hash bytea, p_id uuid, p_type text, p_content_type text, p_storage_key text,
    p_thumbnail_key text, p_url text, p_thumbnail_url text, p_width integer, p_height integer, p_bytes bigint, p_sha256 bytea, OUT refusal text,
    OUT created boolean, OUT item text) IS 'Adds a stored photo or video to a review, up to its limit, once per content; hidden when media are moderated by hand.';

-- FUNCTION plaudit.add_review_statistics (supabase/schemas/review_statistics.sql)
--   (p_deltas jsonb) RETURNS void

COMMENT ON FUNCTION plaudit.add_review_statistics(p_deltas jsonb) IS 'Adds signed deltas to this backend''s slot of the review statistics, one row per organization, in organization order.';

-- FUNCTION plaudit.answer_question_by_token (supabase/schemas/question_answers.sql)
--   (p_rate_bucket text, p_rate_limit integer, p_token text, p_content text) RETURNS TABLE(rate_allowed boolean, rate_remaining integer,
--     rate_reset bigint, outcome text, answer_id uuid)

COMMENT ON FUNCTION plaudit.answer_question_by_token(p_rate_bucket text, p_rate_limit integer, p_token text, p_content text) IS 'A verified buyer''s answer through their single-use link to one question, limited per address.';

-- FUNCTION plaudit.api_key_checksum (supabase/schemas/organizations_members_and_keys.sql)
--   (body text) RETURNS text

COMMENT ON FUNCTION plaudit.api_key_checksum(body text) IS 'The six base62 digits that check an API key''s body, from the first four bytes of its SHA-256.';

-- FUNCTION plaudit.api_key_for_read (supabase/schemas/one_statement_reads.sql)
--   (p_key_hash bytea, p_rate_limit integer) RETURNS TABLE(org_id uuid, scope text, within_limit boolean)

COMMENT ON FUNCTION plaudit.api_key_for_read(p_key_hash bytea, p_rate_limit integer) IS 'A key''s organization and scope, and whether it has requests left this minute, without counting or locking.';

-- FUNCTION plaudit.api_keys_guard_revocation (supabase/schemas/organizations_members_and_keys.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.api_keys_guard_revocation() IS 'An API key''s revocation and successor are permanent, for every role; a revocation still ahead may only be brought forward to now.';

-- FUNCTION plaudit.api_organization (supabase/schemas/one_statement_reads.sql)
--   (p_key_hash bytea, p_org_id uuid, p_rate_limit integer) RETURNS TABLE(key_id uuid, org_id uuid, scope text, prefix text, rate_limit integer,
--     allowed boolean, remaining integer, reset_at bigint, body text)

COMMENT ON FUNCTION plaudit.api_organization(p_key_hash bytea, p_org_id uuid, p_rate_limit integer) IS 'Answers GET /api/v1/organizations/:orgId in one statement.';

-- FUNCTION plaudit.api_review (supabase/schemas/one_statement_reads.sql)
--   (p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_review_id uuid) RETURNS TABLE(key_id uuid, org_id uuid, scope text, prefix text,
--     rate_limit integer, allowed boolean, remaining integer, reset_at bigint, body text)

COMMENT ON FUNCTION plaudit.api_review(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_review_id uuid) IS 'Answers GET /api/v1/organizations/:orgId/reviews/:id in one statement.';

-- FUNCTION plaudit.api_review_first_page (supabase/schemas/one_statement_reads.sql)
--   (p_key_hash bytea, p_org_id uuid, p_rate_limit integer) RETURNS TABLE(key_id uuid, org_id uuid, scope text, prefix text, rate_limit integer,
--     allowed boolean, remaining integer, reset_at bigint, body text)

COMMENT ON FUNCTION plaudit.api_review_first_page(p_key_hash bytea, p_org_id uuid, p_rate_limit integer) IS 'Answers the review list''s first page, 20 newest, in one statement.';

-- FUNCTION plaudit.appeal_closed_message (supabase/schemas/appeals.sql)
--   (p_until timestamp with time zone) RETURNS text

COMMENT ON FUNCTION plaudit.appeal_closed_message(p_until timestamp with time zone) IS 'The refusal of an appeal made after its window, naming the day it ended (UTC).';

-- FUNCTION plaudit.appeal_form (supabase/schemas/appeals.sql)
--   (p_token text) RETURNS TABLE(org_name text, statement_id uuid, ground_type text, ground text, facts text, hidden_at timestamp with time zone,
--     appeal_status text, still_hidden boolean, appeal_until timestamp with time zone, appeal_closed text)

COMMENT ON FUNCTION plaudit.appeal_form(p_token text) IS 'What an appeal link''s form shows: the statement it answers, any appeal made, and until when one may appeal; no row for an unknown token.';

CREATE TABLE plaudit.review_appeals (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    review_id uuid NOT NULL,
    statement_id uuid NOT NULL,
    text text NOT NULL,
    status text DEFAULT 'open'::text NOT NULL,
    resolution text,
    decided_at timestamp with time zone,
    decided_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT review_appeals_decided_by_check CHECK ((char_length(decided_by) <= 200)),
    CONSTRAINT review_appeals_decided_check CHECK ((((status = 'open'::text) = (decided_at IS NULL)) AND ((status = 'open'::text) = (resolution IS NULL)) AND ((status = 'open'::text) = (decided_by IS NULL)))),
    CONSTRAINT review_appeals_resolution_check CHECK (((char_length(resolution) >= 1) AND (char_length(resolution) <= 2000))),
    CONSTRAINT review_appeals_status_check CHECK ((status = ANY (ARRAY['open'::text, 'upheld'::text, 'reversed'::text]))),
    CONSTRAINT review_appeals_text_check CHECK (((char_length(text) >= 1) AND (char_length(text) <= 5000)))
);

COMMENT ON TABLE plaudit.review_appeals IS 'Reviewers'' appeals against a hide (EU DSA Art. 20), one per statement of reasons, decided by a member.';

-- FUNCTION plaudit.appeal_mail_data (supabase/schemas/appeals.sql)
--   (p_appeal plaudit.review_appeals) RETURNS jsonb

COMMENT ON FUNCTION plaudit.appeal_mail_data(p_appeal plaudit.review_appeals) IS 'What the reviewer''s appeal mails say of the appeal and its statement, with the slug of the business''s policy page while it is public.';

CREATE TABLE plaudit.review_statements (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    review_id uuid NOT NULL,
    restriction text DEFAULT 'hidden'::text NOT NULL,
    facts text NOT NULL,
    automated boolean DEFAULT false NOT NULL,
    ground_type text NOT NULL,
    ground text NOT NULL,
    source text NOT NULL,
    report_id uuid,
    actor text NOT NULL,
    appeal_token_hash bytea NOT NULL,
    mailed boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT review_statements_actor_check CHECK ((char_length(actor) <= 200)),
    CONSTRAINT review_statements_appeal_token_hash_check CHECK ((octet_length(appeal_token_hash) = 32)),
    CONSTRAINT review_statements_facts_check CHECK (((char_length(facts) >= 1) AND (char_length(facts) <= 2000))),
    CONSTRAINT review_statements_ground_check CHECK (((char_length(ground) >= 1) AND (char_length(ground) <= 500))),
    CONSTRAINT review_statements_ground_type_check CHECK ((ground_type = ANY (ARRAY['policy'::text, 'law'::text]))),
    CONSTRAINT review_statements_restriction_check CHECK ((restriction = 'hidden'::text)),
    CONSTRAINT review_statements_source_check CHECK ((source = ANY (ARRAY['moderation'::text, 'report'::text, 'automatic'::text])))
);

COMMENT ON TABLE plaudit.review_statements IS 'Statements of reasons (EU DSA Art. 17): why a review was hidden, on what ground, whether automatically, and the appeal token''s hash.';

-- FUNCTION plaudit.appeal_until (supabase/schemas/appeals.sql)
--   (p_statement plaudit.review_statements) RETURNS timestamp with time zone

COMMENT ON FUNCTION plaudit.appeal_until(p_statement plaudit.review_statements) IS 'The last moment a statement''s decision may be appealed: its date plus plaudit.appeal_window().';

-- FUNCTION plaudit.appeal_window (supabase/schemas/appeals.sql)
--   () RETURNS interval

COMMENT ON FUNCTION plaudit.appeal_window() IS 'How long after its statement of reasons a decision may be appealed: six months (DSA Art. 20(1)).';

-- FUNCTION plaudit.append_moderation_entry (supabase/schemas/moderation_trail.sql)
--   (p_org_id uuid, p_review_id uuid, p_action text, p_reason text, p_actor text) RETURNS void

COMMENT ON FUNCTION plaudit.append_moderation_entry(p_org_id uuid, p_review_id uuid, p_action text, p_reason text, p_actor text) IS 'Appends one entry to an organization''s moderation chain, one append at a time per organization.';

-- FUNCTION plaudit.apply_connection_order_events (supabase/schemas/shop_connection_batches.sql)
--   (p_events jsonb, p_link_base text) RETURNS TABLE(event_id bigint, error text)

COMMENT ON FUNCTION plaudit.apply_connection_order_events(p_events jsonb, p_link_base text) IS 'Applies a batch of connection events'' order actions and records their outcomes, each event on its own (a failing one rolls back alone), their requests made together; answers those that failed.';

-- FUNCTION plaudit.apply_connection_order_events_run (supabase/schemas/shop_connection_batches.sql)
--   (p_events jsonb, p_link_base text, p_together boolean) RETURNS jsonb

COMMENT ON FUNCTION plaudit.apply_connection_order_events_run(p_events jsonb, p_link_base text, p_together boolean) IS 'One pass over a batch of connection order events: each event on its own, their requests made together or each with its event; answers those that failed.';

-- FUNCTION plaudit.apply_order_event (supabase/schemas/orders_timeline.sql)
--   (p_connection_id uuid, p_type text, p_occurred_at timestamp with time zone, p_order jsonb, p_link_base text, p_event_id bigint DEFAULT NULL::bigint, p_now timestamp with time zone DEFAULT NULL::timestamp with time zone) RETURNS text

COMMENT ON FUNCTION plaudit.apply_order_event(p_connection_id uuid, p_type text, p_occurred_at timestamp with time zone, p_order jsonb, p_link_base text,
    p_event_id bigint, p_now timestamp with time zone) IS 'One order event of a connection: upserts the order, appends to its timeline and decides its one review request (or why none); answers the order''s status.';

-- FUNCTION plaudit.apply_review_request_event (supabase/schemas/review_request_tracking.sql)
--   (p_request_id uuid, p_type text, p_dedupe_key text DEFAULT NULL::text,
--     p_occurred_at timestamp with time zone DEFAULT NULL::timestamp with time zone, p_data jsonb DEFAULT '{}'::jsonb) RETURNS text

COMMENT ON FUNCTION plaudit.apply_review_request_event(p_request_id uuid, p_type text, p_dedupe_key text, p_occurred_at timestamp with time zone, p_data jsonb) IS 'Applies one event to a review request, once per dedupe key; answers what it did.';

CREATE TABLE plaudit.reviews (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    form_id uuid NOT NULL,
    rating smallint NOT NULL,
    title text,
    content text NOT NULL,
    reviewer_name text NOT NULL,
    reviewer_email text,
    custom_fields jsonb DEFAULT '{}'::jsonb NOT NULL,
    verification_status text NOT NULL,
    is_hidden boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    verification_method text,
    verification_at timestamp with time zone,
    verification_key_id uuid,
    verification_token_id uuid,
    verification_order_hash text,
    verification_reason text,
    search tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, ((COALESCE(title, ''::text) || ' '::text) || content))) STORED NOT NULL,
    product_id uuid,
    source text DEFAULT 'form'::text NOT NULL,
    source_platform text,
    imported_as_verified boolean,
    incentive plaudit.incentive,
    import_key bytea,
    helpful_count integer DEFAULT 0 NOT NULL,
    language text,
    attributes jsonb DEFAULT '{}'::jsonb NOT NULL,
    CONSTRAINT reviews_attributes_check CHECK ((jsonb_typeof(attributes) = 'object'::text)),
    CONSTRAINT reviews_content_check CHECK (((char_length(content) >= 1) AND (char_length(content) <= 5000))),
    CONSTRAINT reviews_custom_fields_check CHECK ((jsonb_typeof(custom_fields) = 'object'::text)),
    CONSTRAINT reviews_helpful_count_check CHECK ((helpful_count >= 0)),
    CONSTRAINT reviews_import_key_check CHECK ((octet_length(import_key) = 32)),
    CONSTRAINT reviews_imported_as_verified_only_for_imports CHECK (((source = 'import'::text) OR (imported_as_verified IS NULL))),
    CONSTRAINT reviews_language_check CHECK ((language ~ '^[a-z]{2}$'::text)),
    CONSTRAINT reviews_rating_check CHECK (((rating >= 1) AND (rating <= 5))),
    CONSTRAINT reviews_reviewer_email_check CHECK (((char_length(reviewer_email) <= 320) AND (reviewer_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'::text))),
    CONSTRAINT reviews_reviewer_name_check CHECK (((char_length(reviewer_name) >= 1) AND (char_length(reviewer_name) <= 200))),
    CONSTRAINT reviews_source_check CHECK ((source = ANY (ARRAY['form'::text, 'invitation'::text, 'import'::text]))),
    CONSTRAINT reviews_source_platform_check CHECK ((source_platform = ANY (ARRAY['judgeme'::text, 'yotpo'::text, 'okendo'::text, 'loox'::text,
        'shopify'::text, 'plaudit'::text]))),
    CONSTRAINT reviews_source_platform_only_for_imports CHECK (((source = 'import'::text) = (source_platform IS NOT NULL))),
    CONSTRAINT reviews_title_check CHECK (((char_length(title) >= 1) AND (char_length(title) <= 200))),
    CONSTRAINT reviews_verification_method_check CHECK ((verification_method = ANY (ARRAY['email'::text, 'purchase_proof'::text, 'manual'::text, 'invitation'::text]))),
    CONSTRAINT reviews_verification_order_hash_check CHECK ((verification_order_hash ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT reviews_verification_reason_check CHECK (((char_length(verification_reason) >= 1) AND (char_length(verification_reason) <= 1000))),
    CONSTRAINT reviews_verification_status_check CHECK ((verification_status = ANY (ARRAY['unverified'::text, 'pending'::text, 'verified'::text, 'rejected'::text])))
);

COMMENT ON TABLE plaudit.reviews IS 'Reviews, written once and never deleted or rewritten: only moderation and verification change them afterwards.';
COMMENT ON COLUMN plaudit.reviews.product_id IS 'The product reviewed, of the review''s own organization; null for a review of the business.';
COMMENT ON COLUMN plaudit.reviews.source IS 'Where the review came from: form (the API or a hosted form), invitation (a review request''s page) or import.';
COMMENT ON COLUMN plaudit.reviews.source_platform IS 'The platform an imported review came from (its import format); null unless imported.';
COMMENT ON COLUMN plaudit.reviews.imported_as_verified IS 'Whether the platform an imported review came from called it verified; null unless imported.';
COMMENT ON COLUMN plaudit.reviews.incentive IS 'What the business offered for this review when it was written (its request''s, else its form''s), or null.';
COMMENT ON COLUMN plaudit.reviews.helpful_count IS 'How many visitors found the review helpful: one vote each (plaudit.review_votes).';
COMMENT ON COLUMN plaudit.reviews.language IS 'The language the review is written in (ISO 639-1), told from its text; null when too short to tell.';
COMMENT ON COLUMN plaudit.reviews.attributes IS 'The public answers of the review''s scale and rating fields, {key: label or stars}: a part of custom_fields.';

-- FUNCTION plaudit.approve_review (supabase/schemas/verification.sql)
--   (p_review_id uuid, p_reason text, p_key_id uuid) RETURNS SETOF plaudit.reviews

COMMENT ON FUNCTION plaudit.approve_review(p_review_id uuid, p_reason text, p_key_id uuid) IS 'Approves a pending review of the caller''s tenant by hand: verified, method manual.';

-- FUNCTION plaudit.ask_question (supabase/schemas/questions.sql)
--   (p_rate_bucket text, p_rate_limit integer, p_slug text, p_product_external_id text, p_question text, p_name text, p_email text,
--     p_link_base text) RETURNS TABLE(rate_allowed boolean, rate_remaining integer, rate_reset bigint, error_code text, error_message text, id uuid)

COMMENT ON FUNCTION plaudit.ask_question(p_rate_bucket text, p_rate_limit integer, p_slug text, p_product_external_id text, p_question text, p_name text,
    p_email text, p_link_base text) IS 'Stores a shopper''s question pending, limited per address, and e-mails its confirmation link; answers the refusal as raised.';

CREATE TABLE plaudit.questions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    product_id uuid,
    question text NOT NULL,
    asker_name text NOT NULL,
    asker_email text,
    status text DEFAULT 'pending'::text NOT NULL,
    confirmation_token_hash bytea NOT NULL,
    confirmation_expires_at timestamp with time zone DEFAULT (now() + '7 days'::interval) NOT NULL,
    confirmed_at timestamp with time zone,
    last_answered_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT questions_asker_email_check CHECK (((char_length(asker_email) <= 320) AND (asker_email ~ '^[^@\s]+@[^@\s]+$'::text))),
    CONSTRAINT questions_asker_name_check CHECK (((char_length(asker_name) >= 1) AND (char_length(asker_name) <= 200))),
    CONSTRAINT questions_confirmation_token_hash_check CHECK ((octet_length(confirmation_token_hash) = 32)),
    CONSTRAINT questions_confirmed_before_shown CHECK (((status = 'pending'::text) OR (confirmed_at IS NOT NULL))),
    CONSTRAINT questions_question_check CHECK (((char_length(question) >= 10) AND (char_length(question) <= 1000))),
    CONSTRAINT questions_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'published'::text, 'hidden'::text])))
);

COMMENT ON TABLE plaudit.questions IS 'Shoppers'' questions about a product (or the business), shown once the asker confirms by e-mail; never deleted.';
COMMENT ON COLUMN plaudit.questions.asker_email IS 'Where the confirmation link was sent; null once the asker''s address was erased (plaudit.erase_reviewer).';

-- FUNCTION plaudit.ask_verified_buyers (supabase/schemas/questions.sql)
--   (q plaudit.questions, p_link_base text) RETURNS integer

COMMENT ON FUNCTION plaudit.ask_verified_buyers(q plaudit.questions, p_link_base text) IS 'E-mails a published product question to up to 10 of its buyers, each with a single-use answer link.';

-- FUNCTION plaudit.attribute_answers (supabase/schemas/attribute_ratings.sql)
--   (p_definitions jsonb, p_answers jsonb) RETURNS jsonb

COMMENT ON FUNCTION plaudit.attribute_answers(p_definitions jsonb, p_answers jsonb) IS 'The answers of a form''s scale and rating fields among a review''s answers: the public part of its custom fields.';

-- FUNCTION plaudit.attribute_deltas (supabase/schemas/attribute_ratings.sql)
--   (p_reviews jsonb) RETURNS jsonb

COMMENT ON FUNCTION plaudit.attribute_deltas(p_reviews jsonb) IS 'The public answers'' counters'' deltas of reviews coming into or leaving public view.';

-- FUNCTION plaudit.attribute_summary (supabase/schemas/attribute_ratings.sql)
--   (p_org_id uuid, p_product_ids uuid[]) RETURNS json

COMMENT ON FUNCTION plaudit.attribute_summary(p_org_id uuid, p_product_ids uuid[]) IS 'The public summary of the answers to scale and rating fields, the business''s or some products'', from the counters.';

-- FUNCTION plaudit.attributes_match (supabase/schemas/attribute_ratings.sql)
--   (p_attributes jsonb, p_filter jsonb) RETURNS boolean

COMMENT ON FUNCTION plaudit.attributes_match(p_attributes jsonb, p_filter jsonb) IS 'Whether a review''s public answers hold every answer a public list filters by.';

-- FUNCTION plaudit.authenticate (supabase/schemas/authentication_and_rate_limits.sql)
--   (p_key_hash bytea, p_default_limit integer) RETURNS TABLE(key_id uuid, org_id uuid, scope text, prefix text, rate_limit integer, allowed boolean,
--     remaining integer, reset_at bigint)

COMMENT ON FUNCTION plaudit.authenticate(p_key_hash bytea, p_default_limit integer) IS 'Authenticates a request by its key''s SHA-256 in one round trip, counting it against the key''s per-minute limit.';

-- FUNCTION plaudit.authenticate_credential (supabase/schemas/members_sign_in.sql)
--   (p_hash bytea, p_org_id uuid, p_default_limit integer) RETURNS TABLE(key_id uuid, org_id uuid, scope text, prefix text, rate_limit integer,
--     allowed boolean, remaining integer, reset_at bigint)

COMMENT ON FUNCTION plaudit.authenticate_credential(p_hash bytea, p_org_id uuid, p_default_limit integer) IS 'Authenticates a key or else a session: plaudit.authenticate''s row, else plaudit.authenticate_session''s.';

-- FUNCTION plaudit.authenticate_session (supabase/schemas/members_sign_in.sql)
--   (p_token_hash bytea, p_org_id uuid, p_default_limit integer) RETURNS TABLE(key_id uuid, org_id uuid, scope text, prefix text, rate_limit integer,
--     allowed boolean, remaining integer, reset_at bigint, session_id uuid, member_id uuid, member_role text, email text)

COMMENT ON FUNCTION plaudit.authenticate_session(p_token_hash bytea, p_org_id uuid, p_default_limit integer) IS 'Authenticates a session for an organization, in plaudit.authenticate''s row with the person and their role.';

-- FUNCTION plaudit.base62_alphabet (supabase/schemas/organizations_members_and_keys.sql)
--   () RETURNS text

COMMENT ON FUNCTION plaudit.base62_alphabet() IS 'The 62 characters of base62, digits then capitals then small letters, in the order key bodies and checksums use.';

-- FUNCTION plaudit.begin_api_read (supabase/schemas/one_statement_reads.sql)
--   (p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_scope text) RETURNS boolean

COMMENT ON FUNCTION plaudit.begin_api_read(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_scope text) IS 'When a key or session may read, enters its tenant as plaudit_api for the transaction and answers true.';

-- FUNCTION plaudit.brand_name (supabase/schemas/public_profiles.sql)
--   (p_org_id uuid) RETURNS text

COMMENT ON FUNCTION plaudit.brand_name(p_org_id uuid) IS 'The name a business shows its customers: its public display name, else its organization''s name.';

-- FUNCTION plaudit.cancel_deliveries_of_disabled_endpoint (supabase/schemas/webhooks.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.cancel_deliveries_of_disabled_endpoint() IS 'Disabling an endpoint cancels its pending deliveries and notes when and why; re-enabling clears that and its failure run.';

CREATE TABLE plaudit.orders (
    org_id uuid NOT NULL,
    order_id text NOT NULL,
    email text,
    purchased_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    connection_id uuid,
    platform_order_id text,
    platform text,
    name text,
    status text,
    locale text,
    country text,
    review_request_id uuid,
    skipped_reason text,
    skipped_at timestamp with time zone,
    CONSTRAINT orders_country_check CHECK ((country ~ '^[A-Z]{2}$'::text)),
    CONSTRAINT orders_email_check CHECK (((char_length(email) <= 320) AND (email ~ '^[^@\s]+@[^@\s]+$'::text))),
    CONSTRAINT orders_locale_check CHECK ((locale ~ '^[a-z]{2}(-[A-Z]{2})?$'::text)),
    CONSTRAINT orders_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200))),
    CONSTRAINT orders_order_id_check CHECK (((char_length(order_id) >= 1) AND (char_length(order_id) <= 200))),
    CONSTRAINT orders_platform_check CHECK ((platform = ANY (ARRAY['shopify'::text, 'woocommerce'::text, 'stripe'::text, 'webhook'::text]))),
    CONSTRAINT orders_platform_order_id_check CHECK (((char_length(platform_order_id) >= 1) AND (char_length(platform_order_id) <= 200))),
    CONSTRAINT orders_skipped_reason_check CHECK ((skipped_reason = ANY (ARRAY['no_email'::text, 'suppressed'::text, 'too_old'::text,
        'automation_off'::text, 'excluded'::text]))),
    CONSTRAINT orders_status_check CHECK ((status = ANY (ARRAY['created'::text, 'paid'::text, 'fulfilled'::text, 'delivered'::text, 'cancelled'::text, 'refunded'::text])))
);

COMMENT ON TABLE plaudit.orders IS 'Orders an organization loads, so that purchase-proof forms can check the order id (and e-mail) a reviewer gives.';

-- FUNCTION plaudit.cancel_order_request (supabase/schemas/orders_timeline.sql)
--   (o plaudit.orders, p_event_id bigint) RETURNS void

COMMENT ON FUNCTION plaudit.cancel_order_request(o plaudit.orders, p_event_id bigint) IS 'Cancels an order''s review request that was not sent yet, withdrawing its e-mail, and emits review_request.canceled.';

-- FUNCTION plaudit.cancel_queued_request_emails (supabase/schemas/review_request_tracking.sql)
--   (p_org_id uuid, p_email text, p_request_id uuid, p_reason text) RETURNS integer

COMMENT ON FUNCTION plaudit.cancel_queued_request_emails(p_org_id uuid, p_email text, p_request_id uuid, p_reason text) IS 'Withdraws the queued review-request e-mails to an address, or of one request; answers how many.';

-- FUNCTION plaudit.canonical_json (supabase/schemas/webhooks.sql)
--   (v jsonb) RETURNS text

COMMENT ON FUNCTION plaudit.canonical_json(v jsonb) IS 'jsonb as compact JSON, byte for byte what JSON.stringify writes, so that a receiver digests what was signed.';

-- FUNCTION plaudit.cdn_change_alters_sitemap (supabase/schemas/cdn_purges.sql)
--   (p_table text, p_op text, p_old jsonb, p_new jsonb) RETURNS boolean

COMMENT ON FUNCTION plaudit.cdn_change_alters_sitemap(p_table text, p_op text, p_old jsonb, p_new jsonb) IS 'Whether a public change adds, removes or moves a page the sitemaps list, so that its purge names the sitemaps too.';

-- FUNCTION plaudit.cdn_purge_on_change (supabase/schemas/cdn_purges.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.cdn_purge_on_change() IS 'Asks for a CDN purge of the changed row''s organization, and of the sitemaps when the change alters what they list.';

-- FUNCTION plaudit.change_verification (supabase/schemas/verification.sql)
--   (p_review_id uuid, p_status text, p_method text, p_reason text, p_key_id uuid, p_order_hash text, p_verb text) RETURNS SETOF plaudit.reviews

COMMENT ON FUNCTION plaudit.change_verification(p_review_id uuid, p_status text, p_method text, p_reason text, p_key_id uuid, p_order_hash text, p_verb text) IS 'Moves a pending review of the caller''s tenant to a verification status, recording provenance and actor.';

-- FUNCTION plaudit.check_custom_field_values (supabase/schemas/review_submission.sql)
--   (p_definitions jsonb, p_values jsonb) RETURNS jsonb

COMMENT ON FUNCTION plaudit.check_custom_field_values(p_definitions jsonb, p_values jsonb) IS 'Validates answers against a form''s custom fields and answers those to keep: the form''s keys only, strings trimmed.';

-- FUNCTION plaudit.check_review_media_upload (supabase/schemas/review_media.sql)
--   (p_review_id uuid, p_token_hash bytea, p_address_bucket text, p_address_limit integer, p_review_limit integer, OUT refusal text, OUT org_id uuid,
--     OUT rate_remaining integer, OUT rate_reset bigint) RETURNS record

COMMENT ON FUNCTION plaudit.check_review_media_upload(p_review_id uuid, p_token_hash bytea, p_address_bucket text, p_address_limit integer,
    p_review_limit integer, OUT refusal text, OUT org_id uuid, OUT rate_remaining integer, OUT rate_reset bigint) IS 'The rate limits, access and count checks before an upload is read and processed; answers the review''s organization.';

-- FUNCTION plaudit.claim_cdn_purges (supabase/schemas/cdn_purges.sql)
--   (p_limit integer DEFAULT 100, p_lease_seconds integer DEFAULT 60, p_org_ids uuid[] DEFAULT NULL::uuid[]) RETURNS TABLE(id uuid, claim_token uuid,
--     org_id uuid, include_sitemap boolean, attempt integer, claimed_lsn pg_lsn)

COMMENT ON FUNCTION plaudit.claim_cdn_purges(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) IS 'Claims up to p_limit due CDN purges under a lease, noting the primary''s WAL position.';

-- FUNCTION plaudit.claim_connection_events (supabase/schemas/shop_connections.sql)
--   (p_limit integer, p_lease_seconds integer, p_org_ids uuid[] DEFAULT NULL::uuid[]) RETURNS TABLE(id bigint, org_id uuid, connection_id uuid,
--     platform text, topic text, payload jsonb, received_at timestamp with time zone, settings jsonb)

COMMENT ON FUNCTION plaudit.claim_connection_events(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) IS 'Claims stored connection events not yet processed, oldest first, with a lease; refuses those that failed 5 times.';

-- FUNCTION plaudit.claim_emails (supabase/schemas/email_delivery.sql)
--   (p_limit integer DEFAULT 20, p_lease_seconds integer DEFAULT 60, p_org_ids uuid[] DEFAULT NULL::uuid[]) RETURNS TABLE(id uuid, claim_token uuid,
--     org_id uuid, org_name text, to_address text, template text, locale text, data jsonb, idempotency_key text, attempt integer)

COMMENT ON FUNCTION plaudit.claim_emails(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) IS 'Claims up to p_limit due e-mails under a lease, with their data and brand, failing those withdrawn meanwhile.';

-- FUNCTION plaudit.claim_shopify_write_backs (supabase/schemas/shopify_write_back.sql)
--   (p_limit integer DEFAULT 50, p_lease_seconds integer DEFAULT 60, p_org_ids uuid[] DEFAULT NULL::uuid[]) RETURNS TABLE(id uuid, claim_token uuid,
--     org_id uuid, connection_id uuid, shop_domain text, access_token text, external_id text, public_count bigint, rating_sum bigint, attempt integer)

COMMENT ON FUNCTION plaudit.claim_shopify_write_backs(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) IS 'Claims up to p_limit due Shopify write-backs under a lease, with the shop, its token and the product''s current figures.';

-- FUNCTION plaudit.claim_webhook_deliveries (supabase/schemas/webhook_delivery.sql)
--   (p_limit integer DEFAULT 50, p_lease_seconds integer DEFAULT 60, p_per_endpoint integer DEFAULT 4, p_org_ids uuid[] DEFAULT NULL::uuid[],
--     p_per_org integer DEFAULT NULL::integer, p_org_busy jsonb DEFAULT NULL::jsonb, p_suspect_room integer DEFAULT NULL::integer) RETURNS TABLE(id uuid,
--     claim_token uuid, org_id uuid, endpoint_id uuid, url text, event_type text, message_id text, payload text, attempt integer, schedule_step integer,
--     is_test boolean, webhook_timestamp bigint, signature_hex text, previous_signature_hex text, webhook_signature text, suspect boolean)

COMMENT ON FUNCTION plaudit.claim_webhook_deliveries(p_limit integer, p_lease_seconds integer, p_per_endpoint integer, p_org_ids uuid[], p_per_org integer,
    p_org_busy jsonb, p_suspect_room integer) IS 'Claims due deliveries, signed and leased, so no endpoint or organization fills a batch.';

-- FUNCTION plaudit.confirm_question (supabase/schemas/questions.sql)
--   (p_token text, p_link_base text) RETURNS TABLE(outcome text, question_id uuid)

COMMENT ON FUNCTION plaudit.confirm_question(p_token text, p_link_base text) IS 'Spends a question''s confirmation link: publishes it, with question.created, and asks its verified buyers.';

-- FUNCTION plaudit.connection_recent_events (supabase/schemas/shop_connections.sql)
--   (p_connection_id uuid) RETURNS jsonb

COMMENT ON FUNCTION plaudit.connection_recent_events(p_connection_id uuid) IS 'The last 20 events of a connection of the tenant, newest first, with their outcome.';

CREATE TABLE plaudit.connections (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    platform text NOT NULL,
    name text NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    settings jsonb DEFAULT '{}'::jsonb NOT NULL,
    secret text,
    access_token text,
    last_event_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT connections_access_token_check CHECK (((char_length(access_token) >= 1) AND (char_length(access_token) <= 500))),
    CONSTRAINT connections_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200))),
    CONSTRAINT connections_platform_check CHECK ((platform = ANY (ARRAY['shopify'::text, 'woocommerce'::text, 'stripe'::text, 'webhook'::text]))),
    CONSTRAINT connections_secret_check CHECK (((char_length(secret) >= 1) AND (char_length(secret) <= 500))),
    CONSTRAINT connections_settings_check CHECK (((jsonb_typeof(settings) = 'object'::text) AND (octet_length((settings)::text) <= 4096))),
    CONSTRAINT connections_status_check CHECK ((status = ANY (ARRAY['active'::text, 'disconnected'::text])))
);

COMMENT ON TABLE plaudit.connections IS 'Shop connections: where an organization''s orders happen (Shopify, WooCommerce, Stripe, any shop through signed webhooks), with the secret that signs their events.';

-- FUNCTION plaudit.connection_signature_holds (supabase/schemas/shop_connections.sql)
--   (c plaudit.connections, p_signed bytea, p_signatures bytea[]) RETURNS boolean

COMMENT ON FUNCTION plaudit.connection_signature_holds(c plaudit.connections, p_signed bytea, p_signatures bytea[]) IS 'Whether one of the given MACs is the HMAC-SHA256 of the signed bytes under the connection''s key.';

-- FUNCTION plaudit.connection_signing_key (supabase/schemas/shop_connections.sql)
--   (c plaudit.connections) RETURNS bytea

COMMENT ON FUNCTION plaudit.connection_signing_key(c plaudit.connections) IS 'The HMAC key a connection''s platform signs its events with, from its secret.';

-- FUNCTION plaudit.connection_tenant (supabase/schemas/shop_connections.sql)
--   (p_connection_id uuid) RETURNS uuid

COMMENT ON FUNCTION plaudit.connection_tenant(p_connection_id uuid) IS 'Makes a connection''s organization the transaction''s tenant, and the connection its actor; answers the tenant.';

-- FUNCTION plaudit.create_connection (supabase/schemas/shop_connections.sql)
--   (p_platform text, p_name text, p_settings jsonb, p_secret text, p_access_token text) RETURNS TABLE(id uuid, signing_secret text)

COMMENT ON FUNCTION plaudit.create_connection(p_platform text, p_name text, p_settings jsonb, p_secret text, p_access_token text) IS 'Creates a connection of the transaction''s tenant; answers its id and, for a webhook connection, the secret the service made, once.';

CREATE TABLE plaudit.imports (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    format text NOT NULL,
    dry_run boolean NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    total_rows integer NOT NULL,
    imported integer DEFAULT 0 NOT NULL,
    duplicates integer DEFAULT 0 NOT NULL,
    rejected jsonb DEFAULT '[]'::jsonb NOT NULL,
    error text,
    actor text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    completed_at timestamp with time zone,
    rejected_count integer DEFAULT 0 NOT NULL,
    progressed_at timestamp with time zone,
    CONSTRAINT imports_actor_check CHECK (((char_length(actor) >= 1) AND (char_length(actor) <= 200))),
    CONSTRAINT imports_duplicates_check CHECK ((duplicates >= 0)),
    CONSTRAINT imports_format_check CHECK ((format = ANY (ARRAY['plaudit'::text, 'judgeme'::text, 'yotpo'::text, 'okendo'::text, 'loox'::text, 'shopify'::text]))),
    CONSTRAINT imports_imported_check CHECK ((imported >= 0)),
    CONSTRAINT imports_rejected_check CHECK ((jsonb_typeof(rejected) = 'array'::text)),
    CONSTRAINT imports_rejected_count_check CHECK ((rejected_count >= 0)),
    CONSTRAINT imports_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text, 'completed'::text, 'failed'::text]))),
    CONSTRAINT imports_total_rows_check CHECK ((total_rows >= 0))
);

COMMENT ON TABLE plaudit.imports IS 'A file of reviews from another platform, imported (or tried, dry_run) in the background.';
COMMENT ON COLUMN plaudit.imports.rejected IS 'The first hundred refused rows, [{"row","message"}], in file order.';
COMMENT ON COLUMN plaudit.imports.rejected_count IS 'Every refused row, those kept in rejected and the rest.';
COMMENT ON COLUMN plaudit.imports.progressed_at IS 'When the worker last applied a batch of it: the next batch goes to the import served longest ago.';

-- FUNCTION plaudit.create_import (supabase/schemas/imports.sql)
--   (p_format text, p_dry_run boolean, p_total_rows integer, p_rows jsonb, p_rejected jsonb, p_actor text,
--     p_rejected_count integer DEFAULT NULL::integer, p_duplicates integer DEFAULT 0) RETURNS SETOF plaudit.imports

COMMENT ON FUNCTION plaudit.create_import(p_format text, p_dry_run boolean, p_total_rows integer, p_rows jsonb, p_rejected jsonb, p_actor text,
    p_rejected_count integer, p_duplicates integer) IS 'Records an import job of the transaction''s tenant with its checked rows, for the worker to apply.';

-- FUNCTION plaudit.create_invitation (supabase/schemas/organizations_members_and_keys.sql)
--   (p_org_id uuid, p_email text, p_role text, p_invited_by_key_id uuid DEFAULT NULL::uuid) RETURNS TABLE(id uuid, email text, role text,
--     expires_at timestamp with time zone, created_at timestamp with time zone, token text)

COMMENT ON FUNCTION plaudit.create_invitation(p_org_id uuid, p_email text, p_role text, p_invited_by_key_id uuid) IS 'Invites an address to the organization and answers the invitation with its one-time token.';

-- FUNCTION plaudit.create_review_requests (supabase/schemas/review_requests.sql)
--   (p_rows jsonb, p_link_base text) RETURNS TABLE(idx integer, id uuid, error text)

COMMENT ON FUNCTION plaudit.create_review_requests(p_rows jsonb, p_link_base text) IS 'Creates up to 1,000 review requests of the transaction''s tenant; answers each row''s id or why it was refused.';

-- FUNCTION plaudit.create_test_delivery (supabase/schemas/webhooks.sql)
--   (p_endpoint_id uuid, p_event_type text, p_data jsonb) RETURNS TABLE(id uuid, claim_token uuid, org_id uuid, endpoint_id uuid, url text,
--     event_type text, message_id text, payload text, attempt integer, schedule_step integer, is_test boolean, webhook_timestamp bigint, signature_hex text,
--     previous_signature_hex text, webhook_signature text)

COMMENT ON FUNCTION plaudit.create_test_delivery(p_endpoint_id uuid, p_event_type text, p_data jsonb) IS 'Creates a one-shot test delivery to an endpoint of the transaction''s tenant, claimed for the caller and signed.';

-- FUNCTION plaudit.create_webhook_endpoint (supabase/schemas/webhooks.sql)
--   (p_org_id uuid, p_url text, p_events text[], p_description text DEFAULT NULL::text) RETURNS TABLE(id uuid, url text, description text,
--     events text[], enabled boolean, secret text, created_at timestamp with time zone)

COMMENT ON FUNCTION plaudit.create_webhook_endpoint(p_org_id uuid, p_url text, p_events text[], p_description text) IS 'Registers a webhook endpoint and answers its signing secret, once.';

-- FUNCTION plaudit.csv_cell (supabase/schemas/exports.sql)
--   (v text) RETURNS text

COMMENT ON FUNCTION plaudit.csv_cell(v text) IS 'One CSV cell: guarded as csv_guard does, then quoted as RFC 4180 asks; null is an empty cell.';

-- FUNCTION plaudit.csv_guard (supabase/schemas/exports.sql)
--   (v text) RETURNS text

COMMENT ON FUNCTION plaudit.csv_guard(v text) IS 'A CSV cell''s text, led by an apostrophe when a spreadsheet would read it as a formula.';

-- FUNCTION plaudit.current_actor (supabase/schemas/moderation_trail.sql)
--   () RETURNS text

COMMENT ON FUNCTION plaudit.current_actor() IS 'Who made the change: the transaction''s setting plaudit.actor, else the database user.';

-- FUNCTION plaudit.current_org_id (supabase/schemas/tenancy.sql)
--   () RETURNS uuid

COMMENT ON FUNCTION plaudit.current_org_id() IS 'The tenant of the current transaction, from its setting plaudit.org_id; null when none is set.';

-- FUNCTION plaudit.current_replica_read_floor (supabase/schemas/cdn_purges.sql)
--   () RETURNS pg_lsn

COMMENT ON FUNCTION plaudit.current_replica_read_floor() IS 'The WAL position read replicas must have replayed to serve reads, or null.';

-- FUNCTION plaudit.custom_field_definitions_are_valid (supabase/schemas/review_forms.sql)
--   (fields jsonb) RETURNS boolean

COMMENT ON FUNCTION plaudit.custom_field_definitions_are_valid(fields jsonb) IS 'True when `fields` is a valid list of custom-field definitions: unique keys, known types, options for select fields only, 2–7 labels for scale fields only.';

-- FUNCTION plaudit.decide_appeal (supabase/schemas/appeals.sql)
--   (p_id uuid, p_status text, p_resolution text, p_actor text) RETURNS uuid

COMMENT ON FUNCTION plaudit.decide_appeal(p_id uuid, p_status text, p_resolution text, p_actor text) IS 'A member upholds or reverses an open appeal of the caller''s tenant (reversing shows the review again), in the trail and mailed to the reviewer.';

-- FUNCTION plaudit.delete_connection (supabase/schemas/shop_connections.sql)
--   (p_id uuid) RETURNS boolean

COMMENT ON FUNCTION plaudit.delete_connection(p_id uuid) IS 'Deletes a connection of the transaction''s tenant: it forgets its secrets and takes no more events; what it brought stays.';

CREATE TABLE plaudit.review_holds (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    subject text NOT NULL,
    started_at timestamp with time zone NOT NULL,
    figures jsonb NOT NULL,
    released_at timestamp with time zone,
    released_by text,
    CONSTRAINT review_holds_figures_check CHECK ((jsonb_typeof(figures) = 'object'::text)),
    CONSTRAINT review_holds_released_by_check CHECK (((char_length(released_by) >= 1) AND (char_length(released_by) <= 200))),
    CONSTRAINT review_holds_released_check CHECK (((released_at IS NULL) = (released_by IS NULL))),
    CONSTRAINT review_holds_subject_check CHECK ((subject ~ '^(business|product:[0-9a-f-]{36}|group:.+)$'::text))
);

COMMENT ON TABLE plaudit.review_holds IS 'A burst of one- and two-star reviews of one subject found by the worker: new reviews of it are held until a member releases it.';

-- FUNCTION plaudit.detect_review_bursts (supabase/schemas/review_holds.sql)
--   (p_now timestamp with time zone, p_org_ids uuid[] DEFAULT NULL::uuid[]) RETURNS SETOF plaudit.review_holds

COMMENT ON FUNCTION plaudit.detect_review_bursts(p_now timestamp with time zone, p_org_ids uuid[]) IS 'The worker''s burst detection for the hour before the given time: opens a hold per burst, in the trail, emitted and mailed to the admins; answers the new holds.';

-- FUNCTION plaudit.drop_refunded_request_products (supabase/schemas/orders_timeline.sql)
--   (o plaudit.orders, p_event_id bigint) RETURNS void

COMMENT ON FUNCTION plaudit.drop_refunded_request_products(o plaudit.orders, p_event_id bigint) IS 'Drops an order''s refunded products from its review request not sent yet.';

-- FUNCTION plaudit.dsa_transparency (supabase/schemas/dsa_transparency.sql)
--   (p_year integer) RETURNS json

COMMENT ON FUNCTION plaudit.dsa_transparency(p_year integer) IS 'The calling tenant''s DSA transparency figures for a calendar year (UTC): dsa_transparency_of its organization.';

-- FUNCTION plaudit.dsa_transparency_of (supabase/schemas/dsa_transparency.sql)
--   (p_org_id uuid, p_year integer) RETURNS json

COMMENT ON FUNCTION plaudit.dsa_transparency_of(p_org_id uuid, p_year integer) IS 'An organization''s DSA transparency figures for a calendar year (UTC): notices by kind and decision with the median time to decide, own-initiative restrictions by ground and automation, appeals by outcome.';

-- FUNCTION plaudit.dsa_version (supabase/schemas/dsa_transparency.sql)
--   (p_org_id uuid) RETURNS text

COMMENT ON FUNCTION plaudit.dsa_version(p_org_id uuid) IS 'A version of an organization''s DSA figures: it moves with every notice, statement of reasons and appeal received or decided.';

-- FUNCTION plaudit.dsa_years (supabase/schemas/dsa_transparency.sql)
--   (p_org_id uuid) RETURNS integer[]

COMMENT ON FUNCTION plaudit.dsa_years(p_org_id uuid) IS 'The calendar years (UTC) with a notice, statement of reasons or appeal of an organization, newest first.';

-- FUNCTION plaudit.email_key (supabase/schemas/review_request_tracking.sql)
--   (p_org_id uuid, p_email text) RETURNS bytea

COMMENT ON FUNCTION plaudit.email_key(p_org_id uuid, p_email text) IS 'An address as the suppression list matches it: the HMAC-SHA256, with the database''s email_keys secret, of the SHA-256 of the organization''s id and the address in lower case.';

-- FUNCTION plaudit.email_outbox_track_review_requests (supabase/schemas/review_request_tracking.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.email_outbox_track_review_requests() IS 'A review-request e-mail that is sent or fails records the matching event on its request.';

-- FUNCTION plaudit.email_suppressions_cancel_queued (supabase/schemas/review_request_tracking.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.email_suppressions_cancel_queued() IS 'An address added to the suppression list has its queued review-request e-mails withdrawn.';

-- FUNCTION plaudit.email_suppressions_set_key (supabase/schemas/review_request_tracking.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.email_suppressions_set_key() IS 'A suppressed address is keyed by plaudit.email_key, whoever writes it.';

-- FUNCTION plaudit.emit_event (supabase/schemas/outboxes.sql)
--   (p_org_id uuid, p_type text, p_data jsonb) RETURNS uuid

COMMENT ON FUNCTION plaudit.emit_event(p_org_id uuid, p_type text, p_data jsonb) IS 'Writes an event to the outbox in the caller''s transaction and wakes the worker; answers the event''s id.';

-- FUNCTION plaudit.end_session (supabase/schemas/members_sign_in.sql)
--   (p_token_hash bytea, p_everywhere boolean) RETURNS integer

COMMENT ON FUNCTION plaudit.end_session(p_token_hash bytea, p_everywhere boolean) IS 'Signs out: this session, or every session of its person; answers how many ended.';

-- FUNCTION plaudit.enqueue_email (supabase/schemas/outboxes.sql)
--   (p_org_id uuid, p_to text, p_template text, p_data jsonb, p_locale text DEFAULT 'en'::text, p_idempotency_key text DEFAULT NULL::text) RETURNS uuid

COMMENT ON FUNCTION plaudit.enqueue_email(p_org_id uuid, p_to text, p_template text, p_data jsonb, p_locale text, p_idempotency_key text) IS 'Queues an e-mail, once per idempotency key, and wakes the worker; answers its id, or null for a repeated key.';

-- FUNCTION plaudit.erase_connection_customers (supabase/schemas/shop_connections.sql)
--   (p_connection_id uuid, p_email text) RETURNS jsonb

COMMENT ON FUNCTION plaudit.erase_connection_customers(p_connection_id uuid, p_email text) IS 'Erases a customer''s address as POST …/privacy/erasures does, or (no address) every address that came through the connection; answers the media files to delete.';

-- FUNCTION plaudit.erase_reviewer (supabase/schemas/privacy.sql)
--   (p_email text, p_redact_content boolean, p_actor text) RETURNS json

COMMENT ON FUNCTION plaudit.erase_reviewer(p_email text, p_redact_content boolean, p_actor text) IS 'Forgets an address in the transaction''s tenant: its reviews anonymized (text removed on request), its requests, e-mails and copies gone, the address suppressed as a hash; answers the counts.';

-- FUNCTION plaudit.erasure_notice (supabase/schemas/reviews.sql)
--   () RETURNS text

COMMENT ON FUNCTION plaudit.erasure_notice() IS 'The text an erased review''s title and content are replaced with when the reviewer asked for it.';

-- FUNCTION plaudit.export_csv_custom_cells (supabase/schemas/exports.sql)
--   (p_values jsonb, p_keys text[]) RETURNS text

COMMENT ON FUNCTION plaudit.export_csv_custom_cells(p_values jsonb, p_keys text[]) IS 'A review''s custom-field cells for a CSV row, each led by its comma, an unanswered field empty.';

-- FUNCTION plaudit.export_csv_header (supabase/schemas/exports.sql)
--   (p_custom_field_keys text[]) RETURNS text

COMMENT ON FUNCTION plaudit.export_csv_header(p_custom_field_keys text[]) IS 'The header line of a CSV export: the review''s columns, its product''s, its source, its media''s URLs, its reply and when it was written, then one `custom_fields.<key>` column per custom field.';

-- FUNCTION plaudit.export_custom_field_keys (supabase/schemas/exports.sql)
--   (p_org_id uuid, p_form_id uuid) RETURNS text[]

COMMENT ON FUNCTION plaudit.export_custom_field_keys(p_org_id uuid, p_form_id uuid) IS 'The custom-field keys a CSV export has columns for: the exported form''s, or all forms'', each once.';

CREATE TABLE plaudit.exports (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    format text NOT NULL,
    filters jsonb DEFAULT '{}'::jsonb NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    row_count integer DEFAULT 0 NOT NULL,
    chunk_count integer DEFAULT 0 NOT NULL,
    byte_size bigint DEFAULT 0 NOT NULL,
    error text,
    cursor_created_at timestamp with time zone,
    cursor_id uuid,
    created_by_key_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    started_at timestamp with time zone,
    completed_at timestamp with time zone,
    expires_at timestamp with time zone,
    moderation_chain_entries bigint,
    moderation_chain_head bytea,
    custom_field_keys text[] DEFAULT '{}'::text[] NOT NULL,
    public_url text,
    kind text DEFAULT 'reviews'::text NOT NULL,
    CONSTRAINT exports_format_check CHECK ((format = ANY (ARRAY['csv'::text, 'json'::text]))),
    CONSTRAINT exports_kind_check CHECK ((kind = ANY (ARRAY['reviews'::text, 'questions'::text]))),
    CONSTRAINT exports_public_url_check CHECK (((public_url ~ '^https?://'::text) AND (char_length(public_url) <= 2048))),
    CONSTRAINT exports_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text, 'completed'::text, 'failed'::text])))
);

COMMENT ON TABLE plaudit.exports IS 'Export jobs: an organization''s reviews as a CSV or JSON file, generated inside the database in chunks.';
COMMENT ON COLUMN plaudit.exports.kind IS 'What the file holds: reviews (the default) or questions with their answers.';

-- FUNCTION plaudit.export_download_url (supabase/schemas/exports.sql)
--   (e plaudit.exports) RETURNS text

COMMENT ON FUNCTION plaudit.export_download_url(e plaudit.exports) IS 'The absolute download URL of an export''s file.';

-- FUNCTION plaudit.export_page (supabase/schemas/exports.sql)
--   (p_org_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_after_ts timestamp with time zone, p_after_id uuid,
--     p_rating integer, p_form_id uuid, p_with_hidden boolean, p_rows integer) RETURNS SETOF plaudit.reviews

COMMENT ON FUNCTION plaudit.export_page(p_org_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_after_ts timestamp with time zone,
    p_after_id uuid, p_rating integer, p_form_id uuid, p_with_hidden boolean, p_rows integer) IS 'The next reviews an export writes.';

-- FUNCTION plaudit.export_question_chunk (supabase/schemas/questions.sql)
--   (p_org_id uuid, p_format text, p_from timestamp with time zone, p_to timestamp with time zone, p_after_ts timestamp with time zone, p_after_id uuid,
--     p_with_hidden boolean, p_rows integer) RETURNS TABLE(body text, row_count integer, last_created_at timestamp with time zone, last_id uuid)

COMMENT ON FUNCTION plaudit.export_question_chunk(p_org_id uuid, p_format text, p_from timestamp with time zone, p_to timestamp with time zone,
    p_after_ts timestamp with time zone, p_after_id uuid, p_with_hidden boolean, p_rows integer) IS 'The next chunk of a questions export after its cursor: its body, row count and last question.';

-- FUNCTION plaudit.export_question_csv_header (supabase/schemas/questions.sql)
--   () RETURNS text

COMMENT ON FUNCTION plaudit.export_question_csv_header() IS 'The header line of a CSV export of questions.';

-- FUNCTION plaudit.export_step (supabase/schemas/exports.sql)
--   (p_export_id uuid, p_rows integer DEFAULT 10000) RETURNS boolean

COMMENT ON FUNCTION plaudit.export_step(p_export_id uuid, p_rows integer) IS 'Renders the next chunk of one export and answers true when the file is complete.';

-- FUNCTION plaudit.exports_note_chain_head (supabase/schemas/exports.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.exports_note_chain_head() IS 'Every export records the moderation chain head as it stood when the export was requested.';

-- FUNCTION plaudit.fan_out_event (supabase/schemas/webhooks.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.fan_out_event() IS 'Every new event gets a delivery for each enabled endpoint of its organization subscribed to its type.';

-- FUNCTION plaudit.finish_connection_event (supabase/schemas/shop_connections.sql)
--   (p_event_id bigint, p_outcome text) RETURNS void

COMMENT ON FUNCTION plaudit.finish_connection_event(p_event_id bigint, p_outcome text) IS 'Records the outcome of a processed connection event.';

-- FUNCTION plaudit.form_subjects_under_check (supabase/schemas/review_holds.sql)
--   (p_form_id uuid, p_external_ids text[]) RETURNS boolean

COMMENT ON FUNCTION plaudit.form_subjects_under_check(p_form_id uuid, p_external_ids text[]) IS 'Whether a review of one of these subjects (product external ids, null for the business) written on this form would be held for a check now.';

-- FUNCTION plaudit.google_product_feed_page (supabase/schemas/google_product_feed.sql)
--   (p_slug text, p_product_page text, p_after_product uuid, p_after_created_at text, p_after_id uuid, p_limit integer) RETURNS TABLE(xml text,
--     reviews integer, last_product uuid, last_created_at text, last_id uuid)

COMMENT ON FUNCTION plaudit.google_product_feed_page(p_slug text, p_product_page text, p_after_product uuid, p_after_created_at text, p_after_id uuid, p_limit integer) IS 'A page of a slug''s Google Product Ratings feed after a cursor: its <review> elements, and the next cursor.';

-- FUNCTION plaudit.google_product_feed_state (supabase/schemas/google_product_feed.sql)
--   (p_slug text) RETURNS json

COMMENT ON FUNCTION plaudit.google_product_feed_state(p_slug text) IS 'Whether a slug''s Google Product Ratings feed is published, with the business''s name, the feed''s version and when it last changed.';

-- FUNCTION plaudit.gtin_is_valid (supabase/schemas/products.sql)
--   (p_gtin text) RETURNS boolean

COMMENT ON FUNCTION plaudit.gtin_is_valid(p_gtin text) IS 'True when the text is a GTIN of 8, 12, 13 or 14 digits whose check digit is right.';

-- FUNCTION plaudit.has_reviews_in_other_language (supabase/schemas/public_profiles.sql)
--   (p_org_id uuid, p_language text) RETURNS boolean

COMMENT ON FUNCTION plaudit.has_reviews_in_other_language(p_org_id uuid, p_language text) IS 'Whether any review of the business is written in another language than the one given.';

-- FUNCTION plaudit.held_reason_text (supabase/schemas/submission_checks.sql)
--   (p_reason text, p_hold_id uuid, p_duplicate_of uuid, p_similarity real) RETURNS text

COMMENT ON FUNCTION plaudit.held_reason_text(p_reason text, p_hold_id uuid, p_duplicate_of uuid, p_similarity real) IS 'The words of a held review''s reason, for the trail and its pending reason.';

-- FUNCTION plaudit.held_review_json (supabase/schemas/review_holds.sql)
--   (p_review_id uuid) RETURNS json

COMMENT ON FUNCTION plaudit.held_review_json(p_review_id uuid) IS 'Why a review of the caller''s tenant was held, with the review it repeats; null when it was not held.';

-- FUNCTION plaudit.held_review_side (supabase/schemas/review_holds.sql)
--   (p_review plaudit.reviews) RETURNS json

COMMENT ON FUNCTION plaudit.held_review_side(p_review plaudit.reviews) IS 'A review as a hold shows it: rating, title, text, reviewer''s name, status and date.';

-- FUNCTION plaudit.held_reviews_guard (supabase/schemas/review_holds.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.held_reviews_guard() IS 'Keeps a held review pending until a person approves or rejects it, and not before its hold is released.';

-- FUNCTION plaudit.hit_rate_limit (supabase/schemas/authentication_and_rate_limits.sql)
--   (p_bucket text, p_limit integer, OUT allowed boolean, OUT remaining integer, OUT reset_at bigint) RETURNS record

COMMENT ON FUNCTION plaudit.hit_rate_limit(p_bucket text, p_limit integer, OUT allowed boolean, OUT remaining integer, OUT reset_at bigint) IS 'Counts one hit in a bucket''s current one-minute window and answers whether it is within the limit, what remains and when it resets.';

-- FUNCTION plaudit.import_address_erased (supabase/schemas/imports.sql)
--   (p_org_id uuid, p_email text) RETURNS boolean

COMMENT ON FUNCTION plaudit.import_address_erased(p_org_id uuid, p_email text) IS 'Whether an address was erased in an organization: an import refuses its rows.';

-- FUNCTION plaudit.import_batch (supabase/schemas/imports.sql)
--   (p_import plaudit.imports, p_limit integer) RETURNS integer

COMMENT ON FUNCTION plaudit.import_batch(p_import plaudit.imports, p_limit integer) IS 'Applies (or, for a dry run, counts) up to p_limit staged rows of an import; answers how many it took.';

-- FUNCTION plaudit.import_erased_message (supabase/schemas/imports.sql)
--   () RETURNS text

COMMENT ON FUNCTION plaudit.import_erased_message() IS 'The refusal of an imported row whose address was erased.';

-- FUNCTION plaudit.import_form (supabase/schemas/imports.sql)
--   (p_org_id uuid) RETURNS uuid

COMMENT ON FUNCTION plaudit.import_form(p_org_id uuid) IS 'The inactive form "Imported reviews" of an organization, made on its first import.';

-- FUNCTION plaudit.import_json (supabase/schemas/imports.sql)
--   (p_import plaudit.imports) RETURNS json

COMMENT ON FUNCTION plaudit.import_json(p_import plaudit.imports) IS 'An import job as the API answers it and import.completed carries it.';

-- FUNCTION plaudit.import_key (supabase/schemas/imports.sql)
--   (p_format text, p_row jsonb) RETURNS bytea

COMMENT ON FUNCTION plaudit.import_key(p_format text, p_row jsonb) IS 'The key of an imported review: its platform and its own id there, or what its row says.';

-- FUNCTION plaudit.import_refusals_kept (supabase/schemas/imports.sql)
--   (p_kept jsonb, p_more jsonb) RETURNS jsonb

COMMENT ON FUNCTION plaudit.import_refusals_kept(p_kept jsonb, p_more jsonb) IS 'An import''s refusals with more added: the first hundred by row.';

-- FUNCTION plaudit.inbound_connection_event (supabase/schemas/shop_connections.sql)
--   (p_connection_id uuid, p_platform text, p_signed bytea, p_signatures bytea[], p_delivery_id text, p_topic text, p_payload jsonb,
--     p_settled text) RETURNS TABLE(platform text, status text, signature_holds boolean, outcome text)

COMMENT ON FUNCTION plaudit.inbound_connection_event(p_connection_id uuid, p_platform text, p_signed bytea, p_signatures bytea[], p_delivery_id text,
    p_topic text, p_payload jsonb, p_settled text) IS 'The inbound route''s call: a connection''s platform and state, whether the event''s signature holds, and the event stored if it does and is of that platform.';

-- FUNCTION plaudit.invitation_for_token (supabase/schemas/team_invitations.sql)
--   (p_token text) RETURNS TABLE(state text, email text, role text, org_name text, expires_at timestamp with time zone)

COMMENT ON FUNCTION plaudit.invitation_for_token(p_token text) IS 'The accept page: the invitation a token stands for, and its state (pending | accepted | expired | revoked | invalid).';

-- FUNCTION plaudit.invitations_cancel_queued_email (supabase/schemas/team_invitations.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.invitations_cancel_queued_email() IS 'Withdrawing an invitation withdraws its e-mail while that still waits in the outbox.';

-- FUNCTION plaudit.is_shopify_product_id (supabase/schemas/shopify_write_back.sql)
--   (p_external_id text) RETURNS boolean

COMMENT ON FUNCTION plaudit.is_shopify_product_id(p_external_id text) IS 'True when an external id can be a Shopify product''s id (a number).';

-- FUNCTION plaudit.iso_utc (supabase/schemas/webhooks.sql)
--   (t timestamp with time zone) RETURNS text

COMMENT ON FUNCTION plaudit.iso_utc(t timestamp with time zone) IS 'A timestamp as ISO 8601 UTC with milliseconds and Z, as the API writes timestamps.';

-- FUNCTION plaudit.issue_api_key (supabase/schemas/organizations_members_and_keys.sql)
--   (p_org_id uuid, p_name text, p_scope text, p_rate_limit_per_minute integer DEFAULT NULL::integer) RETURNS TABLE(id uuid, org_id uuid, name text,
--     scope text, prefix text, key text, rate_limit_per_minute integer, created_at timestamp with time zone)

COMMENT ON FUNCTION plaudit.issue_api_key(p_org_id uuid, p_name text, p_scope text, p_rate_limit_per_minute integer) IS 'Creates an API key and answers its plaintext, once: only its SHA-256 is stored.';

-- FUNCTION plaudit.issue_media_upload_token (supabase/schemas/review_media.sql)
--   (p_review_id uuid, p_token_hash bytea) RETURNS timestamp with time zone

COMMENT ON FUNCTION plaudit.issue_media_upload_token(p_review_id uuid, p_token_hash bytea) IS 'Issues the upload token of a review created in this transaction, once; answers its expiry.';

-- FUNCTION plaudit.json_without_address (supabase/schemas/privacy.sql)
--   (p_value jsonb, p_email text) RETURNS jsonb

COMMENT ON FUNCTION plaudit.json_without_address(p_value jsonb, p_email text) IS 'A JSON value with every occurrence of an address (any case) replaced by [removed].';

-- FUNCTION plaudit.keep_an_owner (supabase/schemas/members_sign_in.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.keep_an_owner() IS 'An organization keeps at least one owner: demoting or removing its last owner is refused.';

CREATE TABLE plaudit.sessions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    email text NOT NULL,
    token_hash bytea NOT NULL,
    user_agent text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone DEFAULT (now() + '30 days'::interval) NOT NULL,
    ended_at timestamp with time zone,
    CONSTRAINT sessions_email_check CHECK ((char_length(email) <= 320)),
    CONSTRAINT sessions_token_hash_check CHECK ((octet_length(token_hash) = 32)),
    CONSTRAINT sessions_user_agent_check CHECK ((char_length(user_agent) <= 200))
);

COMMENT ON TABLE plaudit.sessions IS 'Signed-in browsers: only the SHA-256 of each session token is kept; a session ends idle, expired or signed out.';

-- FUNCTION plaudit.live_session (supabase/schemas/members_sign_in.sql)
--   (p_token_hash bytea) RETURNS SETOF plaudit.sessions

COMMENT ON FUNCTION plaudit.live_session(p_token_hash bytea) IS 'The live session a token hash stands for (none when unknown, ended, idle too long or past its absolute expiry).';

-- FUNCTION plaudit.make_order_requests (supabase/schemas/orders_timeline.sql)
--   (p_org_id uuid, p_rows jsonb, p_link_base text) RETURNS void

COMMENT ON FUNCTION plaudit.make_order_requests(p_org_id uuid, p_rows jsonb, p_link_base text) IS 'Makes orders'' review requests of one organization in one create_review_requests call, and links each order to its request.';

-- FUNCTION plaudit.make_pending_order_requests (supabase/schemas/shop_connection_batches.sql)
--   (p_pending jsonb, p_link_base text) RETURNS void

COMMENT ON FUNCTION plaudit.make_pending_order_requests(p_pending jsonb, p_link_base text) IS 'Makes the review requests a batch of order events decided, in one call an organization.';

-- FUNCTION plaudit.media_per_review_limit (supabase/schemas/review_media.sql)
--   () RETURNS integer

COMMENT ON FUNCTION plaudit.media_per_review_limit() IS 'How many photos and videos a review may have.';

-- FUNCTION plaudit.media_upload_token_lifetime (supabase/schemas/review_media.sql)
--   () RETURNS interval

COMMENT ON FUNCTION plaudit.media_upload_token_lifetime() IS 'How long a reviewer''s upload token works.';

-- FUNCTION plaudit.meta_review_feed_page (supabase/schemas/meta_review_feed.sql)
--   (p_slug text, p_profile_url text, p_after_product uuid, p_after_created_at text, p_after_id uuid, p_limit integer) RETURNS TABLE(csv text,
--     reviews integer, last_product uuid, last_created_at text, last_id uuid)

COMMENT ON FUNCTION plaudit.meta_review_feed_page(p_slug text, p_profile_url text, p_after_product uuid, p_after_created_at text, p_after_id uuid, p_limit integer) IS 'A page of a slug''s Meta product review feed after a cursor: its CSV rows, and the next cursor.';

-- FUNCTION plaudit.moderate_answer (supabase/schemas/question_answers.sql)
--   (p_id uuid, p_action text, p_reason text, p_actor text) RETURNS uuid

COMMENT ON FUNCTION plaudit.moderate_answer(p_id uuid, p_action text, p_reason text, p_actor text) IS 'Hides or unhides an answer of the caller''s tenant on behalf of `p_actor`, with a reason for the trail.';

-- FUNCTION plaudit.moderate_question (supabase/schemas/questions.sql)
--   (p_id uuid, p_action text, p_reason text, p_actor text) RETURNS void

COMMENT ON FUNCTION plaudit.moderate_question(p_id uuid, p_action text, p_reason text, p_actor text) IS 'Hides or unhides a question of the caller''s tenant on behalf of `p_actor`, with a reason for the trail.';

-- FUNCTION plaudit.moderate_review (supabase/schemas/moderation_trail.sql)
--   (p_review_id uuid, p_action text, p_reason text, p_actor text) RETURNS SETOF plaudit.reviews

COMMENT ON FUNCTION plaudit.moderate_review(p_review_id uuid, p_action text, p_reason text, p_actor text) IS 'Hides or unhides a review of the caller''s tenant on behalf of `p_actor`, with a reason for the trail.';

-- FUNCTION plaudit.moderate_review_media (supabase/schemas/review_media.sql)
--   (p_review_id uuid, p_media_id uuid, p_action text, p_reason text, p_actor text) RETURNS void

COMMENT ON FUNCTION plaudit.moderate_review_media(p_review_id uuid, p_media_id uuid, p_action text, p_reason text, p_actor text) IS 'Hides or shows a photo or video of a review of the caller''s tenant, with its trail entry and review.moderated.';

-- FUNCTION plaudit.moderation_chain_head (supabase/schemas/moderation_trail.sql)
--   (p_org_id uuid) RETURNS jsonb

COMMENT ON FUNCTION plaudit.moderation_chain_head(p_org_id uuid) IS 'An organization''s moderation chain head as JSON: its number of entries and the hex of the last entry''s hash.';

-- FUNCTION plaudit.moderation_chain_heads_guard (supabase/schemas/moderation_trail.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.moderation_chain_heads_guard() IS 'A moderation chain head only moves forward, one entry at a time, and is never deleted.';

-- FUNCTION plaudit.moderation_chain_status (supabase/schemas/moderation_trail.sql)
--   (p_entries bigint DEFAULT NULL::bigint, p_head text DEFAULT NULL::text) RETURNS jsonb

COMMENT ON FUNCTION plaudit.moderation_chain_status(p_entries bigint, p_head text) IS 'The transaction''s tenant''s moderation chain: its head, whether it verifies, and whether it still holds a head kept earlier.';

-- FUNCTION plaudit.moderation_entry_hash (supabase/schemas/moderation_trail.sql)
--   (p_previous_hash bytea, p_org_id uuid, p_seq bigint, p_review_id uuid, p_action text, p_reason text, p_actor text, p_created_at timestamp with time zone) RETURNS bytea

COMMENT ON FUNCTION plaudit.moderation_entry_hash(p_previous_hash bytea, p_org_id uuid, p_seq bigint, p_review_id uuid, p_action text, p_reason text,
    p_actor text, p_created_at timestamp with time zone) IS 'The SHA-256 of a trail entry''s fields and the previous entry''s hash.';

-- FUNCTION plaudit.moderation_trail_refuse_change (supabase/schemas/moderation_trail.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.moderation_trail_refuse_change() IS 'The moderation trail is append-only, for everyone: no entry is updated, deleted or truncated.';

-- FUNCTION plaudit.new_connection_secret (supabase/schemas/shop_connections.sql)
--   () RETURNS text

COMMENT ON FUNCTION plaudit.new_connection_secret() IS 'A new signing secret for a webhook connection: `whsec_` and the base64 of 24 random bytes.';

-- FUNCTION plaudit.new_webhook_secret (supabase/schemas/webhooks.sql)
--   () RETURNS text

COMMENT ON FUNCTION plaudit.new_webhook_secret() IS 'A new webhook signing secret: `whsec_` and the base64 of 32 random bytes.';

-- FUNCTION plaudit.notify_export_created (supabase/schemas/exports.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.notify_export_created() IS 'A new export job wakes the worker.';

-- FUNCTION plaudit.order_event_reaches_trigger (supabase/schemas/orders_timeline.sql)
--   (p_event text, p_trigger text, p_platform text) RETURNS boolean

COMMENT ON FUNCTION plaudit.order_event_reaches_trigger(p_event text, p_trigger text, p_platform text) IS 'Whether an order event reaches the automation''s trigger on a platform (delivered falls back to fulfilled where the platform never says it, and fulfilled to paid on Stripe).';

-- FUNCTION plaudit.order_hash (supabase/schemas/verification.sql)
--   (p_org_id uuid, p_order_id text) RETURNS text

COMMENT ON FUNCTION plaudit.order_hash(p_org_id uuid, p_order_id text) IS 'The SHA-256 (hex) of the tenant and an order id: what a purchase-proof verification records.';

-- FUNCTION plaudit.order_id_forms (supabase/schemas/verification.sql)
--   (p_order_id text) RETURNS text[]

COMMENT ON FUNCTION plaudit.order_id_forms(p_order_id text) IS 'An order id as typed, with and without a leading #: the forms purchase proof looks an order up by.';

-- FUNCTION plaudit.order_json (supabase/schemas/orders_timeline.sql)
--   (p_org_id uuid, p_order_id text) RETURNS jsonb

COMMENT ON FUNCTION plaudit.order_json(p_org_id uuid, p_order_id text) IS 'An order as GET …/orders/:orderId answers it: items (with their catalog products), timeline, its review request or why it was skipped.';

-- FUNCTION plaudit.order_request_products (supabase/schemas/orders_timeline.sql)
--   (p_org_id uuid, p_order_id text, p_exclude text[]) RETURNS jsonb

COMMENT ON FUNCTION plaudit.order_request_products(p_org_id uuid, p_order_id text, p_exclude text[]) IS 'The products a review request for an order names: its known, unarchived items less the excluded and the refunded.';

CREATE TABLE plaudit.review_request_automation (
    org_id uuid NOT NULL,
    enabled boolean DEFAULT false NOT NULL,
    trigger text DEFAULT 'fulfilled'::text NOT NULL,
    delay_days integer DEFAULT 7 NOT NULL,
    form_id uuid,
    exclude_products text[] DEFAULT '{}'::text[] NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT review_request_automation_delay_days_check CHECK (((delay_days >= 0) AND (delay_days <= 90))),
    CONSTRAINT review_request_automation_exclude_products_check CHECK ((cardinality(exclude_products) <= 1000)),
    CONSTRAINT review_request_automation_trigger_check CHECK ((trigger = ANY (ARRAY['fulfilled'::text, 'delivered'::text, 'paid'::text])))
);

COMMENT ON TABLE plaudit.review_request_automation IS 'Per organization: whether orders from its connections make review requests, on which event, after how many days, on which form, and for which products not.';

-- FUNCTION plaudit.order_request_row (supabase/schemas/orders_timeline.sql)
--   (o plaudit.orders, a plaudit.review_request_automation, p_trigger_at timestamp with time zone, p_timeline_id bigint) RETURNS jsonb

COMMENT ON FUNCTION plaudit.order_request_row(o plaudit.orders, a plaudit.review_request_automation, p_trigger_at timestamp with time zone, p_timeline_id bigint) IS 'The review request an order makes, as a row for create_review_requests: due at the trigger''s time plus the delay, for its products.';

-- FUNCTION plaudit.order_skip_reason (supabase/schemas/orders_timeline.sql)
--   (o plaudit.orders, a plaudit.review_request_automation) RETURNS text

COMMENT ON FUNCTION plaudit.order_skip_reason(o plaudit.orders, a plaudit.review_request_automation) IS 'Why an order that reached the trigger makes no review request (automation_off, no_email, suppressed, excluded), or null.';

-- FUNCTION plaudit.order_status_rank (supabase/schemas/orders_timeline.sql)
--   (p_status text) RETURNS integer

COMMENT ON FUNCTION plaudit.order_status_rank(p_status text) IS 'An order status''s rank: created < paid < fulfilled < delivered < cancelled < refunded; null for an event that is not a status.';

-- FUNCTION plaudit.page_meta (supabase/schemas/one_statement_reads.sql)
--   (p_total bigint, p_page integer, p_limit integer) RETURNS text

COMMENT ON FUNCTION plaudit.page_meta(p_total bigint, p_page integer, p_limit integer) IS 'The pagination envelope''s meta, as the API''s lists write it.';

-- FUNCTION plaudit.policy_page_slug (supabase/schemas/review_policy.sql)
--   (p_org_id uuid) RETURNS text

COMMENT ON FUNCTION plaudit.policy_page_slug(p_org_id uuid) IS 'The slug whose review policy page the reviewer''s mails link to: the organization''s while its profile is public, else null.';

-- FUNCTION plaudit.product_group_ids (supabase/schemas/public_products.sql)
--   (p_org_id uuid, p_product_id uuid, p_group_key text) RETURNS uuid[]

COMMENT ON FUNCTION plaudit.product_group_ids(p_org_id uuid, p_product_id uuid, p_group_key text) IS 'The products whose reviews a product shows in public: its group''s, or itself.';

-- FUNCTION plaudit.product_group_statistics (supabase/schemas/public_products.sql)
--   (p_product_ids uuid[], OUT public_count bigint, OUT rating_sum bigint, OUT rating_1 bigint, OUT rating_2 bigint, OUT rating_3 bigint,
--     OUT rating_4 bigint, OUT rating_5 bigint) RETURNS record

COMMENT ON FUNCTION plaudit.product_group_statistics(p_product_ids uuid[], OUT public_count bigint, OUT rating_sum bigint, OUT rating_1 bigint,
    OUT rating_2 bigint, OUT rating_3 bigint, OUT rating_4 bigint, OUT rating_5 bigint) IS 'The summed public review counters of the products given.';

-- FUNCTION plaudit.products_signal_changes (supabase/schemas/products.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.products_signal_changes() IS 'Every statement that adds, changes or deletes products moves their organizations'' public version.';

-- FUNCTION plaudit.prune_rate_limits (supabase/schemas/authentication_and_rate_limits.sql)
--   () RETURNS integer

COMMENT ON FUNCTION plaudit.prune_rate_limits() IS 'Deletes the rate-limit windows no request consults any more and answers how many.';

-- FUNCTION plaudit.public_dsa_transparency (supabase/schemas/dsa_transparency.sql)
--   (p_slug text, p_year integer) RETURNS json

COMMENT ON FUNCTION plaudit.public_dsa_transparency(p_slug text, p_year integer) IS 'A slug''s DSA transparency figures of a year (dsa_transparency_of) and the years with data; null for an unknown slug.';

-- FUNCTION plaudit.public_embed_reviews (supabase/schemas/public_profiles.sql)
--   (p_slug text) RETURNS json

COMMENT ON FUNCTION plaudit.public_embed_reviews(p_slug text) IS 'The widget''s reviews of the business: the newest public reviews at or above its min_rating, up to its max_reviews.';

-- FUNCTION plaudit.public_feed_page_ids (supabase/schemas/public_profiles.sql)
--   (p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_sort text, p_has_media boolean, p_offset bigint, p_limit integer,
--     p_language text DEFAULT NULL::text, p_reader_language text DEFAULT NULL::text, p_attributes jsonb DEFAULT NULL::jsonb) RETURNS uuid[]

COMMENT ON FUNCTION plaudit.public_feed_page_ids(p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_sort text, p_has_media boolean,
    p_offset bigint, p_limit integer, p_language text, p_reader_language text, p_attributes jsonb) IS 'The ids of one page of a public feed (the business''s or products''), of some ratings, in one of its orders, each walked by an index.';

-- FUNCTION plaudit.public_feed_ratings (supabase/schemas/public_profiles.sql)
--   (p_min integer, p_rating integer) RETURNS integer[]

COMMENT ON FUNCTION plaudit.public_feed_ratings(p_min integer, p_rating integer) IS 'The ratings a public feed shows: from a minimum up, or the one asked for.';

-- FUNCTION plaudit.public_feed_total (supabase/schemas/public_profiles.sql)
--   (p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_has_media boolean, p_language text DEFAULT NULL::text, p_attributes jsonb DEFAULT NULL::jsonb) RETURNS bigint

COMMENT ON FUNCTION plaudit.public_feed_total(p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_has_media boolean, p_language text, p_attributes jsonb) IS 'How many reviews a public feed holds, from the business''s or the products'' counters.';

-- FUNCTION plaudit.public_form_product (supabase/schemas/products.sql)
--   (p_form_id uuid, p_external_id text) RETURNS TABLE(external_id text, name text, image_url text, archived boolean)

COMMENT ON FUNCTION plaudit.public_form_product(p_form_id uuid, p_external_id text) IS 'The product of a hosted form''s organization with this external id (archived or not), while the form takes reviews.';

-- FUNCTION plaudit.public_hidden_review_ground (supabase/schemas/statements_of_reasons.sql)
--   (p_slug text, p_review_id uuid) RETURNS TABLE(ground_type text, ground text, hidden_at timestamp with time zone, appeal_until timestamp with time zone)

COMMENT ON FUNCTION plaudit.public_hidden_review_ground(p_slug text, p_review_id uuid) IS 'The ground of a hidden review of the slug and until when it may be appealed, for its public address''s 410; no row when it is not hidden.';

CREATE TABLE plaudit.products (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    external_id text NOT NULL,
    name text NOT NULL,
    url text,
    image_url text,
    sku text,
    gtin text,
    mpn text,
    brand text,
    group_key text,
    archived boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT products_brand_check CHECK (((char_length(brand) >= 1) AND (char_length(brand) <= 200))),
    CONSTRAINT products_external_id_check CHECK (((char_length(external_id) >= 1) AND (char_length(external_id) <= 200))),
    CONSTRAINT products_group_check CHECK (((char_length(group_key) >= 1) AND (char_length(group_key) <= 200))),
    CONSTRAINT products_gtin_check CHECK (plaudit.gtin_is_valid(gtin)),
    CONSTRAINT products_image_url_check CHECK (((char_length(image_url) <= 2000) AND (image_url ~* '^https?://[^[:space:]]+$'::text))),
    CONSTRAINT products_mpn_check CHECK (((char_length(mpn) >= 1) AND (char_length(mpn) <= 200))),
    CONSTRAINT products_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 500))),
    CONSTRAINT products_sku_check CHECK (((char_length(sku) >= 1) AND (char_length(sku) <= 200))),
    CONSTRAINT products_url_check CHECK (((char_length(url) <= 2000) AND (url ~* '^https?://[^[:space:]]+$'::text)))
);

COMMENT ON TABLE plaudit.products IS 'The product catalog: what an organization sells, each product known by the organization''s own external_id.';

-- FUNCTION plaudit.public_listed_products (supabase/schemas/public_profiles.sql)
--   (p_org_id uuid) RETURNS SETOF plaudit.products

COMMENT ON FUNCTION plaudit.public_listed_products(p_org_id uuid) IS 'The products public pages list: those not archived, and archived ones with public reviews of their own.';

-- FUNCTION plaudit.public_media_file (supabase/schemas/review_media.sql)
--   (p_storage_key text) RETURNS text

COMMENT ON FUNCTION plaudit.public_media_file(p_storage_key text) IS 'The content type of a stored media file the public may read, or null.';

-- FUNCTION plaudit.public_product (supabase/schemas/public_products.sql)
--   (p_slug text, p_external_id text) RETURNS json

COMMENT ON FUNCTION plaudit.public_product(p_slug text, p_external_id text) IS 'A product''s public summary over its group, with its fields, its group and the group''s products (variants), its answers'' summary, and the version of answers showing it; null when not found.';

-- FUNCTION plaudit.public_product_catalog (supabase/schemas/public_product_pages.sql)
--   (p_slug text, p_page integer, p_limit integer) RETURNS json

COMMENT ON FUNCTION plaudit.public_product_catalog(p_slug text, p_page integer, p_limit integer) IS 'A page of an enabled profile''s listed products by name, each with its public figures over its group, with the total.';

-- FUNCTION plaudit.public_product_of (supabase/schemas/public_products.sql)
--   (p_slug text, p_external_id text) RETURNS TABLE(org_id uuid, product plaudit.products, group_ids uuid[])

COMMENT ON FUNCTION plaudit.public_product_of(p_slug text, p_external_id text) IS 'A product of an enabled public profile by slug and external id, with the ids of its group.';

-- FUNCTION plaudit.public_product_ratings (supabase/schemas/public_products.sql)
--   (p_slug text, p_external_ids text[]) RETURNS TABLE(version text, body text)

COMMENT ON FUNCTION plaudit.public_product_ratings(p_slug text, p_external_ids text[]) IS 'The public figures of the products asked for by external id, each over its group, in the order asked.';

-- FUNCTION plaudit.public_product_reviews (supabase/schemas/public_products.sql)
--   (p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean,
--     p_language text DEFAULT NULL::text, p_reader_language text DEFAULT NULL::text, p_attributes jsonb DEFAULT NULL::jsonb) RETURNS TABLE(version text, body text)

COMMENT ON FUNCTION plaudit.public_product_reviews(p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer,
    p_has_media boolean, p_language text, p_reader_language text, p_attributes jsonb) IS 'A page of a product''s public reviews over its group, sorted and filtered, in the pagination envelope.';

-- FUNCTION plaudit.public_product_version (supabase/schemas/public_products.sql)
--   (p_slug text, p_external_id text, p_profile boolean) RETURNS text

COMMENT ON FUNCTION plaudit.public_product_version(p_slug text, p_external_id text, p_profile boolean) IS 'The version of an answer showing one product: the organization''s, and ~ the product''s id, which names its cache key.';

-- FUNCTION plaudit.public_profile (supabase/schemas/public_profiles.sql)
--   (p_slug text) RETURNS json

COMMENT ON FUNCTION plaudit.public_profile(p_slug text) IS 'A slug''s public profile as JSON: its profile and embed settings, its aggregates and its moderation chain head.';

-- FUNCTION plaudit.public_profile_reviews (supabase/schemas/public_profiles.sql)
--   (p_slug text, p_rating integer, p_page integer, p_limit integer) RETURNS json

COMMENT ON FUNCTION plaudit.public_profile_reviews(p_slug text, p_rating integer, p_page integer, p_limit integer) IS 'A page of an enabled profile''s public reviews of the business, newest first, of one rating or all.';

-- FUNCTION plaudit.public_profile_version (supabase/schemas/public_profiles.sql)
--   (p_slug text) RETURNS text

COMMENT ON FUNCTION plaudit.public_profile_version(p_slug text) IS 'public_version with the moderation chain head''s entry count: the version of profile and embed answers, which carry the head.';

-- FUNCTION plaudit.public_question_json (supabase/schemas/questions.sql)
--   (q plaudit.questions) RETURNS json

COMMENT ON FUNCTION plaudit.public_question_json(q plaudit.questions) IS 'A public question item with its visible answers, never an address.';

-- FUNCTION plaudit.public_question_page (supabase/schemas/questions.sql)
--   (p_slug text, p_external_id text, p_page integer, p_limit integer, OUT version text, OUT body text) RETURNS record

COMMENT ON FUNCTION plaudit.public_question_page(p_slug text, p_external_id text, p_page integer, p_limit integer, OUT version text, OUT body text) IS 'A page of published questions of a product or the business, newest answered first, as the response body, with its version.';

-- FUNCTION plaudit.public_read_fragment (supabase/schemas/one_statement_reads.sql)
--   (p_slug text, p_limit integer, p_sort text, OUT version text, OUT profile json, OUT items json) RETURNS record

COMMENT ON FUNCTION plaudit.public_read_fragment(p_slug text, p_limit integer, p_sort text, OUT version text, OUT profile json, OUT items json) IS 'A fragment''s read in one statement: the profile, its first reviews and the version.';

-- FUNCTION plaudit.public_read_product_reviews (supabase/schemas/public_products.sql)
--   (p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean,
--     p_language text DEFAULT NULL::text, p_reader_language text DEFAULT NULL::text, p_attributes jsonb DEFAULT NULL::jsonb, OUT version text, OUT body text) RETURNS record

COMMENT ON FUNCTION plaudit.public_read_product_reviews(p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer,
    p_has_media boolean, p_language text, p_reader_language text, p_attributes jsonb, OUT version text, OUT body text) IS 'A page of a product''s public reviews as the response body, with its version, read as plaudit_public.';

-- FUNCTION plaudit.public_read_product_version (supabase/schemas/public_products.sql)
--   (p_slug text, p_external_id text) RETURNS text

COMMENT ON FUNCTION plaudit.public_read_product_version(p_slug text, p_external_id text) IS 'The version of a product''s public answers, for ETags, read as plaudit_public.';

-- FUNCTION plaudit.public_read_review_page (supabase/schemas/one_statement_reads.sql)
--   (p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean, p_language text DEFAULT NULL::text,
--     p_reader_language text DEFAULT NULL::text, p_attributes jsonb DEFAULT NULL::jsonb, OUT version text, OUT body text) RETURNS record

COMMENT ON FUNCTION plaudit.public_read_review_page(p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer,
    p_has_media boolean, p_language text, p_reader_language text, p_attributes jsonb, OUT version text, OUT body text) IS 'A page of public reviews, sorted and filtered, as the response body, with its version.';

-- FUNCTION plaudit.public_read_review_summary (supabase/schemas/review_summaries.sql)
--   (p_slug text, p_external_id text, OUT version text, OUT body text) RETURNS record

COMMENT ON FUNCTION plaudit.public_read_review_summary(p_slug text, p_external_id text, OUT version text, OUT body text) IS 'A business''s or a product''s summary as the response body, with its version, read as plaudit_public.';

-- FUNCTION plaudit.public_read_version (supabase/schemas/one_statement_reads.sql)
--   (p_slug text) RETURNS text

COMMENT ON FUNCTION plaudit.public_read_version(p_slug text) IS 'The version of a business''s public data, for ETags, read as plaudit_public.';

-- FUNCTION plaudit.public_reported_review (supabase/schemas/shopper_signals.sql)
--   (p_slug text, p_review_id uuid) RETURNS TABLE(rating integer, title text, content text, reviewer_name text, created_at timestamp with time zone)

COMMENT ON FUNCTION plaudit.public_reported_review(p_slug text, p_review_id uuid) IS 'The published review of the slug that a visitor''s report form is about: stars, title, text, reviewer, date; no row when there is none.';

-- FUNCTION plaudit.public_review_form (supabase/schemas/hosted_review_pages.sql)
--   (p_form_id uuid) RETURNS TABLE(id uuid, org_name text, name text, verification_mode text, custom_fields jsonb, logo_url text, website text, profile_slug text)

COMMENT ON FUNCTION plaudit.public_review_form(p_form_id uuid) IS 'The hosted form of /forms/:formId, when the form is active and not deleted, with where its thank-you page leads back to: the website, the profile''s slug when enabled.';

-- FUNCTION plaudit.public_review_items (supabase/schemas/public_profiles.sql)
--   (p_ids uuid[]) RETURNS text

COMMENT ON FUNCTION plaudit.public_review_items(p_ids uuid[]) IS 'The public items of the reviews given, as a JSON array in the order given.';

-- FUNCTION plaudit.review_is_public (supabase/schemas/review_statistics.sql)
--   (p_is_hidden boolean, p_status text) RETURNS boolean

COMMENT ON FUNCTION plaudit.review_is_public(p_is_hidden boolean, p_status text) IS 'True when a review shows in public: not hidden, and verified or unverified. Inlined where it is called.';

CREATE VIEW plaudit.public_reviews WITH (security_barrier='true', security_invoker='true') AS
 SELECT r.org_id,
    r.id,
    r.rating,
    r.title,
    r.content,
    r.reviewer_name,
    r.verification_status,
    r.created_at,
        CASE
            WHEN (r.verification_status = 'verified'::text) THEN r.verification_method
            ELSE NULL::text
        END AS verification_method,
    r.product_id,
    r.source,
    r.source_platform,
    (r.incentive IS NOT NULL) AS incentivized,
    r.helpful_count,
    r.language,
    r.attributes
   FROM plaudit.reviews r
  WHERE plaudit.review_is_public(r.is_hidden, r.verification_status);

COMMENT ON VIEW plaudit.public_reviews IS 'The public projection of reviews: those not hidden and verified or unverified, without e-mail, private custom answers or provenance.';

CREATE TABLE plaudit.review_replies (
    review_id uuid NOT NULL,
    org_id uuid NOT NULL,
    content text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    imported boolean DEFAULT false NOT NULL,
    CONSTRAINT review_replies_content_check CHECK (((char_length(content) >= 1) AND (char_length(content) <= 5000)))
);

COMMENT ON TABLE plaudit.review_replies IS 'A business''s public reply to a review, one per review; each change is also an entry of the moderation trail.';

-- FUNCTION plaudit.public_review_json (supabase/schemas/public_profiles.sql)
--   (pr plaudit.public_reviews, reply plaudit.review_replies, product plaudit.products) RETURNS text

COMMENT ON FUNCTION plaudit.public_review_json(pr plaudit.public_reviews, reply plaudit.review_replies, product plaudit.products) IS 'A public review item as compact JSON: the one writer of it, for every public list.';

-- FUNCTION plaudit.public_review_page (supabase/schemas/public_profiles.sql)
--   (p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text DEFAULT 'newest'::text, p_rating integer DEFAULT NULL::integer,
--     p_has_media boolean DEFAULT false, p_language text DEFAULT NULL::text, p_reader_language text DEFAULT NULL::text, p_attributes jsonb DEFAULT NULL::jsonb) RETURNS json

COMMENT ON FUNCTION plaudit.public_review_page(p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer,
    p_has_media boolean, p_language text, p_reader_language text, p_attributes jsonb) IS 'A page of a business''s public reviews or its widget''s, sorted and filtered, with its total.';

-- FUNCTION plaudit.public_review_policy (supabase/schemas/review_policy.sql)
--   (p_slug text) RETURNS json

COMMENT ON FUNCTION plaudit.public_review_policy(p_slug text) IS 'The facts a slug''s review policy page is written from: forms by verification mode, incentives, review requests, imports, grounds of the last 12 months'' statements, widget and media settings, the business''s own text.';

-- FUNCTION plaudit.public_review_summary (supabase/schemas/review_summaries.sql)
--   (p_slug text, p_external_id text) RETURNS TABLE(version text, body text)

COMMENT ON FUNCTION plaudit.public_review_summary(p_slug text, p_external_id text) IS 'A business''s or a product''s summary as the response body, with its version; no body below 5 published reviews.';

-- FUNCTION plaudit.public_review_summary_cited (supabase/schemas/review_summaries.sql)
--   (p_slug text, p_external_id text, p_per_sentence integer) RETURNS text

COMMENT ON FUNCTION plaudit.public_review_summary_cited(p_slug text, p_external_id text, p_per_sentence integer) IS 'The public items of each summary sentence''s first cited reviews, one array a sentence, for the pages.';

-- FUNCTION plaudit.public_search_products (supabase/schemas/agent_reads.sql)
--   (p_slug text, p_query text, p_offset integer, p_limit integer) RETURNS json

COMMENT ON FUNCTION plaudit.public_search_products(p_slug text, p_query text, p_offset integer, p_limit integer) IS 'A window of a business''s listed products found by name, id or brand, each with its public figures.';

-- FUNCTION plaudit.public_search_reviews (supabase/schemas/agent_reads.sql)
--   (p_slug text, p_external_id text, p_query text, p_rating integer, p_verified_only boolean, p_with_media boolean, p_sort text, p_offset integer, p_limit integer) RETURNS json

COMMENT ON FUNCTION plaudit.public_search_reviews(p_slug text, p_external_id text, p_query text, p_rating integer, p_verified_only boolean,
    p_with_media boolean, p_sort text, p_offset integer, p_limit integer) IS 'A window of a business''s (or a product group''s) public reviews found by words and filters, in a public order.';

-- FUNCTION plaudit.public_sitemap (supabase/schemas/public_profiles.sql)
--   (p_page integer, p_limit integer) RETURNS TABLE(slug text, page text, external_id text, updated_at timestamp with time zone, total bigint)

COMMENT ON FUNCTION plaudit.public_sitemap(p_page integer, p_limit integer) IS 'Every public page of the enabled profiles (profile, review policy, transparency, catalog, products) by slug, a page at a time, with when each last changed.';

-- FUNCTION plaudit.public_transparency (supabase/schemas/transparency.sql)
--   (p_slug text) RETURNS json

COMMENT ON FUNCTION plaudit.public_transparency(p_slug text) IS 'A slug''s transparency report figures as JSON: reviews received and published, by verification method, hides by month and reason, forms'' moderation and the chain head.';

-- FUNCTION plaudit.public_transparency_version (supabase/schemas/transparency.sql)
--   (p_slug text) RETURNS text

COMMENT ON FUNCTION plaudit.public_transparency_version(p_slug text) IS 'The version of a slug''s transparency report, from which its ETag derives; null for an unknown slug.';

-- FUNCTION plaudit.public_version (supabase/schemas/public_profiles.sql)
--   (p_slug text) RETURNS text

COMMENT ON FUNCTION plaudit.public_version(p_slug text) IS 'The version of everything public about an organization, from which public answers derive their ETags.';

-- FUNCTION plaudit.public_version_delta (supabase/schemas/review_statistics.sql)
--   (p_org_id uuid) RETURNS jsonb

COMMENT ON FUNCTION plaudit.public_version_delta(p_org_id uuid) IS 'A review statistics delta that moves an organization''s public version and counts nothing.';

-- FUNCTION plaudit.purchase_proof_refusal (supabase/schemas/verification.sql)
--   (p_org_id uuid, p_order_id text, p_email text, p_product_id uuid) RETURNS text

COMMENT ON FUNCTION plaudit.purchase_proof_refusal(p_org_id uuid, p_order_id text, p_email text, p_product_id uuid) IS 'Why an order does not prove a review''s purchase (not the organization''s, another reviewer''s, or without the reviewed product or its group), or null when it does.';

CREATE TABLE plaudit.question_answers (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    question_id uuid NOT NULL,
    author text NOT NULL,
    author_name text NOT NULL,
    content text NOT NULL,
    is_hidden boolean DEFAULT false NOT NULL,
    helpful_count integer DEFAULT 0 NOT NULL,
    token_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT question_answers_author_check CHECK ((author = ANY (ARRAY['business'::text, 'verified_buyer'::text]))),
    CONSTRAINT question_answers_author_name_check CHECK (((char_length(author_name) >= 1) AND (char_length(author_name) <= 200))),
    CONSTRAINT question_answers_buyer_token CHECK (((author = 'verified_buyer'::text) = (token_id IS NOT NULL))),
    CONSTRAINT question_answers_content_check CHECK (((char_length(content) >= 1) AND (char_length(content) <= 5000))),
    CONSTRAINT question_answers_helpful_count_check CHECK ((helpful_count >= 0))
);

COMMENT ON TABLE plaudit.question_answers IS 'Answers to questions, by the business or by a verified buyer through their link; hidden by moderation, never deleted.';

-- FUNCTION plaudit.question_answer_json (supabase/schemas/questions.sql)
--   (a plaudit.question_answers) RETURNS json

COMMENT ON FUNCTION plaudit.question_answer_json(a plaudit.question_answers) IS 'An answer as the organization''s API shows it.';

-- FUNCTION plaudit.question_answer_link (supabase/schemas/question_answers.sql)
--   (p_token text) RETURNS TABLE(state text, question text, product_name text, org_name text)

COMMENT ON FUNCTION plaudit.question_answer_link(p_token text) IS 'The state of a buyer''s answer link and the question it answers, for its page.';

-- FUNCTION plaudit.question_answers_emit_answered (supabase/schemas/question_answers.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.question_answers_emit_answered() IS 'Every new answer gets its question.answered event and moves its question''s last answer time; an edited one gets its event again.';

-- FUNCTION plaudit.question_answers_record_moderation (supabase/schemas/question_answers.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.question_answers_record_moderation() IS 'Every business answer, each edit of it (with the text it replaced) and every hide and unhide of an answer is appended to the questions'' trail.';

-- FUNCTION plaudit.question_json (supabase/schemas/questions.sql)
--   (p_id uuid) RETURNS json

COMMENT ON FUNCTION plaudit.question_json(p_id uuid) IS 'A question of the caller''s tenant as the API answers it, with every answer.';

-- FUNCTION plaudit.question_page (supabase/schemas/questions.sql)
--   (p_status text, p_product_id uuid, p_answered boolean, p_page integer, p_limit integer) RETURNS text

COMMENT ON FUNCTION plaudit.question_page(p_status text, p_product_id uuid, p_answered boolean, p_page integer, p_limit integer) IS 'A page of the caller''s tenant''s questions, filtered, as the response body.';

-- FUNCTION plaudit.questions_answers_visible (supabase/schemas/questions.sql)
--   (p_question_id uuid) RETURNS SETOF plaudit.question_answers

COMMENT ON FUNCTION plaudit.questions_answers_visible(p_question_id uuid) IS 'A question''s answers that are not hidden, oldest first.';

-- FUNCTION plaudit.questions_public_change (supabase/schemas/questions.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.questions_public_change() IS 'A public change of questions or answers moves the organization''s public version and asks for its CDN purge.';

-- FUNCTION plaudit.questions_record_moderation (supabase/schemas/questions.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.questions_record_moderation() IS 'Every hide and unhide of a question is appended to the questions'' trail.';

-- FUNCTION plaudit.questions_refuse_delete (supabase/schemas/questions.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.questions_refuse_delete() IS 'Questions and answers are never deleted or truncated: moderation hides them instead.';

-- FUNCTION plaudit.queue_due_reminders (supabase/schemas/review_requests.sql)
--   (p_now timestamp with time zone DEFAULT NULL::timestamp with time zone, p_limit integer DEFAULT 1000, p_org_ids uuid[] DEFAULT NULL::uuid[]) RETURNS integer

COMMENT ON FUNCTION plaudit.queue_due_reminders(p_now timestamp with time zone, p_limit integer, p_org_ids uuid[]) IS 'Queues the reminder e-mails that are due under each organization''s settings; answers how many.';

-- FUNCTION plaudit.queue_invitation_email (supabase/schemas/team_invitations.sql)
--   (p_invitation_id uuid, p_token text, p_link_base text) RETURNS uuid

COMMENT ON FUNCTION plaudit.queue_invitation_email(p_invitation_id uuid, p_token text, p_link_base text) IS 'Queues the e-mail of an invitation of the transaction''s tenant, given its plaintext token.';

-- FUNCTION plaudit.raise_replica_read_floor (supabase/schemas/cdn_purges.sql)
--   (p_lsn pg_lsn) RETURNS pg_lsn

COMMENT ON FUNCTION plaudit.raise_replica_read_floor(p_lsn pg_lsn) IS 'Raises the WAL position read replicas must have replayed to serve reads; answers it.';

-- FUNCTION plaudit.random_base62 (supabase/schemas/organizations_members_and_keys.sql)
--   (n integer) RETURNS text

COMMENT ON FUNCTION plaudit.random_base62(n integer) IS '`n` uniformly random base62 characters, drawn by rejection so that every character is equally likely.';

-- FUNCTION plaudit.random_sign_in_code (supabase/schemas/members_sign_in.sql)
--   () RETURNS text

COMMENT ON FUNCTION plaudit.random_sign_in_code() IS 'Six decimal digits from the strong random source (four random bytes modulo a million).';

-- FUNCTION plaudit.rebuild_attribute_statistics (supabase/schemas/attribute_ratings.sql)
--   (p_org_id uuid) RETURNS void

COMMENT ON FUNCTION plaudit.rebuild_attribute_statistics(p_org_id uuid) IS 'Recounts an organization''s public answers'' counters from its public reviews.';

-- FUNCTION plaudit.rebuild_product_review_statistics (supabase/schemas/products.sql)
--   (p_org_id uuid) RETURNS void

COMMENT ON FUNCTION plaudit.rebuild_product_review_statistics(p_org_id uuid) IS 'Recounts an organization''s product review counters from its published reviews.';

-- FUNCTION plaudit.rebuild_review_statistics (supabase/schemas/review_statistics.sql)
--   (p_org_id uuid) RETURNS void

COMMENT ON FUNCTION plaudit.rebuild_review_statistics(p_org_id uuid) IS 'Recounts an organization''s review statistics from its reviews, into one slot with a version past every earlier one.';

-- FUNCTION plaudit.receive_connection_event (supabase/schemas/shop_connections.sql)
--   (p_connection_id uuid, p_delivery_id text, p_topic text, p_payload jsonb, p_settled text DEFAULT NULL::text) RETURNS text

COMMENT ON FUNCTION plaudit.receive_connection_event(p_connection_id uuid, p_delivery_id text, p_topic text, p_payload jsonb, p_settled text) IS 'Stores an event of a connection once per delivery id, unchecked, and wakes the worker; the owner''s only (benchmarks, tests).';

-- FUNCTION plaudit.record_cdn_purge (supabase/schemas/cdn_purges.sql)
--   (p_claim_token uuid, p_org_id uuid, p_sent boolean, p_error text, p_retry_in_ms bigint) RETURNS text

COMMENT ON FUNCTION plaudit.record_cdn_purge(p_claim_token uuid, p_org_id uuid, p_sent boolean, p_error text, p_retry_in_ms bigint) IS 'Records the outcome of an organization''s claimed CDN purges: sent, retrying or failed; answers the status.';

-- FUNCTION plaudit.record_connection_data_request (supabase/schemas/shop_connections.sql)
--   (p_connection_id uuid, p_email text) RETURNS void

COMMENT ON FUNCTION plaudit.record_connection_data_request(p_connection_id uuid, p_email text) IS 'Records a shop''s request for a customer''s data, for the admins.';

-- FUNCTION plaudit.record_email_provider_event (supabase/schemas/review_request_tracking.sql)
--   (p_provider_message_id text, p_type text, p_event_id text, p_occurred_at timestamp with time zone, p_data jsonb DEFAULT '{}'::jsonb) RETURNS text

COMMENT ON FUNCTION plaudit.record_email_provider_event(p_provider_message_id text, p_type text, p_event_id text, p_occurred_at timestamp with time zone, p_data jsonb) IS 'Applies an e-mail provider''s event to its message''s review request; answers the outcome.';

-- FUNCTION plaudit.record_email_result (supabase/schemas/email_delivery.sql)
--   (p_id uuid, p_claim_token uuid, p_sent boolean, p_provider_message_id text, p_error text, p_retry_in_ms bigint) RETURNS text

COMMENT ON FUNCTION plaudit.record_email_result(p_id uuid, p_claim_token uuid, p_sent boolean, p_provider_message_id text, p_error text, p_retry_in_ms bigint) IS 'Records a claimed e-mail''s send: sent, queued again for a retry, or failed for good; answers its status.';

-- FUNCTION plaudit.record_order_event (supabase/schemas/orders_timeline.sql)
--   (c plaudit.connections, a plaudit.review_request_automation, p_type text, p_occurred_at timestamp with time zone, p_order jsonb, p_event_id bigint, p_now timestamp with time zone) RETURNS jsonb

COMMENT ON FUNCTION plaudit.record_order_event(c plaudit.connections, a plaudit.review_request_automation, p_type text,
    p_occurred_at timestamp with time zone, p_order jsonb, p_event_id bigint, p_now timestamp with time zone) IS 'One order event: upserts the order, appends to its timeline and decides; answers the order''s status and the request to make, which the caller makes.';

-- FUNCTION plaudit.record_shopify_write_back (supabase/schemas/shopify_write_back.sql)
--   (p_claim_token uuid, p_ids uuid[], p_sent boolean, p_error text, p_retry_in_ms bigint, p_rating text, p_rating_count integer) RETURNS text

COMMENT ON FUNCTION plaudit.record_shopify_write_back(p_claim_token uuid, p_ids uuid[], p_sent boolean, p_error text, p_retry_in_ms bigint, p_rating text, p_rating_count integer) IS 'Records an attempt of claimed Shopify write-backs: sent, retrying or failed; answers the status.';

-- FUNCTION plaudit.record_submission (supabase/schemas/submission_checks.sql)
--   (p_review plaudit.reviews, p_client_key bytea, p_subject text, p_order_hash text, p_sketch bigint[], p_reason text, p_hold_id uuid,
--     p_duplicate_of uuid, p_similarity real) RETURNS void

COMMENT ON FUNCTION plaudit.record_submission(p_review plaudit.reviews, p_client_key bytea, p_subject text, p_order_hash text, p_sketch bigint[],
    p_reason text, p_hold_id uuid, p_duplicate_of uuid, p_similarity real) IS 'Records a stored submission''s arrival and, when held, its held row and the trail''s hold entry.';

-- FUNCTION plaudit.record_test_delivery (supabase/schemas/webhooks.sql)
--   (p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text, p_response_snippet text, p_succeeded boolean) RETURNS text

COMMENT ON FUNCTION plaudit.record_test_delivery(p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text,
    p_response_snippet text, p_succeeded boolean) IS 'Records the outcome of a test delivery of the transaction''s tenant; answers its status.';

-- FUNCTION plaudit.record_webhook_attempt (supabase/schemas/webhook_delivery.sql)
--   (p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text, p_response_snippet text, p_outcome text,
--     p_retry_in_ms bigint, p_disable_after_seconds integer DEFAULT 432000, p_slow_ms integer DEFAULT NULL::integer) RETURNS text

COMMENT ON FUNCTION plaudit.record_webhook_attempt(p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text,
    p_response_snippet text, p_outcome text, p_retry_in_ms bigint, p_disable_after_seconds integer, p_slow_ms integer) IS 'Records a delivery attempt; the delivery succeeds, waits for a retry or fails.';

-- FUNCTION plaudit.refuse_changes_once_set (supabase/schemas/organizations_members_and_keys.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.refuse_changes_once_set() IS 'A column named in the trigger''s arguments, once set, can never be cleared or changed, by any role.';

-- FUNCTION plaudit.reject_review (supabase/schemas/verification.sql)
--   (p_review_id uuid, p_reason text, p_key_id uuid) RETURNS SETOF plaudit.reviews

COMMENT ON FUNCTION plaudit.reject_review(p_review_id uuid, p_reason text, p_key_id uuid) IS 'Rejects a pending review of the caller''s tenant by hand.';

-- FUNCTION plaudit.release_review_hold (supabase/schemas/review_holds.sql)
--   (p_id uuid, p_actor text) RETURNS uuid

COMMENT ON FUNCTION plaudit.release_review_hold(p_id uuid, p_actor text) IS 'A member releases an open hold of the caller''s tenant, in the trail; its held reviews stay pending for manual verification.';

-- FUNCTION plaudit.reply_json (supabase/schemas/one_statement_reads.sql)
--   (reply plaudit.review_replies) RETURNS text

COMMENT ON FUNCTION plaudit.reply_json(reply plaudit.review_replies) IS 'A review''s reply as the Review''s `reply` writes it, or null.';

-- FUNCTION plaudit.reply_to_review (supabase/schemas/review_replies.sql)
--   (p_review_id uuid, p_content text, p_actor text) RETURNS TABLE(content text, created_at timestamp with time zone, updated_at timestamp with time zone)

COMMENT ON FUNCTION plaudit.reply_to_review(p_review_id uuid, p_content text, p_actor text) IS 'Writes or edits the reply to a published review of the caller''s tenant (never a pending or rejected one); answers the reply.';

CREATE TABLE plaudit.review_reports (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    review_id uuid NOT NULL,
    reason text NOT NULL,
    details text,
    reporter_hash bytea NOT NULL,
    status text DEFAULT 'open'::text NOT NULL,
    resolution text,
    resolved_at timestamp with time zone,
    resolved_by text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    kind text DEFAULT 'policy'::text NOT NULL,
    legal_ground text,
    reporter_email text,
    good_faith boolean,
    decision text,
    CONSTRAINT review_reports_check CHECK ((((status = 'open'::text) = (resolved_at IS NULL)) AND ((status = 'open'::text) = (resolution IS NULL)) AND ((status = 'open'::text) = (resolved_by IS NULL)))),
    CONSTRAINT review_reports_decided_when_resolved CHECK (((decision IS NULL) OR (status = 'resolved'::text))),
    CONSTRAINT review_reports_decision_check CHECK ((decision = ANY (ARRAY['hidden'::text, 'kept'::text]))),
    CONSTRAINT review_reports_details_check CHECK (((char_length(details) >= 1) AND (char_length(details) <= 2000))),
    CONSTRAINT review_reports_illegal_names_its_ground CHECK (((kind <> 'illegal'::text) OR (legal_ground IS NOT NULL))),
    CONSTRAINT review_reports_kind_check CHECK ((kind = ANY (ARRAY['illegal'::text, 'policy'::text]))),
    CONSTRAINT review_reports_legal_ground_check CHECK (((char_length(legal_ground) >= 1) AND (char_length(legal_ground) <= 500))),
    CONSTRAINT review_reports_reason_check CHECK ((reason = ANY (ARRAY['spam'::text, 'offensive'::text, 'personal_data'::text, 'fake'::text,
        'conflict_of_interest'::text, 'other'::text]))),
    CONSTRAINT review_reports_reporter_email_check CHECK ((char_length(reporter_email) <= 320)),
    CONSTRAINT review_reports_reporter_hash_check CHECK ((octet_length(reporter_hash) = 32)),
    CONSTRAINT review_reports_resolution_check CHECK (((char_length(resolution) >= 1) AND (char_length(resolution) <= 2000))),
    CONSTRAINT review_reports_resolved_by_check CHECK ((char_length(resolved_by) <= 200)),
    CONSTRAINT review_reports_status_check CHECK ((status = ANY (ARRAY['open'::text, 'resolved'::text])))
);

COMMENT ON TABLE plaudit.review_reports IS 'Visitors'' reports of published reviews, open until the business resolves them; a report never hides a review.';
COMMENT ON COLUMN plaudit.review_reports.kind IS 'illegal (a notice of illegal content, DSA Art. 16) or policy (against the business''s review policy).';
COMMENT ON COLUMN plaudit.review_reports.legal_ground IS 'The law the reporter names for an illegal review; required for kind illegal.';
COMMENT ON COLUMN plaudit.review_reports.reporter_email IS 'Where the acknowledgement and the decision go: personal data, never public, erased with the address.';
COMMENT ON COLUMN plaudit.review_reports.good_faith IS 'The reporter stated that the notice is accurate and made in good faith; null for reports made before it was asked.';
COMMENT ON COLUMN plaudit.review_reports.decision IS 'What the resolution did to the review: hidden or kept; null while open and for reports resolved before decisions were recorded.';

-- FUNCTION plaudit.report_mail_data (supabase/schemas/shopper_signals.sql)
--   (p_report plaudit.review_reports) RETURNS jsonb

COMMENT ON FUNCTION plaudit.report_mail_data(p_report plaudit.review_reports) IS 'What the reporter''s acknowledgement and decision mails say of their report and the review, never an address.';

-- FUNCTION plaudit.report_review (supabase/schemas/shopper_signals.sql)
--   (p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea, p_reason text, p_details text,
--     p_kind text DEFAULT 'policy'::text, p_legal_ground text DEFAULT NULL::text, p_email text DEFAULT NULL::text,
--     p_good_faith boolean DEFAULT NULL::boolean) RETURNS TABLE(rate_allowed boolean, rate_remaining integer, rate_reset bigint, published boolean)

COMMENT ON FUNCTION plaudit.report_review(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea, p_reason text,
    p_details text, p_kind text, p_legal_ground text, p_email text, p_good_faith boolean) IS 'Stores a visitor''s report (a notice: its kind, ground, good faith and address) of a published review, one open per visitor, limited per address, with its event and acknowledgement mail.';

-- FUNCTION plaudit.request_cdn_purge (supabase/schemas/cdn_purges.sql)
--   (p_org_id uuid, p_include_sitemap boolean DEFAULT false) RETURNS void

COMMENT ON FUNCTION plaudit.request_cdn_purge(p_org_id uuid, p_include_sitemap boolean) IS 'Writes a pending CDN purge of an organization in the caller''s transaction, unless one is pending already.';

-- FUNCTION plaudit.request_sign_in (supabase/schemas/members_sign_in.sql)
--   (p_email text, p_client text, p_link_base text, p_client_limit integer DEFAULT 10) RETURNS text

COMMENT ON FUNCTION plaudit.request_sign_in(p_email text, p_client text, p_link_base text, p_client_limit integer) IS 'Asks for a sign-in mail to a member''s address, rate-limited; answers rate_limited, unknown, throttled or sent.';

-- FUNCTION plaudit.resolve_review_report (supabase/schemas/shopper_signals.sql)
--   (p_id uuid, p_resolution text, p_actor text, p_decision text DEFAULT 'kept'::text) RETURNS uuid

COMMENT ON FUNCTION plaudit.resolve_review_report(p_id uuid, p_resolution text, p_actor text, p_decision text) IS 'Resolves a report of the tenant with its decision (hidden hides the review, in the trail) and mails the reporter; answers its id, or null.';

-- FUNCTION plaudit.review_appeal_json (supabase/schemas/appeals.sql)
--   (p_id uuid) RETURNS json

COMMENT ON FUNCTION plaudit.review_appeal_json(p_id uuid) IS 'An appeal of the caller''s tenant as the API answers it, with its review and statement; null when there is none.';

-- FUNCTION plaudit.review_event_forgotten (supabase/schemas/privacy.sql)
--   (p_data jsonb, p_redact boolean) RETURNS jsonb

COMMENT ON FUNCTION plaudit.review_event_forgotten(p_data jsonb, p_redact boolean) IS 'A review event''s data with the reviewer forgotten: name Anonymous, no address or answers, the text removed on request.';

-- FUNCTION plaudit.review_feed_state (supabase/schemas/google_product_feed.sql)
--   (p_slug text, p_feed text) RETURNS json

COMMENT ON FUNCTION plaudit.review_feed_state(p_slug text, p_feed text) IS 'Whether a slug''s review feed (google or meta) is published, with the business''s name, the feed''s version and when it last changed.';

-- FUNCTION plaudit.review_feeds_report (supabase/schemas/meta_review_feed.sql)
--   (p_slug text) RETURNS json

COMMENT ON FUNCTION plaudit.review_feeds_report(p_slug text) IS 'How many reviews each review feed (google, meta) holds and leaves out, by reason; null unless a feed is published.';

-- FUNCTION plaudit.review_forms_stay_deleted (supabase/schemas/review_forms.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.review_forms_stay_deleted() IS 'A deleted form stays deleted: nothing can bring it back or change it afterwards.';

-- FUNCTION plaudit.review_has_public_media (supabase/schemas/review_media.sql)
--   (p_review_id uuid) RETURNS boolean

COMMENT ON FUNCTION plaudit.review_has_public_media(p_review_id uuid) IS 'Whether a review has a photo or video the public may see.';

-- FUNCTION plaudit.review_hold_event (supabase/schemas/review_holds.sql)
--   (p_hold plaudit.review_holds) RETURNS jsonb

COMMENT ON FUNCTION plaudit.review_hold_event(p_hold plaudit.review_holds) IS 'The reviews.burst_detected payload of a hold, also its mail''s data.';

-- FUNCTION plaudit.review_hold_json (supabase/schemas/review_holds.sql)
--   (p_id uuid) RETURNS json

COMMENT ON FUNCTION plaudit.review_hold_json(p_id uuid) IS 'A hold of the caller''s tenant as the API answers it, with its held reviews; null when there is none.';

-- FUNCTION plaudit.review_hold_subject_json (supabase/schemas/review_holds.sql)
--   (p_org_id uuid, p_subject text) RETURNS jsonb

COMMENT ON FUNCTION plaudit.review_hold_subject_json(p_org_id uuid, p_subject text) IS 'A hold''s subject as the API names it: the business, a product or a product group, with its name.';

-- FUNCTION plaudit.review_hold_thresholds (supabase/schemas/review_holds.sql)
--   (p_org_id uuid) RETURNS TABLE(min_reviews integer, min_addresses integer, median_factor numeric, min_low_share numeric)

COMMENT ON FUNCTION plaudit.review_hold_thresholds(p_org_id uuid) IS 'An organization''s review bombing thresholds: its settings, else the defaults.';

-- FUNCTION plaudit.review_holds_version (supabase/schemas/review_holds.sql)
--   (p_org_id uuid) RETURNS bigint

COMMENT ON FUNCTION plaudit.review_holds_version(p_org_id uuid) IS 'Moves when a hold of the organization opens or is released: a part of its public answers'' version.';

-- FUNCTION plaudit.review_is_held (supabase/schemas/review_holds.sql)
--   (p_review_id uuid) RETURNS boolean

COMMENT ON FUNCTION plaudit.review_is_held(p_review_id uuid) IS 'Whether a review is held for a check now.';

-- FUNCTION plaudit.review_is_incentivized (supabase/schemas/google_product_feed.sql)
--   (r plaudit.reviews) RETURNS boolean

COMMENT ON FUNCTION plaudit.review_is_incentivized(r plaudit.reviews) IS 'Whether a review was collected with an incentive: the Google feed''s is_incentivized_review.';

-- FUNCTION plaudit.review_json (supabase/schemas/one_statement_reads.sql)
--   (r plaudit.reviews, reply plaudit.review_replies) RETURNS text

COMMENT ON FUNCTION plaudit.review_json(r plaudit.reviews, reply plaudit.review_replies) IS 'The organization''s Review as compact JSON: the one writer of it, for every route and the JSON export.';

-- FUNCTION plaudit.review_leaves_summaries (supabase/schemas/review_summaries.sql)
--   (p_old plaudit.reviews, p_new plaudit.reviews) RETURNS boolean

COMMENT ON FUNCTION plaudit.review_leaves_summaries(p_old plaudit.reviews, p_new plaudit.reviews) IS 'Whether a review''s change takes it out of the summaries: no longer published, or its words or author changed.';

-- FUNCTION plaudit.review_media_access (supabase/schemas/review_media.sql)
--   (p_review_id uuid, p_token_hash bytea, OUT org_id uuid, OUT refusal text) RETURNS record

COMMENT ON FUNCTION plaudit.review_media_access(p_review_id uuid, p_token_hash bytea, OUT org_id uuid, OUT refusal text) IS 'Whether the upload token or the caller''s tenant may add media to a review: its organization, or why not.';

-- FUNCTION plaudit.review_media_item_json (supabase/schemas/review_media.sql)
--   (p_media_id uuid) RETURNS text

COMMENT ON FUNCTION plaudit.review_media_item_json(p_media_id uuid) IS 'One media item as the organization''s Review shows it.';

-- FUNCTION plaudit.review_media_json (supabase/schemas/public_profiles.sql)
--   (p_review_id uuid, p_public boolean) RETURNS text

COMMENT ON FUNCTION plaudit.review_media_json(p_review_id uuid, p_public boolean) IS 'A review''s photos and videos as a JSON array in upload order: all of them with is_hidden, or the public''s visible ones.';

-- FUNCTION plaudit.review_order_id (supabase/schemas/one_statement_reads.sql)
--   (p_review_id uuid) RETURNS text

COMMENT ON FUNCTION plaudit.review_order_id(p_review_id uuid) IS 'The order id of the review request a review was written through, if it names one.';

-- FUNCTION plaudit.review_product_json (supabase/schemas/one_statement_reads.sql)
--   (p_product_id uuid) RETURNS text

COMMENT ON FUNCTION plaudit.review_product_json(p_product_id uuid) IS 'A reviewed product as the Review''s `product` writes it.';

-- FUNCTION plaudit.review_replies_record (supabase/schemas/review_replies.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.review_replies_record() IS 'Every reply written, edited or withdrawn gets its trail entry, its review.replied event and a new public version.';

-- FUNCTION plaudit.review_report_json (supabase/schemas/shopper_signals.sql)
--   (p_report_id uuid) RETURNS json

COMMENT ON FUNCTION plaudit.review_report_json(p_report_id uuid) IS 'A review report of the caller''s tenant as the API answers it, with the review it is about.';

-- FUNCTION plaudit.review_request_automation_of (supabase/schemas/orders_timeline.sql)
--   (p_org_id uuid) RETURNS plaudit.review_request_automation

COMMENT ON FUNCTION plaudit.review_request_automation_of(p_org_id uuid) IS 'An organization''s review-request automation, or the defaults (off, fulfilled, 7 days, no form, nothing excluded).';

-- FUNCTION plaudit.review_request_email_withdrawal (supabase/schemas/team_invitations.sql)
--   (p_org_id uuid, p_template text, p_to text, p_data jsonb) RETURNS text

COMMENT ON FUNCTION plaudit.review_request_email_withdrawal(p_org_id uuid, p_template text, p_to text, p_data jsonb) IS 'Why a review-request e-mail must not go out any more, or null when it may.';

-- FUNCTION plaudit.review_request_from_token (supabase/schemas/review_requests.sql)
--   (p_token text) RETURNS uuid

COMMENT ON FUNCTION plaudit.review_request_from_token(p_token text) IS 'The request id a token stands for, or null when it is malformed or its MAC does not match.';

-- FUNCTION plaudit.review_request_landing (supabase/schemas/hosted_review_pages.sql)
--   (p_token text) RETURNS TABLE(request_id uuid, status text, name text, email text, order_id text, locale text, form_id uuid, form_name text,
--     form_active boolean, verification_mode text, custom_fields jsonb, org_name text, logo_url text, website text, profile_slug text)

COMMENT ON FUNCTION plaudit.review_request_landing(p_token text) IS 'The landing page of /r/:token: the request''s recipient (prefilled), its form and organization, with where its thank-you page leads back to.';

-- FUNCTION plaudit.review_request_links (supabase/schemas/review_requests.sql)
--   (p_request_id uuid, p_link_base text) RETURNS jsonb

COMMENT ON FUNCTION plaudit.review_request_links(p_request_id uuid, p_link_base text) IS 'The links of a request''s e-mails, for the templates.';

-- FUNCTION plaudit.review_request_product_names (supabase/schemas/hosted_review_pages.sql)
--   (p_request_id uuid) RETURNS jsonb

COMMENT ON FUNCTION plaudit.review_request_product_names(p_request_id uuid) IS 'The names of the products a review request names, in order, for its e-mails.';

-- FUNCTION plaudit.review_request_status_rank (supabase/schemas/review_requests.sql)
--   (p_status text) RETURNS integer

COMMENT ON FUNCTION plaudit.review_request_status_rank(p_status text) IS 'The rank of a review-request status in the lifecycle''s precedence; null for an event that is not a status.';

-- FUNCTION plaudit.review_request_subjects (supabase/schemas/hosted_review_pages.sql)
--   (p_token text) RETURNS TABLE(product_position integer, product_external_id text, name text, image_url text, reviewed boolean)

COMMENT ON FUNCTION plaudit.review_request_subjects(p_token text) IS 'The subjects the page of /r/:token asks about (its products in order, then the business), and which were reviewed through it.';

-- FUNCTION plaudit.review_request_token (supabase/schemas/review_requests.sql)
--   (p_request_id uuid) RETURNS text

COMMENT ON FUNCTION plaudit.review_request_token(p_request_id uuid) IS 'The token of a review request''s links: its id and a MAC of it, in base64url.';

-- FUNCTION plaudit.review_request_unsubscribe_info (supabase/schemas/hosted_review_pages.sql)
--   (p_token text) RETURNS TABLE(email text, org_name text, suppressed boolean)

COMMENT ON FUNCTION plaudit.review_request_unsubscribe_info(p_token text) IS 'The unsubscribe page: who would be unsubscribed, from which organization.';

-- FUNCTION plaudit.review_requests_guard_update (supabase/schemas/review_requests.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.review_requests_guard_update() IS 'A review request keeps its recipient, form and organization, and its status never moves backwards.';

-- FUNCTION plaudit.review_statements_json (supabase/schemas/statements_of_reasons.sql)
--   (p_review_id uuid) RETURNS json

COMMENT ON FUNCTION plaudit.review_statements_json(p_review_id uuid) IS 'The statements of reasons of a review of the caller''s tenant, newest first; null when it is not the tenant''s.';

-- FUNCTION plaudit.review_subject (supabase/schemas/submission_checks.sql)
--   (p_product_id uuid) RETURNS text

COMMENT ON FUNCTION plaudit.review_subject(p_product_id uuid) IS 'The burst subject of a review of this product: its group, the product, or the business for none.';

-- FUNCTION plaudit.review_summaries_due (supabase/schemas/review_summaries.sql)
--   (p_limit integer, p_org_ids uuid[] DEFAULT NULL::uuid[]) RETURNS TABLE(org_id uuid, product_id uuid, group_key text, published bigint)

COMMENT ON FUNCTION plaudit.review_summaries_due(p_limit integer, p_org_ids uuid[]) IS 'The businesses, products and groups whose summary is due: 5 published reviews or more, none yet or 10 % more since.';

-- FUNCTION plaudit.review_summaries_forget (supabase/schemas/review_summaries.sql)
--   (p_org_id uuid, p_review_ids uuid[]) RETURNS void

COMMENT ON FUNCTION plaudit.review_summaries_forget(p_org_id uuid, p_review_ids uuid[]) IS 'Takes reviews out of their organization''s summaries: citations, quoting sentences, topics and counts.';

-- FUNCTION plaudit.review_summary_inputs (supabase/schemas/review_summaries.sql)
--   (p_org_id uuid, p_product_id uuid, p_group_key text) RETURNS TABLE(id uuid, rating smallint, title text, content text, language text)

COMMENT ON FUNCTION plaudit.review_summary_inputs(p_org_id uuid, p_product_id uuid, p_group_key text) IS 'The published reviews of a business (its own) or of a product or group, which its summary is made from.';

-- FUNCTION plaudit.review_summary_product_ids (supabase/schemas/review_summaries.sql)
--   (p_org_id uuid, p_product_id uuid, p_group_key text) RETURNS uuid[]

COMMENT ON FUNCTION plaudit.review_summary_product_ids(p_org_id uuid, p_product_id uuid, p_group_key text) IS 'The products a summary covers: a group''s members, or the product; null for the business''s.';

-- FUNCTION plaudit.review_summary_topics (supabase/schemas/review_summaries.sql)
--   (p_evidence jsonb) RETURNS jsonb

COMMENT ON FUNCTION plaudit.review_summary_topics(p_evidence jsonb) IS 'A summary''s topics from their evidence: each review counted once, the first 20 ids, most mentioned first.';

-- FUNCTION plaudit.reviewer_data (supabase/schemas/privacy.sql)
--   (p_email text) RETURNS json

COMMENT ON FUNCTION plaudit.reviewer_data(p_email text) IS 'Everything the transaction''s tenant holds about an address, as JSON, and nothing about anyone else.';

-- FUNCTION plaudit.reviews_complete_review_requests (supabase/schemas/review_request_tracking.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.reviews_complete_review_requests() IS 'A new review completes its organization''s open requests for the same address and form.';

-- FUNCTION plaudit.reviews_count_inserted (supabase/schemas/review_statistics.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.reviews_count_inserted() IS 'The review statistics count every review an insert statement makes, in its transaction.';

-- FUNCTION plaudit.reviews_count_updated (supabase/schemas/review_statistics.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.reviews_count_updated() IS 'The review statistics follow every update that moves a review in or out of public view.';

-- FUNCTION plaudit.reviews_emit_changes (supabase/schemas/moderation_trail.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.reviews_emit_changes() IS 'Every change of a review''s visibility or verification status emits review.moderated or review.verified.';

-- FUNCTION plaudit.reviews_emit_created (supabase/schemas/reviews.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.reviews_emit_created() IS 'Every inserted review but an imported one gets its review.created event, in the transaction that inserts it.';

-- FUNCTION plaudit.reviews_guard_update (supabase/schemas/reviews.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.reviews_guard_update() IS 'A review is never rewritten: only the columns moderation, verification, helpful votes and forgetting the reviewer own may change, each as its rule allows, whoever asks.';

-- FUNCTION plaudit.reviews_leave_summaries (supabase/schemas/review_summaries.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.reviews_leave_summaries() IS 'A cited review hidden, rejected, erased or changed leaves its organization''s summaries at once.';

-- FUNCTION plaudit.reviews_record_moderation (supabase/schemas/moderation_trail.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.reviews_record_moderation() IS 'Every hide, unhide and verification decision on a review is appended to its organization''s moderation trail.';

-- FUNCTION plaudit.reviews_refuse_delete (supabase/schemas/reviews.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.reviews_refuse_delete() IS 'Reviews are never deleted or truncated, whoever asks: moderation hides them instead.';

-- FUNCTION plaudit.reviews_state_reasons (supabase/schemas/statements_of_reasons.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.reviews_state_reasons() IS 'Every hide of a review writes its statement of reasons and mails it, with an appeal link, to a reviewer with an address.';

-- FUNCTION plaudit.ring_worker (supabase/schemas/schedules.sql)
--   () RETURNS bigint

COMMENT ON FUNCTION plaudit.ring_worker() IS 'pg_cron''s bell on hosted Supabase: POSTs to the worker''s URL (plaudit.worker_bell, else Vault) through pg_net when something is due; runs with its caller''s rights.';

-- FUNCTION plaudit.rotate_api_key (supabase/schemas/organizations_members_and_keys.sql)
--   (p_key_id uuid, p_grace_seconds integer DEFAULT 0) RETURNS TABLE(id uuid, org_id uuid, name text, scope text, prefix text, key text,
--     rate_limit_per_minute integer, created_at timestamp with time zone, old_key_expires_at timestamp with time zone)

COMMENT ON FUNCTION plaudit.rotate_api_key(p_key_id uuid, p_grace_seconds integer) IS 'Revokes a key, at once or after p_grace_seconds, and issues its successor (same name, scope and limit) in one transaction.';

-- FUNCTION plaudit.rotate_webhook_secret (supabase/schemas/webhooks.sql)
--   (p_endpoint_id uuid) RETURNS TABLE(id uuid, secret text, previous_secret_expires_at timestamp with time zone)

COMMENT ON FUNCTION plaudit.rotate_webhook_secret(p_endpoint_id uuid) IS 'Issues a new signing secret for an endpoint of the caller''s tenant; the old one keeps signing alongside for 24 hours.';

-- FUNCTION plaudit.run_connection_maintenance (supabase/schemas/shop_connections.sql)
--   () RETURNS void

COMMENT ON FUNCTION plaudit.run_connection_maintenance() IS 'Drops the payloads of connection events processed over 30 days ago, and the events over 90 days old.';

-- FUNCTION plaudit.run_delivery_maintenance (supabase/schemas/schedules.sql)
--   () RETURNS void

COMMENT ON FUNCTION plaudit.run_delivery_maintenance() IS 'Housekeeping of the delivery tables: drops expired rotation secrets and export files, and old deliveries, events, e-mails and CDN purges.';

-- FUNCTION plaudit.run_exports (supabase/schemas/exports.sql)
--   (p_budget_ms integer DEFAULT 2000, p_rows integer DEFAULT 10000) RETURNS integer

COMMENT ON FUNCTION plaudit.run_exports(p_budget_ms integer, p_rows integer) IS 'Works through pending exports, oldest first, until p_budget_ms has passed; answers how many still wait.';

-- FUNCTION plaudit.run_imports (supabase/schemas/imports.sql)
--   (p_budget_ms integer DEFAULT 2000, p_rows integer DEFAULT 2000, p_org_ids uuid[] DEFAULT NULL::uuid[]) RETURNS integer

COMMENT ON FUNCTION plaudit.run_imports(p_budget_ms integer, p_rows integer, p_org_ids uuid[]) IS 'Applies waiting imports a batch at a time, the organization served longest ago first, until the time budget is spent; completes each with its event and chain entry.';

-- FUNCTION plaudit.run_maintenance (supabase/schemas/authentication_and_rate_limits.sql)
--   () RETURNS void

COMMENT ON FUNCTION plaudit.run_maintenance() IS 'Housekeeping that runs every minute: prunes the rate-limit windows.';

-- FUNCTION plaudit.run_review_request_maintenance (supabase/schemas/review_requests.sql)
--   () RETURNS void

COMMENT ON FUNCTION plaudit.run_review_request_maintenance() IS 'What runs every minute for review requests: due reminders, and idempotency keys past their 24 hours.';

-- FUNCTION plaudit.save_review_summary (supabase/schemas/review_summaries.sql)
--   (p_org_id uuid, p_product_id uuid, p_group_key text, p_language text, p_sentences jsonb, p_evidence jsonb, p_input_ids uuid[], p_review_count integer) RETURNS uuid

COMMENT ON FUNCTION plaudit.save_review_summary(p_org_id uuid, p_product_id uuid, p_group_key text, p_language text, p_sentences jsonb, p_evidence jsonb,
    p_input_ids uuid[], p_review_count integer) IS 'Saves a subject''s summary in place of the last, checking its citations, with a summarize entry in the trail.';

-- FUNCTION plaudit.session_for_read (supabase/schemas/members_sign_in.sql)
--   (p_token_hash bytea, p_org_id uuid, p_rate_limit integer) RETURNS TABLE(org_id uuid, scope text, within_limit boolean)

COMMENT ON FUNCTION plaudit.session_for_read(p_token_hash bytea, p_org_id uuid, p_rate_limit integer) IS 'As plaudit.api_key_for_read, for a session: its person''s organization and scope, and whether requests are left this minute.';

-- FUNCTION plaudit.session_idle_timeout (supabase/schemas/members_sign_in.sql)
--   () RETURNS interval

COMMENT ON FUNCTION plaudit.session_idle_timeout() IS 'How long a session may sit unused: 7 days.';

-- FUNCTION plaudit.session_summary (supabase/schemas/members_sign_in.sql)
--   (p_token_hash bytea) RETURNS json

COMMENT ON FUNCTION plaudit.session_summary(p_token_hash bytea) IS 'What the dashboard knows of its session: the person and every organization they belong to.';

-- FUNCTION plaudit.set_restriction (supabase/schemas/statements_of_reasons.sql)
--   (p_source text, p_ground_type text, p_ground text, p_automated boolean, p_report_id uuid DEFAULT NULL::uuid) RETURNS void

COMMENT ON FUNCTION plaudit.set_restriction(p_source text, p_ground_type text, p_ground text, p_automated boolean, p_report_id uuid) IS 'Sets, for the transaction, where the next hide''s statement of reasons comes from and on what ground; nulls clear it.';

-- FUNCTION plaudit.shopify_write_back_on_rating_change (supabase/schemas/shopify_write_back.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.shopify_write_back_on_rating_change() IS 'Asks for a product''s rating metafields to be written to each Shopify connection with an access token, once while one is pending.';

-- FUNCTION plaudit.sign_in_code_hash (supabase/schemas/members_sign_in.sql)
--   (p_challenge_id uuid, p_code text) RETURNS bytea

COMMENT ON FUNCTION plaudit.sign_in_code_hash(p_challenge_id uuid, p_code text) IS 'The hash of a challenge''s code: salted with the challenge, so equal codes hash apart.';

-- FUNCTION plaudit.sign_up (supabase/schemas/members_sign_in.sql)
--   (p_org_name text, p_slug text, p_email text, p_name text, p_client text, p_link_base text, p_client_limit integer DEFAULT 10) RETURNS text

COMMENT ON FUNCTION plaudit.sign_up(p_org_name text, p_slug text, p_email text, p_name text, p_client text, p_link_base text, p_client_limit integer) IS 'Creates an organization with its person as the owner, then sends them a sign-in mail.';

-- FUNCTION plaudit.signal_target (supabase/schemas/shopper_signals.sql)
--   (p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid) RETURNS TABLE(rate_allowed boolean, rate_remaining integer,
--     rate_reset bigint, id uuid, org_id uuid, form_id uuid, product_id uuid)

COMMENT ON FUNCTION plaudit.signal_target(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid) IS 'Counts a public signal''s hit in its address''s window and finds the published review it names, within the limit.';

-- FUNCTION plaudit.skip_order (supabase/schemas/orders_timeline.sql)
--   (o plaudit.orders, p_reason text, p_event_id bigint) RETURNS void

COMMENT ON FUNCTION plaudit.skip_order(o plaudit.orders, p_reason text, p_event_id bigint) IS 'Records why an order makes no review request, once, and emits order.skipped.';

-- FUNCTION plaudit.statement_json (supabase/schemas/statements_of_reasons.sql)
--   (p_statement plaudit.review_statements) RETURNS json

COMMENT ON FUNCTION plaudit.statement_json(p_statement plaudit.review_statements) IS 'A statement of reasons as the API answers it.';

-- FUNCTION plaudit.store_connection_event (supabase/schemas/shop_connections.sql)
--   (c plaudit.connections, p_delivery_id text, p_topic text, p_payload jsonb, p_settled text) RETURNS text

COMMENT ON FUNCTION plaudit.store_connection_event(c plaudit.connections, p_delivery_id text, p_topic text, p_payload jsonb, p_settled text) IS 'Stores a signed event of an active connection once per delivery id and wakes the worker; answers the outcome.';

-- FUNCTION plaudit.store_submitted_review (supabase/schemas/review_submission.sql)
--   (p_review plaudit.review_submission, p_rate_bucket text, p_rate_limit integer, p_verify_url_base text,
--     p_request_id uuid) RETURNS TABLE(rate_allowed boolean, rate_remaining integer, rate_reset bigint, error_code text, error_message text,
--     error_constraint text, error_table text, id uuid, form_id uuid, rating integer, title text, content text, reviewer_name text, reviewer_email text,
--     verification_status text, is_hidden boolean, created_at timestamp with time zone, custom_fields jsonb, verification_method text,
--     verification_at timestamp with time zone, review text)

COMMENT ON FUNCTION plaudit.store_submitted_review(p_review plaudit.review_submission, p_rate_bucket text, p_rate_limit integer, p_verify_url_base text, p_request_id uuid) IS 'Stores a form''s submission, or a checked token''s request''s; no role may call it.';

-- FUNCTION plaudit.subject_under_check (supabase/schemas/review_holds.sql)
--   (p_org_id uuid, p_product_id uuid) RETURNS boolean

COMMENT ON FUNCTION plaudit.subject_under_check(p_org_id uuid, p_product_id uuid) IS 'Whether the business''s or a product''s public pages show the notice of a burst being checked.';

-- FUNCTION plaudit.submission_hold (supabase/schemas/submission_checks.sql)
--   (p_org_id uuid, p_product_id uuid, p_content text, p_order_id text) RETURNS TABLE(reason text, hold_id uuid, duplicate_of uuid, similarity real,
--     subject text, order_hash text, sketch bigint[])

COMMENT ON FUNCTION plaudit.submission_hold(p_org_id uuid, p_product_id uuid, p_content text, p_order_id text) IS 'Why a submission is held (a burst''s hold, a reused order, a 90 % alike text; null: not), with its arrival''s subject, order hash and sketch.';

-- FUNCTION plaudit.submit_appeal (supabase/schemas/appeals.sql)
--   (p_token text, p_text text) RETURNS TABLE(outcome text, appeal_id uuid)

COMMENT ON FUNCTION plaudit.submit_appeal(p_token text, p_text text) IS 'Stores the reviewer''s appeal through its statement''s token, once, within its window, in the trail, with its acknowledgement mail.';

-- FUNCTION plaudit.submit_requested_review (supabase/schemas/hosted_review_pages.sql)
--   (p_token text, p_review plaudit.review_submission, p_rate_bucket text, p_rate_limit integer,
--     p_verify_url_base text) RETURNS TABLE(rate_allowed boolean, rate_remaining integer, rate_reset bigint, error_code text, error_message text,
--     error_constraint text, error_table text, id uuid, form_id uuid, rating integer, title text, content text, reviewer_name text, reviewer_email text,
--     verification_status text, is_hidden boolean, created_at timestamp with time zone)

COMMENT ON FUNCTION plaudit.submit_requested_review(p_token text, p_review plaudit.review_submission, p_rate_bucket text, p_rate_limit integer, p_verify_url_base text) IS 'Submits a landing page''s review of the business or of a product the request names, once per subject; completes the request.';

-- FUNCTION plaudit.submit_review (supabase/schemas/review_submission.sql)
--   (p_review plaudit.review_submission, p_rate_bucket text, p_rate_limit integer, p_verify_url_base text) RETURNS TABLE(rate_allowed boolean,
--     rate_remaining integer, rate_reset bigint, error_code text, error_message text, error_constraint text, error_table text, id uuid, form_id uuid,
--     rating integer, title text, content text, reviewer_name text, reviewer_email text, verification_status text, is_hidden boolean,
--     created_at timestamp with time zone, custom_fields jsonb, verification_method text, verification_at timestamp with time zone, review text)

COMMENT ON FUNCTION plaudit.submit_review(p_review plaudit.review_submission, p_rate_bucket text, p_rate_limit integer, p_verify_url_base text) IS 'Submits a public review of a form in one round trip; answers the review or the refusal as the database raised it.';

-- FUNCTION plaudit.submitted_order_hash (supabase/schemas/submission_checks.sql)
--   (p_org_id uuid, p_order_id text) RETURNS text

COMMENT ON FUNCTION plaudit.submitted_order_hash(p_org_id uuid, p_order_id text) IS 'The hash a submission''s order id is kept as for the reused-order check, without a leading #; null for none.';

-- FUNCTION plaudit.suppression_reason (supabase/schemas/review_request_tracking.sql)
--   (p_org_id uuid, p_email text) RETURNS text

COMMENT ON FUNCTION plaudit.suppression_reason(p_org_id uuid, p_email text) IS 'The reason the organization suppresses an address, or null when it does not.';

-- FUNCTION plaudit.sync_connection_product (supabase/schemas/shop_connections.sql)
--   (p_connection_id uuid, p_product jsonb, p_deleted boolean) RETURNS text

COMMENT ON FUNCTION plaudit.sync_connection_product(p_connection_id uuid, p_product jsonb, p_deleted boolean) IS 'A connection''s product event: upserts the product by external_id, or archives it; answers the outcome.';

-- FUNCTION plaudit.take_review_request_quota (supabase/schemas/review_requests.sql)
--   (p_org_id uuid, p_count integer) RETURNS integer

COMMENT ON FUNCTION plaudit.take_review_request_quota(p_org_id uuid, p_count integer) IS 'Takes p_count requests from today''s quota and answers what remains, or raises program_limit_exceeded and takes nothing.';

-- FUNCTION plaudit.text_sketch (supabase/schemas/submission_checks.sql)
--   (p_text text) RETURNS bigint[]

COMMENT ON FUNCTION plaudit.text_sketch(p_text text) IS 'A text''s bottom-8 sketch: the smallest hashes of its three-word shingles, lowercased; what the duplicate check looks reviews up by.';

-- FUNCTION plaudit.touch_updated_at (supabase/schemas/tenancy.sql)
--   () RETURNS trigger

COMMENT ON FUNCTION plaudit.touch_updated_at() IS 'Keeps updated_at honest on every table that has one: an update sets it to now().';

-- FUNCTION plaudit.track_review_request (supabase/schemas/review_request_tracking.sql)
--   (p_token text, p_kind text) RETURNS boolean

COMMENT ON FUNCTION plaudit.track_review_request(p_token text, p_kind text) IS 'Counts an open or a click of a request''s link, the first of each an event of its timeline; answers whether the token was valid.';

-- FUNCTION plaudit.unsubscribe_review_request (supabase/schemas/hosted_review_pages.sql)
--   (p_token text) RETURNS text

COMMENT ON FUNCTION plaudit.unsubscribe_review_request(p_token text) IS 'Puts a request''s address on its organization''s suppression list; answers unsubscribed, already or invalid.';

-- FUNCTION plaudit.upsert_orders (supabase/schemas/verification.sql)
--   (p_org_id uuid, p_orders jsonb) RETURNS TABLE(inserted integer, updated integer)

COMMENT ON FUNCTION plaudit.upsert_orders(p_org_id uuid, p_orders jsonb) IS 'Inserts or updates up to 1,000 orders of an organization, replacing their items; answers how many were inserted and how many updated.';

-- FUNCTION plaudit.upsert_products (supabase/schemas/products.sql)
--   (p_rows jsonb) RETURNS TABLE(idx integer, outcome text, error text)

COMMENT ON FUNCTION plaudit.upsert_products(p_rows jsonb) IS 'Adds or updates up to 1,000 products of the transaction''s tenant by external_id; answers each row''s outcome (created, updated, unchanged) or why it was refused.';

-- FUNCTION plaudit.uri_component (supabase/schemas/google_product_feed.sql)
--   (t text) RETURNS text

COMMENT ON FUNCTION plaudit.uri_component(t text) IS 'Text percent-encoded as encodeURIComponent encodes it.';

-- FUNCTION plaudit.verification_link_state (supabase/schemas/hosted_review_pages.sql)
--   (p_token text) RETURNS TABLE(state text, org_name text)

COMMENT ON FUNCTION plaudit.verification_link_state(p_token text) IS 'The state of an e-mail verification link and the organization''s name, without spending the link.';

-- FUNCTION plaudit.verify_moderation_chain (supabase/schemas/moderation_trail.sql)
--   (p_org_id uuid) RETURNS TABLE(valid boolean, entries bigint, broken_seq bigint, broken_entry_id uuid, problem text)

COMMENT ON FUNCTION plaudit.verify_moderation_chain(p_org_id uuid) IS 'Recomputes an organization''s moderation chain and answers whether it verifies, or the first entry that does not and why.';

-- FUNCTION plaudit.verify_review_by_order (supabase/schemas/verification.sql)
--   (p_review_id uuid, p_order_id text, p_key_id uuid) RETURNS SETOF plaudit.reviews

COMMENT ON FUNCTION plaudit.verify_review_by_order(p_review_id uuid, p_order_id text, p_key_id uuid) IS 'Verifies a pending review by purchase proof: the order must be its organization''s, the reviewer''s when it has an e-mail, and hold the reviewed product or its group when it lists items.';

-- FUNCTION plaudit.verify_review_by_token (supabase/schemas/verification.sql)
--   (p_token text, p_review_id uuid DEFAULT NULL::uuid, p_key_id uuid DEFAULT NULL::uuid) RETURNS TABLE(outcome text, review_id uuid)

COMMENT ON FUNCTION plaudit.verify_review_by_token(p_token text, p_review_id uuid, p_key_id uuid) IS 'Spends an e-mail verification token; answers the outcome and the review concerned.';

-- FUNCTION plaudit.verify_review_link (supabase/schemas/hosted_review_pages.sql)
--   (p_token text) RETURNS TABLE(outcome text, org_name text)

COMMENT ON FUNCTION plaudit.verify_review_link(p_token text) IS 'Spends an e-mail verification token from the hosted page; answers the outcome and the organization''s name.';

-- FUNCTION plaudit.verify_sign_in (supabase/schemas/members_sign_in.sql)
--   (p_token text, p_email text, p_code text, p_user_agent text) RETURNS TABLE(outcome text, session_token text)

COMMENT ON FUNCTION plaudit.verify_sign_in(p_token text, p_email text, p_code text, p_user_agent text) IS 'Signs in with a mail''s link token, or address and code; answers the outcome and the new session''s token.';

-- FUNCTION plaudit.version_at_least (supabase/schemas/schedules.sql)
--   (p_version text, p_minimum integer[]) RETURNS boolean

COMMENT ON FUNCTION plaudit.version_at_least(p_version text, p_minimum integer[]) IS 'Whether a version string (its leading dotted numbers: 1.4-1 reads as 1.4) is at least the given numbers.';

-- FUNCTION plaudit.visitor_hashes (supabase/schemas/shopper_signals.sql)
--   (p_review_id uuid, p_visitor bytea) RETURNS bytea[]

COMMENT ON FUNCTION plaudit.visitor_hashes(p_review_id uuid, p_visitor bytea) IS 'A visitor''s keyed hashes for a review: under the current period''s key first, then the previous one''s.';

-- FUNCTION plaudit.vote_answer_helpful (supabase/schemas/question_answers.sql)
--   (p_rate_bucket text, p_rate_limit integer, p_slug text, p_question_id uuid, p_answer_id uuid, p_visitor bytea) RETURNS TABLE(rate_allowed boolean,
--     rate_remaining integer, rate_reset bigint, published boolean, helpful_count integer)

COMMENT ON FUNCTION plaudit.vote_answer_helpful(p_rate_bucket text, p_rate_limit integer, p_slug text, p_question_id uuid, p_answer_id uuid, p_visitor bytea) IS 'Counts a visitor''s helpful vote on a visible answer once, limited per address; answers the answer''s count.';

-- FUNCTION plaudit.vote_helpful (supabase/schemas/shopper_signals.sql)
--   (p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea) RETURNS TABLE(rate_allowed boolean,
--     rate_remaining integer, rate_reset bigint, published boolean, helpful_count integer)

COMMENT ON FUNCTION plaudit.vote_helpful(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea) IS 'Counts a visitor''s helpful vote on a published review once, limited per address; answers the review''s count.';

-- FUNCTION plaudit.webhook_payload (supabase/schemas/webhooks.sql)
--   (p_type text, p_at timestamp with time zone, p_data jsonb) RETURNS text

COMMENT ON FUNCTION plaudit.webhook_payload(p_type text, p_at timestamp with time zone, p_data jsonb) IS 'An event''s delivery body: {"event","timestamp","data"}, in that order, compact.';

-- FUNCTION plaudit.webhook_signatures (supabase/schemas/webhooks.sql)
--   (p_secret text, p_previous_secret text, p_previous_expires_at timestamp with time zone, p_message_id text, p_timestamp bigint, p_body text,
--     OUT signature_hex text, OUT previous_signature_hex text, OUT webhook_signature text) RETURNS record

COMMENT ON FUNCTION plaudit.webhook_signatures(p_secret text, p_previous_secret text, p_previous_expires_at timestamp with time zone, p_message_id text,
    p_timestamp bigint, p_body text, OUT signature_hex text, OUT previous_signature_hex text, OUT webhook_signature text) IS 'The signatures of one delivery attempt, hex and Standard Webhooks, with each live secret.';

-- FUNCTION plaudit.withdraw_review_reply (supabase/schemas/review_replies.sql)
--   (p_review_id uuid, p_actor text) RETURNS boolean

COMMENT ON FUNCTION plaudit.withdraw_review_reply(p_review_id uuid, p_actor text) IS 'Withdraws the reply to a review of the caller''s tenant; answers whether there was one.';

-- FUNCTION plaudit.worker_is_due (supabase/schemas/schedules.sql)
--   () RETURNS boolean

COMMENT ON FUNCTION plaudit.worker_is_due() IS 'Whether the worker has anything due now: deliveries, e-mails, exports, and CDN purges where the bell counts them.';

-- FUNCTION plaudit.write_business_answer (supabase/schemas/question_answers.sql)
--   (p_question_id uuid, p_content text, p_actor text) RETURNS TABLE(answer_id uuid, created boolean)

COMMENT ON FUNCTION plaudit.write_business_answer(p_question_id uuid, p_content text, p_actor text) IS 'Writes the business''s one answer to a question of the caller''s tenant, or replaces its text; answers its id and whether it was made now.';

-- FUNCTION plaudit.xml_element_or_nothing (supabase/schemas/google_product_feed.sql)
--   (name text, data text) RETURNS text

COMMENT ON FUNCTION plaudit.xml_element_or_nothing(name text, data text) IS 'An XML element around character data, or the empty string when the data is null or blank.';

-- FUNCTION plaudit.xml_text (supabase/schemas/google_product_feed.sql)
--   (t text) RETURNS text

COMMENT ON FUNCTION plaudit.xml_text(t text) IS 'Text as XML 1.0 character data: forbidden characters dropped, &, < and > escaped.';

CREATE TABLE plaudit.answer_votes (
    answer_id uuid NOT NULL,
    org_id uuid NOT NULL,
    visitor_hash bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT answer_votes_visitor_hash_check CHECK ((octet_length(visitor_hash) = 32))
);

COMMENT ON TABLE plaudit.answer_votes IS 'Helpful votes on answers: one per visitor and answer, the visitor kept only as a keyed hash.';

CREATE TABLE plaudit.api_keys (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    name text NOT NULL,
    scope text NOT NULL,
    prefix text NOT NULL,
    key_hash bytea NOT NULL,
    rate_limit_per_minute integer,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_used_at timestamp with time zone,
    revoked_at timestamp with time zone,
    replaced_by uuid,
    CONSTRAINT api_keys_key_hash_check CHECK ((octet_length(key_hash) = 32)),
    CONSTRAINT api_keys_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 100))),
    CONSTRAINT api_keys_prefix_check CHECK ((prefix ~ '^rk_[0-9A-Za-z]{8}$'::text)),
    CONSTRAINT api_keys_rate_limit_per_minute_check CHECK (((rate_limit_per_minute >= 1) AND (rate_limit_per_minute <= 100000))),
    CONSTRAINT api_keys_scope_check CHECK ((scope = ANY (ARRAY['read'::text, 'write'::text, 'admin'::text])))
);

COMMENT ON TABLE plaudit.api_keys IS 'API keys of an organization: only the SHA-256 of each key is kept, with its name, scope, rate limit and revocation.';

CREATE TABLE plaudit.attribute_statistics (
    id bigint NOT NULL,
    org_id uuid NOT NULL,
    product_id uuid,
    key text NOT NULL,
    answer text NOT NULL,
    count bigint DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE plaudit.attribute_statistics IS 'Public reviews per answer of a scale or rating field, for the business (product_id null) or a product, kept by the reviews'' triggers.';

ALTER TABLE plaudit.attribute_statistics ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME plaudit.attribute_statistics_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE plaudit.cdn_purges (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    include_sitemap boolean DEFAULT false NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    locked_until timestamp with time zone,
    claim_token uuid,
    claimed_lsn pg_lsn,
    last_error text,
    sent_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT cdn_purges_last_error_check CHECK ((char_length(last_error) <= 1000)),
    CONSTRAINT cdn_purges_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'sending'::text, 'retrying'::text, 'sent'::text, 'failed'::text])))
);

COMMENT ON TABLE plaudit.cdn_purges IS 'The CDN purge outbox: one pending purge per organization, written in the transaction of the public change, sent by the worker.';

CREATE TABLE plaudit.connection_events (
    id bigint NOT NULL,
    org_id uuid NOT NULL,
    connection_id uuid NOT NULL,
    delivery_id text NOT NULL,
    topic text NOT NULL,
    received_at timestamp with time zone DEFAULT now() NOT NULL,
    payload jsonb,
    outcome text DEFAULT 'accepted'::text NOT NULL,
    attempts smallint DEFAULT 0 NOT NULL,
    locked_until timestamp with time zone,
    processed_at timestamp with time zone,
    CONSTRAINT connection_events_delivery_id_check CHECK (((char_length(delivery_id) >= 1) AND (char_length(delivery_id) <= 200))),
    CONSTRAINT connection_events_outcome_check CHECK (((outcome = ANY (ARRAY['accepted'::text, 'duplicate'::text, 'ignored'::text])) OR ((outcome ~~ 'refused: _%'::text) AND (char_length(outcome) <= 320)))),
    CONSTRAINT connection_events_payload_check CHECK ((octet_length((payload)::text) <= 600000)),
    CONSTRAINT connection_events_topic_check CHECK (((char_length(topic) >= 1) AND (char_length(topic) <= 200)))
);

COMMENT ON TABLE plaudit.connection_events IS 'Every signed event a connection received, with its outcome: accepted (and processed), duplicate, ignored or refused.';

ALTER TABLE plaudit.connection_events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME plaudit.connection_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE plaudit.email_outbox (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    to_address text NOT NULL,
    template text NOT NULL,
    locale text DEFAULT 'en'::text NOT NULL,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    idempotency_key text DEFAULT (gen_random_uuid())::text NOT NULL,
    status text DEFAULT 'queued'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    locked_until timestamp with time zone,
    last_error text,
    provider_message_id text,
    sent_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    claim_token uuid,
    CONSTRAINT email_outbox_locale_check CHECK ((locale ~ '^[a-z]{2}(-[A-Z]{2})?$'::text)),
    CONSTRAINT email_outbox_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'sending'::text, 'sent'::text, 'failed'::text]))),
    CONSTRAINT email_outbox_template_check CHECK ((template ~ '^[a-z_]+$'::text)),
    CONSTRAINT email_outbox_to_address_check CHECK ((char_length(to_address) <= 320))
);

COMMENT ON TABLE plaudit.email_outbox IS 'The e-mail outbox: messages written in the transaction of their cause, then claimed, sent and recorded by the worker.';

CREATE TABLE plaudit.email_suppressions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    email text,
    reason text NOT NULL,
    request_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    email_key bytea NOT NULL,
    CONSTRAINT email_suppressions_email_check CHECK (((char_length(email) <= 320) AND (email ~ '^[^@\s]+@[^@\s]+$'::text))),
    CONSTRAINT email_suppressions_erased_has_no_address CHECK (((reason = 'erased'::text) = (email IS NULL))),
    CONSTRAINT email_suppressions_reason_check CHECK ((reason = ANY (ARRAY['unsubscribed'::text, 'bounced'::text, 'complained'::text, 'manual'::text, 'erased'::text])))
);

COMMENT ON TABLE plaudit.email_suppressions IS 'The suppression list: addresses an organization never sends review requests or reminders to again.';

CREATE TABLE plaudit.events (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    type text NOT NULL,
    data jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT events_type_check CHECK ((type ~ '^[a-z]+(_[a-z]+)*(\.[a-z_]+)+$'::text))
);

COMMENT ON TABLE plaudit.events IS 'The event outbox: each event written in the transaction of the change it announces, then fanned out to webhooks.';

CREATE TABLE plaudit.export_chunks (
    export_id uuid NOT NULL,
    seq integer NOT NULL,
    org_id uuid NOT NULL,
    body text NOT NULL,
    row_count integer DEFAULT 0 NOT NULL,
    last_created_at timestamp with time zone,
    last_review_id uuid
);
ALTER TABLE ONLY plaudit.export_chunks ALTER COLUMN body SET COMPRESSION lz4;

COMMENT ON TABLE plaudit.export_chunks IS 'The file of an export as numbered chunks of text, which the download route streams in order.';
COMMENT ON COLUMN plaudit.export_chunks.last_review_id IS 'With last_created_at: the last review in this chunk, where the next chunk starts after.';

CREATE TABLE plaudit.held_reviews (
    review_id uuid NOT NULL,
    org_id uuid NOT NULL,
    reason text NOT NULL,
    hold_id uuid,
    duplicate_of uuid,
    similarity real,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    resolved_at timestamp with time zone,
    CONSTRAINT held_reviews_cause_check CHECK ((((reason = 'burst'::text) = (hold_id IS NOT NULL)) AND ((reason = 'burst'::text) = (duplicate_of IS NULL)))),
    CONSTRAINT held_reviews_reason_check CHECK ((reason = ANY (ARRAY['burst'::text, 'duplicate_text'::text, 'order_reused'::text]))),
    CONSTRAINT held_reviews_similarity_check CHECK (((similarity >= (0)::double precision) AND (similarity <= (1)::double precision)))
);

COMMENT ON TABLE plaudit.held_reviews IS 'Reviews held as pending at submission (a burst''s hold, a duplicate text, a reused order) until a person approves or rejects them.';

CREATE TABLE plaudit.idempotency_keys (
    org_id uuid NOT NULL,
    key text NOT NULL,
    route text NOT NULL,
    request_hash bytea NOT NULL,
    status_code integer,
    response text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT idempotency_keys_key_check CHECK (((char_length(key) >= 1) AND (char_length(key) <= 255))),
    CONSTRAINT idempotency_keys_request_hash_check CHECK ((octet_length(request_hash) = 32)),
    CONSTRAINT idempotency_keys_route_check CHECK ((char_length(route) <= 200))
);

COMMENT ON TABLE plaudit.idempotency_keys IS 'Idempotency keys of POST requests: the first successful answer per organization and key, with the route and a hash of the request (path and body), kept 24 hours.';

CREATE TABLE plaudit.import_rows (
    import_id uuid NOT NULL,
    org_id uuid NOT NULL,
    row_number integer NOT NULL,
    data jsonb NOT NULL,
    CONSTRAINT import_rows_row_number_check CHECK ((row_number >= 2))
);

COMMENT ON TABLE plaudit.import_rows IS 'The checked rows of an import not applied yet; internal, read by plaudit.run_imports only.';

CREATE TABLE plaudit.invitations (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    email text NOT NULL,
    role text NOT NULL,
    token_hash bytea NOT NULL,
    invited_by_key_id uuid,
    expires_at timestamp with time zone DEFAULT (now() + '7 days'::interval) NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    accepted_at timestamp with time zone,
    revoked_at timestamp with time zone,
    CONSTRAINT invitations_accepted_or_withdrawn CHECK (((accepted_at IS NULL) OR (revoked_at IS NULL))),
    CONSTRAINT invitations_email_check CHECK (((char_length(email) <= 320) AND (email ~ '^[^@\s]+@[^@\s]+$'::text))),
    CONSTRAINT invitations_role_check CHECK ((role = ANY (ARRAY['admin'::text, 'member'::text]))),
    CONSTRAINT invitations_token_hash_check CHECK ((octet_length(token_hash) = 32))
);

COMMENT ON TABLE plaudit.invitations IS 'Invitations to join an organization''s team: the address, the role and the hash of the one-time token.';

CREATE TABLE plaudit.media_upload_tokens (
    review_id uuid NOT NULL,
    org_id uuid NOT NULL,
    token_hash bytea NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT media_upload_tokens_token_hash_check CHECK ((octet_length(token_hash) = 32))
);

COMMENT ON TABLE plaudit.media_upload_tokens IS 'Upload tokens of reviewers (their SHA-256 only): each lets its review take media for 24 hours.';

CREATE TABLE plaudit.members (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    email text NOT NULL,
    name text,
    role text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT members_email_check CHECK (((char_length(email) <= 320) AND (email ~ '^[^@\s]+@[^@\s]+$'::text))),
    CONSTRAINT members_name_check CHECK ((char_length(name) <= 200)),
    CONSTRAINT members_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'admin'::text, 'member'::text])))
);

COMMENT ON TABLE plaudit.members IS 'The people who may act for an organization, each with a role: owner, admin or member.';

CREATE TABLE plaudit.moderation_chain_heads (
    org_id uuid NOT NULL,
    last_seq bigint NOT NULL,
    last_hash bytea NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT moderation_chain_heads_last_hash_check CHECK ((octet_length(last_hash) = 32))
);

COMMENT ON TABLE plaudit.moderation_chain_heads IS 'The head of each organization''s moderation chain: the seq and hash of its last entry.';

CREATE TABLE plaudit.moderation_trail (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    seq bigint NOT NULL,
    review_id uuid,
    action text NOT NULL,
    reason text,
    actor text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    previous_hash bytea NOT NULL,
    hash bytea NOT NULL,
    CONSTRAINT moderation_trail_actor_check CHECK (((char_length(actor) >= 1) AND (char_length(actor) <= 200))),
    CONSTRAINT moderation_trail_hash_check CHECK ((octet_length(hash) = 32)),
    CONSTRAINT moderation_trail_previous_hash_check CHECK ((octet_length(previous_hash) = 32)),
    CONSTRAINT moderation_trail_reason_check CHECK ((char_length(reason) <= 5000)),
    CONSTRAINT moderation_trail_seq_check CHECK ((seq >= 1))
);

COMMENT ON TABLE plaudit.moderation_trail IS 'The moderation trail: an append-only, hash-chained entry for each change of a review''s visibility, verification or reply.';

CREATE TABLE plaudit.order_events (
    id bigint NOT NULL,
    org_id uuid NOT NULL,
    order_id text NOT NULL,
    type text NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    received_at timestamp with time zone DEFAULT now() NOT NULL,
    connection_event_id bigint,
    notes text,
    CONSTRAINT order_events_notes_check CHECK ((char_length(notes) <= 500)),
    CONSTRAINT order_events_type_check CHECK ((type = ANY (ARRAY['created'::text, 'paid'::text, 'fulfilled'::text, 'delivered'::text, 'cancelled'::text,
        'refunded'::text, 'partially_refunded'::text])))
);

COMMENT ON TABLE plaudit.order_events IS 'An order''s timeline: what its shop said happened and when (the event''s own time), when it arrived, and what was decided.';

ALTER TABLE plaudit.order_events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME plaudit.order_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE plaudit.order_items (
    org_id uuid NOT NULL,
    order_id text NOT NULL,
    "position" smallint NOT NULL,
    product_external_id text NOT NULL,
    quantity integer DEFAULT 1 NOT NULL,
    refunded boolean DEFAULT false NOT NULL,
    CONSTRAINT order_items_position_check CHECK ((("position" >= 0) AND ("position" <= 99))),
    CONSTRAINT order_items_product_external_id_check CHECK (((char_length(product_external_id) >= 1) AND (char_length(product_external_id) <= 200))),
    CONSTRAINT order_items_quantity_check CHECK (((quantity >= 1) AND (quantity <= 10000)))
);

COMMENT ON TABLE plaudit.order_items IS 'The products an order holds, by the organization''s own product id (external_id), kept as given.';

CREATE TABLE plaudit.organizations (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    name text NOT NULL,
    slug text NOT NULL,
    website text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT organizations_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200))),
    CONSTRAINT organizations_slug_check CHECK ((slug ~ '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$'::text)),
    CONSTRAINT organizations_website_check CHECK (((website IS NULL) OR (char_length(website) <= 2048)))
);

COMMENT ON TABLE plaudit.organizations IS 'An organization is one tenant: every other tenant table carries its org_id.';

CREATE TABLE plaudit.privacy_data_requests (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    connection_id uuid,
    email_key bytea NOT NULL,
    received_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE plaudit.privacy_data_requests IS 'Requests for a customer''s data that a shop passed on (Shopify customers/data_request), by the address''s key, for the admins to answer with the data report.';

CREATE TABLE plaudit.privacy_erasures (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    email_key bytea NOT NULL,
    redact_content boolean NOT NULL,
    reviews integer NOT NULL,
    review_requests integer NOT NULL,
    media integer NOT NULL,
    actor text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT privacy_erasures_actor_check CHECK (((char_length(actor) >= 1) AND (char_length(actor) <= 200))),
    CONSTRAINT privacy_erasures_email_key_check CHECK ((octet_length(email_key) = 32)),
    CONSTRAINT privacy_erasures_media_check CHECK ((media >= 0)),
    CONSTRAINT privacy_erasures_review_requests_check CHECK ((review_requests >= 0)),
    CONSTRAINT privacy_erasures_reviews_check CHECK ((reviews >= 0))
);

COMMENT ON TABLE plaudit.privacy_erasures IS 'Each erasure asked for, by the address''s keyed hash: what it removed, who asked and when.';

CREATE TABLE plaudit.product_review_statistics (
    product_id uuid NOT NULL,
    org_id uuid NOT NULL,
    public_count bigint DEFAULT 0 NOT NULL,
    rating_sum bigint DEFAULT 0 NOT NULL,
    rating_1 bigint DEFAULT 0 NOT NULL,
    rating_2 bigint DEFAULT 0 NOT NULL,
    rating_3 bigint DEFAULT 0 NOT NULL,
    rating_4 bigint DEFAULT 0 NOT NULL,
    rating_5 bigint DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE plaudit.product_review_statistics IS 'Public review counts per product (published reviews: not hidden, verified or unverified), kept by the reviews'' triggers.';

CREATE TABLE plaudit.public_profiles (
    org_id uuid NOT NULL,
    enabled boolean DEFAULT true NOT NULL,
    display_name text,
    description text,
    website text,
    logo_url text,
    embed_layout text DEFAULT 'list'::text NOT NULL,
    embed_theme text DEFAULT 'light'::text NOT NULL,
    embed_max_reviews integer DEFAULT 10 NOT NULL,
    embed_min_rating integer DEFAULT 1 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    google_product_feed boolean DEFAULT false NOT NULL,
    media_moderation text DEFAULT 'auto'::text NOT NULL,
    meta_review_feed boolean DEFAULT false NOT NULL,
    ask_buyers boolean DEFAULT true NOT NULL,
    review_policy text,
    CONSTRAINT public_profiles_description_check CHECK ((char_length(description) <= 2000)),
    CONSTRAINT public_profiles_display_name_check CHECK (((char_length(display_name) >= 1) AND (char_length(display_name) <= 200))),
    CONSTRAINT public_profiles_embed_layout_check CHECK ((embed_layout = ANY (ARRAY['list'::text, 'grid'::text, 'carousel'::text]))),
    CONSTRAINT public_profiles_embed_max_reviews_check CHECK (((embed_max_reviews >= 1) AND (embed_max_reviews <= 100))),
    CONSTRAINT public_profiles_embed_min_rating_check CHECK (((embed_min_rating >= 1) AND (embed_min_rating <= 5))),
    CONSTRAINT public_profiles_embed_theme_check CHECK ((embed_theme = ANY (ARRAY['light'::text, 'dark'::text]))),
    CONSTRAINT public_profiles_logo_url_check CHECK (((char_length(logo_url) <= 2048) AND (logo_url ~* '^https://'::text))),
    CONSTRAINT public_profiles_media_moderation_check CHECK ((media_moderation = ANY (ARRAY['auto'::text, 'manual'::text]))),
    CONSTRAINT public_profiles_review_policy_check CHECK (((char_length(review_policy) >= 1) AND (char_length(review_policy) <= 10000))),
    CONSTRAINT public_profiles_website_check CHECK (((char_length(website) <= 2048) AND (website ~* '^https?://'::text)))
);

COMMENT ON TABLE plaudit.public_profiles IS 'Public-profile settings of an organization (profile page and widget); an organization without a row has the defaults.';
COMMENT ON COLUMN plaudit.public_profiles.google_product_feed IS 'Whether the public Google Product Ratings feed of the organization''s product reviews is published.';
COMMENT ON COLUMN plaudit.public_profiles.media_moderation IS 'auto: new photos and videos show with their review; manual: they stay hidden until the business shows them.';
COMMENT ON COLUMN plaudit.public_profiles.meta_review_feed IS 'Whether the public Meta product review feed (CSV) of the organization''s product reviews is published.';
COMMENT ON COLUMN plaudit.public_profiles.ask_buyers IS 'Whether a published product question is e-mailed to up to 10 customers whose orders held the product.';
COMMENT ON COLUMN plaudit.public_profiles.review_policy IS 'The business''s own sections of its review policy page, as plain text (blank lines part paragraphs); null for none.';

CREATE TABLE plaudit.question_answer_tokens (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    question_id uuid NOT NULL,
    token_hash bytea NOT NULL,
    author_name text NOT NULL,
    expires_at timestamp with time zone DEFAULT (now() + '30 days'::interval) NOT NULL,
    used_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT question_answer_tokens_author_name_check CHECK (((char_length(author_name) >= 1) AND (char_length(author_name) <= 200))),
    CONSTRAINT question_answer_tokens_token_hash_check CHECK ((octet_length(token_hash) = 32))
);

COMMENT ON TABLE plaudit.question_answer_tokens IS 'Single-use links that let a verified buyer answer one question: only the SHA-256 of each token is kept.';

CREATE TABLE plaudit.question_moderation_trail (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    question_id uuid NOT NULL,
    answer_id uuid,
    action text NOT NULL,
    reason text,
    actor text NOT NULL,
    created_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT question_moderation_trail_action_check CHECK ((action = ANY (ARRAY['hide'::text, 'unhide'::text, 'answer'::text, 'edit_answer'::text]))),
    CONSTRAINT question_moderation_trail_actor_check CHECK (((char_length(actor) >= 1) AND (char_length(actor) <= 200))),
    CONSTRAINT question_moderation_trail_reason_check CHECK ((char_length(reason) <= 5000))
);

COMMENT ON TABLE plaudit.question_moderation_trail IS 'The questions'' moderation trail: an append-only entry for each hide, unhide, business answer and edit of it.';

CREATE UNLOGGED TABLE plaudit.rate_limit_counters (
    bucket text NOT NULL,
    window_start timestamp with time zone NOT NULL,
    hits integer DEFAULT 1 NOT NULL,
    CONSTRAINT rate_limit_counters_bucket_check CHECK ((char_length(bucket) <= 200))
);

COMMENT ON TABLE plaudit.rate_limit_counters IS 'Rate-limit counters, one row per bucket and one-minute window; unlogged, since they are worth nothing after a crash.';

CREATE TABLE plaudit.replica_read_floor (
    id boolean DEFAULT true NOT NULL,
    lsn pg_lsn NOT NULL,
    raised_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT replica_read_floor_id_check CHECK (id)
);

COMMENT ON TABLE plaudit.replica_read_floor IS 'The WAL position a read replica must have replayed to serve reads; raised by the CDN purge lane when a replica falls behind a purge.';

CREATE TABLE plaudit.review_arrivals (
    review_id uuid NOT NULL,
    org_id uuid NOT NULL,
    subject text NOT NULL,
    rating smallint NOT NULL,
    client_key bytea,
    product_id uuid,
    order_hash text,
    created_at timestamp with time zone NOT NULL,
    sketch bigint[],
    CONSTRAINT review_arrivals_client_key_check CHECK ((octet_length(client_key) = 32)),
    CONSTRAINT review_arrivals_order_hash_check CHECK ((order_hash ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT review_arrivals_rating_check CHECK (((rating >= 1) AND (rating <= 5))),
    CONSTRAINT review_arrivals_sketch_check CHECK ((cardinality(sketch) <= 8)),
    CONSTRAINT review_arrivals_subject_check CHECK ((subject ~ '^(business|product:[0-9a-f-]{36}|group:.+)$'::text))
);

COMMENT ON TABLE plaudit.review_arrivals IS 'What each submitted review leaves for the burst and duplicate checks: its subject, rating, client (a hash, forgotten after 30 days), order and text''s sketch.';

CREATE TABLE plaudit.review_forms (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    name text NOT NULL,
    verification_mode text DEFAULT 'none'::text NOT NULL,
    custom_fields jsonb DEFAULT '[]'::jsonb NOT NULL,
    is_active boolean DEFAULT true NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    deleted_at timestamp with time zone,
    incentive plaudit.incentive,
    CONSTRAINT review_forms_custom_fields_check CHECK (plaudit.custom_field_definitions_are_valid(custom_fields)),
    CONSTRAINT review_forms_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200))),
    CONSTRAINT review_forms_verification_mode_check CHECK ((verification_mode = ANY (ARRAY['email'::text, 'purchase_proof'::text, 'manual'::text, 'none'::text])))
);

COMMENT ON TABLE plaudit.review_forms IS 'Review forms: how an organization collects reviews, with custom fields, a verification mode and an on/off switch.';
COMMENT ON COLUMN plaudit.review_forms.incentive IS 'What the business offers for a review written on this form, or null.';

CREATE TABLE plaudit.review_hold_settings (
    org_id uuid NOT NULL,
    min_reviews integer DEFAULT 10 NOT NULL,
    min_addresses integer DEFAULT 5 NOT NULL,
    median_factor numeric DEFAULT 5 NOT NULL,
    min_low_share numeric DEFAULT 0.5 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT review_hold_settings_median_factor_check CHECK (((median_factor >= (1)::numeric) AND (median_factor <= (1000)::numeric))),
    CONSTRAINT review_hold_settings_min_addresses_check CHECK (((min_addresses >= 2) AND (min_addresses <= 100000))),
    CONSTRAINT review_hold_settings_min_low_share_check CHECK (((min_low_share >= (0)::numeric) AND (min_low_share <= (1)::numeric))),
    CONSTRAINT review_hold_settings_min_reviews_check CHECK (((min_reviews >= 2) AND (min_reviews <= 100000)))
);

COMMENT ON TABLE plaudit.review_hold_settings IS 'An organization''s review-bombing thresholds; no row: the defaults (10 reviews, 5 addresses, 5x the median, half of the hour''s reviews).';

CREATE TABLE plaudit.review_media (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    review_id uuid NOT NULL,
    type text NOT NULL,
    content_type text NOT NULL,
    storage_key text NOT NULL,
    thumbnail_key text,
    url text NOT NULL,
    thumbnail_url text,
    width integer,
    height integer,
    bytes bigint NOT NULL,
    sha256 bytea NOT NULL,
    is_hidden boolean DEFAULT false NOT NULL,
    hidden_reason text,
    "position" integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT review_media_bytes_check CHECK (((bytes >= 1) AND (bytes <= 104857600))),
    CONSTRAINT review_media_check CHECK (((type = 'video'::text) OR ((thumbnail_key IS NOT NULL) AND (thumbnail_url IS NOT NULL) AND (width IS NOT NULL) AND (height IS NOT NULL)))),
    CONSTRAINT review_media_content_type_check CHECK ((content_type = ANY (ARRAY['image/jpeg'::text, 'image/png'::text, 'image/webp'::text,
        'video/mp4'::text, 'video/webm'::text]))),
    CONSTRAINT review_media_height_check CHECK (((height >= 1) AND (height <= 100000))),
    CONSTRAINT review_media_hidden_reason_check CHECK (((char_length(hidden_reason) >= 1) AND (char_length(hidden_reason) <= 1000))),
    CONSTRAINT review_media_position_check CHECK ((("position" >= 1) AND ("position" <= 6))),
    CONSTRAINT review_media_sha256_check CHECK ((octet_length(sha256) = 32)),
    CONSTRAINT review_media_storage_key_check CHECK (((char_length(storage_key) >= 1) AND (char_length(storage_key) <= 300))),
    CONSTRAINT review_media_thumbnail_key_check CHECK (((char_length(thumbnail_key) >= 1) AND (char_length(thumbnail_key) <= 300))),
    CONSTRAINT review_media_thumbnail_url_check CHECK (((char_length(thumbnail_url) >= 1) AND (char_length(thumbnail_url) <= 2048))),
    CONSTRAINT review_media_type_check CHECK ((type = ANY (ARRAY['image'::text, 'video'::text]))),
    CONSTRAINT review_media_url_check CHECK (((char_length(url) >= 1) AND (char_length(url) <= 2048))),
    CONSTRAINT review_media_width_check CHECK (((width >= 1) AND (width <= 100000)))
);

COMMENT ON TABLE plaudit.review_media IS 'The photos and videos of reviews, in upload order: where their files are stored, their size and whether they are hidden.';

CREATE TABLE plaudit.review_request_events (
    id bigint NOT NULL,
    org_id uuid NOT NULL,
    request_id uuid NOT NULL,
    type text NOT NULL,
    dedupe_key text NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    received_at timestamp with time zone DEFAULT now() NOT NULL,
    applied boolean DEFAULT false NOT NULL,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    CONSTRAINT review_request_events_data_check CHECK ((jsonb_typeof(data) = 'object'::text)),
    CONSTRAINT review_request_events_dedupe_key_check CHECK (((char_length(dedupe_key) >= 1) AND (char_length(dedupe_key) <= 300))),
    CONSTRAINT review_request_events_type_check CHECK ((type = ANY (ARRAY['queued'::text, 'sent'::text, 'delivered'::text, 'opened'::text,
        'clicked'::text, 'completed'::text, 'bounced'::text, 'complained'::text, 'unsubscribed'::text, 'failed'::text, 'soft_bounced'::text,
        'delivery_delayed'::text, 'reminder_queued'::text, 'reminder_sent'::text, 'canceled'::text, 'products_dropped'::text])))
);

COMMENT ON TABLE plaudit.review_request_events IS 'The timeline of each review request: every fact about it, once per dedupe key.';

ALTER TABLE plaudit.review_request_events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME plaudit.review_request_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE plaudit.review_request_products (
    org_id uuid NOT NULL,
    request_id uuid NOT NULL,
    product_id uuid NOT NULL,
    "position" smallint NOT NULL,
    CONSTRAINT review_request_products_position_check CHECK ((("position" >= 0) AND ("position" <= 19)))
);

COMMENT ON TABLE plaudit.review_request_products IS 'The products a review request asks about, in order (up to 20), of the request''s own organization.';

CREATE TABLE plaudit.review_request_reviews (
    org_id uuid NOT NULL,
    request_id uuid NOT NULL,
    product_id uuid,
    review_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE plaudit.review_request_reviews IS 'The reviews written through a review request: one per subject (each named product, and the business) at most.';

CREATE TABLE plaudit.review_request_settings (
    org_id uuid NOT NULL,
    daily_quota integer DEFAULT 1000 NOT NULL,
    reminders_enabled boolean DEFAULT false NOT NULL,
    reminder_delay_days integer DEFAULT 3 NOT NULL,
    reminder_max integer DEFAULT 1 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT review_request_settings_daily_quota_check CHECK (((daily_quota >= 1) AND (daily_quota <= 100000))),
    CONSTRAINT review_request_settings_reminder_delay_days_check CHECK (((reminder_delay_days >= 1) AND (reminder_delay_days <= 60))),
    CONSTRAINT review_request_settings_reminder_max_check CHECK (((reminder_max >= 1) AND (reminder_max <= 2)))
);

COMMENT ON TABLE plaudit.review_request_settings IS 'Per-organization settings of review requests, the daily quota and reminders; without a row, the defaults.';

CREATE TABLE plaudit.review_request_usage (
    org_id uuid NOT NULL,
    day date NOT NULL,
    requests integer DEFAULT 0 NOT NULL,
    CONSTRAINT review_request_usage_requests_check CHECK ((requests >= 0))
);

COMMENT ON TABLE plaudit.review_request_usage IS 'How many review requests each organization was allowed per UTC day, counted against its daily quota.';

CREATE TABLE plaudit.review_requests (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    form_id uuid NOT NULL,
    email text NOT NULL,
    name text NOT NULL,
    order_id text,
    external_id text,
    locale text DEFAULT 'en'::text NOT NULL,
    status text DEFAULT 'queued'::text NOT NULL,
    send_at timestamp with time zone DEFAULT now() NOT NULL,
    link_base text NOT NULL,
    sent_at timestamp with time zone,
    delivered_at timestamp with time zone,
    opened_at timestamp with time zone,
    clicked_at timestamp with time zone,
    completed_at timestamp with time zone,
    bounced_at timestamp with time zone,
    complained_at timestamp with time zone,
    unsubscribed_at timestamp with time zone,
    failed_at timestamp with time zone,
    open_count integer DEFAULT 0 NOT NULL,
    click_count integer DEFAULT 0 NOT NULL,
    review_id uuid,
    reminders_sent smallint DEFAULT 0 NOT NULL,
    last_reminder_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    incentive plaudit.incentive,
    canceled_at timestamp with time zone,
    CONSTRAINT review_requests_email_check CHECK (((char_length(email) <= 320) AND (email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'::text))),
    CONSTRAINT review_requests_external_id_check CHECK (((char_length(external_id) >= 1) AND (char_length(external_id) <= 200))),
    CONSTRAINT review_requests_link_base_check CHECK (((link_base ~ '^https?://'::text) AND (char_length(link_base) <= 2048))),
    CONSTRAINT review_requests_locale_check CHECK ((locale ~ '^[a-z]{2}(-[A-Z]{2})?$'::text)),
    CONSTRAINT review_requests_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200))),
    CONSTRAINT review_requests_order_id_check CHECK (((char_length(order_id) >= 1) AND (char_length(order_id) <= 200))),
    CONSTRAINT review_requests_reminders_sent_check CHECK (((reminders_sent >= 0) AND (reminders_sent <= 2))),
    CONSTRAINT review_requests_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'sent'::text, 'delivered'::text, 'opened'::text,
        'clicked'::text, 'failed'::text, 'bounced'::text, 'complained'::text, 'unsubscribed'::text, 'canceled'::text, 'completed'::text])))
);

COMMENT ON TABLE plaudit.review_requests IS 'Review requests: e-mails that ask a customer to review the organization on one of its forms, and how far each got.';
COMMENT ON COLUMN plaudit.review_requests.incentive IS 'What the business offers for a review written through this request, or null (then the form''s applies).';

CREATE TABLE plaudit.review_statistics (
    org_id uuid NOT NULL,
    slot smallint NOT NULL,
    total_count bigint DEFAULT 0 NOT NULL,
    public_count bigint DEFAULT 0 NOT NULL,
    rating_sum bigint DEFAULT 0 NOT NULL,
    rating_1 bigint DEFAULT 0 NOT NULL,
    rating_2 bigint DEFAULT 0 NOT NULL,
    rating_3 bigint DEFAULT 0 NOT NULL,
    rating_4 bigint DEFAULT 0 NOT NULL,
    rating_5 bigint DEFAULT 0 NOT NULL,
    version bigint DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT review_statistics_slot_check CHECK (((slot >= 0) AND (slot <= 15)))
);

COMMENT ON TABLE plaudit.review_statistics IS 'Review counts per organization, kept by triggers in up to 16 slot rows, so that nothing counts reviews per request.';

CREATE TABLE plaudit.review_summaries (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    product_id uuid,
    group_key text,
    language text,
    body jsonb NOT NULL,
    evidence jsonb DEFAULT '{}'::jsonb NOT NULL,
    input_review_ids uuid[] NOT NULL,
    review_count integer NOT NULL,
    generated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT review_summaries_body_check CHECK (((jsonb_typeof((body -> 'sentences'::text)) = 'array'::text) AND (jsonb_typeof((body -> 'topics'::text)) = 'array'::text))),
    CONSTRAINT review_summaries_evidence_check CHECK ((jsonb_typeof(evidence) = 'object'::text)),
    CONSTRAINT review_summaries_group_has_product CHECK (((group_key IS NULL) OR (product_id IS NOT NULL))),
    CONSTRAINT review_summaries_group_key_check CHECK (((char_length(group_key) >= 1) AND (char_length(group_key) <= 200))),
    CONSTRAINT review_summaries_language_check CHECK ((language ~ '^[a-z]{2}$'::text)),
    CONSTRAINT review_summaries_review_count_check CHECK ((review_count >= 0))
);

COMMENT ON TABLE plaudit.review_summaries IS 'Summaries of a business''s or a product''s published reviews, each sentence citing its reviews; made by the worker.';

CREATE TABLE plaudit.review_verification_tokens (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    review_id uuid NOT NULL,
    token_hash bytea NOT NULL,
    expires_at timestamp with time zone DEFAULT (now() + '7 days'::interval) NOT NULL,
    used_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT review_verification_tokens_token_hash_check CHECK ((octet_length(token_hash) = 32))
);

COMMENT ON TABLE plaudit.review_verification_tokens IS 'Single-use e-mail verification tokens of reviews: only the SHA-256 of each token is kept.';

CREATE TABLE plaudit.review_votes (
    review_id uuid NOT NULL,
    org_id uuid NOT NULL,
    visitor_hash bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT review_votes_visitor_hash_check CHECK ((octet_length(visitor_hash) = 32))
);

COMMENT ON TABLE plaudit.review_votes IS 'Helpful votes: one per visitor and review, the visitor kept only as a keyed hash.';

CREATE TABLE plaudit.shopify_write_backs (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    connection_id uuid NOT NULL,
    product_id uuid NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    locked_until timestamp with time zone,
    claim_token uuid,
    rating text,
    rating_count integer,
    last_error text,
    sent_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT shopify_write_backs_last_error_check CHECK ((char_length(last_error) <= 1000)),
    CONSTRAINT shopify_write_backs_rating_check CHECK ((rating ~ '^[0-5]\.[0-9]$'::text)),
    CONSTRAINT shopify_write_backs_rating_count_check CHECK ((rating_count >= 0)),
    CONSTRAINT shopify_write_backs_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'sending'::text, 'retrying'::text, 'sent'::text, 'failed'::text])))
);

COMMENT ON TABLE plaudit.shopify_write_backs IS 'Products'' ratings to set, or set, as metafields of their Shopify product: the outbox and the connection''s write-back log.';

CREATE TABLE plaudit.sign_in_challenges (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    email text NOT NULL,
    token_hash bytea NOT NULL,
    code_hash bytea NOT NULL,
    failed_attempts integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone DEFAULT (now() + '00:15:00'::interval) NOT NULL,
    used_at timestamp with time zone,
    CONSTRAINT sign_in_challenges_code_hash_check CHECK ((octet_length(code_hash) = 32)),
    CONSTRAINT sign_in_challenges_email_check CHECK ((char_length(email) <= 320)),
    CONSTRAINT sign_in_challenges_failed_attempts_check CHECK (((failed_attempts >= 0) AND (failed_attempts <= 5))),
    CONSTRAINT sign_in_challenges_token_hash_check CHECK ((octet_length(token_hash) = 32))
);

COMMENT ON TABLE plaudit.sign_in_challenges IS 'One row per sign-in mail: the hashes of its link token and its code, usable once within 15 minutes.';

CREATE TABLE plaudit.signing_secrets (
    purpose text NOT NULL,
    secret bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT signing_secrets_purpose_check CHECK ((purpose ~ '^[a-z_]+$'::text)),
    CONSTRAINT signing_secrets_secret_check CHECK ((octet_length(secret) >= 32))
);

COMMENT ON TABLE plaudit.signing_secrets IS 'Secrets made in the database, one per purpose (review_request_links: the links of review-request e-mails; email_keys: the keys of addresses), that only the owner reads.';

CREATE TABLE plaudit.trail_actions (
    action text NOT NULL,
    description text NOT NULL,
    CONSTRAINT trail_actions_action_check CHECK (((action ~ '^[a-z][a-z_]*$'::text) AND (char_length(action) <= 40))),
    CONSTRAINT trail_actions_description_check CHECK (((char_length(description) >= 1) AND (char_length(description) <= 300)))
);

COMMENT ON TABLE plaudit.trail_actions IS 'The actions a moderation trail entry may name, each inserted by the source file of the feature that writes it.';

CREATE TABLE plaudit.visitor_hash_keys (
    period integer NOT NULL,
    secret bytea DEFAULT extensions.gen_random_bytes(32) NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE plaudit.visitor_hash_keys IS 'The secret keys of the visitors'' hashes, one per 30-day period; only the last two are kept.';

CREATE TABLE plaudit.webhook_deliveries (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    endpoint_id uuid NOT NULL,
    event_id uuid,
    event_type text NOT NULL,
    message_id text DEFAULT ('msg_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)) NOT NULL,
    payload text NOT NULL,
    is_test boolean DEFAULT false NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    schedule_step integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    locked_until timestamp with time zone,
    claim_token uuid,
    last_attempt_at timestamp with time zone,
    last_status_code integer,
    last_error text,
    delivered_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT webhook_deliveries_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'succeeded'::text, 'failed'::text, 'cancelled'::text])))
);

COMMENT ON TABLE plaudit.webhook_deliveries IS 'Webhook deliveries, one per event and endpoint: the exact body, the retry schedule and the worker''s lease.';

CREATE TABLE plaudit.webhook_delivery_attempts (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    delivery_id uuid NOT NULL,
    attempt integer NOT NULL,
    status_code integer,
    duration_ms integer NOT NULL,
    error text,
    response_snippet text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT webhook_delivery_attempts_error_check CHECK ((char_length(error) <= 1000)),
    CONSTRAINT webhook_delivery_attempts_response_snippet_check CHECK ((char_length(response_snippet) <= 1024))
);

COMMENT ON TABLE plaudit.webhook_delivery_attempts IS 'Every attempt to send a webhook delivery: its status code, duration, error and the start of the response.';

CREATE TABLE plaudit.webhook_endpoints (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    org_id uuid NOT NULL,
    url text NOT NULL,
    description text,
    events text[] NOT NULL,
    secret text NOT NULL,
    previous_secret text,
    previous_secret_expires_at timestamp with time zone,
    enabled boolean DEFAULT true NOT NULL,
    disabled_reason text,
    disabled_at timestamp with time zone,
    failing_since timestamp with time zone,
    secret_rotated_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    slow_since timestamp with time zone,
    CONSTRAINT webhook_endpoints_description_check CHECK ((char_length(description) <= 500)),
    CONSTRAINT webhook_endpoints_events_check CHECK (((cardinality(events) >= 1) AND (cardinality(events) <= 20))),
    CONSTRAINT webhook_endpoints_previous_secret_check CHECK ((previous_secret ~ '^whsec_[A-Za-z0-9+/]+={0,2}$'::text)),
    CONSTRAINT webhook_endpoints_secret_check CHECK ((secret ~ '^whsec_[A-Za-z0-9+/]+={0,2}$'::text)),
    CONSTRAINT webhook_endpoints_url_check CHECK (((char_length(url) <= 2048) AND (url ~ '^https?://'::text)))
);

COMMENT ON TABLE plaudit.webhook_endpoints IS 'Webhook endpoints: where an organization wants its events POSTed, with their signing secrets and health.';
COMMENT ON COLUMN plaudit.webhook_endpoints.slow_since IS 'Set while the endpoint''s attempts take the worker''s WEBHOOK_SLOW_MS or longer; a faster attempt clears it.';

CREATE TABLE plaudit.worker_bell (
    id boolean DEFAULT true NOT NULL,
    url text NOT NULL,
    secret text NOT NULL,
    cdn_purges boolean DEFAULT false NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT worker_bell_id_check CHECK (id),
    CONSTRAINT worker_bell_secret_check CHECK ((secret <> ''::text)),
    CONSTRAINT worker_bell_url_check CHECK ((url ~ '^https?://'::text))
);

COMMENT ON TABLE plaudit.worker_bell IS 'Hosted Supabase: the worker function''s address and secret, one row, which pg_cron''s bell rings through pg_net; cdn_purges: due CDN purges ring it too.';

ALTER TABLE ONLY plaudit.answer_votes ADD CONSTRAINT answer_votes_pkey PRIMARY KEY (answer_id, visitor_hash);
ALTER TABLE ONLY plaudit.api_keys ADD CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash);
ALTER TABLE ONLY plaudit.api_keys ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.attribute_statistics ADD CONSTRAINT attribute_statistics_answer_key UNIQUE NULLS NOT DISTINCT (org_id, product_id, key, answer);
ALTER TABLE ONLY plaudit.attribute_statistics ADD CONSTRAINT attribute_statistics_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.cdn_purges ADD CONSTRAINT cdn_purges_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.connection_events ADD CONSTRAINT connection_events_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.connections ADD CONSTRAINT connections_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.email_outbox ADD CONSTRAINT email_outbox_idempotency_key_key UNIQUE (idempotency_key);
ALTER TABLE ONLY plaudit.email_outbox ADD CONSTRAINT email_outbox_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.email_suppressions ADD CONSTRAINT email_suppressions_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.events ADD CONSTRAINT events_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.export_chunks ADD CONSTRAINT export_chunks_pkey PRIMARY KEY (export_id, seq);
ALTER TABLE ONLY plaudit.exports ADD CONSTRAINT exports_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.held_reviews ADD CONSTRAINT held_reviews_pkey PRIMARY KEY (review_id);
ALTER TABLE ONLY plaudit.idempotency_keys ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (org_id, key);
ALTER TABLE ONLY plaudit.import_rows ADD CONSTRAINT import_rows_pkey PRIMARY KEY (import_id, row_number);
ALTER TABLE ONLY plaudit.imports ADD CONSTRAINT imports_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.invitations ADD CONSTRAINT invitations_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.invitations ADD CONSTRAINT invitations_token_hash_key UNIQUE (token_hash);
ALTER TABLE ONLY plaudit.media_upload_tokens ADD CONSTRAINT media_upload_tokens_pkey PRIMARY KEY (review_id);
ALTER TABLE ONLY plaudit.media_upload_tokens ADD CONSTRAINT media_upload_tokens_token_hash_key UNIQUE (token_hash);
ALTER TABLE ONLY plaudit.members ADD CONSTRAINT members_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.moderation_chain_heads ADD CONSTRAINT moderation_chain_heads_pkey PRIMARY KEY (org_id);
ALTER TABLE ONLY plaudit.moderation_trail ADD CONSTRAINT moderation_trail_org_id_seq_key UNIQUE (org_id, seq);
ALTER TABLE ONLY plaudit.moderation_trail ADD CONSTRAINT moderation_trail_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.order_events ADD CONSTRAINT order_events_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.order_items ADD CONSTRAINT order_items_pkey PRIMARY KEY (org_id, order_id, "position");
ALTER TABLE ONLY plaudit.orders ADD CONSTRAINT orders_pkey PRIMARY KEY (org_id, order_id);
ALTER TABLE ONLY plaudit.organizations ADD CONSTRAINT organizations_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.organizations ADD CONSTRAINT organizations_slug_key UNIQUE (slug);
ALTER TABLE ONLY plaudit.privacy_data_requests ADD CONSTRAINT privacy_data_requests_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.privacy_erasures ADD CONSTRAINT privacy_erasures_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.product_review_statistics ADD CONSTRAINT product_review_statistics_pkey PRIMARY KEY (product_id);
ALTER TABLE ONLY plaudit.products ADD CONSTRAINT products_external_id_key UNIQUE (org_id, external_id);
ALTER TABLE ONLY plaudit.products ADD CONSTRAINT products_id_org_id_key UNIQUE (id, org_id);
ALTER TABLE ONLY plaudit.products ADD CONSTRAINT products_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.public_profiles ADD CONSTRAINT public_profiles_pkey PRIMARY KEY (org_id);
ALTER TABLE ONLY plaudit.question_answer_tokens ADD CONSTRAINT question_answer_tokens_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.question_answer_tokens ADD CONSTRAINT question_answer_tokens_token_hash_key UNIQUE (token_hash);
ALTER TABLE ONLY plaudit.question_answers ADD CONSTRAINT question_answers_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.question_answers ADD CONSTRAINT question_answers_token_id_key UNIQUE (token_id);
ALTER TABLE ONLY plaudit.question_moderation_trail ADD CONSTRAINT question_moderation_trail_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.questions ADD CONSTRAINT questions_confirmation_token_hash_key UNIQUE (confirmation_token_hash);
ALTER TABLE ONLY plaudit.questions ADD CONSTRAINT questions_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.rate_limit_counters ADD CONSTRAINT rate_limit_counters_pkey PRIMARY KEY (bucket, window_start);
ALTER TABLE ONLY plaudit.replica_read_floor ADD CONSTRAINT replica_read_floor_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.review_appeals ADD CONSTRAINT review_appeals_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.review_appeals ADD CONSTRAINT review_appeals_statement_id_key UNIQUE (statement_id);
ALTER TABLE ONLY plaudit.review_arrivals ADD CONSTRAINT review_arrivals_pkey PRIMARY KEY (review_id);
ALTER TABLE ONLY plaudit.review_forms ADD CONSTRAINT review_forms_id_org_id_key UNIQUE (id, org_id);
ALTER TABLE ONLY plaudit.review_forms ADD CONSTRAINT review_forms_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.review_hold_settings ADD CONSTRAINT review_hold_settings_pkey PRIMARY KEY (org_id);
ALTER TABLE ONLY plaudit.review_holds ADD CONSTRAINT review_holds_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.review_media ADD CONSTRAINT review_media_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.review_media ADD CONSTRAINT review_media_review_id_position_key UNIQUE (review_id, "position");
ALTER TABLE ONLY plaudit.review_media ADD CONSTRAINT review_media_review_id_sha256_key UNIQUE (review_id, sha256);
ALTER TABLE ONLY plaudit.review_media ADD CONSTRAINT review_media_storage_key_key UNIQUE (storage_key);
ALTER TABLE ONLY plaudit.review_media ADD CONSTRAINT review_media_thumbnail_key_key UNIQUE (thumbnail_key);
ALTER TABLE ONLY plaudit.review_replies ADD CONSTRAINT review_replies_pkey PRIMARY KEY (review_id);
ALTER TABLE ONLY plaudit.review_reports ADD CONSTRAINT review_reports_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.review_request_automation ADD CONSTRAINT review_request_automation_pkey PRIMARY KEY (org_id);
ALTER TABLE ONLY plaudit.review_request_events ADD CONSTRAINT review_request_events_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.review_request_products ADD CONSTRAINT review_request_products_pkey PRIMARY KEY (org_id, request_id, "position");
ALTER TABLE ONLY plaudit.review_request_products ADD CONSTRAINT review_request_products_product_key UNIQUE (org_id, request_id, product_id);
ALTER TABLE ONLY plaudit.review_request_reviews ADD CONSTRAINT review_request_reviews_pkey PRIMARY KEY (org_id, request_id, review_id);
ALTER TABLE ONLY plaudit.review_request_reviews ADD CONSTRAINT review_request_reviews_subject_key UNIQUE NULLS NOT DISTINCT (org_id, request_id, product_id);
ALTER TABLE ONLY plaudit.review_request_settings ADD CONSTRAINT review_request_settings_pkey PRIMARY KEY (org_id);
ALTER TABLE ONLY plaudit.review_request_usage ADD CONSTRAINT review_request_usage_pkey PRIMARY KEY (org_id, day);
ALTER TABLE ONLY plaudit.review_requests ADD CONSTRAINT review_requests_id_org_id_key UNIQUE (id, org_id);
ALTER TABLE ONLY plaudit.review_requests ADD CONSTRAINT review_requests_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.review_statements ADD CONSTRAINT review_statements_appeal_token_hash_key UNIQUE (appeal_token_hash);
ALTER TABLE ONLY plaudit.review_statements ADD CONSTRAINT review_statements_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.review_statistics ADD CONSTRAINT review_statistics_pkey PRIMARY KEY (org_id, slot);
ALTER TABLE ONLY plaudit.review_summaries ADD CONSTRAINT review_summaries_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.review_verification_tokens ADD CONSTRAINT review_verification_tokens_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.review_verification_tokens ADD CONSTRAINT review_verification_tokens_review_id_key UNIQUE (review_id);
ALTER TABLE ONLY plaudit.review_verification_tokens ADD CONSTRAINT review_verification_tokens_token_hash_key UNIQUE (token_hash);
ALTER TABLE ONLY plaudit.review_votes ADD CONSTRAINT review_votes_pkey PRIMARY KEY (review_id, visitor_hash);
ALTER TABLE ONLY plaudit.reviews ADD CONSTRAINT reviews_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.sessions ADD CONSTRAINT sessions_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.sessions ADD CONSTRAINT sessions_token_hash_key UNIQUE (token_hash);
ALTER TABLE ONLY plaudit.shopify_write_backs ADD CONSTRAINT shopify_write_backs_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.sign_in_challenges ADD CONSTRAINT sign_in_challenges_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.sign_in_challenges ADD CONSTRAINT sign_in_challenges_token_hash_key UNIQUE (token_hash);
ALTER TABLE ONLY plaudit.signing_secrets ADD CONSTRAINT signing_secrets_pkey PRIMARY KEY (purpose);
ALTER TABLE ONLY plaudit.trail_actions ADD CONSTRAINT trail_actions_pkey PRIMARY KEY (action);
ALTER TABLE ONLY plaudit.visitor_hash_keys ADD CONSTRAINT visitor_hash_keys_pkey PRIMARY KEY (period);
ALTER TABLE ONLY plaudit.webhook_deliveries ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.webhook_delivery_attempts ADD CONSTRAINT webhook_delivery_attempts_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.webhook_endpoints ADD CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (id);
ALTER TABLE ONLY plaudit.worker_bell ADD CONSTRAINT worker_bell_pkey PRIMARY KEY (id);

CREATE INDEX answer_votes_org_id ON plaudit.answer_votes USING btree (org_id);
CREATE INDEX api_keys_org_id_created_at ON plaudit.api_keys USING btree (org_id, created_at DESC, id);
CREATE INDEX api_keys_replaced_by ON plaudit.api_keys USING btree (replaced_by) WHERE (replaced_by IS NOT NULL);
CREATE INDEX attribute_statistics_product_id ON plaudit.attribute_statistics USING btree (product_id) WHERE (product_id IS NOT NULL);
CREATE INDEX cdn_purges_due ON plaudit.cdn_purges USING btree (next_attempt_at) WHERE (status = ANY (ARRAY['pending'::text, 'sending'::text, 'retrying'::text]));

CREATE UNIQUE INDEX cdn_purges_one_pending ON plaudit.cdn_purges USING btree (org_id) WHERE (status = 'pending'::text);

CREATE INDEX cdn_purges_org_id_created_at ON plaudit.cdn_purges USING btree (org_id, created_at DESC);

CREATE UNIQUE INDEX connection_events_delivery ON plaudit.connection_events USING btree (connection_id, delivery_id) WHERE (payload IS NOT NULL);

CREATE INDEX connection_events_org_id ON plaudit.connection_events USING btree (org_id);
CREATE INDEX connection_events_recent ON plaudit.connection_events USING btree (connection_id, id DESC);
CREATE INDEX connection_events_unprocessed ON plaudit.connection_events USING btree (id) WHERE ((processed_at IS NULL) AND (payload IS NOT NULL));
CREATE INDEX connections_org_id ON plaudit.connections USING btree (org_id, created_at);
CREATE INDEX email_outbox_due ON plaudit.email_outbox USING btree (next_attempt_at) WHERE (status = ANY (ARRAY['queued'::text, 'sending'::text]));
CREATE INDEX email_outbox_org_id_created_at ON plaudit.email_outbox USING btree (org_id, created_at DESC);
CREATE INDEX email_outbox_org_id_queued_address ON plaudit.email_outbox USING btree (org_id, lower(to_address)) WHERE (status = 'queued'::text);
CREATE INDEX email_outbox_org_id_queued_request ON plaudit.email_outbox USING btree (org_id, ((data ->> 'review_request_id'::text))) WHERE (status = 'queued'::text);
CREATE INDEX email_outbox_provider_message_id ON plaudit.email_outbox USING btree (provider_message_id) WHERE (provider_message_id IS NOT NULL);
CREATE INDEX email_suppressions_org_id_created_at ON plaudit.email_suppressions USING btree (org_id, created_at, id);

CREATE UNIQUE INDEX email_suppressions_org_id_email_key ON plaudit.email_suppressions USING btree (org_id, email_key);

CREATE INDEX email_suppressions_request_id ON plaudit.email_suppressions USING btree (request_id) WHERE (request_id IS NOT NULL);
CREATE INDEX events_org_id_created_at ON plaudit.events USING btree (org_id, created_at DESC, id);
CREATE INDEX export_chunks_org_id ON plaudit.export_chunks USING btree (org_id, export_id);
CREATE INDEX exports_created_by_key_id ON plaudit.exports USING btree (created_by_key_id) WHERE (created_by_key_id IS NOT NULL);
CREATE INDEX exports_due ON plaudit.exports USING btree (created_at) WHERE (status = ANY (ARRAY['pending'::text, 'processing'::text]));
CREATE INDEX exports_org_id_created_at ON plaudit.exports USING btree (org_id, created_at DESC, id);
CREATE INDEX held_reviews_duplicate_of ON plaudit.held_reviews USING btree (duplicate_of) WHERE (duplicate_of IS NOT NULL);
CREATE INDEX held_reviews_hold_id ON plaudit.held_reviews USING btree (hold_id) WHERE (hold_id IS NOT NULL);
CREATE INDEX held_reviews_org_id ON plaudit.held_reviews USING btree (org_id, created_at);
CREATE INDEX idempotency_keys_org_id_created_at ON plaudit.idempotency_keys USING btree (org_id, created_at);
CREATE INDEX import_rows_org_id ON plaudit.import_rows USING btree (org_id);
CREATE INDEX imports_org_id_created_at ON plaudit.imports USING btree (org_id, created_at DESC, id);
CREATE INDEX imports_waiting ON plaudit.imports USING btree (created_at) WHERE (status = ANY (ARRAY['pending'::text, 'processing'::text]));
CREATE INDEX invitations_invited_by_key_id ON plaudit.invitations USING btree (invited_by_key_id) WHERE (invited_by_key_id IS NOT NULL);

CREATE UNIQUE INDEX invitations_one_open_per_email ON plaudit.invitations USING btree (org_id, lower(email)) WHERE ((accepted_at IS NULL) AND (revoked_at IS NULL));

CREATE INDEX invitations_org_id_created_at ON plaudit.invitations USING btree (org_id, created_at, id);
CREATE INDEX media_upload_tokens_org_id ON plaudit.media_upload_tokens USING btree (org_id);
CREATE INDEX members_org_id_created_at ON plaudit.members USING btree (org_id, created_at, id);

CREATE UNIQUE INDEX members_org_id_email ON plaudit.members USING btree (org_id, lower(email));

CREATE INDEX moderation_trail_action ON plaudit.moderation_trail USING btree (action);
CREATE INDEX moderation_trail_org_id_hides ON plaudit.moderation_trail USING btree (org_id, created_at) WHERE (action = 'hide'::text);
CREATE INDEX moderation_trail_org_id_review_id ON plaudit.moderation_trail USING btree (org_id, review_id, seq);
CREATE INDEX moderation_trail_review_id ON plaudit.moderation_trail USING btree (review_id);
CREATE INDEX order_events_connection_event_id ON plaudit.order_events USING btree (connection_event_id);
CREATE INDEX order_events_order ON plaudit.order_events USING btree (org_id, order_id, occurred_at);
CREATE INDEX order_items_org_id_product_external_id ON plaudit.order_items USING btree (org_id, product_external_id);
CREATE INDEX orders_connection_id ON plaudit.orders USING btree (connection_id, platform_order_id) WHERE (connection_id IS NOT NULL);
CREATE INDEX orders_review_request_id ON plaudit.orders USING btree (review_request_id);
CREATE INDEX privacy_data_requests_connection_id ON plaudit.privacy_data_requests USING btree (connection_id);
CREATE INDEX privacy_data_requests_org ON plaudit.privacy_data_requests USING btree (org_id, email_key);
CREATE INDEX privacy_erasures_org_id_created_at ON plaudit.privacy_erasures USING btree (org_id, created_at);
CREATE INDEX product_review_statistics_org_id ON plaudit.product_review_statistics USING btree (org_id);
CREATE INDEX products_org_id_created_at ON plaudit.products USING btree (org_id, created_at DESC, id DESC);
CREATE INDEX products_org_id_group_key ON plaudit.products USING btree (org_id, group_key) WHERE (group_key IS NOT NULL);
CREATE INDEX products_org_id_name ON plaudit.products USING btree (org_id, name, id);
CREATE INDEX products_org_id_updated_at ON plaudit.products USING btree (org_id, updated_at);
CREATE INDEX question_answer_tokens_org_id ON plaudit.question_answer_tokens USING btree (org_id);
CREATE INDEX question_answer_tokens_question_id ON plaudit.question_answer_tokens USING btree (question_id);
CREATE INDEX question_answers_org_id ON plaudit.question_answers USING btree (org_id);
CREATE INDEX question_answers_question_id ON plaudit.question_answers USING btree (question_id, created_at);
CREATE INDEX question_moderation_trail_answer_id ON plaudit.question_moderation_trail USING btree (answer_id) WHERE (answer_id IS NOT NULL);
CREATE INDEX question_moderation_trail_org_id ON plaudit.question_moderation_trail USING btree (org_id, created_at);
CREATE INDEX question_moderation_trail_question_id ON plaudit.question_moderation_trail USING btree (question_id);
CREATE INDEX questions_org_id_created ON plaudit.questions USING btree (org_id, created_at DESC);
CREATE INDEX questions_product_id ON plaudit.questions USING btree (product_id) WHERE (product_id IS NOT NULL);
CREATE INDEX questions_public_order ON plaudit.questions USING btree (org_id, product_id, last_answered_at DESC NULLS LAST, created_at DESC) WHERE (status = 'published'::text);
CREATE INDEX review_appeals_org_id ON plaudit.review_appeals USING btree (org_id, status, created_at, id);
CREATE INDEX review_appeals_review_id ON plaudit.review_appeals USING btree (review_id);
CREATE INDEX review_arrivals_clients_to_forget ON plaudit.review_arrivals USING btree (created_at) WHERE (client_key IS NOT NULL);
CREATE INDEX review_arrivals_order ON plaudit.review_arrivals USING btree (org_id, order_hash, product_id) WHERE (order_hash IS NOT NULL);
CREATE INDEX review_arrivals_product_id ON plaudit.review_arrivals USING btree (product_id) WHERE (product_id IS NOT NULL);
CREATE INDEX review_arrivals_recent ON plaudit.review_arrivals USING btree (created_at) INCLUDE (org_id, subject, rating, client_key);
CREATE INDEX review_arrivals_sketch ON plaudit.review_arrivals USING gin (sketch) WITH (fastupdate=off) WHERE (sketch IS NOT NULL);
CREATE INDEX review_arrivals_subject ON plaudit.review_arrivals USING btree (org_id, subject, created_at) WHERE (rating <= 2);
CREATE INDEX review_forms_org_id_created_at ON plaudit.review_forms USING btree (org_id, created_at DESC, id DESC) WHERE (deleted_at IS NULL);

CREATE UNIQUE INDEX review_holds_one_open ON plaudit.review_holds USING btree (org_id, subject) WHERE (released_at IS NULL);

CREATE INDEX review_holds_org_id ON plaudit.review_holds USING btree (org_id, started_at, id);
CREATE INDEX review_media_org_id ON plaudit.review_media USING btree (org_id);
CREATE INDEX review_replies_org_id ON plaudit.review_replies USING btree (org_id);

CREATE UNIQUE INDEX review_reports_one_open_per_reporter ON plaudit.review_reports USING btree (review_id, reporter_hash) WHERE (status = 'open'::text);

CREATE INDEX review_reports_org_id_status ON plaudit.review_reports USING btree (org_id, status, created_at, id);
CREATE INDEX review_reports_reporter_email ON plaudit.review_reports USING btree (org_id, lower(reporter_email)) WHERE (reporter_email IS NOT NULL);
CREATE INDEX review_reports_review_id ON plaudit.review_reports USING btree (review_id);
CREATE INDEX review_request_automation_form_id ON plaudit.review_request_automation USING btree (form_id);

CREATE UNIQUE INDEX review_request_events_dedupe ON plaudit.review_request_events USING btree (org_id, request_id, dedupe_key);

CREATE INDEX review_request_events_org_id_occurred_at ON plaudit.review_request_events USING btree (org_id, occurred_at);
CREATE INDEX review_request_events_request_id ON plaudit.review_request_events USING btree (request_id);
CREATE INDEX review_request_products_product_id ON plaudit.review_request_products USING btree (product_id, org_id);
CREATE INDEX review_request_reviews_review_id ON plaudit.review_request_reviews USING btree (review_id);

CREATE INDEX review_requests_org_id_awaiting ON plaudit.review_requests USING btree (org_id, sent_at) WHERE (status = ANY (ARRAY['sent'::text,
    'delivered'::text, 'opened'::text, 'clicked'::text]));

CREATE INDEX review_requests_org_id_created_at ON plaudit.review_requests USING btree (org_id, created_at, id);
CREATE INDEX review_requests_org_id_email ON plaudit.review_requests USING btree (org_id, lower(email), created_at);

CREATE UNIQUE INDEX review_requests_org_id_external_id ON plaudit.review_requests USING btree (org_id, external_id) WHERE (external_id IS NOT NULL);

CREATE INDEX review_requests_org_id_open ON plaudit.review_requests USING btree (org_id, form_id, lower(email)) WHERE (completed_at IS NULL);
CREATE INDEX review_requests_org_id_status ON plaudit.review_requests USING btree (org_id, status, created_at, id);
CREATE INDEX review_requests_review_id ON plaudit.review_requests USING btree (review_id) WHERE (review_id IS NOT NULL);
CREATE INDEX review_statements_org_id ON plaudit.review_statements USING btree (org_id, created_at);
CREATE INDEX review_statements_report_id ON plaudit.review_statements USING btree (report_id);
CREATE INDEX review_statements_review_id ON plaudit.review_statements USING btree (review_id, created_at);

CREATE UNIQUE INDEX review_summaries_business ON plaudit.review_summaries USING btree (org_id) WHERE (product_id IS NULL);
CREATE UNIQUE INDEX review_summaries_group ON plaudit.review_summaries USING btree (org_id, group_key) WHERE (group_key IS NOT NULL);

CREATE INDEX review_summaries_input_review_ids ON plaudit.review_summaries USING gin (input_review_ids);

CREATE UNIQUE INDEX review_summaries_product ON plaudit.review_summaries USING btree (org_id, product_id) WHERE ((group_key IS NULL) AND (product_id IS NOT NULL));

CREATE INDEX review_summaries_product_id ON plaudit.review_summaries USING btree (product_id);
CREATE INDEX review_verification_tokens_org_id ON plaudit.review_verification_tokens USING btree (org_id, created_at);
CREATE INDEX review_votes_org_id ON plaudit.review_votes USING btree (org_id);
CREATE INDEX reviews_duplicate_lookup ON plaudit.reviews USING btree (form_id, lower(reviewer_email), created_at);
CREATE INDEX reviews_org_id_created_at_id ON plaudit.reviews USING btree (org_id, created_at, id);
CREATE INDEX reviews_org_id_form_id ON plaudit.reviews USING btree (org_id, form_id, created_at, id);
CREATE INDEX reviews_org_id_hidden ON plaudit.reviews USING btree (org_id, created_at, id) WHERE is_hidden;

CREATE UNIQUE INDEX reviews_org_id_import_key ON plaudit.reviews USING btree (org_id, import_key) WHERE (import_key IS NOT NULL);

CREATE INDEX reviews_org_id_product_id_created_at ON plaudit.reviews USING btree (org_id, product_id, created_at, id) WHERE (product_id IS NOT NULL);
CREATE INDEX reviews_org_id_rating ON plaudit.reviews USING btree (org_id, rating, created_at, id);
CREATE INDEX reviews_org_id_reviewer_email ON plaudit.reviews USING btree (org_id, lower(reviewer_email)) WHERE (reviewer_email IS NOT NULL);
CREATE INDEX reviews_org_id_verification_status ON plaudit.reviews USING btree (org_id, verification_status, created_at, id);
CREATE INDEX reviews_org_language_idx ON plaudit.reviews USING btree (org_id, language) WHERE (language IS NOT NULL);
CREATE INDEX reviews_public_business_by_rating ON plaudit.reviews USING btree (org_id, rating, created_at, id) WHERE ((product_id IS NULL) AND (NOT is_hidden) AND (verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])));
CREATE INDEX reviews_public_business_feed ON plaudit.reviews USING btree (org_id, created_at, id) INCLUDE (rating) WHERE ((product_id IS NULL) AND (NOT is_hidden) AND (verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])));
CREATE INDEX reviews_public_business_helpful ON plaudit.reviews USING btree (org_id, helpful_count, created_at, id) INCLUDE (rating) WHERE ((product_id IS NULL) AND (NOT is_hidden) AND (verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])));
CREATE INDEX reviews_public_product_by_rating ON plaudit.reviews USING btree (product_id, rating, created_at, id) WHERE ((product_id IS NOT NULL) AND (NOT is_hidden) AND (verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])));
CREATE INDEX reviews_public_product_feed ON plaudit.reviews USING btree (product_id, created_at, id) INCLUDE (rating) WHERE ((product_id IS NOT NULL) AND (NOT is_hidden) AND (verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])));
CREATE INDEX reviews_public_product_helpful ON plaudit.reviews USING btree (product_id, helpful_count, created_at, id) INCLUDE (rating) WHERE ((product_id IS NOT NULL) AND (NOT is_hidden) AND (verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])));
CREATE INDEX reviews_search ON plaudit.reviews USING gin (search);
CREATE INDEX reviews_verification_key_id ON plaudit.reviews USING btree (verification_key_id) WHERE (verification_key_id IS NOT NULL);
CREATE INDEX reviews_verification_order_hash ON plaudit.reviews USING btree (org_id, verification_order_hash) WHERE (verification_order_hash IS NOT NULL);
CREATE INDEX reviews_verification_token_id ON plaudit.reviews USING btree (verification_token_id) WHERE (verification_token_id IS NOT NULL);
CREATE INDEX sessions_email ON plaudit.sessions USING btree (lower(email)) WHERE (ended_at IS NULL);

CREATE INDEX shopify_write_backs_due ON plaudit.shopify_write_backs USING btree (next_attempt_at) WHERE (status = ANY (ARRAY['pending'::text,
    'sending'::text, 'retrying'::text]));

CREATE INDEX shopify_write_backs_log ON plaudit.shopify_write_backs USING btree (connection_id, created_at DESC);
CREATE INDEX shopify_write_backs_org_id ON plaudit.shopify_write_backs USING btree (org_id);

CREATE UNIQUE INDEX shopify_write_backs_pending ON plaudit.shopify_write_backs USING btree (connection_id, product_id) WHERE (status = 'pending'::text);

CREATE INDEX shopify_write_backs_product_id ON plaudit.shopify_write_backs USING btree (product_id);
CREATE INDEX sign_in_challenges_email ON plaudit.sign_in_challenges USING btree (lower(email), created_at DESC);
CREATE INDEX webhook_deliveries_due ON plaudit.webhook_deliveries USING btree (next_attempt_at) WHERE (status = 'pending'::text);
CREATE INDEX webhook_deliveries_endpoint_due ON plaudit.webhook_deliveries USING btree (endpoint_id, next_attempt_at) WHERE (status = 'pending'::text);
CREATE INDEX webhook_deliveries_event_id ON plaudit.webhook_deliveries USING btree (event_id);
CREATE INDEX webhook_deliveries_in_flight ON plaudit.webhook_deliveries USING btree (endpoint_id) WHERE ((status = 'pending'::text) AND (locked_until IS NOT NULL));
CREATE INDEX webhook_deliveries_org_id_endpoint ON plaudit.webhook_deliveries USING btree (org_id, endpoint_id, created_at DESC, id);
CREATE INDEX webhook_delivery_attempts_delivery_id ON plaudit.webhook_delivery_attempts USING btree (delivery_id);
CREATE INDEX webhook_delivery_attempts_org_id_delivery ON plaudit.webhook_delivery_attempts USING btree (org_id, delivery_id, created_at);
CREATE INDEX webhook_endpoints_enabled ON plaudit.webhook_endpoints USING btree (org_id) WHERE enabled;
CREATE INDEX webhook_endpoints_org_id_created_at ON plaudit.webhook_endpoints USING btree (org_id, created_at DESC, id);

CREATE TRIGGER api_keys_guard_revocation BEFORE UPDATE OF revoked_at, replaced_by ON plaudit.api_keys FOR EACH ROW EXECUTE FUNCTION plaudit.api_keys_guard_revocation();
CREATE TRIGGER connections_touch_updated_at BEFORE UPDATE ON plaudit.connections FOR EACH ROW EXECUTE FUNCTION plaudit.touch_updated_at();
CREATE TRIGGER email_outbox_track_review_requests AFTER UPDATE OF status ON plaudit.email_outbox FOR EACH ROW WHEN (((new.status IS DISTINCT FROM old.status) AND (new.data ? 'review_request_id'::text))) EXECUTE FUNCTION plaudit.email_outbox_track_review_requests();
CREATE TRIGGER email_suppressions_cancel_queued AFTER INSERT ON plaudit.email_suppressions FOR EACH ROW EXECUTE FUNCTION plaudit.email_suppressions_cancel_queued();
CREATE TRIGGER email_suppressions_set_key BEFORE INSERT OR UPDATE OF email ON plaudit.email_suppressions FOR EACH ROW EXECUTE FUNCTION plaudit.email_suppressions_set_key();
CREATE TRIGGER events_fan_out AFTER INSERT ON plaudit.events FOR EACH ROW EXECUTE FUNCTION plaudit.fan_out_event();
CREATE TRIGGER exports_note_chain_head BEFORE INSERT ON plaudit.exports FOR EACH ROW EXECUTE FUNCTION plaudit.exports_note_chain_head();
CREATE TRIGGER exports_notify_created AFTER INSERT ON plaudit.exports FOR EACH ROW EXECUTE FUNCTION plaudit.notify_export_created();
CREATE TRIGGER invitations_cancel_queued_email AFTER UPDATE OF revoked_at ON plaudit.invitations FOR EACH ROW WHEN (((old.revoked_at IS NULL) AND (new.revoked_at IS NOT NULL))) EXECUTE FUNCTION plaudit.invitations_cancel_queued_email();

CREATE TRIGGER invitations_guard_end BEFORE UPDATE ON plaudit.invitations FOR EACH ROW WHEN (((old.revoked_at IS NOT NULL) OR (old.accepted_at IS NOT NULL))) EXECUTE FUNCTION plaudit.refuse_changes_once_set('revoked_at',
    'an invitation''s withdrawal is permanent', 'accepted_at', 'an invitation''s acceptance is permanent');

CREATE TRIGGER members_keep_an_owner BEFORE DELETE OR UPDATE OF role ON plaudit.members FOR EACH ROW EXECUTE FUNCTION plaudit.keep_an_owner();
CREATE TRIGGER moderation_chain_heads_guard BEFORE DELETE OR UPDATE ON plaudit.moderation_chain_heads FOR EACH ROW EXECUTE FUNCTION plaudit.moderation_chain_heads_guard();
CREATE TRIGGER moderation_chain_heads_refuse_truncate BEFORE TRUNCATE ON plaudit.moderation_chain_heads FOR EACH STATEMENT EXECUTE FUNCTION plaudit.moderation_trail_refuse_change();
CREATE TRIGGER moderation_trail_refuse_truncate BEFORE TRUNCATE ON plaudit.moderation_trail FOR EACH STATEMENT EXECUTE FUNCTION plaudit.moderation_trail_refuse_change();
CREATE TRIGGER moderation_trail_refuse_update BEFORE DELETE OR UPDATE ON plaudit.moderation_trail FOR EACH ROW EXECUTE FUNCTION plaudit.moderation_trail_refuse_change();
CREATE TRIGGER orders_touch_updated_at BEFORE UPDATE ON plaudit.orders FOR EACH ROW EXECUTE FUNCTION plaudit.touch_updated_at();
CREATE TRIGGER organizations_purge_cdn_on_delete AFTER DELETE ON plaudit.organizations FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();
CREATE TRIGGER organizations_purge_cdn_on_insert AFTER INSERT ON plaudit.organizations FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();
CREATE TRIGGER organizations_purge_cdn_on_update AFTER UPDATE ON plaudit.organizations FOR EACH ROW WHEN ((((old.name IS DISTINCT FROM new.name) OR (old.slug IS DISTINCT FROM new.slug)) OR (old.website IS DISTINCT FROM new.website))) EXECUTE FUNCTION plaudit.cdn_purge_on_change();
CREATE TRIGGER organizations_touch_updated_at BEFORE UPDATE ON plaudit.organizations FOR EACH ROW EXECUTE FUNCTION plaudit.touch_updated_at();
CREATE TRIGGER product_review_statistics_write_back AFTER INSERT OR UPDATE ON plaudit.product_review_statistics FOR EACH ROW EXECUTE FUNCTION plaudit.shopify_write_back_on_rating_change();
CREATE TRIGGER products_purge_cdn AFTER INSERT OR DELETE OR UPDATE ON plaudit.products FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();
CREATE TRIGGER products_signal_changes_delete AFTER DELETE ON plaudit.products REFERENCING OLD TABLE AS old_products FOR EACH STATEMENT EXECUTE FUNCTION plaudit.products_signal_changes();
CREATE TRIGGER products_signal_changes_insert AFTER INSERT ON plaudit.products REFERENCING NEW TABLE AS new_products FOR EACH STATEMENT EXECUTE FUNCTION plaudit.products_signal_changes();
CREATE TRIGGER products_signal_changes_update AFTER UPDATE ON plaudit.products REFERENCING NEW TABLE AS new_products FOR EACH STATEMENT EXECUTE FUNCTION plaudit.products_signal_changes();
CREATE TRIGGER products_touch_updated_at BEFORE UPDATE ON plaudit.products FOR EACH ROW EXECUTE FUNCTION plaudit.touch_updated_at();
CREATE TRIGGER public_profiles_purge_cdn AFTER INSERT OR DELETE OR UPDATE ON plaudit.public_profiles FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();
CREATE TRIGGER public_profiles_touch_updated_at BEFORE UPDATE ON plaudit.public_profiles FOR EACH ROW EXECUTE FUNCTION plaudit.touch_updated_at();
CREATE TRIGGER question_answers_emit_answered AFTER INSERT OR UPDATE OF content ON plaudit.question_answers FOR EACH ROW EXECUTE FUNCTION plaudit.question_answers_emit_answered();
CREATE TRIGGER question_answers_public_change_on_insert AFTER INSERT ON plaudit.question_answers FOR EACH ROW EXECUTE FUNCTION plaudit.questions_public_change();
CREATE TRIGGER question_answers_public_change_on_update AFTER UPDATE ON plaudit.question_answers FOR EACH ROW WHEN ((NOT (old.helpful_count IS DISTINCT FROM new.helpful_count))) EXECUTE FUNCTION plaudit.questions_public_change();
CREATE TRIGGER question_answers_record_moderation AFTER INSERT OR UPDATE ON plaudit.question_answers FOR EACH ROW EXECUTE FUNCTION plaudit.question_answers_record_moderation();
CREATE TRIGGER question_answers_refuse_delete BEFORE DELETE ON plaudit.question_answers FOR EACH ROW EXECUTE FUNCTION plaudit.questions_refuse_delete();
CREATE TRIGGER question_answers_refuse_truncate BEFORE TRUNCATE ON plaudit.question_answers FOR EACH STATEMENT EXECUTE FUNCTION plaudit.questions_refuse_delete();
CREATE TRIGGER question_moderation_trail_refuse_change BEFORE DELETE OR UPDATE ON plaudit.question_moderation_trail FOR EACH ROW EXECUTE FUNCTION plaudit.moderation_trail_refuse_change();
CREATE TRIGGER question_moderation_trail_refuse_truncate BEFORE TRUNCATE ON plaudit.question_moderation_trail FOR EACH STATEMENT EXECUTE FUNCTION plaudit.moderation_trail_refuse_change();
CREATE TRIGGER questions_public_change AFTER UPDATE ON plaudit.questions FOR EACH ROW WHEN ((old.status IS DISTINCT FROM new.status)) EXECUTE FUNCTION plaudit.questions_public_change();
CREATE TRIGGER questions_record_moderation AFTER UPDATE ON plaudit.questions FOR EACH ROW WHEN ((old.status IS DISTINCT FROM new.status)) EXECUTE FUNCTION plaudit.questions_record_moderation();
CREATE TRIGGER questions_refuse_delete BEFORE DELETE ON plaudit.questions FOR EACH ROW EXECUTE FUNCTION plaudit.questions_refuse_delete();
CREATE TRIGGER questions_refuse_truncate BEFORE TRUNCATE ON plaudit.questions FOR EACH STATEMENT EXECUTE FUNCTION plaudit.questions_refuse_delete();
CREATE TRIGGER review_appeals_purge_cdn AFTER INSERT OR UPDATE OF status, decided_at ON plaudit.review_appeals FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();
CREATE TRIGGER review_forms_stay_deleted BEFORE UPDATE ON plaudit.review_forms FOR EACH ROW EXECUTE FUNCTION plaudit.review_forms_stay_deleted();
CREATE TRIGGER review_forms_touch_updated_at BEFORE UPDATE ON plaudit.review_forms FOR EACH ROW EXECUTE FUNCTION plaudit.touch_updated_at();
CREATE TRIGGER review_media_purge_cdn AFTER INSERT OR DELETE OR UPDATE ON plaudit.review_media FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();
CREATE TRIGGER review_replies_purge_cdn AFTER INSERT OR DELETE OR UPDATE ON plaudit.review_replies FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();
CREATE TRIGGER review_replies_record AFTER INSERT OR DELETE OR UPDATE ON plaudit.review_replies FOR EACH ROW EXECUTE FUNCTION plaudit.review_replies_record();
CREATE TRIGGER review_reports_purge_cdn AFTER INSERT OR UPDATE OF status, decision, resolved_at ON plaudit.review_reports FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();
CREATE TRIGGER review_requests_guard_update BEFORE UPDATE ON plaudit.review_requests FOR EACH ROW EXECUTE FUNCTION plaudit.review_requests_guard_update();
CREATE TRIGGER review_statements_purge_cdn AFTER INSERT ON plaudit.review_statements FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();
CREATE TRIGGER review_summaries_purge_cdn AFTER INSERT OR DELETE OR UPDATE ON plaudit.review_summaries FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();
CREATE TRIGGER reviews_complete_review_requests AFTER INSERT ON plaudit.reviews FOR EACH ROW WHEN ((new.source <> 'import'::text)) EXECUTE FUNCTION plaudit.reviews_complete_review_requests();
CREATE TRIGGER reviews_count_inserted AFTER INSERT ON plaudit.reviews REFERENCING NEW TABLE AS new_reviews FOR EACH STATEMENT EXECUTE FUNCTION plaudit.reviews_count_inserted();
CREATE TRIGGER reviews_count_updated AFTER UPDATE ON plaudit.reviews REFERENCING OLD TABLE AS old_reviews NEW TABLE AS new_reviews FOR EACH STATEMENT EXECUTE FUNCTION plaudit.reviews_count_updated();
CREATE TRIGGER reviews_emit_created AFTER INSERT ON plaudit.reviews REFERENCING NEW TABLE AS new_reviews FOR EACH STATEMENT EXECUTE FUNCTION plaudit.reviews_emit_created();
CREATE TRIGGER reviews_guard_update BEFORE UPDATE ON plaudit.reviews FOR EACH ROW EXECUTE FUNCTION plaudit.reviews_guard_update();
CREATE TRIGGER reviews_keep_held BEFORE UPDATE OF verification_status ON plaudit.reviews FOR EACH ROW WHEN (((old.verification_status = 'pending'::text) AND (new.verification_status <> 'pending'::text))) EXECUTE FUNCTION plaudit.held_reviews_guard();
CREATE TRIGGER reviews_leave_summaries AFTER UPDATE ON plaudit.reviews FOR EACH ROW WHEN (plaudit.review_leaves_summaries(old.*, new.*)) EXECUTE FUNCTION plaudit.reviews_leave_summaries();
CREATE TRIGGER reviews_purge_cdn_on_insert AFTER INSERT ON plaudit.reviews FOR EACH ROW WHEN ((plaudit.review_is_public(new.is_hidden, new.verification_status) AND (new.source <> 'import'::text))) EXECUTE FUNCTION plaudit.cdn_purge_on_change();

CREATE TRIGGER reviews_purge_cdn_on_update AFTER UPDATE ON plaudit.reviews FOR EACH ROW WHEN (((plaudit.review_is_public(old.is_hidden,
    old.verification_status) OR plaudit.review_is_public(new.is_hidden, new.verification_status)) AND (NOT (old.helpful_count IS DISTINCT FROM new.helpful_count)))) EXECUTE FUNCTION plaudit.cdn_purge_on_change();

CREATE TRIGGER reviews_record_moderation AFTER UPDATE OF is_hidden, verification_status ON plaudit.reviews FOR EACH ROW WHEN (((old.is_hidden IS DISTINCT FROM new.is_hidden) OR (old.verification_status IS DISTINCT FROM new.verification_status))) EXECUTE FUNCTION plaudit.reviews_record_moderation();
CREATE TRIGGER reviews_refuse_delete BEFORE DELETE ON plaudit.reviews FOR EACH ROW EXECUTE FUNCTION plaudit.reviews_refuse_delete();
CREATE TRIGGER reviews_refuse_truncate BEFORE TRUNCATE ON plaudit.reviews FOR EACH STATEMENT EXECUTE FUNCTION plaudit.reviews_refuse_delete();
CREATE TRIGGER reviews_signal_changes AFTER UPDATE OF is_hidden, verification_status ON plaudit.reviews FOR EACH ROW WHEN (((old.is_hidden IS DISTINCT FROM new.is_hidden) OR (old.verification_status IS DISTINCT FROM new.verification_status))) EXECUTE FUNCTION plaudit.reviews_emit_changes();
CREATE TRIGGER reviews_state_reasons AFTER UPDATE OF is_hidden ON plaudit.reviews FOR EACH ROW WHEN ((new.is_hidden AND (NOT old.is_hidden))) EXECUTE FUNCTION plaudit.reviews_state_reasons();
CREATE TRIGGER sessions_guard_end BEFORE UPDATE ON plaudit.sessions FOR EACH ROW WHEN ((old.ended_at IS NOT NULL)) EXECUTE FUNCTION plaudit.refuse_changes_once_set('ended_at', 'a session''s end is permanent');
CREATE TRIGGER webhook_endpoints_cancel_on_disable BEFORE UPDATE OF enabled ON plaudit.webhook_endpoints FOR EACH ROW EXECUTE FUNCTION plaudit.cancel_deliveries_of_disabled_endpoint();
CREATE TRIGGER webhook_endpoints_touch_updated_at BEFORE UPDATE ON plaudit.webhook_endpoints FOR EACH ROW EXECUTE FUNCTION plaudit.touch_updated_at();

ALTER TABLE ONLY plaudit.answer_votes ADD CONSTRAINT answer_votes_answer_id_fkey FOREIGN KEY (answer_id) REFERENCES plaudit.question_answers(id);
ALTER TABLE ONLY plaudit.answer_votes ADD CONSTRAINT answer_votes_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.api_keys ADD CONSTRAINT api_keys_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.api_keys ADD CONSTRAINT api_keys_replaced_by_fkey FOREIGN KEY (replaced_by) REFERENCES plaudit.api_keys(id);
ALTER TABLE ONLY plaudit.attribute_statistics ADD CONSTRAINT attribute_statistics_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.attribute_statistics ADD CONSTRAINT attribute_statistics_product_id_fkey FOREIGN KEY (product_id) REFERENCES plaudit.products(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.connection_events ADD CONSTRAINT connection_events_connection_id_fkey FOREIGN KEY (connection_id) REFERENCES plaudit.connections(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.connection_events ADD CONSTRAINT connection_events_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.connections ADD CONSTRAINT connections_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.email_outbox ADD CONSTRAINT email_outbox_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.email_suppressions ADD CONSTRAINT email_suppressions_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.email_suppressions ADD CONSTRAINT email_suppressions_request_id_fkey FOREIGN KEY (request_id) REFERENCES plaudit.review_requests(id) ON DELETE SET NULL;
ALTER TABLE ONLY plaudit.events ADD CONSTRAINT events_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.export_chunks ADD CONSTRAINT export_chunks_export_id_fkey FOREIGN KEY (export_id) REFERENCES plaudit.exports(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.export_chunks ADD CONSTRAINT export_chunks_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.exports ADD CONSTRAINT exports_created_by_key_id_fkey FOREIGN KEY (created_by_key_id) REFERENCES plaudit.api_keys(id) ON DELETE SET NULL;
ALTER TABLE ONLY plaudit.exports ADD CONSTRAINT exports_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.held_reviews ADD CONSTRAINT held_reviews_duplicate_of_fkey FOREIGN KEY (duplicate_of) REFERENCES plaudit.reviews(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.held_reviews ADD CONSTRAINT held_reviews_hold_id_fkey FOREIGN KEY (hold_id) REFERENCES plaudit.review_holds(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.held_reviews ADD CONSTRAINT held_reviews_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.held_reviews ADD CONSTRAINT held_reviews_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.idempotency_keys ADD CONSTRAINT idempotency_keys_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.import_rows ADD CONSTRAINT import_rows_import_id_fkey FOREIGN KEY (import_id) REFERENCES plaudit.imports(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.import_rows ADD CONSTRAINT import_rows_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.imports ADD CONSTRAINT imports_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.invitations ADD CONSTRAINT invitations_invited_by_key_id_fkey FOREIGN KEY (invited_by_key_id) REFERENCES plaudit.api_keys(id);
ALTER TABLE ONLY plaudit.invitations ADD CONSTRAINT invitations_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.media_upload_tokens ADD CONSTRAINT media_upload_tokens_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);
ALTER TABLE ONLY plaudit.media_upload_tokens ADD CONSTRAINT media_upload_tokens_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);
ALTER TABLE ONLY plaudit.members ADD CONSTRAINT members_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.moderation_chain_heads ADD CONSTRAINT moderation_chain_heads_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);
ALTER TABLE ONLY plaudit.moderation_trail ADD CONSTRAINT moderation_trail_action_fkey FOREIGN KEY (action) REFERENCES plaudit.trail_actions(action);
ALTER TABLE ONLY plaudit.moderation_trail ADD CONSTRAINT moderation_trail_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);
ALTER TABLE ONLY plaudit.moderation_trail ADD CONSTRAINT moderation_trail_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);
ALTER TABLE ONLY plaudit.order_events ADD CONSTRAINT order_events_connection_event_id_fkey FOREIGN KEY (connection_event_id) REFERENCES plaudit.connection_events(id) ON DELETE SET NULL;
ALTER TABLE ONLY plaudit.order_events ADD CONSTRAINT order_events_org_id_order_id_fkey FOREIGN KEY (org_id, order_id) REFERENCES plaudit.orders(org_id, order_id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.order_items ADD CONSTRAINT order_items_org_id_order_id_fkey FOREIGN KEY (org_id, order_id) REFERENCES plaudit.orders(org_id, order_id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.orders ADD CONSTRAINT orders_connection_id_fkey FOREIGN KEY (connection_id) REFERENCES plaudit.connections(id);
ALTER TABLE ONLY plaudit.orders ADD CONSTRAINT orders_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.orders ADD CONSTRAINT orders_review_request_id_fkey FOREIGN KEY (review_request_id) REFERENCES plaudit.review_requests(id) ON DELETE SET NULL;
ALTER TABLE ONLY plaudit.privacy_data_requests ADD CONSTRAINT privacy_data_requests_connection_id_fkey FOREIGN KEY (connection_id) REFERENCES plaudit.connections(id) ON DELETE SET NULL;
ALTER TABLE ONLY plaudit.privacy_data_requests ADD CONSTRAINT privacy_data_requests_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.privacy_erasures ADD CONSTRAINT privacy_erasures_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.product_review_statistics ADD CONSTRAINT product_review_statistics_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.product_review_statistics ADD CONSTRAINT product_review_statistics_product_id_fkey FOREIGN KEY (product_id) REFERENCES plaudit.products(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.products ADD CONSTRAINT products_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.public_profiles ADD CONSTRAINT public_profiles_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.question_answer_tokens ADD CONSTRAINT question_answer_tokens_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);
ALTER TABLE ONLY plaudit.question_answer_tokens ADD CONSTRAINT question_answer_tokens_question_id_fkey FOREIGN KEY (question_id) REFERENCES plaudit.questions(id);
ALTER TABLE ONLY plaudit.question_answers ADD CONSTRAINT question_answers_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);
ALTER TABLE ONLY plaudit.question_answers ADD CONSTRAINT question_answers_question_id_fkey FOREIGN KEY (question_id) REFERENCES plaudit.questions(id);
ALTER TABLE ONLY plaudit.question_answers ADD CONSTRAINT question_answers_token_id_fkey FOREIGN KEY (token_id) REFERENCES plaudit.question_answer_tokens(id);
ALTER TABLE ONLY plaudit.question_moderation_trail ADD CONSTRAINT question_moderation_trail_answer_id_fkey FOREIGN KEY (answer_id) REFERENCES plaudit.question_answers(id);
ALTER TABLE ONLY plaudit.question_moderation_trail ADD CONSTRAINT question_moderation_trail_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);
ALTER TABLE ONLY plaudit.question_moderation_trail ADD CONSTRAINT question_moderation_trail_question_id_fkey FOREIGN KEY (question_id) REFERENCES plaudit.questions(id);
ALTER TABLE ONLY plaudit.questions ADD CONSTRAINT questions_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);
ALTER TABLE ONLY plaudit.questions ADD CONSTRAINT questions_product_id_fkey FOREIGN KEY (product_id) REFERENCES plaudit.products(id);
ALTER TABLE ONLY plaudit.review_appeals ADD CONSTRAINT review_appeals_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_appeals ADD CONSTRAINT review_appeals_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_appeals ADD CONSTRAINT review_appeals_statement_id_fkey FOREIGN KEY (statement_id) REFERENCES plaudit.review_statements(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_arrivals ADD CONSTRAINT review_arrivals_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_arrivals ADD CONSTRAINT review_arrivals_product_id_fkey FOREIGN KEY (product_id) REFERENCES plaudit.products(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_arrivals ADD CONSTRAINT review_arrivals_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_forms ADD CONSTRAINT review_forms_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_hold_settings ADD CONSTRAINT review_hold_settings_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_holds ADD CONSTRAINT review_holds_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_media ADD CONSTRAINT review_media_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);
ALTER TABLE ONLY plaudit.review_media ADD CONSTRAINT review_media_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);
ALTER TABLE ONLY plaudit.review_replies ADD CONSTRAINT review_replies_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_replies ADD CONSTRAINT review_replies_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);
ALTER TABLE ONLY plaudit.review_reports ADD CONSTRAINT review_reports_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_reports ADD CONSTRAINT review_reports_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);
ALTER TABLE ONLY plaudit.review_request_automation ADD CONSTRAINT review_request_automation_form_id_fkey FOREIGN KEY (form_id) REFERENCES plaudit.review_forms(id) ON DELETE SET NULL;
ALTER TABLE ONLY plaudit.review_request_automation ADD CONSTRAINT review_request_automation_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_request_events ADD CONSTRAINT review_request_events_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_request_events ADD CONSTRAINT review_request_events_request_id_fkey FOREIGN KEY (request_id) REFERENCES plaudit.review_requests(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_request_products ADD CONSTRAINT review_request_products_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_products ADD CONSTRAINT review_request_products_product_id_org_id_fkey FOREIGN KEY (product_id,
    org_id) REFERENCES plaudit.products(id, org_id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_products ADD CONSTRAINT review_request_products_request_id_org_id_fkey FOREIGN KEY (request_id,
    org_id) REFERENCES plaudit.review_requests(id, org_id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_reviews ADD CONSTRAINT review_request_reviews_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_reviews ADD CONSTRAINT review_request_reviews_org_id_request_id_product_id_fkey FOREIGN KEY (org_id, request_id,
    product_id) REFERENCES plaudit.review_request_products(org_id, request_id, product_id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_reviews ADD CONSTRAINT review_request_reviews_request_id_org_id_fkey FOREIGN KEY (request_id,
    org_id) REFERENCES plaudit.review_requests(id, org_id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_reviews ADD CONSTRAINT review_request_reviews_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);
ALTER TABLE ONLY plaudit.review_request_settings ADD CONSTRAINT review_request_settings_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_request_usage ADD CONSTRAINT review_request_usage_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_requests ADD CONSTRAINT review_requests_form_id_org_id_fkey FOREIGN KEY (form_id,
    org_id) REFERENCES plaudit.review_forms(id, org_id);

ALTER TABLE ONLY plaudit.review_requests ADD CONSTRAINT review_requests_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_requests ADD CONSTRAINT review_requests_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);
ALTER TABLE ONLY plaudit.review_statements ADD CONSTRAINT review_statements_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_statements ADD CONSTRAINT review_statements_report_id_fkey FOREIGN KEY (report_id) REFERENCES plaudit.review_reports(id) ON DELETE SET NULL;
ALTER TABLE ONLY plaudit.review_statements ADD CONSTRAINT review_statements_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_statistics ADD CONSTRAINT review_statistics_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_summaries ADD CONSTRAINT review_summaries_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_summaries ADD CONSTRAINT review_summaries_product_id_fkey FOREIGN KEY (product_id) REFERENCES plaudit.products(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_verification_tokens ADD CONSTRAINT review_verification_tokens_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);
ALTER TABLE ONLY plaudit.review_verification_tokens ADD CONSTRAINT review_verification_tokens_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);
ALTER TABLE ONLY plaudit.review_votes ADD CONSTRAINT review_votes_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.review_votes ADD CONSTRAINT review_votes_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);
ALTER TABLE ONLY plaudit.reviews ADD CONSTRAINT reviews_form_id_org_id_fkey FOREIGN KEY (form_id, org_id) REFERENCES plaudit.review_forms(id, org_id);
ALTER TABLE ONLY plaudit.reviews ADD CONSTRAINT reviews_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);
ALTER TABLE ONLY plaudit.reviews ADD CONSTRAINT reviews_product_id_fkey FOREIGN KEY (product_id, org_id) REFERENCES plaudit.products(id, org_id);
ALTER TABLE ONLY plaudit.reviews ADD CONSTRAINT reviews_verification_key_id_fkey FOREIGN KEY (verification_key_id) REFERENCES plaudit.api_keys(id);
ALTER TABLE ONLY plaudit.reviews ADD CONSTRAINT reviews_verification_token_id_fkey FOREIGN KEY (verification_token_id) REFERENCES plaudit.review_verification_tokens(id);
ALTER TABLE ONLY plaudit.shopify_write_backs ADD CONSTRAINT shopify_write_backs_connection_id_fkey FOREIGN KEY (connection_id) REFERENCES plaudit.connections(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.shopify_write_backs ADD CONSTRAINT shopify_write_backs_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.shopify_write_backs ADD CONSTRAINT shopify_write_backs_product_id_fkey FOREIGN KEY (product_id) REFERENCES plaudit.products(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.webhook_deliveries ADD CONSTRAINT webhook_deliveries_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES plaudit.webhook_endpoints(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES plaudit.events(id) ON DELETE SET NULL;
ALTER TABLE ONLY plaudit.webhook_deliveries ADD CONSTRAINT webhook_deliveries_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.webhook_delivery_attempts ADD CONSTRAINT webhook_delivery_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES plaudit.webhook_deliveries(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.webhook_delivery_attempts ADD CONSTRAINT webhook_delivery_attempts_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;
ALTER TABLE ONLY plaudit.webhook_endpoints ADD CONSTRAINT webhook_endpoints_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

CREATE POLICY "Tenants can add addresses to their own suppression list" ON plaudit.email_suppressions FOR INSERT TO plaudit_api WITH CHECK (((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)) AND (reason = 'manual'::text)));
CREATE POLICY "Tenants can add items to their own orders" ON plaudit.order_items FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can add products to their own catalog" ON plaudit.products FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can answer their own questions" ON plaudit.question_answers FOR INSERT TO plaudit_api WITH CHECK (((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)) AND (author = 'business'::text) AND (EXISTS ( SELECT
   FROM plaudit.questions q
  WHERE ((q.id = question_answers.question_id) AND (q.org_id = question_answers.org_id))))));

CREATE POLICY "Tenants can change their own connections" ON plaudit.connections FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can change their own hold settings" ON plaudit.review_hold_settings FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can change their own members' roles" ON plaudit.members FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can change their own review request automation" ON plaudit.review_request_automation FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can change their own review request settings" ON plaudit.review_request_settings FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can change their own webhook endpoints" ON plaudit.webhook_endpoints FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can create API keys for themselves" ON plaudit.api_keys FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can create review forms for themselves" ON plaudit.review_forms FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can create their own connections" ON plaudit.connections FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can create their own hold settings" ON plaudit.review_hold_settings FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can create their own public profile" ON plaudit.public_profiles FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can create their own review request settings" ON plaudit.review_request_settings FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can delete their own products" ON plaudit.products FOR DELETE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can delete their own webhook endpoints" ON plaudit.webhook_endpoints FOR DELETE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can edit their own replies" ON plaudit.review_replies FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can invite into their own organization" ON plaudit.invitations FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can lift entries of their own suppression list" ON plaudit.email_suppressions FOR DELETE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can load their own orders" ON plaudit.orders FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can moderate and verify their own reviews" ON plaudit.reviews FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can moderate the answers to their own questions" ON plaudit.question_answers FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can moderate their own questions" ON plaudit.questions FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read the answers to their own questions" ON plaudit.question_answers FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read the data requests their own shops passed on" ON plaudit.privacy_data_requests FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read the events of their own connections" ON plaudit.connection_events FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read the files of their own exports" ON plaudit.export_chunks FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read the items of their own orders" ON plaudit.order_items FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read the products named in their own review request" ON plaudit.review_request_products FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read the replies to their own reviews" ON plaudit.review_replies FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read the timelines of their own orders" ON plaudit.order_events FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read the timelines of their own review requests" ON plaudit.review_request_events FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read the trail's actions" ON plaudit.trail_actions FOR SELECT TO plaudit_api USING (true);
CREATE POLICY "Tenants can read their own API keys" ON plaudit.api_keys FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own Shopify write-backs" ON plaudit.shopify_write_backs FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own answers' statistics" ON plaudit.attribute_statistics FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own appeals" ON plaudit.review_appeals FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own connections" ON plaudit.connections FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own erasures" ON plaudit.privacy_erasures FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own events" ON plaudit.events FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own exports" ON plaudit.exports FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own held reviews" ON plaudit.held_reviews FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own hold settings" ON plaudit.review_hold_settings FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own holds" ON plaudit.review_holds FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own idempotency keys" ON plaudit.idempotency_keys FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own imports" ON plaudit.imports FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own invitations" ON plaudit.invitations FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own members" ON plaudit.members FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own moderation trail" ON plaudit.moderation_trail FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own orders" ON plaudit.orders FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own organization" ON plaudit.organizations FOR SELECT TO plaudit_api USING ((id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own outgoing e-mail" ON plaudit.email_outbox FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own products" ON plaudit.products FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own products' review statistics" ON plaudit.product_review_statistics FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own public profile" ON plaudit.public_profiles FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own questions" ON plaudit.questions FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own questions' moderation trail" ON plaudit.question_moderation_trail FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own reports" ON plaudit.review_reports FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own review forms" ON plaudit.review_forms FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own review media" ON plaudit.review_media FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own review request automation" ON plaudit.review_request_automation FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own review request settings" ON plaudit.review_request_settings FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own review request usage" ON plaudit.review_request_usage FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own review requests" ON plaudit.review_requests FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own review statistics" ON plaudit.review_statistics FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own review summaries" ON plaudit.review_summaries FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own reviews" ON plaudit.reviews FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own statements of reasons" ON plaudit.review_statements FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own suppression list" ON plaudit.email_suppressions FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own verification tokens" ON plaudit.review_verification_tokens FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own webhook deliveries" ON plaudit.webhook_deliveries FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own webhook delivery attempts" ON plaudit.webhook_delivery_attempts FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read their own webhook endpoints" ON plaudit.webhook_endpoints FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can read which reviews their own review requests brough" ON plaudit.review_request_reviews FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can record their own idempotency keys" ON plaudit.idempotency_keys FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can register webhook endpoints for themselves" ON plaudit.webhook_endpoints FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can remove their own members" ON plaudit.members FOR DELETE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can replace the items of their own orders" ON plaudit.order_items FOR DELETE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can reply to their own reviews" ON plaudit.review_replies FOR INSERT TO plaudit_api WITH CHECK (((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)) AND (EXISTS ( SELECT
   FROM plaudit.reviews v
  WHERE ((v.id = review_replies.review_id) AND (v.org_id = v.org_id))))));

CREATE POLICY "Tenants can request exports of their own data" ON plaudit.exports FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can requeue their own webhook deliveries" ON plaudit.webhook_deliveries FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can resolve their own reports" ON plaudit.review_reports FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can revoke their own API keys" ON plaudit.api_keys FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can set up their own review request automation" ON plaudit.review_request_automation FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can store the answers of their own idempotency keys" ON plaudit.idempotency_keys FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can update their own orders" ON plaudit.orders FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can update their own organization" ON plaudit.organizations FOR UPDATE TO plaudit_api USING ((id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can update their own products" ON plaudit.products FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can update their own public profile" ON plaudit.public_profiles FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can update their own review forms" ON plaudit.review_forms FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can withdraw their own invitations" ON plaudit.invitations FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));
CREATE POLICY "Tenants can withdraw their own replies" ON plaudit.review_replies FOR DELETE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

ALTER TABLE plaudit.answer_votes ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.api_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.attribute_statistics ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.cdn_purges ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.connection_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.connections ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.email_outbox ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.email_suppressions ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.events ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.export_chunks ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.exports ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.held_reviews ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.idempotency_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.import_rows ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.imports ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.invitations ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.media_upload_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.members ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.moderation_chain_heads ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.moderation_trail ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.order_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.order_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.orders ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.organizations ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.privacy_data_requests ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.privacy_erasures ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.product_review_statistics ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.products ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.public_profiles ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.question_answer_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.question_answers ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.question_moderation_trail ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.questions ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.rate_limit_counters ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.replica_read_floor ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_appeals ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_arrivals ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_forms ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_hold_settings ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_holds ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_media ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_replies ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_reports ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_request_automation ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_request_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_request_products ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_request_reviews ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_request_settings ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_request_usage ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_requests ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_statements ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_statistics ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_summaries ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_verification_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.review_votes ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.reviews ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.shopify_write_backs ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.sign_in_challenges ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.signing_secrets ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.trail_actions ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.visitor_hash_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.webhook_deliveries ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.webhook_delivery_attempts ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.webhook_endpoints ENABLE ROW LEVEL SECURITY;
ALTER TABLE plaudit.worker_bell ENABLE ROW LEVEL SECURITY;

GRANT USAGE ON SCHEMA plaudit TO plaudit_api, plaudit_public, plaudit_worker, plaudit_authenticator;

GRANT ALL ON FUNCTION plaudit.accept_invitation(p_token text, p_name text) TO plaudit_public;

GRANT ALL ON FUNCTION plaudit.add_review_media(p_review_id uuid, p_token_hash bytea, p_id uuid, p_type text, p_content_type text, p_storage_key text,
    p_thumbnail_key text, p_url text, p_thumbnail_url text, p_width integer, p_height integer, p_bytes bigint, p_sha256 bytea, OUT refusal text,
    OUT created boolean, OUT item text) TO plaudit_api, plaudit_public;

GRANT ALL ON FUNCTION plaudit.answer_question_by_token(p_rate_bucket text, p_rate_limit integer, p_token text, p_content text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.api_key_checksum(body text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.api_key_for_read(p_key_hash bytea, p_rate_limit integer) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.api_organization(p_key_hash bytea, p_org_id uuid, p_rate_limit integer) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.api_review(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_review_id uuid) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.api_review_first_page(p_key_hash bytea, p_org_id uuid, p_rate_limit integer) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.appeal_form(p_token text) TO plaudit_public;

GRANT SELECT ON TABLE plaudit.review_appeals TO plaudit_api;

GRANT SELECT(id) ON TABLE plaudit.review_statements TO plaudit_api;

GRANT SELECT(org_id) ON TABLE plaudit.review_statements TO plaudit_api;

GRANT SELECT(review_id) ON TABLE plaudit.review_statements TO plaudit_api;

GRANT SELECT(restriction) ON TABLE plaudit.review_statements TO plaudit_api;

GRANT SELECT(facts) ON TABLE plaudit.review_statements TO plaudit_api;

GRANT SELECT(automated) ON TABLE plaudit.review_statements TO plaudit_api;

GRANT SELECT(ground_type) ON TABLE plaudit.review_statements TO plaudit_api;

GRANT SELECT(ground) ON TABLE plaudit.review_statements TO plaudit_api;

GRANT SELECT(source) ON TABLE plaudit.review_statements TO plaudit_api;

GRANT SELECT(report_id) ON TABLE plaudit.review_statements TO plaudit_api;

GRANT SELECT(actor) ON TABLE plaudit.review_statements TO plaudit_api;

GRANT SELECT(mailed) ON TABLE plaudit.review_statements TO plaudit_api;

GRANT SELECT(created_at) ON TABLE plaudit.review_statements TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.apply_connection_order_events(p_events jsonb, p_link_base text) TO plaudit_worker;

GRANT ALL ON FUNCTION plaudit.apply_order_event(p_connection_id uuid, p_type text, p_occurred_at timestamp with time zone, p_order jsonb, p_link_base text,
    p_event_id bigint, p_now timestamp with time zone) TO plaudit_worker;

GRANT SELECT ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(verification_status) ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(is_hidden) ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(verification_method) ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(verification_at) ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(verification_key_id) ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(verification_order_hash) ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(verification_reason) ON TABLE plaudit.reviews TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.approve_review(p_review_id uuid, p_reason text, p_key_id uuid) TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.ask_question(p_rate_bucket text, p_rate_limit integer, p_slug text, p_product_external_id text, p_question text, p_name text,
    p_email text, p_link_base text) TO plaudit_public;

GRANT SELECT(id) ON TABLE plaudit.questions TO plaudit_api;

GRANT SELECT(org_id) ON TABLE plaudit.questions TO plaudit_api;

GRANT SELECT(product_id) ON TABLE plaudit.questions TO plaudit_api;

GRANT SELECT(question) ON TABLE plaudit.questions TO plaudit_api;

GRANT SELECT(asker_name) ON TABLE plaudit.questions TO plaudit_api;

GRANT SELECT(asker_email) ON TABLE plaudit.questions TO plaudit_api;

GRANT SELECT(status),UPDATE(status) ON TABLE plaudit.questions TO plaudit_api;

GRANT SELECT(confirmed_at) ON TABLE plaudit.questions TO plaudit_api;

GRANT SELECT(last_answered_at) ON TABLE plaudit.questions TO plaudit_api;

GRANT SELECT(created_at) ON TABLE plaudit.questions TO plaudit_api;

GRANT SELECT(updated_at),UPDATE(updated_at) ON TABLE plaudit.questions TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.attributes_match(p_attributes jsonb, p_filter jsonb) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.authenticate(p_key_hash bytea, p_default_limit integer) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.authenticate_credential(p_hash bytea, p_org_id uuid, p_default_limit integer) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.authenticate_session(p_token_hash bytea, p_org_id uuid, p_default_limit integer) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.base62_alphabet() TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.begin_api_read(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_scope text) TO plaudit_authenticator;

GRANT SELECT ON TABLE plaudit.orders TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.orders TO plaudit_api;

GRANT INSERT(order_id) ON TABLE plaudit.orders TO plaudit_api;

GRANT INSERT(email),UPDATE(email) ON TABLE plaudit.orders TO plaudit_api;

GRANT INSERT(purchased_at),UPDATE(purchased_at) ON TABLE plaudit.orders TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.canonical_json(v jsonb) TO plaudit_api, plaudit_worker;
GRANT ALL ON FUNCTION plaudit.change_verification(p_review_id uuid, p_status text, p_method text, p_reason text, p_key_id uuid, p_order_hash text, p_verb text) TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.check_review_media_upload(p_review_id uuid, p_token_hash bytea, p_address_bucket text, p_address_limit integer,
    p_review_limit integer, OUT refusal text, OUT org_id uuid, OUT rate_remaining integer, OUT rate_reset bigint) TO plaudit_api, plaudit_public;

GRANT ALL ON FUNCTION plaudit.claim_cdn_purges(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.claim_connection_events(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.claim_emails(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.claim_shopify_write_backs(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) TO plaudit_worker;

GRANT ALL ON FUNCTION plaudit.claim_webhook_deliveries(p_limit integer, p_lease_seconds integer, p_per_endpoint integer, p_org_ids uuid[],
    p_per_org integer, p_org_busy jsonb, p_suspect_room integer) TO plaudit_worker;

GRANT ALL ON FUNCTION plaudit.confirm_question(p_token text, p_link_base text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.connection_recent_events(p_connection_id uuid) TO plaudit_api;

GRANT SELECT(id) ON TABLE plaudit.connections TO plaudit_api;

GRANT SELECT(org_id),INSERT(org_id) ON TABLE plaudit.connections TO plaudit_api;

GRANT SELECT(platform),INSERT(platform) ON TABLE plaudit.connections TO plaudit_api;

GRANT SELECT(name),INSERT(name),UPDATE(name) ON TABLE plaudit.connections TO plaudit_api;

GRANT SELECT(status),UPDATE(status) ON TABLE plaudit.connections TO plaudit_api;

GRANT SELECT(settings),INSERT(settings),UPDATE(settings) ON TABLE plaudit.connections TO plaudit_api;

GRANT INSERT(secret),UPDATE(secret) ON TABLE plaudit.connections TO plaudit_api;

GRANT INSERT(access_token),UPDATE(access_token) ON TABLE plaudit.connections TO plaudit_api;

GRANT SELECT(last_event_at) ON TABLE plaudit.connections TO plaudit_api;

GRANT SELECT(deleted_at),UPDATE(deleted_at) ON TABLE plaudit.connections TO plaudit_api;

GRANT SELECT(created_at) ON TABLE plaudit.connections TO plaudit_api;

GRANT SELECT(updated_at),UPDATE(updated_at) ON TABLE plaudit.connections TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.create_connection(p_platform text, p_name text, p_settings jsonb, p_secret text, p_access_token text) TO plaudit_api;

GRANT SELECT ON TABLE plaudit.imports TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.create_import(p_format text, p_dry_run boolean, p_total_rows integer, p_rows jsonb, p_rejected jsonb, p_actor text,
    p_rejected_count integer, p_duplicates integer) TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.create_invitation(p_org_id uuid, p_email text, p_role text, p_invited_by_key_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.create_review_requests(p_rows jsonb, p_link_base text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.create_test_delivery(p_endpoint_id uuid, p_event_type text, p_data jsonb) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.create_webhook_endpoint(p_org_id uuid, p_url text, p_events text[], p_description text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.csv_cell(v text) TO plaudit_api, plaudit_worker;
GRANT ALL ON FUNCTION plaudit.csv_guard(v text) TO plaudit_api, plaudit_worker;
GRANT ALL ON FUNCTION plaudit.current_org_id() TO plaudit_api, plaudit_public;
GRANT ALL ON FUNCTION plaudit.current_replica_read_floor() TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.custom_field_definitions_are_valid(fields jsonb) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.decide_appeal(p_id uuid, p_status text, p_resolution text, p_actor text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.delete_connection(p_id uuid) TO plaudit_api;

GRANT SELECT ON TABLE plaudit.review_holds TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.detect_review_bursts(p_now timestamp with time zone, p_org_ids uuid[]) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.dsa_transparency(p_year integer) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.dsa_transparency_of(p_org_id uuid, p_year integer) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.email_key(p_org_id uuid, p_email text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.end_session(p_token_hash bytea, p_everywhere boolean) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.erase_connection_customers(p_connection_id uuid, p_email text) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.erase_reviewer(p_email text, p_redact_content boolean, p_actor text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.erasure_notice() TO plaudit_api, plaudit_worker;

GRANT SELECT(id) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(org_id),INSERT(org_id) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(format),INSERT(format) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(filters),INSERT(filters) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(status) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(row_count) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(chunk_count) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(byte_size) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(error) ON TABLE plaudit.exports TO plaudit_api;

GRANT INSERT(created_by_key_id) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(created_at) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(started_at) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(completed_at) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(expires_at) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(moderation_chain_entries) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(moderation_chain_head) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(custom_field_keys) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(public_url),INSERT(public_url) ON TABLE plaudit.exports TO plaudit_api;

GRANT SELECT(kind),INSERT(kind) ON TABLE plaudit.exports TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.export_download_url(e plaudit.exports) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.finish_connection_event(p_event_id bigint, p_outcome text) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.form_subjects_under_check(p_form_id uuid, p_external_ids text[]) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.google_product_feed_page(p_slug text, p_product_page text, p_after_product uuid, p_after_created_at text, p_after_id uuid, p_limit integer) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.google_product_feed_state(p_slug text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.gtin_is_valid(p_gtin text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.held_review_json(p_review_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.hit_rate_limit(p_bucket text, p_limit integer, OUT allowed boolean, OUT remaining integer, OUT reset_at bigint) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.import_json(p_import plaudit.imports) TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.inbound_connection_event(p_connection_id uuid, p_platform text, p_signed bytea, p_signatures bytea[], p_delivery_id text,
    p_topic text, p_payload jsonb, p_settled text) TO plaudit_public;

GRANT ALL ON FUNCTION plaudit.invitation_for_token(p_token text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.iso_utc(t timestamp with time zone) TO plaudit_api, plaudit_public;
GRANT ALL ON FUNCTION plaudit.issue_api_key(p_org_id uuid, p_name text, p_scope text, p_rate_limit_per_minute integer) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.issue_media_upload_token(p_review_id uuid, p_token_hash bytea) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.meta_review_feed_page(p_slug text, p_profile_url text, p_after_product uuid, p_after_created_at text, p_after_id uuid, p_limit integer) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.moderate_answer(p_id uuid, p_action text, p_reason text, p_actor text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.moderate_question(p_id uuid, p_action text, p_reason text, p_actor text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.moderate_review(p_review_id uuid, p_action text, p_reason text, p_actor text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.moderate_review_media(p_review_id uuid, p_media_id uuid, p_action text, p_reason text, p_actor text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.moderation_chain_status(p_entries bigint, p_head text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.new_connection_secret() TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.new_webhook_secret() TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.order_hash(p_org_id uuid, p_order_id text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.order_id_forms(p_order_id text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.order_json(p_org_id uuid, p_order_id text) TO plaudit_api;

GRANT SELECT ON TABLE plaudit.review_request_automation TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.review_request_automation TO plaudit_api;

GRANT INSERT(enabled),UPDATE(enabled) ON TABLE plaudit.review_request_automation TO plaudit_api;

GRANT INSERT(trigger),UPDATE(trigger) ON TABLE plaudit.review_request_automation TO plaudit_api;

GRANT INSERT(delay_days),UPDATE(delay_days) ON TABLE plaudit.review_request_automation TO plaudit_api;

GRANT INSERT(form_id),UPDATE(form_id) ON TABLE plaudit.review_request_automation TO plaudit_api;

GRANT INSERT(exclude_products),UPDATE(exclude_products) ON TABLE plaudit.review_request_automation TO plaudit_api;

GRANT UPDATE(updated_at) ON TABLE plaudit.review_request_automation TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.page_meta(p_total bigint, p_page integer, p_limit integer) TO plaudit_api, plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_dsa_transparency(p_slug text, p_year integer) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_embed_reviews(p_slug text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_form_product(p_form_id uuid, p_external_id text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_hidden_review_ground(p_slug text, p_review_id uuid) TO plaudit_public;

GRANT SELECT,DELETE ON TABLE plaudit.products TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.products TO plaudit_api;

GRANT INSERT(external_id),UPDATE(external_id) ON TABLE plaudit.products TO plaudit_api;

GRANT INSERT(name),UPDATE(name) ON TABLE plaudit.products TO plaudit_api;

GRANT INSERT(url),UPDATE(url) ON TABLE plaudit.products TO plaudit_api;

GRANT INSERT(image_url),UPDATE(image_url) ON TABLE plaudit.products TO plaudit_api;

GRANT INSERT(sku),UPDATE(sku) ON TABLE plaudit.products TO plaudit_api;

GRANT INSERT(gtin),UPDATE(gtin) ON TABLE plaudit.products TO plaudit_api;

GRANT INSERT(mpn),UPDATE(mpn) ON TABLE plaudit.products TO plaudit_api;

GRANT INSERT(brand),UPDATE(brand) ON TABLE plaudit.products TO plaudit_api;

GRANT INSERT(group_key),UPDATE(group_key) ON TABLE plaudit.products TO plaudit_api;

GRANT INSERT(archived),UPDATE(archived) ON TABLE plaudit.products TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.public_media_file(p_storage_key text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_product(p_slug text, p_external_id text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_product_catalog(p_slug text, p_page integer, p_limit integer) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_product_ratings(p_slug text, p_external_ids text[]) TO plaudit_public;

GRANT ALL ON FUNCTION plaudit.public_product_reviews(p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer,
    p_has_media boolean, p_language text, p_reader_language text, p_attributes jsonb) TO plaudit_public;

GRANT ALL ON FUNCTION plaudit.public_product_version(p_slug text, p_external_id text, p_profile boolean) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_profile(p_slug text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_profile_reviews(p_slug text, p_rating integer, p_page integer, p_limit integer) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_profile_version(p_slug text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_question_page(p_slug text, p_external_id text, p_page integer, p_limit integer, OUT version text, OUT body text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_read_fragment(p_slug text, p_limit integer, p_sort text, OUT version text, OUT profile json, OUT items json) TO plaudit_authenticator;

GRANT ALL ON FUNCTION plaudit.public_read_product_reviews(p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer,
    p_has_media boolean, p_language text, p_reader_language text, p_attributes jsonb, OUT version text, OUT body text) TO plaudit_authenticator;

GRANT ALL ON FUNCTION plaudit.public_read_product_version(p_slug text, p_external_id text) TO plaudit_authenticator;

GRANT ALL ON FUNCTION plaudit.public_read_review_page(p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer,
    p_has_media boolean, p_language text, p_reader_language text, p_attributes jsonb, OUT version text, OUT body text) TO plaudit_authenticator;

GRANT ALL ON FUNCTION plaudit.public_read_review_summary(p_slug text, p_external_id text, OUT version text, OUT body text) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.public_read_version(p_slug text) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.public_reported_review(p_slug text, p_review_id uuid) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_review_form(p_form_id uuid) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.review_is_public(p_is_hidden boolean, p_status text) TO plaudit_api;

GRANT SELECT,DELETE ON TABLE plaudit.review_replies TO plaudit_api;

GRANT INSERT(review_id) ON TABLE plaudit.review_replies TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.review_replies TO plaudit_api;

GRANT INSERT(content),UPDATE(content) ON TABLE plaudit.review_replies TO plaudit_api;

GRANT UPDATE(updated_at) ON TABLE plaudit.review_replies TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.public_review_page(p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer,
    p_has_media boolean, p_language text, p_reader_language text, p_attributes jsonb) TO plaudit_public;

GRANT ALL ON FUNCTION plaudit.public_review_policy(p_slug text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_review_summary(p_slug text, p_external_id text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_review_summary_cited(p_slug text, p_external_id text, p_per_sentence integer) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_search_products(p_slug text, p_query text, p_offset integer, p_limit integer) TO plaudit_public;

GRANT ALL ON FUNCTION plaudit.public_search_reviews(p_slug text, p_external_id text, p_query text, p_rating integer, p_verified_only boolean,
    p_with_media boolean, p_sort text, p_offset integer, p_limit integer) TO plaudit_public;

GRANT ALL ON FUNCTION plaudit.public_sitemap(p_page integer, p_limit integer) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_transparency(p_slug text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_transparency_version(p_slug text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.public_version(p_slug text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.purchase_proof_refusal(p_org_id uuid, p_order_id text, p_email text, p_product_id uuid) TO plaudit_api;

GRANT SELECT ON TABLE plaudit.question_answers TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.question_answers TO plaudit_api;

GRANT INSERT(question_id) ON TABLE plaudit.question_answers TO plaudit_api;

GRANT INSERT(author) ON TABLE plaudit.question_answers TO plaudit_api;

GRANT INSERT(author_name) ON TABLE plaudit.question_answers TO plaudit_api;

GRANT INSERT(content) ON TABLE plaudit.question_answers TO plaudit_api;

GRANT UPDATE(is_hidden) ON TABLE plaudit.question_answers TO plaudit_api;

GRANT UPDATE(updated_at) ON TABLE plaudit.question_answers TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.question_answer_json(a plaudit.question_answers) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.question_answer_link(p_token text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.question_json(p_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.question_page(p_status text, p_product_id uuid, p_answered boolean, p_page integer, p_limit integer) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.questions_answers_visible(p_question_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.queue_invitation_email(p_invitation_id uuid, p_token text, p_link_base text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.raise_replica_read_floor(p_lsn pg_lsn) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.random_base62(n integer) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.record_cdn_purge(p_claim_token uuid, p_org_id uuid, p_sent boolean, p_error text, p_retry_in_ms bigint) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.record_connection_data_request(p_connection_id uuid, p_email text) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.record_email_provider_event(p_provider_message_id text, p_type text, p_event_id text, p_occurred_at timestamp with time zone, p_data jsonb) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.record_email_result(p_id uuid, p_claim_token uuid, p_sent boolean, p_provider_message_id text, p_error text, p_retry_in_ms bigint) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.record_shopify_write_back(p_claim_token uuid, p_ids uuid[], p_sent boolean, p_error text, p_retry_in_ms bigint, p_rating text, p_rating_count integer) TO plaudit_worker;

GRANT ALL ON FUNCTION plaudit.record_test_delivery(p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text,
    p_response_snippet text, p_succeeded boolean) TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.record_webhook_attempt(p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text,
    p_response_snippet text, p_outcome text, p_retry_in_ms bigint, p_disable_after_seconds integer, p_slow_ms integer) TO plaudit_worker;

GRANT ALL ON FUNCTION plaudit.reject_review(p_review_id uuid, p_reason text, p_key_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.release_review_hold(p_id uuid, p_actor text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.reply_json(reply plaudit.review_replies) TO plaudit_api, plaudit_public;
GRANT ALL ON FUNCTION plaudit.reply_to_review(p_review_id uuid, p_content text, p_actor text) TO plaudit_api;

GRANT SELECT(id) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT SELECT(org_id) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT SELECT(review_id) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT SELECT(reason) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT SELECT(details) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT SELECT(status),UPDATE(status) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT SELECT(resolution),UPDATE(resolution) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT SELECT(resolved_at),UPDATE(resolved_at) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT SELECT(resolved_by),UPDATE(resolved_by) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT SELECT(created_at) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT SELECT(kind) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT SELECT(legal_ground) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT SELECT(good_faith) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT SELECT(decision) ON TABLE plaudit.review_reports TO plaudit_api;

GRANT ALL ON FUNCTION plaudit.report_review(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea, p_reason text,
    p_details text, p_kind text, p_legal_ground text, p_email text, p_good_faith boolean) TO plaudit_public;

GRANT ALL ON FUNCTION plaudit.request_sign_in(p_email text, p_client text, p_link_base text, p_client_limit integer) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.resolve_review_report(p_id uuid, p_resolution text, p_actor text, p_decision text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.review_appeal_json(p_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.review_feed_state(p_slug text, p_feed text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.review_feeds_report(p_slug text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.review_hold_json(p_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.review_hold_thresholds(p_org_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.review_json(r plaudit.reviews, reply plaudit.review_replies) TO plaudit_api, plaudit_public;
GRANT ALL ON FUNCTION plaudit.review_leaves_summaries(p_old plaudit.reviews, p_new plaudit.reviews) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.review_media_json(p_review_id uuid, p_public boolean) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.review_order_id(p_review_id uuid) TO plaudit_api, plaudit_public;
GRANT ALL ON FUNCTION plaudit.review_product_json(p_product_id uuid) TO plaudit_api, plaudit_public;
GRANT ALL ON FUNCTION plaudit.review_report_json(p_report_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.review_request_automation_of(p_org_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.review_request_landing(p_token text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.review_request_status_rank(p_status text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.review_request_subjects(p_token text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.review_request_unsubscribe_info(p_token text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.review_statements_json(p_review_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.review_summaries_due(p_limit integer, p_org_ids uuid[]) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.review_summary_inputs(p_org_id uuid, p_product_id uuid, p_group_key text) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.reviewer_data(p_email text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.rotate_api_key(p_key_id uuid, p_grace_seconds integer) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.rotate_webhook_secret(p_endpoint_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.run_connection_maintenance() TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.run_delivery_maintenance() TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.run_exports(p_budget_ms integer, p_rows integer) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.run_imports(p_budget_ms integer, p_rows integer, p_org_ids uuid[]) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.run_maintenance() TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.run_review_request_maintenance() TO plaudit_worker;

GRANT ALL ON FUNCTION plaudit.save_review_summary(p_org_id uuid, p_product_id uuid, p_group_key text, p_language text, p_sentences jsonb, p_evidence jsonb,
    p_input_ids uuid[], p_review_count integer) TO plaudit_worker;

GRANT ALL ON FUNCTION plaudit.session_for_read(p_token_hash bytea, p_org_id uuid, p_rate_limit integer) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.session_summary(p_token_hash bytea) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.set_restriction(p_source text, p_ground_type text, p_ground text, p_automated boolean, p_report_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.sign_up(p_org_name text, p_slug text, p_email text, p_name text, p_client text, p_link_base text, p_client_limit integer) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.subject_under_check(p_org_id uuid, p_product_id uuid) TO plaudit_api, plaudit_public;
GRANT ALL ON FUNCTION plaudit.submit_appeal(p_token text, p_text text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.submit_requested_review(p_token text, p_review plaudit.review_submission, p_rate_bucket text, p_rate_limit integer, p_verify_url_base text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.submit_review(p_review plaudit.review_submission, p_rate_bucket text, p_rate_limit integer, p_verify_url_base text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.sync_connection_product(p_connection_id uuid, p_product jsonb, p_deleted boolean) TO plaudit_worker;
GRANT ALL ON FUNCTION plaudit.track_review_request(p_token text, p_kind text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.unsubscribe_review_request(p_token text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.upsert_orders(p_org_id uuid, p_orders jsonb) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.upsert_products(p_rows jsonb) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.verification_link_state(p_token text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.verify_review_by_order(p_review_id uuid, p_order_id text, p_key_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.verify_review_by_token(p_token text, p_review_id uuid, p_key_id uuid) TO plaudit_api, plaudit_public;
GRANT ALL ON FUNCTION plaudit.verify_review_link(p_token text) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.verify_sign_in(p_token text, p_email text, p_code text, p_user_agent text) TO plaudit_authenticator;
GRANT ALL ON FUNCTION plaudit.vote_answer_helpful(p_rate_bucket text, p_rate_limit integer, p_slug text, p_question_id uuid, p_answer_id uuid, p_visitor bytea) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.vote_helpful(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea) TO plaudit_public;
GRANT ALL ON FUNCTION plaudit.withdraw_review_reply(p_review_id uuid, p_actor text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.write_business_answer(p_question_id uuid, p_content text, p_actor text) TO plaudit_api;

GRANT SELECT(id) ON TABLE plaudit.api_keys TO plaudit_api;

GRANT SELECT(org_id),INSERT(org_id) ON TABLE plaudit.api_keys TO plaudit_api;

GRANT SELECT(name),INSERT(name) ON TABLE plaudit.api_keys TO plaudit_api;

GRANT SELECT(scope),INSERT(scope) ON TABLE plaudit.api_keys TO plaudit_api;

GRANT SELECT(prefix),INSERT(prefix) ON TABLE plaudit.api_keys TO plaudit_api;

GRANT INSERT(key_hash) ON TABLE plaudit.api_keys TO plaudit_api;

GRANT SELECT(rate_limit_per_minute),INSERT(rate_limit_per_minute) ON TABLE plaudit.api_keys TO plaudit_api;

GRANT SELECT(created_at) ON TABLE plaudit.api_keys TO plaudit_api;

GRANT SELECT(last_used_at) ON TABLE plaudit.api_keys TO plaudit_api;

GRANT SELECT(revoked_at),UPDATE(revoked_at) ON TABLE plaudit.api_keys TO plaudit_api;

GRANT SELECT(replaced_by),UPDATE(replaced_by) ON TABLE plaudit.api_keys TO plaudit_api;

GRANT SELECT ON TABLE plaudit.attribute_statistics TO plaudit_api;

GRANT SELECT(id) ON TABLE plaudit.connection_events TO plaudit_api;

GRANT SELECT(org_id) ON TABLE plaudit.connection_events TO plaudit_api;

GRANT SELECT(connection_id) ON TABLE plaudit.connection_events TO plaudit_api;

GRANT SELECT(delivery_id) ON TABLE plaudit.connection_events TO plaudit_api;

GRANT SELECT(topic) ON TABLE plaudit.connection_events TO plaudit_api;

GRANT SELECT(received_at) ON TABLE plaudit.connection_events TO plaudit_api;

GRANT SELECT(outcome) ON TABLE plaudit.connection_events TO plaudit_api;

GRANT SELECT(processed_at) ON TABLE plaudit.connection_events TO plaudit_api;

GRANT SELECT(id) ON TABLE plaudit.email_outbox TO plaudit_api;

GRANT SELECT(org_id) ON TABLE plaudit.email_outbox TO plaudit_api;

GRANT SELECT(to_address) ON TABLE plaudit.email_outbox TO plaudit_api;

GRANT SELECT(template) ON TABLE plaudit.email_outbox TO plaudit_api;

GRANT SELECT(locale) ON TABLE plaudit.email_outbox TO plaudit_api;

GRANT SELECT(status) ON TABLE plaudit.email_outbox TO plaudit_api;

GRANT SELECT(attempts) ON TABLE plaudit.email_outbox TO plaudit_api;

GRANT SELECT(next_attempt_at) ON TABLE plaudit.email_outbox TO plaudit_api;

GRANT SELECT(last_error) ON TABLE plaudit.email_outbox TO plaudit_api;

GRANT SELECT(sent_at) ON TABLE plaudit.email_outbox TO plaudit_api;

GRANT SELECT(created_at) ON TABLE plaudit.email_outbox TO plaudit_api;

GRANT SELECT,DELETE ON TABLE plaudit.email_suppressions TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.email_suppressions TO plaudit_api;

GRANT INSERT(email) ON TABLE plaudit.email_suppressions TO plaudit_api;

GRANT INSERT(reason) ON TABLE plaudit.email_suppressions TO plaudit_api;

GRANT SELECT ON TABLE plaudit.events TO plaudit_api;
GRANT SELECT ON TABLE plaudit.export_chunks TO plaudit_api;
GRANT SELECT ON TABLE plaudit.held_reviews TO plaudit_api;
GRANT SELECT ON TABLE plaudit.idempotency_keys TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.idempotency_keys TO plaudit_api;

GRANT INSERT(key) ON TABLE plaudit.idempotency_keys TO plaudit_api;

GRANT INSERT(route) ON TABLE plaudit.idempotency_keys TO plaudit_api;

GRANT INSERT(request_hash) ON TABLE plaudit.idempotency_keys TO plaudit_api;

GRANT UPDATE(status_code) ON TABLE plaudit.idempotency_keys TO plaudit_api;

GRANT UPDATE(response) ON TABLE plaudit.idempotency_keys TO plaudit_api;

GRANT SELECT(id) ON TABLE plaudit.invitations TO plaudit_api;

GRANT SELECT(org_id),INSERT(org_id) ON TABLE plaudit.invitations TO plaudit_api;

GRANT SELECT(email),INSERT(email) ON TABLE plaudit.invitations TO plaudit_api;

GRANT SELECT(role),INSERT(role) ON TABLE plaudit.invitations TO plaudit_api;

GRANT INSERT(token_hash) ON TABLE plaudit.invitations TO plaudit_api;

GRANT SELECT(invited_by_key_id),INSERT(invited_by_key_id) ON TABLE plaudit.invitations TO plaudit_api;

GRANT SELECT(expires_at) ON TABLE plaudit.invitations TO plaudit_api;

GRANT SELECT(created_at) ON TABLE plaudit.invitations TO plaudit_api;

GRANT SELECT(accepted_at) ON TABLE plaudit.invitations TO plaudit_api;

GRANT SELECT(revoked_at),UPDATE(revoked_at) ON TABLE plaudit.invitations TO plaudit_api;

GRANT SELECT,DELETE ON TABLE plaudit.members TO plaudit_api;

GRANT UPDATE(role) ON TABLE plaudit.members TO plaudit_api;

GRANT SELECT ON TABLE plaudit.moderation_trail TO plaudit_api;
GRANT SELECT ON TABLE plaudit.order_events TO plaudit_api;

GRANT SELECT,DELETE ON TABLE plaudit.order_items TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.order_items TO plaudit_api;

GRANT INSERT(order_id) ON TABLE plaudit.order_items TO plaudit_api;

GRANT INSERT("position") ON TABLE plaudit.order_items TO plaudit_api;

GRANT INSERT(product_external_id) ON TABLE plaudit.order_items TO plaudit_api;

GRANT INSERT(quantity) ON TABLE plaudit.order_items TO plaudit_api;

GRANT SELECT ON TABLE plaudit.organizations TO plaudit_api;

GRANT UPDATE(name) ON TABLE plaudit.organizations TO plaudit_api;

GRANT UPDATE(website) ON TABLE plaudit.organizations TO plaudit_api;

GRANT SELECT ON TABLE plaudit.privacy_data_requests TO plaudit_api;
GRANT SELECT ON TABLE plaudit.privacy_erasures TO plaudit_api;
GRANT SELECT ON TABLE plaudit.product_review_statistics TO plaudit_api;
GRANT SELECT ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(enabled),UPDATE(enabled) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(display_name),UPDATE(display_name) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(description),UPDATE(description) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(website),UPDATE(website) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(logo_url),UPDATE(logo_url) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(embed_layout),UPDATE(embed_layout) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(embed_theme),UPDATE(embed_theme) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(embed_max_reviews),UPDATE(embed_max_reviews) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(embed_min_rating),UPDATE(embed_min_rating) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(google_product_feed),UPDATE(google_product_feed) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(media_moderation),UPDATE(media_moderation) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(meta_review_feed),UPDATE(meta_review_feed) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(ask_buyers),UPDATE(ask_buyers) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT INSERT(review_policy),UPDATE(review_policy) ON TABLE plaudit.public_profiles TO plaudit_api;

GRANT SELECT ON TABLE plaudit.question_moderation_trail TO plaudit_api;
GRANT SELECT ON TABLE plaudit.review_forms TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT INSERT(name),UPDATE(name) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT INSERT(verification_mode),UPDATE(verification_mode) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT INSERT(custom_fields),UPDATE(custom_fields) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT INSERT(is_active),UPDATE(is_active) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT UPDATE(deleted_at) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT INSERT(incentive),UPDATE(incentive) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT SELECT ON TABLE plaudit.review_hold_settings TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.review_hold_settings TO plaudit_api;

GRANT INSERT(min_reviews),UPDATE(min_reviews) ON TABLE plaudit.review_hold_settings TO plaudit_api;

GRANT INSERT(min_addresses),UPDATE(min_addresses) ON TABLE plaudit.review_hold_settings TO plaudit_api;

GRANT INSERT(median_factor),UPDATE(median_factor) ON TABLE plaudit.review_hold_settings TO plaudit_api;

GRANT INSERT(min_low_share),UPDATE(min_low_share) ON TABLE plaudit.review_hold_settings TO plaudit_api;

GRANT UPDATE(updated_at) ON TABLE plaudit.review_hold_settings TO plaudit_api;

GRANT SELECT ON TABLE plaudit.review_media TO plaudit_api;
GRANT SELECT ON TABLE plaudit.review_request_events TO plaudit_api;
GRANT SELECT ON TABLE plaudit.review_request_products TO plaudit_api;
GRANT SELECT ON TABLE plaudit.review_request_reviews TO plaudit_api;
GRANT SELECT ON TABLE plaudit.review_request_settings TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.review_request_settings TO plaudit_api;

GRANT INSERT(daily_quota),UPDATE(daily_quota) ON TABLE plaudit.review_request_settings TO plaudit_api;

GRANT INSERT(reminders_enabled),UPDATE(reminders_enabled) ON TABLE plaudit.review_request_settings TO plaudit_api;

GRANT INSERT(reminder_delay_days),UPDATE(reminder_delay_days) ON TABLE plaudit.review_request_settings TO plaudit_api;

GRANT INSERT(reminder_max),UPDATE(reminder_max) ON TABLE plaudit.review_request_settings TO plaudit_api;

GRANT UPDATE(updated_at) ON TABLE plaudit.review_request_settings TO plaudit_api;

GRANT SELECT ON TABLE plaudit.review_request_usage TO plaudit_api;
GRANT SELECT ON TABLE plaudit.review_requests TO plaudit_api;
GRANT SELECT ON TABLE plaudit.review_statistics TO plaudit_api;
GRANT SELECT ON TABLE plaudit.review_summaries TO plaudit_api;

GRANT SELECT(id) ON TABLE plaudit.review_verification_tokens TO plaudit_api;

GRANT SELECT(org_id) ON TABLE plaudit.review_verification_tokens TO plaudit_api;

GRANT SELECT(review_id) ON TABLE plaudit.review_verification_tokens TO plaudit_api;

GRANT SELECT(expires_at) ON TABLE plaudit.review_verification_tokens TO plaudit_api;

GRANT SELECT(used_at) ON TABLE plaudit.review_verification_tokens TO plaudit_api;

GRANT SELECT(created_at) ON TABLE plaudit.review_verification_tokens TO plaudit_api;

GRANT SELECT(id) ON TABLE plaudit.shopify_write_backs TO plaudit_api;

GRANT SELECT(org_id) ON TABLE plaudit.shopify_write_backs TO plaudit_api;

GRANT SELECT(connection_id) ON TABLE plaudit.shopify_write_backs TO plaudit_api;

GRANT SELECT(product_id) ON TABLE plaudit.shopify_write_backs TO plaudit_api;

GRANT SELECT(status) ON TABLE plaudit.shopify_write_backs TO plaudit_api;

GRANT SELECT(attempts) ON TABLE plaudit.shopify_write_backs TO plaudit_api;

GRANT SELECT(next_attempt_at) ON TABLE plaudit.shopify_write_backs TO plaudit_api;

GRANT SELECT(rating) ON TABLE plaudit.shopify_write_backs TO plaudit_api;

GRANT SELECT(rating_count) ON TABLE plaudit.shopify_write_backs TO plaudit_api;

GRANT SELECT(last_error) ON TABLE plaudit.shopify_write_backs TO plaudit_api;

GRANT SELECT(sent_at) ON TABLE plaudit.shopify_write_backs TO plaudit_api;

GRANT SELECT(created_at) ON TABLE plaudit.shopify_write_backs TO plaudit_api;

GRANT SELECT ON TABLE plaudit.trail_actions TO plaudit_api;

GRANT SELECT(id) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(org_id) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(endpoint_id) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(event_id) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(event_type) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(message_id) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(payload) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(is_test) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(status),UPDATE(status) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(attempts) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(schedule_step),UPDATE(schedule_step) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(next_attempt_at),UPDATE(next_attempt_at) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT UPDATE(locked_until) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT UPDATE(claim_token) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(last_attempt_at) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(last_status_code) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(last_error) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(delivered_at) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT(created_at) ON TABLE plaudit.webhook_deliveries TO plaudit_api;

GRANT SELECT ON TABLE plaudit.webhook_delivery_attempts TO plaudit_api;

GRANT DELETE ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(id) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(org_id),INSERT(org_id) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(url),INSERT(url),UPDATE(url) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(description),INSERT(description),UPDATE(description) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(events),INSERT(events),UPDATE(events) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT INSERT(secret) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(previous_secret_expires_at) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(enabled),UPDATE(enabled) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(disabled_reason),UPDATE(disabled_reason) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(disabled_at),UPDATE(disabled_at) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(failing_since),UPDATE(failing_since) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(secret_rotated_at) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(created_at) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(updated_at) ON TABLE plaudit.webhook_endpoints TO plaudit_api;

GRANT SELECT(slow_since) ON TABLE plaudit.webhook_endpoints TO plaudit_api;
