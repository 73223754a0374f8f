-- Reviews. A review is written once, by plaudit.submit_review (public submission), and never
-- deleted or rewritten: only moderation (is_hidden) and verification (status and its provenance)
-- may change afterwards, and the database enforces it for everyone, the table owner included
-- (a superuser can still disable triggers; nothing in a database stops its superuser).
create table plaudit.reviews (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id),
  form_id uuid not null,
  rating smallint not null check (rating between 1 and 5),
  title text check (char_length(title) between 1 and 200),
  content text not null check (char_length(content) between 1 and 5000),
  reviewer_name text not null check (char_length(reviewer_name) between 1 and 200),
  reviewer_email text not null
    check (char_length(reviewer_email) <= 320 and reviewer_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  -- Answers to the form's custom fields, keyed by field key, as validated at submission.
  custom_fields jsonb not null default '{}' check (jsonb_typeof(custom_fields) = 'object'),
  verification_status text not null
    check (verification_status in ('unverified', 'pending', 'verified', 'rejected')),
  is_hidden boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Verification provenance: how the current status was reached, when, and on whose word.
  verification_method text check (verification_method in ('email', 'purchase_proof', 'manual')),
  verification_at timestamptz,
  verification_key_id uuid references plaudit.api_keys (id),
  verification_token_id uuid,
  verification_order_hash text check (verification_order_hash ~ '^[0-9a-f]{64}$'),
  verification_reason text check (char_length(verification_reason) between 1 and 1000),
  -- Text search over title and content (`q` of the review list).
  search tsvector not null
    generated always as (to_tsvector('simple', coalesce(title, '') || ' ' || content)) stored,
  -- Deleting a form only marks it, so this reference always resolves, within the same tenant.
  foreign key (form_id, org_id) references plaudit.review_forms (id, org_id)
);

-- The list, newest first (scanned backwards), and its date range; also the export's walk.
create index reviews_org_id_created_at_id on plaudit.reviews (org_id, created_at, id);
-- One index per list filter, each ending in the sort order.
create index reviews_org_id_form_id on plaudit.reviews (org_id, form_id, created_at, id);
create index reviews_org_id_verification_status on plaudit.reviews (org_id, verification_status, created_at, id);
create index reviews_org_id_rating on plaudit.reviews (org_id, rating, created_at, id);
create index reviews_org_id_hidden on plaudit.reviews (org_id, created_at, id) where is_hidden;
create index reviews_search on plaudit.reviews using gin (search);
-- What the public sees: the widget and profile feeds, walked index-only (rating for min_rating).
create index reviews_public_feed on plaudit.reviews (org_id, created_at, id) include (rating)
  where not is_hidden and verification_status in ('verified', 'unverified');
-- The duplicate rule: same reviewer e-mail, form and text within 24 hours.
create index reviews_duplicate_lookup on plaudit.reviews (form_id, lower(reviewer_email), created_at);

-- Only the columns moderation and verification own may change, and a status only moves
-- forward: pending → verified | rejected.
create function plaudit.reviews_guard_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (new.id, new.org_id, new.form_id, new.rating, new.title, new.content, new.reviewer_name,
      new.reviewer_email, new.custom_fields, new.created_at)
     is distinct from
     (old.id, old.org_id, old.form_id, old.rating, old.title, old.content, old.reviewer_name,
      old.reviewer_email, old.custom_fields, old.created_at)
  then
    raise exception 'a review cannot be rewritten: only moderation and verification may change it'
      using errcode = 'restrict_violation';
  end if;
  if new.verification_status is distinct from old.verification_status then
    if not (old.verification_status = 'pending' and new.verification_status in ('verified', 'rejected')) then
      raise exception 'a review''s verification status can only move from pending to verified or rejected'
        using errcode = 'restrict_violation';
    end if;
  elsif (new.verification_method, new.verification_at, new.verification_key_id, new.verification_token_id,
         new.verification_order_hash, new.verification_reason)
        is distinct from
        (old.verification_method, old.verification_at, old.verification_key_id, old.verification_token_id,
         old.verification_order_hash, old.verification_reason)
  then
    raise exception 'verification provenance changes only with the verification status'
      using errcode = 'restrict_violation';
  end if;
  new.updated_at := now();
  return new;
end
$$;

create function plaudit.reviews_refuse_delete()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'reviews cannot be deleted; hide them through moderation instead'
    using errcode = 'restrict_violation';
end
$$;

create trigger reviews_guard_update
  before update on plaudit.reviews
  for each row execute function plaudit.reviews_guard_update();

create trigger reviews_refuse_delete
  before delete on plaudit.reviews
  for each row execute function plaudit.reviews_refuse_delete();

create trigger reviews_refuse_truncate
  before truncate on plaudit.reviews
  for each statement execute function plaudit.reviews_refuse_delete();

-- Outbox events, in the transaction of their cause.
-- review.created: what a receiver needs to show the review, never the reviewer's e-mail.
create function plaudit.reviews_emit_created()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform plaudit.emit_event(n.org_id, 'review.created', jsonb_build_object(
    'id', n.id, 'form_id', n.form_id, 'rating', n.rating, 'title', n.title, 'content', n.content,
    'reviewer_name', n.reviewer_name, 'verification_status', n.verification_status,
    'created_at', to_char(n.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
  from new_reviews n
  order by n.created_at, n.id;
  return null;
end
$$;

create trigger reviews_emit_created
  after insert on plaudit.reviews
  referencing new table as new_reviews
  for each statement execute function plaudit.reviews_emit_created();

alter table plaudit.reviews enable row level security;

create policy "Tenants can read their own reviews"
  on plaudit.reviews for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can moderate and verify their own reviews"
  on plaudit.reviews for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

-- Reviews are inserted by plaudit.submit_review only (SECURITY DEFINER); nobody deletes them.
grant select on plaudit.reviews to plaudit_api;
grant update (is_hidden, verification_status, verification_method, verification_at, verification_key_id,
              verification_order_hash, verification_reason)
  on plaudit.reviews to plaudit_api;

revoke execute on function plaudit.reviews_guard_update(), plaudit.reviews_refuse_delete(),
  plaudit.reviews_emit_created() from public;
