-- google product feed names its organization: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- The feed's state for a slug, in one small statement: whether it is published (the profile on and
-- the feed switched on), the business's name, the version its ETag comes from (public_version's
-- parts and the newest product change: a product renamed changes the feed) and when it last
-- changed. Null for an unknown slug; only `published` false (and the organization, whose cache key
-- the 404 carries) while it is not published.
create or replace function plaudit.google_product_feed_state(p_slug text)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
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
comment on function plaudit.google_product_feed_state(text) is 'Whether a slug''s Google Product Ratings feed is published, with the business''s name, the feed''s version and when it last changed.';

revoke execute on all functions in schema plaudit from public;
reset role;
