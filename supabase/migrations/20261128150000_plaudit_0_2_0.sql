-- Plaudit 0.2.0: the whole schema, cut from the migrations that built it (folded here; supabase/releases.json names
-- them). Later releases are written by `npm run db:release` from supabase/changes/ and supabase/schemas/.

-- ============================================================================================
-- private schema
-- ============================================================================================
-- Everything Plaudit stores lives in the private schema `plaudit`. It is never exposed through
-- Supabase's Data API (which serves `public`), and nobody gets rights on it by default.
create schema if not exists plaudit;

revoke all on schema plaudit from public;

-- pgcrypto supplies gen_random_bytes for API keys and tokens. Supabase keeps extensions in the
-- `extensions` schema; a plain PostgreSQL gets the same layout.
create schema if not exists extensions;

create extension if not exists pgcrypto with schema extensions;

-- ============================================================================================
-- roles
-- ============================================================================================
-- Roles, in the PostgREST manner:
--   plaudit_authenticator  the login role the API and the worker connect as; it can do nothing by
--                          itself (noinherit) except switch to one of the three roles below.
--   plaudit_api            what an authenticated request runs as; every tenant table is
--                          filtered for it by row-level security.
--   plaudit_public         what unauthenticated public routes run as.
--   plaudit_worker         what the worker runs as: no table privileges, only the SECURITY
--                          DEFINER functions through which it claims due rows, signs deliveries
--                          and records outcomes (docs/delivery.md).
-- None of them bypasses row-level security. plaudit_api, plaudit_public and plaudit_worker are
-- members of no role, but `set role` is checked against the session user: a session logged in as
-- plaudit_authenticator can switch between the roles granted to it (and back to itself) from
-- whichever of them it is in, and to nothing else (docs/design.md, 01-schema-security.test.sql).
do $$
begin
  if not exists (select from pg_roles where rolname = 'plaudit_api') then
    create role plaudit_api nologin noinherit nobypassrls;
  end if;
  if not exists (select from pg_roles where rolname = 'plaudit_public') then
    create role plaudit_public nologin noinherit nobypassrls;
  end if;
  if not exists (select from pg_roles where rolname = 'plaudit_worker') then
    create role plaudit_worker nologin noinherit nobypassrls;
  end if;
  if not exists (select from pg_roles where rolname = 'plaudit_authenticator') then
    create role plaudit_authenticator login noinherit nobypassrls;
  end if;
end
$$;

grant plaudit_api, plaudit_public, plaudit_worker to plaudit_authenticator;

grant usage on schema plaudit to plaudit_api, plaudit_public, plaudit_worker, plaudit_authenticator;

grant usage on schema extensions to plaudit_api, plaudit_public, plaudit_worker, plaudit_authenticator;

-- The API and the worker keep their statements prepared (one round trip each instead of two),
-- but every execution is planned for its own values. A generic plan, which PostgreSQL would
-- switch to after five executions, cannot see a page's offset, a filter's selectivity or which
-- tenant is asking, and picked slower plans for deep pages of the review list. Planning these
-- short statements costs far less than the round trip that preparing saves.
-- (Set once per cluster: a role's settings are the cluster's, and databases migrated side by side
-- would otherwise update the same row at once.)
do $$
begin
  if not exists (select from pg_db_role_setting
                  where setrole = 'plaudit_authenticator'::regrole and setdatabase = 0
                    and 'plan_cache_mode=force_custom_plan' = any (setconfig)) then
    alter role plaudit_authenticator set plan_cache_mode = force_custom_plan;
  end if;
end
$$;

-- ============================================================================================
-- the owner
-- ============================================================================================
-- The owner of schema plaudit: a role that cannot log in, is no superuser and does not bypass
-- row-level security. Every table, view, sequence and function of plaudit belongs to it, so a
-- SECURITY DEFINER function runs with its rights, never a superuser's: a function tricked into
-- running a caller's code would hold no more than the schema's own objects. No running process
-- logs in as it or is a member of it; the migrations' role is a member, and every later file
-- creates its objects after `set role plaudit_owner` (docs/security-roles.md).
do $$
begin
  if not exists (select from pg_roles where rolname = 'plaudit_owner') then
    create role plaudit_owner nologin noinherit nosuperuser nobypassrls nocreatedb nocreaterole noreplication;
  end if;
end
$$;

grant plaudit_owner to current_user;

alter schema plaudit owner to plaudit_owner;

grant usage on schema extensions to plaudit_owner;

-- PostgreSQL lets PUBLIC execute every new function. A per-schema default cannot take that away
-- (per-schema defaults only add to the global ones); the owner's global default does. Each file
-- still ends by revoking PUBLIC's EXECUTE on the schema's functions, and
-- 01-schema-security.test.sql fails on a function anyone may execute.
alter default privileges for role plaudit_owner revoke execute on functions from public;

-- The roles the API and the worker use hold no TEMPORARY on the database (granted to PUBLIC by
-- default) and no CREATE on any schema: nothing they run can put an object where a SECURITY
-- DEFINER function might find it. Roles other than ours (on hosted Supabase, its own services')
-- keep TEMPORARY by name. Every function of plaudit that fixes a search_path names pg_temp last,
-- so even a temporary object of the session is never found before the catalog.
do $$
declare
  r record;
begin
  execute format('revoke temporary on database %I from public', current_database());
  for r in select rolname from pg_roles where not rolsuper and rolname !~ '^(pg_|plaudit_)' loop
    execute format('grant temporary on database %I to %I', current_database(), r.rolname);
  end loop;
  execute format('revoke temporary, create on database %I from plaudit_api, plaudit_public, plaudit_worker, plaudit_authenticator, plaudit_owner',
                 current_database());
end
$$;

revoke create on schema public, plaudit, extensions
  from plaudit_api, plaudit_public, plaudit_worker, plaudit_authenticator;

-- The schema as 0.2.0 has it (pg_dump of the migrations' result): everything in it is owned by plaudit_owner.
set role plaudit_owner;
set check_function_bodies = false;
select pg_catalog.set_config('search_path', '', false);

--
--

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

CREATE FUNCTION plaudit.accept_invitation(p_token text, p_name text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  i plaudit.invitations;
begin
  select * into i from plaudit.invitations inv
    where inv.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    for update;
  if not found then
    return 'invalid';
  elsif i.accepted_at is not null then
    return 'accepted_before';
  elsif i.revoked_at is not null then
    return 'revoked';
  elsif i.expires_at <= now() then
    return 'expired';
  end if;
  update plaudit.invitations set accepted_at = now() where id = i.id;
  insert into plaudit.members (org_id, email, name, role)
  values (i.org_id, i.email, nullif(left(btrim(coalesce(p_name, '')), 200), ''), i.role)
  on conflict (org_id, lower(email)) do nothing;
  if not found then
    return 'already_member';
  end if;
  return 'accepted';
end
$$;

COMMENT ON FUNCTION plaudit.accept_invitation(p_token text, p_name text) IS 'Accepts an invitation: the invitee becomes a member with its role, once; answers the state afterwards.';

CREATE FUNCTION plaudit.add_product_review_statistics(p_deltas jsonb) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  insert into plaudit.product_review_statistics as s
    (product_id, org_id, public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5)
  select d.product_id, d.org_id, d.public_count, d.rating_sum, d.rating_1, d.rating_2, d.rating_3, d.rating_4, d.rating_5
  from jsonb_to_recordset(p_deltas) as d(
    product_id uuid, org_id uuid, public_count bigint, rating_sum bigint, rating_1 bigint,
    rating_2 bigint, rating_3 bigint, rating_4 bigint, rating_5 bigint)
  order by d.product_id
  on conflict (product_id) do update set
    public_count = s.public_count + excluded.public_count,
    rating_sum = s.rating_sum + excluded.rating_sum,
    rating_1 = s.rating_1 + excluded.rating_1,
    rating_2 = s.rating_2 + excluded.rating_2,
    rating_3 = s.rating_3 + excluded.rating_3,
    rating_4 = s.rating_4 + excluded.rating_4,
    rating_5 = s.rating_5 + excluded.rating_5,
    updated_at = now();
end
$$;

COMMENT ON FUNCTION plaudit.add_product_review_statistics(p_deltas jsonb) IS 'Adds signed deltas to products'' public review counters, in product order.';

CREATE FUNCTION plaudit.add_review_media(p_review_id uuid, p_token_hash bytea, p_id uuid, p_type text, p_content_type text, p_storage_key text, p_thumbnail_key text, p_url text, p_thumbnail_url text, p_width integer, p_height integer, p_bytes bigint, p_sha256 bytea, OUT refusal text, OUT created boolean, OUT item text) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  access record;
  taken integer;
  held boolean;
begin
  select * into access from plaudit.review_media_access(p_review_id, p_token_hash);
  if access.refusal is not null then
    refusal := access.refusal;
    return;
  end if;
  perform 1 from plaudit.reviews r where r.id = p_review_id for update;
  item := (select plaudit.review_media_item_json(m.id) from plaudit.review_media m
            where m.review_id = p_review_id and m.sha256 = p_sha256);
  if item is not null then
    created := false;
    return;
  end if;
  select count(*) into taken from plaudit.review_media m where m.review_id = p_review_id;
  if taken >= 6 then
    refusal := 'too_many';
    return;
  end if;
  held := coalesce((select p.media_moderation = 'manual' from plaudit.public_profiles p where p.org_id = access.org_id), false);
  insert into plaudit.review_media (id, org_id, review_id, type, content_type, storage_key, thumbnail_key, url,
                                    thumbnail_url, width, height, bytes, sha256, is_hidden, hidden_reason, position)
  values (p_id, access.org_id, p_review_id, p_type, p_content_type, p_storage_key, p_thumbnail_key, p_url,
          p_thumbnail_url, p_width, p_height, p_bytes, p_sha256, held,
          case when held then 'Waiting for moderation' end,
          (select coalesce(max(m.position), 0) + 1 from plaudit.review_media m where m.review_id = p_review_id));
  if not held then
    -- Public answers show the item: their version (and ETags) move with it.
    perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(access.org_id)));
  end if;
  created := true;
  item := plaudit.review_media_item_json(p_id);
end
$$;

COMMENT ON FUNCTION plaudit.add_review_media(p_review_id uuid, p_token_hash bytea, p_id uuid, p_type text, p_content_type text, p_storage_key text, p_thumbnail_key text, p_url text, p_thumbnail_url text, p_width integer, p_height integer, p_bytes bigint, p_sha256 bytea, OUT refusal text, OUT created boolean, OUT item text) IS 'Adds a stored photo or video to a review, at most 6, once per content; hidden when media are moderated by hand.';

CREATE FUNCTION plaudit.add_review_statistics(p_deltas jsonb) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  insert into plaudit.review_statistics as s
    (org_id, slot, total_count, public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5, version)
  select d.org_id, pg_backend_pid() % 16, d.total_count, d.public_count, d.rating_sum,
         d.rating_1, d.rating_2, d.rating_3, d.rating_4, d.rating_5, d.version
  from jsonb_to_recordset(p_deltas) as d(
    org_id uuid, total_count bigint, public_count bigint, rating_sum bigint, rating_1 bigint,
    rating_2 bigint, rating_3 bigint, rating_4 bigint, rating_5 bigint, version bigint)
  order by d.org_id
  on conflict (org_id, slot) do update set
    total_count = s.total_count + excluded.total_count,
    public_count = s.public_count + excluded.public_count,
    rating_sum = s.rating_sum + excluded.rating_sum,
    rating_1 = s.rating_1 + excluded.rating_1,
    rating_2 = s.rating_2 + excluded.rating_2,
    rating_3 = s.rating_3 + excluded.rating_3,
    rating_4 = s.rating_4 + excluded.rating_4,
    rating_5 = s.rating_5 + excluded.rating_5,
    version = s.version + excluded.version,
    updated_at = now();
end
$$;

COMMENT ON FUNCTION plaudit.add_review_statistics(p_deltas jsonb) IS 'Adds signed deltas to this backend''s slot of the review statistics, one row per organization, in organization order.';

CREATE FUNCTION plaudit.api_key_checksum(body text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  alphabet constant text := plaudit.base62_alphabet();
  v bigint := ('x' || encode(substring(sha256(convert_to(body, 'UTF8')) from 1 for 4), 'hex'))::bit(32)::bigint;
  out text := '';
begin
  for i in 1 .. 6 loop
    out := substr(alphabet, (v % 62)::integer + 1, 1) || out;
    v := v / 62;
  end loop;
  return out;
end
$$;

COMMENT ON FUNCTION plaudit.api_key_checksum(body text) IS 'The six base62 digits that check an API key''s body, from the first four bytes of its SHA-256.';

CREATE FUNCTION plaudit.api_key_for_read(p_key_hash bytea, p_rate_limit integer) RETURNS TABLE(org_id uuid, scope text, within_limit boolean)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'auto'
    AS $$
  select k.org_id, k.scope,
         coalesce((select c.hits from plaudit.rate_limit_counters c
                    where c.bucket = 'key:' || k.id and c.window_start = date_trunc('minute', now())), 0)
         < coalesce(k.rate_limit_per_minute, p_rate_limit)
    from plaudit.api_keys k
   where k.key_hash = p_key_hash and (k.revoked_at is null or k.revoked_at > now())
$$;

COMMENT ON FUNCTION plaudit.api_key_for_read(p_key_hash bytea, p_rate_limit integer) IS 'A key''s organization and scope, and whether it has requests left this minute, without counting or locking.';

CREATE FUNCTION plaudit.api_keys_guard_revocation() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  if new.revoked_at is distinct from old.revoked_at then
    if old.revoked_at is null then
      if new.revoked_at > now() + interval '24 hours' then
        raise exception 'an API key''s revocation may lie at most 24 hours ahead'
          using errcode = 'check_violation';
      end if;
    elsif not (old.revoked_at > now() and new.revoked_at = now()) then
      raise exception 'an API key''s revocation is permanent: revoked_at cannot be cleared or changed once set'
        using errcode = 'restrict_violation';
    end if;
  end if;
  if old.replaced_by is not null and new.replaced_by is distinct from old.replaced_by then
    raise exception 'an API key''s successor is permanent: replaced_by cannot be cleared or changed once set'
      using errcode = 'restrict_violation';
  end if;
  return new;
end
$$;

COMMENT ON FUNCTION plaudit.api_keys_guard_revocation() IS 'An API key''s revocation and successor are permanent, for every role; a revocation still ahead may only be brought forward to now.';

CREATE FUNCTION plaudit.api_organization(p_key_hash bytea, p_org_id uuid, p_rate_limit integer) RETURNS TABLE(key_id uuid, org_id uuid, scope text, prefix text, rate_limit integer, allowed boolean, remaining integer, reset_at bigint, body text)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'auto'
    AS $$
begin
  if plaudit.begin_api_read(p_key_hash, p_org_id, p_rate_limit, 'read') then
    body := (select '{"id":"' || o.id::text || '","name":' || to_json(o.name)::text
              || ',"slug":' || to_json(o.slug)::text || ',"website":' || coalesce(to_json(o.website)::text, 'null')
              || ',"created_at":"' || to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}'
         from plaudit.organizations o where o.id = p_org_id);
    perform set_config('role', 'none', true);
  end if;
  return query select a.*, body from plaudit.authenticate_credential(p_key_hash, p_org_id, p_rate_limit) a;
end
$$;

COMMENT ON FUNCTION plaudit.api_organization(p_key_hash bytea, p_org_id uuid, p_rate_limit integer) IS 'Answers GET /api/v1/organizations/:orgId in one statement.';

CREATE FUNCTION plaudit.api_review(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_review_id uuid) RETURNS TABLE(key_id uuid, org_id uuid, scope text, prefix text, rate_limit integer, allowed boolean, remaining integer, reset_at bigint, body text)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'auto'
    AS $$
begin
  if plaudit.begin_api_read(p_key_hash, p_org_id, p_rate_limit, 'read') then
    body := (select plaudit.review_json(r, rr)
               from plaudit.reviews r left join plaudit.review_replies rr on rr.review_id = r.id
              where r.id = p_review_id);
    perform set_config('role', 'none', true);
  end if;
  return query select a.*, body from plaudit.authenticate_credential(p_key_hash, p_org_id, p_rate_limit) a;
end
$$;

COMMENT ON FUNCTION plaudit.api_review(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_review_id uuid) IS 'Answers GET /api/v1/organizations/:orgId/reviews/:id in one statement.';

CREATE FUNCTION plaudit.api_review_first_page(p_key_hash bytea, p_org_id uuid, p_rate_limit integer) RETURNS TABLE(key_id uuid, org_id uuid, scope text, prefix text, rate_limit integer, allowed boolean, remaining integer, reset_at bigint, body text)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'auto'
    AS $$
declare
  items text;
  total integer;
begin
  if plaudit.begin_api_read(p_key_hash, p_org_id, p_rate_limit, 'read') then
    select coalesce(string_agg(plaudit.review_json(r, rr), ',' order by page.created_at desc, page.id desc), '')
      into items
      from (select id, created_at from plaudit.reviews where true
            order by created_at desc, id desc limit 20) page
      join plaudit.reviews r on r.id = page.id
      left join plaudit.review_replies rr on rr.review_id = r.id;
    select coalesce(sum(total_count), 0)::integer into total from plaudit.review_statistics;
    body := '{"data":[' || items || '],"meta":' || plaudit.page_meta(total, 1, 20) || '}';
    perform set_config('role', 'none', true);
  end if;
  return query select a.*, body from plaudit.authenticate_credential(p_key_hash, p_org_id, p_rate_limit) a;
end
$$;

COMMENT ON FUNCTION plaudit.api_review_first_page(p_key_hash bytea, p_org_id uuid, p_rate_limit integer) IS 'Answers the review list''s first page, 20 newest, in one statement.';

CREATE FUNCTION plaudit.append_moderation_entry(p_org_id uuid, p_review_id uuid, p_action text, p_reason text, p_actor text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  genesis constant bytea := '\x0000000000000000000000000000000000000000000000000000000000000000';
  head record;
  entry_seq bigint;
  entry_at timestamptz;
  entry_hash bytea;
begin
  insert into plaudit.moderation_chain_heads (org_id, last_seq, last_hash)
  values (p_org_id, 0, genesis)
  on conflict (org_id) do nothing;
  select h.last_seq, h.last_hash into head
    from plaudit.moderation_chain_heads h where h.org_id = p_org_id for update;
  entry_seq := head.last_seq + 1;
  entry_at := clock_timestamp();
  entry_hash := plaudit.moderation_entry_hash(head.last_hash, p_org_id, entry_seq, p_review_id, p_action,
                                              p_reason, p_actor, entry_at);
  insert into plaudit.moderation_trail
    (org_id, seq, review_id, action, reason, actor, created_at, previous_hash, hash)
  values (p_org_id, entry_seq, p_review_id, p_action, p_reason, p_actor, entry_at, head.last_hash, entry_hash);
  update plaudit.moderation_chain_heads
    set last_seq = entry_seq, last_hash = entry_hash, updated_at = entry_at
    where org_id = p_org_id;
end
$$;

COMMENT ON FUNCTION plaudit.append_moderation_entry(p_org_id uuid, p_review_id uuid, p_action text, p_reason text, p_actor text) IS 'Appends one entry to an organization''s moderation chain, one append at a time per organization.';

CREATE FUNCTION plaudit.apply_review_request_event(p_request_id uuid, p_type text, p_dedupe_key text DEFAULT NULL::text, p_occurred_at timestamp with time zone DEFAULT NULL::timestamp with time zone, p_data jsonb DEFAULT '{}'::jsonb) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  r plaudit.review_requests;
  at timestamptz := coalesce(p_occurred_at, now());
  event_id bigint;
  is_status boolean := plaudit.review_request_status_rank(p_type) is not null;
  moves boolean;
begin
  select * into r from plaudit.review_requests where id = p_request_id for update;
  if not found then
    return 'not_found';
  end if;
  moves := is_status
    and plaudit.review_request_status_rank(p_type) > plaudit.review_request_status_rank(r.status);

  insert into plaudit.review_request_events as e (org_id, request_id, type, dedupe_key, occurred_at, applied, data)
  values (r.org_id, r.id, p_type, coalesce(p_dedupe_key, p_type), at, moves, coalesce(p_data, '{}'))
  on conflict (org_id, request_id, dedupe_key) do nothing
  returning e.id into event_id;
  if event_id is null then
    return 'duplicate';
  end if;

  -- Each stage keeps the earliest time it is known to have been reached; a later stage implies
  -- the earlier ones (a click proves the open and the delivery).
  update plaudit.review_requests q set
    status = case when moves then p_type else q.status end,
    sent_at = case when p_type in ('sent', 'delivered', 'opened', 'clicked') then least(q.sent_at, at) else q.sent_at end,
    delivered_at = case when p_type in ('delivered', 'opened', 'clicked') then least(q.delivered_at, at) else q.delivered_at end,
    opened_at = case when p_type in ('opened', 'clicked') then least(q.opened_at, at) else q.opened_at end,
    clicked_at = case when p_type = 'clicked' then least(q.clicked_at, at) else q.clicked_at end,
    completed_at = case when p_type = 'completed' then least(q.completed_at, at) else q.completed_at end,
    bounced_at = case when p_type = 'bounced' then least(q.bounced_at, at) else q.bounced_at end,
    complained_at = case when p_type = 'complained' then least(q.complained_at, at) else q.complained_at end,
    unsubscribed_at = case when p_type = 'unsubscribed' then least(q.unsubscribed_at, at) else q.unsubscribed_at end,
    failed_at = case when p_type = 'failed' then least(q.failed_at, at) else q.failed_at end,
    review_id = coalesce(q.review_id, case when p_type = 'completed' then (p_data ->> 'review_id')::uuid end)
  where q.id = r.id;

  if p_type in ('bounced', 'complained', 'unsubscribed') then
    insert into plaudit.email_suppressions (org_id, email, reason, request_id)
    values (r.org_id, r.email, p_type, r.id)
    on conflict (org_id, email_key) do nothing;
    perform plaudit.cancel_queued_request_emails(r.org_id, r.email, null, 'the address is on the suppression list');
  end if;
  if p_type in ('completed', 'bounced', 'complained', 'unsubscribed', 'failed') then
    perform plaudit.cancel_queued_request_emails(r.org_id, r.email, r.id, 'the request is ' || p_type);
  end if;

  return case when moves then 'applied' else 'recorded' end;
end
$$;

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
    CONSTRAINT reviews_content_check CHECK (((char_length(content) >= 1) AND (char_length(content) <= 5000))),
    CONSTRAINT reviews_custom_fields_check CHECK ((jsonb_typeof(custom_fields) = 'object'::text)),
    CONSTRAINT reviews_helpful_count_check CHECK ((helpful_count >= 0)),
    CONSTRAINT reviews_import_key_check CHECK ((octet_length(import_key) = 32)),
    CONSTRAINT reviews_imported_as_verified_only_for_imports CHECK (((source = 'import'::text) OR (imported_as_verified IS NULL))),
    CONSTRAINT reviews_rating_check CHECK (((rating >= 1) AND (rating <= 5))),
    CONSTRAINT reviews_reviewer_email_check CHECK (((char_length(reviewer_email) <= 320) AND (reviewer_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'::text))),
    CONSTRAINT reviews_reviewer_name_check CHECK (((char_length(reviewer_name) >= 1) AND (char_length(reviewer_name) <= 200))),
    CONSTRAINT reviews_source_check CHECK ((source = ANY (ARRAY['form'::text, 'invitation'::text, 'import'::text]))),
    CONSTRAINT reviews_source_platform_check CHECK ((source_platform = ANY (ARRAY['judgeme'::text, 'yotpo'::text, 'okendo'::text, 'loox'::text, 'shopify'::text, 'plaudit'::text]))),
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

CREATE FUNCTION plaudit.approve_review(p_review_id uuid, p_reason text, p_key_id uuid) RETURNS SETOF plaudit.reviews
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ select * from plaudit.change_verification(p_review_id, 'verified', 'manual', p_reason, p_key_id, null, 'approved') $$;

COMMENT ON FUNCTION plaudit.approve_review(p_review_id uuid, p_reason text, p_key_id uuid) IS 'Approves a pending review of the caller''s tenant by hand: verified, method manual.';

CREATE FUNCTION plaudit.authenticate(p_key_hash bytea, p_default_limit integer) RETURNS TABLE(key_id uuid, org_id uuid, scope text, prefix text, rate_limit integer, allowed boolean, remaining integer, reset_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'auto'
    AS $$
declare
  k record;
  hit record;
begin
  select a.id, a.org_id, a.scope, a.prefix, a.rate_limit_per_minute, a.last_used_at into k
    from plaudit.api_keys a
    where a.key_hash = p_key_hash and (a.revoked_at is null or a.revoked_at > now());
  if not found then
    return;
  end if;

  rate_limit := coalesce(k.rate_limit_per_minute, p_default_limit);
  select * into hit from plaudit.hit_rate_limit('key:' || k.id, rate_limit);

  if k.last_used_at is null or k.last_used_at < now() - interval '1 minute' then
    update plaudit.api_keys set last_used_at = now() where id = k.id;
  end if;

  key_id := k.id;
  org_id := k.org_id;
  scope := k.scope;
  prefix := k.prefix;
  allowed := hit.allowed;
  remaining := hit.remaining;
  reset_at := hit.reset_at;
  return next;
end
$$;

COMMENT ON FUNCTION plaudit.authenticate(p_key_hash bytea, p_default_limit integer) IS 'Authenticates a request by its key''s SHA-256 in one round trip, counting it against the key''s per-minute limit.';

CREATE FUNCTION plaudit.authenticate_credential(p_hash bytea, p_org_id uuid, p_default_limit integer) RETURNS TABLE(key_id uuid, org_id uuid, scope text, prefix text, rate_limit integer, allowed boolean, remaining integer, reset_at bigint)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'auto'
    AS $$
begin
  return query select * from plaudit.authenticate(p_hash, p_default_limit);
  if not found then
    return query select a.key_id, a.org_id, a.scope, a.prefix, a.rate_limit, a.allowed, a.remaining, a.reset_at
                   from plaudit.authenticate_session(p_hash, p_org_id, p_default_limit) a;
  end if;
end
$$;

COMMENT ON FUNCTION plaudit.authenticate_credential(p_hash bytea, p_org_id uuid, p_default_limit integer) IS 'Authenticates a key or else a session: plaudit.authenticate''s row, else plaudit.authenticate_session''s.';

CREATE FUNCTION plaudit.authenticate_session(p_token_hash bytea, p_org_id uuid, p_default_limit integer) RETURNS TABLE(key_id uuid, org_id uuid, scope text, prefix text, rate_limit integer, allowed boolean, remaining integer, reset_at bigint, session_id uuid, member_id uuid, member_role text, email text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'auto'
    AS $$
declare
  s record;
  hit record;
begin
  -- One lookup for the session and the membership (this runs on every dashboard request).
  select ss.id, ss.email, ss.last_seen_at, mm.id as member_id, mm.role into s
    from plaudit.sessions ss
    left join plaudit.members mm on mm.org_id = p_org_id and lower(mm.email) = lower(ss.email)
   where ss.token_hash = p_token_hash and ss.ended_at is null and ss.expires_at > now()
     and ss.last_seen_at > now() - plaudit.session_idle_timeout();
  if not found then
    return;
  end if;
  rate_limit := p_default_limit;
  select * into hit from plaudit.hit_rate_limit('session:' || s.id, rate_limit);
  if s.last_seen_at < now() - interval '1 minute' then
    update plaudit.sessions set last_seen_at = now() where id = s.id;
  end if;
  if s.member_id is not null then
    org_id := p_org_id;
    scope := case s.role when 'member' then 'write' else 'admin' end;
  end if;
  allowed := hit.allowed;
  remaining := hit.remaining;
  reset_at := hit.reset_at;
  session_id := s.id;
  member_id := s.member_id;
  member_role := s.role;
  email := s.email;
  return next;
end
$$;

COMMENT ON FUNCTION plaudit.authenticate_session(p_token_hash bytea, p_org_id uuid, p_default_limit integer) IS 'Authenticates a session for an organization, in plaudit.authenticate''s row with the person and their role.';

CREATE FUNCTION plaudit.base62_alphabet() RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ select '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz' $$;

COMMENT ON FUNCTION plaudit.base62_alphabet() IS 'The 62 characters of base62, digits then capitals then small letters, in the order key bodies and checksums use.';

CREATE FUNCTION plaudit.begin_api_read(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_scope text) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'auto'
    AS $$
declare
  k record;
begin
  select * into k from plaudit.api_key_for_read(p_key_hash, p_rate_limit);
  if not found then
    select * into k from plaudit.session_for_read(p_key_hash, p_org_id, p_rate_limit);
  end if;
  if not found or not k.within_limit or (p_org_id is not null and k.org_id <> p_org_id)
     or array_position(array['read', 'write', 'admin'], k.scope) < array_position(array['read', 'write', 'admin'], p_scope) then
    return false;
  end if;
  perform set_config('plaudit.org_id', k.org_id::text, true);
  perform set_config('role', 'plaudit_api', true);
  return true;
end
$$;

COMMENT ON FUNCTION plaudit.begin_api_read(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_scope text) IS 'When a key or session may read, enters its tenant as plaudit_api for the transaction and answers true.';

CREATE FUNCTION plaudit.brand_name(p_org_id uuid) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select coalesce(nullif(btrim(p.display_name), ''), o.name)
    from plaudit.organizations o left join plaudit.public_profiles p on p.org_id = o.id
   where o.id = p_org_id
$$;

COMMENT ON FUNCTION plaudit.brand_name(p_org_id uuid) IS 'The name a business shows its customers: its public display name, else its organization''s name.';

CREATE FUNCTION plaudit.cancel_deliveries_of_disabled_endpoint() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  if old.enabled and not new.enabled then
    update plaudit.webhook_deliveries
      set status = 'cancelled', locked_until = null, claim_token = null,
          last_error = coalesce(last_error || '; ', '') || 'endpoint disabled'
      where endpoint_id = new.id and status = 'pending';
    new.disabled_at := coalesce(new.disabled_at, now());
    new.disabled_reason := coalesce(new.disabled_reason, 'disabled through the API');
  elsif new.enabled and not old.enabled then
    new.disabled_at := null;
    new.disabled_reason := null;
    new.failing_since := null;
  end if;
  return new;
end
$$;

COMMENT ON FUNCTION plaudit.cancel_deliveries_of_disabled_endpoint() IS 'Disabling an endpoint cancels its pending deliveries and notes when and why; re-enabling clears that and its failure run.';

CREATE FUNCTION plaudit.cancel_queued_request_emails(p_org_id uuid, p_email text, p_request_id uuid, p_reason text) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  n integer;
begin
  if p_request_id is not null then
    update plaudit.email_outbox e
      set status = 'failed', last_error = 'cancelled: ' || p_reason, locked_until = null
      where e.org_id = p_org_id and e.status = 'queued'
        and e.data ->> 'review_request_id' = p_request_id::text
        and e.template in ('review_request', 'review_reminder');
  else
    update plaudit.email_outbox e
      set status = 'failed', last_error = 'cancelled: ' || p_reason, locked_until = null
      where e.org_id = p_org_id and e.status = 'queued' and lower(e.to_address) = lower(p_email)
        and e.template in ('review_request', 'review_reminder');
  end if;
  get diagnostics n = row_count;
  return n;
end
$$;

COMMENT ON FUNCTION plaudit.cancel_queued_request_emails(p_org_id uuid, p_email text, p_request_id uuid, p_reason text) IS 'Withdraws the queued review-request e-mails to an address, or of one request; answers how many.';

CREATE FUNCTION plaudit.canonical_json(v jsonb) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
begin
  case jsonb_typeof(v)
    when 'object' then
      return '{' || coalesce((
        select string_agg(to_json(e.key)::text || ':' || plaudit.canonical_json(e.value), ','
                          order by e.index is null, e.index, e.ord)
          from (select o.key, o.value, o.ord,
                       case when o.key ~ '^(0|[1-9][0-9]{0,9})$' and o.key::bigint <= 4294967294
                            then o.key::bigint end as index
                  from jsonb_each(v) with ordinality o(key, value, ord)) e), '') || '}';
    when 'array' then
      return '[' || coalesce((
        select string_agg(plaudit.canonical_json(a.value), ',' order by a.ord)
          from jsonb_array_elements(v) with ordinality a(value, ord)), '') || ']';
    when 'number' then
      return trim_scale(v::text::numeric)::text;
    else
      -- A string, true, false or null: jsonb prints these as JSON.stringify does.
      return v::text;
  end case;
end
$_$;

COMMENT ON FUNCTION plaudit.canonical_json(v jsonb) IS 'jsonb as compact JSON, byte for byte what JSON.stringify writes, so that a receiver digests what was signed.';

CREATE FUNCTION plaudit.cdn_purge_on_change() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  r jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
begin
  perform plaudit.request_cdn_purge(
    case when tg_table_name = 'organizations' then r ->> 'id' else r ->> 'org_id' end::uuid,
    tg_table_name in ('organizations', 'public_profiles'));
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.cdn_purge_on_change() IS 'Asks for a CDN purge of the changed row''s organization (and of the sitemaps for an organization or profile change).';

CREATE FUNCTION plaudit.change_verification(p_review_id uuid, p_status text, p_method text, p_reason text, p_key_id uuid, p_order_hash text, p_verb text) RETURNS SETOF plaudit.reviews
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  current_status text;
  changed plaudit.reviews;
  prior_actor text := coalesce(current_setting('plaudit.actor', true), '');
begin
  select r.verification_status into current_status from plaudit.reviews r where r.id = p_review_id for update;
  if not found then
    raise exception 'Review not found' using errcode = 'no_data_found';
  end if;
  if current_status <> 'pending' then
    raise exception 'Only a pending review can be %; this one is %', p_verb, current_status
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  perform set_config('plaudit.actor', case when p_key_id is null then prior_actor else 'api_key:' || p_key_id end, true);
  update plaudit.reviews r
    set verification_status = p_status, verification_method = p_method, verification_at = now(),
        verification_key_id = p_key_id, verification_order_hash = p_order_hash,
        verification_reason = nullif(btrim(p_reason), '')
    where r.id = p_review_id
    returning r.* into changed;
  perform set_config('plaudit.actor', prior_actor, true);
  return next changed;
end
$$;

COMMENT ON FUNCTION plaudit.change_verification(p_review_id uuid, p_status text, p_method text, p_reason text, p_key_id uuid, p_order_hash text, p_verb text) IS 'Moves a pending review of the caller''s tenant to a verification status, recording provenance and actor.';

CREATE FUNCTION plaudit.check_custom_field_values(p_definitions jsonb, p_values jsonb) RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  f jsonb;
  k text;
  v jsonb;
  kind text;
  kept jsonb := '{}';
begin
  p_values := coalesce(p_values, '{}');
  if jsonb_typeof(p_values) <> 'object' then
    raise exception 'custom_fields: must be an object keyed by field key' using errcode = 'check_violation';
  end if;
  for f in select value from jsonb_array_elements(p_definitions) loop
    k := f ->> 'key';
    v := p_values -> k;
    kind := jsonb_typeof(v);
    if kind = 'string' then
      v := to_jsonb(btrim(v #>> '{}'));
    end if;
    if v is null or kind = 'null' or v = '""'::jsonb then
      if coalesce((f ->> 'required')::boolean, false) then
        raise exception 'custom_fields.%: is required', k using errcode = 'check_violation';
      end if;
      continue;
    end if;
    case f ->> 'type'
      when 'text' then
        if kind <> 'string' or char_length(v #>> '{}') > 500 then
          raise exception 'custom_fields.%: must be a text of at most 500 characters', k using errcode = 'check_violation';
        end if;
      when 'textarea' then
        if kind <> 'string' or char_length(v #>> '{}') > 5000 then
          raise exception 'custom_fields.%: must be a text of at most 5000 characters', k using errcode = 'check_violation';
        end if;
      when 'number' then
        if kind <> 'number' then
          raise exception 'custom_fields.%: must be a number', k using errcode = 'check_violation';
        end if;
      when 'boolean' then
        if kind <> 'boolean' then
          raise exception 'custom_fields.%: must be true or false', k using errcode = 'check_violation';
        end if;
      when 'select' then
        if kind <> 'string' or not (f -> 'options') @> jsonb_build_array(v) then
          raise exception 'custom_fields.%: must be one of %', k,
            (select string_agg(o, ', ') from jsonb_array_elements_text(f -> 'options') o)
            using errcode = 'check_violation';
        end if;
    end case;
    kept := kept || jsonb_build_object(k, v);
  end loop;
  return kept;
end
$$;

COMMENT ON FUNCTION plaudit.check_custom_field_values(p_definitions jsonb, p_values jsonb) IS 'Validates answers against a form''s custom fields and answers those to keep: the form''s keys only, strings trimmed.';

CREATE FUNCTION plaudit.check_review_media_upload(p_review_id uuid, p_token_hash bytea, p_address_bucket text, p_address_limit integer, p_review_limit integer, OUT refusal text, OUT org_id uuid, OUT rate_remaining integer, OUT rate_reset bigint) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  access record;
  rate record;
begin
  select * into rate from plaudit.hit_rate_limit(p_address_bucket, p_address_limit);
  rate_remaining := rate.remaining;
  rate_reset := rate.reset_at;
  if not rate.allowed then
    refusal := 'rate_limited';
    return;
  end if;
  select * into access from plaudit.review_media_access(p_review_id, p_token_hash);
  if access.refusal is not null then
    refusal := access.refusal;
  elsif not (select h.allowed from plaudit.hit_rate_limit('media-review:' || p_review_id::text, p_review_limit) h) then
    refusal := 'review_rate_limited';
  elsif (select count(*) from plaudit.review_media m where m.review_id = p_review_id) >= 6 then
    refusal := 'too_many';
  else
    org_id := access.org_id;
  end if;
end
$$;

COMMENT ON FUNCTION plaudit.check_review_media_upload(p_review_id uuid, p_token_hash bytea, p_address_bucket text, p_address_limit integer, p_review_limit integer, OUT refusal text, OUT org_id uuid, OUT rate_remaining integer, OUT rate_reset bigint) IS 'The rate limits, access and count checks before an upload is read and processed; answers the review''s organization.';

CREATE FUNCTION plaudit.claim_cdn_purges(p_limit integer DEFAULT 100, p_lease_seconds integer DEFAULT 60, p_org_ids uuid[] DEFAULT NULL::uuid[]) RETURNS TABLE(id uuid, claim_token uuid, org_id uuid, include_sitemap boolean, attempt integer, claimed_lsn pg_lsn)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
#variable_conflict use_column
declare
  now_ts timestamptz := clock_timestamp();
  token uuid := gen_random_uuid();
  lsn pg_lsn := pg_current_wal_lsn();
begin
  return query
  with due as (
    select c.id from plaudit.cdn_purges c
     where c.status in ('pending', 'sending', 'retrying') and c.next_attempt_at <= now_ts
       and (c.locked_until is null or c.locked_until <= now_ts)
       and (p_org_ids is null or c.org_id = any (p_org_ids))
     order by c.next_attempt_at
     limit p_limit
     for update skip locked
  ), claimed as (
    update plaudit.cdn_purges c
       set status = 'sending', attempts = c.attempts + 1, claim_token = token, claimed_lsn = lsn,
           locked_until = now_ts + make_interval(secs => p_lease_seconds)
      from due where c.id = due.id
    returning c.id, c.claim_token, c.org_id, c.include_sitemap, c.attempts, c.claimed_lsn
  )
  select * from claimed;
end
$$;

COMMENT ON FUNCTION plaudit.claim_cdn_purges(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) IS 'Claims up to p_limit due CDN purges under a lease, noting the primary''s WAL position.';

CREATE FUNCTION plaudit.claim_emails(p_limit integer DEFAULT 20, p_lease_seconds integer DEFAULT 60, p_org_ids uuid[] DEFAULT NULL::uuid[]) RETURNS TABLE(id uuid, claim_token uuid, org_id uuid, org_name text, to_address text, template text, locale text, data jsonb, idempotency_key text, attempt integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
#variable_conflict use_column
declare
  now_ts timestamptz := clock_timestamp();
  wanted integer := p_limit;
  batch uuid[];
  withdrawn integer;
  claimed integer;
begin
  loop
    select array_agg(d.id) into batch from (
      select e.id from plaudit.email_outbox e
      where e.status in ('queued', 'sending') and e.next_attempt_at <= now_ts
        and (e.locked_until is null or e.locked_until <= now_ts)
        and (p_org_ids is null or e.org_id = any (p_org_ids))
      order by e.next_attempt_at
      limit wanted
      for update skip locked
    ) d;
    exit when batch is null;

    -- The rows are locked: no suppression or end of a request can slip in between this check
    -- and the claim below without waiting for this transaction.
    update plaudit.email_outbox e
      set status = 'failed', last_error = 'cancelled: ' || w.reason, locked_until = null, claim_token = null
      from (select x.id, plaudit.review_request_email_withdrawal(x.org_id, x.template, x.to_address, x.data) as reason
            from plaudit.email_outbox x where x.id = any (batch)) w
      where e.id = w.id and w.reason is not null;
    get diagnostics withdrawn = row_count;

    -- Withdrawing one e-mail can withdraw others of the batch (the trigger's `failed` event
    -- cancels the request's other e-mails): only rows still waiting are claimed.
    return query
    with claimed as (
      update plaudit.email_outbox e
      set status = 'sending', attempts = e.attempts + 1, claim_token = gen_random_uuid(),
          locked_until = now_ts + make_interval(secs => p_lease_seconds)
      where e.id = any (batch) and e.status in ('queued', 'sending')
      returning e.id, e.claim_token, e.org_id, e.to_address, e.template, e.locale, e.data,
                e.idempotency_key, e.attempts
    )
    select c.id, c.claim_token, c.org_id, plaudit.brand_name(c.org_id), c.to_address, c.template, c.locale, c.data,
           c.idempotency_key, c.attempts
    from claimed c;
    get diagnostics claimed = row_count;

    wanted := wanted - claimed;
    exit when withdrawn = 0 or wanted <= 0;
  end loop;
end
$$;

COMMENT ON FUNCTION plaudit.claim_emails(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) IS 'Claims up to p_limit due e-mails under a lease, with their data and brand, failing those withdrawn meanwhile.';

CREATE FUNCTION plaudit.claim_webhook_deliveries(p_limit integer DEFAULT 50, p_lease_seconds integer DEFAULT 60, p_per_endpoint integer DEFAULT 4, p_org_ids uuid[] DEFAULT NULL::uuid[], p_per_org integer DEFAULT NULL::integer, p_org_busy jsonb DEFAULT NULL::jsonb, p_suspect_room integer DEFAULT NULL::integer) RETURNS TABLE(id uuid, claim_token uuid, org_id uuid, endpoint_id uuid, url text, event_type text, message_id text, payload text, attempt integer, schedule_step integer, is_test boolean, webhook_timestamp bigint, signature_hex text, previous_signature_hex text, webhook_signature text, suspect boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
#variable_conflict use_column
declare
  now_ts timestamptz := clock_timestamp();
  ts bigint := floor(extract(epoch from clock_timestamp()))::bigint;
begin
  return query
  with recursive queued_endpoints as (
    (select x.endpoint_id from plaudit.webhook_deliveries x
     where x.status = 'pending'
     order by x.endpoint_id limit 1)
    union all
    select (select x.endpoint_id from plaudit.webhook_deliveries x
            where x.status = 'pending' and x.endpoint_id > q.endpoint_id
            order by x.endpoint_id limit 1)
    from queued_endpoints q
    where q.endpoint_id is not null
  ), endpoints as (
    -- By key, one at a time (the limit keeps the planner from joining the whole table).
    select w.*
    from queued_endpoints q
    cross join lateral (
      select e.id, e.org_id, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at,
             e.failing_since is not null as failing,
             e.failing_since is not null or e.slow_since is not null as suspect
      from plaudit.webhook_endpoints e
      where e.id = q.endpoint_id and e.enabled and (p_org_ids is null or e.org_id = any (p_org_ids))
      limit 1
    ) w
  ), candidates as (
    select d.id, d.next_attempt_at, d.rn, w.org_id, w.suspect, w.url, w.secret, w.previous_secret,
           w.previous_secret_expires_at
    from endpoints w
    cross join lateral (
      select count(*)::integer as n
      from plaudit.webhook_deliveries f
      where f.endpoint_id = w.id and f.status = 'pending'
        and f.locked_until is not null and f.locked_until > now_ts
    ) busy
    cross join lateral (
      select q.id, q.next_attempt_at, row_number() over (order by q.next_attempt_at, q.id) as rn
      from (
        select x.id, x.next_attempt_at
        from plaudit.webhook_deliveries x
        where x.endpoint_id = w.id and x.status = 'pending' and x.next_attempt_at <= now_ts
          and (x.locked_until is null or x.locked_until <= now_ts)
        order by x.next_attempt_at, x.id
        limit greatest(case when w.failing then least(p_per_endpoint, 1) else p_per_endpoint end - busy.n, 0)
      ) q
    ) d
  ), per_org as (
    select c.*,
           row_number() over (partition by c.org_id order by c.rn, c.next_attempt_at, c.id)
             + coalesce((p_org_busy ->> c.org_id::text)::integer, 0) as org_n
    from candidates c
  ), within_org as (
    select c.*,
           case when c.suspect
             then row_number() over (partition by c.suspect order by c.rn, c.next_attempt_at, c.id)
           end as suspect_n
    from per_org c
    where p_per_org is null or c.org_n <= p_per_org
  ), picked as (
    select c.* from within_org c
    where p_suspect_room is null or c.suspect_n is null or c.suspect_n <= p_suspect_room
    order by c.rn, c.next_attempt_at
    limit p_limit
  ), locked as (
    select p.* from plaudit.webhook_deliveries d
    join picked p on p.id = d.id
    where d.status = 'pending' and (d.locked_until is null or d.locked_until <= now_ts)
    for update of d skip locked
  ), claimed as (
    update plaudit.webhook_deliveries d
    set locked_until = now_ts + make_interval(secs => p_lease_seconds),
        claim_token = gen_random_uuid(),
        attempts = d.attempts + 1,
        schedule_step = d.schedule_step + 1,
        last_attempt_at = now_ts
    from locked l
    where d.id = l.id
    returning d.id, d.claim_token, d.org_id, d.endpoint_id, d.event_type, d.message_id, d.payload,
              d.attempts, d.schedule_step, d.is_test, l.url, l.secret, l.previous_secret,
              l.previous_secret_expires_at, l.suspect
  )
  select c.id, c.claim_token, c.org_id, c.endpoint_id, c.url, c.event_type, c.message_id, c.payload,
         c.attempts, c.schedule_step, c.is_test, ts,
         s.signature_hex, s.previous_signature_hex, s.webhook_signature, c.suspect
  from claimed c
  cross join lateral plaudit.webhook_signatures(c.secret, c.previous_secret, c.previous_secret_expires_at,
                                                c.message_id, ts, c.payload) s;
end
$$;

COMMENT ON FUNCTION plaudit.claim_webhook_deliveries(p_limit integer, p_lease_seconds integer, p_per_endpoint integer, p_org_ids uuid[], p_per_org integer, p_org_busy jsonb, p_suspect_room integer) IS 'Claims due deliveries, signed and leased, so no endpoint or organization fills a batch.';

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
    CONSTRAINT imports_actor_check CHECK (((char_length(actor) >= 1) AND (char_length(actor) <= 200))),
    CONSTRAINT imports_duplicates_check CHECK ((duplicates >= 0)),
    CONSTRAINT imports_format_check CHECK ((format = ANY (ARRAY['plaudit'::text, 'judgeme'::text, 'yotpo'::text, 'okendo'::text, 'loox'::text, 'shopify'::text]))),
    CONSTRAINT imports_imported_check CHECK ((imported >= 0)),
    CONSTRAINT imports_rejected_check CHECK ((jsonb_typeof(rejected) = 'array'::text)),
    CONSTRAINT imports_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text, 'completed'::text, 'failed'::text]))),
    CONSTRAINT imports_total_rows_check CHECK ((total_rows >= 0))
);

COMMENT ON TABLE plaudit.imports IS 'A file of reviews from another platform, imported (or tried, dry_run) in the background.';

CREATE FUNCTION plaudit.create_import(p_format text, p_dry_run boolean, p_total_rows integer, p_rows jsonb, p_rejected jsonb, p_actor text) RETURNS SETOF plaudit.imports
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  tenant uuid := plaudit.current_org_id();
  job plaudit.imports;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;
  insert into plaudit.imports (org_id, format, dry_run, total_rows, rejected, actor)
  values (tenant, p_format, p_dry_run, p_total_rows, coalesce(p_rejected, '[]'),
          coalesce(nullif(p_actor, ''), 'database:' || session_user))
  returning * into job;
  insert into plaudit.import_rows (import_id, org_id, row_number, data)
  select job.id, tenant, (r ->> 'row')::integer, r - 'row'
    from jsonb_array_elements(coalesce(p_rows, '[]')) r;
  perform pg_notify('plaudit_outbox', 'import');
  return next job;
end
$$;

COMMENT ON FUNCTION plaudit.create_import(p_format text, p_dry_run boolean, p_total_rows integer, p_rows jsonb, p_rejected jsonb, p_actor text) IS 'Records an import job of the transaction''s tenant with its checked rows, for the worker to apply.';

CREATE FUNCTION plaudit.create_invitation(p_org_id uuid, p_email text, p_role text, p_invited_by_key_id uuid DEFAULT NULL::uuid) RETURNS TABLE(id uuid, email text, role text, expires_at timestamp with time zone, created_at timestamp with time zone, token text)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  new_token text := plaudit.random_base62(43);
begin
  if exists (select from plaudit.members m
             where m.org_id = p_org_id and lower(m.email) = lower(p_email)) then
    raise unique_violation using message = 'this address is already a member';
  end if;
  update plaudit.invitations as i set revoked_at = now()
    where i.org_id = p_org_id and lower(i.email) = lower(p_email)
      and i.accepted_at is null and i.revoked_at is null and i.expires_at <= now();
  begin
    return query
      insert into plaudit.invitations as i (org_id, email, role, token_hash, invited_by_key_id)
      values (p_org_id, p_email, p_role, sha256(convert_to(new_token, 'UTF8')), p_invited_by_key_id)
      returning i.id, i.email, i.role, i.expires_at, i.created_at, new_token;
  exception when unique_violation then
    raise unique_violation using message = 'this address already has an open invitation';
  end;
end
$$;

COMMENT ON FUNCTION plaudit.create_invitation(p_org_id uuid, p_email text, p_role text, p_invited_by_key_id uuid) IS 'Invites an address to the organization and answers the invitation with its one-time token.';

CREATE FUNCTION plaudit.create_review_requests(p_rows jsonb, p_link_base text) RETURNS TABLE(idx integer, id uuid, error text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
#variable_conflict use_column
declare
  tenant uuid := plaudit.current_org_id();
  batch jsonb;
  inserted uuid[];
  to_send integer;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;

  -- Each row with the first reason it is refused (the form, a repeated external_id within the
  -- call, an external_id stored already) and, when it is accepted, whether its address is
  -- suppressed.
  with input as (
    select (r ->> 'index')::integer as idx, gen_random_uuid() as id, r ->> 'email' as email, r ->> 'name' as name,
           (r ->> 'form_id')::uuid as form_id, nullif(r ->> 'order_id', '') as order_id,
           nullif(r ->> 'external_id', '') as external_id, coalesce(nullif(r ->> 'locale', ''), 'en') as locale,
           coalesce((r ->> 'send_at')::timestamptz, now()) as send_at,
           coalesce(r -> 'products', '[]') as products, nullif(r -> 'incentive', 'null') as incentive,
           exists (select from plaudit.review_forms f
                    where f.id = (r ->> 'form_id')::uuid and f.org_id = tenant
                      and f.deleted_at is null and f.is_active) as form_ok
      from jsonb_array_elements(p_rows) r
  ), named as (
    -- Each product a row names, by its position (0-based), with the position it first appears at.
    select i.idx, e.ord::integer - 1 as pos, p.id as product_id, p.name, p.archived,
           min(e.ord::integer) over (partition by i.idx, e.external_id) - 1 as first_pos
      from input i
      cross join lateral jsonb_array_elements_text(i.products) with ordinality as e(external_id, ord)
      left join plaudit.products p on p.org_id = tenant and p.external_id = e.external_id
  ), product_errors as (
    select distinct on (n.idx) n.idx,
           'products[' || n.pos || ']: ' || case
             when n.product_id is null then 'no such product in this organization'
             when n.first_pos <> n.pos then 'repeats products[' || n.first_pos || ']'
             else 'the product is archived and takes no new reviews'
           end as error
      from named n
     where n.product_id is null or n.archived or n.first_pos <> n.pos
     order by n.idx, n.pos
  ), ranked as (
    select i.*,
           case when i.form_ok and i.external_id is not null
                then min(i.idx) over (partition by i.form_ok, i.external_id) end as first_idx
      from input i
  ), checked as (
    select k.idx, k.id, k.email, k.name, k.form_id, k.order_id, k.external_id, k.locale, k.send_at, k.incentive,
           case
             when not k.form_ok then 'form_id: no active review form with this id in this organization'
             when pe.error is not null then pe.error
             when k.first_idx <> k.idx then 'external_id: repeats the external_id of row ' || k.first_idx
             when q.id is not null then
               'external_id: a review request with this external_id exists already (' || q.id || '); it is not sent again'
           end as error,
           (select s.reason from plaudit.email_suppressions s
             where s.org_id = tenant and s.email_key = plaudit.email_key(tenant, k.email)) as suppressed,
           (select jsonb_agg(n.product_id order by n.pos) from named n where n.idx = k.idx) as product_ids,
           (select jsonb_agg(n.name order by n.pos) from named n where n.idx = k.idx) as product_names
      from ranked k
      left join product_errors pe on pe.idx = k.idx
      left join plaudit.review_requests q
        on q.org_id = tenant and q.external_id = k.external_id and k.external_id is not null
  )
  select jsonb_agg(jsonb_build_object(
           'idx', c.idx, 'id', c.id, 'email', c.email, 'name', c.name, 'form_id', c.form_id,
           'order_id', c.order_id, 'external_id', c.external_id, 'locale', c.locale, 'send_at', c.send_at,
           'incentive', c.incentive,
           'error', c.error, 'suppressed', case when c.error is null then c.suppressed end,
           'product_ids', coalesce(c.product_ids, '[]'), 'product_names', coalesce(c.product_names, '[]'))
         order by c.idx)
    into batch
    from checked c;

  select count(*) into to_send
    from jsonb_to_recordset(coalesce(batch, '[]')) as b(error text, suppressed text)
   where b.error is null and b.suppressed is null;
  perform plaudit.take_review_request_quota(tenant, to_send);

  -- A concurrent call may have taken an external_id since: that row is reported, not inserted.
  with inserted_rows as (
    insert into plaudit.review_requests as q
      (id, org_id, form_id, email, name, order_id, external_id, locale, send_at, link_base, status, failed_at,
       incentive)
    select b.id, tenant, b.form_id, b.email, b.name, b.order_id, b.external_id, b.locale, b.send_at,
           rtrim(p_link_base, '/'),
           case when b.suppressed is null then 'queued' else 'failed' end,
           case when b.suppressed is null then null else now() end, nullif(b.incentive, 'null')
      from jsonb_to_recordset(coalesce(batch, '[]')) as b(idx integer, id uuid, email text, name text, form_id uuid,
             order_id text, external_id text, locale text, send_at timestamptz, error text, suppressed text,
             incentive jsonb)
     where b.error is null
     order by b.idx
    on conflict (org_id, external_id) where external_id is not null do nothing
    returning q.id
  )
  select coalesce(array_agg(r.id), '{}') into inserted from inserted_rows r;

  insert into plaudit.review_request_products (org_id, request_id, product_id, position)
  select tenant, b.id, p.product_id::uuid, p.ord - 1
    from jsonb_to_recordset(batch) as b(id uuid, product_ids jsonb)
    cross join lateral jsonb_array_elements_text(b.product_ids) with ordinality as p(product_id, ord)
   where b.id = any(inserted);

  insert into plaudit.review_request_events (org_id, request_id, type, dedupe_key, occurred_at, applied, data)
  select tenant, b.id, 'queued', 'queued', now(), true,
         case when b.send_at > now() then jsonb_build_object('send_at', b.send_at) else '{}' end
    from jsonb_to_recordset(batch) as b(id uuid, send_at timestamptz)
   where b.id = any(inserted);

  insert into plaudit.review_request_events (org_id, request_id, type, dedupe_key, occurred_at, applied, data)
  select tenant, b.id, 'failed', 'failed', now(), true,
         jsonb_build_object('reason', 'suppressed', 'suppression_reason', b.suppressed)
    from jsonb_to_recordset(batch) as b(id uuid, suppressed text)
   where b.id = any(inserted) and b.suppressed is not null;

  insert into plaudit.email_outbox (org_id, to_address, template, locale, data, idempotency_key, next_attempt_at)
  select tenant, b.email, 'review_request', b.locale,
         jsonb_build_object('review_request_id', b.id, 'name', b.name, 'form_name', f.name,
                            'product_names', b.product_names)
           || plaudit.review_request_links(b.id, p_link_base),
         'review_request:' || b.id, b.send_at
    from jsonb_to_recordset(batch) as b(id uuid, email text, name text, form_id uuid, locale text,
           send_at timestamptz, suppressed text, product_names jsonb)
    join plaudit.review_forms f on f.id = b.form_id
   where b.id = any(inserted) and b.suppressed is null;

  if to_send > 0 then
    perform pg_notify('plaudit_outbox', 'email');
  end if;

  return query
    select b.idx,
           case when b.error is null and b.id = any(inserted) then b.id end,
           coalesce(b.error, case when not (b.id = any(inserted))
             then 'external_id: a review request with this external_id exists already; it is not sent again' end)
      from jsonb_to_recordset(coalesce(batch, '[]')) as b(idx integer, id uuid, error text)
     order by b.idx;
end
$$;

COMMENT ON FUNCTION plaudit.create_review_requests(p_rows jsonb, p_link_base text) IS 'Creates up to 1,000 review requests of the transaction''s tenant; answers each row''s id or why it was refused.';

CREATE FUNCTION plaudit.create_test_delivery(p_endpoint_id uuid, p_event_type text, p_data jsonb) RETURNS TABLE(id uuid, claim_token uuid, org_id uuid, endpoint_id uuid, url text, event_type text, message_id text, payload text, attempt integer, schedule_step integer, is_test boolean, webhook_timestamp bigint, signature_hex text, previous_signature_hex text, webhook_signature text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
#variable_conflict use_column
declare
  w plaudit.webhook_endpoints;
  ts bigint := floor(extract(epoch from clock_timestamp()))::bigint;
  new_row plaudit.webhook_deliveries;
begin
  select * into w from plaudit.webhook_endpoints e
    where e.id = p_endpoint_id and e.org_id = plaudit.current_org_id();
  if not found then
    return;
  end if;
  insert into plaudit.webhook_deliveries as d
    (org_id, endpoint_id, event_type, payload, is_test, attempts, schedule_step, locked_until,
     claim_token, last_attempt_at)
  values (w.org_id, w.id, p_event_type, plaudit.webhook_payload(p_event_type, clock_timestamp(), p_data),
          true, 1, 1, clock_timestamp() + interval '1 minute', gen_random_uuid(), clock_timestamp())
  returning * into new_row;
  return query
    select new_row.id, new_row.claim_token, new_row.org_id, new_row.endpoint_id, w.url,
           new_row.event_type, new_row.message_id, new_row.payload, new_row.attempts,
           new_row.schedule_step, true, ts, s.signature_hex, s.previous_signature_hex, s.webhook_signature
    from plaudit.webhook_signatures(w.secret, w.previous_secret, w.previous_secret_expires_at,
                                    new_row.message_id, ts, new_row.payload) s;
end
$$;

COMMENT ON FUNCTION plaudit.create_test_delivery(p_endpoint_id uuid, p_event_type text, p_data jsonb) IS 'Creates a one-shot test delivery to an endpoint of the transaction''s tenant, claimed for the caller and signed.';

CREATE FUNCTION plaudit.create_webhook_endpoint(p_org_id uuid, p_url text, p_events text[], p_description text DEFAULT NULL::text) RETURNS TABLE(id uuid, url text, description text, events text[], enabled boolean, secret text, created_at timestamp with time zone)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  new_secret text := plaudit.new_webhook_secret();
begin
  return query
    insert into plaudit.webhook_endpoints as w (org_id, url, events, description, secret)
    values (p_org_id, p_url, p_events, p_description, new_secret)
    returning w.id, w.url, w.description, w.events, w.enabled, new_secret, w.created_at;
end
$$;

COMMENT ON FUNCTION plaudit.create_webhook_endpoint(p_org_id uuid, p_url text, p_events text[], p_description text) IS 'Registers a webhook endpoint and answers its signing secret, once.';

CREATE FUNCTION plaudit.csv_cell(v text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
  select coalesce(pg_catalog.quote_ident(
    case when pg_catalog.ascii(v) in (61, 43, 45, 64, 9, 13) then '''' || v else v end), '')
$$;

COMMENT ON FUNCTION plaudit.csv_cell(v text) IS 'One CSV cell: guarded as csv_guard does, then quoted as RFC 4180 asks; null is an empty cell.';

CREATE FUNCTION plaudit.csv_guard(v text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
  select case when ascii(v) in (61, 43, 45, 64, 9, 13) then '''' || v else v end
$$;

COMMENT ON FUNCTION plaudit.csv_guard(v text) IS 'A CSV cell''s text, led by an apostrophe when a spreadsheet would read it as a formula.';

CREATE FUNCTION plaudit.current_actor() RETURNS text
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ select coalesce(nullif(current_setting('plaudit.actor', true), ''), 'database:' || session_user) $$;

COMMENT ON FUNCTION plaudit.current_actor() IS 'Who made the change: the transaction''s setting plaudit.actor, else the database user.';

CREATE FUNCTION plaudit.current_org_id() RETURNS uuid
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select nullif(current_setting('plaudit.org_id', true), '')::uuid
$$;

COMMENT ON FUNCTION plaudit.current_org_id() IS 'The tenant of the current transaction, from its setting plaudit.org_id; null when none is set.';

CREATE FUNCTION plaudit.custom_field_definitions_are_valid(fields jsonb) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
declare
  f jsonb;
  keys text[] := '{}';
begin
  if jsonb_typeof(fields) <> 'array' or jsonb_array_length(fields) > 50 then
    return false;
  end if;
  for f in select value from jsonb_array_elements(fields) loop
    if jsonb_typeof(f) <> 'object'
       or jsonb_typeof(f -> 'key') is distinct from 'string'
       or (f ->> 'key') !~ '^[a-z][a-z0-9_]{0,49}$'
       or (f ->> 'key') = any (keys)
       or jsonb_typeof(f -> 'label') is distinct from 'string'
       or char_length(f ->> 'label') not between 1 and 200
       or (f ->> 'type') is null
       or (f ->> 'type') not in ('text', 'textarea', 'number', 'select', 'boolean')
       or coalesce(jsonb_typeof(f -> 'required'), 'boolean') <> 'boolean'
       or exists (select from jsonb_object_keys(f) k where k not in ('key', 'label', 'type', 'required', 'options'))
    then
      return false;
    end if;
    if (f ->> 'type') = 'select' then
      if jsonb_typeof(f -> 'options') is distinct from 'array'
         or jsonb_array_length(f -> 'options') not between 1 and 50
         or exists (select from jsonb_array_elements(f -> 'options') o
                    where jsonb_typeof(o) <> 'string' or char_length(o #>> '{}') not between 1 and 200)
         or (select count(distinct o) from jsonb_array_elements(f -> 'options') o)
            <> jsonb_array_length(f -> 'options')
      then
        return false;
      end if;
    elsif f ? 'options' then
      return false;
    end if;
    keys := keys || (f ->> 'key');
  end loop;
  return true;
end
$_$;

COMMENT ON FUNCTION plaudit.custom_field_definitions_are_valid(fields jsonb) IS 'True when `fields` is a valid list of custom-field definitions: unique keys, known types, options for select fields only.';

CREATE FUNCTION plaudit.email_key(p_org_id uuid, p_email text) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
  select pg_catalog.sha256(pg_catalog.convert_to(p_org_id::text || ':' || pg_catalog.lower(p_email), 'UTF8'))
$$;

COMMENT ON FUNCTION plaudit.email_key(p_org_id uuid, p_email text) IS 'An address as the suppression list matches it: the SHA-256 of the organization''s id and the address in lower case.';

CREATE FUNCTION plaudit.email_outbox_track_review_requests() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  request_id uuid := (new.data ->> 'review_request_id')::uuid;
begin
  if new.template = 'review_request' and new.status = 'sent' then
    perform plaudit.apply_review_request_event(request_id, 'sent', 'sent', coalesce(new.sent_at, now()),
      jsonb_build_object('email_id', new.id));
  elsif new.template = 'review_reminder' and new.status = 'sent' then
    perform plaudit.apply_review_request_event(request_id, 'reminder_sent',
      'reminder_sent:' || coalesce(new.data ->> 'reminder', '1'), coalesce(new.sent_at, now()),
      jsonb_build_object('email_id', new.id, 'reminder', (new.data ->> 'reminder')::integer));
  elsif new.template = 'review_request' and new.status = 'failed'
        and coalesce(new.last_error, '') not like 'cancelled: the request is %' then
    perform plaudit.apply_review_request_event(request_id, 'failed', 'failed', now(),
      case when new.last_error like 'cancelled: the address%'
           then jsonb_build_object('reason', 'suppressed')
           else jsonb_build_object('reason', 'send_failed', 'error', left(new.last_error, 300)) end);
  end if;
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.email_outbox_track_review_requests() IS 'A review-request e-mail that is sent or fails records the matching event on its request.';

CREATE FUNCTION plaudit.email_suppressions_cancel_queued() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  perform plaudit.cancel_queued_request_emails(new.org_id, new.email, null, 'the address is on the suppression list');
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.email_suppressions_cancel_queued() IS 'An address added to the suppression list has its queued review-request e-mails withdrawn.';

CREATE FUNCTION plaudit.email_suppressions_set_key() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  if new.email is not null then
    new.email_key := plaudit.email_key(new.org_id, new.email);
  end if;
  return new;
end
$$;

COMMENT ON FUNCTION plaudit.email_suppressions_set_key() IS 'A suppressed address is keyed by plaudit.email_key, whoever writes it.';

CREATE FUNCTION plaudit.emit_event(p_org_id uuid, p_type text, p_data jsonb) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  new_id uuid;
begin
  -- Stamped when written, not when its transaction began: a long transaction (the worker's export
  -- run takes jobs for up to two seconds) must not date an event before the changes it follows.
  insert into plaudit.events (org_id, type, data, created_at) values (p_org_id, p_type, p_data, clock_timestamp())
  returning id into new_id;
  perform pg_notify('plaudit_outbox', 'event');
  return new_id;
end
$$;

COMMENT ON FUNCTION plaudit.emit_event(p_org_id uuid, p_type text, p_data jsonb) IS 'Writes an event to the outbox in the caller''s transaction and wakes the worker; answers the event''s id.';

CREATE FUNCTION plaudit.end_session(p_token_hash bytea, p_everywhere boolean) RETURNS integer
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  with me as (select * from plaudit.live_session(p_token_hash)),
  ended as (
    update plaudit.sessions s set ended_at = now()
      from me
     where s.ended_at is null
       and (s.id = me.id or (p_everywhere and lower(s.email) = lower(me.email)))
    returning 1
  )
  select count(*)::integer from ended
$$;

COMMENT ON FUNCTION plaudit.end_session(p_token_hash bytea, p_everywhere boolean) IS 'Signs out: this session, or every session of its person; answers how many ended.';

CREATE FUNCTION plaudit.enqueue_email(p_org_id uuid, p_to text, p_template text, p_data jsonb, p_locale text DEFAULT 'en'::text, p_idempotency_key text DEFAULT NULL::text) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  new_id uuid;
begin
  insert into plaudit.email_outbox (org_id, to_address, template, locale, data, idempotency_key)
  values (p_org_id, p_to, p_template, p_locale, p_data, coalesce(p_idempotency_key, gen_random_uuid()::text))
  on conflict (idempotency_key) do nothing
  returning id into new_id;
  perform pg_notify('plaudit_outbox', 'email');
  return new_id;
end
$$;

COMMENT ON FUNCTION plaudit.enqueue_email(p_org_id uuid, p_to text, p_template text, p_data jsonb, p_locale text, p_idempotency_key text) IS 'Queues an e-mail, once per idempotency key, and wakes the worker; answers its id, or null for a repeated key.';

CREATE FUNCTION plaudit.erase_reviewer(p_email text, p_redact_content boolean, p_actor text) RETURNS json
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
declare
  tenant uuid := plaudit.current_org_id();
  address text := lower(btrim(p_email));
  redact boolean := coalesce(p_redact_content, false);
  erased uuid[];
  requests integer;
  media integer := 0;
  files json := '[]'::json;
  r plaudit.reviews;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;
  if address is null or char_length(address) > 320 or address !~ '^[^@\s]+@[^@\s]+$' then
    raise exception 'email: must be an e-mail address' using errcode = 'invalid_parameter_value';
  end if;

  -- The reviews.
  with forgotten as (
    update plaudit.reviews x
       set reviewer_email = null, reviewer_name = 'Anonymous', custom_fields = '{}',
           title = case when redact and x.title is not null then plaudit.erasure_notice() else x.title end,
           content = case when redact then plaudit.erasure_notice() else x.content end
     where x.org_id = tenant and lower(x.reviewer_email) = address
    returning x.id
  )
  select coalesce(array_agg(f.id order by f.id), '{}') into erased from forgotten f;
  if cardinality(erased) > 0 then
    -- Public answers show names and texts: their version (and every ETag) moves.
    perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(tenant)));
  end if;

  for r in select * from plaudit.reviews x where x.id = any (erased) order by x.id loop
    perform plaudit.append_moderation_entry(tenant, r.id, 'anonymize',
      case when redact then 'erased at the reviewer''s request, text removed'
           else 'erased at the reviewer''s request' end,
      p_actor);
  end loop;
  -- One review.anonymized a review, written in one statement, each with the chain's head after the
  -- erasure (which covers its entry).
  if cardinality(erased) > 0 then
    insert into plaudit.events (org_id, type, data, created_at)
    select tenant, 'review.anonymized', jsonb_build_object(
             'id', x.id, 'form_id', x.form_id, 'product', plaudit.review_product_json(x.product_id)::jsonb,
             'reviewer_name', x.reviewer_name, 'content_removed', redact,
             'anonymized_at', plaudit.iso_utc(clock_timestamp()),
             'moderation_chain', plaudit.moderation_chain_head(tenant)), clock_timestamp()
      from plaudit.reviews x where x.id = any (erased) order by x.id;
    perform pg_notify('plaudit_outbox', 'event');
  end if;

  -- What past events said of these reviews (events name a review by its id and never carry an
  -- address; any copy of it is replaced all the same); their webhook deliveries carry the event's
  -- data, and take it again. The ids are joined as a set: an array compared per event would cost
  -- the erased count for each of the 30 days of events.
  with ids as (
    select x.id::text as id from unnest(erased) x(id)
  ), changed as (
    update plaudit.events e
       set data = plaudit.json_without_address(plaudit.review_event_forgotten(e.data, redact), address)
      from ids
     where e.org_id = tenant and e.type like 'review.%' and e.type <> 'review.anonymized'
       and e.data ->> 'id' = ids.id
    returning e.id, e.data
  )
  update plaudit.webhook_deliveries d
     set payload = jsonb_set(d.payload::jsonb, '{data}', c.data)::text
    from changed c
   where d.event_id = c.id;

  -- Their photos and videos: the rows go here, the files (named in the answer's `files`, which the
  -- API removes from the storage and does not pass on) with them; upload tokens too.
  with gone as (
    delete from plaudit.review_media m where m.org_id = tenant and m.review_id = any (erased)
    returning m.storage_key, m.thumbnail_key
  )
  select (select count(*) from gone)::integer,
         coalesce((select json_agg(k.key) from gone g cross join lateral (values (g.storage_key), (g.thumbnail_key)) k(key)
                    where k.key is not null), '[]'::json)
    into media, files;
  delete from plaudit.media_upload_tokens t where t.org_id = tenant and t.review_id = any (erased);

  -- Its review requests (their events, products and links go with them) and its e-mails.
  with gone as (
    delete from plaudit.review_requests q where q.org_id = tenant and lower(q.email) = address returning 1
  )
  select count(*)::integer into requests from gone;
  delete from plaudit.email_outbox m where m.org_id = tenant and lower(m.to_address) = address;
  update plaudit.orders o set email = null where o.org_id = tenant and lower(o.email) = address;
  delete from plaudit.idempotency_keys k where k.org_id = tenant and strpos(lower(k.response), address) > 0;

  -- Exports that hold the address: their files go, and they read as expired.
  with holding as (
    select distinct c.export_id from plaudit.export_chunks c
     where c.org_id = tenant and strpos(lower(c.body), address) > 0
  ), emptied as (
    delete from plaudit.export_chunks c using holding h where c.export_id = h.export_id returning c.export_id
  )
  update plaudit.exports x set expires_at = least(coalesce(x.expires_at, now()), now())
   where x.id in (select h.export_id from holding h);

  -- Suppressed, kept only as its key.
  delete from plaudit.email_suppressions s
   where s.org_id = tenant and s.email_key = plaudit.email_key(tenant, address) and s.reason <> 'erased';
  insert into plaudit.email_suppressions (org_id, email, email_key, reason)
  values (tenant, null, plaudit.email_key(tenant, address), 'erased')
  on conflict (org_id, email_key) do nothing;

  insert into plaudit.privacy_erasures (org_id, email_key, redact_content, reviews, review_requests, media, actor)
  values (tenant, plaudit.email_key(tenant, address), redact, cardinality(erased), requests, media,
          coalesce(nullif(p_actor, ''), 'database:' || session_user));

  return json_build_object('reviews', cardinality(erased), 'review_requests', requests, 'media', media, 'files', files);
end
$_$;

COMMENT ON FUNCTION plaudit.erase_reviewer(p_email text, p_redact_content boolean, p_actor text) IS 'Forgets an address in the transaction''s tenant: its reviews anonymized (text removed on request), its requests, e-mails and copies gone, the address suppressed as a hash; answers the counts.';

CREATE FUNCTION plaudit.erasure_notice() RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ select '[removed at the reviewer''s request]'::text $$;

COMMENT ON FUNCTION plaudit.erasure_notice() IS 'The text an erased review''s title and content are replaced with when the reviewer asked for it.';

CREATE FUNCTION plaudit.export_csv_custom_cells(p_values jsonb, p_keys text[]) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select (select string_agg(',' || plaudit.csv_cell(p_values ->> k), '' order by i)
            from unnest(p_keys) with ordinality u(k, i))
$$;

COMMENT ON FUNCTION plaudit.export_csv_custom_cells(p_values jsonb, p_keys text[]) IS 'A review''s custom-field cells for a CSV row, each led by its comma, an unanswered field empty.';

CREATE FUNCTION plaudit.export_csv_header(p_custom_field_keys text[]) RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select 'id,rating,title,content,reviewer_name,reviewer_email,verification_status,is_hidden,created_at,form_id,'
         || 'product_external_id,product_name,source,media_urls'
         || coalesce((select string_agg(',' || plaudit.csv_cell('custom_fields.' || k), '' order by i)
                        from unnest(p_custom_field_keys) with ordinality u(k, i)), '')
$$;

COMMENT ON FUNCTION plaudit.export_csv_header(p_custom_field_keys text[]) IS 'The header line of a CSV export: the review''s columns, its product''s, its source, its media''s URLs, then one `custom_fields.<key>` column per custom field.';

CREATE FUNCTION plaudit.export_custom_field_keys(p_org_id uuid, p_form_id uuid) RETURNS text[]
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select coalesce(array_agg(k.key order by k.pos), '{}')
    from (select distinct on (f.value ->> 'key') f.value ->> 'key' as key,
                 row_number() over (order by rf.created_at, rf.id, f.ord) as pos
            from plaudit.review_forms rf,
                 jsonb_array_elements(rf.custom_fields) with ordinality f(value, ord)
           where rf.org_id = p_org_id and (p_form_id is null or rf.id = p_form_id)
           order by f.value ->> 'key', pos) k
$$;

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
    CONSTRAINT exports_format_check CHECK ((format = ANY (ARRAY['csv'::text, 'json'::text]))),
    CONSTRAINT exports_public_url_check CHECK (((public_url ~ '^https?://'::text) AND (char_length(public_url) <= 2048))),
    CONSTRAINT exports_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text, 'completed'::text, 'failed'::text])))
);

COMMENT ON TABLE plaudit.exports IS 'Export jobs: an organization''s reviews as a CSV or JSON file, generated inside the database in chunks.';

CREATE FUNCTION plaudit.export_download_url(e plaudit.exports) RETURNS text
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select coalesce(e.public_url, '') || '/api/v1/organizations/' || e.org_id || '/exports/' || e.id || '/download'
$$;

COMMENT ON FUNCTION plaudit.export_download_url(e plaudit.exports) IS 'The absolute download URL of an export''s file.';

CREATE FUNCTION plaudit.export_page(p_org_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_after_ts timestamp with time zone, p_after_id uuid, p_rating integer, p_form_id uuid, p_with_hidden boolean, p_rows integer) RETURNS SETOF plaudit.reviews
    LANGUAGE sql STABLE
    AS $$
  select r.*
    from plaudit.reviews r
   where r.org_id = p_org_id
     and r.created_at >= p_from and r.created_at < p_to
     and (r.created_at, r.id) > (p_after_ts, p_after_id)
     and (p_rating is null or r.rating = p_rating)
     and (p_form_id is null or r.form_id = p_form_id)
     and (p_with_hidden or not r.is_hidden)
   order by r.created_at, r.id
   limit p_rows
$$;

COMMENT ON FUNCTION plaudit.export_page(p_org_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_after_ts timestamp with time zone, p_after_id uuid, p_rating integer, p_form_id uuid, p_with_hidden boolean, p_rows integer) IS 'The next reviews an export writes.';

CREATE FUNCTION plaudit.export_step(p_export_id uuid, p_rows integer DEFAULT 10000) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  e plaudit.exports;
  f jsonb;
  -- Filters and cursor as plain values, so the page query is one index range scan over
  -- (org_id, created_at, id): no OR, no jsonb per row.
  from_ts timestamptz;
  to_ts timestamptz;
  want_rating integer;
  want_form uuid;
  with_hidden boolean;
  after_ts timestamptz;
  after_id uuid;
  n integer;
  bytes integer;
  last_ts timestamptz;
  last_id uuid;
  edge text;
  done boolean;
  keys text[];
  -- The wall clock, not now(): a worker's transaction runs steps for seconds, and a job's
  -- start and completion are when they happened within it.
  began timestamptz := clock_timestamp();
  ended timestamptz;
begin
  select * into e from plaudit.exports where id = p_export_id;
  f := e.filters;
  from_ts := coalesce((f ->> 'startDate')::date::timestamp at time zone 'UTC', '-infinity');
  to_ts := coalesce(((f ->> 'endDate')::date + 1)::timestamp at time zone 'UTC', 'infinity');
  want_rating := (f ->> 'rating')::integer;
  want_form := (f ->> 'form_id')::uuid;
  with_hidden := coalesce((f ->> 'include_hidden')::boolean, false);
  after_ts := coalesce(e.cursor_created_at, '-infinity');
  after_id := coalesce(e.cursor_id, '00000000-0000-0000-0000-000000000000');

  if e.chunk_count = 0 then
    e.custom_field_keys := plaudit.export_custom_field_keys(e.org_id, want_form);
    update plaudit.exports set custom_field_keys = e.custom_field_keys where id = e.id;
    edge := case e.format when 'csv' then plaudit.export_csv_header(e.custom_field_keys) || E'\r\n' else '[' end;
    insert into plaudit.export_chunks (export_id, seq, org_id, body) values (e.id, 0, e.org_id, edge);
    e.chunk_count := 1;
    e.byte_size := octet_length(edge);
  end if;
  keys := e.custom_field_keys;

  -- The aggregates take their rows in the subquery's order (a Limit over an ordered index scan
  -- feeds the Aggregate directly; an ORDER BY inside string_agg would sort the rendered text
  -- again and halve the speed). The export tests compare the whole file with COPY … ORDER BY.
  if e.format = 'csv' then
    insert into plaudit.export_chunks (export_id, seq, org_id, body, row_count, last_created_at, last_review_id)
    select e.id, e.chunk_count, e.org_id,
           string_agg(
             p.id::text || ',' || p.rating::text || ',' || plaudit.csv_cell(p.title) || ','
             || plaudit.csv_cell(p.content) || ',' || plaudit.csv_cell(p.reviewer_name) || ','
             || plaudit.csv_cell(p.reviewer_email) || ',' || p.verification_status || ','
             || p.is_hidden::text || ',' || to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
             || ',' || p.form_id::text
             -- The product's cells go through csv_cell like the review's: a name is text, never a formula.
             || ',' || plaudit.csv_cell(x.external_id) || ',' || plaudit.csv_cell(x.name)
             || ',' || p.source
             -- Its photos and videos, hidden ones too (the file is the organization's), by index.
             || ',' || plaudit.csv_cell((select string_agg(m.url, ' ' order by m.position)
                                           from plaudit.review_media m where m.review_id = p.id))
             -- One cell per custom field of the form; nothing at all for an organization without.
             || case when keys = '{}' then '' else plaudit.export_csv_custom_cells(p.custom_fields, keys) end
             || E'\r\n', ''),
           count(*)::integer, max(p.created_at), (array_agg(p.id))[count(*)::integer]
      from plaudit.export_page(e.org_id, from_ts, to_ts, after_ts, after_id, want_rating, want_form,
                               with_hidden, p_rows) p
      -- The product looked up per review in the page's order, as the JSON branch looks up replies.
      left join lateral (select pr.external_id, pr.name from plaudit.products pr where pr.id = p.product_id offset 0) x
        on true
    having count(*) > 0
    returning row_count, last_created_at, last_review_id, octet_length(body)
      into n, last_ts, last_id, bytes;
  else
    insert into plaudit.export_chunks (export_id, seq, org_id, body, row_count, last_created_at, last_review_id)
    select e.id, e.chunk_count, e.org_id,
           -- Array elements are separated by commas, across chunks too. Each is the organization's
           -- Review as every route answers it (plaudit.review_json), with its reply.
           case when e.row_count > 0 then ',' else '' end || string_agg(plaudit.review_json(p, x.reply), ','),
           count(*)::integer, max(p.created_at), (array_agg(p.id))[count(*)::integer]
      from plaudit.export_page(e.org_id, from_ts, to_ts, after_ts, after_id, want_rating, want_form,
                               with_hidden, p_rows) p
      -- The reply as a row of its own, looked up per review in the page's order (a parameterized
      -- scan, kept apart by OFFSET 0 so that no join reorders the page). Handed to review_json as a
      -- subquery instead, it stopped the function being inlined: twice the time per row.
      left join lateral (select rr as reply from plaudit.review_replies rr where rr.review_id = p.id offset 0) x
        on true
    having count(*) > 0
    returning row_count, last_created_at, last_review_id, octet_length(body)
      into n, last_ts, last_id, bytes;
  end if;

  n := coalesce(n, 0);
  if n > 0 then
    e.chunk_count := e.chunk_count + 1;
    e.byte_size := e.byte_size + bytes;
  end if;
  done := n < p_rows;
  if done and e.format = 'json' then
    edge := ']';
    insert into plaudit.export_chunks (export_id, seq, org_id, body) values (e.id, e.chunk_count, e.org_id, edge);
    e.chunk_count := e.chunk_count + 1;
    e.byte_size := e.byte_size + octet_length(edge);
  end if;

  ended := clock_timestamp();
  update plaudit.exports
  set status = case when done then 'completed' else 'processing' end,
      started_at = coalesce(started_at, began),
      row_count = row_count + n,
      chunk_count = e.chunk_count,
      byte_size = e.byte_size,
      cursor_created_at = coalesce(last_ts, cursor_created_at),
      cursor_id = coalesce(last_id, cursor_id),
      completed_at = case when done then ended end,
      expires_at = case when done then ended + interval '7 days' end
  where id = e.id
  returning * into e;

  if done then
    perform plaudit.emit_event(e.org_id, 'export.completed', jsonb_build_object(
      'id', e.id, 'format', e.format, 'status', e.status, 'filters', e.filters,
      'row_count', e.row_count, 'created_at', plaudit.iso_utc(e.created_at),
      'completed_at', plaudit.iso_utc(e.completed_at), 'expires_at', plaudit.iso_utc(e.expires_at),
      'download_url', plaudit.export_download_url(e)));
  end if;
  return done;
end
$$;

COMMENT ON FUNCTION plaudit.export_step(p_export_id uuid, p_rows integer) IS 'Renders the next chunk of one export and answers true when the file is complete.';

CREATE FUNCTION plaudit.exports_note_chain_head() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  select h.last_seq, h.last_hash into new.moderation_chain_entries, new.moderation_chain_head
    from plaudit.moderation_chain_heads h where h.org_id = new.org_id;
  new.moderation_chain_entries := coalesce(new.moderation_chain_entries, 0);
  return new;
end
$$;

COMMENT ON FUNCTION plaudit.exports_note_chain_head() IS 'Every export records the moderation chain head as it stood when the export was requested.';

CREATE FUNCTION plaudit.fan_out_event() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  insert into plaudit.webhook_deliveries (org_id, endpoint_id, event_id, event_type, payload)
  select new.org_id, w.id, new.id, new.type, plaudit.webhook_payload(new.type, new.created_at, new.data)
  from plaudit.webhook_endpoints w
  where w.org_id = new.org_id and w.enabled
    and (new.type = any (w.events) or '*' = any (w.events));
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.fan_out_event() IS 'Every new event gets a delivery for each enabled endpoint of its organization subscribed to its type.';

CREATE FUNCTION plaudit.google_product_feed_page(p_slug text, p_product_page text, p_after_product uuid, p_after_created_at text, p_after_id uuid, p_limit integer) RETURNS TABLE(xml text, reviews integer, last_product uuid, last_created_at text, last_id uuid)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  org uuid;
begin
  select o.id into org
    from plaudit.organizations o left join plaudit.public_profiles p on p.org_id = o.id
   where o.slug = p_slug and coalesce(p.enabled, true) and coalesce(p.google_product_feed, false);
  if org is null then
    return;
  end if;
  return query
  with page as materialized (
    -- The first page starts below every key (no uuid is all zeros): one plan for every page.
    select r.id, r.product_id, r.created_at, r.rating, r.verification_status, r.verification_method,
           plaudit.review_is_incentivized(r) as incentivized,
           plaudit.xml_text(r.reviewer_name) as reviewer_name, plaudit.xml_text(r.title) as title,
           plaudit.xml_text(r.content) as content,
           -- The reviewer's photos the public may see (videos have no place in the feed).
           (select '<reviewer_images>' || string_agg('<reviewer_image><url>' || plaudit.xml_text(m.url)
                                                     || '</url></reviewer_image>', '' order by m.position)
                   || '</reviewer_images>'
              from plaudit.review_media m
             where m.review_id = r.id and m.type = 'image' and not m.is_hidden) as images
      from plaudit.reviews r
     where r.org_id = org and r.product_id is not null
       and (r.product_id, r.created_at, r.id) >
           (coalesce(p_after_product, '00000000-0000-0000-0000-000000000000'),
            coalesce(p_after_created_at::timestamptz, '-infinity'),
            coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'))
       and not r.is_hidden and r.verification_status in ('verified', 'unverified')
     order by r.product_id, r.created_at, r.id
     limit least(greatest(p_limit, 1), 5000)
  ), product as materialized (
    select pr.id, pg.url as page,
           '<products><product>'
           || coalesce('<product_ids>' || nullif(
                   coalesce('<gtins><gtin>' || pr.gtin || '</gtin></gtins>', '')
                || coalesce('<mpns>' || nullif(plaudit.xml_element_or_nothing('mpn', plaudit.xml_text(pr.mpn)), '')
                            || '</mpns>', '')
                || coalesce('<skus>' || nullif(plaudit.xml_element_or_nothing('sku', plaudit.xml_text(pr.sku)), '')
                            || '</skus>', '')
                || coalesce('<brands>' || nullif(plaudit.xml_element_or_nothing('brand', plaudit.xml_text(pr.brand)), '')
                            || '</brands>', ''),
                '') || '</product_ids>', '')
           || plaudit.xml_element_or_nothing('product_name', plaudit.xml_text(pr.name))
           || '<product_url>' || coalesce(plaudit.xml_text(pr.url), pg.url) || '</product_url>'
           || '</product></products>' as products
      from plaudit.products pr
     cross join lateral (select plaudit.xml_text(p_product_page || plaudit.uri_component(pr.external_id)) as url) pg
     where pr.id in (select page.product_id from page)
  )
  select string_agg(
           E'\n    <review><review_id>' || x.id::text || '</review_id>'
           || '<reviewer>' || case
                when btrim(x.reviewer_name, E' \t\n\r') = '' or x.reviewer_name = 'Anonymous'
                  then '<name is_anonymous="true">Anonymous</name>'
                else '<name>' || x.reviewer_name || '</name>' end || '</reviewer>'
           || '<is_verified_purchase>'
           || (x.verification_status = 'verified' and x.verification_method in ('purchase_proof', 'invitation'))::text
           || '</is_verified_purchase>'
           || '<is_incentivized_review>' || x.incentivized::text || '</is_incentivized_review>'
           || '<review_timestamp>' || to_char(x.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
           || '</review_timestamp>'
           || plaudit.xml_element_or_nothing('title', x.title)
           || coalesce(nullif(plaudit.xml_element_or_nothing('content', x.content), ''), '<content>(no text)</content>')
           || '<review_url type="singleton">' || p.page || '</review_url>'
           || coalesce(x.images, '')
           || '<ratings><overall min="1" max="5">' || x.rating::text || '</overall></ratings>'
           || p.products
           || '<is_spam>false</is_spam>'
           || '<collection_method>'
           || case when x.verification_status = 'verified' and x.verification_method = 'invitation'
                   then 'post_fulfillment' else 'unsolicited' end
           || '</collection_method></review>',
           '' order by x.product_id, x.created_at, x.id),
         count(*)::integer,
         (select l.product_id from page l order by l.product_id desc, l.created_at desc, l.id desc limit 1),
         (select to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
            from page l order by l.product_id desc, l.created_at desc, l.id desc limit 1),
         (select l.id from page l order by l.product_id desc, l.created_at desc, l.id desc limit 1)
    from page x join product p on p.id = x.product_id
  having count(*) > 0;
end
$$;

COMMENT ON FUNCTION plaudit.google_product_feed_page(p_slug text, p_product_page text, p_after_product uuid, p_after_created_at text, p_after_id uuid, p_limit integer) IS 'A page of a slug''s Google Product Ratings feed after a cursor: its <review> elements, and the next cursor.';

CREATE FUNCTION plaudit.google_product_feed_state(p_slug text) RETURNS json
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select case when not (coalesce(p.enabled, true) and coalesce(p.google_product_feed, false))
    then json_build_object('published', false, 'org_id', o.id)
    else json_build_object(
      'published', true,
      'org_id', o.id,
      'name', coalesce(nullif(btrim(p.display_name), ''), o.name),
      'version', concat_ws('.', s.version, (extract(epoch from o.updated_at) * 1000000)::bigint,
                           (extract(epoch from p.updated_at) * 1000000)::bigint,
                           coalesce((extract(epoch from pr.updated_at) * 1000000)::bigint, 0)),
      'last_modified', to_char(greatest(o.updated_at, p.updated_at, s.updated_at, pr.updated_at) at time zone 'UTC',
                               'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
  end
  from plaudit.organizations o
  left join plaudit.public_profiles p on p.org_id = o.id
  cross join lateral (
    select coalesce(sum(st.version), 0) as version, max(st.updated_at) as updated_at
    from plaudit.review_statistics st where st.org_id = o.id
  ) s
  cross join lateral (select max(x.updated_at) as updated_at from plaudit.products x where x.org_id = o.id) pr
  where o.slug = p_slug
$$;

COMMENT ON FUNCTION plaudit.google_product_feed_state(p_slug text) IS 'Whether a slug''s Google Product Ratings feed is published, with the business''s name, the feed''s version and when it last changed.';

CREATE FUNCTION plaudit.gtin_is_valid(p_gtin text) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
  select case
    when p_gtin !~ '^([0-9]{8}|[0-9]{12,14})$' then false
    else (select sum(substr(p_gtin, length(p_gtin) + 1 - i, 1)::integer * case when i % 2 = 0 then 3 else 1 end)
            from generate_series(1, length(p_gtin)) i) % 10 = 0
  end
$_$;

COMMENT ON FUNCTION plaudit.gtin_is_valid(p_gtin text) IS 'True when the text is a GTIN of 8, 12, 13 or 14 digits whose check digit is right.';

CREATE FUNCTION plaudit.hit_rate_limit(p_bucket text, p_limit integer, OUT allowed boolean, OUT remaining integer, OUT reset_at bigint) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'auto'
    AS $$
declare
  this_window timestamptz := date_trunc('minute', now());
  new_hits integer;
begin
  insert into plaudit.rate_limit_counters as c (bucket, window_start)
  values (p_bucket, this_window)
  on conflict (bucket, window_start) do update set hits = c.hits + 1
  returning c.hits into new_hits;
  allowed := new_hits <= p_limit;
  remaining := greatest(p_limit - new_hits, 0);
  reset_at := extract(epoch from this_window + interval '1 minute')::bigint;
end
$$;

COMMENT ON FUNCTION plaudit.hit_rate_limit(p_bucket text, p_limit integer, OUT allowed boolean, OUT remaining integer, OUT reset_at bigint) IS 'Counts one hit in a bucket''s current one-minute window and answers whether it is within the limit, what remains and when it resets.';

CREATE FUNCTION plaudit.import_batch(p_import plaudit.imports, p_limit integer) RETURNS integer
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  taken integer;
  fresh integer;
  form uuid;
begin
  if p_import.dry_run then
    -- The whole file at once: a key met in an earlier batch would otherwise count as new twice.
    with batch as (
      delete from plaudit.import_rows s where s.import_id = p_import.id returning s.row_number, s.data
    ), keyed as (
      select distinct plaudit.import_key(p_import.format, b.data) as key from batch b
    )
    select (select count(*) from batch)::integer,
           (select count(*) from keyed k
             where not exists (select from plaudit.reviews v
                                where v.org_id = p_import.org_id and v.import_key = k.key))::integer
      into taken, fresh;
  else
    form := plaudit.import_form(p_import.org_id);
    with batch as (
      delete from plaudit.import_rows s
       where s.import_id = p_import.id
         and s.row_number in (select x.row_number from plaudit.import_rows x where x.import_id = p_import.id
                               order by x.row_number limit p_limit)
      returning s.row_number, s.data
    ), firsts as (
      select distinct on (k.key) k.row_number, k.data, k.key
        from (select b.row_number, b.data, plaudit.import_key(p_import.format, b.data) as key from batch b) k
       order by k.key, k.row_number
    ), new_products as (
      insert into plaudit.products (org_id, external_id, name)
      select distinct on (f.data ->> 'product_external_id') p_import.org_id, f.data ->> 'product_external_id',
             coalesce(f.data ->> 'product_name', f.data ->> 'product_external_id')
        from firsts f where f.data ->> 'product_external_id' is not null
       order by f.data ->> 'product_external_id', f.row_number
      on conflict (org_id, external_id) do nothing
      returning id, external_id
    ), named_products as (
      select n.id, n.external_id from new_products n
      union all
      select p.id, p.external_id from plaudit.products p
       where p.org_id = p_import.org_id
         and p.external_id in (select f.data ->> 'product_external_id' from firsts f)
    ), inserted as (
      insert into plaudit.reviews (org_id, form_id, product_id, rating, title, content, reviewer_name, reviewer_email,
                                   custom_fields, verification_status, is_hidden, created_at, source, source_platform,
                                   imported_as_verified, import_key)
      select p_import.org_id, form, np.id, (f.data ->> 'rating')::integer, f.data ->> 'title', f.data ->> 'content',
             f.data ->> 'reviewer_name', f.data ->> 'reviewer_email', '{}', 'unverified',
             not (f.data ->> 'published')::boolean, (f.data ->> 'created_at')::timestamptz, 'import', p_import.format,
             coalesce((f.data ->> 'imported_as_verified')::boolean, false), f.key
        from firsts f
        left join named_products np on np.external_id = f.data ->> 'product_external_id'
       order by f.row_number
      on conflict (org_id, import_key) where import_key is not null do nothing
      returning id, import_key
    ), replies as (
      insert into plaudit.review_replies (review_id, org_id, content, created_at, updated_at, imported)
      select i.id, p_import.org_id, f.data ->> 'reply', (f.data ->> 'replied_at')::timestamptz,
             (f.data ->> 'replied_at')::timestamptz, true
        from inserted i join firsts f on f.key = i.import_key
       where f.data ->> 'reply' is not null
      returning 1
    )
    -- (replies runs with the statement, as every data-modifying part does.)
    select (select count(*) from batch)::integer, (select count(*) from inserted)::integer into taken, fresh;
  end if;
  update plaudit.imports set imported = imported + fresh, duplicates = duplicates + taken - fresh
   where id = p_import.id;
  -- One purge for the batch: the reviews' own trigger leaves imported ones to this.
  if fresh > 0 and not p_import.dry_run then
    perform plaudit.request_cdn_purge(p_import.org_id);
  end if;
  return taken;
end
$$;

COMMENT ON FUNCTION plaudit.import_batch(p_import plaudit.imports, p_limit integer) IS 'Applies (or, for a dry run, counts) up to p_limit staged rows of an import; answers how many it took.';

CREATE FUNCTION plaudit.import_form(p_org_id uuid) RETURNS uuid
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  form uuid;
begin
  perform pg_advisory_xact_lock(hashtextextended('plaudit.import_form:' || p_org_id::text, 0));
  select f.id into form from plaudit.review_forms f
   where f.org_id = p_org_id and f.name = 'Imported reviews' and not f.is_active and f.deleted_at is null
   order by f.created_at limit 1;
  if form is null then
    insert into plaudit.review_forms (org_id, name, is_active) values (p_org_id, 'Imported reviews', false)
    returning id into form;
  end if;
  return form;
end
$$;

COMMENT ON FUNCTION plaudit.import_form(p_org_id uuid) IS 'The inactive form "Imported reviews" of an organization, made on its first import.';

CREATE FUNCTION plaudit.import_json(p_import plaudit.imports) RETURNS json
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select json_build_object(
    'id', p_import.id, 'format', p_import.format, 'dry_run', p_import.dry_run, 'status', p_import.status,
    'total_rows', p_import.total_rows, 'imported', p_import.imported, 'duplicates', p_import.duplicates,
    'rejected', p_import.rejected, 'created_at', plaudit.iso_utc(p_import.created_at),
    'completed_at', plaudit.iso_utc(p_import.completed_at))
$$;

COMMENT ON FUNCTION plaudit.import_json(p_import plaudit.imports) IS 'An import job as the API answers it and import.completed carries it.';

CREATE FUNCTION plaudit.import_key(p_format text, p_row jsonb) RETURNS bytea
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select sha256(convert_to(p_format || ':' || coalesce('id:' || (p_row ->> 'source_id'),
    jsonb_build_array(p_row ->> 'created_at', lower(p_row ->> 'reviewer_email'), p_row ->> 'reviewer_name',
                      p_row ->> 'rating', p_row ->> 'title', p_row ->> 'content',
                      p_row ->> 'product_external_id')::text), 'UTF8'))
$$;

COMMENT ON FUNCTION plaudit.import_key(p_format text, p_row jsonb) IS 'The key of an imported review: its platform and its own id there, or what its row says.';

CREATE FUNCTION plaudit.invitation_for_token(p_token text) RETURNS TABLE(state text, email text, role text, org_name text, expires_at timestamp with time zone)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select coalesce(
           case when i.id is null then 'invalid'
                when i.accepted_at is not null then 'accepted'
                when i.revoked_at is not null then 'revoked'
                when i.expires_at <= now() then 'expired'
                else 'pending' end, 'invalid'),
         i.email, i.role, o.name, i.expires_at
  from (select 1) one
  left join plaudit.invitations i on i.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
  left join plaudit.organizations o on o.id = i.org_id
$$;

COMMENT ON FUNCTION plaudit.invitation_for_token(p_token text) IS 'The accept page: the invitation a token stands for, and its state (pending | accepted | expired | revoked | invalid).';

CREATE FUNCTION plaudit.invitations_cancel_queued_email() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  update plaudit.email_outbox e
    set status = 'failed', last_error = 'cancelled: the invitation was withdrawn', locked_until = null
    where e.org_id = new.org_id and e.status = 'queued' and e.template = 'team_invitation'
      and e.data ->> 'invitation_id' = new.id::text;
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.invitations_cancel_queued_email() IS 'Withdrawing an invitation withdraws its e-mail while that still waits in the outbox.';

CREATE FUNCTION plaudit.iso_utc(t timestamp with time zone) RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

COMMENT ON FUNCTION plaudit.iso_utc(t timestamp with time zone) IS 'A timestamp as ISO 8601 UTC with milliseconds and Z, as the API writes timestamps.';

CREATE FUNCTION plaudit.issue_api_key(p_org_id uuid, p_name text, p_scope text, p_rate_limit_per_minute integer DEFAULT NULL::integer) RETURNS TABLE(id uuid, org_id uuid, name text, scope text, prefix text, key text, rate_limit_per_minute integer, created_at timestamp with time zone)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  body text := plaudit.random_base62(32);
  full_key text := 'rk_' || body || plaudit.api_key_checksum(body);
begin
  return query
    insert into plaudit.api_keys as k (org_id, name, scope, prefix, key_hash, rate_limit_per_minute)
    values (p_org_id, p_name, p_scope, 'rk_' || left(body, 8),
            sha256(convert_to(full_key, 'UTF8')), p_rate_limit_per_minute)
    returning k.id, k.org_id, k.name, k.scope, k.prefix, full_key, k.rate_limit_per_minute,
              k.created_at;
end
$$;

COMMENT ON FUNCTION plaudit.issue_api_key(p_org_id uuid, p_name text, p_scope text, p_rate_limit_per_minute integer) IS 'Creates an API key and answers its plaintext, once: only its SHA-256 is stored.';

CREATE FUNCTION plaudit.issue_media_upload_token(p_review_id uuid, p_token_hash bytea) RETURNS timestamp with time zone
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  insert into plaudit.media_upload_tokens (review_id, org_id, token_hash, expires_at)
  select r.id, r.org_id, p_token_hash, now() + interval '24 hours'
    from plaudit.reviews r
   where r.id = p_review_id and r.created_at = now()
  on conflict (review_id) do nothing
  returning expires_at
$$;

COMMENT ON FUNCTION plaudit.issue_media_upload_token(p_review_id uuid, p_token_hash bytea) IS 'Issues the upload token of a review created in this transaction, once; answers its expiry.';

CREATE FUNCTION plaudit.json_without_address(p_value jsonb, p_email text) RETURNS jsonb
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select case when strpos(lower(p_value::text), lower(p_email)) = 0 then p_value
    else regexp_replace(p_value::text, regexp_replace(p_email, '([^A-Za-z0-9@])', '\\\1', 'g'), '[removed]', 'gi')::jsonb
  end
$$;

COMMENT ON FUNCTION plaudit.json_without_address(p_value jsonb, p_email text) IS 'A JSON value with every occurrence of an address (any case) replaced by [removed].';

CREATE FUNCTION plaudit.keep_an_owner() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  if old.role <> 'owner' or (tg_op = 'UPDATE' and new.role = 'owner') then
    return coalesce(new, old);
  end if;
  if not exists (select from plaudit.organizations o where o.id = old.org_id) then
    return old;
  end if;
  perform 1 from plaudit.members m where m.org_id = old.org_id and m.role = 'owner' and m.id <> old.id for update;
  if not exists (select from plaudit.members m where m.org_id = old.org_id and m.role = 'owner' and m.id <> old.id) then
    raise exception 'An organization keeps at least one owner: make another member owner first'
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  return coalesce(new, old);
end
$$;

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

CREATE FUNCTION plaudit.live_session(p_token_hash bytea) RETURNS SETOF plaudit.sessions
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'auto'
    AS $$
  select * from plaudit.sessions s
   where s.token_hash = p_token_hash and s.ended_at is null and s.expires_at > now()
     and s.last_seen_at > now() - plaudit.session_idle_timeout()
$$;

COMMENT ON FUNCTION plaudit.live_session(p_token_hash bytea) IS 'The live session a token hash stands for (none when unknown, ended, idle too long or past its absolute expiry).';

CREATE FUNCTION plaudit.moderate_review(p_review_id uuid, p_action text, p_reason text, p_actor text) RETURNS SETOF plaudit.reviews
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  hide boolean := p_action = 'hide';
  changed plaudit.reviews;
begin
  if p_action is null or p_action not in ('hide', 'unhide') then
    raise exception 'action: must be hide or unhide' using errcode = 'invalid_parameter_value';
  end if;
  perform set_config('plaudit.actor', coalesce(p_actor, ''), true);
  perform set_config('plaudit.moderation_reason', coalesce(p_reason, ''), true);
  update plaudit.reviews r set is_hidden = hide
    where r.id = p_review_id and r.is_hidden = not hide
    returning r.* into changed;
  perform set_config('plaudit.moderation_reason', '', true);
  perform set_config('plaudit.actor', '', true);
  if changed.id is null then
    if exists (select from plaudit.reviews r where r.id = p_review_id) then
      raise exception '%', case when hide then 'Review is already hidden' else 'Review is not hidden' end
        using errcode = 'object_not_in_prerequisite_state';
    end if;
    raise exception 'Review not found' using errcode = 'no_data_found';
  end if;
  return next changed;
end
$$;

COMMENT ON FUNCTION plaudit.moderate_review(p_review_id uuid, p_action text, p_reason text, p_actor text) IS 'Hides or unhides a review of the caller''s tenant on behalf of `p_actor`, with a reason for the trail.';

CREATE FUNCTION plaudit.moderate_review_media(p_review_id uuid, p_media_id uuid, p_action text, p_reason text, p_actor text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  tenant uuid := plaudit.current_org_id();
  hide boolean := p_action = 'hide';
  item plaudit.review_media;
  reviewed plaudit.reviews;
begin
  if p_action is null or p_action not in ('hide', 'unhide') then
    raise exception 'action: must be hide or unhide' using errcode = 'invalid_parameter_value';
  end if;
  select * into item from plaudit.review_media m
   where m.id = p_media_id and m.review_id = p_review_id and m.org_id = tenant
     for update;
  if item.id is null then
    raise exception 'Media not found' using errcode = 'no_data_found';
  end if;
  if item.is_hidden = hide then
    raise exception '%', case when hide then 'Media is already hidden' else 'Media is not hidden' end
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  update plaudit.review_media m set is_hidden = hide, hidden_reason = case when hide then p_reason end
   where m.id = item.id;
  perform plaudit.append_moderation_entry(tenant, p_review_id, case when hide then 'hide_media' else 'unhide_media' end,
                                          'media ' || item.id::text || ': ' || p_reason, p_actor);
  select * into reviewed from plaudit.reviews r where r.id = p_review_id;
  perform plaudit.emit_event(tenant, 'review.moderated', jsonb_build_object(
    'id', reviewed.id, 'form_id', reviewed.form_id,
    'product', plaudit.review_product_json(reviewed.product_id)::jsonb,
    'action', case when hide then 'hide_media' else 'unhide_media' end,
    'is_hidden', reviewed.is_hidden,
    'media', jsonb_build_object('id', item.id, 'type', item.type, 'is_hidden', hide),
    'reason', p_reason, 'actor', p_actor,
    'moderated_at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'moderation_chain', plaudit.moderation_chain_head(tenant)));
  perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(tenant)));
end
$$;

COMMENT ON FUNCTION plaudit.moderate_review_media(p_review_id uuid, p_media_id uuid, p_action text, p_reason text, p_actor text) IS 'Hides or shows a photo or video of a review of the caller''s tenant, with its trail entry and review.moderated.';

CREATE FUNCTION plaudit.moderation_chain_head(p_org_id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select jsonb_build_object('entries', coalesce(h.last_seq, 0), 'head', encode(h.last_hash, 'hex'))
    from (select 1) one
    left join plaudit.moderation_chain_heads h on h.org_id = p_org_id
$$;

COMMENT ON FUNCTION plaudit.moderation_chain_head(p_org_id uuid) IS 'An organization''s moderation chain head as JSON: its number of entries and the hex of the last entry''s hash.';

CREATE FUNCTION plaudit.moderation_chain_heads_guard() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  if tg_op = 'UPDATE' and new.org_id = old.org_id and new.last_seq = old.last_seq + 1 then
    return new;
  end if;
  raise exception 'a moderation chain head only moves forward, one entry at a time'
    using errcode = 'restrict_violation';
end
$$;

COMMENT ON FUNCTION plaudit.moderation_chain_heads_guard() IS 'A moderation chain head only moves forward, one entry at a time, and is never deleted.';

CREATE FUNCTION plaudit.moderation_chain_status(p_entries bigint DEFAULT NULL::bigint, p_head text DEFAULT NULL::text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
declare
  tenant uuid := plaudit.current_org_id();
  chain record;
  head jsonb;
  kept_hash bytea;
  earlier jsonb := null;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;
  select * into chain from plaudit.verify_moderation_chain(tenant);
  head := plaudit.moderation_chain_head(tenant);
  if p_entries is not null then
    if p_head is null or p_head !~ '^[0-9a-f]{64}$' then
      raise exception 'head: must be the 64 hexadecimal characters of a chain head' using errcode = 'invalid_parameter_value';
    end if;
    select t.hash into kept_hash from plaudit.moderation_trail t where t.org_id = tenant and t.seq = p_entries;
    earlier := jsonb_build_object(
      'entries', p_entries, 'head', p_head,
      'matches', kept_hash is not null and kept_hash = decode(p_head, 'hex'),
      'problem', case
        when p_entries > (head ->> 'entries')::bigint then
          format('the chain holds %s entries, fewer than the %s of the earlier head: entries were removed', head ->> 'entries', p_entries)
        when kept_hash is null then format('entry %s is missing', p_entries)
        when kept_hash <> decode(p_head, 'hex') then
          format('entry %s no longer has the earlier head''s hash: the trail up to it was rewritten', p_entries)
      end);
  end if;
  return head || jsonb_build_object(
    'valid', chain.valid and coalesce((earlier ->> 'matches')::boolean, true),
    'problem', coalesce(chain.problem, earlier ->> 'problem'),
    'earlier_head', earlier);
end
$_$;

COMMENT ON FUNCTION plaudit.moderation_chain_status(p_entries bigint, p_head text) IS 'The transaction''s tenant''s moderation chain: its head, whether it verifies, and whether it still holds a head kept earlier.';

CREATE FUNCTION plaudit.moderation_entry_hash(p_previous_hash bytea, p_org_id uuid, p_seq bigint, p_review_id uuid, p_action text, p_reason text, p_actor text, p_created_at timestamp with time zone) RETURNS bytea
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select sha256(convert_to(jsonb_build_array(
    'plaudit.moderation.v1', p_org_id::text, p_seq, p_review_id::text, p_action, p_reason, p_actor,
    to_char(p_created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    encode(p_previous_hash, 'hex'))::text, 'UTF8'))
$$;

COMMENT ON FUNCTION plaudit.moderation_entry_hash(p_previous_hash bytea, p_org_id uuid, p_seq bigint, p_review_id uuid, p_action text, p_reason text, p_actor text, p_created_at timestamp with time zone) IS 'The SHA-256 of a trail entry''s fields and the previous entry''s hash.';

CREATE FUNCTION plaudit.moderation_trail_refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  raise exception 'the moderation trail is append-only: entries cannot be changed or deleted'
    using errcode = 'restrict_violation';
end
$$;

COMMENT ON FUNCTION plaudit.moderation_trail_refuse_change() IS 'The moderation trail is append-only, for everyone: no entry is updated, deleted or truncated.';

CREATE FUNCTION plaudit.new_webhook_secret() RETURNS text
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ select 'whsec_' || encode(extensions.gen_random_bytes(32), 'base64') $$;

COMMENT ON FUNCTION plaudit.new_webhook_secret() IS 'A new webhook signing secret: `whsec_` and the base64 of 32 random bytes.';

CREATE FUNCTION plaudit.notify_export_created() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  perform pg_notify('plaudit_outbox', 'export');
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.notify_export_created() IS 'A new export job wakes the worker.';

CREATE FUNCTION plaudit.order_hash(p_org_id uuid, p_order_id text) RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ select encode(sha256(convert_to(p_org_id::text || ':' || p_order_id, 'UTF8')), 'hex') $$;

COMMENT ON FUNCTION plaudit.order_hash(p_org_id uuid, p_order_id text) IS 'The SHA-256 (hex) of the tenant and an order id: what a purchase-proof verification records.';

CREATE FUNCTION plaudit.page_meta(p_total bigint, p_page integer, p_limit integer) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
  select '{"total":' || p_total::text || ',"page":' || p_page::text || ',"limit":' || p_limit::text
    || ',"totalPages":' || ((p_total + p_limit - 1) / p_limit)::text || '}'
$$;

COMMENT ON FUNCTION plaudit.page_meta(p_total bigint, p_page integer, p_limit integer) IS 'The pagination envelope''s meta, as the API''s lists write it.';

CREATE FUNCTION plaudit.product_group_ids(p_org_id uuid, p_product_id uuid, p_group_key text) RETURNS uuid[]
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select case when p_group_key is null then array[p_product_id]
              else array(select g.id from plaudit.products g where g.org_id = p_org_id and g.group_key = p_group_key)
         end
$$;

COMMENT ON FUNCTION plaudit.product_group_ids(p_org_id uuid, p_product_id uuid, p_group_key text) IS 'The products whose reviews a product shows in public: its group''s, or itself.';

CREATE FUNCTION plaudit.product_group_statistics(p_product_ids uuid[], OUT public_count bigint, OUT rating_sum bigint, OUT rating_1 bigint, OUT rating_2 bigint, OUT rating_3 bigint, OUT rating_4 bigint, OUT rating_5 bigint) RETURNS record
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select coalesce(sum(s.public_count), 0), coalesce(sum(s.rating_sum), 0),
         coalesce(sum(s.rating_1), 0), coalesce(sum(s.rating_2), 0), coalesce(sum(s.rating_3), 0),
         coalesce(sum(s.rating_4), 0), coalesce(sum(s.rating_5), 0)
    from plaudit.product_review_statistics s where s.product_id = any (p_product_ids)
$$;

COMMENT ON FUNCTION plaudit.product_group_statistics(p_product_ids uuid[], OUT public_count bigint, OUT rating_sum bigint, OUT rating_1 bigint, OUT rating_2 bigint, OUT rating_3 bigint, OUT rating_4 bigint, OUT rating_5 bigint) IS 'The summed public review counters of the products given.';

CREATE FUNCTION plaudit.products_signal_changes() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  deltas jsonb;
begin
  -- Each operation has its own transition table: a statement reads only the one it has.
  if tg_op = 'DELETE' then
    select jsonb_agg(plaudit.public_version_delta(c.org_id)) into deltas
      from (select distinct o.org_id from old_products o) c;
  else
    select jsonb_agg(plaudit.public_version_delta(c.org_id)) into deltas
      from (select distinct n.org_id from new_products n) c;
  end if;
  if deltas is not null then
    perform plaudit.add_review_statistics(deltas);
  end if;
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.products_signal_changes() IS 'Every statement that adds, changes or deletes products moves their organizations'' public version.';

CREATE FUNCTION plaudit.prune_rate_limits() RETURNS integer
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  with gone as (
    delete from plaudit.rate_limit_counters
    where window_start < date_trunc('minute', now()) - interval '1 minute'
    returning 1
  )
  select count(*)::integer from gone
$$;

COMMENT ON FUNCTION plaudit.prune_rate_limits() IS 'Deletes the rate-limit windows no request consults any more and answers how many.';

CREATE FUNCTION plaudit.public_embed_reviews(p_slug text) RETURNS json
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select case when o.id is null then null
              when not coalesce(p.enabled, true) then '[]'::json
              else plaudit.public_review_items(plaudit.public_feed_page_ids(
                     o.id, null, plaudit.public_feed_ratings(coalesce(p.embed_min_rating, 1), null), 'newest', false,
                     0, coalesce(p.embed_max_reviews, 10)))::json
         end
    from (select 1) one
    left join plaudit.organizations o on o.slug = p_slug
    left join plaudit.public_profiles p on p.org_id = o.id
$$;

COMMENT ON FUNCTION plaudit.public_embed_reviews(p_slug text) IS 'The widget''s reviews of the business: the newest public reviews at or above its min_rating, up to its max_reviews.';

CREATE FUNCTION plaudit.public_feed_page_ids(p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_sort text, p_has_media boolean, p_offset bigint, p_limit integer) RETURNS uuid[]
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
declare
  by_rating boolean := p_sort in ('highest', 'lowest');
  ids uuid[];
begin
  execute format($q$
    select coalesce(array_agg(x.id order by %1$s), '{}') from (
      select x.id, x.rating, x.created_at, x.helpful_count
        from unnest(%2$s) s(product_id) cross join unnest(%3$s) k(rating)
        cross join lateral (
          select r.id, r.rating, r.created_at, r.helpful_count from plaudit.reviews r
           where %4$s and not r.is_hidden and r.verification_status in ('verified', 'unverified') and %5$s %6$s
           order by %8$s r.created_at %7$s, r.id %7$s
           limit $6 + $7) x
       order by %1$s
       limit $7 offset $6) x$q$,
    case p_sort when 'oldest' then 'x.created_at, x.id'
                when 'highest' then 'x.rating desc, x.created_at desc, x.id desc'
                when 'lowest' then 'x.rating, x.created_at desc, x.id desc'
                when 'helpful' then 'x.helpful_count desc, x.created_at desc, x.id desc'
                else 'x.created_at desc, x.id desc' end,
    case when p_product_ids is null then 'array[null::uuid]' else '$2' end,
    case when by_rating then '$3' else 'array[null::integer]' end,
    case when p_product_ids is null then 'r.org_id = $1 and r.product_id is null'
         else 'r.product_id is not null and r.product_id = s.product_id' end,
    case when by_rating then 'r.rating = k.rating' else 'r.rating = any ($3)' end,
    case when p_has_media then 'and plaudit.review_has_public_media(r.id)' else '' end,
    case when p_sort = 'oldest' then 'asc' else 'desc' end,
    case when p_sort = 'helpful' then 'r.helpful_count desc,' else '' end)
  into ids
  using p_org_id, p_product_ids, p_ratings, p_sort, p_has_media, p_offset, p_limit;
  return ids;
end
$_$;

COMMENT ON FUNCTION plaudit.public_feed_page_ids(p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_sort text, p_has_media boolean, p_offset bigint, p_limit integer) IS 'The ids of one page of a public feed (the business''s or products''), of some ratings, in one of its orders, each walked by an index.';

CREATE FUNCTION plaudit.public_feed_ratings(p_min integer, p_rating integer) RETURNS integer[]
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select array(select g from generate_series(greatest(p_min, 1), 5) g where p_rating is null or g = p_rating)
$$;

COMMENT ON FUNCTION plaudit.public_feed_ratings(p_min integer, p_rating integer) IS 'The ratings a public feed shows: from a minimum up, or the one asked for.';

CREATE FUNCTION plaudit.public_feed_total(p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_has_media boolean) RETURNS bigint
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select case
    when p_has_media then (
      select count(*) from plaudit.reviews r
       where r.org_id = p_org_id and not r.is_hidden and r.verification_status in ('verified', 'unverified')
         and (case when p_product_ids is null then r.product_id is null else r.product_id = any (p_product_ids) end)
         and r.rating = any (p_ratings) and plaudit.review_has_public_media(r.id))
    else (
      -- The business's counters, or the products': whichever source the feed is of.
      select coalesce(sum(case when 1 = any (p_ratings) then s.rating_1 else 0 end
                          + case when 2 = any (p_ratings) then s.rating_2 else 0 end
                          + case when 3 = any (p_ratings) then s.rating_3 else 0 end
                          + case when 4 = any (p_ratings) then s.rating_4 else 0 end
                          + case when 5 = any (p_ratings) then s.rating_5 else 0 end), 0)
        from (select b.rating_1, b.rating_2, b.rating_3, b.rating_4, b.rating_5
                from plaudit.review_statistics b
               where p_product_ids is null and b.org_id = p_org_id
              union all
              select p.rating_1, p.rating_2, p.rating_3, p.rating_4, p.rating_5
                from plaudit.product_review_statistics p
               where p.product_id = any (p_product_ids)) s)
  end::bigint
$$;

COMMENT ON FUNCTION plaudit.public_feed_total(p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_has_media boolean) IS 'How many reviews a public feed holds, from the business''s or the products'' counters.';

CREATE FUNCTION plaudit.public_form_product(p_form_id uuid, p_external_id text) RETURNS TABLE(external_id text, name text, image_url text, archived boolean)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select p.external_id, p.name, p.image_url, p.archived
    from plaudit.review_forms f
    join plaudit.products p on p.org_id = f.org_id and p.external_id = p_external_id
   where f.id = p_form_id and f.deleted_at is null and f.is_active
$$;

COMMENT ON FUNCTION plaudit.public_form_product(p_form_id uuid, p_external_id text) IS 'The product of a hosted form''s organization with this external id (archived or not), while the form takes reviews.';

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

CREATE FUNCTION plaudit.public_listed_products(p_org_id uuid) RETURNS SETOF plaudit.products
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select p.* from plaudit.products p
   where p.org_id = p_org_id
     and (not p.archived or exists (select from plaudit.product_review_statistics s
                                     where s.product_id = p.id and s.public_count > 0))
$$;

COMMENT ON FUNCTION plaudit.public_listed_products(p_org_id uuid) IS 'The products public pages list: those not archived, and archived ones with public reviews of their own.';

CREATE FUNCTION plaudit.public_media_file(p_storage_key text) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select case when m.storage_key = p_storage_key then m.content_type else 'image/jpeg' end
    from plaudit.review_media m
    join plaudit.public_reviews pr on pr.id = m.review_id
    left join plaudit.public_profiles p on p.org_id = m.org_id
   where (m.storage_key = p_storage_key or m.thumbnail_key = p_storage_key)
     and not m.is_hidden and coalesce(p.enabled, true)
$$;

COMMENT ON FUNCTION plaudit.public_media_file(p_storage_key text) IS 'The content type of a stored media file the public may read, or null.';

CREATE FUNCTION plaudit.public_product(p_slug text, p_external_id text) RETURNS json
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select json_build_object(
    'version', plaudit.public_version(p_slug) || '~' || (x.product).id,
    'external_id', (x.product).external_id,
    'name', (x.product).name,
    'url', (x.product).url,
    'image_url', (x.product).image_url,
    'sku', (x.product).sku,
    'gtin', (x.product).gtin,
    'mpn', (x.product).mpn,
    'brand', (x.product).brand,
    'average_rating', case when st.public_count > 0 then round(st.rating_sum::numeric / st.public_count, 2) end,
    'review_count', st.public_count,
    'rating_distribution', json_build_object('1', st.rating_1, '2', st.rating_2, '3', st.rating_3,
                                             '4', st.rating_4, '5', st.rating_5))
    from plaudit.public_product_of(p_slug, p_external_id) x
    cross join lateral plaudit.product_group_statistics(x.group_ids) st
$$;

COMMENT ON FUNCTION plaudit.public_product(p_slug text, p_external_id text) IS 'A product''s public summary over its group, with its fields and the version of answers showing it; null when not found.';

CREATE FUNCTION plaudit.public_product_catalog(p_slug text, p_page integer, p_limit integer) RETURNS json
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select json_build_object(
    'version', plaudit.public_version(p_slug),
    'total', (select count(*) from plaudit.public_listed_products(o.id)),
    'items', coalesce((
      select json_agg(json_build_object(
               'external_id', l.external_id,
               'name', l.name,
               'image_url', l.image_url,
               'archived', l.archived,
               'average_rating', case when st.public_count > 0 then round(st.rating_sum::numeric / st.public_count, 2) end,
               'review_count', st.public_count) order by l.name, l.id)
        from (select * from plaudit.public_listed_products(o.id) lp
               order by lp.name, lp.id
               limit p_limit offset (p_page - 1)::bigint * p_limit) l
        cross join lateral plaudit.product_group_statistics(plaudit.product_group_ids(o.id, l.id, l.group_key)) st
    ), '[]'))
    from plaudit.organizations o
    left join plaudit.public_profiles pp on pp.org_id = o.id
   where o.slug = p_slug and coalesce(pp.enabled, true)
$$;

COMMENT ON FUNCTION plaudit.public_product_catalog(p_slug text, p_page integer, p_limit integer) IS 'A page of an enabled profile''s listed products by name, each with its public figures over its group, with the total.';

CREATE FUNCTION plaudit.public_product_of(p_slug text, p_external_id text) RETURNS TABLE(org_id uuid, product plaudit.products, group_ids uuid[])
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select o.id, p, plaudit.product_group_ids(o.id, p.id, p.group_key)
    from plaudit.organizations o
    left join plaudit.public_profiles pp on pp.org_id = o.id
    join plaudit.products p on p.org_id = o.id and p.external_id = p_external_id
   where o.slug = p_slug and coalesce(pp.enabled, true)
$$;

COMMENT ON FUNCTION plaudit.public_product_of(p_slug text, p_external_id text) IS 'A product of an enabled public profile by slug and external id, with the ids of its group.';

CREATE FUNCTION plaudit.public_product_ratings(p_slug text, p_external_ids text[]) RETURNS TABLE(version text, body text)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  return query
  select plaudit.public_version(p_slug),
         '{"data":' || coalesce((
           with asked as (
             select e.external_id, min(e.ord) as ord
               from unnest(p_external_ids) with ordinality e(external_id, ord) group by e.external_id
           ), products as (
             select a.ord, p.id, p.external_id, p.group_key
               from asked a join plaudit.products p on p.org_id = o.id and p.external_id = a.external_id
           ), members as (
             select x.ord, x.external_id, x.id as member_id from products x where x.group_key is null
             union all
             select x.ord, x.external_id, m.id
               from products x join plaudit.products m on m.org_id = o.id and m.group_key = x.group_key
              where x.group_key is not null
           ), figures as (
             select m.ord, m.external_id, coalesce(sum(s.public_count), 0) as public_count,
                    coalesce(sum(s.rating_sum), 0) as rating_sum
               from members m left join plaudit.product_review_statistics s on s.product_id = m.member_id
              group by m.ord, m.external_id
           )
           select json_agg(json_build_object(
                    'external_id', f.external_id,
                    'average_rating', case when f.public_count > 0 then round(f.rating_sum::numeric / f.public_count, 2) end,
                    'review_count', f.public_count) order by f.ord)
             from figures f
         )::text, '[]') || '}'
    from plaudit.organizations o
    left join plaudit.public_profiles pp on pp.org_id = o.id
   where o.slug = p_slug and coalesce(pp.enabled, true);
end
$$;

COMMENT ON FUNCTION plaudit.public_product_ratings(p_slug text, p_external_ids text[]) IS 'The public figures of the products asked for by external id, each over its group, in the order asked.';

CREATE FUNCTION plaudit.public_product_reviews(p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean) RETURNS TABLE(version text, body text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select plaudit.public_version(p_slug) || '~' || (x.product).id,
         '{"data":' || plaudit.public_review_items(plaudit.public_feed_page_ids(
           x.org_id, x.group_ids, plaudit.public_feed_ratings(1, p_rating), p_sort, p_has_media,
           (p_page - 1)::bigint * p_limit, p_limit))
         || ',"meta":' || plaudit.page_meta(
           plaudit.public_feed_total(x.org_id, x.group_ids, plaudit.public_feed_ratings(1, p_rating), p_has_media),
           p_page, p_limit) || '}'
    from plaudit.public_product_of(p_slug, p_external_id) x
$$;

COMMENT ON FUNCTION plaudit.public_product_reviews(p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean) IS 'A page of a product''s public reviews over its group, sorted and filtered, in the pagination envelope.';

CREATE FUNCTION plaudit.public_product_version(p_slug text, p_external_id text, p_profile boolean) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select case when p_profile then plaudit.public_profile_version(p_slug) else plaudit.public_version(p_slug) end
         || coalesce('~' || (select p.id::text from plaudit.organizations o
                               join plaudit.products p on p.org_id = o.id and p.external_id = p_external_id
                              where o.slug = p_slug), '')
$$;

COMMENT ON FUNCTION plaudit.public_product_version(p_slug text, p_external_id text, p_profile boolean) IS 'The version of an answer showing one product: the organization''s, and ~ the product''s id, which names its cache key.';

CREATE FUNCTION plaudit.public_profile(p_slug text) RETURNS json
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select json_build_object(
    'version', concat_ws('.', o.id, s.version, (extract(epoch from o.updated_at) * 1000000)::bigint,
                         coalesce((extract(epoch from p.updated_at) * 1000000)::bigint, 0),
                         coalesce((select h.last_seq from plaudit.moderation_chain_heads h where h.org_id = o.id), 0)),
    'enabled', coalesce(p.enabled, true),
    'slug', o.slug,
    'name', coalesce(p.display_name, o.name),
    'description', p.description,
    'website', coalesce(p.website, o.website),
    'logo_url', p.logo_url,
    'average_rating', case when s.public_count > 0 then round(s.rating_sum::numeric / s.public_count, 2) end,
    'review_count', s.public_count,
    'rating_distribution', json_build_object('1', s.rating_1, '2', s.rating_2, '3', s.rating_3,
                                             '4', s.rating_4, '5', s.rating_5),
    'embed', json_build_object(
      'layout', coalesce(p.embed_layout, 'list'), 'theme', coalesce(p.embed_theme, 'light'),
      'max_reviews', coalesce(p.embed_max_reviews, 10), 'min_rating', coalesce(p.embed_min_rating, 1)),
    'moderation_chain', plaudit.moderation_chain_head(o.id))
  from plaudit.organizations o
  left join plaudit.public_profiles p on p.org_id = o.id
  cross join lateral (
    select coalesce(sum(st.version), 0) as version, coalesce(sum(st.public_count), 0) as public_count,
           coalesce(sum(st.rating_sum), 0) as rating_sum,
           coalesce(sum(st.rating_1), 0) as rating_1, coalesce(sum(st.rating_2), 0) as rating_2,
           coalesce(sum(st.rating_3), 0) as rating_3, coalesce(sum(st.rating_4), 0) as rating_4,
           coalesce(sum(st.rating_5), 0) as rating_5
    from plaudit.review_statistics st where st.org_id = o.id
  ) s
  where o.slug = p_slug
$$;

COMMENT ON FUNCTION plaudit.public_profile(p_slug text) IS 'A slug''s public profile as JSON: its profile and embed settings, its aggregates and its moderation chain head.';

CREATE FUNCTION plaudit.public_profile_reviews(p_slug text, p_rating integer, p_page integer, p_limit integer) RETURNS json
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select json_build_object(
    'total', plaudit.public_feed_total(o.id, null, plaudit.public_feed_ratings(1, p_rating), false),
    'items', plaudit.public_review_items(plaudit.public_feed_page_ids(
      o.id, null, plaudit.public_feed_ratings(1, p_rating), 'newest', false, (p_page - 1)::bigint * p_limit, p_limit))::json)
    from plaudit.organizations o left join plaudit.public_profiles p on p.org_id = o.id
   where o.slug = p_slug and coalesce(p.enabled, true)
$$;

COMMENT ON FUNCTION plaudit.public_profile_reviews(p_slug text, p_rating integer, p_page integer, p_limit integer) IS 'A page of an enabled profile''s public reviews of the business, newest first, of one rating or all.';

CREATE FUNCTION plaudit.public_profile_version(p_slug text) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select plaudit.public_version(p_slug) || '.' ||
         coalesce((select h.last_seq from plaudit.moderation_chain_heads h
                    join plaudit.organizations o on o.id = h.org_id where o.slug = p_slug), 0)
$$;

COMMENT ON FUNCTION plaudit.public_profile_version(p_slug text) IS 'public_version with the moderation chain head''s entry count: the version of profile and embed answers, which carry the head.';

CREATE FUNCTION plaudit.public_read_product_reviews(p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean, OUT version text, OUT body text) RETURNS record
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  perform set_config('role', 'plaudit_public', true);
  select p.version, p.body into version, body from plaudit.public_product_reviews(
    p_slug, p_external_id, p_page, p_limit, p_sort, p_rating, p_has_media) p;
end
$$;

COMMENT ON FUNCTION plaudit.public_read_product_reviews(p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean, OUT version text, OUT body text) IS 'A page of a product''s public reviews as the response body, with its version, read as plaudit_public.';

CREATE FUNCTION plaudit.public_read_product_version(p_slug text, p_external_id text) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  perform set_config('role', 'plaudit_public', true);
  return plaudit.public_product_version(p_slug, p_external_id, false);
end
$$;

COMMENT ON FUNCTION plaudit.public_read_product_version(p_slug text, p_external_id text) IS 'The version of a product''s public answers, for ETags, read as plaudit_public.';

CREATE FUNCTION plaudit.public_read_review_page(p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean, OUT version text, OUT body text) RETURNS record
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  p json;
begin
  perform set_config('role', 'plaudit_public', true);
  p := plaudit.public_review_page(p_slug, p_scope, p_page, p_limit, p_sort, p_rating, p_has_media);
  version := p ->> 'version';
  if version is not null and (p_scope = 'embed' or (p ->> 'enabled')::boolean) then
    body := '{"data":' || (p -> 'items')::text || ',"meta":'
      || plaudit.page_meta((p ->> 'total')::bigint, p_page, p_limit) || '}';
  end if;
end
$$;

COMMENT ON FUNCTION plaudit.public_read_review_page(p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean, OUT version text, OUT body text) IS 'A page of public reviews, sorted and filtered, as the response body, with its version.';

CREATE FUNCTION plaudit.public_read_version(p_slug text) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  perform set_config('role', 'plaudit_public', true);
  return plaudit.public_version(p_slug);
end
$$;

COMMENT ON FUNCTION plaudit.public_read_version(p_slug text) IS 'The version of a business''s public data, for ETags, read as plaudit_public.';

CREATE FUNCTION plaudit.public_review_form(p_form_id uuid) RETURNS TABLE(id uuid, org_name text, name text, verification_mode text, custom_fields jsonb, logo_url text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select f.id, plaudit.brand_name(f.org_id), f.name, f.verification_mode, f.custom_fields, p.logo_url
  from plaudit.review_forms f left join plaudit.public_profiles p on p.org_id = f.org_id
  where f.id = p_form_id and f.deleted_at is null and f.is_active
$$;

COMMENT ON FUNCTION plaudit.public_review_form(p_form_id uuid) IS 'The hosted form of /forms/:formId, when the form is active and not deleted.';

CREATE FUNCTION plaudit.public_review_items(p_ids uuid[]) RETURNS text
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select '[' || coalesce(string_agg(x.item, ',' order by i.ord), '') || ']'
    from unnest(p_ids) with ordinality i(id, ord)
    cross join lateral (
      select plaudit.public_review_json(pr, rr, p) as item
        from plaudit.public_reviews pr
        left join plaudit.review_replies rr on rr.review_id = pr.id
        left join plaudit.products p on p.id = pr.product_id
       where pr.id = i.id
      offset 0) x
$$;

COMMENT ON FUNCTION plaudit.public_review_items(p_ids uuid[]) IS 'The public items of the reviews given, as a JSON array in the order given.';

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
    r.helpful_count
   FROM plaudit.reviews r
  WHERE ((NOT r.is_hidden) AND (r.verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])));

COMMENT ON VIEW plaudit.public_reviews IS 'The public projection of reviews: those not hidden and verified or unverified, without e-mail, custom answers or provenance.';

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

CREATE FUNCTION plaudit.public_review_json(pr plaudit.public_reviews, reply plaudit.review_replies, product plaudit.products) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
  select '{"id":"' || pr.id::text || '","rating":' || pr.rating::text
    || ',"title":' || coalesce(pg_catalog.to_json(pr.title)::text, 'null')
    || ',"content":' || pg_catalog.to_json(pr.content)::text
    || ',"reviewer_name":' || pg_catalog.to_json(pr.reviewer_name)::text
    || ',"verification_status":"' || pr.verification_status
    || '","verification_method":' || coalesce(pg_catalog.to_json(pr.verification_method)::text, 'null')
    || ',"source":"' || pr.source || '","source_platform":' || coalesce('"' || pr.source_platform || '"', 'null')
    || ',"incentivized":' || pr.incentivized::text
    || ',"product":' || case when product.id is null then 'null'
         else '{"external_id":' || pg_catalog.to_json(product.external_id)::text
              || ',"name":' || pg_catalog.to_json(product.name)::text || '}' end
    || ',"media":' || plaudit.review_media_json(pr.id, true)
    || ',"reply":' || coalesce(plaudit.reply_json(reply), 'null')
    || ',"helpful_count":' || pr.helpful_count::text
    || ',"created_at":"' || pg_catalog.to_char(pr.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '"}'
$$;

COMMENT ON FUNCTION plaudit.public_review_json(pr plaudit.public_reviews, reply plaudit.review_replies, product plaudit.products) IS 'A public review item as compact JSON: the one writer of it, for every public list.';

CREATE FUNCTION plaudit.public_review_page(p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text DEFAULT 'newest'::text, p_rating integer DEFAULT NULL::integer, p_has_media boolean DEFAULT false) RETURNS json
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  org record;
  ratings integer[];
  items text := '[]';
begin
  select o.id, o.updated_at, coalesce(p.enabled, true) as enabled,
         coalesce(p.embed_min_rating, 1) as embed_min_rating, p.updated_at as profile_updated_at
    into org
    from plaudit.organizations o left join plaudit.public_profiles p on p.org_id = o.id
    where o.slug = p_slug;
  if not found then
    return null;
  end if;
  ratings := plaudit.public_feed_ratings(case when p_scope = 'embed' then org.embed_min_rating else 1 end, p_rating);
  if p_scope = 'embed' or org.enabled then
    items := plaudit.public_review_items(plaudit.public_feed_page_ids(
      org.id, null, ratings, p_sort, p_has_media, (p_page - 1)::bigint * p_limit, p_limit));
  end if;
  return json_build_object(
    'version', concat_ws('.', org.id, (select coalesce(sum(s.version), 0) from plaudit.review_statistics s where s.org_id = org.id),
                         (extract(epoch from org.updated_at) * 1000000)::bigint,
                         coalesce((extract(epoch from org.profile_updated_at) * 1000000)::bigint, 0)),
    'enabled', org.enabled,
    'total', plaudit.public_feed_total(org.id, null, ratings, p_has_media),
    'items', items::json);
end
$$;

COMMENT ON FUNCTION plaudit.public_review_page(p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean) IS 'A page of a business''s public reviews or its widget''s, sorted and filtered, with its total.';

CREATE FUNCTION plaudit.public_sitemap(p_page integer, p_limit integer) RETURNS TABLE(slug text, catalog boolean, external_id text, updated_at timestamp with time zone, total bigint)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  with profiles as (
    select o.id, o.slug, greatest(o.updated_at, p.updated_at) as updated_at
      from plaudit.organizations o
      left join plaudit.public_profiles p on p.org_id = o.id
     where coalesce(p.enabled, true)
  ), pages as (
    select f.slug, false as catalog, null::text as external_id, f.updated_at from profiles f
    union all
    select f.slug, true, null, max(l.updated_at)
      from profiles f cross join lateral plaudit.public_listed_products(f.id) l group by f.slug
    union all
    select f.slug, false, l.external_id, l.updated_at
      from profiles f cross join lateral plaudit.public_listed_products(f.id) l
  )
  select g.slug, g.catalog, g.external_id, g.updated_at, count(*) over ()
    from pages g
   order by g.slug, g.external_id is not null, g.catalog, g.external_id
   limit p_limit offset (p_page - 1)::bigint * p_limit
$$;

COMMENT ON FUNCTION plaudit.public_sitemap(p_page integer, p_limit integer) IS 'Every public page of the enabled profiles (profile, catalog, products) by slug, a page at a time, with when each last changed.';

CREATE FUNCTION plaudit.public_transparency(p_slug text) RETURNS json
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  with org as (
    select o.id, o.slug, coalesce(p.display_name, o.name) as name, coalesce(p.enabled, true) as enabled,
           coalesce(p.embed_min_rating, 1) as widget_min_rating,
           date_trunc('month', now() at time zone 'UTC') - interval '11 months' as since
      from plaudit.organizations o
      left join plaudit.public_profiles p on p.org_id = o.id
     where o.slug = p_slug
  ), recent as (
    select count(*) as received,
           count(*) filter (where x.published) as published,
           count(*) filter (where x.published and r.verification_status = 'verified') as verified,
           count(*) filter (where x.published and r.verification_status = 'unverified') as unverified,
           count(*) filter (where x.published and r.verification_method = 'email'
                              and r.verification_status = 'verified') as by_email,
           count(*) filter (where x.published and r.verification_method = 'purchase_proof'
                              and r.verification_status = 'verified') as by_purchase_proof,
           count(*) filter (where x.published and r.verification_method = 'manual'
                              and r.verification_status = 'verified') as by_manual,
           count(*) filter (where x.published and r.verification_method = 'invitation'
                              and r.verification_status = 'verified') as by_invitation,
           count(*) filter (where x.published and r.incentive is not null) as incentivized,
           count(*) filter (where x.published and r.source = 'import') as imported,
           count(*) filter (where r.is_hidden) as hidden,
           count(*) filter (where not r.is_hidden and r.verification_status = 'pending') as pending,
           count(*) filter (where not r.is_hidden and r.verification_status = 'rejected') as rejected
      from org
      join plaudit.reviews r on r.org_id = org.id and r.created_at >= org.since at time zone 'UTC'
      -- plaudit.review_is_public's rule, written out: called per review (its SET clause keeps it from
      -- being inlined), it cost 20 µs a review, 2 s for a year of 100,000.
      cross join lateral (select not r.is_hidden and r.verification_status in ('verified', 'unverified') as published) x
  ), hides as (
    select to_char(t.created_at at time zone 'UTC', 'YYYY-MM') as month,
           coalesce(nullif(btrim(t.reason), ''), 'No reason given') as reason, count(*) as n
      from org
      join plaudit.moderation_trail t
        on t.org_id = org.id and t.action = 'hide' and t.created_at >= org.since at time zone 'UTC'
     group by 1, 2
  ), months as (
    select to_char(org.since + make_interval(months => g), 'YYYY-MM') as month, g
      from org cross join generate_series(0, 11) g
  )
  select json_build_object(
    'version', plaudit.public_transparency_version(p_slug),
    'enabled', org.enabled,
    'org_id', org.id,
    'slug', org.slug,
    'name', org.name,
    'since', to_char(org.since, 'YYYY-MM-DD'),
    'received_all_time', (select coalesce(sum(s.total_count), 0) from plaudit.review_statistics s where s.org_id = org.id),
    'published_all_time',
      (select coalesce(sum(s.public_count), 0) from plaudit.review_statistics s where s.org_id = org.id)
      + (select coalesce(sum(s.public_count), 0) from plaudit.product_review_statistics s where s.org_id = org.id),
    'recent', (select row_to_json(recent) from recent),
    'hidden_by_month', (
      select json_agg(json_build_object(
               'month', m.month,
               'hidden', coalesce((select sum(h.n) from hides h where h.month = m.month), 0),
               'reasons', coalesce((select json_agg(json_build_object('reason', h.reason, 'count', h.n)
                                                    order by h.n desc, h.reason)
                                      from hides h where h.month = m.month), '[]')) order by m.g)
        from months m),
    'forms', (select json_build_object(
                'none', count(*) filter (where f.verification_mode = 'none'),
                'email', count(*) filter (where f.verification_mode = 'email'),
                'purchase_proof', count(*) filter (where f.verification_mode = 'purchase_proof'),
                'manual', count(*) filter (where f.verification_mode = 'manual'))
                from plaudit.review_forms f where f.org_id = org.id and f.deleted_at is null and f.is_active),
    'widget_min_rating', org.widget_min_rating,
    'moderation_chain', plaudit.moderation_chain_head(org.id))
  from org
$$;

COMMENT ON FUNCTION plaudit.public_transparency(p_slug text) IS 'A slug''s transparency report figures as JSON: reviews received and published, by verification method, hides by month and reason, forms'' moderation and the chain head.';

CREATE FUNCTION plaudit.public_transparency_version(p_slug text) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select plaudit.public_profile_version(p_slug) || '.' ||
         coalesce((select sum(s.total_count) from plaudit.review_statistics s where s.org_id = o.id), 0) || '.' ||
         coalesce((select (extract(epoch from max(f.updated_at)) * 1000000)::bigint
                     from plaudit.review_forms f where f.org_id = o.id), 0) || '.' ||
         to_char(now() at time zone 'UTC', 'YYYYMM')
    from plaudit.organizations o
   where o.slug = p_slug
$$;

COMMENT ON FUNCTION plaudit.public_transparency_version(p_slug text) IS 'The version of a slug''s transparency report, from which its ETag derives; null for an unknown slug.';

CREATE FUNCTION plaudit.public_version(p_slug text) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select concat_ws('.', o.id,
    coalesce((select sum(s.version) from plaudit.review_statistics s where s.org_id = o.id), 0),
    (extract(epoch from o.updated_at) * 1000000)::bigint,
    coalesce((extract(epoch from p.updated_at) * 1000000)::bigint, 0))
  from plaudit.organizations o
  left join plaudit.public_profiles p on p.org_id = o.id
  where o.slug = p_slug
$$;

COMMENT ON FUNCTION plaudit.public_version(p_slug text) IS 'The version of everything public about an organization, from which public answers derive their ETags.';

CREATE FUNCTION plaudit.public_version_delta(p_org_id uuid) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select jsonb_build_object('org_id', p_org_id, 'total_count', 0, 'public_count', 0, 'rating_sum', 0, 'rating_1', 0,
                            'rating_2', 0, 'rating_3', 0, 'rating_4', 0, 'rating_5', 0, 'version', 1)
$$;

COMMENT ON FUNCTION plaudit.public_version_delta(p_org_id uuid) IS 'A review statistics delta that moves an organization''s public version and counts nothing.';

CREATE FUNCTION plaudit.purchase_proof_refusal(p_org_id uuid, p_order_id text, p_email text, p_product_id uuid) RETURNS text
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select case
    when o.order_id is null then 'order_id: does not match an order of this organization for this reviewer'
    when p_product_id is null
      or not exists (select from plaudit.order_items i where i.org_id = o.org_id and i.order_id = o.order_id)
      or exists (
        select from plaudit.products reviewed
          join plaudit.products bought
            on bought.org_id = reviewed.org_id
           and (bought.id = reviewed.id or bought.group_key = reviewed.group_key)
          join plaudit.order_items i
            on i.org_id = bought.org_id and i.product_external_id = bought.external_id
         where reviewed.id = p_product_id and reviewed.org_id = o.org_id and i.order_id = o.order_id)
      then null
    else 'order_id: the order does not hold the reviewed product or a product of its group' end
  from (select) as one
  left join plaudit.orders o
    on o.org_id = p_org_id and o.order_id = btrim(p_order_id)
   and (o.email is null or lower(o.email) = lower(p_email))
$$;

COMMENT ON FUNCTION plaudit.purchase_proof_refusal(p_org_id uuid, p_order_id text, p_email text, p_product_id uuid) IS 'Why an order does not prove a review''s purchase (not the organization''s, another reviewer''s, or without the reviewed product or its group), or null when it does.';

CREATE FUNCTION plaudit.queue_due_reminders(p_now timestamp with time zone DEFAULT NULL::timestamp with time zone, p_limit integer DEFAULT 1000, p_org_ids uuid[] DEFAULT NULL::uuid[]) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  clock timestamptz := coalesce(p_now, now());
  n integer;
begin
  with due as (
    select q.id, q.org_id, q.email, q.name, q.locale, q.link_base, q.reminders_sent + 1 as reminder, f.name as form_name,
           s.reminder_max
    from plaudit.review_request_settings s
    join plaudit.review_requests q
      on q.org_id = s.org_id
     and q.status in ('sent', 'delivered', 'opened', 'clicked')
     and q.sent_at <= clock - make_interval(days => s.reminder_delay_days)
    join plaudit.review_forms f on f.id = q.form_id
    where s.reminders_enabled
      and (p_org_ids is null or s.org_id = any (p_org_ids))
      and q.completed_at is null
      and q.reminders_sent < s.reminder_max
      and coalesce(q.last_reminder_at, q.sent_at) <= clock - make_interval(days => s.reminder_delay_days)
      and not exists (select from plaudit.email_suppressions x
                      where x.org_id = q.org_id and x.email_key = plaudit.email_key(q.org_id, q.email))
    order by q.sent_at
    limit p_limit
    for update of q skip locked
  ), marked as (
    update plaudit.review_requests q
      set reminders_sent = due.reminder, last_reminder_at = clock
      from due where q.id = due.id
      returning q.id
  ), events as (
    insert into plaudit.review_request_events (org_id, request_id, type, dedupe_key, occurred_at, data)
    select due.org_id, due.id, 'reminder_queued', 'reminder_queued:' || due.reminder, now(),
           jsonb_build_object('reminder', due.reminder)
    from due join marked using (id)
    on conflict (org_id, request_id, dedupe_key) do nothing
  )
  insert into plaudit.email_outbox (org_id, to_address, template, locale, data, idempotency_key)
  select due.org_id, due.email, 'review_reminder', due.locale,
         jsonb_build_object('review_request_id', due.id, 'name', due.name, 'form_name', due.form_name,
                            'reminder', due.reminder, 'reminder_max', due.reminder_max,
                            'product_names', plaudit.review_request_product_names(due.id))
           || plaudit.review_request_links(due.id, due.link_base),
         'review_reminder:' || due.id || ':' || due.reminder
  from due join marked using (id)
  on conflict (idempotency_key) do nothing;
  get diagnostics n = row_count;
  if n > 0 then
    perform pg_notify('plaudit_outbox', 'email');
  end if;
  return n;
end
$$;

COMMENT ON FUNCTION plaudit.queue_due_reminders(p_now timestamp with time zone, p_limit integer, p_org_ids uuid[]) IS 'Queues the reminder e-mails that are due under each organization''s settings; answers how many.';

CREATE FUNCTION plaudit.queue_invitation_email(p_invitation_id uuid, p_token text, p_link_base text) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  i plaudit.invitations;
begin
  select * into i from plaudit.invitations inv
    where inv.id = p_invitation_id and inv.org_id = plaudit.current_org_id()
      and inv.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
      and inv.accepted_at is null and inv.revoked_at is null;
  if not found then
    raise exception 'Invitation not found' using errcode = 'no_data_found';
  end if;
  return plaudit.enqueue_email(i.org_id, i.email, 'team_invitation',
    jsonb_build_object('invitation_id', i.id, 'role', i.role, 'email', i.email,
                       'accept_url', rtrim(p_link_base, '/') || '/invitations/' || p_token,
                       'expires_at', to_char(i.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
    'en', 'team_invitation:' || i.id);
end
$$;

COMMENT ON FUNCTION plaudit.queue_invitation_email(p_invitation_id uuid, p_token text, p_link_base text) IS 'Queues the e-mail of an invitation of the transaction''s tenant, given its plaintext token.';

CREATE FUNCTION plaudit.random_base62(n integer) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  alphabet constant text := plaudit.base62_alphabet();
  out text := '';
  bytes bytea;
  b integer;
begin
  while char_length(out) < n loop
    bytes := extensions.gen_random_bytes(n);
    for i in 0 .. octet_length(bytes) - 1 loop
      b := get_byte(bytes, i);
      if b < 248 and char_length(out) < n then
        out := out || substr(alphabet, b % 62 + 1, 1);
      end if;
    end loop;
  end loop;
  return out;
end
$$;

COMMENT ON FUNCTION plaudit.random_base62(n integer) IS '`n` uniformly random base62 characters, drawn by rejection so that every character is equally likely.';

CREATE FUNCTION plaudit.random_sign_in_code() RETURNS text
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select lpad(((('x' || encode(extensions.gen_random_bytes(4), 'hex'))::bit(32)::bigint) % 1000000)::text, 6, '0')
$$;

COMMENT ON FUNCTION plaudit.random_sign_in_code() IS 'Six decimal digits from the strong random source (four random bytes modulo a million).';

CREATE FUNCTION plaudit.rebuild_product_review_statistics(p_org_id uuid) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  perform 1 from plaudit.organizations where id = p_org_id for update;
  delete from plaudit.product_review_statistics where org_id = p_org_id;
  insert into plaudit.product_review_statistics
    (product_id, org_id, public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5)
  select r.product_id, p_org_id, count(*), sum(r.rating),
         count(*) filter (where r.rating = 1), count(*) filter (where r.rating = 2),
         count(*) filter (where r.rating = 3), count(*) filter (where r.rating = 4),
         count(*) filter (where r.rating = 5)
  from plaudit.reviews r
  where r.org_id = p_org_id and r.product_id is not null
    and plaudit.review_is_public(r.is_hidden, r.verification_status)
  group by r.product_id;
end
$$;

COMMENT ON FUNCTION plaudit.rebuild_product_review_statistics(p_org_id uuid) IS 'Recounts an organization''s product review counters from its published reviews.';

CREATE FUNCTION plaudit.rebuild_review_statistics(p_org_id uuid) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  old_version bigint;
begin
  perform 1 from plaudit.organizations where id = p_org_id for update;
  select coalesce(sum(version), 0) into old_version from plaudit.review_statistics where org_id = p_org_id;
  delete from plaudit.review_statistics where org_id = p_org_id;
  insert into plaudit.review_statistics
    (org_id, slot, total_count, public_count, rating_sum, rating_1, rating_2, rating_3, rating_4, rating_5, version)
  select p_org_id, 0, count(*),
         count(*) filter (where p), coalesce(sum(rating) filter (where p), 0),
         count(*) filter (where p and rating = 1), count(*) filter (where p and rating = 2),
         count(*) filter (where p and rating = 3), count(*) filter (where p and rating = 4),
         count(*) filter (where p and rating = 5), old_version + 1
  from (select rating, plaudit.review_is_public(is_hidden, verification_status) and product_id is null as p
        from plaudit.reviews where org_id = p_org_id) r;
end
$$;

COMMENT ON FUNCTION plaudit.rebuild_review_statistics(p_org_id uuid) IS 'Recounts an organization''s review statistics from its reviews, into one slot with a version past every earlier one.';

CREATE FUNCTION plaudit.record_cdn_purge(p_claim_token uuid, p_org_id uuid, p_sent boolean, p_error text, p_retry_in_ms bigint) RETURNS text
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  with recorded as (
    update plaudit.cdn_purges c
       set status = case when p_sent then 'sent' when p_retry_in_ms is null then 'failed' else 'retrying' end,
           sent_at = case when p_sent then now() end,
           last_error = case when p_sent then null else left(p_error, 1000) end,
           next_attempt_at = case when p_sent or p_retry_in_ms is null then c.next_attempt_at
                                  else now() + make_interval(secs => p_retry_in_ms / 1000.0) end,
           locked_until = null, claim_token = null
     where c.claim_token = p_claim_token and c.org_id = p_org_id and c.status = 'sending'
    returning c.status
  )
  select coalesce(min(status), 'stale') from recorded
$$;

COMMENT ON FUNCTION plaudit.record_cdn_purge(p_claim_token uuid, p_org_id uuid, p_sent boolean, p_error text, p_retry_in_ms bigint) IS 'Records the outcome of an organization''s claimed CDN purges: sent, retrying or failed; answers the status.';

CREATE FUNCTION plaudit.record_email_provider_event(p_provider_message_id text, p_type text, p_event_id text, p_occurred_at timestamp with time zone, p_data jsonb DEFAULT '{}'::jsonb) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  m record;
begin
  if p_type not in ('delivered', 'bounced', 'soft_bounced', 'complained', 'delivery_delayed', 'opened', 'clicked') then
    raise exception 'unknown e-mail event type %', p_type using errcode = 'invalid_parameter_value';
  end if;
  select e.org_id, e.data ->> 'review_request_id' as request_id into m
    from plaudit.email_outbox e
    where e.provider_message_id = p_provider_message_id
    limit 1;
  if not found then
    return 'unknown';
  end if;
  if m.request_id is null then
    return 'ignored';
  end if;
  return plaudit.apply_review_request_event(m.request_id::uuid, p_type,
    'provider:' || left(coalesce(p_event_id, p_type || ':' || p_provider_message_id), 280),
    p_occurred_at, coalesce(p_data, '{}'));
end
$$;

COMMENT ON FUNCTION plaudit.record_email_provider_event(p_provider_message_id text, p_type text, p_event_id text, p_occurred_at timestamp with time zone, p_data jsonb) IS 'Applies an e-mail provider''s event to its message''s review request; answers the outcome.';

CREATE FUNCTION plaudit.record_email_result(p_id uuid, p_claim_token uuid, p_sent boolean, p_provider_message_id text, p_error text, p_retry_in_ms bigint) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  new_status text;
  withdrawal text;
begin
  if not p_sent and p_retry_in_ms is not null then
    select plaudit.review_request_email_withdrawal(e.org_id, e.template, e.to_address, e.data) into withdrawal
      from plaudit.email_outbox e
      where e.id = p_id and e.status = 'sending' and e.claim_token = p_claim_token
      for update;
  end if;
  update plaudit.email_outbox e
  set status = case when p_sent then 'sent'
                    when p_retry_in_ms is null or withdrawal is not null then 'failed'
                    else 'queued' end,
      sent_at = case when p_sent then now() else e.sent_at end,
      provider_message_id = coalesce(p_provider_message_id, e.provider_message_id),
      last_error = case when p_sent then null
                        when withdrawal is not null then 'cancelled: ' || withdrawal
                        else left(p_error, 1000) end,
      next_attempt_at = case when p_sent or p_retry_in_ms is null or withdrawal is not null then e.next_attempt_at
                             else now() + make_interval(secs => p_retry_in_ms / 1000.0) end,
      locked_until = null, claim_token = null
  where e.id = p_id and e.status = 'sending' and (e.claim_token = p_claim_token or p_sent)
  returning e.status into new_status;
  return coalesce(new_status, 'stale');
end
$$;

COMMENT ON FUNCTION plaudit.record_email_result(p_id uuid, p_claim_token uuid, p_sent boolean, p_provider_message_id text, p_error text, p_retry_in_ms bigint) IS 'Records a claimed e-mail''s send: sent, queued again for a retry, or failed for good; answers its status.';

CREATE FUNCTION plaudit.record_test_delivery(p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text, p_response_snippet text, p_succeeded boolean) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  if not exists (select from plaudit.webhook_deliveries
                 where id = p_delivery_id and is_test and org_id = plaudit.current_org_id()) then
    return null;
  end if;
  return plaudit.record_webhook_attempt(p_delivery_id, p_claim_token, p_status_code, p_duration_ms,
    p_error, p_response_snippet, case when p_succeeded then 'succeeded' else 'retry' end, null);
end
$$;

COMMENT ON FUNCTION plaudit.record_test_delivery(p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text, p_response_snippet text, p_succeeded boolean) IS 'Records the outcome of a test delivery of the transaction''s tenant; answers its status.';

CREATE FUNCTION plaudit.record_webhook_attempt(p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text, p_response_snippet text, p_outcome text, p_retry_in_ms bigint, p_disable_after_seconds integer DEFAULT 432000, p_slow_ms integer DEFAULT NULL::integer) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  d plaudit.webhook_deliveries;
  failing timestamptz;
  err text := left(p_error, 1000);
begin
  if p_outcome not in ('succeeded', 'gone', 'retry') then
    raise invalid_parameter_value using message = 'unknown outcome ' || p_outcome;
  end if;
  select * into d from plaudit.webhook_deliveries where id = p_delivery_id for update;
  if not found then
    return null; -- the endpoint was deleted meanwhile
  end if;

  insert into plaudit.webhook_delivery_attempts
    (org_id, delivery_id, attempt, status_code, duration_ms, error, response_snippet)
  values (d.org_id, d.id, d.attempts, p_status_code, greatest(p_duration_ms, 0), err,
          left(p_response_snippet, 1024));

  -- The endpoint's speed, written only when it changes sides of p_slow_ms (no write per attempt).
  if not d.is_test and p_slow_ms is not null then
    update plaudit.webhook_endpoints
      set slow_since = case when p_duration_ms >= p_slow_ms then now() end
      where id = d.endpoint_id and (slow_since is null) = (p_duration_ms >= p_slow_ms);
  end if;

  if d.status <> 'pending' then
    return d.status;
  end if;
  if d.claim_token is distinct from p_claim_token and p_outcome <> 'succeeded' then
    return 'stale';
  end if;

  if p_outcome = 'succeeded' then
    update plaudit.webhook_deliveries
      set status = 'succeeded', delivered_at = now(), locked_until = null, claim_token = null,
          last_status_code = p_status_code, last_error = null
      where id = d.id;
    if not d.is_test then
      update plaudit.webhook_endpoints set failing_since = null
        where id = d.endpoint_id and failing_since is not null;
    end if;
    return 'succeeded';
  end if;

  if d.is_test then
    update plaudit.webhook_deliveries
      set status = 'failed', locked_until = null, claim_token = null,
          last_status_code = p_status_code, last_error = err
      where id = d.id;
    return 'failed';
  end if;

  if p_outcome = 'gone' then
    update plaudit.webhook_deliveries
      set status = 'failed', locked_until = null, claim_token = null,
          last_status_code = p_status_code, last_error = err
      where id = d.id;
    update plaudit.webhook_endpoints
      set enabled = false, disabled_at = now(),
          disabled_reason = 'the endpoint answered 410 Gone'
      where id = d.endpoint_id and enabled;
    return 'failed';
  end if;

  update plaudit.webhook_endpoints
    set failing_since = coalesce(failing_since, now())
    where id = d.endpoint_id
    returning failing_since into failing;

  if p_retry_in_ms is null or failing <= now() - make_interval(secs => p_disable_after_seconds) then
    update plaudit.webhook_deliveries
      set status = 'failed', locked_until = null, claim_token = null,
          last_status_code = p_status_code, last_error = err
      where id = d.id;
    if failing <= now() - make_interval(secs => p_disable_after_seconds) then
      update plaudit.webhook_endpoints
        set enabled = false, disabled_at = now(),
            disabled_reason = 'every delivery attempt failed for '
              || (p_disable_after_seconds / 86400.0)::numeric(10, 2)::text || ' days'
        where id = d.endpoint_id and enabled;
    end if;
    return 'failed';
  end if;

  update plaudit.webhook_deliveries
    set next_attempt_at = now() + make_interval(secs => p_retry_in_ms / 1000.0),
        locked_until = null, claim_token = null,
        last_status_code = p_status_code, last_error = err
    where id = d.id;
  return 'pending';
end
$$;

COMMENT ON FUNCTION plaudit.record_webhook_attempt(p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text, p_response_snippet text, p_outcome text, p_retry_in_ms bigint, p_disable_after_seconds integer, p_slow_ms integer) IS 'Records a delivery attempt; the delivery succeeds, waits for a retry or fails.';

CREATE FUNCTION plaudit.refuse_changes_once_set() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  before jsonb := to_jsonb(old);
  after jsonb := to_jsonb(new);
  i integer := 0;
begin
  while i < tg_nargs loop
    if jsonb_typeof(before -> tg_argv[i]) <> 'null' and (after -> tg_argv[i]) is distinct from (before -> tg_argv[i]) then
      raise exception '%: % cannot be cleared or changed once set', tg_argv[i + 1], tg_argv[i]
        using errcode = 'restrict_violation';
    end if;
    i := i + 2;
  end loop;
  return new;
end
$$;

COMMENT ON FUNCTION plaudit.refuse_changes_once_set() IS 'A column named in the trigger''s arguments, once set, can never be cleared or changed, by any role.';

CREATE FUNCTION plaudit.reject_review(p_review_id uuid, p_reason text, p_key_id uuid) RETURNS SETOF plaudit.reviews
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ select * from plaudit.change_verification(p_review_id, 'rejected', 'manual', p_reason, p_key_id, null, 'rejected') $$;

COMMENT ON FUNCTION plaudit.reject_review(p_review_id uuid, p_reason text, p_key_id uuid) IS 'Rejects a pending review of the caller''s tenant by hand.';

CREATE FUNCTION plaudit.reply_json(reply plaudit.review_replies) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
  select case when reply.review_id is null then null else
    '{"content":' || pg_catalog.to_json(reply.content)::text
    || ',"created_at":"' || pg_catalog.to_char(reply.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","updated_at":"' || pg_catalog.to_char(reply.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '"}' end
$$;

COMMENT ON FUNCTION plaudit.reply_json(reply plaudit.review_replies) IS 'A review''s reply as the Review''s `reply` writes it, or null.';

CREATE FUNCTION plaudit.reply_to_review(p_review_id uuid, p_content text, p_actor text) RETURNS TABLE(content text, created_at timestamp with time zone, updated_at timestamp with time zone)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  org uuid := plaudit.current_org_id();
begin
  if org is null or not exists (select from plaudit.reviews v where v.id = p_review_id) then
    raise exception 'Review not found' using errcode = 'no_data_found';
  end if;
  if p_content is null or char_length(btrim(p_content)) not between 1 and 5000 then
    raise exception 'content: must be 1 to 5000 characters' using errcode = 'check_violation';
  end if;
  perform set_config('plaudit.actor', coalesce(p_actor, ''), true);
  insert into plaudit.review_replies as rr (review_id, org_id, content)
  values (p_review_id, org, btrim(p_content))
  on conflict (review_id) do update set content = excluded.content, updated_at = now()
    where rr.content is distinct from excluded.content;
  perform set_config('plaudit.actor', '', true);
  return query select rr.content, rr.created_at, rr.updated_at
    from plaudit.review_replies rr where rr.review_id = p_review_id;
end
$$;

COMMENT ON FUNCTION plaudit.reply_to_review(p_review_id uuid, p_content text, p_actor text) IS 'Writes or edits the reply to a review of the caller''s tenant; answers the reply.';

CREATE FUNCTION plaudit.report_review(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea, p_reason text, p_details text) RETURNS TABLE(rate_allowed boolean, rate_remaining integer, rate_reset bigint, published boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
#variable_conflict use_column
declare
  target record;
  hashes bytea[];
  report plaudit.review_reports;
begin
  select * into target from plaudit.signal_target(p_rate_bucket, p_rate_limit, p_slug, p_review_id);
  rate_allowed := target.rate_allowed;
  rate_remaining := target.rate_remaining;
  rate_reset := target.rate_reset;
  published := target.id is not null;
  if not published then
    return next;
    return;
  end if;
  hashes := plaudit.visitor_hashes(target.id, p_visitor);
  if not exists (select from plaudit.review_reports x
                  where x.review_id = target.id and x.reporter_hash = any (hashes) and x.status = 'open') then
    insert into plaudit.review_reports (org_id, review_id, reason, details, reporter_hash)
    values (target.org_id, target.id, p_reason, nullif(btrim(p_details), ''), hashes[1])
    on conflict (review_id, reporter_hash) where status = 'open' do nothing
    returning * into report;
    if report.id is not null then
      perform plaudit.emit_event(target.org_id, 'review.reported', jsonb_build_object(
        'id', target.id, 'form_id', target.form_id,
        'product', plaudit.review_product_json(target.product_id)::jsonb,
        'report_id', report.id, 'reason', report.reason, 'details', report.details,
        'reported_at', plaudit.iso_utc(report.created_at)));
    end if;
  end if;
  return next;
end
$$;

COMMENT ON FUNCTION plaudit.report_review(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea, p_reason text, p_details text) IS 'Stores a visitor''s report of a published review (one open per visitor), limited per address, with its event.';

CREATE FUNCTION plaudit.request_cdn_purge(p_org_id uuid, p_include_sitemap boolean DEFAULT false) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  if exists (select from plaudit.cdn_purges c
              where c.org_id = p_org_id and c.status = 'pending' and (c.include_sitemap or not p_include_sitemap)) then
    return;
  end if;
  if p_include_sitemap then
    insert into plaudit.cdn_purges (org_id, include_sitemap) values (p_org_id, true)
    on conflict (org_id) where status = 'pending' do update set include_sitemap = true;
  else
    insert into plaudit.cdn_purges (org_id) values (p_org_id)
    on conflict (org_id) where status = 'pending' do nothing;
  end if;
  perform pg_notify('plaudit_outbox', 'purge');
end
$$;

COMMENT ON FUNCTION plaudit.request_cdn_purge(p_org_id uuid, p_include_sitemap boolean) IS 'Writes a pending CDN purge of an organization in the caller''s transaction, unless one is pending already.';

CREATE FUNCTION plaudit.request_sign_in(p_email text, p_client text, p_link_base text, p_client_limit integer DEFAULT 10) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  address text := lower(btrim(coalesce(p_email, '')));
  first_org uuid;
  challenge_id uuid := gen_random_uuid();
  token text;
  code text;
  by_client record;
  by_address record;
begin
  select * into by_client from plaudit.hit_rate_limit('sign-in:client:' || encode(sha256(convert_to(coalesce(p_client, ''), 'UTF8')), 'hex'), p_client_limit);
  select * into by_address from plaudit.hit_rate_limit('sign-in:address:' || encode(sha256(convert_to(address, 'UTF8')), 'hex'), 3);
  if not by_client.allowed or not by_address.allowed then
    return 'rate_limited';
  end if;
  select m.org_id into first_org from plaudit.members m
   where lower(m.email) = address order by m.created_at, m.id limit 1;
  if not found then
    return 'unknown';
  end if;
  if (select count(*) from plaudit.sign_in_challenges c
       where lower(c.email) = address and c.created_at > now() - interval '1 hour') >= 10 then
    return 'throttled';
  end if;
  token := plaudit.random_base62(43);
  code := plaudit.random_sign_in_code();
  insert into plaudit.sign_in_challenges as c (id, email, token_hash, code_hash)
  values (challenge_id, address, sha256(convert_to(token, 'UTF8')), plaudit.sign_in_code_hash(challenge_id, code));
  perform plaudit.enqueue_email(first_org, address, 'sign_in',
    jsonb_build_object('link', rtrim(p_link_base, '/') || '/app/sign-in#token=' || token, 'code', code,
                       'expires_at', to_char((now() + interval '15 minutes') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
    'en', 'sign_in:' || challenge_id);
  return 'sent';
end
$$;

COMMENT ON FUNCTION plaudit.request_sign_in(p_email text, p_client text, p_link_base text, p_client_limit integer) IS 'Asks for a sign-in mail to a member''s address, rate-limited; answers rate_limited, unknown, throttled or sent.';

CREATE FUNCTION plaudit.resolve_review_report(p_id uuid, p_resolution text, p_actor text) RETURNS uuid
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  update plaudit.review_reports x
     set status = 'resolved', resolution = btrim(p_resolution), resolved_at = now(), resolved_by = p_actor
   where x.id = p_id
  returning x.id
$$;

COMMENT ON FUNCTION plaudit.resolve_review_report(p_id uuid, p_resolution text, p_actor text) IS 'Resolves one of the tenant''s review reports with its resolution and actor; answers its id, or null.';

CREATE FUNCTION plaudit.review_event_forgotten(p_data jsonb, p_redact boolean) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select p_data
    || case when p_data ? 'reviewer_name' then jsonb_build_object('reviewer_name', 'Anonymous') else '{}' end
    || case when p_data ? 'reviewer_email' then jsonb_build_object('reviewer_email', null) else '{}' end
    || case when p_data ? 'custom_fields' then jsonb_build_object('custom_fields', '{}'::jsonb) else '{}' end
    || case when p_redact and p_data ? 'content' then jsonb_build_object('content', plaudit.erasure_notice()) else '{}' end
    || case when p_redact and p_data ->> 'title' is not null then jsonb_build_object('title', plaudit.erasure_notice())
            else '{}' end
$$;

COMMENT ON FUNCTION plaudit.review_event_forgotten(p_data jsonb, p_redact boolean) IS 'A review event''s data with the reviewer forgotten: name Anonymous, no address or answers, the text removed on request.';

CREATE FUNCTION plaudit.review_forms_stay_deleted() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  if old.deleted_at is not null then
    raise exception 'review form % is deleted and cannot be changed', old.id
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  return new;
end
$$;

COMMENT ON FUNCTION plaudit.review_forms_stay_deleted() IS 'A deleted form stays deleted: nothing can bring it back or change it afterwards.';

CREATE FUNCTION plaudit.review_has_public_media(p_review_id uuid) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
  select exists (select 1 from plaudit.review_media m where m.review_id = p_review_id and not m.is_hidden)
$$;

COMMENT ON FUNCTION plaudit.review_has_public_media(p_review_id uuid) IS 'Whether a review has a photo or video the public may see.';

CREATE FUNCTION plaudit.review_is_incentivized(r plaudit.reviews) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ select r.incentive is not null $$;

COMMENT ON FUNCTION plaudit.review_is_incentivized(r plaudit.reviews) IS 'Whether a review was collected with an incentive: the Google feed''s is_incentivized_review.';

CREATE FUNCTION plaudit.review_is_public(p_is_hidden boolean, p_status text) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ select not p_is_hidden and p_status in ('verified', 'unverified') $$;

COMMENT ON FUNCTION plaudit.review_is_public(p_is_hidden boolean, p_status text) IS 'True when a review shows in public: not hidden, and verified or unverified.';

CREATE FUNCTION plaudit.review_json(r plaudit.reviews, reply plaudit.review_replies) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
  select '{"id":"' || r.id::text || '","rating":' || r.rating::text
    || ',"title":' || coalesce(pg_catalog.to_json(r.title)::text, 'null')
    || ',"content":' || pg_catalog.to_json(r.content)::text
    || ',"reviewer_name":' || pg_catalog.to_json(r.reviewer_name)::text
    || ',"reviewer_email":' || coalesce(pg_catalog.to_json(r.reviewer_email)::text, 'null')
    || ',"verification_status":"' || r.verification_status
    || '","verification_method":' || coalesce(pg_catalog.to_json(r.verification_method)::text, 'null')
    || ',"verification_at":' || coalesce('"' || pg_catalog.to_char(r.verification_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')
    || ',"source":"' || r.source || '","source_platform":' || coalesce('"' || r.source_platform || '"', 'null')
    || ',"incentive":' || coalesce('{"type":"' || (r.incentive ->> 'type') || '","description":'
         || pg_catalog.to_json(r.incentive ->> 'description')::text || '}', 'null')
    || ',"is_hidden":' || r.is_hidden::text
    || ',"created_at":"' || pg_catalog.to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","form_id":"' || r.form_id::text
    || '","product":' || case when r.product_id is null then 'null' else coalesce(plaudit.review_product_json(r.product_id), 'null') end
    || ',"custom_fields":' || case when r.custom_fields = '{}'::jsonb then '{}' else plaudit.canonical_json(r.custom_fields) end
    || ',"media":' || plaudit.review_media_json(r.id, false)
    || ',"reply":' || coalesce(plaudit.reply_json(reply), 'null')
    || '}'
$$;

COMMENT ON FUNCTION plaudit.review_json(r plaudit.reviews, reply plaudit.review_replies) IS 'The organization''s Review as compact JSON: the one writer of it, for every route and the JSON export.';

CREATE FUNCTION plaudit.review_media_access(p_review_id uuid, p_token_hash bytea, OUT org_id uuid, OUT refusal text) RETURNS record
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  t plaudit.media_upload_tokens;
begin
  if p_token_hash is not null then
    select * into t from plaudit.media_upload_tokens x where x.token_hash = p_token_hash and x.expires_at > now();
    if not found then
      refusal := 'invalid_token';
    elsif t.review_id <> p_review_id then
      refusal := 'wrong_review';
    else
      org_id := t.org_id;
    end if;
    return;
  end if;
  select r.org_id into org_id from plaudit.reviews r
   where r.id = p_review_id and r.org_id = plaudit.current_org_id();
  if org_id is null then
    refusal := 'not_found';
  end if;
end
$$;

COMMENT ON FUNCTION plaudit.review_media_access(p_review_id uuid, p_token_hash bytea, OUT org_id uuid, OUT refusal text) IS 'Whether the upload token or the caller''s tenant may add media to a review: its organization, or why not.';

CREATE FUNCTION plaudit.review_media_item_json(p_media_id uuid) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select (plaudit.review_media_json(m.review_id, false)::json -> (m.position - 1))::text
    from plaudit.review_media m
   where m.id = p_media_id
$$;

COMMENT ON FUNCTION plaudit.review_media_item_json(p_media_id uuid) IS 'One media item as the organization''s Review shows it.';

CREATE FUNCTION plaudit.review_media_json(p_review_id uuid, p_public boolean) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
  select '[' || coalesce(string_agg('{"id":"' || m.id::text || '","type":"' || m.type
      || '","url":' || pg_catalog.to_json(m.url)::text
      || ',"thumbnail_url":' || coalesce(pg_catalog.to_json(m.thumbnail_url)::text, 'null')
      || ',"width":' || coalesce(m.width::text, 'null') || ',"height":' || coalesce(m.height::text, 'null')
      || case when p_public then '' else ',"is_hidden":' || m.is_hidden::text end
      || ',"created_at":"' || pg_catalog.to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      || '"}', ',' order by m.position), '') || ']'
    from plaudit.review_media m
   where m.review_id = p_review_id and not (p_public and m.is_hidden)
$$;

COMMENT ON FUNCTION plaudit.review_media_json(p_review_id uuid, p_public boolean) IS 'A review''s photos and videos as a JSON array in upload order: all of them with is_hidden, or the public''s visible ones.';

CREATE FUNCTION plaudit.review_product_json(p_product_id uuid) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select '{"id":"' || p.id::text || '","external_id":' || pg_catalog.to_json(p.external_id)::text
    || ',"name":' || pg_catalog.to_json(p.name)::text || '}'
    from plaudit.products p
   where p.id = p_product_id
$$;

COMMENT ON FUNCTION plaudit.review_product_json(p_product_id uuid) IS 'A reviewed product as the Review''s `product` writes it.';

CREATE FUNCTION plaudit.review_replies_record() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  r plaudit.review_replies := case when tg_op = 'DELETE' then old else new end;
  action text := case tg_op when 'INSERT' then 'reply' when 'UPDATE' then 'edit_reply' else 'withdraw_reply' end;
  reviewed plaudit.reviews;
begin
  -- A reply brought by an import is part of the import's one entry and one event.
  if r.imported then
    return null;
  end if;
  select * into reviewed from plaudit.reviews v where v.id = r.review_id;
  perform plaudit.append_moderation_entry(r.org_id, r.review_id, action,
                                          case when tg_op = 'DELETE' then null else r.content end,
                                          plaudit.current_actor());
  perform plaudit.emit_event(r.org_id, 'review.replied', jsonb_build_object(
    'id', r.review_id, 'form_id', reviewed.form_id, 'product', plaudit.review_product_json(reviewed.product_id)::jsonb,
    'action', case tg_op when 'INSERT' then 'created' when 'UPDATE' then 'updated' else 'withdrawn' end,
    'reply', case when tg_op = 'DELETE' then null else jsonb_build_object(
      'content', r.content, 'created_at', plaudit.iso_utc(r.created_at), 'updated_at', plaudit.iso_utc(r.updated_at)) end,
    'actor', plaudit.current_actor(),
    'replied_at', plaudit.iso_utc(clock_timestamp())));
  -- Public answers show the reply: their version (and ETags) move with it.
  perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(r.org_id)));
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.review_replies_record() IS 'Every reply written, edited or withdrawn gets its trail entry, its review.replied event and a new public version.';

CREATE FUNCTION plaudit.review_report_json(p_report_id uuid) RETURNS json
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select json_build_object(
    'id', x.id, 'review_id', x.review_id,
    'review', json_build_object('id', r.id, 'rating', r.rating, 'title', r.title, 'content', r.content,
                                'reviewer_name', r.reviewer_name, 'is_hidden', r.is_hidden),
    'reason', x.reason, 'details', x.details, 'status', x.status, 'resolution', x.resolution,
    'resolved_at', plaudit.iso_utc(x.resolved_at), 'resolved_by', x.resolved_by,
    'created_at', plaudit.iso_utc(x.created_at))
    from plaudit.review_reports x join plaudit.reviews r on r.id = x.review_id
   where x.id = p_report_id
$$;

COMMENT ON FUNCTION plaudit.review_report_json(p_report_id uuid) IS 'A review report of the caller''s tenant as the API answers it, with the review it is about.';

CREATE FUNCTION plaudit.review_request_email_withdrawal(p_org_id uuid, p_template text, p_to text, p_data jsonb) RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  request_status text;
begin
  if p_template not in ('review_request', 'review_reminder') then
    return null;
  end if;
  select q.status into request_status
    from plaudit.review_requests q where q.id = (p_data ->> 'review_request_id')::uuid;
  if request_status in ('completed', 'bounced', 'complained', 'unsubscribed', 'failed') then
    return 'the request is ' || request_status;
  end if;
  if exists (select from plaudit.email_suppressions s
             where s.org_id = p_org_id and s.email_key = plaudit.email_key(p_org_id, p_to)) then
    return 'the address is on the suppression list';
  end if;
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.review_request_email_withdrawal(p_org_id uuid, p_template text, p_to text, p_data jsonb) IS 'Why a review-request e-mail must not go out any more, or null when it may.';

CREATE FUNCTION plaudit.review_request_from_token(p_token text) RETURNS uuid
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
declare
  raw bytea;
  id uuid;
  k bytea;
  expected bytea;
begin
  if p_token is null or p_token !~ '^[A-Za-z0-9_-]{43}$' then
    return null;
  end if;
  raw := decode(translate(p_token, '-_', '+/') || '=', 'base64');
  if octet_length(raw) <> 32 then
    return null;
  end if;
  id := encode(substring(raw from 1 for 16), 'hex')::uuid;
  select s.secret into k from plaudit.signing_secrets s where s.purpose = 'review_request_links';
  expected := substring(extensions.hmac(convert_to('review_request:' || id::text, 'UTF8'), k, 'sha256') from 1 for 16);
  if extensions.hmac(substring(raw from 17 for 16), k, 'sha256') = extensions.hmac(expected, k, 'sha256') then
    return id;
  end if;
  return null;
end
$_$;

COMMENT ON FUNCTION plaudit.review_request_from_token(p_token text) IS 'The request id a token stands for, or null when it is malformed or its MAC does not match.';

CREATE FUNCTION plaudit.review_request_landing(p_token text) RETURNS TABLE(request_id uuid, status text, name text, email text, order_id text, locale text, form_id uuid, form_name text, form_active boolean, verification_mode text, custom_fields jsonb, org_name text, logo_url text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select q.id, q.status, q.name, q.email, q.order_id, q.locale,
         f.id, f.name, f.is_active and f.deleted_at is null, f.verification_mode, f.custom_fields,
         plaudit.brand_name(q.org_id), p.logo_url
  from plaudit.review_requests q
  join plaudit.review_forms f on f.id = q.form_id
  left join plaudit.public_profiles p on p.org_id = q.org_id
  where q.id = plaudit.review_request_from_token(p_token)
$$;

COMMENT ON FUNCTION plaudit.review_request_landing(p_token text) IS 'The landing page of /r/:token: the request''s recipient (prefilled), its form and organization.';

CREATE FUNCTION plaudit.review_request_links(p_request_id uuid, p_link_base text) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select jsonb_build_object(
    'landing_url', b || '/r/' || t,
    'review_url', b || '/t/c/' || t,
    'rating_urls', (select jsonb_agg(b || '/t/c/' || t || '?rating=' || n order by n) from generate_series(1, 5) n),
    'open_pixel_url', b || '/t/o/' || t || '.gif',
    'unsubscribe_url', b || '/unsubscribe/' || t)
  from (select rtrim(p_link_base, '/') as b, plaudit.review_request_token(p_request_id) as t) x
$$;

COMMENT ON FUNCTION plaudit.review_request_links(p_request_id uuid, p_link_base text) IS 'The links of a request''s e-mails, for the templates.';

CREATE FUNCTION plaudit.review_request_product_names(p_request_id uuid) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select coalesce(jsonb_agg(p.name order by rp.position), '[]')
    from plaudit.review_request_products rp
    join plaudit.products p on p.id = rp.product_id and p.org_id = rp.org_id
   where rp.request_id = p_request_id
$$;

COMMENT ON FUNCTION plaudit.review_request_product_names(p_request_id uuid) IS 'The names of the products a review request names, in order, for its e-mails.';

CREATE FUNCTION plaudit.review_request_status_rank(p_status text) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select array_position(
    array['queued', 'sent', 'delivered', 'opened', 'clicked', 'failed', 'bounced', 'complained',
          'unsubscribed', 'completed'],
    p_status)
$$;

COMMENT ON FUNCTION plaudit.review_request_status_rank(p_status text) IS 'The rank of a review-request status in the lifecycle''s precedence; null for an event that is not a status.';

CREATE FUNCTION plaudit.review_request_subjects(p_token text) RETURNS TABLE(product_position integer, product_external_id text, name text, image_url text, reviewed boolean)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select s.product_position, s.product_external_id, s.name, s.image_url, s.reviewed
    from (
      select rp.position::integer as product_position, p.external_id as product_external_id, p.name, p.image_url,
             p.archived,
             exists (select from plaudit.review_request_reviews w
                      where w.org_id = rp.org_id and w.request_id = rp.request_id
                        and w.product_id = rp.product_id) as reviewed
        from plaudit.review_request_products rp
        join plaudit.products p on p.id = rp.product_id and p.org_id = rp.org_id
       where rp.request_id = plaudit.review_request_from_token(p_token)
      union all
      select null, null, plaudit.brand_name(q.org_id), null, false,
             exists (select from plaudit.review_request_reviews w
                      where w.org_id = q.org_id and w.request_id = q.id and w.product_id is null)
        from plaudit.review_requests q
       where q.id = plaudit.review_request_from_token(p_token)
    ) s
   where not s.archived or s.reviewed
   order by s.product_position nulls last
$$;

COMMENT ON FUNCTION plaudit.review_request_subjects(p_token text) IS 'The subjects the page of /r/:token asks about (its products in order, then the business), and which were reviewed through it.';

CREATE FUNCTION plaudit.review_request_token(p_request_id uuid) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select translate(rtrim(encode(
    uuid_send(p_request_id)
      || substring(extensions.hmac(convert_to('review_request:' || p_request_id::text, 'UTF8'), s.secret, 'sha256') from 1 for 16),
    'base64'), '='), '+/', '-_')
  from plaudit.signing_secrets s where s.purpose = 'review_request_links'
$$;

COMMENT ON FUNCTION plaudit.review_request_token(p_request_id uuid) IS 'The token of a review request''s links: its id and a MAC of it, in base64url.';

CREATE FUNCTION plaudit.review_request_unsubscribe_info(p_token text) RETURNS TABLE(email text, org_name text, suppressed boolean)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select q.email, o.name, plaudit.suppression_reason(q.org_id, q.email) is not null
  from plaudit.review_requests q join plaudit.organizations o on o.id = q.org_id
  where q.id = plaudit.review_request_from_token(p_token)
$$;

COMMENT ON FUNCTION plaudit.review_request_unsubscribe_info(p_token text) IS 'The unsubscribe page: who would be unsubscribed, from which organization.';

CREATE FUNCTION plaudit.review_requests_guard_update() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  if (new.id, new.org_id, new.form_id, new.email, new.created_at)
     is distinct from (old.id, old.org_id, old.form_id, old.email, old.created_at) then
    raise exception 'a review request''s recipient, form and organization cannot change'
      using errcode = 'restrict_violation';
  end if;
  if plaudit.review_request_status_rank(new.status) < plaudit.review_request_status_rank(old.status) then
    raise exception 'a review request''s status never moves backwards (% → %)', old.status, new.status
      using errcode = 'restrict_violation';
  end if;
  new.updated_at := now();
  return new;
end
$$;

COMMENT ON FUNCTION plaudit.review_requests_guard_update() IS 'A review request keeps its recipient, form and organization, and its status never moves backwards.';

CREATE FUNCTION plaudit.reviewer_data(p_email text) RETURNS json
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
declare
  tenant uuid := plaudit.current_org_id();
  address text := lower(btrim(p_email));
  key bytea;
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;
  if address is null or char_length(address) > 320 or address !~ '^[^@\s]+@[^@\s]+$' then
    raise exception 'email: must be an e-mail address' using errcode = 'invalid_parameter_value';
  end if;
  key := plaudit.email_key(tenant, address);
  return json_build_object(
    'email', address,
    'generated_at', plaudit.iso_utc(clock_timestamp()),
    'reviews', coalesce((
      select json_agg(plaudit.review_json(x, rr)::json order by x.created_at, x.id)
        from plaudit.reviews x
        left join plaudit.review_replies rr on rr.review_id = x.id
       where x.org_id = tenant and lower(x.reviewer_email) = address), '[]'),
    'review_requests', coalesce((
      select json_agg(json_build_object(
               'id', q.id, 'email', q.email, 'name', q.name, 'form_id', q.form_id, 'order_id', q.order_id,
               'external_id', q.external_id, 'locale', q.locale, 'status', q.status, 'review_id', q.review_id,
               'created_at', plaudit.iso_utc(q.created_at), 'sent_at', plaudit.iso_utc(q.sent_at),
               'opened_at', plaudit.iso_utc(q.opened_at), 'clicked_at', plaudit.iso_utc(q.clicked_at),
               'completed_at', plaudit.iso_utc(q.completed_at)) order by q.created_at, q.id)
        from plaudit.review_requests q where q.org_id = tenant and lower(q.email) = address), '[]'),
    'orders', coalesce((
      select json_agg(json_build_object(
               'order_id', o.order_id, 'email', o.email, 'purchased_at', plaudit.iso_utc(o.purchased_at),
               'items', coalesce((select json_agg(json_build_object('product_external_id', i.product_external_id,
                                                                      'quantity', i.quantity) order by i.position)
                                    from plaudit.order_items i
                                   where i.org_id = o.org_id and i.order_id = o.order_id), '[]'),
               'created_at', plaudit.iso_utc(o.created_at)) order by o.created_at, o.order_id)
        from plaudit.orders o where o.org_id = tenant and lower(o.email) = address), '[]'),
    'emails', coalesce((
      select json_agg(json_build_object('id', m.id, 'template', m.template, 'status', m.status,
                                          'created_at', plaudit.iso_utc(m.created_at),
                                          'sent_at', plaudit.iso_utc(m.sent_at)) order by m.created_at, m.id)
        from plaudit.email_outbox m where m.org_id = tenant and lower(m.to_address) = address), '[]'),
    'suppression', (
      select json_build_object('reason', s.reason, 'created_at', plaudit.iso_utc(s.created_at))
        from plaudit.email_suppressions s where s.org_id = tenant and s.email_key = key),
    'erasures', coalesce((
      select json_agg(json_build_object('reviews', e.reviews, 'review_requests', e.review_requests,
                                          'media', e.media, 'redact_content', e.redact_content,
                                          'created_at', plaudit.iso_utc(e.created_at)) order by e.created_at, e.id)
        from plaudit.privacy_erasures e where e.org_id = tenant and e.email_key = key), '[]'));
end
$_$;

COMMENT ON FUNCTION plaudit.reviewer_data(p_email text) IS 'Everything the transaction''s tenant holds about an address, as JSON, and nothing about anyone else.';

CREATE FUNCTION plaudit.reviews_complete_review_requests() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  q record;
begin
  for q in
    select rr.id from plaudit.review_requests rr
    where rr.org_id = new.org_id and rr.form_id = new.form_id
      and lower(rr.email) = lower(new.reviewer_email) and rr.completed_at is null
  loop
    perform plaudit.apply_review_request_event(q.id, 'completed', 'completed', new.created_at,
      jsonb_build_object('review_id', new.id));
    insert into plaudit.review_request_reviews (org_id, request_id, product_id, review_id)
    select new.org_id, q.id, new.product_id, new.id
     where new.product_id is null
        or exists (select from plaudit.review_request_products rp
                    where rp.org_id = new.org_id and rp.request_id = q.id and rp.product_id = new.product_id)
    on conflict do nothing;
  end loop;
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.reviews_complete_review_requests() IS 'A new review completes its organization''s open requests for the same address and form.';

CREATE FUNCTION plaudit.reviews_count_inserted() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  deltas jsonb;
  product_deltas jsonb;
begin
  select jsonb_agg(d) into deltas from (
    select n.org_id,
           count(*) as total_count,
           count(*) filter (where b) as public_count,
           coalesce(sum(n.rating) filter (where b), 0) as rating_sum,
           count(*) filter (where b and n.rating = 1) as rating_1,
           count(*) filter (where b and n.rating = 2) as rating_2,
           count(*) filter (where b and n.rating = 3) as rating_3,
           count(*) filter (where b and n.rating = 4) as rating_4,
           count(*) filter (where b and n.rating = 5) as rating_5,
           case when bool_or(p) then 1 else 0 end as version
    from (select r.*, plaudit.review_is_public(r.is_hidden, r.verification_status) as p,
                 plaudit.review_is_public(r.is_hidden, r.verification_status) and r.product_id is null as b
          from new_reviews r) n
    group by n.org_id
  ) d;
  if deltas is not null then
    perform plaudit.add_review_statistics(deltas);
  end if;
  select jsonb_agg(d) into product_deltas from (
    select n.product_id, n.org_id, count(*) as public_count, sum(n.rating) as rating_sum,
           count(*) filter (where n.rating = 1) as rating_1, count(*) filter (where n.rating = 2) as rating_2,
           count(*) filter (where n.rating = 3) as rating_3, count(*) filter (where n.rating = 4) as rating_4,
           count(*) filter (where n.rating = 5) as rating_5
    from new_reviews n
    where n.product_id is not null and plaudit.review_is_public(n.is_hidden, n.verification_status)
    group by n.product_id, n.org_id
  ) d;
  if product_deltas is not null then
    perform plaudit.add_product_review_statistics(product_deltas);
  end if;
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.reviews_count_inserted() IS 'The review statistics count every review an insert statement makes, in its transaction.';

CREATE FUNCTION plaudit.reviews_count_updated() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  deltas jsonb;
  product_deltas jsonb;
begin
  with c as (
    select n.org_id, n.product_id, n.rating,
           case when plaudit.review_is_public(n.is_hidden, n.verification_status) then 1 else -1 end as sign
    from new_reviews n join old_reviews o on o.id = n.id
    where plaudit.review_is_public(n.is_hidden, n.verification_status)
          <> plaudit.review_is_public(o.is_hidden, o.verification_status)
  )
  select
    (select jsonb_agg(d) from (
       select c.org_id,
              0 as total_count,
              coalesce(sum(c.sign) filter (where c.product_id is null), 0) as public_count,
              coalesce(sum(c.sign * c.rating) filter (where c.product_id is null), 0) as rating_sum,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 1), 0) as rating_1,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 2), 0) as rating_2,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 3), 0) as rating_3,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 4), 0) as rating_4,
              coalesce(sum(c.sign) filter (where c.product_id is null and c.rating = 5), 0) as rating_5,
              1 as version
       from c group by c.org_id) d),
    (select jsonb_agg(d) from (
       select c.product_id, c.org_id, sum(c.sign) as public_count, sum(c.sign * c.rating) as rating_sum,
              coalesce(sum(c.sign) filter (where c.rating = 1), 0) as rating_1,
              coalesce(sum(c.sign) filter (where c.rating = 2), 0) as rating_2,
              coalesce(sum(c.sign) filter (where c.rating = 3), 0) as rating_3,
              coalesce(sum(c.sign) filter (where c.rating = 4), 0) as rating_4,
              coalesce(sum(c.sign) filter (where c.rating = 5), 0) as rating_5
       from c where c.product_id is not null group by c.product_id, c.org_id) d)
    into deltas, product_deltas;
  if deltas is not null then
    perform plaudit.add_review_statistics(deltas);
  end if;
  if product_deltas is not null then
    perform plaudit.add_product_review_statistics(product_deltas);
  end if;
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.reviews_count_updated() IS 'The review statistics follow every update that moves a review in or out of public view.';

CREATE FUNCTION plaudit.reviews_emit_changes() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  at text := to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
begin
  if new.is_hidden is distinct from old.is_hidden then
    perform plaudit.emit_event(new.org_id, 'review.moderated', jsonb_build_object(
      'id', new.id, 'form_id', new.form_id, 'product', plaudit.review_product_json(new.product_id)::jsonb,
      'action', case when new.is_hidden then 'hide' else 'unhide' end,
      'is_hidden', new.is_hidden,
      'reason', nullif(current_setting('plaudit.moderation_reason', true), ''),
      'actor', plaudit.current_actor(), 'moderated_at', at,
      'moderation_chain', plaudit.moderation_chain_head(new.org_id)));
  end if;
  if new.verification_status is distinct from old.verification_status then
    perform plaudit.emit_event(new.org_id, 'review.verified', jsonb_build_object(
      'id', new.id, 'form_id', new.form_id, 'product', plaudit.review_product_json(new.product_id)::jsonb,
      'verification_status', new.verification_status, 'previous_status', old.verification_status,
      'method', new.verification_method, 'reason', new.verification_reason,
      'actor', plaudit.current_actor(), 'verified_at', at));
  end if;
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.reviews_emit_changes() IS 'Every change of a review''s visibility or verification status emits review.moderated or review.verified.';

CREATE FUNCTION plaudit.reviews_emit_created() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  perform plaudit.emit_event(n.org_id, 'review.created', jsonb_build_object(
    'id', n.id, 'form_id', n.form_id, 'rating', n.rating, 'title', n.title, 'content', n.content,
    'reviewer_name', n.reviewer_name, 'verification_status', n.verification_status,
    'custom_fields', n.custom_fields, 'product', plaudit.review_product_json(n.product_id)::jsonb,
    'created_at', to_char(n.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
  from new_reviews n
  -- An import announces itself once (import.completed), not each review it brings.
  where n.source <> 'import'
  order by n.created_at, n.id;
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.reviews_emit_created() IS 'Every inserted review but an imported one gets its review.created event, in the transaction that inserts it.';

CREATE FUNCTION plaudit.reviews_guard_update() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  if (new.id, new.org_id, new.form_id, new.rating, new.title, new.content, new.reviewer_name,
      new.reviewer_email, new.custom_fields, new.created_at)
     is distinct from
     (old.id, old.org_id, old.form_id, old.rating, old.title, old.content, old.reviewer_name,
      old.reviewer_email, old.custom_fields, old.created_at)
     -- Forgetting the reviewer (plaudit.erase_reviewer) is the one rewrite: the address, name and
     -- answers gone, the text kept or replaced by the removal notice, nothing else changed.
     and not ((new.id, new.org_id, new.form_id, new.rating, new.created_at)
                is not distinct from (old.id, old.org_id, old.form_id, old.rating, old.created_at)
              and new.reviewer_email is null and new.reviewer_name = 'Anonymous' and new.custom_fields = '{}'
              and (new.title is not distinct from old.title or new.title = plaudit.erasure_notice())
              and (new.content = old.content or new.content = plaudit.erasure_notice()))
  then
    raise exception 'a review cannot be rewritten: only moderation and verification may change it'
      using errcode = 'restrict_violation';
  end if;
  if new.verification_status is distinct from old.verification_status then
    if not ((old.verification_status = 'pending' and new.verification_status in ('verified', 'rejected'))
            or (old.verification_status = 'unverified' and new.verification_status = 'verified'
                and new.verification_method is not distinct from 'invitation')) then
      raise exception 'a review''s verification status can only move from pending to verified or rejected'
        using errcode = 'restrict_violation';
    end if;
  elsif (new.verification_method, new.verification_at, new.verification_key_id, new.verification_token_id,
         new.verification_order_hash, new.verification_reason)
        is distinct from
        (old.verification_method, old.verification_at, old.verification_key_id, old.verification_token_id,
         old.verification_order_hash, old.verification_reason)
  then
    raise exception 'verification provenance changes only with the verification status'
      using errcode = 'restrict_violation';
  end if;
  -- Where a review came from, and what was offered for it, are written once.
  if (new.source, new.source_platform, new.imported_as_verified, new.incentive::jsonb)
     is distinct from (old.source, old.source_platform, old.imported_as_verified, old.incentive::jsonb) then
    raise exception 'a review cannot be rewritten: only moderation and verification may change it'
      using errcode = 'restrict_violation';
  end if;
  -- A helpful vote (plaudit.vote_helpful) changes only the count: the review itself did not change.
  if new.helpful_count is not distinct from old.helpful_count then
    new.updated_at := now();
  end if;
  return new;
end
$$;

COMMENT ON FUNCTION plaudit.reviews_guard_update() IS 'A review is never rewritten (but for forgetting its reviewer): only moderation and verification change it, and its verification status only moves forward.';

CREATE FUNCTION plaudit.reviews_record_moderation() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  if new.is_hidden is distinct from old.is_hidden then
    perform plaudit.append_moderation_entry(
      new.org_id, new.id, case when new.is_hidden then 'hide' else 'unhide' end,
      nullif(current_setting('plaudit.moderation_reason', true), ''), plaudit.current_actor());
  end if;
  if new.verification_status is distinct from old.verification_status then
    perform plaudit.append_moderation_entry(
      new.org_id, new.id,
      case when new.verification_status = 'rejected' then 'reject'
           when new.verification_method = 'manual' then 'approve'
           else 'verify' end,
      new.verification_reason, plaudit.current_actor());
  end if;
  return null;
end
$$;

COMMENT ON FUNCTION plaudit.reviews_record_moderation() IS 'Every hide, unhide and verification decision on a review is appended to its organization''s moderation trail.';

CREATE FUNCTION plaudit.reviews_refuse_delete() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  raise exception 'reviews cannot be deleted; hide them through moderation instead'
    using errcode = 'restrict_violation';
end
$$;

COMMENT ON FUNCTION plaudit.reviews_refuse_delete() IS 'Reviews are never deleted or truncated, whoever asks: moderation hides them instead.';

CREATE FUNCTION plaudit.rotate_api_key(p_key_id uuid, p_grace_seconds integer DEFAULT 0) RETURNS TABLE(id uuid, org_id uuid, name text, scope text, prefix text, key text, rate_limit_per_minute integer, created_at timestamp with time zone, old_key_expires_at timestamp with time zone)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  old_key record;
  new_key record;
begin
  if p_grace_seconds is null or p_grace_seconds not between 0 and 86400 then
    raise exception 'expires_in_seconds: must be between 0 and 86400' using errcode = 'invalid_parameter_value';
  end if;
  update plaudit.api_keys as k set revoked_at = now() + make_interval(secs => p_grace_seconds)
    where k.id = p_key_id and k.revoked_at is null and k.replaced_by is null
    returning k.id, k.org_id, k.name, k.scope, k.rate_limit_per_minute, k.revoked_at into old_key;
  if not found then
    return;
  end if;
  select * into new_key
    from plaudit.issue_api_key(old_key.org_id, old_key.name, old_key.scope,
                               old_key.rate_limit_per_minute);
  update plaudit.api_keys as k set replaced_by = new_key.id where k.id = old_key.id;
  return query select new_key.id, new_key.org_id, new_key.name, new_key.scope, new_key.prefix,
                      new_key.key, new_key.rate_limit_per_minute, new_key.created_at, old_key.revoked_at;
end
$$;

COMMENT ON FUNCTION plaudit.rotate_api_key(p_key_id uuid, p_grace_seconds integer) IS 'Revokes a key, at once or after p_grace_seconds, and issues its successor (same name, scope and limit) in one transaction.';

CREATE FUNCTION plaudit.rotate_webhook_secret(p_endpoint_id uuid) RETURNS TABLE(id uuid, secret text, previous_secret_expires_at timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  new_secret text := plaudit.new_webhook_secret();
begin
  return query
    update plaudit.webhook_endpoints as w
    set previous_secret = w.secret,
        previous_secret_expires_at = now() + interval '24 hours',
        secret = new_secret,
        secret_rotated_at = now()
    where w.id = p_endpoint_id and w.org_id = plaudit.current_org_id()
    returning w.id, new_secret, w.previous_secret_expires_at;
end
$$;

COMMENT ON FUNCTION plaudit.rotate_webhook_secret(p_endpoint_id uuid) IS 'Issues a new signing secret for an endpoint of the caller''s tenant; the old one keeps signing alongside for 24 hours.';

CREATE FUNCTION plaudit.run_delivery_maintenance() RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  -- A rotation's previous secret stops signing after its 24 hours.
  update plaudit.webhook_endpoints
    set previous_secret = null, previous_secret_expires_at = null
    where previous_secret is not null and previous_secret_expires_at <= now();
  -- Expired export files go; the job row stays (status completed, expires_at in the past).
  delete from plaudit.export_chunks c
    using plaudit.exports e
    where c.export_id = e.id and e.expires_at <= now();
  delete from plaudit.exports where created_at < now() - interval '90 days';
  -- The delivery log and the outboxes keep 30 days of finished work.
  delete from plaudit.webhook_deliveries
    where status <> 'pending' and created_at < now() - interval '30 days';
  delete from plaudit.events e
    where e.created_at < now() - interval '30 days'
      and not exists (select from plaudit.webhook_deliveries d
                      where d.event_id = e.id and d.status = 'pending');
  delete from plaudit.email_outbox
    where status in ('sent', 'failed') and created_at < now() - interval '30 days';
  delete from plaudit.cdn_purges
    where status in ('sent', 'failed') and created_at < now() - interval '30 days';
end
$$;

COMMENT ON FUNCTION plaudit.run_delivery_maintenance() IS 'Housekeeping of the delivery tables: drops expired rotation secrets and export files, and old deliveries, events, e-mails and CDN purges.';

CREATE FUNCTION plaudit.run_exports(p_budget_ms integer DEFAULT 2000, p_rows integer DEFAULT 10000) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  deadline timestamptz := clock_timestamp() + make_interval(secs => p_budget_ms / 1000.0);
  job uuid;
  done boolean;
  left_over integer;
begin
  while clock_timestamp() < deadline loop
    select x.id into job from plaudit.exports x
      where x.status in ('pending', 'processing')
      order by x.created_at
      limit 1
      for update skip locked;
    if job is null then
      return 0;
    end if;
    done := false;
    while not done and clock_timestamp() < deadline loop
      begin
        done := plaudit.export_step(job, p_rows);
      exception when others then
        update plaudit.exports
          set status = 'failed', error = left(sqlerrm, 500), completed_at = clock_timestamp()
          where id = job;
        delete from plaudit.export_chunks where export_id = job;
        done := true;
      end;
    end loop;
    job := null;
  end loop;
  select count(*)::integer into left_over from plaudit.exports where status in ('pending', 'processing');
  return left_over;
end
$$;

COMMENT ON FUNCTION plaudit.run_exports(p_budget_ms integer, p_rows integer) IS 'Works through pending exports, oldest first, until p_budget_ms has passed; answers how many still wait.';

CREATE FUNCTION plaudit.run_imports(p_budget_ms integer DEFAULT 2000, p_rows integer DEFAULT 2000) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  deadline timestamptz := clock_timestamp() + make_interval(secs => p_budget_ms / 1000.0);
  job plaudit.imports;
  taken integer;
  waiting integer;
begin
  loop
    select * into job from plaudit.imports i
     where i.status in ('pending', 'processing')
     order by i.created_at, i.id
     limit 1 for update skip locked;
    exit when job.id is null;
    update plaudit.imports set status = 'processing' where id = job.id and status = 'pending';
    loop
      begin
        taken := plaudit.import_batch(job, p_rows);
      exception when others then
        update plaudit.imports set status = 'failed', error = left(sqlerrm, 500), completed_at = clock_timestamp()
         where id = job.id;
        delete from plaudit.import_rows where import_id = job.id;
        taken := -1;
      end;
      exit when taken <= 0 or clock_timestamp() >= deadline;
    end loop;
    if taken = 0 then
      update plaudit.imports set status = 'completed', completed_at = clock_timestamp()
       where id = job.id returning * into job;
      if not job.dry_run and job.imported > 0 then
        perform plaudit.append_moderation_entry(job.org_id, null, 'import',
          format('imported %s reviews from %s (%s duplicates, %s rows refused), import %s', job.imported, job.format,
                 job.duplicates, jsonb_array_length(job.rejected), job.id),
          job.actor);
        -- Public answers show the imported reviews: their version (and ETags) move.
        perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(job.org_id)));
      end if;
      perform plaudit.emit_event(job.org_id, 'import.completed', plaudit.import_json(job)::jsonb);
    end if;
    exit when clock_timestamp() >= deadline;
  end loop;
  select count(*)::integer into waiting from plaudit.imports i where i.status in ('pending', 'processing');
  return case when job.id is null then 0 else waiting end;
end
$$;

COMMENT ON FUNCTION plaudit.run_imports(p_budget_ms integer, p_rows integer) IS 'Applies waiting imports in batches until the time budget is spent; completes each with its event and chain entry.';

CREATE FUNCTION plaudit.run_maintenance() RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  perform plaudit.prune_rate_limits();
end
$$;

COMMENT ON FUNCTION plaudit.run_maintenance() IS 'Housekeeping that runs every minute: prunes the rate-limit windows.';

CREATE FUNCTION plaudit.run_review_request_maintenance() RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  perform plaudit.queue_due_reminders();
  delete from plaudit.idempotency_keys where created_at < now() - interval '24 hours';
end
$$;

COMMENT ON FUNCTION plaudit.run_review_request_maintenance() IS 'What runs every minute for review requests: due reminders, and idempotency keys past their 24 hours.';

CREATE FUNCTION plaudit.session_for_read(p_token_hash bytea, p_org_id uuid, p_rate_limit integer) RETURNS TABLE(org_id uuid, scope text, within_limit boolean)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    SET plan_cache_mode TO 'auto'
    AS $$
  select m.org_id, case m.role when 'member' then 'write' else 'admin' end,
         coalesce((select c.hits from plaudit.rate_limit_counters c
                    where c.bucket = 'session:' || s.id and c.window_start = date_trunc('minute', now())), 0)
         < p_rate_limit
    from plaudit.live_session(p_token_hash) s
    join plaudit.members m on m.org_id = p_org_id and lower(m.email) = lower(s.email)
$$;

COMMENT ON FUNCTION plaudit.session_for_read(p_token_hash bytea, p_org_id uuid, p_rate_limit integer) IS 'As plaudit.api_key_for_read, for a session: its person''s organization and scope, and whether requests are left this minute.';

CREATE FUNCTION plaudit.session_idle_timeout() RETURNS interval
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select interval '7 days'
$$;

COMMENT ON FUNCTION plaudit.session_idle_timeout() IS 'How long a session may sit unused: 7 days.';

CREATE FUNCTION plaudit.session_summary(p_token_hash bytea) RETURNS json
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select json_build_object(
    'email', s.email,
    'name', (select m.name from plaudit.members m where lower(m.email) = lower(s.email) and m.name is not null
              order by m.created_at limit 1),
    'expires_at', s.expires_at,
    'idle_expires_at', least(s.expires_at, greatest(s.last_seen_at, now() - interval '1 minute') + plaudit.session_idle_timeout()),
    'organizations', coalesce((
      select json_agg(json_build_object('id', o.id, 'name', o.name, 'slug', o.slug, 'role', m.role,
                                        'scope', case m.role when 'member' then 'write' else 'admin' end)
                      order by o.name, o.id)
        from plaudit.members m join plaudit.organizations o on o.id = m.org_id
       where lower(m.email) = lower(s.email)), '[]'::json))
  from plaudit.live_session(p_token_hash) s
$$;

COMMENT ON FUNCTION plaudit.session_summary(p_token_hash bytea) IS 'What the dashboard knows of its session: the person and every organization they belong to.';

CREATE FUNCTION plaudit.sign_in_code_hash(p_challenge_id uuid, p_code text) RETURNS bytea
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select sha256(convert_to(p_challenge_id::text || ':' || coalesce(p_code, ''), 'UTF8'))
$$;

COMMENT ON FUNCTION plaudit.sign_in_code_hash(p_challenge_id uuid, p_code text) IS 'The hash of a challenge''s code: salted with the challenge, so equal codes hash apart.';

CREATE FUNCTION plaudit.sign_up(p_org_name text, p_slug text, p_email text, p_name text, p_client text, p_link_base text, p_client_limit integer DEFAULT 10) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  new_org uuid;
  hit record;
begin
  select * into hit from plaudit.hit_rate_limit('sign-up:client:' || encode(sha256(convert_to(coalesce(p_client, ''), 'UTF8')), 'hex'), 3);
  if not hit.allowed then
    return 'rate_limited';
  end if;
  begin
    insert into plaudit.organizations (name, slug) values (p_org_name, p_slug) returning id into new_org;
  exception when unique_violation then
    raise unique_violation using message = 'slug: is already taken';
  end;
  insert into plaudit.members (org_id, email, name, role)
  values (new_org, lower(btrim(p_email)), nullif(btrim(coalesce(p_name, '')), ''), 'owner');
  return plaudit.request_sign_in(p_email, p_client, p_link_base, p_client_limit);
end
$$;

COMMENT ON FUNCTION plaudit.sign_up(p_org_name text, p_slug text, p_email text, p_name text, p_client text, p_link_base text, p_client_limit integer) IS 'Creates an organization with its person as the owner, then sends them a sign-in mail.';

CREATE FUNCTION plaudit.signal_target(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid) RETURNS TABLE(rate_allowed boolean, rate_remaining integer, rate_reset bigint, id uuid, org_id uuid, form_id uuid, product_id uuid)
    LANGUAGE sql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select h.allowed, h.remaining, h.reset_at, r.id, r.org_id, r.form_id, r.product_id
    from plaudit.hit_rate_limit(p_rate_bucket, p_rate_limit) h
    left join lateral (
      select rv.id, rv.org_id, rv.form_id, rv.product_id
        from plaudit.organizations o
        left join plaudit.public_profiles p on p.org_id = o.id
        join plaudit.reviews rv on rv.org_id = o.id and rv.id = p_review_id
       where h.allowed and o.slug = p_slug and coalesce(p.enabled, true)
         and plaudit.review_is_public(rv.is_hidden, rv.verification_status)) r on true
$$;

COMMENT ON FUNCTION plaudit.signal_target(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid) IS 'Counts a public signal''s hit in its address''s window and finds the published review it names, within the limit.';

CREATE FUNCTION plaudit.submit_requested_review(p_token text, p_rate_bucket text, p_rate_limit integer, p_rating integer, p_title text, p_content text, p_reviewer_name text, p_reviewer_email text, p_custom_fields jsonb, p_order_id text, p_verify_url_base text, p_honeypot boolean DEFAULT false, p_product_external_id text DEFAULT NULL::text) RETURNS TABLE(rate_allowed boolean, rate_remaining integer, rate_reset bigint, error_code text, error_message text, id uuid, form_id uuid, rating integer, title text, content text, reviewer_name text, reviewer_email text, verification_status text, is_hidden boolean, created_at timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  request_id uuid := plaudit.review_request_from_token(p_token);
  q plaudit.review_requests;
  s record;
  product uuid;
  subject text;
begin
  rate_allowed := true; rate_remaining := p_rate_limit; rate_reset := 0;
  -- Locked: two submissions of one subject through one request queue here.
  select * into q from plaudit.review_requests rr where rr.id = request_id for update;
  if not found then
    error_code := 'P0002'; error_message := 'Review request not found';
    return next;
    return;
  end if;
  if p_product_external_id is not null then
    select rp.product_id, p.name into product, subject
      from plaudit.review_request_products rp
      join plaudit.products p on p.id = rp.product_id and p.org_id = rp.org_id
     where rp.org_id = q.org_id and rp.request_id = q.id and p.external_id = p_product_external_id;
    if not found then
      error_code := '22023'; error_message := 'product_external_id: this review request does not name this product';
      return next;
      return;
    end if;
  end if;
  if exists (select from plaudit.review_request_reviews w
              where w.org_id = q.org_id and w.request_id = q.id and w.product_id is not distinct from product) then
    error_code := '23505';
    error_message := 'Your review of ' || coalesce(subject, plaudit.brand_name(q.org_id))
      || ' was already written through this request';
    return next;
    return;
  end if;
  select * into s from plaudit.submit_review(
    p_rate_bucket, p_rate_limit, q.form_id, p_rating, p_title, p_content, p_reviewer_name,
    p_reviewer_email, p_custom_fields, coalesce(nullif(btrim(p_order_id), ''), q.order_id),
    p_verify_url_base, p_honeypot, product, null, q.id);
  if s.rate_allowed and s.error_code is null and not p_honeypot then
    perform plaudit.apply_review_request_event(q.id, 'completed', 'completed', now(),
      jsonb_build_object('review_id', s.id));
    -- The completion trigger has linked the review already when it completed the request.
    insert into plaudit.review_request_reviews (org_id, request_id, product_id, review_id)
    values (q.org_id, q.id, product, s.id)
    on conflict do nothing;
    -- Written from the link mailed to the request's address, and signed with that address: the
    -- review is verified by the invitation, and no confirmation mail is needed (forms that want
    -- each review approved by hand stay pending).
    if lower(btrim(coalesce(p_reviewer_email, ''))) = lower(btrim(q.email))
       and s.verification_status in ('pending', 'unverified')
       and (select f.verification_mode from plaudit.review_forms f where f.id = q.form_id) <> 'manual'
    then
      perform set_config('plaudit.actor', 'reviewer:invitation', true);
      update plaudit.reviews r
         set verification_status = 'verified', verification_method = 'invitation', verification_at = now()
       where r.id = s.id;
      perform set_config('plaudit.actor', '', true);
      update plaudit.email_outbox e
         set status = 'failed', last_error = 'cancelled: verified by invitation', locked_until = null
       where e.org_id = q.org_id and e.template = 'review_verification' and e.status = 'queued'
         and e.data ->> 'review_id' = s.id::text;
      s.verification_status := 'verified';
    end if;
  end if;
  rate_allowed := s.rate_allowed; rate_remaining := s.rate_remaining; rate_reset := s.rate_reset;
  error_code := s.error_code; error_message := s.error_message;
  id := s.id; form_id := s.form_id; rating := s.rating; title := s.title; content := s.content;
  reviewer_name := s.reviewer_name; reviewer_email := s.reviewer_email;
  verification_status := s.verification_status; is_hidden := s.is_hidden; created_at := s.created_at;
  return next;
end
$$;

COMMENT ON FUNCTION plaudit.submit_requested_review(p_token text, p_rate_bucket text, p_rate_limit integer, p_rating integer, p_title text, p_content text, p_reviewer_name text, p_reviewer_email text, p_custom_fields jsonb, p_order_id text, p_verify_url_base text, p_honeypot boolean, p_product_external_id text) IS 'Submits a landing page''s review of the business or of a product the request names, once per subject, and completes its request.';

CREATE FUNCTION plaudit.submit_review(p_rate_bucket text, p_rate_limit integer, p_form_id uuid, p_rating integer, p_title text, p_content text, p_reviewer_name text, p_reviewer_email text, p_custom_fields jsonb, p_order_id text, p_verify_url_base text, p_honeypot boolean DEFAULT false, p_product_id uuid DEFAULT NULL::uuid, p_product_external_id text DEFAULT NULL::text, p_request_id uuid DEFAULT NULL::uuid) RETURNS TABLE(rate_allowed boolean, rate_remaining integer, rate_reset bigint, error_code text, error_message text, id uuid, form_id uuid, rating integer, title text, content text, reviewer_name text, reviewer_email text, verification_status text, is_hidden boolean, created_at timestamp with time zone, custom_fields jsonb, verification_method text, verification_at timestamp with time zone, review text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
declare
  hit record;
  f record;
  answers jsonb;
  status text;
  order_hash text;
  r plaudit.reviews;
  token text;
  failed_constraint text;
  product_field text;
  product_ref uuid;
  product_archived boolean;
  proof_refusal text;
begin
  -- Counted first and outside the block below: a refused submission still counts.
  select * into hit from plaudit.hit_rate_limit(p_rate_bucket, p_rate_limit);
  rate_allowed := hit.allowed;
  rate_remaining := hit.remaining;
  rate_reset := hit.reset_at;
  if not hit.allowed then
    error_code := 'rate_limited';
    return next;
    return;
  end if;

  begin
    select fm.id, fm.org_id, fm.verification_mode, fm.custom_fields,
           coalesce((select rq.incentive from plaudit.review_requests rq where rq.id = p_request_id),
                    fm.incentive) as incentive into f
      from plaudit.review_forms fm
      where fm.id = p_form_id and fm.deleted_at is null and fm.is_active;
    if not found then
      raise exception 'Review form not found' using errcode = 'no_data_found';
    end if;
    answers := plaudit.check_custom_field_values(f.custom_fields, p_custom_fields);

    -- The product reviewed, by either id, of the form's organization only; an archived product
    -- keeps its reviews but takes no new ones.
    product_field := case when p_product_id is not null then 'product_id'
                          when p_product_external_id is not null then 'product_external_id' end;
    if product_field is not null then
      select p.id, p.archived into product_ref, product_archived from plaudit.products p
       where p.org_id = f.org_id
         and (p.id = p_product_id or (p_product_id is null and p.external_id = p_product_external_id));
      if not found then
        raise exception '%: no such product in this organization', product_field
          using errcode = 'invalid_parameter_value';
      elsif product_archived then
        raise exception '%: the product is archived and takes no new reviews', product_field
          using errcode = 'invalid_parameter_value';
      end if;
    end if;

    status := case f.verification_mode when 'none' then 'unverified' else 'pending' end;

    if p_honeypot then
      -- A bot filled the trap field: it gets a convincing answer and nothing is stored.
      id := gen_random_uuid(); form_id := f.id; rating := p_rating; title := p_title;
      content := p_content; reviewer_name := p_reviewer_name; reviewer_email := p_reviewer_email;
      verification_status := status; is_hidden := false; created_at := now(); custom_fields := answers;
      r.id := id; r.form_id := form_id; r.rating := rating; r.title := title; r.content := content;
      r.reviewer_name := reviewer_name; r.reviewer_email := reviewer_email; r.verification_status := status;
      r.is_hidden := false; r.created_at := created_at; r.custom_fields := answers; r.product_id := product_ref;
      r.source := case when p_request_id is null then 'form' else 'invitation' end; r.incentive := f.incentive;
      review := plaudit.review_json(r, null);
      return next;
      return;
    end if;

    -- The duplicate rule, race-free: submissions of one address to one form queue here. The same
    -- words about two products (a request's page asks about several) are two reviews.
    perform pg_advisory_xact_lock(hashtextextended(f.id::text || ':' || lower(p_reviewer_email), 0));
    if exists (select from plaudit.reviews rv
               where rv.form_id = f.id and lower(rv.reviewer_email) = lower(p_reviewer_email)
                 and rv.created_at > now() - interval '24 hours' and rv.content = p_content
                 and rv.product_id is not distinct from product_ref) then
      raise exception 'This review was already submitted: the same e-mail address sent the same text to this form within the last 24 hours'
        using errcode = 'unique_violation';
    end if;

    -- An order that does not prove the purchase leaves the review pending, with the reason why.
    if f.verification_mode = 'purchase_proof' and nullif(btrim(p_order_id), '') is not null then
      proof_refusal := plaudit.purchase_proof_refusal(f.org_id, p_order_id, p_reviewer_email, product_ref);
      if proof_refusal is null then
        status := 'verified';
        order_hash := plaudit.order_hash(f.org_id, btrim(p_order_id));
      end if;
    end if;

    insert into plaudit.reviews as rv
      (org_id, form_id, rating, title, content, reviewer_name, reviewer_email, custom_fields,
       verification_status, verification_method, verification_at, verification_order_hash, product_id,
       verification_reason, source, incentive)
    values
      (f.org_id, f.id, p_rating, nullif(p_title, ''), p_content, p_reviewer_name, p_reviewer_email, answers,
       status, case when order_hash is not null then 'purchase_proof' end,
       case when order_hash is not null then now() end, order_hash, product_ref, proof_refusal,
       case when p_request_id is null then 'form' else 'invitation' end, f.incentive)
    returning rv.* into r;

    if f.verification_mode = 'email' then
      token := plaudit.random_base62(43);
      insert into plaudit.review_verification_tokens (org_id, review_id, token_hash)
      values (f.org_id, r.id, sha256(convert_to(token, 'UTF8')));
      perform plaudit.enqueue_email(
        f.org_id, r.reviewer_email, 'review_verification',
        jsonb_build_object('review_id', r.id, 'token', token, 'reviewer_name', r.reviewer_name,
                           'verify_url', p_verify_url_base || '/api/v1/public/verifications/' || token),
        'en', 'review_verification:' || r.id);
    end if;

    id := r.id; form_id := r.form_id; rating := r.rating; title := r.title; content := r.content;
    reviewer_name := r.reviewer_name; reviewer_email := r.reviewer_email;
    verification_status := r.verification_status; is_hidden := r.is_hidden; created_at := r.created_at;
    verification_method := r.verification_method; verification_at := r.verification_at;
    custom_fields := r.custom_fields;
    review := plaudit.review_json(r, null);
    return next;
  exception
    when no_data_found or unique_violation or check_violation or invalid_parameter_value
         or string_data_right_truncation or not_null_violation then
      get stacked diagnostics error_code = returned_sqlstate, error_message = message_text,
                              failed_constraint = constraint_name;
      if error_code = '23514' and failed_constraint <> '' then
        error_message := regexp_replace(regexp_replace(failed_constraint, '^reviews_', ''), '_check$', '') || ': is invalid';
      end if;
      return next;
  end;
end
$_$;

COMMENT ON FUNCTION plaudit.submit_review(p_rate_bucket text, p_rate_limit integer, p_form_id uuid, p_rating integer, p_title text, p_content text, p_reviewer_name text, p_reviewer_email text, p_custom_fields jsonb, p_order_id text, p_verify_url_base text, p_honeypot boolean, p_product_id uuid, p_product_external_id text, p_request_id uuid) IS 'Submits a public review in one round trip; answers the review or an error code.';

CREATE FUNCTION plaudit.suppression_reason(p_org_id uuid, p_email text) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select s.reason from plaudit.email_suppressions s
  where s.org_id = p_org_id and s.email_key = plaudit.email_key(p_org_id, p_email)
$$;

COMMENT ON FUNCTION plaudit.suppression_reason(p_org_id uuid, p_email text) IS 'The reason the organization suppresses an address, or null when it does not.';

CREATE FUNCTION plaudit.take_review_request_quota(p_org_id uuid, p_count integer) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  quota integer := coalesce((select s.daily_quota from plaudit.review_request_settings s where s.org_id = p_org_id), 1000);
  today date := (now() at time zone 'UTC')::date;
  used integer;
begin
  if p_count <= 0 then
    return 0;
  end if;
  insert into plaudit.review_request_usage as u (org_id, day, requests)
  values (p_org_id, today, p_count)
  on conflict (org_id, day) do update set requests = u.requests + excluded.requests
  returning u.requests into used;
  if used > quota then
    raise exception 'Daily quota of % review requests reached: % remaining today (UTC), this call needs %',
      quota, greatest(quota - (used - p_count), 0), p_count
      using errcode = 'program_limit_exceeded';
  end if;
  return quota - used;
end
$$;

COMMENT ON FUNCTION plaudit.take_review_request_quota(p_org_id uuid, p_count integer) IS 'Takes p_count requests from today''s quota and answers what remains, or raises program_limit_exceeded and takes nothing.';

CREATE FUNCTION plaudit.touch_updated_at() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  new.updated_at := now();
  return new;
end
$$;

COMMENT ON FUNCTION plaudit.touch_updated_at() IS 'Keeps updated_at honest on every table that has one: an update sets it to now().';

CREATE FUNCTION plaudit.track_review_request(p_token text, p_kind text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  request_id uuid := plaudit.review_request_from_token(p_token);
begin
  if request_id is null or p_kind not in ('opened', 'clicked') then
    return false;
  end if;
  update plaudit.review_requests q
    set open_count = q.open_count + case when p_kind = 'opened' then 1 else 0 end,
        click_count = q.click_count + case when p_kind = 'clicked' then 1 else 0 end
    where q.id = request_id;
  if not found then
    return false;
  end if;
  perform plaudit.apply_review_request_event(request_id, p_kind, p_kind, now(), '{}');
  return true;
end
$$;

COMMENT ON FUNCTION plaudit.track_review_request(p_token text, p_kind text) IS 'Counts an open or a click of a request''s link, the first of each an event of its timeline; answers whether the token was valid.';

CREATE FUNCTION plaudit.unsubscribe_review_request(p_token text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  request_id uuid := plaudit.review_request_from_token(p_token);
  q plaudit.review_requests;
  already boolean;
begin
  select * into q from plaudit.review_requests rr where rr.id = request_id;
  if not found then
    return 'invalid';
  end if;
  already := plaudit.suppression_reason(q.org_id, q.email) is not null;
  perform plaudit.apply_review_request_event(q.id, 'unsubscribed', 'unsubscribed', now(), '{}');
  -- An address suppressed for another reason (a bounce, by hand) stays so.
  return case when already then 'already' else 'unsubscribed' end;
end
$$;

COMMENT ON FUNCTION plaudit.unsubscribe_review_request(p_token text) IS 'Puts a request''s address on its organization''s suppression list; answers unsubscribed, already or invalid.';

CREATE FUNCTION plaudit.upsert_orders(p_org_id uuid, p_orders jsonb) RETURNS TABLE(inserted integer, updated integer)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
begin
  -- Statements of their own: the items of an order loaded again go before its new ones come.
  delete from plaudit.order_items oi
   where oi.org_id = p_org_id
     and oi.order_id in (select btrim(o.order_id) from jsonb_to_recordset(p_orders) as o(order_id text));
  return query
  with input as (
    select distinct on (btrim(o.order_id)) btrim(o.order_id) as order_id, o.email, o.purchased_at, o.items
    from rows from (jsonb_to_recordset(p_orders) as (order_id text, email text, purchased_at timestamptz, items jsonb))
      with ordinality as o(order_id, email, purchased_at, items, n)
    order by btrim(o.order_id), o.n desc
  ), written as (
    insert into plaudit.orders as t (org_id, order_id, email, purchased_at)
    select p_org_id, i.order_id, i.email, i.purchased_at from input i order by i.order_id
    on conflict (org_id, order_id) do update set email = excluded.email, purchased_at = excluded.purchased_at
    returning (t.xmax = 0) as is_new
  ), items as (
    insert into plaudit.order_items (org_id, order_id, position, product_external_id, quantity)
    select p_org_id, i.order_id, (x.n - 1)::smallint, btrim(x.product_external_id), coalesce(x.quantity, 1)
      from input i,
           rows from (jsonb_to_recordset(coalesce(i.items, '[]'))
                      as (product_external_id text, quantity integer)) with ordinality as x(product_external_id, quantity, n)
  )
  select (count(*) filter (where w.is_new))::integer, (count(*) filter (where not w.is_new))::integer from written w;
end
$$;

COMMENT ON FUNCTION plaudit.upsert_orders(p_org_id uuid, p_orders jsonb) IS 'Inserts or updates up to 1,000 orders of an organization, replacing their items; answers how many were inserted and how many updated.';

CREATE FUNCTION plaudit.upsert_products(p_rows jsonb) RETURNS TABLE(idx integer, outcome text, error text)
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
#variable_conflict use_column
declare
  tenant uuid := plaudit.current_org_id();
begin
  if tenant is null then
    raise exception 'no tenant in this transaction' using errcode = 'insufficient_privilege';
  end if;

  return query
  with input as (
    select (r ->> 'index')::integer as idx, r, r ->> 'external_id' as external_id,
           min((r ->> 'index')::integer) over (partition by r ->> 'external_id') as first_idx
      from jsonb_array_elements(p_rows) r
  ), merged as (
    -- What each row makes of the product: its fields over the stored ones.
    select i.idx, i.first_idx, i.external_id, i.r ->> 'gtin' as given_gtin, p as stored,
           case when i.r ? 'name' then i.r ->> 'name' else p.name end as name,
           case when i.r ? 'url' then i.r ->> 'url' else p.url end as url,
           case when i.r ? 'image_url' then i.r ->> 'image_url' else p.image_url end as image_url,
           case when i.r ? 'sku' then i.r ->> 'sku' else p.sku end as sku,
           case when i.r ? 'gtin' then i.r ->> 'gtin' else p.gtin end as gtin,
           case when i.r ? 'mpn' then i.r ->> 'mpn' else p.mpn end as mpn,
           case when i.r ? 'brand' then i.r ->> 'brand' else p.brand end as brand,
           case when i.r ? 'group' then i.r ->> 'group' else p.group_key end as group_key,
           coalesce(case when i.r ? 'archived' then (i.r ->> 'archived')::boolean else p.archived end, false)
             as archived
      from input i
      left join plaudit.products p on p.org_id = tenant and p.external_id = i.external_id
  ), checked as (
    -- Each row with the first reason it is refused, and whether it changes the stored product.
    select m.*, (m.stored).id as existing_id,
           case
             when m.first_idx <> m.idx then 'external_id: repeats the external_id of row ' || m.first_idx
             when not coalesce(plaudit.gtin_is_valid(m.given_gtin), true) then
               'gtin: must be 8, 12, 13 or 14 digits with a valid check digit'
           end as error,
           (m.stored).id is not null
             and (m.name, m.url, m.image_url, m.sku, m.gtin, m.mpn, m.brand, m.group_key, m.archived)
                 is not distinct from
                 ((m.stored).name, (m.stored).url, (m.stored).image_url, (m.stored).sku, (m.stored).gtin,
                  (m.stored).mpn, (m.stored).brand, (m.stored).group_key, (m.stored).archived) as same
      from merged m
  ), updated as (
    update plaudit.products p
       set name = c.name, url = c.url, image_url = c.image_url, sku = c.sku, gtin = c.gtin, mpn = c.mpn,
           brand = c.brand, group_key = c.group_key, archived = c.archived
      from checked c
     where c.error is null and not c.same and p.id = c.existing_id
    returning c.idx
  ), inserted as (
    -- A concurrent call may have added an external_id since: that row is reported, not inserted.
    insert into plaudit.products as p
      (org_id, external_id, name, url, image_url, sku, gtin, mpn, brand, group_key, archived)
    select tenant, c.external_id, c.name, c.url, c.image_url, c.sku, c.gtin, c.mpn, c.brand, c.group_key, c.archived
      from checked c
     where c.error is null and c.existing_id is null
     order by c.idx
    on conflict (org_id, external_id) do nothing
    returning p.external_id
  )
  select c.idx,
         case
           when c.error is not null then null
           when c.existing_id is null then
             case when exists (select from inserted n where n.external_id = c.external_id) then 'created' end
           when c.same then 'unchanged'
           else 'updated'
         end,
         coalesce(c.error, case
           when c.existing_id is null and not exists (select from inserted n where n.external_id = c.external_id)
             then 'external_id: a product with this external_id was added at the same time; send the row again'
         end)
    from checked c
   order by c.idx;
end
$$;

COMMENT ON FUNCTION plaudit.upsert_products(p_rows jsonb) IS 'Adds or updates up to 1,000 products of the transaction''s tenant by external_id; answers each row''s outcome (created, updated, unchanged) or why it was refused.';

CREATE FUNCTION plaudit.uri_component(t text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $_$
  select case when t ~ '^[A-Za-z0-9_.!~*''()-]*$' then t
    else (select string_agg(case when c ~ '^[A-Za-z0-9_.!~*''()-]$' then c
                                 else regexp_replace(upper(encode(convert_to(c, 'UTF8'), 'hex')), '(..)', '%\1', 'g')
                            end, '' order by i)
            from regexp_split_to_table(t, '') with ordinality as s(c, i))
  end
$_$;

COMMENT ON FUNCTION plaudit.uri_component(t text) IS 'Text percent-encoded as encodeURIComponent encodes it.';

CREATE FUNCTION plaudit.verification_link_state(p_token text) RETURNS TABLE(state text, org_name text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select case
           when t.id is null then 'invalid'
           when t.used_at is not null then 'already_used'
           when t.expires_at <= now() then 'expired'
           when r.verification_status <> 'pending' then 'not_pending'
           else 'pending'
         end,
         o.name
    from (select 1) one
    left join plaudit.review_verification_tokens t
      on t.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    left join plaudit.reviews r on r.id = t.review_id
    left join plaudit.organizations o on o.id = r.org_id
$$;

COMMENT ON FUNCTION plaudit.verification_link_state(p_token text) IS 'The state of an e-mail verification link and the organization''s name, without spending the link.';

CREATE FUNCTION plaudit.verify_moderation_chain(p_org_id uuid) RETURNS TABLE(valid boolean, entries bigint, broken_seq bigint, broken_entry_id uuid, problem text)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  expected_previous bytea := '\x0000000000000000000000000000000000000000000000000000000000000000';
  expected_seq bigint := 1;
  e record;
  head record;
begin
  entries := 0;
  for e in select * from plaudit.moderation_trail t where t.org_id = p_org_id order by t.seq loop
    if e.seq <> expected_seq then
      return query select false, entries, expected_seq, null::uuid,
        format('entry %s is missing', expected_seq);
      return;
    end if;
    if e.previous_hash <> expected_previous then
      return query select false, entries, e.seq, e.id,
        format('entry %s does not link to entry %s', e.seq, e.seq - 1);
      return;
    end if;
    if e.hash <> plaudit.moderation_entry_hash(e.previous_hash, e.org_id, e.seq, e.review_id, e.action,
                                               e.reason, e.actor, e.created_at) then
      return query select false, entries, e.seq, e.id,
        format('entry %s does not match its hash: its content was changed', e.seq);
      return;
    end if;
    entries := entries + 1;
    expected_previous := e.hash;
    expected_seq := expected_seq + 1;
  end loop;
  select h.last_seq, h.last_hash into head from plaudit.moderation_chain_heads h where h.org_id = p_org_id;
  if coalesce(head.last_seq, 0) <> entries
     or (entries > 0 and head.last_hash is distinct from expected_previous) then
    return query select false, entries, entries + 1, null::uuid,
      format('the chain head records %s entries but %s verify: entries were removed', coalesce(head.last_seq, 0), entries);
    return;
  end if;
  return query select true, entries, null::bigint, null::uuid, null::text;
end
$$;

COMMENT ON FUNCTION plaudit.verify_moderation_chain(p_org_id uuid) IS 'Recomputes an organization''s moderation chain and answers whether it verifies, or the first entry that does not and why.';

CREATE FUNCTION plaudit.verify_review_by_order(p_review_id uuid, p_order_id text, p_key_id uuid) RETURNS SETOF plaudit.reviews
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  r record;
  refusal text;
begin
  select rv.org_id, rv.reviewer_email, rv.verification_status, rv.product_id, f.verification_mode into r
    from plaudit.reviews rv join plaudit.review_forms f on f.id = rv.form_id
    where rv.id = p_review_id;
  if not found then
    raise exception 'Review not found' using errcode = 'no_data_found';
  end if;
  if r.verification_mode <> 'purchase_proof' then
    raise exception 'order_id: the review''s form does not use purchase-proof verification'
      using errcode = 'invalid_parameter_value';
  end if;
  if r.verification_status <> 'pending' then
    raise exception 'Only a pending review can be verified; this one is %', r.verification_status
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  refusal := plaudit.purchase_proof_refusal(r.org_id, p_order_id, r.reviewer_email, r.product_id);
  if refusal is not null then
    raise exception '%', refusal using errcode = 'invalid_parameter_value';
  end if;
  return query select * from plaudit.change_verification(
    p_review_id, 'verified', 'purchase_proof', null, p_key_id,
    plaudit.order_hash(r.org_id, btrim(p_order_id)), 'verified');
end
$$;

COMMENT ON FUNCTION plaudit.verify_review_by_order(p_review_id uuid, p_order_id text, p_key_id uuid) IS 'Verifies a pending review by purchase proof: the order must be its organization''s, the reviewer''s when it has an e-mail, and hold the reviewed product or its group when it lists items.';

CREATE FUNCTION plaudit.verify_review_by_token(p_token text, p_review_id uuid DEFAULT NULL::uuid, p_key_id uuid DEFAULT NULL::uuid) RETURNS TABLE(outcome text, review_id uuid)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  tenant uuid := plaudit.current_org_id();
  t plaudit.review_verification_tokens;
  status text;
begin
  if p_review_id is not null
     and not exists (select from plaudit.reviews r where r.id = p_review_id and (tenant is null or r.org_id = tenant))
  then
    return query select 'not_found'::text, p_review_id;
    return;
  end if;
  select * into t from plaudit.review_verification_tokens vt
    where vt.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    for update;
  if not found or t.review_id is distinct from coalesce(p_review_id, t.review_id)
     or t.org_id is distinct from coalesce(tenant, t.org_id) then
    return query select 'invalid'::text, p_review_id;
    return;
  end if;
  if t.used_at is not null then
    return query select 'already_used'::text, t.review_id;
    return;
  end if;
  if t.expires_at <= now() then
    return query select 'expired'::text, t.review_id;
    return;
  end if;
  select r.verification_status into status from plaudit.reviews r where r.id = t.review_id for update;
  if status <> 'pending' then
    return query select 'not_pending'::text, t.review_id;
    return;
  end if;
  update plaudit.review_verification_tokens set used_at = now() where id = t.id;
  perform set_config('plaudit.actor',
    case when p_key_id is null then 'reviewer:email_link' else 'api_key:' || p_key_id end, true);
  update plaudit.reviews r
    set verification_status = 'verified', verification_method = 'email', verification_at = now(),
        verification_token_id = t.id, verification_key_id = p_key_id
    where r.id = t.review_id;
  perform set_config('plaudit.actor', '', true);
  return query select 'verified'::text, t.review_id;
end
$$;

COMMENT ON FUNCTION plaudit.verify_review_by_token(p_token text, p_review_id uuid, p_key_id uuid) IS 'Spends an e-mail verification token; answers the outcome and the review concerned.';

CREATE FUNCTION plaudit.verify_review_link(p_token text) RETURNS TABLE(outcome text, org_name text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  v record;
begin
  select * into v from plaudit.verify_review_by_token(p_token);
  return query
    select v.outcome, (select o.name from plaudit.reviews r join plaudit.organizations o on o.id = r.org_id
                       where r.id = v.review_id);
end
$$;

COMMENT ON FUNCTION plaudit.verify_review_link(p_token text) IS 'Spends an e-mail verification token from the hosted page; answers the outcome and the organization''s name.';

CREATE FUNCTION plaudit.verify_sign_in(p_token text, p_email text, p_code text, p_user_agent text) RETURNS TABLE(outcome text, session_token text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  ch plaudit.sign_in_challenges;
  new_token text;
begin
  if p_token is not null then
    select * into ch from plaudit.sign_in_challenges c
     where c.token_hash = sha256(convert_to(p_token, 'UTF8')) for update;
  else
    select * into ch from plaudit.sign_in_challenges c
     where lower(c.email) = lower(btrim(coalesce(p_email, ''))) and c.used_at is null and c.expires_at > now()
     order by c.created_at desc, c.id desc limit 1 for update;
  end if;
  if not found then
    outcome := 'invalid';
  elsif ch.used_at is not null then
    outcome := 'used';
  elsif ch.expires_at <= now() then
    outcome := 'expired';
  elsif ch.failed_attempts >= 5 then
    outcome := 'locked';
  elsif p_token is null and ch.code_hash <> plaudit.sign_in_code_hash(ch.id, p_code) then
    update plaudit.sign_in_challenges set failed_attempts = failed_attempts + 1 where id = ch.id;
    outcome := case when ch.failed_attempts + 1 >= 5 then 'locked' else 'invalid' end;
  elsif not exists (select from plaudit.members m where lower(m.email) = lower(ch.email)) then
    outcome := 'invalid';
  else
    update plaudit.sign_in_challenges c set used_at = now()
     where lower(c.email) = lower(ch.email) and c.used_at is null;
    new_token := plaudit.random_base62(43);
    insert into plaudit.sessions (email, token_hash, user_agent)
    values (ch.email, sha256(convert_to(new_token, 'UTF8')), left(p_user_agent, 200));
    outcome := 'signed_in';
    session_token := new_token;
  end if;
  return next;
end
$$;

COMMENT ON FUNCTION plaudit.verify_sign_in(p_token text, p_email text, p_code text, p_user_agent text) IS 'Signs in with a mail''s link token, or address and code; answers the outcome and the new session''s token.';

CREATE FUNCTION plaudit.visitor_hashes(p_review_id uuid, p_visitor bytea) RETURNS bytea[]
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  current_period integer := floor(extract(epoch from now()) / (30 * 86400))::integer;
  made integer;
begin
  insert into plaudit.visitor_hash_keys (period) values (current_period) on conflict (period) do nothing;
  get diagnostics made = row_count;
  if made > 0 then
    delete from plaudit.visitor_hash_keys k where k.period < current_period - 1;
  end if;
  return array(
    select extensions.hmac(convert_to(p_review_id::text, 'UTF8') || p_visitor, k.secret, 'sha256')
      from plaudit.visitor_hash_keys k
     where k.period in (current_period, current_period - 1)
     order by k.period desc);
end
$$;

COMMENT ON FUNCTION plaudit.visitor_hashes(p_review_id uuid, p_visitor bytea) IS 'A visitor''s keyed hashes for a review: under the current period''s key first, then the previous one''s.';

CREATE FUNCTION plaudit.vote_helpful(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea) RETURNS TABLE(rate_allowed boolean, rate_remaining integer, rate_reset bigint, published boolean, helpful_count integer)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
#variable_conflict use_column
declare
  target record;
  hashes bytea[];
  added integer;
begin
  select * into target from plaudit.signal_target(p_rate_bucket, p_rate_limit, p_slug, p_review_id);
  rate_allowed := target.rate_allowed;
  rate_remaining := target.rate_remaining;
  rate_reset := target.rate_reset;
  published := target.id is not null;
  if not published then
    return next;
    return;
  end if;
  hashes := plaudit.visitor_hashes(target.id, p_visitor);
  if not exists (select from plaudit.review_votes v where v.review_id = target.id and v.visitor_hash = any (hashes)) then
    insert into plaudit.review_votes (review_id, org_id, visitor_hash) values (target.id, target.org_id, hashes[1])
    on conflict do nothing;
    get diagnostics added = row_count;
    if added > 0 then
      update plaudit.reviews r set helpful_count = r.helpful_count + 1 where r.id = target.id;
      perform plaudit.add_review_statistics(jsonb_build_array(plaudit.public_version_delta(target.org_id)));
    end if;
  end if;
  select r.helpful_count into helpful_count from plaudit.reviews r where r.id = target.id;
  return next;
end
$$;

COMMENT ON FUNCTION plaudit.vote_helpful(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea) IS 'Counts a visitor''s helpful vote on a published review once, limited per address; answers the review''s count.';

CREATE FUNCTION plaudit.webhook_payload(p_type text, p_at timestamp with time zone, p_data jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
  select '{"event":' || to_json(p_type)::text || ',"timestamp":' || to_json(plaudit.iso_utc(p_at))::text
         || ',"data":' || plaudit.canonical_json(p_data) || '}'
$$;

COMMENT ON FUNCTION plaudit.webhook_payload(p_type text, p_at timestamp with time zone, p_data jsonb) IS 'An event''s delivery body: {"event","timestamp","data"}, in that order, compact.';

CREATE FUNCTION plaudit.webhook_signatures(p_secret text, p_previous_secret text, p_previous_expires_at timestamp with time zone, p_message_id text, p_timestamp bigint, p_body text, OUT signature_hex text, OUT previous_signature_hex text, OUT webhook_signature text) RETURNS record
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  body bytea := convert_to(p_body, 'UTF8');
  signed bytea := convert_to(p_message_id || '.' || p_timestamp || '.', 'UTF8') || convert_to(p_body, 'UTF8');
  live_previous boolean := p_previous_secret is not null and p_previous_expires_at > now();
begin
  signature_hex := encode(extensions.hmac(body, convert_to(p_secret, 'UTF8'), 'sha256'), 'hex');
  webhook_signature := 'v1,' || encode(extensions.hmac(signed, decode(substr(p_secret, 7), 'base64'), 'sha256'), 'base64');
  if live_previous then
    previous_signature_hex := encode(extensions.hmac(body, convert_to(p_previous_secret, 'UTF8'), 'sha256'), 'hex');
    webhook_signature := webhook_signature || ' v1,'
      || encode(extensions.hmac(signed, decode(substr(p_previous_secret, 7), 'base64'), 'sha256'), 'base64');
  end if;
end
$$;

COMMENT ON FUNCTION plaudit.webhook_signatures(p_secret text, p_previous_secret text, p_previous_expires_at timestamp with time zone, p_message_id text, p_timestamp bigint, p_body text, OUT signature_hex text, OUT previous_signature_hex text, OUT webhook_signature text) IS 'The signatures of one delivery attempt, hex and Standard Webhooks, with each live secret.';

CREATE FUNCTION plaudit.withdraw_review_reply(p_review_id uuid, p_actor text) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
declare
  org uuid := plaudit.current_org_id();
  gone boolean;
begin
  if org is null or not exists (select from plaudit.reviews v where v.id = p_review_id) then
    raise exception 'Review not found' using errcode = 'no_data_found';
  end if;
  perform set_config('plaudit.actor', coalesce(p_actor, ''), true);
  delete from plaudit.review_replies rr where rr.review_id = p_review_id and rr.org_id = org;
  gone := found;
  perform set_config('plaudit.actor', '', true);
  return gone;
end
$$;

COMMENT ON FUNCTION plaudit.withdraw_review_reply(p_review_id uuid, p_actor text) IS 'Withdraws the reply to a review of the caller''s tenant; answers whether there was one.';

CREATE FUNCTION plaudit.xml_element_or_nothing(name text, data text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
  select case when pg_catalog.btrim(data, E' \t\n\r') <> '' then '<' || name || '>' || data || '</' || name || '>'
              else '' end
$$;

COMMENT ON FUNCTION plaudit.xml_element_or_nothing(name text, data text) IS 'An XML element around character data, or the empty string when the data is null or blank.';

CREATE FUNCTION plaudit.xml_text(t text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
  select pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(
    pg_catalog.regexp_replace(t, E'[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\uFFFE\\uFFFF]', '', 'g'),
    '&', '&amp;'), '<', '&lt;'), '>', '&gt;')
$$;

COMMENT ON FUNCTION plaudit.xml_text(t text) IS 'Text as XML 1.0 character data: forbidden characters dropped, &, < and > escaped.';

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
    CONSTRAINT events_type_check CHECK ((type ~ '^[a-z]+(\.[a-z_]+)+$'::text))
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
-- Export chunks are compressed with lz4 where this PostgreSQL has it.
do $$
begin
  alter table plaudit.export_chunks alter column body set compression lz4;
exception when feature_not_supported then
  raise notice 'this PostgreSQL has no lz4: export chunks stay uncompressed';
end
$$;

COMMENT ON TABLE plaudit.export_chunks IS 'The file of an export as numbered chunks of text, which the download route streams in order.';

COMMENT ON COLUMN plaudit.export_chunks.last_review_id IS 'With last_created_at: the last review in this chunk, where the next chunk starts after.';

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

COMMENT ON TABLE plaudit.idempotency_keys IS 'Idempotency keys of bulk review requests: the first successful answer per organization and key, kept 24 hours.';

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
    CONSTRAINT moderation_trail_action_check CHECK ((action = ANY (ARRAY['hide'::text, 'unhide'::text, 'verify'::text, 'approve'::text, 'reject'::text, 'reply'::text, 'edit_reply'::text, 'withdraw_reply'::text, 'anonymize'::text, 'import'::text, 'hide_media'::text, 'unhide_media'::text]))),
    CONSTRAINT moderation_trail_actor_check CHECK (((char_length(actor) >= 1) AND (char_length(actor) <= 200))),
    CONSTRAINT moderation_trail_hash_check CHECK ((octet_length(hash) = 32)),
    CONSTRAINT moderation_trail_previous_hash_check CHECK ((octet_length(previous_hash) = 32)),
    CONSTRAINT moderation_trail_reason_check CHECK ((char_length(reason) <= 5000)),
    CONSTRAINT moderation_trail_seq_check CHECK ((seq >= 1))
);

COMMENT ON TABLE plaudit.moderation_trail IS 'The moderation trail: an append-only, hash-chained entry for each change of a review''s visibility, verification or reply.';

CREATE TABLE plaudit.order_items (
    org_id uuid NOT NULL,
    order_id text NOT NULL,
    "position" smallint NOT NULL,
    product_external_id text NOT NULL,
    quantity integer DEFAULT 1 NOT NULL,
    CONSTRAINT order_items_position_check CHECK ((("position" >= 0) AND ("position" <= 99))),
    CONSTRAINT order_items_product_external_id_check CHECK (((char_length(product_external_id) >= 1) AND (char_length(product_external_id) <= 200))),
    CONSTRAINT order_items_quantity_check CHECK (((quantity >= 1) AND (quantity <= 10000)))
);

COMMENT ON TABLE plaudit.order_items IS 'The products an order holds, by the organization''s own product id (external_id), kept as given.';

CREATE TABLE plaudit.orders (
    org_id uuid NOT NULL,
    order_id text NOT NULL,
    email text,
    purchased_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT orders_email_check CHECK (((char_length(email) <= 320) AND (email ~ '^[^@\s]+@[^@\s]+$'::text))),
    CONSTRAINT orders_order_id_check CHECK (((char_length(order_id) >= 1) AND (char_length(order_id) <= 200)))
);

COMMENT ON TABLE plaudit.orders IS 'Orders an organization loads, so that purchase-proof forms can check the order id (and e-mail) a reviewer gives.';

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
    CONSTRAINT public_profiles_description_check CHECK ((char_length(description) <= 2000)),
    CONSTRAINT public_profiles_display_name_check CHECK (((char_length(display_name) >= 1) AND (char_length(display_name) <= 200))),
    CONSTRAINT public_profiles_embed_layout_check CHECK ((embed_layout = ANY (ARRAY['list'::text, 'grid'::text, 'carousel'::text]))),
    CONSTRAINT public_profiles_embed_max_reviews_check CHECK (((embed_max_reviews >= 1) AND (embed_max_reviews <= 100))),
    CONSTRAINT public_profiles_embed_min_rating_check CHECK (((embed_min_rating >= 1) AND (embed_min_rating <= 5))),
    CONSTRAINT public_profiles_embed_theme_check CHECK ((embed_theme = ANY (ARRAY['light'::text, 'dark'::text]))),
    CONSTRAINT public_profiles_logo_url_check CHECK (((char_length(logo_url) <= 2048) AND (logo_url ~* '^https://'::text))),
    CONSTRAINT public_profiles_media_moderation_check CHECK ((media_moderation = ANY (ARRAY['auto'::text, 'manual'::text]))),
    CONSTRAINT public_profiles_website_check CHECK (((char_length(website) <= 2048) AND (website ~* '^https?://'::text)))
);

COMMENT ON TABLE plaudit.public_profiles IS 'Public-profile settings of an organization (profile page and widget); an organization without a row has the defaults.';

COMMENT ON COLUMN plaudit.public_profiles.google_product_feed IS 'Whether the public Google Product Ratings feed of the organization''s product reviews is published.';

COMMENT ON COLUMN plaudit.public_profiles.media_moderation IS 'auto: new photos and videos show with their review; manual: they stay hidden until the business shows them.';

CREATE UNLOGGED TABLE plaudit.rate_limit_counters (
    bucket text NOT NULL,
    window_start timestamp with time zone NOT NULL,
    hits integer DEFAULT 1 NOT NULL,
    CONSTRAINT rate_limit_counters_bucket_check CHECK ((char_length(bucket) <= 200))
);

COMMENT ON TABLE plaudit.rate_limit_counters IS 'Rate-limit counters, one row per bucket and one-minute window; unlogged, since they are worth nothing after a crash.';

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
    CONSTRAINT review_media_content_type_check CHECK ((content_type = ANY (ARRAY['image/jpeg'::text, 'image/png'::text, 'image/webp'::text, 'video/mp4'::text, 'video/webm'::text]))),
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
    CONSTRAINT review_reports_check CHECK ((((status = 'open'::text) = (resolved_at IS NULL)) AND ((status = 'open'::text) = (resolution IS NULL)) AND ((status = 'open'::text) = (resolved_by IS NULL)))),
    CONSTRAINT review_reports_details_check CHECK (((char_length(details) >= 1) AND (char_length(details) <= 2000))),
    CONSTRAINT review_reports_reason_check CHECK ((reason = ANY (ARRAY['spam'::text, 'offensive'::text, 'personal_data'::text, 'fake'::text, 'conflict_of_interest'::text, 'other'::text]))),
    CONSTRAINT review_reports_reporter_hash_check CHECK ((octet_length(reporter_hash) = 32)),
    CONSTRAINT review_reports_resolution_check CHECK (((char_length(resolution) >= 1) AND (char_length(resolution) <= 2000))),
    CONSTRAINT review_reports_resolved_by_check CHECK ((char_length(resolved_by) <= 200)),
    CONSTRAINT review_reports_status_check CHECK ((status = ANY (ARRAY['open'::text, 'resolved'::text])))
);

COMMENT ON TABLE plaudit.review_reports IS 'Visitors'' reports of published reviews, open until the business resolves them; a report never hides a review.';

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
    CONSTRAINT review_request_events_type_check CHECK ((type = ANY (ARRAY['queued'::text, 'sent'::text, 'delivered'::text, 'opened'::text, 'clicked'::text, 'completed'::text, 'bounced'::text, 'complained'::text, 'unsubscribed'::text, 'failed'::text, 'soft_bounced'::text, 'delivery_delayed'::text, 'reminder_queued'::text, 'reminder_sent'::text])))
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
    CONSTRAINT review_requests_email_check CHECK (((char_length(email) <= 320) AND (email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'::text))),
    CONSTRAINT review_requests_external_id_check CHECK (((char_length(external_id) >= 1) AND (char_length(external_id) <= 200))),
    CONSTRAINT review_requests_link_base_check CHECK (((link_base ~ '^https?://'::text) AND (char_length(link_base) <= 2048))),
    CONSTRAINT review_requests_locale_check CHECK ((locale ~ '^[a-z]{2}(-[A-Z]{2})?$'::text)),
    CONSTRAINT review_requests_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 200))),
    CONSTRAINT review_requests_order_id_check CHECK (((char_length(order_id) >= 1) AND (char_length(order_id) <= 200))),
    CONSTRAINT review_requests_reminders_sent_check CHECK (((reminders_sent >= 0) AND (reminders_sent <= 2))),
    CONSTRAINT review_requests_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'sent'::text, 'delivered'::text, 'opened'::text, 'clicked'::text, 'failed'::text, 'bounced'::text, 'complained'::text, 'unsubscribed'::text, 'completed'::text])))
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

COMMENT ON TABLE plaudit.signing_secrets IS 'Secrets made in the database, one per purpose, that sign the links of review-request e-mails; only the owner reads them.';

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

ALTER TABLE ONLY plaudit.api_keys
    ADD CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash);

ALTER TABLE ONLY plaudit.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.cdn_purges
    ADD CONSTRAINT cdn_purges_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.email_outbox
    ADD CONSTRAINT email_outbox_idempotency_key_key UNIQUE (idempotency_key);

ALTER TABLE ONLY plaudit.email_outbox
    ADD CONSTRAINT email_outbox_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.email_suppressions
    ADD CONSTRAINT email_suppressions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.export_chunks
    ADD CONSTRAINT export_chunks_pkey PRIMARY KEY (export_id, seq);

ALTER TABLE ONLY plaudit.exports
    ADD CONSTRAINT exports_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (org_id, key);

ALTER TABLE ONLY plaudit.import_rows
    ADD CONSTRAINT import_rows_pkey PRIMARY KEY (import_id, row_number);

ALTER TABLE ONLY plaudit.imports
    ADD CONSTRAINT imports_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.invitations
    ADD CONSTRAINT invitations_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.invitations
    ADD CONSTRAINT invitations_token_hash_key UNIQUE (token_hash);

ALTER TABLE ONLY plaudit.media_upload_tokens
    ADD CONSTRAINT media_upload_tokens_pkey PRIMARY KEY (review_id);

ALTER TABLE ONLY plaudit.media_upload_tokens
    ADD CONSTRAINT media_upload_tokens_token_hash_key UNIQUE (token_hash);

ALTER TABLE ONLY plaudit.members
    ADD CONSTRAINT members_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.moderation_chain_heads
    ADD CONSTRAINT moderation_chain_heads_pkey PRIMARY KEY (org_id);

ALTER TABLE ONLY plaudit.moderation_trail
    ADD CONSTRAINT moderation_trail_org_id_seq_key UNIQUE (org_id, seq);

ALTER TABLE ONLY plaudit.moderation_trail
    ADD CONSTRAINT moderation_trail_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.order_items
    ADD CONSTRAINT order_items_pkey PRIMARY KEY (org_id, order_id, "position");

ALTER TABLE ONLY plaudit.orders
    ADD CONSTRAINT orders_pkey PRIMARY KEY (org_id, order_id);

ALTER TABLE ONLY plaudit.organizations
    ADD CONSTRAINT organizations_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.organizations
    ADD CONSTRAINT organizations_slug_key UNIQUE (slug);

ALTER TABLE ONLY plaudit.privacy_erasures
    ADD CONSTRAINT privacy_erasures_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.product_review_statistics
    ADD CONSTRAINT product_review_statistics_pkey PRIMARY KEY (product_id);

ALTER TABLE ONLY plaudit.products
    ADD CONSTRAINT products_external_id_key UNIQUE (org_id, external_id);

ALTER TABLE ONLY plaudit.products
    ADD CONSTRAINT products_id_org_id_key UNIQUE (id, org_id);

ALTER TABLE ONLY plaudit.products
    ADD CONSTRAINT products_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.public_profiles
    ADD CONSTRAINT public_profiles_pkey PRIMARY KEY (org_id);

ALTER TABLE ONLY plaudit.rate_limit_counters
    ADD CONSTRAINT rate_limit_counters_pkey PRIMARY KEY (bucket, window_start);

ALTER TABLE ONLY plaudit.review_forms
    ADD CONSTRAINT review_forms_id_org_id_key UNIQUE (id, org_id);

ALTER TABLE ONLY plaudit.review_forms
    ADD CONSTRAINT review_forms_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.review_media
    ADD CONSTRAINT review_media_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.review_media
    ADD CONSTRAINT review_media_review_id_position_key UNIQUE (review_id, "position");

ALTER TABLE ONLY plaudit.review_media
    ADD CONSTRAINT review_media_review_id_sha256_key UNIQUE (review_id, sha256);

ALTER TABLE ONLY plaudit.review_media
    ADD CONSTRAINT review_media_storage_key_key UNIQUE (storage_key);

ALTER TABLE ONLY plaudit.review_media
    ADD CONSTRAINT review_media_thumbnail_key_key UNIQUE (thumbnail_key);

ALTER TABLE ONLY plaudit.review_replies
    ADD CONSTRAINT review_replies_pkey PRIMARY KEY (review_id);

ALTER TABLE ONLY plaudit.review_reports
    ADD CONSTRAINT review_reports_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.review_request_events
    ADD CONSTRAINT review_request_events_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.review_request_products
    ADD CONSTRAINT review_request_products_pkey PRIMARY KEY (org_id, request_id, "position");

ALTER TABLE ONLY plaudit.review_request_products
    ADD CONSTRAINT review_request_products_product_key UNIQUE (org_id, request_id, product_id);

ALTER TABLE ONLY plaudit.review_request_reviews
    ADD CONSTRAINT review_request_reviews_pkey PRIMARY KEY (org_id, request_id, review_id);

ALTER TABLE ONLY plaudit.review_request_reviews
    ADD CONSTRAINT review_request_reviews_subject_key UNIQUE NULLS NOT DISTINCT (org_id, request_id, product_id);

ALTER TABLE ONLY plaudit.review_request_settings
    ADD CONSTRAINT review_request_settings_pkey PRIMARY KEY (org_id);

ALTER TABLE ONLY plaudit.review_request_usage
    ADD CONSTRAINT review_request_usage_pkey PRIMARY KEY (org_id, day);

ALTER TABLE ONLY plaudit.review_requests
    ADD CONSTRAINT review_requests_id_org_id_key UNIQUE (id, org_id);

ALTER TABLE ONLY plaudit.review_requests
    ADD CONSTRAINT review_requests_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.review_statistics
    ADD CONSTRAINT review_statistics_pkey PRIMARY KEY (org_id, slot);

ALTER TABLE ONLY plaudit.review_verification_tokens
    ADD CONSTRAINT review_verification_tokens_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.review_verification_tokens
    ADD CONSTRAINT review_verification_tokens_review_id_key UNIQUE (review_id);

ALTER TABLE ONLY plaudit.review_verification_tokens
    ADD CONSTRAINT review_verification_tokens_token_hash_key UNIQUE (token_hash);

ALTER TABLE ONLY plaudit.review_votes
    ADD CONSTRAINT review_votes_pkey PRIMARY KEY (review_id, visitor_hash);

ALTER TABLE ONLY plaudit.reviews
    ADD CONSTRAINT reviews_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.sessions
    ADD CONSTRAINT sessions_token_hash_key UNIQUE (token_hash);

ALTER TABLE ONLY plaudit.sign_in_challenges
    ADD CONSTRAINT sign_in_challenges_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.sign_in_challenges
    ADD CONSTRAINT sign_in_challenges_token_hash_key UNIQUE (token_hash);

ALTER TABLE ONLY plaudit.signing_secrets
    ADD CONSTRAINT signing_secrets_pkey PRIMARY KEY (purpose);

ALTER TABLE ONLY plaudit.visitor_hash_keys
    ADD CONSTRAINT visitor_hash_keys_pkey PRIMARY KEY (period);

ALTER TABLE ONLY plaudit.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.webhook_delivery_attempts
    ADD CONSTRAINT webhook_delivery_attempts_pkey PRIMARY KEY (id);

ALTER TABLE ONLY plaudit.webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (id);

CREATE INDEX api_keys_org_id_created_at ON plaudit.api_keys USING btree (org_id, created_at DESC, id);

CREATE INDEX api_keys_replaced_by ON plaudit.api_keys USING btree (replaced_by) WHERE (replaced_by IS NOT NULL);

CREATE INDEX cdn_purges_due ON plaudit.cdn_purges USING btree (next_attempt_at) WHERE (status = ANY (ARRAY['pending'::text, 'sending'::text, 'retrying'::text]));

CREATE UNIQUE INDEX cdn_purges_one_pending ON plaudit.cdn_purges USING btree (org_id) WHERE (status = 'pending'::text);

CREATE INDEX cdn_purges_org_id_created_at ON plaudit.cdn_purges USING btree (org_id, created_at DESC);

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

CREATE INDEX moderation_trail_org_id_hides ON plaudit.moderation_trail USING btree (org_id, created_at) WHERE (action = 'hide'::text);

CREATE INDEX moderation_trail_org_id_review_id ON plaudit.moderation_trail USING btree (org_id, review_id, seq);

CREATE INDEX moderation_trail_review_id ON plaudit.moderation_trail USING btree (review_id);

CREATE INDEX order_items_org_id_product_external_id ON plaudit.order_items USING btree (org_id, product_external_id);

CREATE INDEX privacy_erasures_org_id_created_at ON plaudit.privacy_erasures USING btree (org_id, created_at);

CREATE INDEX product_review_statistics_org_id ON plaudit.product_review_statistics USING btree (org_id);

CREATE INDEX products_org_id_created_at ON plaudit.products USING btree (org_id, created_at DESC, id DESC);

CREATE INDEX products_org_id_group_key ON plaudit.products USING btree (org_id, group_key) WHERE (group_key IS NOT NULL);

CREATE INDEX products_org_id_name ON plaudit.products USING btree (org_id, name, id);

CREATE INDEX products_org_id_updated_at ON plaudit.products USING btree (org_id, updated_at);

CREATE INDEX review_forms_org_id_created_at ON plaudit.review_forms USING btree (org_id, created_at DESC, id DESC) WHERE (deleted_at IS NULL);

CREATE INDEX review_media_org_id ON plaudit.review_media USING btree (org_id);

CREATE INDEX review_replies_org_id ON plaudit.review_replies USING btree (org_id);

CREATE UNIQUE INDEX review_reports_one_open_per_reporter ON plaudit.review_reports USING btree (review_id, reporter_hash) WHERE (status = 'open'::text);

CREATE INDEX review_reports_org_id_status ON plaudit.review_reports USING btree (org_id, status, created_at, id);

CREATE INDEX review_reports_review_id ON plaudit.review_reports USING btree (review_id);

CREATE UNIQUE INDEX review_request_events_dedupe ON plaudit.review_request_events USING btree (org_id, request_id, dedupe_key);

CREATE INDEX review_request_events_org_id_occurred_at ON plaudit.review_request_events USING btree (org_id, occurred_at);

CREATE INDEX review_request_events_request_id ON plaudit.review_request_events USING btree (request_id);

CREATE INDEX review_request_products_product_id ON plaudit.review_request_products USING btree (product_id, org_id);

CREATE INDEX review_request_reviews_review_id ON plaudit.review_request_reviews USING btree (review_id);

CREATE INDEX review_requests_org_id_awaiting ON plaudit.review_requests USING btree (org_id, sent_at) WHERE (status = ANY (ARRAY['sent'::text, 'delivered'::text, 'opened'::text, 'clicked'::text]));

CREATE INDEX review_requests_org_id_created_at ON plaudit.review_requests USING btree (org_id, created_at, id);

CREATE INDEX review_requests_org_id_email ON plaudit.review_requests USING btree (org_id, lower(email), created_at);

CREATE UNIQUE INDEX review_requests_org_id_external_id ON plaudit.review_requests USING btree (org_id, external_id) WHERE (external_id IS NOT NULL);

CREATE INDEX review_requests_org_id_open ON plaudit.review_requests USING btree (org_id, form_id, lower(email)) WHERE (completed_at IS NULL);

CREATE INDEX review_requests_org_id_status ON plaudit.review_requests USING btree (org_id, status, created_at, id);

CREATE INDEX review_requests_review_id ON plaudit.review_requests USING btree (review_id) WHERE (review_id IS NOT NULL);

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

CREATE INDEX reviews_public_business_by_rating ON plaudit.reviews USING btree (org_id, rating, created_at, id) WHERE ((product_id IS NULL) AND (NOT is_hidden) AND (verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])));

CREATE INDEX reviews_public_business_feed ON plaudit.reviews USING btree (org_id, created_at, id) INCLUDE (rating) WHERE ((product_id IS NULL) AND (NOT is_hidden) AND (verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])));

CREATE INDEX reviews_public_business_helpful ON plaudit.reviews USING btree (org_id, helpful_count, created_at, id) INCLUDE (rating) WHERE ((product_id IS NULL) AND (NOT is_hidden) AND (verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])));

CREATE INDEX reviews_public_product_by_rating ON plaudit.reviews USING btree (product_id, rating, created_at, id) WHERE ((product_id IS NOT NULL) AND (NOT is_hidden) AND (verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])));

CREATE INDEX reviews_public_product_feed ON plaudit.reviews USING btree (product_id, created_at, id) INCLUDE (rating) WHERE ((product_id IS NOT NULL) AND (NOT is_hidden) AND (verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])));

CREATE INDEX reviews_public_product_helpful ON plaudit.reviews USING btree (product_id, helpful_count, created_at, id) INCLUDE (rating) WHERE ((product_id IS NOT NULL) AND (NOT is_hidden) AND (verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])));

CREATE INDEX reviews_search ON plaudit.reviews USING gin (search);

CREATE INDEX reviews_verification_key_id ON plaudit.reviews USING btree (verification_key_id) WHERE (verification_key_id IS NOT NULL);

CREATE INDEX reviews_verification_token_id ON plaudit.reviews USING btree (verification_token_id) WHERE (verification_token_id IS NOT NULL);

CREATE INDEX sessions_email ON plaudit.sessions USING btree (lower(email)) WHERE (ended_at IS NULL);

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

CREATE TRIGGER email_outbox_track_review_requests AFTER UPDATE OF status ON plaudit.email_outbox FOR EACH ROW WHEN (((new.status IS DISTINCT FROM old.status) AND (new.data ? 'review_request_id'::text))) EXECUTE FUNCTION plaudit.email_outbox_track_review_requests();

CREATE TRIGGER email_suppressions_cancel_queued AFTER INSERT ON plaudit.email_suppressions FOR EACH ROW EXECUTE FUNCTION plaudit.email_suppressions_cancel_queued();

CREATE TRIGGER email_suppressions_set_key BEFORE INSERT OR UPDATE OF email ON plaudit.email_suppressions FOR EACH ROW EXECUTE FUNCTION plaudit.email_suppressions_set_key();

CREATE TRIGGER events_fan_out AFTER INSERT ON plaudit.events FOR EACH ROW EXECUTE FUNCTION plaudit.fan_out_event();

CREATE TRIGGER exports_note_chain_head BEFORE INSERT ON plaudit.exports FOR EACH ROW EXECUTE FUNCTION plaudit.exports_note_chain_head();

CREATE TRIGGER exports_notify_created AFTER INSERT ON plaudit.exports FOR EACH ROW EXECUTE FUNCTION plaudit.notify_export_created();

CREATE TRIGGER invitations_cancel_queued_email AFTER UPDATE OF revoked_at ON plaudit.invitations FOR EACH ROW WHEN (((old.revoked_at IS NULL) AND (new.revoked_at IS NOT NULL))) EXECUTE FUNCTION plaudit.invitations_cancel_queued_email();

CREATE TRIGGER invitations_guard_end BEFORE UPDATE ON plaudit.invitations FOR EACH ROW WHEN (((old.revoked_at IS NOT NULL) OR (old.accepted_at IS NOT NULL))) EXECUTE FUNCTION plaudit.refuse_changes_once_set('revoked_at', 'an invitation''s withdrawal is permanent', 'accepted_at', 'an invitation''s acceptance is permanent');

CREATE TRIGGER members_keep_an_owner BEFORE DELETE OR UPDATE OF role ON plaudit.members FOR EACH ROW EXECUTE FUNCTION plaudit.keep_an_owner();

CREATE TRIGGER moderation_chain_heads_guard BEFORE DELETE OR UPDATE ON plaudit.moderation_chain_heads FOR EACH ROW EXECUTE FUNCTION plaudit.moderation_chain_heads_guard();

CREATE TRIGGER moderation_chain_heads_refuse_truncate BEFORE TRUNCATE ON plaudit.moderation_chain_heads FOR EACH STATEMENT EXECUTE FUNCTION plaudit.moderation_trail_refuse_change();

CREATE TRIGGER moderation_trail_refuse_truncate BEFORE TRUNCATE ON plaudit.moderation_trail FOR EACH STATEMENT EXECUTE FUNCTION plaudit.moderation_trail_refuse_change();

CREATE TRIGGER moderation_trail_refuse_update BEFORE DELETE OR UPDATE ON plaudit.moderation_trail FOR EACH ROW EXECUTE FUNCTION plaudit.moderation_trail_refuse_change();

CREATE TRIGGER orders_touch_updated_at BEFORE UPDATE ON plaudit.orders FOR EACH ROW EXECUTE FUNCTION plaudit.touch_updated_at();

CREATE TRIGGER organizations_purge_cdn_on_delete AFTER DELETE ON plaudit.organizations FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();

create trigger organizations_purge_cdn_on_update
  after update on plaudit.organizations
  for each row when ((old.name, old.slug, old.website) is distinct from (new.name, new.slug, new.website))
  execute function plaudit.cdn_purge_on_change();

CREATE TRIGGER organizations_touch_updated_at BEFORE UPDATE ON plaudit.organizations FOR EACH ROW EXECUTE FUNCTION plaudit.touch_updated_at();

CREATE TRIGGER products_purge_cdn AFTER INSERT OR DELETE OR UPDATE ON plaudit.products FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();

CREATE TRIGGER products_signal_changes_delete AFTER DELETE ON plaudit.products REFERENCING OLD TABLE AS old_products FOR EACH STATEMENT EXECUTE FUNCTION plaudit.products_signal_changes();

CREATE TRIGGER products_signal_changes_insert AFTER INSERT ON plaudit.products REFERENCING NEW TABLE AS new_products FOR EACH STATEMENT EXECUTE FUNCTION plaudit.products_signal_changes();

CREATE TRIGGER products_signal_changes_update AFTER UPDATE ON plaudit.products REFERENCING NEW TABLE AS new_products FOR EACH STATEMENT EXECUTE FUNCTION plaudit.products_signal_changes();

CREATE TRIGGER products_touch_updated_at BEFORE UPDATE ON plaudit.products FOR EACH ROW EXECUTE FUNCTION plaudit.touch_updated_at();

CREATE TRIGGER public_profiles_purge_cdn AFTER INSERT OR DELETE OR UPDATE ON plaudit.public_profiles FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();

CREATE TRIGGER public_profiles_touch_updated_at BEFORE UPDATE ON plaudit.public_profiles FOR EACH ROW EXECUTE FUNCTION plaudit.touch_updated_at();

CREATE TRIGGER review_forms_stay_deleted BEFORE UPDATE ON plaudit.review_forms FOR EACH ROW EXECUTE FUNCTION plaudit.review_forms_stay_deleted();

CREATE TRIGGER review_forms_touch_updated_at BEFORE UPDATE ON plaudit.review_forms FOR EACH ROW EXECUTE FUNCTION plaudit.touch_updated_at();

CREATE TRIGGER review_media_purge_cdn AFTER INSERT OR DELETE OR UPDATE ON plaudit.review_media FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();

CREATE TRIGGER review_replies_purge_cdn AFTER INSERT OR DELETE OR UPDATE ON plaudit.review_replies FOR EACH ROW EXECUTE FUNCTION plaudit.cdn_purge_on_change();

CREATE TRIGGER review_replies_record AFTER INSERT OR DELETE OR UPDATE ON plaudit.review_replies FOR EACH ROW EXECUTE FUNCTION plaudit.review_replies_record();

CREATE TRIGGER review_requests_guard_update BEFORE UPDATE ON plaudit.review_requests FOR EACH ROW EXECUTE FUNCTION plaudit.review_requests_guard_update();

CREATE TRIGGER reviews_complete_review_requests AFTER INSERT ON plaudit.reviews FOR EACH ROW WHEN ((new.source <> 'import'::text)) EXECUTE FUNCTION plaudit.reviews_complete_review_requests();

CREATE TRIGGER reviews_count_inserted AFTER INSERT ON plaudit.reviews REFERENCING NEW TABLE AS new_reviews FOR EACH STATEMENT EXECUTE FUNCTION plaudit.reviews_count_inserted();

CREATE TRIGGER reviews_count_updated AFTER UPDATE ON plaudit.reviews REFERENCING OLD TABLE AS old_reviews NEW TABLE AS new_reviews FOR EACH STATEMENT EXECUTE FUNCTION plaudit.reviews_count_updated();

CREATE TRIGGER reviews_emit_created AFTER INSERT ON plaudit.reviews REFERENCING NEW TABLE AS new_reviews FOR EACH STATEMENT EXECUTE FUNCTION plaudit.reviews_emit_created();

CREATE TRIGGER reviews_guard_update BEFORE UPDATE ON plaudit.reviews FOR EACH ROW EXECUTE FUNCTION plaudit.reviews_guard_update();

CREATE TRIGGER reviews_purge_cdn_on_insert AFTER INSERT ON plaudit.reviews FOR EACH ROW WHEN (((NOT new.is_hidden) AND (new.verification_status = ANY (ARRAY['verified'::text, 'unverified'::text])) AND (new.source <> 'import'::text))) EXECUTE FUNCTION plaudit.cdn_purge_on_change();

CREATE TRIGGER reviews_purge_cdn_on_update AFTER UPDATE ON plaudit.reviews FOR EACH ROW WHEN ((((NOT old.is_hidden) AND (old.verification_status = ANY (ARRAY['verified'::text, 'unverified'::text]))) OR ((NOT new.is_hidden) AND (new.verification_status = ANY (ARRAY['verified'::text, 'unverified'::text]))))) EXECUTE FUNCTION plaudit.cdn_purge_on_change();

CREATE TRIGGER reviews_record_moderation AFTER UPDATE OF is_hidden, verification_status ON plaudit.reviews FOR EACH ROW WHEN (((old.is_hidden IS DISTINCT FROM new.is_hidden) OR (old.verification_status IS DISTINCT FROM new.verification_status))) EXECUTE FUNCTION plaudit.reviews_record_moderation();

CREATE TRIGGER reviews_refuse_delete BEFORE DELETE ON plaudit.reviews FOR EACH ROW EXECUTE FUNCTION plaudit.reviews_refuse_delete();

CREATE TRIGGER reviews_refuse_truncate BEFORE TRUNCATE ON plaudit.reviews FOR EACH STATEMENT EXECUTE FUNCTION plaudit.reviews_refuse_delete();

CREATE TRIGGER reviews_signal_changes AFTER UPDATE OF is_hidden, verification_status ON plaudit.reviews FOR EACH ROW WHEN (((old.is_hidden IS DISTINCT FROM new.is_hidden) OR (old.verification_status IS DISTINCT FROM new.verification_status))) EXECUTE FUNCTION plaudit.reviews_emit_changes();

CREATE TRIGGER sessions_guard_end BEFORE UPDATE ON plaudit.sessions FOR EACH ROW WHEN ((old.ended_at IS NOT NULL)) EXECUTE FUNCTION plaudit.refuse_changes_once_set('ended_at', 'a session''s end is permanent');

CREATE TRIGGER webhook_endpoints_cancel_on_disable BEFORE UPDATE OF enabled ON plaudit.webhook_endpoints FOR EACH ROW EXECUTE FUNCTION plaudit.cancel_deliveries_of_disabled_endpoint();

CREATE TRIGGER webhook_endpoints_touch_updated_at BEFORE UPDATE ON plaudit.webhook_endpoints FOR EACH ROW EXECUTE FUNCTION plaudit.touch_updated_at();

ALTER TABLE ONLY plaudit.api_keys
    ADD CONSTRAINT api_keys_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.api_keys
    ADD CONSTRAINT api_keys_replaced_by_fkey FOREIGN KEY (replaced_by) REFERENCES plaudit.api_keys(id);

ALTER TABLE ONLY plaudit.email_outbox
    ADD CONSTRAINT email_outbox_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.email_suppressions
    ADD CONSTRAINT email_suppressions_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.email_suppressions
    ADD CONSTRAINT email_suppressions_request_id_fkey FOREIGN KEY (request_id) REFERENCES plaudit.review_requests(id) ON DELETE SET NULL;

ALTER TABLE ONLY plaudit.events
    ADD CONSTRAINT events_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.export_chunks
    ADD CONSTRAINT export_chunks_export_id_fkey FOREIGN KEY (export_id) REFERENCES plaudit.exports(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.export_chunks
    ADD CONSTRAINT export_chunks_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.exports
    ADD CONSTRAINT exports_created_by_key_id_fkey FOREIGN KEY (created_by_key_id) REFERENCES plaudit.api_keys(id) ON DELETE SET NULL;

ALTER TABLE ONLY plaudit.exports
    ADD CONSTRAINT exports_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.idempotency_keys
    ADD CONSTRAINT idempotency_keys_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.import_rows
    ADD CONSTRAINT import_rows_import_id_fkey FOREIGN KEY (import_id) REFERENCES plaudit.imports(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.import_rows
    ADD CONSTRAINT import_rows_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.imports
    ADD CONSTRAINT imports_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.invitations
    ADD CONSTRAINT invitations_invited_by_key_id_fkey FOREIGN KEY (invited_by_key_id) REFERENCES plaudit.api_keys(id);

ALTER TABLE ONLY plaudit.invitations
    ADD CONSTRAINT invitations_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.media_upload_tokens
    ADD CONSTRAINT media_upload_tokens_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);

ALTER TABLE ONLY plaudit.media_upload_tokens
    ADD CONSTRAINT media_upload_tokens_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);

ALTER TABLE ONLY plaudit.members
    ADD CONSTRAINT members_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.moderation_chain_heads
    ADD CONSTRAINT moderation_chain_heads_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);

ALTER TABLE ONLY plaudit.moderation_trail
    ADD CONSTRAINT moderation_trail_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);

ALTER TABLE ONLY plaudit.moderation_trail
    ADD CONSTRAINT moderation_trail_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);

ALTER TABLE ONLY plaudit.order_items
    ADD CONSTRAINT order_items_org_id_order_id_fkey FOREIGN KEY (org_id, order_id) REFERENCES plaudit.orders(org_id, order_id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.orders
    ADD CONSTRAINT orders_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.privacy_erasures
    ADD CONSTRAINT privacy_erasures_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.product_review_statistics
    ADD CONSTRAINT product_review_statistics_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.product_review_statistics
    ADD CONSTRAINT product_review_statistics_product_id_fkey FOREIGN KEY (product_id) REFERENCES plaudit.products(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.products
    ADD CONSTRAINT products_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.public_profiles
    ADD CONSTRAINT public_profiles_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_forms
    ADD CONSTRAINT review_forms_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_media
    ADD CONSTRAINT review_media_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);

ALTER TABLE ONLY plaudit.review_media
    ADD CONSTRAINT review_media_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);

ALTER TABLE ONLY plaudit.review_replies
    ADD CONSTRAINT review_replies_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_replies
    ADD CONSTRAINT review_replies_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);

ALTER TABLE ONLY plaudit.review_reports
    ADD CONSTRAINT review_reports_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_reports
    ADD CONSTRAINT review_reports_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);

ALTER TABLE ONLY plaudit.review_request_events
    ADD CONSTRAINT review_request_events_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_events
    ADD CONSTRAINT review_request_events_request_id_fkey FOREIGN KEY (request_id) REFERENCES plaudit.review_requests(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_products
    ADD CONSTRAINT review_request_products_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_products
    ADD CONSTRAINT review_request_products_product_id_org_id_fkey FOREIGN KEY (product_id, org_id) REFERENCES plaudit.products(id, org_id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_products
    ADD CONSTRAINT review_request_products_request_id_org_id_fkey FOREIGN KEY (request_id, org_id) REFERENCES plaudit.review_requests(id, org_id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_reviews
    ADD CONSTRAINT review_request_reviews_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_reviews
    ADD CONSTRAINT review_request_reviews_org_id_request_id_product_id_fkey FOREIGN KEY (org_id, request_id, product_id) REFERENCES plaudit.review_request_products(org_id, request_id, product_id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_reviews
    ADD CONSTRAINT review_request_reviews_request_id_org_id_fkey FOREIGN KEY (request_id, org_id) REFERENCES plaudit.review_requests(id, org_id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_reviews
    ADD CONSTRAINT review_request_reviews_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);

ALTER TABLE ONLY plaudit.review_request_settings
    ADD CONSTRAINT review_request_settings_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_request_usage
    ADD CONSTRAINT review_request_usage_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_requests
    ADD CONSTRAINT review_requests_form_id_org_id_fkey FOREIGN KEY (form_id, org_id) REFERENCES plaudit.review_forms(id, org_id);

ALTER TABLE ONLY plaudit.review_requests
    ADD CONSTRAINT review_requests_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_requests
    ADD CONSTRAINT review_requests_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);

ALTER TABLE ONLY plaudit.review_statistics
    ADD CONSTRAINT review_statistics_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_verification_tokens
    ADD CONSTRAINT review_verification_tokens_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);

ALTER TABLE ONLY plaudit.review_verification_tokens
    ADD CONSTRAINT review_verification_tokens_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);

ALTER TABLE ONLY plaudit.review_votes
    ADD CONSTRAINT review_votes_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.review_votes
    ADD CONSTRAINT review_votes_review_id_fkey FOREIGN KEY (review_id) REFERENCES plaudit.reviews(id);

ALTER TABLE ONLY plaudit.reviews
    ADD CONSTRAINT reviews_form_id_org_id_fkey FOREIGN KEY (form_id, org_id) REFERENCES plaudit.review_forms(id, org_id);

ALTER TABLE ONLY plaudit.reviews
    ADD CONSTRAINT reviews_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id);

ALTER TABLE ONLY plaudit.reviews
    ADD CONSTRAINT reviews_product_id_fkey FOREIGN KEY (product_id, org_id) REFERENCES plaudit.products(id, org_id);

ALTER TABLE ONLY plaudit.reviews
    ADD CONSTRAINT reviews_verification_key_id_fkey FOREIGN KEY (verification_key_id) REFERENCES plaudit.api_keys(id);

ALTER TABLE ONLY plaudit.reviews
    ADD CONSTRAINT reviews_verification_token_id_fkey FOREIGN KEY (verification_token_id) REFERENCES plaudit.review_verification_tokens(id);

ALTER TABLE ONLY plaudit.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES plaudit.webhook_endpoints(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES plaudit.events(id) ON DELETE SET NULL;

ALTER TABLE ONLY plaudit.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.webhook_delivery_attempts
    ADD CONSTRAINT webhook_delivery_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES plaudit.webhook_deliveries(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.webhook_delivery_attempts
    ADD CONSTRAINT webhook_delivery_attempts_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

ALTER TABLE ONLY plaudit.webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_org_id_fkey FOREIGN KEY (org_id) REFERENCES plaudit.organizations(id) ON DELETE CASCADE;

CREATE POLICY "Tenants can add addresses to their own suppression list" ON plaudit.email_suppressions FOR INSERT TO plaudit_api WITH CHECK (((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)) AND (reason = 'manual'::text)));

CREATE POLICY "Tenants can add items to their own orders" ON plaudit.order_items FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can add products to their own catalog" ON plaudit.products FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can change their own members' roles" ON plaudit.members FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can change their own review request settings" ON plaudit.review_request_settings FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can change their own webhook endpoints" ON plaudit.webhook_endpoints FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can create API keys for themselves" ON plaudit.api_keys FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can create review forms for themselves" ON plaudit.review_forms FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can create their own public profile" ON plaudit.public_profiles FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can create their own review request settings" ON plaudit.review_request_settings FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can delete their own products" ON plaudit.products FOR DELETE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can delete their own webhook endpoints" ON plaudit.webhook_endpoints FOR DELETE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can edit their own replies" ON plaudit.review_replies FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can invite into their own organization" ON plaudit.invitations FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can lift entries of their own suppression list" ON plaudit.email_suppressions FOR DELETE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can load their own orders" ON plaudit.orders FOR INSERT TO plaudit_api WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can moderate and verify their own reviews" ON plaudit.reviews FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read the files of their own exports" ON plaudit.export_chunks FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read the items of their own orders" ON plaudit.order_items FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read the products named in their own review request" ON plaudit.review_request_products FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read the replies to their own reviews" ON plaudit.review_replies FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read the timelines of their own review requests" ON plaudit.review_request_events FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read their own API keys" ON plaudit.api_keys FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read their own erasures" ON plaudit.privacy_erasures FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read their own events" ON plaudit.events FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read their own exports" ON plaudit.exports FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

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

CREATE POLICY "Tenants can read their own reports" ON plaudit.review_reports FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read their own review forms" ON plaudit.review_forms FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read their own review media" ON plaudit.review_media FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read their own review request settings" ON plaudit.review_request_settings FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read their own review request usage" ON plaudit.review_request_usage FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read their own review requests" ON plaudit.review_requests FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read their own review statistics" ON plaudit.review_statistics FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can read their own reviews" ON plaudit.reviews FOR SELECT TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

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

CREATE POLICY "Tenants can store the answers of their own idempotency keys" ON plaudit.idempotency_keys FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can update their own orders" ON plaudit.orders FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can update their own organization" ON plaudit.organizations FOR UPDATE TO plaudit_api USING ((id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can update their own products" ON plaudit.products FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can update their own public profile" ON plaudit.public_profiles FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can update their own review forms" ON plaudit.review_forms FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can withdraw their own invitations" ON plaudit.invitations FOR UPDATE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id))) WITH CHECK ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

CREATE POLICY "Tenants can withdraw their own replies" ON plaudit.review_replies FOR DELETE TO plaudit_api USING ((org_id = ( SELECT plaudit.current_org_id() AS current_org_id)));

ALTER TABLE plaudit.api_keys ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.cdn_purges ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.email_outbox ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.email_suppressions ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.events ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.export_chunks ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.exports ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.idempotency_keys ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.import_rows ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.imports ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.invitations ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.media_upload_tokens ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.members ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.moderation_chain_heads ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.moderation_trail ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.order_items ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.orders ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.organizations ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.privacy_erasures ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.product_review_statistics ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.products ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.public_profiles ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.rate_limit_counters ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.review_forms ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.review_media ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.review_replies ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.review_reports ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.review_request_events ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.review_request_products ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.review_request_reviews ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.review_request_settings ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.review_request_usage ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.review_requests ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.review_statistics ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.review_verification_tokens ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.review_votes ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.reviews ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.sessions ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.sign_in_challenges ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.signing_secrets ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.visitor_hash_keys ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.webhook_deliveries ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.webhook_delivery_attempts ENABLE ROW LEVEL SECURITY;

ALTER TABLE plaudit.webhook_endpoints ENABLE ROW LEVEL SECURITY;

GRANT USAGE ON SCHEMA plaudit TO plaudit_api;
GRANT USAGE ON SCHEMA plaudit TO plaudit_public;
GRANT USAGE ON SCHEMA plaudit TO plaudit_worker;
GRANT USAGE ON SCHEMA plaudit TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.accept_invitation(p_token text, p_name text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.accept_invitation(p_token text, p_name text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.add_product_review_statistics(p_deltas jsonb) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.add_review_media(p_review_id uuid, p_token_hash bytea, p_id uuid, p_type text, p_content_type text, p_storage_key text, p_thumbnail_key text, p_url text, p_thumbnail_url text, p_width integer, p_height integer, p_bytes bigint, p_sha256 bytea, OUT refusal text, OUT created boolean, OUT item text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.add_review_media(p_review_id uuid, p_token_hash bytea, p_id uuid, p_type text, p_content_type text, p_storage_key text, p_thumbnail_key text, p_url text, p_thumbnail_url text, p_width integer, p_height integer, p_bytes bigint, p_sha256 bytea, OUT refusal text, OUT created boolean, OUT item text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.add_review_media(p_review_id uuid, p_token_hash bytea, p_id uuid, p_type text, p_content_type text, p_storage_key text, p_thumbnail_key text, p_url text, p_thumbnail_url text, p_width integer, p_height integer, p_bytes bigint, p_sha256 bytea, OUT refusal text, OUT created boolean, OUT item text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.add_review_statistics(p_deltas jsonb) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.api_key_checksum(body text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.api_key_checksum(body text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.api_key_for_read(p_key_hash bytea, p_rate_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.api_key_for_read(p_key_hash bytea, p_rate_limit integer) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.api_keys_guard_revocation() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.api_organization(p_key_hash bytea, p_org_id uuid, p_rate_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.api_organization(p_key_hash bytea, p_org_id uuid, p_rate_limit integer) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.api_review(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_review_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.api_review(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_review_id uuid) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.api_review_first_page(p_key_hash bytea, p_org_id uuid, p_rate_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.api_review_first_page(p_key_hash bytea, p_org_id uuid, p_rate_limit integer) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.append_moderation_entry(p_org_id uuid, p_review_id uuid, p_action text, p_reason text, p_actor text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.apply_review_request_event(p_request_id uuid, p_type text, p_dedupe_key text, p_occurred_at timestamp with time zone, p_data jsonb) FROM PUBLIC;

GRANT SELECT ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(verification_status) ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(is_hidden) ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(verification_method) ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(verification_at) ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(verification_key_id) ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(verification_order_hash) ON TABLE plaudit.reviews TO plaudit_api;

GRANT UPDATE(verification_reason) ON TABLE plaudit.reviews TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.approve_review(p_review_id uuid, p_reason text, p_key_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.approve_review(p_review_id uuid, p_reason text, p_key_id uuid) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.authenticate(p_key_hash bytea, p_default_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.authenticate(p_key_hash bytea, p_default_limit integer) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.authenticate_credential(p_hash bytea, p_org_id uuid, p_default_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.authenticate_credential(p_hash bytea, p_org_id uuid, p_default_limit integer) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.authenticate_session(p_token_hash bytea, p_org_id uuid, p_default_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.authenticate_session(p_token_hash bytea, p_org_id uuid, p_default_limit integer) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.base62_alphabet() FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.base62_alphabet() TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.begin_api_read(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_scope text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.begin_api_read(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_scope text) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.brand_name(p_org_id uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.cancel_deliveries_of_disabled_endpoint() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.cancel_queued_request_emails(p_org_id uuid, p_email text, p_request_id uuid, p_reason text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.canonical_json(v jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.canonical_json(v jsonb) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.canonical_json(v jsonb) TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.cdn_purge_on_change() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.change_verification(p_review_id uuid, p_status text, p_method text, p_reason text, p_key_id uuid, p_order_hash text, p_verb text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.change_verification(p_review_id uuid, p_status text, p_method text, p_reason text, p_key_id uuid, p_order_hash text, p_verb text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.check_custom_field_values(p_definitions jsonb, p_values jsonb) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.check_review_media_upload(p_review_id uuid, p_token_hash bytea, p_address_bucket text, p_address_limit integer, p_review_limit integer, OUT refusal text, OUT org_id uuid, OUT rate_remaining integer, OUT rate_reset bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.check_review_media_upload(p_review_id uuid, p_token_hash bytea, p_address_bucket text, p_address_limit integer, p_review_limit integer, OUT refusal text, OUT org_id uuid, OUT rate_remaining integer, OUT rate_reset bigint) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.check_review_media_upload(p_review_id uuid, p_token_hash bytea, p_address_bucket text, p_address_limit integer, p_review_limit integer, OUT refusal text, OUT org_id uuid, OUT rate_remaining integer, OUT rate_reset bigint) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.claim_cdn_purges(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.claim_cdn_purges(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.claim_emails(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.claim_emails(p_limit integer, p_lease_seconds integer, p_org_ids uuid[]) TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.claim_webhook_deliveries(p_limit integer, p_lease_seconds integer, p_per_endpoint integer, p_org_ids uuid[], p_per_org integer, p_org_busy jsonb, p_suspect_room integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.claim_webhook_deliveries(p_limit integer, p_lease_seconds integer, p_per_endpoint integer, p_org_ids uuid[], p_per_org integer, p_org_busy jsonb, p_suspect_room integer) TO plaudit_worker;

GRANT SELECT ON TABLE plaudit.imports TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.create_import(p_format text, p_dry_run boolean, p_total_rows integer, p_rows jsonb, p_rejected jsonb, p_actor text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.create_import(p_format text, p_dry_run boolean, p_total_rows integer, p_rows jsonb, p_rejected jsonb, p_actor text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.create_invitation(p_org_id uuid, p_email text, p_role text, p_invited_by_key_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.create_invitation(p_org_id uuid, p_email text, p_role text, p_invited_by_key_id uuid) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.create_review_requests(p_rows jsonb, p_link_base text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.create_review_requests(p_rows jsonb, p_link_base text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.create_test_delivery(p_endpoint_id uuid, p_event_type text, p_data jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.create_test_delivery(p_endpoint_id uuid, p_event_type text, p_data jsonb) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.create_webhook_endpoint(p_org_id uuid, p_url text, p_events text[], p_description text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.create_webhook_endpoint(p_org_id uuid, p_url text, p_events text[], p_description text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.csv_cell(v text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.csv_cell(v text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.csv_cell(v text) TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.csv_guard(v text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.csv_guard(v text) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.csv_guard(v text) TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.current_actor() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.current_org_id() FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.current_org_id() TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.current_org_id() TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.custom_field_definitions_are_valid(fields jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.custom_field_definitions_are_valid(fields jsonb) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.email_key(p_org_id uuid, p_email text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.email_key(p_org_id uuid, p_email text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.email_outbox_track_review_requests() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.email_suppressions_cancel_queued() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.email_suppressions_set_key() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.emit_event(p_org_id uuid, p_type text, p_data jsonb) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.end_session(p_token_hash bytea, p_everywhere boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.end_session(p_token_hash bytea, p_everywhere boolean) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.enqueue_email(p_org_id uuid, p_to text, p_template text, p_data jsonb, p_locale text, p_idempotency_key text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.erase_reviewer(p_email text, p_redact_content boolean, p_actor text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.erase_reviewer(p_email text, p_redact_content boolean, p_actor text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.erasure_notice() FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.erasure_notice() TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.erasure_notice() TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.export_csv_custom_cells(p_values jsonb, p_keys text[]) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.export_csv_header(p_custom_field_keys text[]) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.export_custom_field_keys(p_org_id uuid, p_form_id uuid) FROM PUBLIC;

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

REVOKE ALL ON FUNCTION plaudit.export_download_url(e plaudit.exports) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.export_download_url(e plaudit.exports) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.export_page(p_org_id uuid, p_from timestamp with time zone, p_to timestamp with time zone, p_after_ts timestamp with time zone, p_after_id uuid, p_rating integer, p_form_id uuid, p_with_hidden boolean, p_rows integer) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.export_step(p_export_id uuid, p_rows integer) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.exports_note_chain_head() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.fan_out_event() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.google_product_feed_page(p_slug text, p_product_page text, p_after_product uuid, p_after_created_at text, p_after_id uuid, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.google_product_feed_page(p_slug text, p_product_page text, p_after_product uuid, p_after_created_at text, p_after_id uuid, p_limit integer) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.google_product_feed_state(p_slug text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.google_product_feed_state(p_slug text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.gtin_is_valid(p_gtin text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.gtin_is_valid(p_gtin text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.hit_rate_limit(p_bucket text, p_limit integer, OUT allowed boolean, OUT remaining integer, OUT reset_at bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.hit_rate_limit(p_bucket text, p_limit integer, OUT allowed boolean, OUT remaining integer, OUT reset_at bigint) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.import_batch(p_import plaudit.imports, p_limit integer) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.import_form(p_org_id uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.import_json(p_import plaudit.imports) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.import_json(p_import plaudit.imports) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.import_key(p_format text, p_row jsonb) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.invitation_for_token(p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.invitation_for_token(p_token text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.invitations_cancel_queued_email() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.iso_utc(t timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.iso_utc(t timestamp with time zone) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.iso_utc(t timestamp with time zone) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.issue_api_key(p_org_id uuid, p_name text, p_scope text, p_rate_limit_per_minute integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.issue_api_key(p_org_id uuid, p_name text, p_scope text, p_rate_limit_per_minute integer) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.issue_media_upload_token(p_review_id uuid, p_token_hash bytea) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.issue_media_upload_token(p_review_id uuid, p_token_hash bytea) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.json_without_address(p_value jsonb, p_email text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.keep_an_owner() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.live_session(p_token_hash bytea) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.moderate_review(p_review_id uuid, p_action text, p_reason text, p_actor text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.moderate_review(p_review_id uuid, p_action text, p_reason text, p_actor text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.moderate_review_media(p_review_id uuid, p_media_id uuid, p_action text, p_reason text, p_actor text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.moderate_review_media(p_review_id uuid, p_media_id uuid, p_action text, p_reason text, p_actor text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.moderation_chain_head(p_org_id uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.moderation_chain_heads_guard() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.moderation_chain_status(p_entries bigint, p_head text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.moderation_chain_status(p_entries bigint, p_head text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.moderation_entry_hash(p_previous_hash bytea, p_org_id uuid, p_seq bigint, p_review_id uuid, p_action text, p_reason text, p_actor text, p_created_at timestamp with time zone) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.moderation_trail_refuse_change() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.new_webhook_secret() FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.new_webhook_secret() TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.notify_export_created() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.order_hash(p_org_id uuid, p_order_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.order_hash(p_org_id uuid, p_order_id text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.page_meta(p_total bigint, p_page integer, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.page_meta(p_total bigint, p_page integer, p_limit integer) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.page_meta(p_total bigint, p_page integer, p_limit integer) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.product_group_ids(p_org_id uuid, p_product_id uuid, p_group_key text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.product_group_statistics(p_product_ids uuid[], OUT public_count bigint, OUT rating_sum bigint, OUT rating_1 bigint, OUT rating_2 bigint, OUT rating_3 bigint, OUT rating_4 bigint, OUT rating_5 bigint) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.products_signal_changes() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.prune_rate_limits() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.public_embed_reviews(p_slug text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_embed_reviews(p_slug text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_feed_page_ids(p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_sort text, p_has_media boolean, p_offset bigint, p_limit integer) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.public_feed_ratings(p_min integer, p_rating integer) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.public_feed_total(p_org_id uuid, p_product_ids uuid[], p_ratings integer[], p_has_media boolean) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.public_form_product(p_form_id uuid, p_external_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_form_product(p_form_id uuid, p_external_id text) TO plaudit_public;

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

REVOKE ALL ON FUNCTION plaudit.public_listed_products(p_org_id uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.public_media_file(p_storage_key text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_media_file(p_storage_key text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_product(p_slug text, p_external_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_product(p_slug text, p_external_id text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_product_catalog(p_slug text, p_page integer, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_product_catalog(p_slug text, p_page integer, p_limit integer) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_product_of(p_slug text, p_external_id text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.public_product_ratings(p_slug text, p_external_ids text[]) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_product_ratings(p_slug text, p_external_ids text[]) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_product_reviews(p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_product_reviews(p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_product_version(p_slug text, p_external_id text, p_profile boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_product_version(p_slug text, p_external_id text, p_profile boolean) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_profile(p_slug text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_profile(p_slug text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_profile_reviews(p_slug text, p_rating integer, p_page integer, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_profile_reviews(p_slug text, p_rating integer, p_page integer, p_limit integer) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_profile_version(p_slug text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_profile_version(p_slug text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_read_product_reviews(p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean, OUT version text, OUT body text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_read_product_reviews(p_slug text, p_external_id text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean, OUT version text, OUT body text) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.public_read_product_version(p_slug text, p_external_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_read_product_version(p_slug text, p_external_id text) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.public_read_review_page(p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean, OUT version text, OUT body text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_read_review_page(p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean, OUT version text, OUT body text) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.public_read_version(p_slug text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_read_version(p_slug text) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.public_review_form(p_form_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_review_form(p_form_id uuid) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_review_items(p_ids uuid[]) FROM PUBLIC;

GRANT SELECT,DELETE ON TABLE plaudit.review_replies TO plaudit_api;

GRANT INSERT(review_id) ON TABLE plaudit.review_replies TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.review_replies TO plaudit_api;

GRANT INSERT(content),UPDATE(content) ON TABLE plaudit.review_replies TO plaudit_api;

GRANT UPDATE(updated_at) ON TABLE plaudit.review_replies TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.public_review_json(pr plaudit.public_reviews, reply plaudit.review_replies, product plaudit.products) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.public_review_page(p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_review_page(p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_sitemap(p_page integer, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_sitemap(p_page integer, p_limit integer) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_transparency(p_slug text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_transparency(p_slug text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_transparency_version(p_slug text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_transparency_version(p_slug text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_version(p_slug text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.public_version(p_slug text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.public_version_delta(p_org_id uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.purchase_proof_refusal(p_org_id uuid, p_order_id text, p_email text, p_product_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.purchase_proof_refusal(p_org_id uuid, p_order_id text, p_email text, p_product_id uuid) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.queue_due_reminders(p_now timestamp with time zone, p_limit integer, p_org_ids uuid[]) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.queue_invitation_email(p_invitation_id uuid, p_token text, p_link_base text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.queue_invitation_email(p_invitation_id uuid, p_token text, p_link_base text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.random_base62(n integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.random_base62(n integer) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.random_sign_in_code() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.rebuild_product_review_statistics(p_org_id uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.rebuild_review_statistics(p_org_id uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.record_cdn_purge(p_claim_token uuid, p_org_id uuid, p_sent boolean, p_error text, p_retry_in_ms bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.record_cdn_purge(p_claim_token uuid, p_org_id uuid, p_sent boolean, p_error text, p_retry_in_ms bigint) TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.record_email_provider_event(p_provider_message_id text, p_type text, p_event_id text, p_occurred_at timestamp with time zone, p_data jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.record_email_provider_event(p_provider_message_id text, p_type text, p_event_id text, p_occurred_at timestamp with time zone, p_data jsonb) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.record_email_result(p_id uuid, p_claim_token uuid, p_sent boolean, p_provider_message_id text, p_error text, p_retry_in_ms bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.record_email_result(p_id uuid, p_claim_token uuid, p_sent boolean, p_provider_message_id text, p_error text, p_retry_in_ms bigint) TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.record_test_delivery(p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text, p_response_snippet text, p_succeeded boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.record_test_delivery(p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text, p_response_snippet text, p_succeeded boolean) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.record_webhook_attempt(p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text, p_response_snippet text, p_outcome text, p_retry_in_ms bigint, p_disable_after_seconds integer, p_slow_ms integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.record_webhook_attempt(p_delivery_id uuid, p_claim_token uuid, p_status_code integer, p_duration_ms integer, p_error text, p_response_snippet text, p_outcome text, p_retry_in_ms bigint, p_disable_after_seconds integer, p_slow_ms integer) TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.refuse_changes_once_set() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.reject_review(p_review_id uuid, p_reason text, p_key_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.reject_review(p_review_id uuid, p_reason text, p_key_id uuid) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.reply_json(reply plaudit.review_replies) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.reply_json(reply plaudit.review_replies) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.reply_json(reply plaudit.review_replies) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.reply_to_review(p_review_id uuid, p_content text, p_actor text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.reply_to_review(p_review_id uuid, p_content text, p_actor text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.report_review(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea, p_reason text, p_details text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.report_review(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea, p_reason text, p_details text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.request_cdn_purge(p_org_id uuid, p_include_sitemap boolean) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.request_sign_in(p_email text, p_client text, p_link_base text, p_client_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.request_sign_in(p_email text, p_client text, p_link_base text, p_client_limit integer) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.resolve_review_report(p_id uuid, p_resolution text, p_actor text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.resolve_review_report(p_id uuid, p_resolution text, p_actor text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.review_event_forgotten(p_data jsonb, p_redact boolean) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.review_forms_stay_deleted() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.review_has_public_media(p_review_id uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.review_is_incentivized(r plaudit.reviews) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.review_is_public(p_is_hidden boolean, p_status text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.review_json(r plaudit.reviews, reply plaudit.review_replies) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.review_json(r plaudit.reviews, reply plaudit.review_replies) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.review_json(r plaudit.reviews, reply plaudit.review_replies) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.review_media_access(p_review_id uuid, p_token_hash bytea, OUT org_id uuid, OUT refusal text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.review_media_item_json(p_media_id uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.review_media_json(p_review_id uuid, p_public boolean) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.review_media_json(p_review_id uuid, p_public boolean) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.review_product_json(p_product_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.review_product_json(p_product_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.review_product_json(p_product_id uuid) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.review_replies_record() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.review_report_json(p_report_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.review_report_json(p_report_id uuid) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.review_request_email_withdrawal(p_org_id uuid, p_template text, p_to text, p_data jsonb) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.review_request_from_token(p_token text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.review_request_landing(p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.review_request_landing(p_token text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.review_request_links(p_request_id uuid, p_link_base text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.review_request_product_names(p_request_id uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.review_request_status_rank(p_status text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.review_request_status_rank(p_status text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.review_request_subjects(p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.review_request_subjects(p_token text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.review_request_token(p_request_id uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.review_request_unsubscribe_info(p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.review_request_unsubscribe_info(p_token text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.review_requests_guard_update() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.reviewer_data(p_email text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.reviewer_data(p_email text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.reviews_complete_review_requests() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.reviews_count_inserted() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.reviews_count_updated() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.reviews_emit_changes() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.reviews_emit_created() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.reviews_guard_update() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.reviews_record_moderation() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.reviews_refuse_delete() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.rotate_api_key(p_key_id uuid, p_grace_seconds integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.rotate_api_key(p_key_id uuid, p_grace_seconds integer) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.rotate_webhook_secret(p_endpoint_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.rotate_webhook_secret(p_endpoint_id uuid) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.run_delivery_maintenance() FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.run_delivery_maintenance() TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.run_exports(p_budget_ms integer, p_rows integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.run_exports(p_budget_ms integer, p_rows integer) TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.run_imports(p_budget_ms integer, p_rows integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.run_imports(p_budget_ms integer, p_rows integer) TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.run_maintenance() FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.run_maintenance() TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.run_review_request_maintenance() FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.run_review_request_maintenance() TO plaudit_worker;

REVOKE ALL ON FUNCTION plaudit.session_for_read(p_token_hash bytea, p_org_id uuid, p_rate_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.session_for_read(p_token_hash bytea, p_org_id uuid, p_rate_limit integer) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.session_idle_timeout() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.session_summary(p_token_hash bytea) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.session_summary(p_token_hash bytea) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.sign_in_code_hash(p_challenge_id uuid, p_code text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.sign_up(p_org_name text, p_slug text, p_email text, p_name text, p_client text, p_link_base text, p_client_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.sign_up(p_org_name text, p_slug text, p_email text, p_name text, p_client text, p_link_base text, p_client_limit integer) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.signal_target(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.submit_requested_review(p_token text, p_rate_bucket text, p_rate_limit integer, p_rating integer, p_title text, p_content text, p_reviewer_name text, p_reviewer_email text, p_custom_fields jsonb, p_order_id text, p_verify_url_base text, p_honeypot boolean, p_product_external_id text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.submit_requested_review(p_token text, p_rate_bucket text, p_rate_limit integer, p_rating integer, p_title text, p_content text, p_reviewer_name text, p_reviewer_email text, p_custom_fields jsonb, p_order_id text, p_verify_url_base text, p_honeypot boolean, p_product_external_id text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.submit_review(p_rate_bucket text, p_rate_limit integer, p_form_id uuid, p_rating integer, p_title text, p_content text, p_reviewer_name text, p_reviewer_email text, p_custom_fields jsonb, p_order_id text, p_verify_url_base text, p_honeypot boolean, p_product_id uuid, p_product_external_id text, p_request_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.submit_review(p_rate_bucket text, p_rate_limit integer, p_form_id uuid, p_rating integer, p_title text, p_content text, p_reviewer_name text, p_reviewer_email text, p_custom_fields jsonb, p_order_id text, p_verify_url_base text, p_honeypot boolean, p_product_id uuid, p_product_external_id text, p_request_id uuid) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.suppression_reason(p_org_id uuid, p_email text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.take_review_request_quota(p_org_id uuid, p_count integer) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.touch_updated_at() FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.track_review_request(p_token text, p_kind text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.track_review_request(p_token text, p_kind text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.unsubscribe_review_request(p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.unsubscribe_review_request(p_token text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.upsert_orders(p_org_id uuid, p_orders jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.upsert_orders(p_org_id uuid, p_orders jsonb) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.upsert_products(p_rows jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.upsert_products(p_rows jsonb) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.uri_component(t text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.verification_link_state(p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.verification_link_state(p_token text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.verify_moderation_chain(p_org_id uuid) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.verify_review_by_order(p_review_id uuid, p_order_id text, p_key_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.verify_review_by_order(p_review_id uuid, p_order_id text, p_key_id uuid) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.verify_review_by_token(p_token text, p_review_id uuid, p_key_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.verify_review_by_token(p_token text, p_review_id uuid, p_key_id uuid) TO plaudit_api;
GRANT ALL ON FUNCTION plaudit.verify_review_by_token(p_token text, p_review_id uuid, p_key_id uuid) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.verify_review_link(p_token text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.verify_review_link(p_token text) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.verify_sign_in(p_token text, p_email text, p_code text, p_user_agent text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.verify_sign_in(p_token text, p_email text, p_code text, p_user_agent text) TO plaudit_authenticator;

REVOKE ALL ON FUNCTION plaudit.visitor_hashes(p_review_id uuid, p_visitor bytea) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.vote_helpful(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.vote_helpful(p_rate_bucket text, p_rate_limit integer, p_slug text, p_review_id uuid, p_visitor bytea) TO plaudit_public;

REVOKE ALL ON FUNCTION plaudit.webhook_payload(p_type text, p_at timestamp with time zone, p_data jsonb) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.webhook_signatures(p_secret text, p_previous_secret text, p_previous_expires_at timestamp with time zone, p_message_id text, p_timestamp bigint, p_body text, OUT signature_hex text, OUT previous_signature_hex text, OUT webhook_signature text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.withdraw_review_reply(p_review_id uuid, p_actor text) FROM PUBLIC;
GRANT ALL ON FUNCTION plaudit.withdraw_review_reply(p_review_id uuid, p_actor text) TO plaudit_api;

REVOKE ALL ON FUNCTION plaudit.xml_element_or_nothing(name text, data text) FROM PUBLIC;

REVOKE ALL ON FUNCTION plaudit.xml_text(t text) FROM PUBLIC;

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

GRANT SELECT,DELETE ON TABLE plaudit.order_items TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.order_items TO plaudit_api;

GRANT INSERT(order_id) ON TABLE plaudit.order_items TO plaudit_api;

GRANT INSERT("position") ON TABLE plaudit.order_items TO plaudit_api;

GRANT INSERT(product_external_id) ON TABLE plaudit.order_items TO plaudit_api;

GRANT INSERT(quantity) ON TABLE plaudit.order_items TO plaudit_api;

GRANT SELECT ON TABLE plaudit.orders TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.orders TO plaudit_api;

GRANT INSERT(order_id) ON TABLE plaudit.orders TO plaudit_api;

GRANT INSERT(email),UPDATE(email) ON TABLE plaudit.orders TO plaudit_api;

GRANT INSERT(purchased_at),UPDATE(purchased_at) ON TABLE plaudit.orders TO plaudit_api;

GRANT SELECT ON TABLE plaudit.organizations TO plaudit_api;

GRANT UPDATE(name) ON TABLE plaudit.organizations TO plaudit_api;

GRANT UPDATE(website) ON TABLE plaudit.organizations TO plaudit_api;

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

GRANT SELECT ON TABLE plaudit.review_forms TO plaudit_api;

GRANT INSERT(org_id) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT INSERT(name),UPDATE(name) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT INSERT(verification_mode),UPDATE(verification_mode) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT INSERT(custom_fields),UPDATE(custom_fields) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT INSERT(is_active),UPDATE(is_active) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT UPDATE(deleted_at) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT INSERT(incentive),UPDATE(incentive) ON TABLE plaudit.review_forms TO plaudit_api;

GRANT SELECT ON TABLE plaudit.review_media TO plaudit_api;

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

GRANT SELECT(id) ON TABLE plaudit.review_verification_tokens TO plaudit_api;

GRANT SELECT(org_id) ON TABLE plaudit.review_verification_tokens TO plaudit_api;

GRANT SELECT(review_id) ON TABLE plaudit.review_verification_tokens TO plaudit_api;

GRANT SELECT(expires_at) ON TABLE plaudit.review_verification_tokens TO plaudit_api;

GRANT SELECT(used_at) ON TABLE plaudit.review_verification_tokens TO plaudit_api;

GRANT SELECT(created_at) ON TABLE plaudit.review_verification_tokens TO plaudit_api;

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

--
--

reset search_path;
reset check_function_bodies;

-- The secret review-request links are signed with, made once per database.
insert into plaudit.signing_secrets (purpose, secret)
values ('review_request_links', extensions.gen_random_bytes(32));
reset role;

-- pg_cron's schedules, where pg_cron is loaded (they run as the migrating role).
do $$
begin
  if exists (select from pg_available_extensions where name = 'pg_cron')
     and current_setting('shared_preload_libraries', true) like '%pg_cron%'
     and coalesce(current_setting('cron.database_name', true), 'postgres') = current_database()
  then
    create extension if not exists pg_cron with schema pg_catalog;
    perform cron.schedule('plaudit-maintenance', '* * * * *', 'select plaudit.run_maintenance()');
  else
    raise notice 'pg_cron is not loaded here: the local process runs plaudit.run_maintenance()';
  end if;
end
$$;

do $$
begin
  if not (exists (select from pg_available_extensions where name = 'pg_cron')
          and current_setting('shared_preload_libraries', true) like '%pg_cron%'
          and coalesce(current_setting('cron.database_name', true), 'postgres') = current_database())
  then
    raise notice 'pg_cron is not loaded here: the worker generates exports and runs maintenance itself';
    return;
  end if;

  create extension if not exists pg_cron with schema pg_catalog;
  perform cron.schedule('plaudit-exports', '* * * * *', 'select plaudit.run_exports(50000)');
  perform cron.schedule('plaudit-delivery-maintenance', '* * * * *', 'select plaudit.run_delivery_maintenance()');
end
$$;

do $$
begin
  if exists (select from pg_available_extensions where name = 'pg_cron')
     and current_setting('shared_preload_libraries', true) like '%pg_cron%'
     and coalesce(current_setting('cron.database_name', true), 'postgres') = current_database()
  then
    create extension if not exists pg_cron with schema pg_catalog;
    perform cron.schedule('plaudit-review-requests', '* * * * *', 'select plaudit.run_review_request_maintenance()');
  else
    raise notice 'pg_cron is not loaded here: the worker runs plaudit.run_review_request_maintenance()';
  end if;
end
$$;

do $$
begin
  if exists (select from pg_extension where extname = 'pg_cron') then
    perform cron.schedule('plaudit-imports', '* * * * *', 'select plaudit.run_imports(50000)');
  end if;
end
$$;
