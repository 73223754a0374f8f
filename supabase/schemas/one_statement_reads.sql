-- Reads in one statement, the answer's JSON made by PostgreSQL. An authenticated read was the
-- key's check (plaudit.authenticate), then a transaction of its own (begin, the tenant, the role,
-- the query, the end); now it is one autocommitted statement: a call that authenticates the key
-- (plaudit.authenticate, which counts the request), and when the key may read, sets its tenant,
-- switches to plaudit_api for the rest of the statement and answers the body as JSON text, which
-- the API passes through without parsing. Row-level security stays the guard: the query runs as
-- plaudit_api with the key's organization, never as the owner.

-- ============================================================================================
-- entering the tenant of a key
-- ============================================================================================
-- The key's organization and scope, and whether it has requests left this minute: looked up
-- without counting or locking anything, so that a read holds no lock while it reads.
create or replace function plaudit.api_key_for_read(p_key_hash bytea, p_rate_limit integer)
returns table (org_id uuid, scope text, within_limit boolean)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
  select k.org_id, k.scope,
         coalesce((select c.hits from plaudit.rate_limit_counters c
                    where c.bucket = 'key:' || k.id and c.window_start = date_trunc('minute', now())), 0)
         < coalesce(k.rate_limit_per_minute, p_rate_limit)
    from plaudit.api_keys k
   where k.key_hash = p_key_hash and (k.revoked_at is null or k.revoked_at > now())
$$;
comment on function plaudit.api_key_for_read(bytea,integer) is 'A key''s organization and scope, and whether it has requests left this minute, without counting or locking.';
grant execute on function plaudit.api_key_for_read(bytea,integer) to plaudit_authenticator;

-- When the key may read (known, with requests left this minute, of the organization asked for,
-- any when none is, with the scope), sets its tenant and switches to plaudit_api, both local to
-- the caller's transaction (one autocommitted statement), and answers true: the rest of the read
-- runs under row-level security. Runs with its caller's rights: only a login that may become
-- plaudit_api (the authenticator) gets past the role switch.
--
-- A read counts its request last (plaudit.authenticate, after switching back with
-- `set_config('role', 'none', true)`), so that the key's rate-limit row is locked from then to the
-- commit only, not for the whole read: concurrent requests of one key would queue on it.
-- plaudit.authenticate's row decides the answer, as on every route; a request that turns out to
-- be over the limit there answers 429 and its body is dropped.
create or replace function plaudit.begin_api_read(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_scope text)
returns boolean
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
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
comment on function plaudit.begin_api_read(bytea,uuid,integer,text) is 'When a key or session may read, enters its tenant as plaudit_api for the transaction and answers true.';
grant execute on function plaudit.begin_api_read(bytea,uuid,integer,text) to plaudit_authenticator;

-- ============================================================================================
-- JSON of the API's shapes
-- ============================================================================================
-- Compact JSON, as the API wrote it with JSON.stringify, key for key: strings through to_json
-- (escaped as JSON.stringify escapes them), timestamps as ISO 8601 UTC with milliseconds.
-- Plain SQL expressions without SET clauses, so that the planner inlines them into the query
-- (per row of a page); every name in them is schema-qualified.

