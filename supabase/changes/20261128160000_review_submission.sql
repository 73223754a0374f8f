-- A reviewer's review as plaudit.submit_review takes it: one composite, the same for every way a
-- review is sent (POST /api/v1/reviews, the hosted form, a review request's page), built by its
-- fields' names (jsonb_populate_record) so that no caller depends on their order. What is not the
-- review (the client's rate-limit bucket, the limit, the base of the verification link) stays a
-- parameter of the function.
create type plaudit.review_submission as (
  form_id uuid,
  rating integer,
  title text,
  content text,
  reviewer_name text,
  reviewer_email text,
  custom_fields jsonb,
  order_id text,
  honeypot boolean,
  product_id uuid,
  product_external_id text
);
comment on type plaudit.review_submission is
  'A review as a reviewer sends it, the input of plaudit.submit_review and plaudit.submit_requested_review.';
