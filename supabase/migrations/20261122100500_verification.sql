-- Verification of reviews: e-mail tokens, purchase proof, manual approval and rejection. A
-- status only moves pending → verified | rejected (reviews_guard_update); every change records
-- its provenance on the review (method, time, API key, token, hashed order id), a trail entry
-- and a review.verified event (triggers of the moderation trail migration).

-- Single-use e-mail verification tokens. Only the SHA-256 of a token is stored; the token itself
-- travels once, in the verification e-mail (email_outbox.data).
create table plaudit.review_verification_tokens (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references plaudit.organizations (id),
  review_id uuid not null unique references plaudit.reviews (id),
  token_hash bytea not null unique check (octet_length(token_hash) = 32),
  expires_at timestamptz not null default now() + interval '7 days',
  used_at timestamptz,
  created_at timestamptz not null default now()
);

create index review_verification_tokens_org_id on plaudit.review_verification_tokens (org_id, created_at);

alter table plaudit.review_verification_tokens enable row level security;

create policy "Tenants can read their own verification tokens"
  on plaudit.review_verification_tokens for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- Never the hash, not even to its own tenant. Tokens are made and spent by the functions below.
grant select (id, org_id, review_id, expires_at, used_at, created_at)
  on plaudit.review_verification_tokens to plaudit_api;

alter table plaudit.reviews
  add foreign key (verification_token_id) references plaudit.review_verification_tokens (id);

-- Moves a pending review of the caller's tenant to `p_status`, recording provenance and the
-- actor (`api_key:<id>`) for the trail. Runs with the caller's rights.
create function plaudit.change_verification(
  p_review_id uuid, p_status text, p_method text, p_reason text, p_key_id uuid,
  p_order_hash text, p_verb text
)
returns setof plaudit.reviews
language plpgsql
volatile
set search_path = ''
as $$
declare
  current_status text;
  changed plaudit.reviews;
begin
  select r.verification_status into current_status from plaudit.reviews r where r.id = p_review_id for update;
  if not found then
    raise exception 'Review not found' using errcode = 'no_data_found';
  end if;
  if current_status <> 'pending' then
    raise exception 'Only a pending review can be %; this one is %', p_verb, current_status
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  perform set_config('plaudit.actor', case when p_key_id is null then '' else 'api_key:' || p_key_id end, true);
  update plaudit.reviews r
    set verification_status = p_status, verification_method = p_method, verification_at = now(),
        verification_key_id = p_key_id, verification_order_hash = p_order_hash,
        verification_reason = nullif(btrim(p_reason), '')
    where r.id = p_review_id
    returning r.* into changed;
  perform set_config('plaudit.actor', '', true);
  return next changed;
end
$$;

create function plaudit.approve_review(p_review_id uuid, p_reason text, p_key_id uuid)
returns setof plaudit.reviews
language sql
volatile
set search_path = ''
as $$ select * from plaudit.change_verification(p_review_id, 'verified', 'manual', p_reason, p_key_id, null, 'approved') $$;

create function plaudit.reject_review(p_review_id uuid, p_reason text, p_key_id uuid)
returns setof plaudit.reviews
language sql
volatile
set search_path = ''
as $$ select * from plaudit.change_verification(p_review_id, 'rejected', 'manual', p_reason, p_key_id, null, 'rejected') $$;

-- Purchase proof after submission: the order id must match an order of the review's
-- organization (and the reviewer's e-mail when the order has one).
create function plaudit.verify_review_by_order(p_review_id uuid, p_order_id text, p_key_id uuid)
returns setof plaudit.reviews
language plpgsql
volatile
set search_path = ''
as $$
declare
  r record;
begin
  select rv.org_id, rv.reviewer_email, rv.verification_status, f.verification_mode into r
    from plaudit.reviews rv join plaudit.review_forms f on f.id = rv.form_id
    where rv.id = p_review_id;
  if not found then
    raise exception 'Review not found' using errcode = 'no_data_found';
  end if;
  if r.verification_mode <> 'purchase_proof' then
    raise exception 'order_id: the review''s form does not use purchase-proof verification'
      using errcode = 'invalid_parameter_value';
  end if;
  if r.verification_status <> 'pending' then
    raise exception 'Only a pending review can be verified; this one is %', r.verification_status
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  if not plaudit.order_matches(r.org_id, p_order_id, r.reviewer_email) then
    raise exception 'order_id: does not match an order of this organization for this reviewer'
      using errcode = 'invalid_parameter_value';
  end if;
  return query select * from plaudit.change_verification(
    p_review_id, 'verified', 'purchase_proof', null, p_key_id,
    plaudit.order_hash(r.org_id, btrim(p_order_id)), 'verified');
end
$$;

-- Spends an e-mail verification token. Used by the public link (no tenant, no key) and by the
-- authenticated verify route (tenant set: the review must be the tenant's; `p_review_id` must be
-- the token's review). Outcome: verified | already_used | expired | invalid | not_pending |
-- not_found (the review is not the tenant's).
create function plaudit.verify_review_by_token(p_token text, p_review_id uuid default null, p_key_id uuid default null)
returns table (outcome text, review_id uuid)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  tenant uuid := plaudit.current_org_id();
  t plaudit.review_verification_tokens;
  status text;
begin
  if p_review_id is not null
     and not exists (select from plaudit.reviews r where r.id = p_review_id and (tenant is null or r.org_id = tenant))
  then
    return query select 'not_found'::text, p_review_id;
    return;
  end if;
  select * into t from plaudit.review_verification_tokens vt
    where vt.token_hash = sha256(convert_to(coalesce(p_token, ''), 'UTF8'))
    for update;
  if not found or t.review_id is distinct from coalesce(p_review_id, t.review_id)
     or t.org_id is distinct from coalesce(tenant, t.org_id) then
    return query select 'invalid'::text, p_review_id;
    return;
  end if;
  if t.used_at is not null then
    return query select 'already_used'::text, t.review_id;
    return;
  end if;
  if t.expires_at <= now() then
    return query select 'expired'::text, t.review_id;
    return;
  end if;
  select r.verification_status into status from plaudit.reviews r where r.id = t.review_id for update;
  if status <> 'pending' then
    return query select 'not_pending'::text, t.review_id;
    return;
  end if;
  update plaudit.review_verification_tokens set used_at = now() where id = t.id;
  perform set_config('plaudit.actor',
    case when p_key_id is null then 'reviewer:email_link' else 'api_key:' || p_key_id end, true);
  update plaudit.reviews r
    set verification_status = 'verified', verification_method = 'email', verification_at = now(),
        verification_token_id = t.id, verification_key_id = p_key_id
    where r.id = t.review_id;
  perform set_config('plaudit.actor', '', true);
  return query select 'verified'::text, t.review_id;
end
$$;

grant execute on function
  plaudit.change_verification(uuid, text, text, text, uuid, text, text),
  plaudit.approve_review(uuid, text, uuid),
  plaudit.reject_review(uuid, text, uuid),
  plaudit.verify_review_by_order(uuid, text, uuid),
  plaudit.verify_review_by_token(text, uuid, uuid)
  to plaudit_api;
grant execute on function plaudit.verify_review_by_token(text, uuid, uuid) to plaudit_public;

revoke execute on function
  plaudit.change_verification(uuid, text, text, text, uuid, text, text),
  plaudit.approve_review(uuid, text, uuid),
  plaudit.reject_review(uuid, text, uuid),
  plaudit.verify_review_by_order(uuid, text, uuid),
  plaudit.verify_review_by_token(text, uuid, uuid)
  from public;
