-- Verifying reviews: orders for purchase proof, e-mailed tokens and manual approval.

-- The provenance of a purchase-proof verification: SHA-256 (hex) of the tenant and order id, so
-- equal order ids of two organizations hash differently.
create or replace function plaudit.order_hash(p_org_id uuid, p_order_id text)
returns text
language sql
immutable
set search_path = pg_catalog, pg_temp
as $$ select encode(sha256(convert_to(p_org_id::text || ':' || p_order_id, 'UTF8')), 'hex') $$;
comment on function plaudit.order_hash(uuid,text) is 'The SHA-256 (hex) of the tenant and an order id: what a purchase-proof verification records.';
grant execute on function plaudit.order_hash(uuid,text) to plaudit_api;

-- The ids an order id a customer types may be stored as: as typed, and with or without the `#`
-- that shops put before their order numbers (Shopify's `#1001`), so that either finds the order.
create or replace function plaudit.order_id_forms(p_order_id text)
returns text[]
language sql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select array[btrim(p_order_id), '#' || ltrim(btrim(p_order_id), '#'), ltrim(btrim(p_order_id), '#')]
$$;
comment on function plaudit.order_id_forms(text) is 'An order id as typed, with and without a leading #: the forms purchase proof looks an order up by.';
grant execute on function plaudit.order_id_forms(text) to plaudit_api;

-- Why an order does not prove the purchase a review claims, or null when it does. The order must
-- be the organization's and, when it carries an e-mail address, the reviewer's (case-insensitively).
-- A review of a product also needs the order to hold that product or one of its group (by the
-- external_id of any product sharing the reviewed product's group), as Judge.me and Trustpilot
-- ask; an order loaded without items is "items unknown" and proves any product, as before
-- orders had items. Runs with the caller's rights: a tenant's orders and products only.
create or replace function plaudit.purchase_proof_refusal(p_org_id uuid, p_order_id text, p_email text, p_product_id uuid)
returns text
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select case
    when o.order_id is null then 'order_id: does not match an order of this organization for this reviewer'
    when p_product_id is null
      or not exists (select from plaudit.order_items i where i.org_id = o.org_id and i.order_id = o.order_id)
      or exists (
        select from plaudit.products reviewed
          join plaudit.products bought
            on bought.org_id = reviewed.org_id
           and (bought.id = reviewed.id or bought.group_key = reviewed.group_key)
          join plaudit.order_items i
            on i.org_id = bought.org_id and i.product_external_id = bought.external_id
         where reviewed.id = p_product_id and reviewed.org_id = o.org_id and i.order_id = o.order_id)
      then null
    else 'order_id: the order does not hold the reviewed product or a product of its group' end
  from (select) as one
  left join plaudit.orders o
    on o.org_id = p_org_id and o.order_id = any (plaudit.order_id_forms(p_order_id))
   and (o.email is null or lower(o.email) = lower(p_email))
$$;
comment on function plaudit.purchase_proof_refusal(uuid,text,text,uuid) is 'Why an order does not prove a review''s purchase (not the organization''s, another reviewer''s, or without the reviewed product or its group), or null when it does.';
grant execute on function plaudit.purchase_proof_refusal(uuid,text,text,uuid) to plaudit_api;

-- Bulk upsert of up to 1,000 orders ([{order_id, email?, purchased_at?, items?}]); an order id
-- given twice keeps its last occurrence. An existing order takes the new e-mail, purchase date and
-- items (absent → none): loading an order again replaces what it held. Items ([{product_external_id,
-- quantity}]) keep the product's external id as given, known to the catalog or not. Answers how
-- many orders were inserted and how many updated.
create or replace function plaudit.upsert_orders(p_org_id uuid, p_orders jsonb)
returns table (inserted integer, updated integer)
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
begin
  -- Statements of their own: the items of an order loaded again go before its new ones come.
  delete from plaudit.order_items oi
   where oi.org_id = p_org_id
     and oi.order_id in (select btrim(o.order_id) from jsonb_to_recordset(p_orders) as o(order_id text));
  return query
  with input as (
    select distinct on (btrim(o.order_id)) btrim(o.order_id) as order_id, o.email, o.purchased_at, o.items
    from rows from (jsonb_to_recordset(p_orders) as (order_id text, email text, purchased_at timestamptz, items jsonb))
      with ordinality as o(order_id, email, purchased_at, items, n)
    order by btrim(o.order_id), o.n desc
  ), written as (
    insert into plaudit.orders as t (org_id, order_id, email, purchased_at)
    select p_org_id, i.order_id, i.email, i.purchased_at from input i order by i.order_id
    on conflict (org_id, order_id) do update set email = excluded.email, purchased_at = excluded.purchased_at
    returning (t.xmax = 0) as is_new
  ), items as (
    insert into plaudit.order_items (org_id, order_id, position, product_external_id, quantity)
    select p_org_id, i.order_id, (x.n - 1)::smallint, btrim(x.product_external_id), coalesce(x.quantity, 1)
      from input i,
           rows from (jsonb_to_recordset(coalesce(i.items, '[]'))
                      as (product_external_id text, quantity integer)) with ordinality as x(product_external_id, quantity, n)
  )
  select (count(*) filter (where w.is_new))::integer, (count(*) filter (where not w.is_new))::integer from written w;
end
$$;
comment on function plaudit.upsert_orders(uuid,jsonb) is 'Inserts or updates up to 1,000 orders of an organization, replacing their items; answers how many were inserted and how many updated.';
grant execute on function plaudit.upsert_orders(uuid,jsonb) to plaudit_api;

-- Moves a pending review of the caller's tenant to `p_status`, recording provenance and the
-- actor for the trail: `api_key:<id>` for a key; for a signed-in member the API has set the
-- transaction's actor (`member:<id>`), which stays. Runs with the caller's rights.
create or replace function plaudit.change_verification(
  p_review_id uuid, p_status text, p_method text, p_reason text, p_key_id uuid,
  p_order_hash text, p_verb text
)
returns setof plaudit.reviews
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  current_status text;
  changed plaudit.reviews;
  prior_actor text := coalesce(current_setting('plaudit.actor', true), '');
begin
  select r.verification_status into current_status from plaudit.reviews r where r.id = p_review_id for update;
  if not found then
    raise exception 'Review not found' using errcode = 'no_data_found';
  end if;
  if current_status <> 'pending' then
    raise exception 'Only a pending review can be %; this one is %', p_verb, current_status
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  perform set_config('plaudit.actor', case when p_key_id is null then prior_actor else 'api_key:' || p_key_id end, true);
  update plaudit.reviews r
    set verification_status = p_status, verification_method = p_method, verification_at = now(),
        verification_key_id = p_key_id, verification_order_hash = p_order_hash,
        verification_reason = nullif(btrim(p_reason), '')
    where r.id = p_review_id
    returning r.* into changed;
  perform set_config('plaudit.actor', prior_actor, true);
  return next changed;
end
$$;
comment on function plaudit.change_verification(uuid,text,text,text,uuid,text,text) is 'Moves a pending review of the caller''s tenant to a verification status, recording provenance and actor.';
grant execute on function plaudit.change_verification(uuid,text,text,text,uuid,text,text) to plaudit_api;

-- Manual approval of a pending review, through change_verification so that provenance and the
-- trail are written as for every other verification.
create or replace function plaudit.approve_review(p_review_id uuid, p_reason text, p_key_id uuid)
returns setof plaudit.reviews
language sql
volatile
set search_path = pg_catalog, pg_temp
as $$ select * from plaudit.change_verification(p_review_id, 'verified', 'manual', p_reason, p_key_id, null, 'approved') $$;
comment on function plaudit.approve_review(uuid,text,uuid) is 'Approves a pending review of the caller''s tenant by hand: verified, method manual.';
grant execute on function plaudit.approve_review(uuid,text,uuid) to plaudit_api;

-- Manual rejection of a pending review: approve_review's counterpart.
create or replace function plaudit.reject_review(p_review_id uuid, p_reason text, p_key_id uuid)
returns setof plaudit.reviews
language sql
volatile
set search_path = pg_catalog, pg_temp
as $$ select * from plaudit.change_verification(p_review_id, 'rejected', 'manual', p_reason, p_key_id, null, 'rejected') $$;
comment on function plaudit.reject_review(uuid,text,uuid) is 'Rejects a pending review of the caller''s tenant by hand.';
grant execute on function plaudit.reject_review(uuid,text,uuid) to plaudit_api;

-- Purchase proof after submission: the order id must match an order of the review's
-- organization (and the reviewer's e-mail when the order has one) and, for a review of a product,
-- hold that product or one of its group when the order lists its items.
create or replace function plaudit.verify_review_by_order(p_review_id uuid, p_order_id text, p_key_id uuid)
returns setof plaudit.reviews
language plpgsql
volatile
set search_path = pg_catalog, pg_temp
as $$
declare
  r record;
  refusal text;
begin
  select rv.org_id, rv.reviewer_email, rv.verification_status, rv.product_id, f.verification_mode into r
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
  refusal := plaudit.purchase_proof_refusal(r.org_id, p_order_id, r.reviewer_email, r.product_id);
  if refusal is not null then
    raise exception '%', refusal using errcode = 'invalid_parameter_value';
  end if;
  return query select * from plaudit.change_verification(
    p_review_id, 'verified', 'purchase_proof', null, p_key_id,
    plaudit.order_hash(r.org_id, btrim(p_order_id)), 'verified');
end
$$;
comment on function plaudit.verify_review_by_order(uuid,text,uuid) is 'Verifies a pending review by purchase proof: the order must be its organization''s, the reviewer''s when it has an e-mail, and hold the reviewed product or its group when it lists items.';
grant execute on function plaudit.verify_review_by_order(uuid,text,uuid) to plaudit_api;

-- Spends an e-mail verification token. Used by the public link (no tenant, no key) and by the
-- authenticated verify route (tenant set: the review must be the tenant's; `p_review_id` must be
-- the token's review). Outcome: verified | already_used | expired | invalid | not_pending | held |
-- not_found (the review is not the tenant's).
create or replace function plaudit.verify_review_by_token(p_token text, p_review_id uuid default null, p_key_id uuid default null)
returns table (outcome text, review_id uuid)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
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
  -- A held review waits for a person (review_holds.sql): the link confirms nothing yet.
  if plaudit.review_is_held(t.review_id) then
    return query select 'held'::text, t.review_id;
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
comment on function plaudit.verify_review_by_token(text,uuid,uuid) is 'Spends an e-mail verification token; answers the outcome and the review concerned.';
grant execute on function plaudit.verify_review_by_token(text,uuid,uuid) to plaudit_api, plaudit_public;

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read the items of their own orders"
  on plaudit.order_items for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can add items to their own orders"
  on plaudit.order_items for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

-- Loading an order again replaces its items: the old ones are deleted first.
create policy "Tenants can replace the items of their own orders"
  on plaudit.order_items for delete to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own orders"
  on plaudit.orders for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can load their own orders"
  on plaudit.orders for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can update their own orders"
  on plaudit.orders for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own verification tokens"
  on plaudit.review_verification_tokens for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select, delete on plaudit.order_items to plaudit_api;
grant insert (org_id, order_id, position, product_external_id, quantity) on plaudit.order_items to plaudit_api;
grant select on plaudit.orders to plaudit_api;
grant insert (org_id, order_id, email, purchased_at) on plaudit.orders to plaudit_api;
grant update (email, purchased_at) on plaudit.orders to plaudit_api;
grant select (id, org_id, review_id, expires_at, used_at, created_at) on plaudit.review_verification_tokens to plaudit_api;
