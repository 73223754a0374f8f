-- Orders that follow their shop: each order event of a connection updates the order, appends to
-- its timeline, and decides (here, and only here) the one review request the order makes, when,
-- for which products, or why none. docs/connections.md tells the reasoning.

-- The order statuses by precedence: an event arriving late never moves an order back
-- (`paid` after `fulfilled` is recorded in the timeline, the order stays fulfilled).
create or replace function plaudit.order_status_rank(p_status text)
returns integer
language sql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$ select array_position(array['created', 'paid', 'fulfilled', 'delivered', 'cancelled', 'refunded'], p_status) $$;
comment on function plaudit.order_status_rank(text) is 'An order status''s rank: created < paid < fulfilled < delivered < cancelled < refunded; null for an event that is not a status.';

-- Whether an order event reaches the automation's trigger. `fulfilled` is the first fulfilment of
-- any item; `delivered` falls back to `fulfilled` on platforms that never say delivered
-- (WooCommerce, Stripe); Stripe says nothing of fulfilment either: its payment is the fulfilment.
create or replace function plaudit.order_event_reaches_trigger(p_event text, p_trigger text, p_platform text)
returns boolean
language sql
immutable
parallel safe
set search_path = pg_catalog, pg_temp
as $$
  select case
    when p_trigger = 'paid' then p_event in ('paid', 'fulfilled', 'delivered')
    when p_platform = 'stripe' then p_event in ('paid', 'fulfilled', 'delivered')
    when p_trigger = 'fulfilled' or p_platform = 'woocommerce' then p_event in ('fulfilled', 'delivered')
    else p_event = 'delivered'
  end
$$;
comment on function plaudit.order_event_reaches_trigger(text,text,text) is 'Whether an order event reaches the automation''s trigger on a platform (delivered falls back to fulfilled where the platform never says it, and fulfilled to paid on Stripe).';

-- The automation settings of an organization, the defaults without a row.
create or replace function plaudit.review_request_automation_of(p_org_id uuid)
returns plaudit.review_request_automation
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(
    (select a from plaudit.review_request_automation a where a.org_id = p_org_id),
    row(p_org_id, false, 'fulfilled', 7, null, '{}', now())::plaudit.review_request_automation)
$$;
comment on function plaudit.review_request_automation_of(uuid) is 'An organization''s review-request automation, or the defaults (off, fulfilled, 7 days, no form, nothing excluded).';
grant execute on function plaudit.review_request_automation_of(uuid) to plaudit_api;

-- The products a request for an order names: its items the catalog knows (not archived), less
-- those the automation excludes (p_exclude, read once by the caller) and those refunded, in the
-- order's order, at most 20.
create or replace function plaudit.order_request_products(p_org_id uuid, p_order_id text, p_exclude text[])
returns jsonb
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(jsonb_agg(k.external_id order by k.position), '[]')
    from (
      select distinct on (p.external_id) p.external_id, i.position
        from plaudit.order_items i
        join plaudit.products p on p.org_id = i.org_id and p.external_id = i.product_external_id and not p.archived
       where i.org_id = p_org_id and i.order_id = p_order_id and not i.refunded
         and not (p.external_id = any (coalesce(p_exclude, '{}')))
       order by p.external_id, i.position
    ) k
   where k.position < 100
   limit 20
$$;
comment on function plaudit.order_request_products(uuid,text,text[]) is 'The products a review request for an order names: its known, unarchived items less the excluded and the refunded.';

-- Why an order that reached the trigger makes no request, or null when it makes one (`too_old`
-- is decided on arrival, by plaudit.record_order_event); a, the organization's automation, is read
-- once by the caller.
create or replace function plaudit.order_skip_reason(o plaudit.orders, a plaudit.review_request_automation)
returns text
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select case
    when not a.enabled or a.form_id is null
      or not exists (select from plaudit.review_forms f
                      where f.id = a.form_id and f.org_id = o.org_id and f.is_active and f.deleted_at is null)
      then 'automation_off'
    when o.email is null or o.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then 'no_email'
    when plaudit.suppression_reason(o.org_id, o.email) is not null then 'suppressed'
    when exists (select from plaudit.order_items i where i.org_id = o.org_id and i.order_id = o.order_id)
     and not exists (select from plaudit.order_items i
                      where i.org_id = o.org_id and i.order_id = o.order_id
                        and not (i.product_external_id = any (a.exclude_products))) then 'excluded'
  end
