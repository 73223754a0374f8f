-- hosted form product: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- The product a hosted form is asked to review (/forms/:formId?product=<external_id>): the form's
-- organization's product with this external id, archived or not (the page says which), while the
-- form takes reviews. For the public role: the form's link is public, and so are a product's name
-- and image on the pages that show its reviews.
create or replace function plaudit.public_form_product(p_form_id uuid, p_external_id text)
returns table (external_id text, name text, image_url text, archived boolean)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select p.external_id, p.name, p.image_url, p.archived
    from plaudit.review_forms f
    join plaudit.products p on p.org_id = f.org_id and p.external_id = p_external_id
   where f.id = p_form_id and f.deleted_at is null and f.is_active
$$;
comment on function plaudit.public_form_product(uuid,text) is 'The product of a hosted form''s organization with this external id (archived or not), while the form takes reviews.';

grant execute on function plaudit.public_form_product(uuid, text) to plaudit_public;

revoke execute on all functions in schema plaudit from public;
reset role;
