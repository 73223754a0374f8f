-- Incentives (docs/trust.md, "Incentives"): what a business offered for a review — a discount, a
-- gift, points, a free product, a sweepstake entry — said on the form or the review request that
-- asks for it, and copied to each review collected through them, so the review keeps what was
-- offered when it was written.
set role plaudit_owner;

-- A check per rule, each passing null (no incentive), so that each stays short.
create domain plaudit.incentive as jsonb
  constraint incentive_is_an_object check (jsonb_typeof(value) = 'object')
  constraint incentive_has_only_type_and_description
    check (case when jsonb_typeof(value) = 'object' then (value - 'type' - 'description') = '{}'::jsonb end)
  constraint incentive_type_is_known
    check (value is null
           or coalesce(value ->> 'type' in ('discount', 'gift', 'points', 'free_product', 'sweepstake', 'other'), false))
  constraint incentive_description_is_1_to_500_characters
    check (value is null
           or coalesce(jsonb_typeof(value -> 'description') = 'string'
                       and char_length(value ->> 'description') between 1 and 500, false));
comment on domain plaudit.incentive is 'An incentive offered for a review: {"type": discount|gift|points|free_product|sweepstake|other, "description": 1 to 500 characters}.';

-- New columns go last, so that the row types' order stays.
alter table plaudit.review_forms add column incentive plaudit.incentive;
comment on column plaudit.review_forms.incentive is 'What the business offers for a review written on this form, or null.';
alter table plaudit.review_requests add column incentive plaudit.incentive;
comment on column plaudit.review_requests.incentive is 'What the business offers for a review written through this request, or null (then the form''s applies).';
alter table plaudit.reviews add column incentive plaudit.incentive;
comment on column plaudit.reviews.incentive is 'What the business offered for this review when it was written (its request''s, else its form''s), or null.';

grant insert (incentive), update (incentive) on plaudit.review_forms to plaudit_api;

revoke execute on all functions in schema plaudit from public;
reset role;