$$;
comment on function plaudit.order_skip_reason(plaudit.orders,plaudit.review_request_automation) is 'Why an order that reached the trigger makes no review request (automation_off, no_email, suppressed, excluded), or null.';

-- Marks an order skipped, once, and says so to the webhooks (order.skipped).
create or replace function plaudit.skip_order(o plaudit.orders, p_reason text, p_event_id bigint)
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
begin
  update plaudit.orders x set skipped_reason = p_reason, skipped_at = now()
   where x.org_id = o.org_id and x.order_id = o.order_id and x.skipped_reason is null and x.review_request_id is null;
  update plaudit.order_events e set notes = 'skipped: ' || p_reason where e.id = p_event_id;
  perform plaudit.emit_event(o.org_id, 'order.skipped', jsonb_build_object(
    'order_id', o.order_id, 'connection_id', o.connection_id, 'platform', o.platform, 'reason', p_reason,
    'at', plaudit.iso_utc(now())));
end
$$;
comment on function plaudit.skip_order(plaudit.orders,text,bigint) is 'Records why an order makes no review request, once, and emits order.skipped.';

-- Cancels the order's request if it was not sent yet (status canceled, its e-mail withdrawn),
-- and says so to the webhooks (review_request.canceled).
create or replace function plaudit.cancel_order_request(o plaudit.orders, p_event_id bigint)
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  q plaudit.review_requests;
begin
  select * into q from plaudit.review_requests r where r.id = o.review_request_id and r.status = 'queued' for update;
  if not found then
    return;
  end if;
  perform plaudit.apply_review_request_event(q.id, 'canceled', 'canceled', now(),
    jsonb_build_object('order_id', o.order_id, 'order_status', o.status));
  update plaudit.order_events e set notes = 'review request canceled' where e.id = p_event_id;
  perform plaudit.emit_event(o.org_id, 'review_request.canceled', jsonb_build_object(
    'id', q.id, 'order_id', o.order_id, 'connection_id', o.connection_id, 'external_id', q.external_id,
    'canceled_at', plaudit.iso_utc(now())));
end
$$;
comment on function plaudit.cancel_order_request(plaudit.orders,bigint) is 'Cancels an order''s review request that was not sent yet, withdrawing its e-mail, and emits review_request.canceled.';

-- A partial refund drops the refunded products from the order's request not sent yet; its
-- e-mail names the products that remain (none: the business alone).
create or replace function plaudit.drop_refunded_request_products(o plaudit.orders, p_event_id bigint)
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  q plaudit.review_requests;
  dropped jsonb;
begin
  select * into q from plaudit.review_requests r where r.id = o.review_request_id and r.status = 'queued' for update;
  if not found then
    return;
  end if;
  with gone as (
    delete from plaudit.review_request_products rp
     using plaudit.products p
     where rp.org_id = q.org_id and rp.request_id = q.id and p.id = rp.product_id
       and exists (select from plaudit.order_items i
                    where i.org_id = o.org_id and i.order_id = o.order_id and i.refunded
                      and i.product_external_id = p.external_id)
    returning p.external_id
  )
  select jsonb_agg(g.external_id) into dropped from gone g;
  if dropped is null then
    return;
  end if;
  perform plaudit.apply_review_request_event(q.id, 'products_dropped', 'products_dropped:' || p_event_id, now(),
    jsonb_build_object('products', dropped));
  update plaudit.email_outbox e
     set data = e.data || jsonb_build_object('product_names', plaudit.review_request_product_names(q.id))
   where e.org_id = q.org_id and e.idempotency_key = 'review_request:' || q.id and e.status = 'queued';
  update plaudit.order_events e set notes = 'refunded products dropped from the review request' where e.id = p_event_id;
