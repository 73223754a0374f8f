-- An import inserts thousands of reviews at once: the per-review triggers that cannot concern an
-- imported review (completing today's review requests; a CDN purge each, where the import asks for
-- one per batch) are not called for them at all.
set role plaudit_owner;

drop trigger reviews_complete_review_requests on plaudit.reviews;
create trigger reviews_complete_review_requests after insert on plaudit.reviews
  for each row when (new.source <> 'import')
  execute function plaudit.reviews_complete_review_requests();

drop trigger reviews_purge_cdn_on_insert on plaudit.reviews;
create trigger reviews_purge_cdn_on_insert after insert on plaudit.reviews
  for each row when (not new.is_hidden and new.verification_status in ('verified', 'unverified')
                     and new.source <> 'import')
  execute function plaudit.cdn_purge_on_change();

reset role;
