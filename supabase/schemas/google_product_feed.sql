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

-- A product review's part of the Google feed, in the parts review_feed_elements keeps (the
-- product's page address and its <products> element go between them, written once per page), with
-- what the feed's walk needs: its organization, product, time and whether it is published.
create or replace function plaudit.review_feed_element(
  r plaudit.reviews,
  out review_id uuid, out org_id uuid, out product_id uuid, out created_at timestamptz, out published boolean,
  out head text, out middle text, out ending text
)
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select r.id, r.org_id, r.product_id, r.created_at, plaudit.review_is_public(r.is_hidden, r.verification_status),
         E'\n    <review><review_id>' || r.id::text || '</review_id>'
         || '<reviewer>' || case
              when btrim(n.name, E' \t\n\r') = '' or n.name = 'Anonymous' then '<name is_anonymous="true">Anonymous</name>'
              else '<name>' || n.name || '</name>' end || '</reviewer>'
         || '<is_verified_purchase>'
         || coalesce(r.verification_status = 'verified' and r.verification_method in ('purchase_proof', 'invitation'), false)::text
         || '</is_verified_purchase>'
         || '<is_incentivized_review>' || plaudit.review_is_incentivized(r)::text || '</is_incentivized_review>'
         || '<review_timestamp>' || to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
         || '</review_timestamp>'
         || plaudit.xml_element_or_nothing('title', plaudit.xml_text(r.title))
         || coalesce(nullif(plaudit.xml_element_or_nothing('content', plaudit.xml_text(r.content)), ''),
                     '<content>(no text)</content>'),
         -- The reviewer's photos the public may see (videos have no place in the feed).
         coalesce((select '<reviewer_images>' || string_agg('<reviewer_image><url>' || plaudit.xml_text(m.url)
                                                            || '</url></reviewer_image>', '' order by m.position)
                          || '</reviewer_images>'
                     from plaudit.review_media m
                    where m.review_id = r.id and m.type = 'image' and not m.is_hidden), '')
         || '<ratings><overall min="1" max="5">' || r.rating::text || '</overall></ratings>',
         '<is_spam>false</is_spam><collection_method>'
         || case when r.verification_status = 'verified' and r.verification_method = 'invitation'
                 then 'post_fulfillment' else 'unsolicited' end
         || '</collection_method></review>'
    from (select plaudit.xml_text(r.reviewer_name) as name) n
$$;
comment on function plaudit.review_feed_element(plaudit.reviews) is 'A product review''s Google feed XML in the three parts kept beside it, with its feed order and whether it is published.';

-- Keeps review_feed_elements as product reviews are inserted (a statement trigger: an import's
-- thousands of rows are one statement).
create or replace function plaudit.reviews_feed_elements_inserted()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  insert into plaudit.review_feed_elements
  select (plaudit.review_feed_element(n)).* from new_reviews n where n.product_id is not null;
  return null;
end
$$;
comment on function plaudit.reviews_feed_elements_inserted() is 'Writes the Google feed element of each product review an insert statement makes.';

-- Writes an element again only when what it holds changed (a helpful vote does not).
create or replace function plaudit.reviews_feed_elements_updated()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  insert into plaudit.review_feed_elements
  select (plaudit.review_feed_element(n)).*
    from new_reviews n join old_reviews o on o.id = n.id
   where n.product_id is not null
     and (o.reviewer_name, o.title, o.content, o.rating, o.verification_status, o.verification_method, o.incentive,
          o.is_hidden, o.product_id, o.created_at)
         is distinct from
         (n.reviewer_name, n.title, n.content, n.rating, n.verification_status, n.verification_method, n.incentive,
          n.is_hidden, n.product_id, n.created_at)
  on conflict (review_id) do update
    set product_id = excluded.product_id, created_at = excluded.created_at, published = excluded.published,
        head = excluded.head, middle = excluded.middle, ending = excluded.ending;
  return null;
end
$$;
comment on function plaudit.reviews_feed_elements_updated() is 'Writes a product review''s Google feed element again when an update changes what it holds.';