end
$$;
comment on function plaudit.drop_refunded_request_products(plaudit.orders,bigint) is 'Drops an order''s refunded products from its review request not sent yet.';

-- The review request an order makes, as a row for plaudit.create_review_requests (with the
-- timeline entry it is noted on): due at the trigger's own time plus the delay, keyed
-- `order:<connection id>:<order id>` so that nothing makes a second, whatever repeats.
create or replace function plaudit.order_request_row(o plaudit.orders, a plaudit.review_request_automation,
                                                     p_trigger_at timestamptz, p_timeline_id bigint)
returns jsonb
language sql
stable
security definer
set search_path = pg_catalog, pg_temp
as $$
  select jsonb_build_object(
    'email', o.email, 'name', coalesce(o.name, left(split_part(o.email, '@', 1), 200)),
    'form_id', a.form_id, 'order_id', o.order_id, 'send_at', p_trigger_at + make_interval(days => a.delay_days),
    'external_id', 'order:' || o.connection_id || ':' || o.order_id,
    'locale', coalesce(o.locale, 'en'), 'products', plaudit.order_request_products(o.org_id, o.order_id, a.exclude_products),
    'timeline_id', p_timeline_id)
$$;
comment on function plaudit.order_request_row(plaudit.orders,plaudit.review_request_automation,timestamp with time zone,bigint) is 'The review request an order makes, as a row for create_review_requests: due at the trigger''s time plus the delay, for its products.';

-- Makes the review requests of orders of one organization (rows of plaudit.order_request_row) in
-- one call of plaudit.create_review_requests, as the bulk route does (the quota taken once, the
-- links and the e-mails set-wise), then links each order to its request and notes it on the
-- order's timeline. A request made already (a concurrent event of the same order) stays the
-- order's. The caller holds the orders' rows (apply_order_event locks them).
create or replace function plaudit.make_order_requests(p_org_id uuid, p_rows jsonb, p_link_base text)
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  numbered jsonb;
  made jsonb;
begin
  if coalesce(jsonb_array_length(p_rows), 0) = 0 then
    return;
  end if;
  perform set_config('plaudit.org_id', p_org_id::text, true);
  select jsonb_agg(r || jsonb_build_object('index', n - 1) order by n) into numbered
    from jsonb_array_elements(p_rows) with ordinality as x(r, n);
  select jsonb_object_agg(m.idx::text, m.id) into made
    from plaudit.create_review_requests(numbered, p_link_base) m;
  with linked as (
    select r ->> 'order_id' as order_id, (r ->> 'timeline_id')::bigint as timeline_id,
           (r ->> 'send_at')::timestamptz as send_at,
           coalesce((made ->> (r ->> 'index'))::uuid,
                    (select q.id from plaudit.review_requests q
                      where q.org_id = p_org_id and q.external_id = r ->> 'external_id')) as id
      from jsonb_array_elements(numbered) r
  ), orders as (
    update plaudit.orders x set review_request_id = l.id
      from linked l where x.org_id = p_org_id and x.order_id = l.order_id
  )
  update plaudit.order_events e
     set notes = 'review request made, to be sent at ' || plaudit.iso_utc(l.send_at)
    from linked l where e.id = l.timeline_id;
end
$$;
comment on function plaudit.make_order_requests(uuid,jsonb,text) is 'Makes orders'' review requests of one organization in one create_review_requests call, and links each order to its request.';

