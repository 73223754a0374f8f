-- Everything Plaudit stores lives in the private schema `plaudit`. It is never exposed through
-- Supabase's Data API (which serves `public`), and nobody gets rights on it by default.
create schema if not exists plaudit;
revoke all on schema plaudit from public;

-- pgcrypto supplies gen_random_bytes for API keys and tokens. Supabase keeps extensions in the
-- `extensions` schema; a plain PostgreSQL gets the same layout.
create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;

-- Functions are not executable by everyone unless a migration grants it explicitly.
alter default privileges in schema plaudit revoke execute on functions from public;
