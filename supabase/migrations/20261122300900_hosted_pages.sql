-- What the hosted pages (no API key; run as plaudit_public) may read and do, each through one
-- SECURITY DEFINER function that answers only what its page shows: the review form page, the
-- review-request landing page, the open pixel and click redirect, the unsubscribe page and the
-- e-mail verification page. Review submission goes through plaudit.submit_review, the same SQL
-- as POST /api/v1/reviews.

-- The hosted form of /forms/:formId: an active form that is not deleted.
create function plaudit.public_review_form(p_form_id uuid)
returns table (id uuid, org_name text, name text, verification_mode text, custom_fields jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select f.id, o.name, f.name, f.verification_mode, f.custom_fields
  from plaudit.review_forms f join plaudit.organizations o on o.id = f.org_id
  where f.id = p_form_id and f.deleted_at is null and f.is_active
$$;

-- The landing page of /r/:token: the request's recipient (prefilled), its form and organization.
create function plaudit.review_request_landing(p_token text)
returns table (
  request_id uuid, status text, name text, email text, order_id text, locale text,
  form_id uuid, form_name text, form_active boolean, verification_mode text, custom_fields jsonb,
  org_name text
)
language sql
stable
security definer
set search_path = ''
as $$
  select q.id, q.status, q.name, q.email, q.order_id, q.locale,
         f.id, f.name, f.is_active and f.deleted_at is null, f.verification_mode, f.custom_fields, o.name
  from plaudit.review_requests q
  join plaudit.review_forms f on f.id = q.form_id
  join plaudit.organizations o on o.id = q.org_id
  where q.id = plaudit.review_request_from_token(p_token)
$$;

-- The open pixel and the click redirect: every open and click is counted; the first of each is
-- the event of the timeline (`opened`, `clicked`). Answers whether the token was valid.
create function plaudit.track_review_request(p_token text, p_kind text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  request_id uuid := plaudit.review_request_from_token(p_token);
begin
  if request_id is null or p_kind not in ('opened', 'clicked') then
    return false;
  end if;
  update plaudit.review_requests q
    set open_count = q.open_count + case when p_kind = 'opened' then 1 else 0 end,
        click_count = q.click_count + case when p_kind = 'clicked' then 1 else 0 end
    where q.id = request_id;
  if not found then
    return false;
  end if;
  perform plaudit.apply_review_request_event(request_id, p_kind, p_kind, now(), '{}');
  return true;
end
$$;

-- A review from the landing page: plaudit.submit_review for the request's form, and the request
-- completed with that review. Answers what submit_review answers; an unknown token answers
-- error_code P0002 (not found).
create function plaudit.submit_requested_review(
  p_token text,
  p_rate_bucket text,
  p_rate_limit integer,
  p_rating integer,
  p_title text,
  p_content text,
  p_reviewer_name text,
  p_reviewer_email text,
  p_custom_fields jsonb,
  p_order_id text,
  p_verify_url_base text,
  p_honeypot boolean default false
)
returns table (
  rate_allowed boolean, rate_remaining integer, rate_reset bigint,
  error_code text, error_message text,
  id uuid, form_id uuid, rating integer, title text, content text, reviewer_name text,
  reviewer_email text, verification_status text, is_hidden boolean, created_at timestamptz
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  request_id uuid := plaudit.review_request_from_token(p_token);
  q plaudit.review_requests;
  s record;
begin
  select * into q from plaudit.review_requests rr where rr.id = request_id;
  if not found then
    rate_allowed := true; rate_remaining := p_rate_limit; rate_reset := 0;
    error_code := 'P0002'; error_message := 'Review request not found';
    return next;
    return;
  end if;
  select * into s from plaudit.submit_review(
    p_rate_bucket, p_rate_limit, q.form_id, p_rating, p_title, p_content, p_reviewer_name,
    p_reviewer_email, p_custom_fields, coalesce(nullif(btrim(p_order_id), ''), q.order_id),
    p_verify_url_base, p_honeypot);
  if s.rate_allowed and s.error_code is null and not p_honeypot then
    perform plaudit.apply_review_request_event(q.id, 'completed', 'completed', now(),
      jsonb_build_object('review_id', s.id));
  end if;
  rate_allowed := s.rate_allowed; rate_remaining := s.rate_remaining; rate_reset := s.rate_reset;
  error_code := s.error_code; error_message := s.error_message;
  id := s.id; form_id := s.form_id; rating := s.rating; title := s.title; content := s.content;
  reviewer_name := s.reviewer_name; reviewer_email := s.reviewer_email;
  verification_status := s.verification_status; is_hidden := s.is_hidden; created_at := s.created_at;
  return next;
end
$$;

-- The unsubscribe page: who would be unsubscribed, from which organization.
create function plaudit.review_request_unsubscribe_info(p_token text)
returns table (email text, org_name text, suppressed boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select q.email, o.name, plaudit.suppression_reason(q.org_id, q.email) is not null
  from plaudit.review_requests q join plaudit.organizations o on o.id = q.org_id
  where q.id = plaudit.review_request_from_token(p_token)
$$;

-- Unsubscribes the request's address from the organization's review requests (the page's
-- button, and the one-click List-Unsubscribe-Post of mail clients). Answers 'unsubscribed',
-- 'already' or 'invalid'.
create function plaudit.unsubscribe_review_request(p_token text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
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

-- The verification page: plaudit.verify_review_by_token (one implementation, shared with the
-- API), and the organization's name for the page.
create function plaudit.verify_review_link(p_token text)
returns table (outcome text, org_name text)
language plpgsql
volatile
security definer
set search_path = ''
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

revoke execute on function
  plaudit.public_review_form(uuid),
  plaudit.review_request_landing(text),
  plaudit.track_review_request(text, text),
  plaudit.submit_requested_review(text, text, integer, integer, text, text, text, text, jsonb, text, text, boolean),
  plaudit.review_request_unsubscribe_info(text),
  plaudit.unsubscribe_review_request(text),
  plaudit.verify_review_link(text)
  from public;

grant execute on function
  plaudit.public_review_form(uuid),
  plaudit.review_request_landing(text),
  plaudit.track_review_request(text, text),
  plaudit.submit_requested_review(text, text, integer, integer, text, text, text, text, jsonb, text, text, boolean),
  plaudit.review_request_unsubscribe_info(text),
  plaudit.unsubscribe_review_request(text),
  plaudit.verify_review_link(text)
  to plaudit_public;
