-- What the public sees changes: each of these writes asks for its organization's CDN purge in its
-- own transaction (plaudit.cdn_purge_on_change, supabase/sql/16_cdn_purges.sql). Reviews count
-- when they were or are public (published, hidden, shown, verified); replies, products and the
-- public profile always; an organization when its name, slug or website changes, or it goes.
set role plaudit_owner;

-- The conditions spell plaudit.review_is_public out: a trigger's WHEN runs with the rights of
-- whoever writes, who may not call it.
create trigger reviews_purge_cdn_on_insert
  after insert on plaudit.reviews
  for each row when (not new.is_hidden and new.verification_status in ('verified', 'unverified'))
  execute function plaudit.cdn_purge_on_change();

create trigger reviews_purge_cdn_on_update
  after update on plaudit.reviews
  for each row when ((not old.is_hidden and old.verification_status in ('verified', 'unverified'))
                     or (not new.is_hidden and new.verification_status in ('verified', 'unverified')))
  execute function plaudit.cdn_purge_on_change();

create trigger review_replies_purge_cdn
  after insert or update or delete on plaudit.review_replies
  for each row execute function plaudit.cdn_purge_on_change();

create trigger products_purge_cdn
  after insert or update or delete on plaudit.products
  for each row execute function plaudit.cdn_purge_on_change();

create trigger public_profiles_purge_cdn
  after insert or update or delete on plaudit.public_profiles
  for each row execute function plaudit.cdn_purge_on_change();

create trigger organizations_purge_cdn_on_update
  after update on plaudit.organizations
  for each row when ((old.name, old.slug, old.website) is distinct from (new.name, new.slug, new.website))
  execute function plaudit.cdn_purge_on_change();

create trigger organizations_purge_cdn_on_delete
  after delete on plaudit.organizations
  for each row execute function plaudit.cdn_purge_on_change();

revoke execute on all functions in schema plaudit from public;
reset role;
