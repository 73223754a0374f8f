-- Reads in one statement, the answer's JSON made by PostgreSQL. An authenticated read was the
-- key's check (plaudit.authenticate), then a transaction of its own (begin, the tenant, the role,
-- the query, the end); now it is one autocommitted statement: a call that authenticates the key
-- (plaudit.authenticate, which counts the request), and when the key may read, sets its tenant,
-- switches to plaudit_api for the rest of the statement and answers the body as JSON text, which
-- the API passes through without parsing. Row-level security stays the guard: the query runs as
-- plaudit_api with the key's organization, never as the owner.
--
-- Sections: entering the tenant of a key · JSON of the API's shapes · the reads · the public feed.
--
-- The authenticator plans every statement afresh (plan_cache_mode = force_custom_plan, for the
-- list's optional filters and deep pages); the lookups by key, id or primary key below keep
-- their cached plans instead (plan_cache_mode = auto on the function), which PostgreSQL would
-- otherwise rebuild on every request.
set role plaudit_owner;

-- ============================================================================================
-- entering the tenant of a key
-- ============================================================================================
-- Authenticates the key (plaudit.authenticate: the lookup by hash, the rate limit, last use) and,
-- when it may read (known, within its limit, of the organization asked for, any when none is, with
-- the scope), sets its tenant and switches to plaudit_api, both local to the caller's transaction
-- (one autocommitted statement): the rest of the calling read runs under row-level security.
-- Answers plaudit.authenticate's row, for the API to answer a refusal from, and whether the read
-- may go on; no row for an unknown key. Runs with its caller's rights: only a login that may
-- become plaudit_api (the authenticator) gets past the role switch.
create function plaudit.enter_api_read(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_scope text)
returns table (
  key_id uuid, org_id uuid, scope text, prefix text,
  rate_limit integer, allowed boolean, remaining integer, reset_at bigint, entered boolean
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  a record;
begin
  select * into a from plaudit.authenticate(p_key_hash, p_rate_limit);
  if not found then
    return;
  end if;
  entered := a.allowed and (p_org_id is null or a.org_id = p_org_id)
    and array_position(array['read', 'write', 'admin'], a.scope) >= array_position(array['read', 'write', 'admin'], p_scope);
  if entered then
    perform set_config('plaudit.org_id', a.org_id::text, true);
    perform set_config('role', 'plaudit_api', true);
  end if;
  key_id := a.key_id; org_id := a.org_id; scope := a.scope; prefix := a.prefix;
  rate_limit := a.rate_limit; allowed := a.allowed; remaining := a.remaining; reset_at := a.reset_at;
  return next;
end
$$;

-- ============================================================================================
-- JSON of the API's shapes
-- ============================================================================================
-- Compact JSON, as the API wrote it with JSON.stringify, key for key: strings through to_json
-- (escaped as JSON.stringify escapes them), timestamps as ISO 8601 UTC with milliseconds.
-- Plain SQL expressions without SET clauses, so that the planner inlines them into the query
-- (per row of a page); every name in them is schema-qualified.
create function plaudit.review_json(
  p_id uuid, p_rating integer, p_title text, p_content text, p_reviewer_name text, p_reviewer_email text,
  p_verification_status text, p_is_hidden boolean, p_created_at timestamptz, p_form_id uuid, p_custom_fields jsonb
)
returns text
language sql
stable
parallel safe
return '{"id":"' || p_id::text || '","rating":' || p_rating::text
  || ',"title":' || coalesce(pg_catalog.to_json(p_title)::text, 'null')
  || ',"content":' || pg_catalog.to_json(p_content)::text
  || ',"reviewer_name":' || pg_catalog.to_json(p_reviewer_name)::text
  || ',"reviewer_email":' || pg_catalog.to_json(p_reviewer_email)::text
  || ',"verification_status":"' || p_verification_status
  || '","is_hidden":' || p_is_hidden::text
  || ',"created_at":"' || pg_catalog.to_char(p_created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  || '","form_id":"' || p_form_id::text
  || '","custom_fields":' || case when p_custom_fields = '{}'::jsonb then '{}' else plaudit.canonical_json(p_custom_fields) end
  || '}';

-- The pagination envelope's meta, as the API's lists write it.
create function plaudit.page_meta(p_total bigint, p_page integer, p_limit integer)
returns text
language sql
immutable
parallel safe
return '{"total":' || p_total::text || ',"page":' || p_page::text || ',"limit":' || p_limit::text
  || ',"totalPages":' || ((p_total + p_limit - 1) / p_limit)::text || '}';

grant execute on function plaudit.review_json(uuid, integer, text, text, text, text, text, boolean, timestamptz, uuid, jsonb),
  plaudit.page_meta(bigint, integer, integer) to plaudit_api;

-- ============================================================================================
-- the reads
-- ============================================================================================
-- Each answers plaudit.authenticate's row (no row for an unknown key) with the response body:
-- null when the key may not read (the API answers the refusal from the row) or, for one item,
-- when it does not exist.

-- GET /api/v1/organizations/:orgId
create function plaudit.api_organization(p_key_hash bytea, p_org_id uuid, p_rate_limit integer)
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
  a record;
begin
  select * into a from plaudit.enter_api_read(p_key_hash, p_org_id, p_rate_limit, 'read');
  if not found then
    return;
  end if;
  return query select a.key_id, a.org_id, a.scope, a.prefix, a.rate_limit, a.allowed, a.remaining, a.reset_at, 
    case when a.entered then
      (select '{"id":"' || o.id::text || '","name":' || to_json(o.name)::text
              || ',"slug":' || to_json(o.slug)::text || ',"website":' || coalesce(to_json(o.website)::text, 'null')
              || ',"created_at":"' || to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}'
         from plaudit.organizations o where o.id = p_org_id)
    end;
end
$$;

-- GET /api/v1/organizations/:orgId/reviews/:id
create function plaudit.api_review(p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_review_id uuid)
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
  a record;
begin
  select * into a from plaudit.enter_api_read(p_key_hash, p_org_id, p_rate_limit, 'read');
  if not found then
    return;
  end if;
  return query select a.key_id, a.org_id, a.scope, a.prefix, a.rate_limit, a.allowed, a.remaining, a.reset_at, 
    case when a.entered then
      (select plaudit.review_json(r.id, r.rating, r.title, r.content, r.reviewer_name, r.reviewer_email,
                                  r.verification_status, r.is_hidden, r.created_at, r.form_id, r.custom_fields)
         from plaudit.reviews r where r.id = p_review_id)
    end;
end
$$;

-- GET /api/v1/organizations/:orgId/reviews and GET /api/v1/reviews (p_org_id null: the key's
-- organization): a page newest first, as the API's list did it. The page's ids are found first
-- (an index-only walk, however deep the page), then only those rows are read; an unfiltered list
-- takes its total from the statistics counter, never from counting. The bounds come checked and
-- converted from the API: p_from inclusive, p_to exclusive.
create function plaudit.api_reviews(
  p_key_hash bytea, p_org_id uuid, p_rate_limit integer, p_page integer, p_limit integer,
  p_rating integer, p_min_rating integer, p_max_rating integer, p_verification_status text,
  p_is_hidden boolean, p_form_id uuid, p_from timestamptz, p_to timestamptz, p_q text
)
returns table (
  key_id uuid, org_id uuid, scope text, prefix text,
  rate_limit integer, allowed boolean, remaining integer, reset_at bigint, body text
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  filtered boolean := coalesce(p_rating, p_min_rating, p_max_rating)::text is not null
    or p_verification_status is not null or p_is_hidden is not null or p_form_id is not null
    or p_from is not null or p_to is not null or p_q is not null;
  total bigint;
  items text;
  a record;
begin
  select * into a from plaudit.enter_api_read(p_key_hash, p_org_id, p_rate_limit, 'read');
  if not found then
    return;
  end if;
  if not a.entered then
  return query select a.key_id, a.org_id, a.scope, a.prefix, a.rate_limit, a.allowed, a.remaining, a.reset_at, null::text;
    return;
  end if;
  select coalesce(string_agg(plaudit.review_json(r.id, r.rating, r.title, r.content, r.reviewer_name,
                                                 r.reviewer_email, r.verification_status, r.is_hidden,
                                                 r.created_at, r.form_id, r.custom_fields), ','
                             order by page.created_at desc, page.id desc), '')
    into items
    from (select x.id, x.created_at from plaudit.reviews x
           where (p_rating is null or x.rating = p_rating)
             and (p_min_rating is null or x.rating >= p_min_rating)
             and (p_max_rating is null or x.rating <= p_max_rating)
             and (p_verification_status is null or x.verification_status = p_verification_status)
             and (p_is_hidden is null or x.is_hidden = p_is_hidden)
             and (p_form_id is null or x.form_id = p_form_id)
             and (p_from is null or x.created_at >= p_from)
             and (p_to is null or x.created_at < p_to)
             and (p_q is null or x.search @@ websearch_to_tsquery('simple', p_q))
           order by x.created_at desc, x.id desc
           limit p_limit offset (p_page - 1)::bigint * p_limit) page
    join plaudit.reviews r on r.id = page.id;
  if filtered then
    select count(*) into total from plaudit.reviews x
     where (p_rating is null or x.rating = p_rating)
       and (p_min_rating is null or x.rating >= p_min_rating)
       and (p_max_rating is null or x.rating <= p_max_rating)
       and (p_verification_status is null or x.verification_status = p_verification_status)
       and (p_is_hidden is null or x.is_hidden = p_is_hidden)
       and (p_form_id is null or x.form_id = p_form_id)
       and (p_from is null or x.created_at >= p_from)
       and (p_to is null or x.created_at < p_to)
       and (p_q is null or x.search @@ websearch_to_tsquery('simple', p_q));
  else
    select coalesce(sum(s.total_count), 0) into total from plaudit.review_statistics s;
  end if;
  return query select a.key_id, a.org_id, a.scope, a.prefix, a.rate_limit, a.allowed, a.remaining, a.reset_at, 
    '{"data":[' || items || '],"meta":' || plaudit.page_meta(total, p_page, p_limit) || '}';
end
$$;

-- ============================================================================================
-- the public feed
-- ============================================================================================
-- The public review pages and their revalidation, each one statement that switches to
-- plaudit_public for the rest of its transaction before it calls the public function (which
-- plaudit_public may call; the authenticator may not): runAsPublic's begin, role switch and
-- commit, folded into the statement.

-- The version of a business's public data, for ETags (plaudit.public_version).
create function plaudit.public_read_version(p_slug text)
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

-- A page of public reviews (plaudit.public_review_page) as the response body, with its version;
-- no body for an unknown slug, or for a profile page of a business whose profile is switched off.
create function plaudit.public_read_review_page(
  p_slug text, p_scope text, p_page integer, p_limit integer, out version text, out body text
)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  p json;
begin
  perform set_config('role', 'plaudit_public', true);
  p := plaudit.public_review_page(p_slug, p_scope, p_page, p_limit);
  version := p ->> 'version';
  if version is not null and (p_scope = 'embed' or (p ->> 'enabled')::boolean) then
    body := '{"data":' || (p -> 'items')::text || ',"meta":'
      || plaudit.page_meta((p ->> 'total')::bigint, p_page, p_limit) || '}';
  end if;
end
$$;

grant execute on function plaudit.page_meta(bigint, integer, integer) to plaudit_public;

grant execute on function plaudit.public_read_version(text),
  plaudit.public_read_review_page(text, text, integer, integer),
  plaudit.enter_api_read(bytea, uuid, integer, text),
  plaudit.api_organization(bytea, uuid, integer),
  plaudit.api_review(bytea, uuid, integer, uuid),
  plaudit.api_reviews(bytea, uuid, integer, integer, integer, integer, integer, integer, text, boolean, uuid,
                      timestamptz, timestamptz, text)
  to plaudit_authenticator;

revoke execute on all functions in schema plaudit from public;

reset role;
