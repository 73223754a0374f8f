-- ============================================================================================
-- The review list's first page in one statement
-- ============================================================================================
-- GET /organizations/:orgId/reviews without a query string, or with only its defaults (`page=1`,
-- `limit=20`, as the SDK asks): page 1, 20 reviews, newest first, no filter, what an integrator's
-- poll and a dashboard's first look ask for, as one autocommitted
-- statement, as GET /organizations/:orgId already is: the key's check, the tenant and the role
-- switch (plaudit.begin_api_read), the page and its total written as the response body, and the
-- request counted last (plaudit.authenticate_credential). The API's fast reads call it
-- (functions/_shared/api/fast-reads/); every other list (another page or size, a filter, a
-- session) stays the tenant transaction of the route (routes/reviews.ts), whose page-1 query this
-- is, word for word, so both answer the same bytes (tests/api/fast-reads.test.ts).
--
-- Its queries take no variable: the tenant is row-level security's (plaudit.org_id) and the page
-- size a number, so PL/pgSQL keeps one plan of each for the session. With LIMIT as a variable,
-- the login's force_custom_plan (or auto's cost comparison) planned the page on every call, which
-- is why an earlier list function was slower than the transaction (docs/benchmarks.md).
set role plaudit_owner;

create function plaudit.api_review_first_page(p_key_hash bytea, p_org_id uuid, p_rate_limit integer)
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
    select coalesce(string_agg(plaudit.review_json(r.id, r.rating, r.title, r.content, r.reviewer_name,
                               r.reviewer_email, r.verification_status, r.verification_method,
                               r.verification_at, r.is_hidden, r.created_at, r.form_id,
                               r.custom_fields, plaudit.reply_json(rr.content, rr.created_at, rr.updated_at)),
                               ',' order by page.created_at desc, page.id desc), '')
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

revoke execute on all functions in schema plaudit from public;
grant execute on function plaudit.api_review_first_page(bytea, uuid, integer) to plaudit_authenticator;
grant execute on function plaudit.page_meta(bigint, integer, integer) to plaudit_api;
reset role;
