-- The business's review policy page (/p/:slug/policy and its markdown twin; docs/compliance.md):
-- the settings it is written from, so that what it says is what the business does.

-- A slug's policy facts as JSON, null for an unknown slug (and only the version and enabled false
-- while the profile is off): its active forms by verification mode and the incentives they offer;
-- whether review requests went out, and with an incentive, in the last twelve months; the
-- reviews imported and from which platforms; the grounds its statements of reasons named in the
-- last twelve months (most used first, at most 20; each already public on a hidden review's
-- address); the widget's lowest rating, the media moderation, and the business's own text. Its
-- version is the transparency page's (profile, forms, DSA figures, month), which covers all of it.
create or replace function plaudit.public_review_policy(p_slug text)
returns json
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  with org as (
    select o.id, o.slug, coalesce(p.display_name, o.name) as name, coalesce(p.enabled, true) as enabled,
           coalesce(p.embed_min_rating, 1) as widget_min_rating, coalesce(p.media_moderation, 'auto') as media_moderation,
           p.review_policy, now() - interval '12 months' as since
      from plaudit.organizations o
      left join plaudit.public_profiles p on p.org_id = o.id
     where o.slug = p_slug
  ), forms as (
    select f.verification_mode, f.incentive
      from org join plaudit.review_forms f on f.org_id = org.id and f.deleted_at is null and f.is_active
  )
  select json_build_object(
    'version', plaudit.public_transparency_version(p_slug),
    'enabled', org.enabled,
    'slug', org.slug,
    'name', org.name,
    'forms', (select json_build_object(
                'none', count(*) filter (where f.verification_mode = 'none'),
                'email', count(*) filter (where f.verification_mode = 'email'),
                'purchase_proof', count(*) filter (where f.verification_mode = 'purchase_proof'),
                'manual', count(*) filter (where f.verification_mode = 'manual')) from forms f),
    'form_incentives', (select coalesce(json_agg(distinct f.incentive::jsonb), '[]') from forms f
                         where f.incentive is not null),
    'requests_last_12_months', exists (select from plaudit.review_requests q
                                        where q.org_id = org.id and q.created_at >= org.since),
    'request_incentives_last_12_months', exists (select from plaudit.review_requests q
                                                  where q.org_id = org.id and q.created_at >= org.since
                                                    and q.incentive is not null),
    'imports', (select json_build_object('count', count(*),
                                         'platforms', coalesce(array_agg(distinct r.source_platform), '{}'))
                  from plaudit.reviews r where r.org_id = org.id and r.source = 'import'),
    'grounds', (select coalesce(json_agg(json_build_object('type', g.ground_type, 'text', g.ground, 'count', g.n)
                                         order by g.n desc, g.ground_type, g.ground), '[]')
                  from (select s.ground_type, s.ground, count(*) as n
                          from plaudit.review_statements s
                         where s.org_id = org.id and s.created_at >= org.since
                         group by 1, 2 order by 3 desc, 1, 2 limit 20) g),
    'widget_min_rating', org.widget_min_rating,
    'media_moderation', org.media_moderation,
    'own_text', org.review_policy)
  from org
$$;
comment on function plaudit.public_review_policy(text) is 'The facts a slug''s review policy page is written from: forms by verification mode, incentives, review requests, imports, grounds of the last 12 months'' statements, widget and media settings, the business''s own text.';
grant execute on function plaudit.public_review_policy(text) to plaudit_public;

-- The slug whose review policy page the reviewer's mails link to (the statement of reasons, the
-- decision on an appeal): the organization's while its profile is public, null while it is switched
-- off (the page then answers 404, and the mails name no page). Called by the SECURITY DEFINER
-- functions that write those mails.
create or replace function plaudit.policy_page_slug(p_org_id uuid)
returns text
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select o.slug
    from plaudit.organizations o left join plaudit.public_profiles p on p.org_id = o.id
   where o.id = p_org_id and coalesce(p.enabled, true)
$$;
comment on function plaudit.policy_page_slug(uuid) is 'The slug whose review policy page the reviewer''s mails link to: the organization''s while its profile is public, else null.';
