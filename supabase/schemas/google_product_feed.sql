-- The Google Product Ratings feed: every published review of a product, as Google's Product
-- Reviews Feed (schema 2.4) wants it, for /api/v1/public/feeds/:slug/google-product-reviews.xml.
-- PostgreSQL writes the XML of the reviews, a page at a time, so that the API only streams text
-- (its CPU stays small on hosted Edge Functions) and never holds the whole feed in memory.

-- Text as XML character data: the characters XML 1.0 forbids (C0 controls but tab, newline and
-- carriage return; U+FFFE, U+FFFF) are dropped, and &, <, > escaped, so that any name or review
-- (markup, `]]>` included) stays text and the document stays well-formed. No search_path of its
-- own, every name qualified: PostgreSQL inlines it into the page's query. (regexp_replace: translate
-- with these characters cost ten times more a call, measured.)
create or replace function plaudit.xml_text(t text)
returns text
language sql
immutable
strict
parallel safe
as $$
  select pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(
    pg_catalog.regexp_replace(t, E'[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\uFFFE\\uFFFF]', '', 'g'),
    '&', '&amp;'), '<', '&lt;'), '>', '&gt;')
$$;
comment on function plaudit.xml_text(text) is 'Text as XML 1.0 character data: forbidden characters dropped, &, < and > escaped.';

-- An XML element around character data (xml_text's), or nothing when it is null or blank (Google's
-- nonEmptyStringType needs a character besides white space).
create or replace function plaudit.xml_element_or_nothing(name text, data text)
returns text
language sql
immutable
parallel safe
as $$
  select case when pg_catalog.btrim(data, E' \t\n\r') <> '' then '<' || name || '>' || data || '</' || name || '>'
              else '' end
$$;
comment on function plaudit.xml_element_or_nothing(text,text) is 'An XML element around character data, or the empty string when the data is null or blank.';

-- A URI component as JavaScript's encodeURIComponent writes it: what is not a letter, a digit or
-- one of - _ . ! ~ * ' ( ) becomes the %XX of its UTF-8 bytes. Most ids need nothing: they are
-- answered as they are, without looking at each character.
create or replace function plaudit.uri_component(t text)
returns text
language sql
immutable
strict
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select case when t ~ '^[A-Za-z0-9_.!~*''()-]*$' then t
    else (select string_agg(case when c ~ '^[A-Za-z0-9_.!~*''()-]$' then c
                                 else regexp_replace(upper(encode(convert_to(c, 'UTF8'), 'hex')), '(..)', '%\1', 'g')
                            end, '' order by i)
            from regexp_split_to_table(t, '') with ordinality as s(c, i))
  end
$$;
comment on function plaudit.uri_component(text) is 'Text percent-encoded as encodeURIComponent encodes it.';

-- Whether a review was collected with an incentive (a discount, a gift …), for the feed's
-- is_incentivized_review: the review keeps the incentive of its form or request (docs/trust.md),
-- and this is the one place that decides it. No search_path of its own: inlined, it costs the feed
-- a null test per review.
create or replace function plaudit.review_is_incentivized(r plaudit.reviews)
returns boolean
language sql
immutable
parallel safe
as $$ select r.incentive is not null $$;
comment on function plaudit.review_is_incentivized(plaudit.reviews) is 'Whether a review was collected with an incentive: the Google feed''s is_incentivized_review.';

-- A review feed's state for a slug, in one small statement: whether it is published (the profile
-- on and the feed switched on: p_feed 'google', the Google Product Ratings feed, or 'meta', Meta's
-- product review feed), the business's name, the version its ETag comes from (public_version's
-- parts and the newest product change: a product renamed changes the feed) and when it last
-- changed. Null for an unknown slug; only `published` false (and the organization, whose cache key
-- the 404 carries) while it is not published.
create or replace function plaudit.review_feed_state(p_slug text, p_feed text)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select case when not (coalesce(p.enabled, true)
                        and coalesce(case p_feed when 'google' then p.google_product_feed
                                                 when 'meta' then p.meta_review_feed end, false))
    then json_build_object('published', false, 'org_id', o.id)
    else json_build_object(
      'published', true,
      'org_id', o.id,
      'name', coalesce(nullif(btrim(p.display_name), ''), o.name),
      'website', coalesce(p.website, o.website),
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
comment on function plaudit.review_feed_state(text,text) is 'Whether a slug''s review feed (google or meta) is published, with the business''s name, the feed''s version and when it last changed.';
grant execute on function plaudit.review_feed_state(text,text) to plaudit_public;

-- The Google Product Ratings feed's state (review_feed_state).
create or replace function plaudit.google_product_feed_state(p_slug text)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select plaudit.review_feed_state(p_slug, 'google')
$$;
comment on function plaudit.google_product_feed_state(text) is 'Whether a slug''s Google Product Ratings feed is published, with the business''s name, the feed''s version and when it last changed.';
grant execute on function plaudit.google_product_feed_state(text) to plaudit_public;

-- One page of the feed: the <review> elements of up to p_limit published product reviews (not
-- hidden; verified or unverified; whatever their rating) after the cursor, in (product, created_at,
-- id) order, an index walk of reviews_org_id_product_id_created_at, with the cursor of the next
-- page, each with its visible photos (reviewer_images, after review_url as the schema orders it).
-- Reviews of the business are not in it, nor any e-mail address (none is ever written).
-- p_product_page is the start of a product's public page, `{PUBLIC_URL}/p/{slug}/products/`; the
-- product's external_id, encoded, ends it. A product's part of the XML (its page, ids, name and
-- address) is written once per page, not once per review: a page holds few products. No rows
-- while the feed is not published.
create or replace function plaudit.google_product_feed_page(
  p_slug text, p_product_page text, p_after_product uuid, p_after_created_at text, p_after_id uuid, p_limit integer)
returns table (xml text, reviews integer, last_product uuid, last_created_at text, last_id uuid)
language plpgsql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
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
       and plaudit.review_is_public(r.is_hidden, r.verification_status)
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
comment on function plaudit.google_product_feed_page(text,text,uuid,text,uuid,integer) is 'A page of a slug''s Google Product Ratings feed after a cursor: its <review> elements, and the next cursor.';
grant execute on function plaudit.google_product_feed_page(text,text,uuid,text,uuid,integer) to plaudit_public;
