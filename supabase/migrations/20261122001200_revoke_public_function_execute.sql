-- Functions are executable by PUBLIC by default, and the per-schema
-- `alter default privileges in schema plaudit revoke execute on functions from public` of the
-- first migration cannot take that away: per-schema default privileges only add to the global
-- ones. So every plaudit function was callable by every role with usage on the schema -- among
-- them the SECURITY DEFINER ones: plaudit_public (unauthenticated routes) could call
-- authenticate, run_maintenance, emit_event and enqueue_email (mail to any address, for any
-- tenant). Take PUBLIC's right away; the explicit grants of earlier migrations remain.
-- A migration that creates a function in plaudit must revoke it from public itself;
-- supabase/tests/database/01-schema-security.test.sql fails when one does not.
revoke execute on all functions in schema plaudit from public;
