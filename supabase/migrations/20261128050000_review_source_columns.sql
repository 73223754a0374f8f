-- Where each review came from (docs/trust.md, "Source"): `form` (the API or a hosted form),
-- `invitation` (written through a review request's page) or `import`, with the platform an
-- imported review came from and whether that platform called it verified.
set role plaudit_owner;

-- New columns go last, so that the row type's order stays.
alter table plaudit.reviews
  add column source text not null default 'form' check (source in ('form', 'invitation', 'import')),
  add column source_platform text
    check (source_platform in ('judgeme', 'yotpo', 'okendo', 'loox', 'shopify', 'plaudit')),
  add column imported_as_verified boolean,
  add constraint reviews_source_platform_only_for_imports check ((source = 'import') = (source_platform is not null)),
  add constraint reviews_imported_as_verified_only_for_imports check (source = 'import' or imported_as_verified is null);
comment on column plaudit.reviews.source is 'Where the review came from: form (the API or a hosted form), invitation (a review request''s page) or import.';
comment on column plaudit.reviews.source_platform is 'The platform an imported review came from (its import format); null unless imported.';
comment on column plaudit.reviews.imported_as_verified is 'Whether the platform an imported review came from called it verified; null unless imported.';

-- Reviews written before: those a review request brought are invitations, the rest forms. (A
-- request is also completed by a review its address wrote elsewhere; the past cannot tell the two
-- apart, new reviews can.) A backfill, not a rewrite: no trigger runs, updated_at stays.
alter table plaudit.reviews disable trigger user;
update plaudit.reviews r set source = 'invitation'
 where exists (select from plaudit.review_request_reviews w where w.review_id = r.id);
alter table plaudit.reviews enable trigger user;

revoke execute on all functions in schema plaudit from public;
reset role;
