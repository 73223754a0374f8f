-- Shop connections: each order event of a connection updates the order and its timeline, and the
-- order makes exactly one review request (whatever repeats or arrives out of order), due at the
-- trigger's own time plus the delay, for its known products less the excluded and the refunded;
-- cancellation and refunds undo what was not sent; skips say why. Secrets are never read back;
-- tenants read only their own connections, events and orders.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(57);

insert into plaudit.organizations (id, name, slug) values
  ('34000000-0000-4000-8000-000000000001', 'Shop Co', 'connections-shop'),
  ('34000000-0000-4000-8000-000000000002', 'Stranger Co', 'connections-stranger');
insert into plaudit.review_forms (id, org_id, name, verification_mode) values
  ('34000000-0000-4000-8000-0000000000f1', '34000000-0000-4000-8000-000000000001', 'After purchase', 'none');
insert into plaudit.products (org_id, external_id, name) values
  ('34000000-0000-4000-8000-000000000001', '101', 'Mug'),
  ('34000000-0000-4000-8000-000000000001', '102', 'Tee'),
  ('34000000-0000-4000-8000-000000000001', '103', 'Gift card');
insert into plaudit.connections (id, org_id, platform, name, secret) values
  ('34000000-0000-4000-8000-0000000000c1', '34000000-0000-4000-8000-000000000001', 'shopify', 'Shop', 'shpss_1'),
  ('34000000-0000-4000-8000-0000000000c2', '34000000-0000-4000-8000-000000000001', 'woocommerce', 'Woo', 'wc_1'),
  ('34000000-0000-4000-8000-0000000000c9', '34000000-0000-4000-8000-000000000002', 'shopify', 'Theirs', 'shpss_9');
insert into plaudit.review_request_automation (org_id, enabled, trigger, delay_days, form_id, exclude_products) values
  ('34000000-0000-4000-8000-000000000001', true, 'fulfilled', 7, '34000000-0000-4000-8000-0000000000f1', '{103}');
insert into plaudit.email_suppressions (org_id, email, reason) values
  ('34000000-0000-4000-8000-000000000001', 'gone@example.com', 'manual');

create function pg_temp.ev(p_conn text, p_type text, p_at text, p_order jsonb)
returns text language sql as $$
  select plaudit.apply_order_event(('34000000-0000-4000-8000-0000000000' || p_conn)::uuid, p_type,
    p_at::timestamptz, p_order, 'https://reviews.example', null, '2026-11-28T12:00:00Z')
$$;
create function pg_temp.o(p_id text) returns jsonb language sql as $$
  select plaudit.order_json('34000000-0000-4000-8000-000000000001', p_id)
$$;

-- ---- The worker: orders and their one request ----------------------------------------------------
select tests.act_as_worker();
select is(pg_temp.ev('c1', 'created', '2026-11-20T10:00:00Z',
  '{"order_id":"#1001","email":"Ada@Example.com","name":"Ada","locale":"fr","country":"FR",
    "items":[{"product_external_id":"101"},{"product_external_id":"102","quantity":2},{"product_external_id":"999"}]}'),
  'created', 'an order event upserts the order');
select is(pg_temp.ev('c1', 'paid', '2026-11-20T10:05:00Z', '{"order_id":"#1001"}'), 'paid',
  'a later event moves the status forward');
select is(pg_temp.ev('c1', 'fulfilled', '2026-11-21T09:00:00Z', '{"order_id":"#1001"}'), 'fulfilled',
  'the trigger''s event is applied');
select is(pg_temp.ev('c1', 'fulfilled', '2026-11-21T09:30:00Z', '{"order_id":"#1001"}'), 'fulfilled',
  'a repeated trigger is applied too');
select is(pg_temp.ev('c1', 'paid', '2026-11-20T10:06:00Z', '{"order_id":"#1001"}'), 'fulfilled',
  'an event arriving late never moves the order back');
select tests.clear_persona();

select is((select count(*)::integer from plaudit.review_requests
            where external_id = 'order:34000000-0000-4000-8000-0000000000c1:#1001'), 1,
  'exactly one request for the order, keyed order:<connection>:<order>');