-- One order event of a connection c (its organization's automation a, read once by the caller):
-- upserts the order, appends to its timeline and decides, as plaudit.apply_order_event says, but
-- leaves the request it decides to make to the caller: answers {"status" (the order's, after),
-- "request" (a row for plaudit.make_order_requests, or null)}, so that a batch makes its
-- requests in one call. The order's row stays locked until the transaction ends.
create or replace function plaudit.record_order_event(
  c plaudit.connections, a plaudit.review_request_automation, p_type text, p_occurred_at timestamptz, p_order jsonb,
  p_event_id bigint, p_now timestamptz
)
returns jsonb
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  o plaudit.orders;
  id text := btrim(p_order ->> 'order_id');
  given_items jsonb := case when jsonb_typeof(p_order -> 'items') = 'array'
                            and jsonb_array_length(p_order -> 'items') > 0 then p_order -> 'items' end;
  timeline_id bigint;
  clock timestamptz := coalesce(p_now, now());
  reason text;
  request jsonb;
  refunded_before text[];
  -- A partial refund, or items given with some refunded (the webhook platform says refunds so).
  refunds_given boolean := p_type = 'partially_refunded'
    or coalesce(jsonb_path_exists(p_order -> 'items', '$[*] ? (@.refunded == true)'), false);
begin
  if p_type not in ('created', 'paid', 'fulfilled', 'delivered', 'cancelled', 'refunded', 'partially_refunded') then
    raise exception 'type: not an order event' using errcode = 'invalid_parameter_value';
  end if;
  -- Refunds and deletions may name the order by the platform's own id alone.
  if id is null or id = '' then
    select x.order_id into id from plaudit.orders x
     where x.org_id = c.org_id and x.connection_id = c.id and x.platform_order_id = p_order ->> 'platform_order_id';
    if id is null then
      raise exception 'order_id: no order of this connection has this platform id yet' using errcode = 'no_data_found';
    end if;
  end if;

  insert into plaudit.orders as x (org_id, order_id, email, purchased_at, connection_id, platform, name, status, locale,
                                   country, platform_order_id)
  values (c.org_id, id, lower(nullif(btrim(p_order ->> 'email'), '')),
          case when p_type in ('created', 'paid') then p_occurred_at end, c.id, c.platform,
          nullif(btrim(p_order ->> 'name'), ''), coalesce(nullif(p_type, 'partially_refunded'), 'created'),
          nullif(p_order ->> 'locale', ''), nullif(p_order ->> 'country', ''), nullif(p_order ->> 'platform_order_id', ''))
  on conflict (org_id, order_id) do update set
    email = coalesce(excluded.email, x.email),
    purchased_at = least(x.purchased_at, excluded.purchased_at),
    connection_id = excluded.connection_id, platform = excluded.platform,
    name = coalesce(excluded.name, x.name),
    status = case when plaudit.order_status_rank(excluded.status) > coalesce(plaudit.order_status_rank(x.status), 0)
                  then excluded.status else x.status end,
    locale = coalesce(excluded.locale, x.locale), country = coalesce(excluded.country, x.country),
    platform_order_id = coalesce(excluded.platform_order_id, x.platform_order_id);

  if given_items is not null then
    -- Statements of their own: the old items go before the new ones come, keeping what was refunded.
    select coalesce(array_agg(i.product_external_id), '{}') into refunded_before
      from plaudit.order_items i where i.org_id = c.org_id and i.order_id = id and i.refunded;
    delete from plaudit.order_items i where i.org_id = c.org_id and i.order_id = id;
    insert into plaudit.order_items (org_id, order_id, position, product_external_id, quantity, refunded)
    select c.org_id, id, (x.n - 1)::smallint, btrim(x.product_external_id), greatest(coalesce(x.quantity, 1), 1),
           coalesce(x.refunded, false) or btrim(x.product_external_id) = any (refunded_before)
      from rows from (jsonb_to_recordset(given_items) as (product_external_id text, quantity integer, refunded boolean))
           with ordinality as x(product_external_id, quantity, refunded, n)
     where x.n <= 100;
  end if;
  if p_type = 'refunded' then
    update plaudit.order_items i set refunded = true where i.org_id = c.org_id and i.order_id = id;
  elsif p_type = 'partially_refunded' then
    update plaudit.order_items i set refunded = true
     where i.org_id = c.org_id and i.order_id = id
       and i.product_external_id in (select jsonb_array_elements_text(coalesce(p_order -> 'refunded_items', '[]')));
  end if;
  if refunds_given then
    -- Refunds that together cover every item are a full refund.
    if exists (select from plaudit.order_items i where i.org_id = c.org_id and i.order_id = id)
       and not exists (select from plaudit.order_items i where i.org_id = c.org_id and i.order_id = id and not i.refunded)
    then
      update plaudit.orders x set status = 'refunded' where x.org_id = c.org_id and x.order_id = id;
    end if;
  end if;

  insert into plaudit.order_events (org_id, order_id, type, occurred_at, connection_event_id)
  values (c.org_id, id, p_type, p_occurred_at, p_event_id)
  returning order_events.id into timeline_id;

  select * into o from plaudit.orders x where x.org_id = c.org_id and x.order_id = id for update;

  if o.review_request_id is not null then
    if o.status in ('cancelled', 'refunded') then
      perform plaudit.cancel_order_request(o, timeline_id);
    elsif refunds_given then
      perform plaudit.drop_refunded_request_products(o, timeline_id);
    end if;
  elsif o.skipped_reason is null and o.status not in ('cancelled', 'refunded') then
    -- An order older than 90 days when it arrives is never asked about; otherwise the first
    -- event that reaches the trigger decides.
    if (select min(e.occurred_at) from plaudit.order_events e where e.org_id = o.org_id and e.order_id = o.order_id)
       < clock - interval '90 days' then
      perform plaudit.skip_order(o, 'too_old', timeline_id);
    elsif plaudit.order_event_reaches_trigger(p_type, a.trigger, o.platform) then
      reason := plaudit.order_skip_reason(o, a);
      if reason is null then
        request := plaudit.order_request_row(o, a, p_occurred_at, timeline_id);
      else
        perform plaudit.skip_order(o, reason, timeline_id);
      end if;
    end if;
  end if;
  return jsonb_build_object('status', o.status, 'order_id', id, 'request', request);
end
$$;
comment on function plaudit.record_order_event(plaudit.connections,plaudit.review_request_automation,text,timestamp with time zone,jsonb,bigint,timestamp with time zone) is 'One order event: upserts the order, appends to its timeline and decides; answers the order''s status and the request to make, which the caller makes.';

-- One order event of a connection: p_type created | paid | fulfilled | delivered | cancelled |
-- refunded (in full) | partially_refunded, at p_occurred_at (the event's own time); p_order
-- {"order_id" (or "platform_order_id" alone for an order known already),"platform_order_id"?,"email"?,"name"?,
-- "locale"?,"country"?,"items"?:[{"product_external_id","quantity"?,
-- "refunded"?}],"refunded_items"?:[product external ids]}. The tenant is the connection's, never
-- the payload's. Upserts the order (its status only moves forward; given fields replace, absent
-- ones stay; items given replace the items, keeping what was refunded), appends to its timeline,
-- then decides: the first event that reaches the trigger makes the one request or records why
-- not; a cancellation or full refund cancels a request not sent yet, a partial refund drops the
-- refunded products from it. p_now replaces the clock for `too_old` (tests). Answers the order's
-- status afterwards. (plaudit.record_order_event decides; a batch of events,
-- plaudit.apply_connection_order_events, makes their requests together.)
create or replace function plaudit.apply_order_event(
  p_connection_id uuid, p_type text, p_occurred_at timestamptz, p_order jsonb, p_link_base text,
  p_event_id bigint default null, p_now timestamptz default null
)
returns text
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  c plaudit.connections;
  decided jsonb;
begin
  select * into c from plaudit.connections x where x.id = p_connection_id;
  if not found then
    raise exception 'Connection not found' using errcode = 'no_data_found';
  end if;
  decided := plaudit.record_order_event(c, plaudit.review_request_automation_of(c.org_id), p_type, p_occurred_at,
                                        p_order, p_event_id, p_now);
  if decided -> 'request' <> 'null' then
    perform plaudit.make_order_requests(c.org_id, jsonb_build_array(decided -> 'request'), p_link_base);
  end if;
  return decided ->> 'status';
end
$$;
comment on function plaudit.apply_order_event(uuid,text,timestamp with time zone,jsonb,text,bigint,timestamp with time zone) is 'One order event of a connection: upserts the order, appends to its timeline and decides its one review request (or why none); answers the order''s status.';
grant execute on function plaudit.apply_order_event(uuid,text,timestamp with time zone,jsonb,text,bigint,timestamp with time zone) to plaudit_worker;

-- An order of the transaction's tenant as GET …/orders/:orderId answers it; each item with the
-- catalog's product of its external id (its name and image, for the dashboard), or null.
create or replace function plaudit.order_json(p_org_id uuid, p_order_id text)
returns jsonb
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select jsonb_build_object(
    'order_id', o.order_id, 'connection_id', o.connection_id, 'platform', o.platform, 'email', o.email,
    'name', o.name, 'status', o.status,
    'items', coalesce((select jsonb_agg(jsonb_build_object('product_external_id', i.product_external_id,
                                                          'quantity', i.quantity, 'refunded', i.refunded,
                                                          'product', case when p.id is not null then jsonb_build_object(
                                                            'id', p.id, 'name', p.name, 'image_url', p.image_url) end)
                                        order by i.position)
                         from plaudit.order_items i
                         left join plaudit.products p on p.org_id = i.org_id and p.external_id = i.product_external_id
                        where i.org_id = o.org_id and i.order_id = o.order_id), '[]'),
    'events', coalesce((select jsonb_agg(jsonb_build_object('type', e.type, 'occurred_at', plaudit.iso_utc(e.occurred_at),
                                                           'received_at', plaudit.iso_utc(e.received_at))
                                         order by e.occurred_at, e.id)
                          from plaudit.order_events e where e.org_id = o.org_id and e.order_id = o.order_id), '[]'),
    'review_request', (select jsonb_build_object('id', q.id, 'status', q.status, 'send_at', plaudit.iso_utc(q.send_at))
                         from plaudit.review_requests q where q.id = o.review_request_id),
    'skipped', case when o.skipped_reason is not null
                    then jsonb_build_object('reason', o.skipped_reason, 'at', plaudit.iso_utc(o.skipped_at)) end)
  from plaudit.orders o where o.org_id = p_org_id and o.order_id = p_order_id
$$;
comment on function plaudit.order_json(uuid,text) is 'An order as GET …/orders/:orderId answers it: items (with their catalog products), timeline, its review request or why it was skipped.';
grant execute on function plaudit.order_json(uuid,text) to plaudit_api;

-- ============================================================================================
-- row-level security policies
-- ============================================================================================
create policy "Tenants can read the timelines of their own orders"
  on plaudit.order_events for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can read their own review request automation"
  on plaudit.review_request_automation for select to plaudit_api
  using (org_id = (select plaudit.current_org_id()));

create policy "Tenants can set up their own review request automation"
  on plaudit.review_request_automation for insert to plaudit_api
  with check (org_id = (select plaudit.current_org_id()));

create policy "Tenants can change their own review request automation"
  on plaudit.review_request_automation for update to plaudit_api
  using (org_id = (select plaudit.current_org_id()))
  with check (org_id = (select plaudit.current_org_id()));

-- ============================================================================================
-- table privileges
-- ============================================================================================
grant select on plaudit.order_events to plaudit_api;
grant select on plaudit.review_request_automation to plaudit_api;
grant insert (org_id, enabled, trigger, delay_days, form_id, exclude_products) on plaudit.review_request_automation to plaudit_api;
grant update (enabled, trigger, delay_days, form_id, exclude_products, updated_at) on plaudit.review_request_automation to plaudit_api;
