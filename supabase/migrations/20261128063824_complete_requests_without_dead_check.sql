-- complete requests without dead check: written by `npm run db:migration` from supabase/sql/ (the functions' home).
set role plaudit_owner;

-- A review of the same address on the same form completes the organization's open requests,
-- however it was submitted (the landing page, the hosted form, the API). A request still
-- waiting for its send time is completed too, and its e-mail withdrawn: nobody is asked for a
-- review they already wrote. The review also counts as the request's review of its subject (the
-- business, or a product the request names), so the request's page no longer asks for that one.
-- Imported reviews never reach it: its trigger's WHEN leaves them out (they answer no request of today).
create or replace function plaudit.reviews_complete_review_requests()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  q record;
begin
  for q in
    select rr.id from plaudit.review_requests rr
    where rr.org_id = new.org_id and rr.form_id = new.form_id
      and lower(rr.email) = lower(new.reviewer_email) and rr.completed_at is null
  loop
    perform plaudit.apply_review_request_event(q.id, 'completed', 'completed', new.created_at,
      jsonb_build_object('review_id', new.id));
    insert into plaudit.review_request_reviews (org_id, request_id, product_id, review_id)
    select new.org_id, q.id, new.product_id, new.id
     where new.product_id is null
        or exists (select from plaudit.review_request_products rp
                    where rp.org_id = new.org_id and rp.request_id = q.id and rp.product_id = new.product_id)
    on conflict do nothing;
  end loop;
  return null;
end
$$;
comment on function plaudit.reviews_complete_review_requests() is 'A new review completes its organization''s open requests for the same address and form.';

revoke execute on all functions in schema plaudit from public;
reset role;