select is((select send_at from plaudit.review_requests where order_id = '#1001'),
  '2026-11-28T09:00:00Z'::timestamptz, 'send_at is the first fulfilment''s own time plus the delay');
select is((select array_agg(p.external_id order by rp.position) from plaudit.review_request_products rp
             join plaudit.products p on p.id = rp.product_id
             join plaudit.review_requests q on q.id = rp.request_id where q.order_id = '#1001'),
  array['101', '102'], 'the request names the items the catalog knows');
select is((select array[email, locale, name] from plaudit.review_requests where order_id = '#1001'),
  array['ada@example.com', 'fr', 'Ada'], 'the request goes to the order''s address, in its locale');
select is((select jsonb_agg(e ->> 'type') from jsonb_array_elements(pg_temp.o('#1001') -> 'events') e),
  '["created","paid","paid","fulfilled","fulfilled"]'::jsonb, 'the timeline is in the events'' own order');
select is(pg_temp.o('#1001') -> 'review_request' ->> 'status', 'queued', 'the order answers its request');
select is(pg_temp.o('#1001') -> 'skipped', 'null'::jsonb, 'and no skip');
select is((select count(*)::integer from plaudit.email_outbox where to_address = 'ada@example.com'), 1,
  'one e-mail is queued');

-- Out of order: fulfilled before created.
select tests.act_as_worker();
select is(pg_temp.ev('c1', 'fulfilled', '2026-11-22T08:00:00Z',
  '{"order_id":"#1002","email":"bo@example.com","items":[{"product_external_id":"101"}]}'), 'fulfilled',
  'a fulfilment arriving before the creation makes the order');
select is(pg_temp.ev('c1', 'created', '2026-11-22T07:00:00Z',
  '{"order_id":"#1002","email":"bo@example.com","items":[{"product_external_id":"101"}]}'), 'fulfilled',
  'the creation arriving after it keeps the order fulfilled');
select tests.clear_persona();
select is((select count(*)::integer from plaudit.review_requests where order_id = '#1002'), 1,
  'out of order, still one request');

-- Partial refund drops the refunded product; a cancellation cancels the request.
select tests.act_as_worker();
select pg_temp.ev('c1', 'partially_refunded', '2026-11-23T08:00:00Z', '{"order_id":"#1001","refunded_items":["102"]}');
select tests.clear_persona();
select is((select array_agg(p.external_id) from plaudit.review_request_products rp
             join plaudit.products p on p.id = rp.product_id
             join plaudit.review_requests q on q.id = rp.request_id where q.order_id = '#1001'),
  array['101'], 'a partial refund drops the refunded product from the request');
select is((select e.data -> 'product_names' from plaudit.email_outbox e where e.to_address = 'ada@example.com'),
  '["Mug"]'::jsonb, 'and from its e-mail');
select is((select jsonb_agg(i ->> 'refunded') from jsonb_array_elements(pg_temp.o('#1001') -> 'items') i),
  '["false","true","false"]'::jsonb, 'the order''s item is marked refunded');
select tests.act_as_worker();
select is(pg_temp.ev('c1', 'cancelled', '2026-11-24T08:00:00Z', '{"order_id":"#1001"}'), 'cancelled',
  'a cancellation');
select tests.clear_persona();
select is((select status || ' ' || (canceled_at is not null) from plaudit.review_requests where order_id = '#1001'),
  'canceled true', 'cancels the request not sent yet');
select is((select status from plaudit.email_outbox where to_address = 'ada@example.com'), 'failed',
  'and withdraws its e-mail');
select is((select count(*)::integer from plaudit.events where type = 'review_request.canceled'
             and data ->> 'order_id' = '#1001'), 1, 'review_request.canceled is emitted');
select tests.act_as_worker();
select pg_temp.ev('c1', 'refunded', '2026-11-25T08:00:00Z', '{"order_id":"#1002"}');
select tests.clear_persona();
select is((select status from plaudit.review_requests where order_id = '#1002'), 'canceled',
  'a full refund cancels the request too');

