-- The hosted pages of a review request: the form, its landing, unsubscribing, and the links of verification mails.

-- The hosted form of /forms/:formId: an active form that is not deleted. `website` (the profile's, else the
-- organization's) and `profile_slug` (when the profile is enabled) are where its thank-you page leads back to.
create or replace function plaudit.public_review_form(p_form_id uuid)
returns table (
  id uuid, org_name text, name text, verification_mode text, custom_fields jsonb, logo_url text,
  website text, profile_slug text
)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select f.id, plaudit.brand_name(f.org_id), f.name, f.verification_mode, f.custom_fields, p.logo_url,
         coalesce(p.website, o.website), case when coalesce(p.enabled, true) then o.slug end
  from plaudit.review_forms f
  join plaudit.organizations o on o.id = f.org_id
  left join plaudit.public_profiles p on p.org_id = f.org_id
  where f.id = p_form_id and f.deleted_at is null and f.is_active
$$;
comment on function plaudit.public_review_form(uuid) is 'The hosted form of /forms/:formId, when the form is active and not deleted, with where its thank-you page leads back to: the website, the profile''s slug when enabled.';
grant execute on function plaudit.public_review_form(uuid) to plaudit_public;

-- The landing page of /r/:token: the request's recipient (prefilled), its form and organization;
-- `website` and `profile_slug` as public_review_form's.
create or replace function plaudit.review_request_landing(p_token text)
returns table (
  request_id uuid, status text, name text, email text, order_id text, locale text,
  form_id uuid, form_name text, form_active boolean, verification_mode text, custom_fields jsonb,
  org_name text, logo_url text, website text, profile_slug text
)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select q.id, q.status, q.name, q.email, q.order_id, q.locale,
         f.id, f.name, f.is_active and f.deleted_at is null, f.verification_mode, f.custom_fields,
         plaudit.brand_name(q.org_id), p.logo_url,
         coalesce(p.website, o.website), case when coalesce(p.enabled, true) then o.slug end
  from plaudit.review_requests q
  join plaudit.review_forms f on f.id = q.form_id
  join plaudit.organizations o on o.id = q.org_id
  left join plaudit.public_profiles p on p.org_id = q.org_id
  where q.id = plaudit.review_request_from_token(p_token)
$$;
comment on function plaudit.review_request_landing(text) is 'The landing page of /r/:token: the request''s recipient (prefilled), its form and organization, with where its thank-you page leads back to.';
grant execute on function plaudit.review_request_landing(text) to plaudit_public;

-- The subjects the page of /r/:token asks about, in order: each product the request names (an
-- archived one only when it was reviewed already: it takes no new reviews), then the business
-- (product_position and product_external_id null). `reviewed`: a review of it was written through the request.
create or replace function plaudit.review_request_subjects(p_token text)
returns table (product_position integer, product_external_id text, name text, image_url text, reviewed boolean)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select s.product_position, s.product_external_id, s.name, s.image_url, s.reviewed
    from (
      select rp.position::integer as product_position, p.external_id as product_external_id, p.name, p.image_url,
             p.archived,
             exists (select from plaudit.review_request_reviews w
                      where w.org_id = rp.org_id and w.request_id = rp.request_id
                        and w.product_id = rp.product_id) as reviewed
        from plaudit.review_request_products rp
        join plaudit.products p on p.id = rp.product_id and p.org_id = rp.org_id
       where rp.request_id = plaudit.review_request_from_token(p_token)
      union all
      select null, null, plaudit.brand_name(q.org_id), null, false,
             exists (select from plaudit.review_request_reviews w
                      where w.org_id = q.org_id and w.request_id = q.id and w.product_id is null)
        from plaudit.review_requests q
       where q.id = plaudit.review_request_from_token(p_token)
    ) s
   where not s.archived or s.reviewed
   order by s.product_position nulls last
$$;
comment on function plaudit.review_request_subjects(text) is 'The subjects the page of /r/:token asks about (its products in order, then the business), and which were reviewed through it.';
grant execute on function plaudit.review_request_subjects(text) to plaudit_public;

-- The names of the products a request names, in order, for its e-mails.
create or replace function plaudit.review_request_product_names(p_request_id uuid)
returns jsonb
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(jsonb_agg(p.name order by rp.position), '[]')
    from plaudit.review_request_products rp
    join plaudit.products p on p.id = rp.product_id and p.org_id = rp.org_id
   where rp.request_id = p_request_id
$$;
comment on function plaudit.review_request_product_names(uuid) is 'The names of the products a review request names, in order, for its e-mails.';

-- A review from the landing page: plaudit.submit_review for the request's form, and the request
-- completed with it (the first review written through it completes it; reminders stop then). The
-- review (p_review) is of the business, or, with its product_external_id, of a product the request
-- names: each subject takes one review through the request, so a second one of the same subject
-- answers error_code 23505, and a product the request does not name 22023
-- (`product_external_id: …`). The request decides the form, the product and, when the reviewer
-- gives none, the order: p_review's form_id and product_id are not read.
-- Answers what submit_review answers; an unknown token answers error_code P0002 (not found).
-- Plans kept for the session, as plaudit.submit_review's.
create or replace function plaudit.submit_requested_review(
  p_token text,
  p_review plaudit.review_submission,
  p_rate_bucket text,
  p_rate_limit integer,
  p_verify_url_base text
)
returns table (
  rate_allowed boolean, rate_remaining integer, rate_reset bigint,
  error_code text, error_message text, error_constraint text, error_table text,
  id uuid, form_id uuid, rating integer, title text, content text, reviewer_name text,
  reviewer_email text, verification_status text, is_hidden boolean, created_at timestamptz
)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
set plan_cache_mode = auto
as $$
declare
  request_id uuid := plaudit.review_request_from_token(p_token);
  q plaudit.review_requests;
  s record;
  sent plaudit.review_submission := p_review;
  product uuid;
  subject text;
begin
  rate_allowed := true; rate_remaining := p_rate_limit; rate_reset := 0;
  -- Locked: two submissions of one subject through one request queue here.
  select * into q from plaudit.review_requests rr where rr.id = request_id for update;
  if not found then
    error_code := 'P0002'; error_message := 'Review request not found';
    return next;
    return;
  end if;
  if p_review.product_external_id is not null then
    select rp.product_id, p.name into product, subject
      from plaudit.review_request_products rp
      join plaudit.products p on p.id = rp.product_id and p.org_id = rp.org_id
     where rp.org_id = q.org_id and rp.request_id = q.id and p.external_id = p_review.product_external_id;
    if not found then
      error_code := '22023'; error_message := 'product_external_id: this review request does not name this product';
      return next;
      return;
    end if;
  end if;
  if exists (select from plaudit.review_request_reviews w
              where w.org_id = q.org_id and w.request_id = q.id and w.product_id is not distinct from product) then
    error_code := '23505';
    error_message := 'Your review of ' || coalesce(subject, plaudit.brand_name(q.org_id))
      || ' was already written through this request';
    return next;
    return;
  end if;
  sent.form_id := q.form_id;
  sent.product_id := product;
  sent.product_external_id := null;
  sent.order_id := coalesce(nullif(btrim(p_review.order_id), ''), q.order_id);
  select * into s from plaudit.store_submitted_review(sent, p_rate_bucket, p_rate_limit, p_verify_url_base, q.id);
  if s.rate_allowed and s.error_code is null and not coalesce(p_review.honeypot, false) then
    perform plaudit.apply_review_request_event(q.id, 'completed', 'completed', now(),
      jsonb_build_object('review_id', s.id));
    -- The completion trigger has linked the review already when it completed the request.
    insert into plaudit.review_request_reviews (org_id, request_id, product_id, review_id)
    values (q.org_id, q.id, product, s.id)
    on conflict do nothing;
    -- Written from the link mailed to the request's address, and signed with that address: the
    -- review is verified by the invitation, and no confirmation mail is needed (forms that want
    -- each review approved by hand stay pending).
    if lower(btrim(coalesce(p_review.reviewer_email, ''))) = lower(btrim(q.email))
       and s.verification_status in ('pending', 'unverified')
       and (select f.verification_mode from plaudit.review_forms f where f.id = q.form_id) <> 'manual'
    then
      perform set_config('plaudit.actor', 'reviewer:invitation', true);
      -- A request made for an order (shop connections) leaves the order's provenance on the review,
      -- as purchase proof does.
      update plaudit.reviews r
         set verification_status = 'verified', verification_method = 'invitation', verification_at = now(),
             verification_order_hash = case when q.order_id is not null then plaudit.order_hash(q.org_id, q.order_id) end
       where r.id = s.id;
      perform set_config('plaudit.actor', '', true);
      update plaudit.email_outbox e
         set status = 'failed', last_error = 'cancelled: verified by invitation', locked_until = null
       where e.org_id = q.org_id and e.template = 'review_verification' and e.status = 'queued'
         and e.data ->> 'review_id' = s.id::text;
      s.verification_status := 'verified';
    end if;
  end if;
  rate_allowed := s.rate_allowed; rate_remaining := s.rate_remaining; rate_reset := s.rate_reset;
  error_code := s.error_code; error_message := s.error_message;
  error_constraint := s.error_constraint; error_table := s.error_table;
  id := s.id; form_id := s.form_id; rating := s.rating; title := s.title; content := s.content;
  reviewer_name := s.reviewer_name; reviewer_email := s.reviewer_email;
  verification_status := s.verification_status; is_hidden := s.is_hidden; created_at := s.created_at;
  return next;
end
$$;
comment on function plaudit.submit_requested_review(text,plaudit.review_submission,text,integer,text) is 'Submits a landing page''s review of the business or of a product the request names, once per subject; completes the request.';
grant execute on function plaudit.submit_requested_review(text,plaudit.review_submission,text,integer,text) to plaudit_public;

-- The unsubscribe page: who would be unsubscribed, from which organization.
create or replace function plaudit.review_request_unsubscribe_info(p_token text)
returns table (email text, org_name text, suppressed boolean)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select q.email, o.name, plaudit.suppression_reason(q.org_id, q.email) is not null
  from plaudit.review_requests q join plaudit.organizations o on o.id = q.org_id
  where q.id = plaudit.review_request_from_token(p_token)
$$;
comment on function plaudit.review_request_unsubscribe_info(text) is 'The unsubscribe page: who would be unsubscribed, from which organization.';
grant execute on function plaudit.review_request_unsubscribe_info(text) to plaudit_public;

-- Unsubscribes the request's address from the organization's review requests (the page's
-- button, and the one-click List-Unsubscribe-Post of mail clients). Answers 'unsubscribed',
-- 'already' or 'invalid'.
create or replace function plaudit.unsubscribe_review_request(p_token text)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  request_id uuid := plaudit.review_request_from_token(p_token);
  q plaudit.review_requests;
  already boolean;
begin
  select * into q from plaudit.review_requests rr where rr.id = request_id;
  if not found then
    return 'invalid';
  end if;
  already := plaudit.suppression_reason(q.org_id, q.email) is not null;
  perform plaudit.apply_review_request_event(q.id, 'unsubscribed', 'unsubscribed', now(), '{}');
  -- An address suppressed for another reason (a bounce, by hand) stays so.
  return case when already then 'already' else 'unsubscribed' end;
end
$$;
comment on function plaudit.unsubscribe_review_request(text) is 'Puts a request''s address on its organization''s suppression list; answers unsubscribed, already or invalid.';
grant execute on function plaudit.unsubscribe_review_request(text) to plaudit_public;

-- The verification page: plaudit.verify_review_by_token (one implementation, shared with the
-- API), and the organization's name for the page.
create or replace function plaudit.verify_review_link(p_token text)
returns table (outcome text, org_name text)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  v record;
begin
  select * into v from plaudit.verify_review_by_token(p_token);
  return query
    select v.outcome, (select o.name from plaudit.reviews r join plaudit.organizations o on o.id = r.org_id
                       where r.id = v.review_id);
end
$$;
comment on function plaudit.verify_review_link(text) is 'Spends an e-mail verification token from the hosted page; answers the outcome and the organization''s name.';
grant execute on function plaudit.verify_review_link(text) to plaudit_public;

-- The verification page shows a link's state without spending it: mail providers' link scanners
-- open every link, so only the page's button (plaudit.verify_review_link) verifies.
create or replace function plaudit.verification_link_state(p_token text)
returns table (state text, org_name text)
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select case
           when t.id is null then 'invalid'
           when t.used_at is not null then 'already_used'
           when t.expires_at <= now() then 'expired'
           when r.verification_status <> 'pending' then 'not_pending'
           else 'pending'
         end,
         o.name
    from (select 1) one
    left join plaudit.review_verification_tokens t
      on t.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    left join plaudit.reviews r on r.id = t.review_id
    left join plaudit.organizations o on o.id = r.org_id
$$;
comment on function plaudit.verification_link_state(text) is 'The state of an e-mail verification link and the organization''s name, without spending the link.';
grant execute on function plaudit.verification_link_state(text) to plaudit_public;
