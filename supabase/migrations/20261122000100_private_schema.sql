-- Everything Plaudit stores lives in the private schema `plaudit`. It is never exposed through
-- Supabase's Data API (which serves `public`), and nobody gets rights on it by default.
create schema if not exists plaudit;
revoke all on schema plaudit from public;

-- pgcrypto supplies gen_random_bytes for API keys and tokens. Supabase keeps extensions in the
-- `extensions` schema; a plain PostgreSQL gets the same layout.
create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;

-- PostgreSQL lets PUBLIC execute every new function, and a per-schema default cannot take that
-- away: each migration that creates functions revokes PUBLIC's EXECUTE on them itself (see
-- 20261122001200_revoke_public_function_execute.sql); 01-schema-security.test.sql enforces it.