-- Refunds name the order by the platform's id; refunds covering every item are a full refund.
select tests.act_as_worker();
select pg_temp.ev('c1', 'fulfilled', '2026-11-22T08:00:00Z',
  '{"order_id":"#1003","platform_order_id":"5003","email":"di@example.com","items":[{"product_external_id":"101"}]}');
select is(pg_temp.ev('c1', 'partially_refunded', '2026-11-23T08:00:00Z', '{"platform_order_id":"5003","refunded_items":["101"]}'),
  'refunded', 'a refund of every item, naming the order by the platform''s id, refunds the order');
select throws_ok($$select pg_temp.ev('c1', 'refunded', '2026-11-23T08:00:00Z', '{"platform_order_id":"nope"}')$$,
  'P0002', 'order_id: no order of this connection has this platform id yet', 'an order not known yet is retried later');
select tests.clear_persona();
select is((select status from plaudit.review_requests where order_id = '#1003'), 'canceled', 'and cancels its request');

-- Skips.
select tests.act_as_worker();
select pg_temp.ev('c1', 'fulfilled', '2026-11-22T08:00:00Z', '{"order_id":"#2001","items":[{"product_external_id":"101"}]}');
select pg_temp.ev('c1', 'fulfilled', '2026-11-22T08:00:00Z',
  '{"order_id":"#2002","email":"GONE@example.com","items":[{"product_external_id":"101"}]}');
select pg_temp.ev('c1', 'created', '2026-08-01T08:00:00Z',
  '{"order_id":"#2003","email":"old@example.com","items":[{"product_external_id":"101"}]}');
select pg_temp.ev('c1', 'fulfilled', '2026-11-22T08:00:00Z',
  '{"order_id":"#2004","email":"gift@example.com","items":[{"product_external_id":"103"}]}');
select pg_temp.ev('c2', 'created', '2026-11-22T08:00:00Z',
  '{"order_id":"3001","email":"cy@example.com","items":[{"product_external_id":"103"},{"product_external_id":"101"}]}');
select pg_temp.ev('c2', 'fulfilled', '2026-11-23T08:00:00Z', '{"order_id":"3001"}');
select tests.clear_persona();
select is(array[pg_temp.o('#2001') -> 'skipped' ->> 'reason', pg_temp.o('#2002') -> 'skipped' ->> 'reason',
                pg_temp.o('#2003') -> 'skipped' ->> 'reason', pg_temp.o('#2004') -> 'skipped' ->> 'reason'],
  array['no_email', 'suppressed', 'too_old', 'excluded'],
  'no e-mail, a suppressed address, an order over 90 days old on arrival (event time), only excluded products');
select is((select count(*)::integer from plaudit.review_requests where order_id in ('#2001', '#2002', '#2003', '#2004')), 0,
  'skipped orders make no request');
select is((select count(*)::integer from plaudit.events where type = 'order.skipped'), 4, 'each emits order.skipped');
select is((select array_agg(p.external_id) from plaudit.review_request_products rp
             join plaudit.products p on p.id = rp.product_id
             join plaudit.review_requests q on q.id = rp.request_id where q.order_id = '3001'),
  array['101'], 'excluded products are left out of a request');
update plaudit.review_request_automation set enabled = false;
select tests.act_as_worker();
select pg_temp.ev('c1', 'fulfilled', '2026-11-22T08:00:00Z', '{"order_id":"#2005","email":"dee@example.com"}');
select tests.clear_persona();
select is(pg_temp.o('#2005') -> 'skipped' ->> 'reason', 'automation_off', 'automation off');
update plaudit.review_request_automation set enabled = true, trigger = 'delivered';
select tests.act_as_worker();
select pg_temp.ev('c1', 'fulfilled', '2026-11-22T08:00:00Z', '{"order_id":"#2006","email":"eve@example.com"}');
select pg_temp.ev('c1', 'delivered', '2026-11-24T08:00:00Z', '{"order_id":"#2006"}');
select pg_temp.ev('c2', 'fulfilled', '2026-11-22T08:00:00Z', '{"order_id":"3002","email":"fay@example.com"}');
select tests.clear_persona();
select is(pg_temp.o('#2006') -> 'review_request' ->> 'send_at', '2026-12-01T08:00:00.000Z',
  'the delivered trigger waits for delivery');