-- A reply as the Review's `reply` writes it; null for no reply (a null row, as a left join or an
-- empty subquery gives it).
create or replace function plaudit.reply_json(reply plaudit.review_replies)
returns text
language sql
stable
parallel safe
as $$
  select case when reply.review_id is null then null else
    '{"content":' || pg_catalog.to_json(reply.content)::text
    || ',"created_at":"' || pg_catalog.to_char(reply.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","updated_at":"' || pg_catalog.to_char(reply.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '"}' end
$$;
comment on function plaudit.reply_json(plaudit.review_replies) is 'A review''s reply as the Review''s `reply` writes it, or null.';
grant execute on function plaudit.reply_json(plaudit.review_replies) to plaudit_api, plaudit_public;

-- A reviewed product as the Review's `product` writes it. A function of its own, called only for
-- reviews of products: a subquery written inside review_json would stop the planner inlining it.
-- (A product the reader cannot see writes null rather than voiding the whole Review.) Strict: the
-- events of reviews of the business call it with null, answered without its query being planned.
create or replace function plaudit.review_product_json(p_product_id uuid)
returns text
language sql
stable
strict
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select '{"id":"' || p.id::text || '","external_id":' || pg_catalog.to_json(p.external_id)::text
    || ',"name":' || pg_catalog.to_json(p.name)::text || '}'
    from plaudit.products p
   where p.id = p_product_id
$$;
comment on function plaudit.review_product_json(uuid) is 'A reviewed product as the Review''s `product` writes it.';
grant execute on function plaudit.review_product_json(uuid) to plaudit_api, plaudit_public;

-- The order a review was written for: the order of the review request it came through (an
-- order's request, made by a shop connection or given `order_id` by the API). A function of its
-- own, as review_product_json, called only for reviews written through a request.
create or replace function plaudit.review_order_id(p_review_id uuid)
returns text
language sql
stable
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select q.order_id from plaudit.review_requests q where q.review_id = p_review_id and q.order_id is not null limit 1
$$;
comment on function plaudit.review_order_id(uuid) is 'The order id of the review request a review was written through, if it names one.';
grant execute on function plaudit.review_order_id(uuid) to plaudit_api, plaudit_public;

-- The organization's Review, the contract's schema, written in one place: every route that
-- answers a Review (one review, the list and its first page, the submission, moderation,
-- verification, replies) and the JSON export call it with the review's row and its reply's row.
-- A field of the Review is added here, and nowhere else (CONTRIBUTING.md).
create or replace function plaudit.review_json(r plaudit.reviews, reply plaudit.review_replies)
returns text
language sql
stable
parallel safe
as $$
  select '{"id":"' || r.id::text || '","rating":' || r.rating::text
    || ',"title":' || coalesce(pg_catalog.to_json(r.title)::text, 'null')
    || ',"content":' || pg_catalog.to_json(r.content)::text
    || ',"reviewer_name":' || pg_catalog.to_json(r.reviewer_name)::text
    || ',"reviewer_email":' || coalesce(pg_catalog.to_json(r.reviewer_email)::text, 'null')
    || ',"verification_status":"' || r.verification_status
    || '","verification_method":' || coalesce(pg_catalog.to_json(r.verification_method)::text, 'null')
    || ',"verification_at":' || coalesce('"' || pg_catalog.to_char(r.verification_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')
    || ',"source":"' || r.source || '","source_platform":' || coalesce('"' || r.source_platform || '"', 'null')
    || ',"imported_as_verified":' || coalesce(r.imported_as_verified::text, 'null')
    || ',"incentive":' || coalesce('{"type":"' || (r.incentive ->> 'type') || '","description":'
         || pg_catalog.to_json(r.incentive ->> 'description')::text || '}', 'null')
    || ',"is_hidden":' || r.is_hidden::text
    || ',"created_at":"' || pg_catalog.to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","form_id":"' || r.form_id::text
    || '","order_id":' || case when r.source = 'invitation' then coalesce(pg_catalog.to_json(plaudit.review_order_id(r.id))::text, 'null') else 'null' end
    || ',"product":' || case when r.product_id is null then 'null' else coalesce(plaudit.review_product_json(r.product_id), 'null') end
    || ',"language":' || coalesce('"' || r.language || '"', 'null')
    || ',"custom_fields":' || case when r.custom_fields = '{}'::jsonb then '{}' else plaudit.canonical_json(r.custom_fields) end
    || ',"media":' || plaudit.review_media_json(r.id, false)
    || ',"reply":' || coalesce(plaudit.reply_json(reply), 'null')
    || '}'
$$;
comment on function plaudit.review_json(plaudit.reviews,plaudit.review_replies) is 'The organization''s Review as compact JSON: the one writer of it, for every route and the JSON export.';
grant execute on function plaudit.review_json(plaudit.reviews,plaudit.review_replies) to plaudit_api, plaudit_public;

-- The pagination envelope's meta, as the API's lists write it.
create or replace function plaudit.page_meta(p_total bigint, p_page integer, p_limit integer)
returns text
language sql
immutable
parallel safe
as $$
  select '{"total":' || p_total::text || ',"page":' || p_page::text || ',"limit":' || p_limit::text
    || ',"totalPages":' || ((p_total + p_limit - 1) / p_limit)::text || '}'
$$;
comment on function plaudit.page_meta(bigint,integer,integer) is 'The pagination envelope''s meta, as the API''s lists write it.';
grant execute on function plaudit.page_meta(bigint,integer,integer) to plaudit_api, plaudit_public;

-- GET /api/v1/organizations/:orgId
create or replace function plaudit.api_organization(p_key_hash bytea, p_org_id uuid, p_rate_limit integer)
returns table (
  key_id uuid, org_id uuid, scope text, prefix text,
  rate_limit integer, allowed boolean, remaining integer, reset_at bigint, body text
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
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
comment on function plaudit.api_organization(bytea,uuid,integer) is 'Answers GET /api/v1/organizations/:orgId in one statement.';
grant execute on function plaudit.api_organization(bytea,uuid,integer) to plaudit_authenticator;

-- GET /api/v1/organizations/:orgId/reviews/:id
create or replace function plaudit.api_review(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_review_id uuid)
returns table (
  key_id uuid, org_id uuid, scope text, prefix text,
  rate_limit integer, allowed boolean, remaining integer, reset_at bigint, body text
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
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
comment on function plaudit.api_review(bytea,uuid,integer,uuid) is 'Answers GET /api/v1/organizations/:orgId/reviews/:id in one statement.';
grant execute on function plaudit.api_review(bytea,uuid,integer,uuid) to plaudit_authenticator;

-- ============================================================================================
-- the review list's first page
-- ============================================================================================
-- GET /organizations/:orgId/reviews without a query string, or with only its defaults (`page=1`,
-- `limit=20`, as the SDK asks): page 1, 20 reviews, newest first, no filter, what an integrator's
-- poll and a dashboard's first look ask for, as one autocommitted
-- statement, as GET /organizations/:orgId already is: the key's check, the tenant and the role
-- switch (plaudit.begin_api_read), the page and its total written as the response body, and the
-- request counted last (plaudit.authenticate_credential). The API's fast reads call it
-- (functions/_shared/api/fast-reads/) and the route itself; every other list (another page or
-- size, a filter) is the route's tenant transaction (routes/reviews.ts, listReviews), whose page-1
-- query this is, word for word, so both answer the same bytes (tests/api/fast-reads.test.ts).
--
-- Its queries take no variable: the tenant is row-level security's (plaudit.org_id) and the page
-- size a number, so PL/pgSQL keeps one plan of each for the session. With LIMIT as a variable,
-- the login's force_custom_plan (or auto's cost comparison) planned the page on every call, which
-- is why an earlier list function was slower than the transaction (docs/benchmarks.md).
create or replace function plaudit.api_review_first_page(p_key_hash bytea, p_org_id uuid, p_rate_limit integer)
returns table (
  key_id uuid, org_id uuid, scope text, prefix text,
  rate_limit integer, allowed boolean, remaining integer, reset_at bigint, body text
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
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
comment on function plaudit.api_review_first_page(bytea,uuid,integer) is 'Answers the review list''s first page, 20 newest, in one statement.';
grant execute on function plaudit.api_review_first_page(bytea,uuid,integer) to plaudit_authenticator;

-- The version of a business's public data, for ETags (plaudit.public_version).
create or replace function plaudit.public_read_version(p_slug text)
returns text
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
begin
  perform set_config('role', 'plaudit_public', true);
  return plaudit.public_version(p_slug);
end
$$;
comment on function plaudit.public_read_version(text) is 'The version of a business''s public data, for ETags, read as plaudit_public.';
grant execute on function plaudit.public_read_version(text) to plaudit_authenticator;

-- A page of public reviews (plaudit.public_review_page) as the response body, with its version;
-- no body for an unknown slug, or for a profile page of a business whose profile is switched off.
create or replace function plaudit.public_read_review_page(
  p_slug text, p_scope text, p_page integer, p_limit integer, p_sort text, p_rating integer, p_has_media boolean,
  p_language text default null, p_reader_language text default null, p_attributes jsonb default null,
  out version text, out body text
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  p json;
begin
  perform set_config('role', 'plaudit_public', true);
  p := plaudit.public_review_page(p_slug, p_scope, p_page, p_limit, p_sort, p_rating, p_has_media,
                                 p_language, p_reader_language, p_attributes);
  version := p ->> 'version';
  if version is not null and (p_scope = 'embed' or (p ->> 'enabled')::boolean) then
    body := '{"data":' || (p -> 'items')::text || ',"meta":'
      || plaudit.page_meta((p ->> 'total')::bigint, p_page, p_limit) || '}';
  end if;
end
$$;
comment on function plaudit.public_read_review_page(text,text,integer,integer,text,integer,boolean,text,text,jsonb) is 'A page of public reviews, sorted and filtered, as the response body, with its version.';
grant execute on function plaudit.public_read_review_page(text,text,integer,integer,text,integer,boolean,text,text,jsonb) to plaudit_authenticator;

create or replace function plaudit.public_read_fragment(
  p_slug text, p_limit integer, p_sort text,
  out version text, out profile json, out items json
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
begin
  perform set_config('role', 'plaudit_public', true);
  profile := plaudit.public_profile(p_slug);
  version := profile ->> 'version';
  if version is null or not (profile ->> 'enabled')::boolean then
    profile := null;
    return;
  end if;
  -- Without a limit, the widget's number of reviews, at most 20 (the fragment's most).
  items := plaudit.public_review_page(
    p_slug, 'embed', 1, coalesce(p_limit, least((profile -> 'embed' ->> 'max_reviews')::integer, 20)), p_sort, null, false
  ) -> 'items';
end
$$;
comment on function plaudit.public_read_fragment(text,integer,text) is 'A fragment''s read in one statement: the profile, its first reviews and the version.';
grant execute on function plaudit.public_read_fragment(text,integer,text) to plaudit_authenticator;
