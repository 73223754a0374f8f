-- A shop connection's secret never leaves the database: the inbound route, as the public role,
-- hands plaudit.inbound_connection_event what the platform signed and the MACs it sent, and is
-- answered whether they hold (each platform's key: a `webhook` connection's the base64-decoded part
-- of its `whsec_` secret, the others' the secret's bytes); an event is stored only when they do.
-- No function the public may call answers a secret, and the public stores no unchecked event.
begin;
select tests.lend_temporary_to_runtime_roles();
select plan(10);

insert into plaudit.organizations (id, name, slug) values
  ('92000000-0000-4000-8000-000000000001', 'Inbound Co', 'inbound-signatures');
insert into plaudit.connections (id, org_id, platform, name, secret) values
  ('92000000-0000-4000-8000-0000000000c1', '92000000-0000-4000-8000-000000000001', 'shopify', 'Shop', 'shpss_92'),
  ('92000000-0000-4000-8000-0000000000c2', '92000000-0000-4000-8000-000000000001', 'webhook', 'Medusa',
   'whsec_' || encode(convert_to('0123456789abcdef01234567', 'UTF8'), 'base64')),
  ('92000000-0000-4000-8000-0000000000c3', '92000000-0000-4000-8000-000000000001', 'stripe', 'Stripe', 'whsec_stripe92');
create temporary table signed as
  select convert_to('{"id":1}', 'UTF8') as body,
         extensions.hmac(convert_to('{"id":1}', 'UTF8'), convert_to('shpss_92', 'UTF8'), 'sha256') as shopify,
         extensions.hmac(convert_to('{"id":1}', 'UTF8'), convert_to('another', 'UTF8'), 'sha256') as wrong,
         convert_to('msg_1.1800000000.{"id":1}', 'UTF8') as standard_signed,
         extensions.hmac(convert_to('msg_1.1800000000.{"id":1}', 'UTF8'), convert_to('0123456789abcdef01234567', 'UTF8'),
                         'sha256') as standard,
         convert_to('1800000000.{"id":1}', 'UTF8') as stripe_signed,
         extensions.hmac(convert_to('1800000000.{"id":1}', 'UTF8'), convert_to('whsec_stripe92', 'UTF8'), 'sha256') as stripe;
grant select on signed to public;

create function pg_temp.inbound(p_connection uuid, p_platform text, p_signed bytea, p_macs bytea[], p_delivery text)
returns table (signature_holds boolean, outcome text)
language sql as $$
  select signature_holds, outcome from plaudit.inbound_connection_event(p_connection, p_platform, p_signed, p_macs,
    p_delivery, 'orders/create', '{"id":1}', null)
$$;

-- ---- The public (the inbound route) ---------------------------------------------------------------
select tests.act_as_public();
select throws_ok($$select secret from plaudit.inbound_connection_event('92000000-0000-4000-8000-0000000000c1',
                     'shopify', null, null, null, null, null, null)$$,
  '42703', 'column "secret" does not exist', 'public: the inbound call answers no secret');
select results_eq($$select * from pg_temp.inbound('92000000-0000-4000-8000-0000000000c1', 'shopify',
                      (select body from signed), array[(select wrong from signed)], 'd-1')$$,
  $$values (false, null::text)$$, 'public: a MAC made with another secret does not hold, and nothing is stored');
select results_eq($$select * from pg_temp.inbound('92000000-0000-4000-8000-0000000000c1', 'shopify',
                      (select body from signed), array[(select wrong from signed), (select shopify from signed)], 'd-1')$$,
  $$values (true, 'accepted'::text)$$, 'public: Shopify''s MAC of the body under the secret holds, and the event is stored');
select results_eq($$select * from pg_temp.inbound('92000000-0000-4000-8000-0000000000c2', 'webhook',
                      (select standard_signed from signed), array[(select standard from signed)], 'msg_1')$$,
  $$values (true, 'accepted'::text)$$, 'public: a Standard Webhooks MAC under the whsec_ secret''s decoded key holds');
select results_eq($$select * from pg_temp.inbound('92000000-0000-4000-8000-0000000000c3', 'stripe',
                      (select stripe_signed from signed), array[(select stripe from signed)], 'evt_1')$$,
  $$values (true, 'accepted'::text)$$, 'public: Stripe''s MAC of t.body under the whsec_ string holds');
select results_eq($$select * from pg_temp.inbound('92000000-0000-4000-8000-0000000000c3', 'stripe',
                      (select stripe_signed from signed), '{}'::bytea[], 'evt_2')$$,
  $$values (false, null::text)$$, 'public: no MAC holds nothing');
select throws_ok($$select plaudit.receive_connection_event('92000000-0000-4000-8000-0000000000c1', 'd-9',
                     'orders/create', '{}')$$,
  '42501', 'permission denied for function receive_connection_event', 'public: stores no event unchecked');
select tests.clear_persona();

-- ---- The owner -----------------------------------------------------------------------------------
select is((select array_agg(delivery_id order by delivery_id) from plaudit.connection_events),
  array['d-1', 'evt_1', 'msg_1'], 'owner: only the events whose signature held were stored');
select is_empty($$
  select p.oid::regprocedure::text from pg_proc p
   where p.pronamespace = 'plaudit'::regnamespace and has_function_privilege('plaudit_public', p.oid, 'execute')
     and exists (select from unnest(p.proargnames, p.proargmodes) a(name, mode)
                  where a.mode in ('o', 't', 'b') and a.name in ('secret', 'access_token', 'signing_secret'))$$,
  'owner: no function the public may call answers a secret');
select ok(not has_function_privilege('plaudit_public',
  'plaudit.connection_signing_key(plaudit.connections)', 'execute'), 'owner: the public derives no key itself');

select * from finish();
rollback;