select is(pg_temp.o('3002') -> 'review_request' ->> 'send_at', '2026-11-29T08:00:00.000Z',
  'and falls back to fulfilment on WooCommerce');

-- Purchase proof takes Shopify's order name with or without #.
select is(plaudit.purchase_proof_refusal('34000000-0000-4000-8000-000000000001', '2006', 'eve@example.com', null), null,
  'purchase proof finds #2006 from 2006');

-- ---- Tenants --------------------------------------------------------------------------------------
select tests.act_as_tenant('34000000-0000-4000-8000-000000000002');
select is((select count(*)::integer from plaudit.orders where org_id = '34000000-0000-4000-8000-000000000001') +
          (select count(*)::integer from plaudit.connections where org_id = '34000000-0000-4000-8000-000000000001'), 0,
  'a tenant reads none of another''s orders or connections');
select throws_ok($$select secret from plaudit.connections$$, '42501', 'permission denied for table connections',
  'a tenant never reads a connection''s secret');
select tests.act_as_tenant('34000000-0000-4000-8000-000000000001');
select is((select length(signing_secret) from plaudit.create_connection('webhook', 'Medusa', '{}', null, null)), 38,
  'a webhook connection''s secret is made by the service (whsec_ + base64 of 24 bytes), answered once');

-- ---- Inbound events: stored unchecked by the owner, and by the public only signed ------------------
select tests.clear_persona();
select is(array[plaudit.receive_connection_event('34000000-0000-4000-8000-0000000000c1', 'd-1', 'orders/create', '{}'),
                plaudit.receive_connection_event('34000000-0000-4000-8000-0000000000c1', 'd-1', 'orders/create', '{}'),
                plaudit.receive_connection_event('34000000-0000-4000-8000-0000000000c1', 'd-2', 'orders/create', null,
                                                 'refused: line_items: at most 100 items'),
                plaudit.receive_connection_event('34000000-0000-4000-8000-0000000000c1', 'd-3', 'carts/create', null,
                                                 'ignored'),
                plaudit.receive_connection_event('34000000-0000-4000-8000-0000000000c9', 'd-1', 'orders/create', '{}')],
  array['accepted', 'duplicate', 'refused: line_items: at most 100 items', 'ignored', 'accepted'],
  'a delivery id is stored once per connection; a repeat is a duplicate; events settled on arrival are recorded');
create temporary table signed as
  select convert_to('{}', 'UTF8') as body,
         extensions.hmac(convert_to('{}', 'UTF8'), convert_to('shpss_9', 'UTF8'), 'sha256') as mac;
grant select on signed to public;
select tests.act_as_public();
select throws_ok($$select count(*) from plaudit.connection_events$$, '42501',
  'permission denied for table connection_events', 'the public reads no stored event');
select is((select array[platform, status, signature_holds::text, outcome] from plaudit.inbound_connection_event(
              '34000000-0000-4000-8000-0000000000c9', 'shopify', (select body from signed), array[(select mac from signed)],
              'd-6', 'orders/create', '{}', null)),
  array['shopify', 'active', 'true', 'accepted'],
  'the inbound route finds a connection by its id alone, checks the signature in the database, and stores the event');
select is((select array[platform, signature_holds::text, outcome] from plaudit.inbound_connection_event(
              '34000000-0000-4000-8000-0000000000c9', 'stripe', (select body from signed), array[(select mac from signed)],
              'd-7', 'orders/create', '{}', null)),
  array['shopify', null, null],
  'an event read as another platform''s is not checked or stored: the route learns the platform first');
select tests.act_as_worker();
select throws_ok($$select secret from plaudit.connections$$, '42501', 'permission denied for table connections',
  'the worker reads no secret but through the functions that need it');
select tests.clear_persona();
select is((select count(*)::integer from plaudit.connection_events
            where payload is not null and connection_id = '34000000-0000-4000-8000-0000000000c1'), 1,
  'only the first delivery is kept for processing');
select is((select distinct org_id from plaudit.connection_events where connection_id = '34000000-0000-4000-8000-0000000000c9'),
  '34000000-0000-4000-8000-000000000002'::uuid, 'the connection decides the tenant of its events');