-- The photos of a review are in its element's middle part: written again for the reviews given.
create or replace function plaudit.rewrite_feed_element_photos(p_review_ids uuid[])
returns void
language sql
security definer
set search_path = pg_catalog, pg_temp
as $$
  update plaudit.review_feed_elements e set middle = x.middle
    from (select (plaudit.review_feed_element(r)).* from plaudit.reviews r where r.id = any (p_review_ids)) x
   where e.review_id = x.review_id and e.middle is distinct from x.middle;
$$;
comment on function plaudit.rewrite_feed_element_photos(uuid[]) is 'Writes the photos'' part of the Google feed elements of the reviews given again.';

-- A photo added, hidden or shown.
create or replace function plaudit.review_media_feed_elements_written()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  perform plaudit.rewrite_feed_element_photos((select array_agg(distinct m.review_id) from new_media m));
  return null;
end
$$;
comment on function plaudit.review_media_feed_elements_written() is 'Writes the feed elements of the reviews whose photos an insert or update statement changed again.';

-- A photo removed.
create or replace function plaudit.review_media_feed_elements_removed()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  perform plaudit.rewrite_feed_element_photos((select array_agg(distinct m.review_id) from old_media m));
  return null;
end
$$;
comment on function plaudit.review_media_feed_elements_removed() is 'Writes the feed elements of the reviews whose photos a delete statement removed again.';

-- Writes every product review's element of an organization again: after a bulk load with
-- triggers off (as the benchmarks seed), or to check the kept elements against the reviews.
create or replace function plaudit.rebuild_review_feed_elements(p_org_id uuid)
returns void
language sql
security definer
set search_path = pg_catalog, pg_temp
as $$
  delete from plaudit.review_feed_elements where org_id = p_org_id;
  insert into plaudit.review_feed_elements
  select (plaudit.review_feed_element(r)).* from plaudit.reviews r where r.org_id = p_org_id and r.product_id is not null;
$$;
comment on function plaudit.rebuild_review_feed_elements(uuid) is 'Writes every product review''s Google feed element of an organization again, from its reviews.';

-- One page of the feed: the <review> elements of up to p_limit published product reviews (not
-- hidden; verified or unverified; whatever their rating) after the cursor, in (product, created_at,
-- id) order, an index walk of the kept elements (review_feed_elements_feed_order), with the cursor
-- of the next page, each with its visible photos (reviewer_images, after review_url as the schema
-- orders it).
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
    select e.review_id as id, e.product_id, e.created_at, e.head, e.middle, e.ending
      from plaudit.review_feed_elements e
     where e.org_id = org and e.published
       and (e.product_id, e.created_at, e.review_id) >
           (coalesce(p_after_product, '00000000-0000-0000-0000-000000000000'),
            coalesce(p_after_created_at::timestamptz, '-infinity'),
            coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'))
     order by e.product_id, e.created_at, e.review_id
     limit least(greatest(p_limit, 1), 5000)
  ), product as materialized (
    select pr.id,
           '<review_url type="singleton">' || pg.url || '</review_url>' as page,
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
  -- The page's rows are in the feed's order already (the walk's): the aggregate keeps it.
  select string_agg(x.head || p.page || x.middle || p.products || x.ending, '' order by x.product_id, x.created_at, x.id),
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

-- ============================================================================================
-- trigger bindings
-- ============================================================================================
create trigger reviews_keep_feed_elements_inserted
  after insert on plaudit.reviews
  referencing new table as new_reviews
  for each statement execute function plaudit.reviews_feed_elements_inserted();

create trigger reviews_keep_feed_elements_updated
  after update on plaudit.reviews
  referencing old table as old_reviews new table as new_reviews
  for each statement execute function plaudit.reviews_feed_elements_updated();

create trigger review_media_keep_feed_elements_inserted
  after insert on plaudit.review_media
  referencing new table as new_media
  for each statement execute function plaudit.review_media_feed_elements_written();

create trigger review_media_keep_feed_elements_updated
  after update on plaudit.review_media
  referencing new table as new_media
  for each statement execute function plaudit.review_media_feed_elements_written();

create trigger review_media_keep_feed_elements_deleted
  after delete on plaudit.review_media
  referencing old table as old_media
  for each statement execute function plaudit.review_media_feed_elements_removed();
