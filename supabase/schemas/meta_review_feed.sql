-- Meta's product review feed (CSV) and the feeds' report: every published review of a product,
-- one row each, in the columns of Meta's Product Review Feed Schema (docs/agents.md names them and
-- where they come from), for /api/v1/public/feeds/:slug/meta-product-reviews.csv; and how many
-- reviews each feed holds and leaves out, by reason, for /api/v1/public/feeds/:slug/report.
-- PostgreSQL writes the rows a page at a time, as it writes the Google feed's XML
-- (google_product_feed.sql): the API only streams text.

-- One page of the feed's rows after the cursor, in (product, created_at, id) order, as the Google
-- feed walks them, each row ended by CRLF, with the cursor of the next page. The cells, in the
-- order of routes/meta-review-feed.ts's META_REVIEW_FEED_COLUMNS: the aggregator, the store (its
-- name, slug and website or public page), the review (id, rating, title, text, written and last
-- changed, its visible photos), incentivized and has_verified_purchase on every row, the
-- reviewer's name (never an e-mail address: none is ever read), the product (name, page, image,
-- identifiers). Lists are JSON arrays in their cell. No rows while the feed is not published.
create or replace function plaudit.meta_review_feed_page(
  p_slug text, p_profile_url text, p_after_product uuid, p_after_created_at text, p_after_id uuid, p_limit integer)
returns table (csv text, reviews integer, last_product uuid, last_created_at text, last_id uuid)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  org record;
begin
  select o.id, o.slug, coalesce(nullif(btrim(p.display_name), ''), o.name) as name,
         coalesce(p.website, o.website, p_profile_url) as website
    into org
    from plaudit.organizations o left join plaudit.public_profiles p on p.org_id = o.id
   where o.slug = p_slug and coalesce(p.enabled, true) and coalesce(p.meta_review_feed, false);
  if org.id is null then
    return;
  end if;
  return query
  with page as materialized (
    select r.id, r.product_id, r.created_at, r.updated_at, r.rating, r.title, r.content, r.reviewer_name,
           r.verification_status, r.verification_method, plaudit.review_is_incentivized(r) as incentivized,
           (select json_agg(m.url order by m.position) from plaudit.review_media m
             where m.review_id = r.id and m.type = 'image' and not m.is_hidden)::text as images
      from plaudit.reviews r
     where r.org_id = org.id and r.product_id is not null
       and (r.product_id, r.created_at, r.id) >
           (coalesce(p_after_product, '00000000-0000-0000-0000-000000000000'),
            coalesce(p_after_created_at::timestamptz, '-infinity'),
            coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'))
       and plaudit.review_is_public(r.is_hidden, r.verification_status)
     order by r.product_id, r.created_at, r.id
     limit least(greatest(p_limit, 1), 5000)
  ), product as materialized (
    select pr.id,
           plaudit.csv_cell(pr.name) || ',' || plaudit.csv_cell(coalesce(pr.url,
             p_profile_url || '/products/' || plaudit.uri_component(pr.external_id)))
           || ',' || plaudit.csv_cell(case when pr.image_url is not null then json_build_array(pr.image_url)::text end)
           || ',' || plaudit.csv_cell(json_build_array(coalesce(pr.sku, pr.external_id))::text)
           || ',' || plaudit.csv_cell(case when pr.gtin is not null then json_build_array(pr.gtin)::text end)
           || ',' || plaudit.csv_cell(case when pr.mpn is not null then json_build_array(pr.mpn)::text end) as cells
      from plaudit.products pr
     where pr.id in (select page.product_id from page)
  )
  select string_agg(
           'Plaudit,' || plaudit.csv_cell(org.name) || ',' || plaudit.csv_cell(org.slug)
           || ',' || plaudit.csv_cell(json_build_array(org.website)::text)
           || ',' || x.id::text || ',' || x.rating::text
           || ',' || plaudit.csv_cell(x.title)
           || ',' || plaudit.csv_cell(coalesce(nullif(btrim(x.content), ''), '(no text)'))
           || ',' || to_char(x.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
           || ',' || to_char(x.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
           || ',' || plaudit.csv_cell(x.images)
           || ',' || x.incentivized::text
           || ',' || (x.verification_status = 'verified'
                      and x.verification_method in ('purchase_proof', 'invitation'))::text
           || ',' || plaudit.csv_cell(case when btrim(x.reviewer_name) = '' then 'Anonymous' else x.reviewer_name end)
           || ',' || (btrim(x.reviewer_name) = '' or x.reviewer_name = 'Anonymous')::text
           || ',' || p.cells || E'\r\n',
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
comment on function plaudit.meta_review_feed_page(text,text,uuid,text,uuid,integer) is 'A page of a slug''s Meta product review feed after a cursor: its CSV rows, and the next cursor.';
grant execute on function plaudit.meta_review_feed_page(text,text,uuid,text,uuid,integer) to plaudit_public;

-- The feeds' report: for each feed (google, meta), whether it is published, how many reviews went
-- in (published reviews of products) and how many were left out, by reason: no_product_id (a
-- published review of the business), hidden (hidden by the business), not_published (waiting for
-- verification or approval, or rejected). A feed holds the same reviews whether it is switched on
-- or not: the report says what it holds, or would. Null for an unknown slug or a switched-off
-- profile, and while neither feed is published.
create or replace function plaudit.review_feeds_report(p_slug text)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select json_build_object(
           'google', json_build_object('published', coalesce(p.google_product_feed, false)) :: jsonb || c.counts,
           'meta', json_build_object('published', coalesce(p.meta_review_feed, false)) :: jsonb || c.counts)
    from plaudit.organizations o
    left join plaudit.public_profiles p on p.org_id = o.id
    cross join lateral (
      select jsonb_build_object(
               'included', count(*) filter (where r.product_id is not null and plaudit.review_is_public(r.is_hidden, r.verification_status)),
               'left_out', jsonb_build_object(
                 'no_product_id', count(*) filter (where r.product_id is null and plaudit.review_is_public(r.is_hidden, r.verification_status)),
                 'hidden', count(*) filter (where r.is_hidden),
                 'not_published', count(*) filter (where not r.is_hidden and not plaudit.review_is_public(r.is_hidden, r.verification_status)))) as counts
        from plaudit.reviews r where r.org_id = o.id
    ) c
   where o.slug = p_slug and coalesce(p.enabled, true)
     and (coalesce(p.google_product_feed, false) or coalesce(p.meta_review_feed, false))
$$;
comment on function plaudit.review_feeds_report(text) is 'How many reviews each review feed (google, meta) holds and leaves out, by reason; null unless a feed is published.';
grant execute on function plaudit.review_feeds_report(text) to plaudit_public;