-- last_event_at is stamped at most once a second, so that a burst does not queue on the connection's row.
update plaudit.connections set last_event_at = now() - interval '500 milliseconds'
 where id = '34000000-0000-4000-8000-0000000000c1';
select plaudit.receive_connection_event('34000000-0000-4000-8000-0000000000c1', 'd-4', 'orders/create', '{}');
select is((select last_event_at from plaudit.connections where id = '34000000-0000-4000-8000-0000000000c1'),
  now() - interval '500 milliseconds', 'an event within a second of the last stamp leaves last_event_at as it is');
update plaudit.connections set last_event_at = now() - interval '2 seconds'
 where id = '34000000-0000-4000-8000-0000000000c1';
select plaudit.receive_connection_event('34000000-0000-4000-8000-0000000000c1', 'd-5', 'orders/create', '{}');
select is((select last_event_at from plaudit.connections where id = '34000000-0000-4000-8000-0000000000c1'),
  now(), 'an event a second or more after the last stamp stamps it');

-- ---- The worker: a batch of order events in one call ------------------------------------------------
create function pg_temp.event_id(p_delivery text) returns bigint language sql as $$
  select id from plaudit.connection_events
   where connection_id = '34000000-0000-4000-8000-0000000000c1' and delivery_id = p_delivery
     and outcome is distinct from 'duplicate'
$$;
create temporary table batch_result as select null::bigint as event_id, null::text as error limit 0;
create temporary table batch_input as select jsonb_build_array(
  jsonb_build_object('id', pg_temp.event_id('d-1'), 'connection_id', '34000000-0000-4000-8000-0000000000c1',
    'outcome', 'accepted', 'orders', jsonb_build_array(
      jsonb_build_object('type', 'created', 'occurred_at', now() - interval '2 days',
                         'order', '{"order_id":"#5001","email":"gil@example.com","items":[{"product_external_id":"101"}]}'::jsonb),
      jsonb_build_object('type', 'delivered', 'occurred_at', now() - interval '1 day', 'order', '{"order_id":"#5001"}'::jsonb))),
  jsonb_build_object('id', pg_temp.event_id('d-4'), 'connection_id', '34000000-0000-4000-8000-0000000000c1',
    'outcome', 'accepted', 'orders', jsonb_build_array(
      jsonb_build_object('type', 'refunded', 'occurred_at', now(), 'order', '{"platform_order_id":"unknown-9"}'::jsonb))),
  jsonb_build_object('id', pg_temp.event_id('d-5'), 'connection_id', '34000000-0000-4000-8000-0000000000c1',
    'outcome', 'refused: line_items: not a list', 'orders', '[]'::jsonb)) as events;
grant all on batch_result, batch_input to public;
select tests.act_as_worker();
insert into batch_result
select r.* from batch_input, plaudit.apply_connection_order_events(batch_input.events, 'https://reviews.example') r;
select tests.clear_persona();
select results_eq($$select event_id, error from batch_result$$,
  $$values (pg_temp.event_id('d-4'), 'order_id: no order of this connection has this platform id yet')$$,
  'a batch of order events answers the event that failed, and why');
select is(array(select case when processed_at is null then 'not processed' else outcome end from plaudit.connection_events
                 where id in (pg_temp.event_id('d-1'), pg_temp.event_id('d-4'), pg_temp.event_id('d-5'))
                 order by delivery_id),
  array['accepted', 'not processed', 'refused: line_items: not a list'],
  'the others are recorded; the one that failed is left for its retry');
select is((select count(*)::integer from plaudit.order_events where connection_event_id = pg_temp.event_id('d-4')), 0,
  'nothing of the failed event is kept');
select is(array(select e ->> 'type' from jsonb_array_elements(pg_temp.o('#5001') -> 'events') e)
            || (pg_temp.o('#5001') -> 'review_request' ->> 'status'),
  array['created', 'delivered', 'queued'], 'an event''s order events are applied in their order, the request made');

