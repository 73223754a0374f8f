-- The public reads that agents search (the MCP server's public tools, docs/agents.md): the
-- business's public reviews found by words and filters, and its listed products found by name.
-- Like the other public functions: SECURITY DEFINER with a fixed search_path, called as
-- plaudit_public, null for an unknown slug or a switched-off profile. Review items are written by
-- plaudit.public_review_items alone (the public projection: never an e-mail, never a hidden review).

-- A window of the public reviews of a business (its own and its products'), or of one product's
-- group, whose title or text holds every word of p_query (websearch syntax, the organization
-- list's `q`), of one rating, verified only, with public media only, in one of the public orders.
-- `{"items":[…],"more":bool}`; `{"product_missing":true}` for an unknown product of a known business.
create or replace function plaudit.public_search_reviews(
  p_slug text, p_external_id text, p_query text, p_rating integer, p_verified_only boolean,
  p_with_media boolean, p_sort text, p_offset integer, p_limit integer
)
returns json
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  v_org uuid;
  v_groups uuid[];
  v_ids uuid[];
begin
  select o.id into v_org
    from plaudit.organizations o left join plaudit.public_profiles pp on pp.org_id = o.id
   where o.slug = p_slug and coalesce(pp.enabled, true);
  if v_org is null then
    return null;
  end if;
  if p_external_id is not null then
    select x.group_ids into v_groups from plaudit.public_product_of(p_slug, p_external_id) x;
    if v_groups is null then
      return json_build_object('product_missing', true);
    end if;
  end if;
  -- A plain ORDER BY of columns (not expressions): the newest of a large business is an index walk
  -- (reviews_org_id_created_at_id) that stops after the window, filters or not.
  execute format($q$
    select array(
      select r.id from plaudit.reviews r
       where r.org_id = $1
         and plaudit.review_is_public(r.is_hidden, r.verification_status)
         and ($2::uuid[] is null or r.product_id = any ($2))
         and ($3::text is null or r.search @@ websearch_to_tsquery('simple', $3))
         and ($4::integer is null or r.rating = $4)
         and (not $5 or r.verification_status = 'verified')
         and (not $6 or plaudit.review_has_public_media(r.id))
       order by %s
       limit $8 + 1 offset $7)$q$,
    case p_sort when 'oldest' then 'r.created_at, r.id'
                when 'highest' then 'r.rating desc, r.created_at desc, r.id desc'
                when 'lowest' then 'r.rating, r.created_at desc, r.id desc'
                when 'helpful' then 'r.helpful_count desc, r.created_at desc, r.id desc'
                else 'r.created_at desc, r.id desc' end)
  into v_ids
  using v_org, v_groups, p_query, p_rating, p_verified_only, p_with_media, p_offset, p_limit;
  return json_build_object(
    'items', plaudit.public_review_items(v_ids[1:p_limit])::json,
    'more', coalesce(array_length(v_ids, 1), 0) > p_limit);
end
$$;
comment on function plaudit.public_search_reviews(text,text,text,integer,boolean,boolean,text,integer,integer) is 'A window of a business''s (or a product group''s) public reviews found by words and filters, in a public order.';
grant execute on function plaudit.public_search_reviews(text,text,text,integer,boolean,boolean,text,integer,integer) to plaudit_public;

-- A window of the products a business's public pages list, by name, whose name, external id or
-- brand holds p_query (any case), each with its public figures over its group (as its page shows
-- them). `{"items":[…],"more":bool}`.
create or replace function plaudit.public_search_products(
  p_slug text, p_query text, p_offset integer, p_limit integer
)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
    'items', coalesce((
      select json_agg(json_build_object(
               'external_id', l.external_id,
               'name', l.name,
               'url', l.url,
               'image_url', l.image_url,
               'brand', l.brand,
               'archived', l.archived,
               'average_rating', case when st.public_count > 0 then round(st.rating_sum::numeric / st.public_count, 2) end,
               'review_count', st.public_count) order by l.name, l.id)
        from (select * from plaudit.public_listed_products(o.id) lp
               where p_query is null
                  or strpos(lower(lp.name || ' ' || lp.external_id || ' ' || coalesce(lp.brand, '')), lower(p_query)) > 0
               order by lp.name, lp.id
               limit p_limit offset p_offset) l
        cross join lateral plaudit.product_group_statistics(plaudit.product_group_ids(o.id, l.id, l.group_key)) st
    ), '[]'),
    'more', exists (select from plaudit.public_listed_products(o.id) lp
                     where p_query is null
                        or strpos(lower(lp.name || ' ' || lp.external_id || ' ' || coalesce(lp.brand, '')), lower(p_query)) > 0
                     order by lp.name, lp.id offset p_offset + p_limit))
    from plaudit.organizations o
    left join plaudit.public_profiles pp on pp.org_id = o.id
   where o.slug = p_slug and coalesce(pp.enabled, true)
$$;
comment on function plaudit.public_search_products(text,text,integer,integer) is 'A window of a business''s listed products found by name, id or brand, each with its public figures.';
grant execute on function plaudit.public_search_products(text,text,integer,integer) to plaudit_public;
