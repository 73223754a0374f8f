-- The worker's batches of shop connection events: a claimed run of order events applied in one
-- call, each event on its own, their review requests made together. The events themselves are
-- shop_connections.sql's, the orders and their decisions orders_timeline.sql's; docs/connections.md
-- tells the design, docs/benchmarks.md (connections) why it is batched.

-- A claimed batch's order events applied in one call and one transaction (the worker's round trips
-- and commits, not the work, were most of an event's time): each event in turn, in the batch's
-- order, so that one order's events keep theirs; each in a block of its own, so that an event that
-- fails (its order not known yet, say) rolls back alone and is retried after the lease while the
-- others are recorded. p_events [{"id","connection_id","outcome","orders":[{"type","occurred_at",
-- "order"}]}], the worker's reading of each event (its normalizer's order actions; `outcome`
-- accepted, ignored or refused: <why>). Answers the events that failed, with why.
--
-- The requests the events decide to make are made together (plaudit.make_order_requests: one
-- create_review_requests call an organization, as the bulk route makes them), at the end and
-- before any event of an order whose request is still to be made (or of an order named by its
-- platform id alone), so that such an event finds it. Should making them together fail (the day's
-- quota, say), the whole batch is applied again each event with its own request, in its own block:
-- an event whose request cannot be made then fails alone, as it would on its own.
create or replace function plaudit.apply_connection_order_events(p_events jsonb, p_link_base text)
returns table (event_id bigint, error text)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  failed jsonb;
begin
  begin
    failed := plaudit.apply_connection_order_events_run(p_events, p_link_base, true);
  exception when others then
    failed := plaudit.apply_connection_order_events_run(p_events, p_link_base, false);
  end;
  return query select f.event_id, f.error from jsonb_to_recordset(failed) as f(event_id bigint, error text);
end
$$;
comment on function plaudit.apply_connection_order_events(jsonb,text) is 'Applies a batch of connection events'' order actions and records their outcomes, each event on its own (a failing one rolls back alone), their requests made together; answers those that failed.';
grant execute on function plaudit.apply_connection_order_events(jsonb,text) to plaudit_worker;

-- One pass of plaudit.apply_connection_order_events: p_together makes the events' requests in one
-- call (a failure to make them raises), otherwise each event makes its own in its block. Each
-- connection and each organization's automation is read once a pass. Answers the events that
-- failed [{"event_id","error"}].
create or replace function plaudit.apply_connection_order_events_run(p_events jsonb, p_link_base text,
                                                                     p_together boolean)
returns jsonb
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  e jsonb;
  act jsonb;
  c plaudit.connections;
  a plaudit.review_request_automation;
  decided jsonb;
  made jsonb;
  -- The requests to make, [{"org_id","row"}], and the orders they are for ("<org id> <order id>").
  pending jsonb := '[]'::jsonb;
  pending_orders text[] := '{}'::text[];
  failed jsonb := '[]'::jsonb;
begin
  for e in select x from jsonb_array_elements(p_events) x loop
    if c.id is distinct from (e ->> 'connection_id')::uuid then
      select * into c from plaudit.connections x where x.id = (e ->> 'connection_id')::uuid;
      if found and a.org_id is distinct from c.org_id then
        a := plaudit.review_request_automation_of(c.org_id);
      end if;
    end if;
    -- An event of an order whose request is still to be made finds it made.
    if jsonb_array_length(pending) > 0 and exists (
         select from jsonb_array_elements(coalesce(e -> 'orders', '[]')) o
          where coalesce(btrim(o -> 'order' ->> 'order_id'), '') = ''
             or (c.org_id || ' ' || btrim(o -> 'order' ->> 'order_id')) = any (pending_orders)) then
      perform plaudit.make_pending_order_requests(pending, p_link_base);
      pending := '[]'::jsonb;
      pending_orders := '{}'::text[];
    end if;
    made := '[]'::jsonb;
    begin
      -- Each event as in a transaction of its own: no tenant or actor left by the one before.
      perform set_config('plaudit.org_id', '', true), set_config('plaudit.actor', '', true);
      for act in select x from jsonb_array_elements(coalesce(e -> 'orders', '[]')) x loop
        if c.id is distinct from (e ->> 'connection_id')::uuid then
          raise exception 'Connection not found' using errcode = 'no_data_found';
        end if;
        decided := plaudit.record_order_event(c, a, act ->> 'type', (act ->> 'occurred_at')::timestamptz, act -> 'order',
                                              (e ->> 'id')::bigint, null);
        if decided -> 'request' <> 'null' then
          if p_together then
            made := made || jsonb_build_object('org_id', c.org_id, 'order', decided ->> 'order_id',
                                               'row', decided -> 'request');
          else
            perform plaudit.make_order_requests(c.org_id, jsonb_build_array(decided -> 'request'), p_link_base);
          end if;
        end if;
      end loop;
      perform plaudit.finish_connection_event((e ->> 'id')::bigint, e ->> 'outcome');
      -- Kept only once the event's block holds.
      pending := pending || made;
      pending_orders := pending_orders || array(select m ->> 'org_id' || ' ' || (m ->> 'order')
                                                  from jsonb_array_elements(made) m);
    exception when others then
      failed := failed || jsonb_build_object('event_id', (e ->> 'id')::bigint, 'error', sqlerrm);
    end;
  end loop;
  perform plaudit.make_pending_order_requests(pending, p_link_base);
  return failed;
end
$$;
comment on function plaudit.apply_connection_order_events_run(jsonb,text,boolean) is 'One pass over a batch of connection order events: each event on its own, their requests made together or each with its event; answers those that failed.';

-- The requests a batch of order events decided to make, [{"org_id","row"}], made an organization
-- at a time (plaudit.make_order_requests).
create or replace function plaudit.make_pending_order_requests(p_pending jsonb, p_link_base text)
returns void
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
declare
  org uuid;
begin
  for org in select distinct (p ->> 'org_id')::uuid from jsonb_array_elements(p_pending) p loop
    perform plaudit.make_order_requests(org, (select jsonb_agg(p -> 'row' order by n)
                                                from jsonb_array_elements(p_pending) with ordinality as x(p, n)
                                               where (p ->> 'org_id')::uuid = org), p_link_base);
  end loop;
end
$$;
comment on function plaudit.make_pending_order_requests(jsonb,text) is 'Makes the review requests a batch of order events decided, in one call an organization.';