-- The requests a batch decides are made together, before any later event of their order: a
-- cancellation in the same batch finds the request and cancels it.
select plaudit.receive_connection_event('34000000-0000-4000-8000-0000000000c1', d, 'orders/delivered', '{}')
  from unnest(array['d-6', 'd-7', 'd-8']) d;
create function pg_temp.delivered(p_delivery text, p_order text) returns jsonb language sql as $$
  select jsonb_build_object('id', pg_temp.event_id(p_delivery), 'connection_id', '34000000-0000-4000-8000-0000000000c1',
    'outcome', 'accepted', 'orders', jsonb_build_array(jsonb_build_object('type', 'delivered',
      'occurred_at', now() - interval '1 day',
      'order', jsonb_build_object('order_id', p_order, 'email', 'buyer' || btrim(p_order, '#') || '@example.com',
                                  'items', '[{"product_external_id":"101"}]'::jsonb))))
$$;
truncate batch_result;
update batch_input set events = jsonb_build_array(
  pg_temp.delivered('d-6', '#5101'), pg_temp.delivered('d-7', '#5102'),
  jsonb_build_object('id', pg_temp.event_id('d-8'), 'connection_id', '34000000-0000-4000-8000-0000000000c1',
    'outcome', 'accepted', 'orders', jsonb_build_array(
      jsonb_build_object('type', 'cancelled', 'occurred_at', now(), 'order', '{"order_id":"#5101"}'::jsonb))));
select tests.act_as_worker();
insert into batch_result
select r.* from batch_input, plaudit.apply_connection_order_events(batch_input.events, 'https://reviews.example') r;
select tests.clear_persona();
select is((select count(*)::integer from batch_result), 0, 'a batch whose requests are made together fails nothing');
select is(array[pg_temp.o('#5101') -> 'review_request' ->> 'status', pg_temp.o('#5102') -> 'review_request' ->> 'status'],
  array['canceled', 'queued'],
  'a cancellation later in the batch finds the request its order made earlier in it, and cancels it');
select is((select array_agg(e.notes order by e.order_id, e.id) from plaudit.order_events e
            where e.connection_event_id in (pg_temp.event_id('d-6'), pg_temp.event_id('d-7'), pg_temp.event_id('d-8'))),
  array['review request made, to be sent at ' || plaudit.iso_utc(now() + interval '6 days'),
        'review request canceled',
        'review request made, to be sent at ' || plaudit.iso_utc(now() + interval '6 days')],
  'each decision is noted on the event that made it');

-- Made together, the requests take the day's quota at once; when that fails, each event is
-- applied again with its own request: those the quota still allows are made, the others fail
-- alone and are retried after the lease.
select plaudit.receive_connection_event('34000000-0000-4000-8000-0000000000c1', d, 'orders/delivered', '{}')
  from unnest(array['d-9', 'd-10']) d;
insert into plaudit.review_request_usage as u (org_id, day, requests)
values ('34000000-0000-4000-8000-000000000001', (now() at time zone 'UTC')::date, 999)
on conflict (org_id, day) do update set requests = 999;
truncate batch_result;
update batch_input set events = jsonb_build_array(pg_temp.delivered('d-9', '#5103'), pg_temp.delivered('d-10', '#5104'));
select tests.act_as_worker();
insert into batch_result
select r.* from batch_input, plaudit.apply_connection_order_events(batch_input.events, 'https://reviews.example') r;
select tests.clear_persona();
select results_eq($$select event_id, error from batch_result$$,
  $$values (pg_temp.event_id('d-10'),
            'Daily quota of 1000 review requests reached: 0 remaining today (UTC), this call needs 1')$$,
  'over the quota, the events are applied one by one: the one the quota does not allow fails alone');
select is(array[pg_temp.o('#5103') -> 'review_request' ->> 'status', pg_temp.o('#5104') ->> 'order_id'],
  array['queued', null], 'the one the quota allows makes its request; nothing of the other is kept');
select is(array(select case when processed_at is null then 'not processed' else outcome end
                  from plaudit.connection_events where id in (pg_temp.event_id('d-9'), pg_temp.event_id('d-10'))
                 order by delivery_id),
  array['not processed', 'accepted'], 'the one that failed is left for its retry');

select * from finish();
rollback;
