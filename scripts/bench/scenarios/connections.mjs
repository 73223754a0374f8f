// Shop connections (docs/connections.md):
//   connections-inbound  a signed Shopify `orders/create` event (HMAC checked over the raw body,
//                        stored once per delivery id, answered 200; the worker is not running)
//                        next to the public review submission, both on one API instance whose
//                        per-address and per-connection limits are out of the way;
//   connections-worker   BENCH_CONN_EVENTS (10,000) stored Shopify `orders/fulfilled` events with
//                        the automation on, turned by the worker (Deno, as npm start runs it) into
//                        orders and one review request each: rows/s from its start to the last
//                        event processed, next to the bulk review-request route's rows/s (1,000-row
//                        calls); and, while the worker drains, the time to answer inbound events
//                        (4 clients, another organization's connection), p99.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startWorkerProcess } from '../../lib/worker-process.mjs';
import { percentile, positive } from '../stats.mjs';
import { bulk, tenant } from './review-requests.mjs';
import { expectStatus, submitLua, UNLIMITED_PUBLIC, wrkScript } from './reviews.mjs';

const SECRET = 'shpss_bench-secret-0123456789';
const ORDER = JSON.parse(fs.readFileSync(path.join('tests', 'fixtures', 'connections', 'shopify-order.json'), 'utf8'));

/** The fixture's order as order `n` of the bench's shop, placed `daysAgo` days ago. */
function order(n, { daysAgo = 2, fulfilled = false } = {}) {
  const at = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  return {
    ...ORDER,
    id: 5_000_000 + n,
    name: `#B${n}`,
    order_number: n,
    email: `customer${n}@bench.example`,
    contact_email: `customer${n}@bench.example`,
    created_at: at,
    processed_at: at,
    updated_at: at,
    fulfillment_status: fulfilled ? 'fulfilled' : null,
    fulfillments: fulfilled
      ? [{ id: 9_000_000 + n, order_id: 5_000_000 + n, name: `#B${n}.1`, status: 'success', created_at: at }]
      : [],
  };
}

/** Clients sending inbound events one after the other while the worker drains. */
const CLIENTS = 4;

const hmac = (body) => createHmac('sha256', SECRET).update(body, 'utf8').digest('base64');

/** A Shopify connection of the tenant with the bench's secret. */
async function shopifyConnection(sql, orgId, slug) {
  const [c] = await sql`
    insert into plaudit.connections (org_id, platform, name, settings, secret)
    values (${orgId}, 'shopify', 'Bench shop', ${sql.json({ shop_domain: `${slug}.myshopify.com` })}, ${SECRET})
    returning id`;
  return c.id;
}

/** An API instance of the scenario's own: no per-address or per-connection limit answers 429. */
async function unlimitedApi(ctx) {
  ctx.stack.connectionsApi ??= await ctx.stack.startExtraApi({
    env: { ...UNLIMITED_PUBLIC, CONNECTION_EVENTS_PER_MINUTE: '1000000000' },
  });
  return ctx.stack.connectionsApi;
}

/** wrk's Lua: the same signed body, a new delivery id each request (Shopify's HMAC covers the body only). */
const inboundLua = (body, prefix) => `
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
local n = 0
local body = ${JSON.stringify(body)}
request = function()
  n = n + 1
  return wrk.format("POST", nil, {
    ["Content-Type"] = "application/json",
    ["X-Shopify-Hmac-Sha256"] = "${hmac(body)}",
    ["X-Shopify-Topic"] = "orders/create",
    ["X-Shopify-Webhook-Id"] = string.format("%s-%d-%d", "${prefix}", tid, n),
  }, body)
end
`;

async function postEvent(url, body, id) {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-hmac-sha256': hmac(body),
      'x-shopify-topic': 'orders/create',
      'x-shopify-webhook-id': id,
    },
    body,
  });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`an inbound event answered ${res.status}: ${text.slice(0, 300)}`);
  return ms;
}

export const inbound = {
  name: 'connections-inbound',
  description:
    'POST /api/v1/connections/:id/events (a signed Shopify orders/create: verify, store, answer) next to POST /api/v1/reviews, one API instance',

  async setup(ctx) {
    const sql = ctx.stack.sql;
    const t = await tenant(sql, 'bench-inbound');
    const connectionId = await shopifyConnection(sql, t.orgId, 'bench-inbound');
    const api = await unlimitedApi(ctx);
    const url = `${api.url}/api/v1/connections/${connectionId}/events`;
    const body = JSON.stringify(order(1));
    await postEvent(url, body, 'check');
    const [stored] = await sql`select outcome from plaudit.connection_events where delivery_id = 'check'`;
    if (stored?.outcome !== 'accepted') throw new Error(`the check event was not stored: ${JSON.stringify(stored)}`);
    const submitUrl = `${api.url}/api/v1/reviews`;
    await expectStatus(submitUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({
        form_id: t.formId,
        rating: 5,
        content: 'Bench check',
        reviewer_name: 'B',
        reviewer_email: 'check@example.com',
      }),
    }, 201);
    let run = 0;
    const prefix = () => `run${Date.now()}-${++run}`;
    ctx.log(`warming up for ${ctx.warmup} s`);
    await wrkScript(ctx, { url, lua: inboundLua(body, 'warm'), seconds: ctx.warmup });
    await wrkScript(ctx, { url: submitUrl, lua: submitLua(t.formId, 'warm'), seconds: ctx.warmup });
    return {
      inbound: () => wrkScript(ctx, { url, lua: inboundLua(body, prefix()) }),
      submit: () => wrkScript(ctx, { url: submitUrl, lua: submitLua(t.formId, prefix()) }),
      apiPid: api.child?.pid ?? api.pid,
    };
  },

  measurements: [
    {
      key: 'inbound',
      name: 'API inbound Shopify event (200)',
      run: (_ctx, s) => s.inbound(),
      apiPid: (_ctx, s) => s.apiPid,
    },
    {
      key: 'submit',
      name: 'API POST /reviews (201)',
      run: (_ctx, s) => s.submit(),
      apiPid: (_ctx, s) => s.apiPid,
    },
  ],

  ratios: [{ name: 'inbound ÷ public submission', of: 'inbound', over: 'submit', target: 2 }],
};

export const worker = {
  name: 'connections-worker',
  description:
    'The worker turning 10,000 stored Shopify orders/fulfilled events into orders and review requests (rows/s) vs the bulk review-request route; inbound p99 meanwhile',

  async run(ctx) {
    const { stack } = ctx;
    const sql = stack.sql;
    const count = positive(ctx.env, 'BENCH_CONN_EVENTS', 10_000);
    const api = await unlimitedApi(ctx);

    // The reference: the bulk route's rows/s, 1,000-row calls one after the other.
    const ref = await tenant(sql, 'bench-conn-bulk');
    await bulk(api.url, ref, 'warm');
    const calls = Math.max(1, Math.round(count / 1000));
    ctx.log(`${calls} bulk calls of 1,000 rows`);
    const bulkStarted = performance.now();
    for (let i = 0; i < calls; i++) await bulk(api.url, ref, i);
    const bulkRate = (calls * 1000) / ((performance.now() - bulkStarted) / 1000);

    // The shop whose events the worker turns into requests.
    const t = await tenant(sql, 'bench-conn-worker');
    await sql`insert into plaudit.review_request_automation (org_id, enabled, trigger, delay_days, form_id)
              values (${t.orgId}, true, 'fulfilled', 7, ${t.formId})`;
    const connectionId = await shopifyConnection(sql, t.orgId, 'bench-conn-worker');
    ctx.log(`storing ${count} orders/fulfilled events`);
    // 100 a statement: each event also stamps the connection's last_event_at, and one statement
    // updating one row thousands of times walks an ever longer chain of its versions.
    for (let from = 0; from < count; from += 100) {
      const events = Array.from({ length: Math.min(100, count - from) }, (_, i) => ({
        id: `bench-${from + i}`,
        payload: order(from + i, { fulfilled: true }),
      }));
      await sql`
        select plaudit.receive_connection_event(${connectionId}, e.id, 'orders/fulfilled', e.payload)
          from jsonb_to_recordset(${sql.json(events)}) as e(id text, payload jsonb)`;
    }
    const [{ stored }] = await sql`select count(*)::int as stored from plaudit.connection_events
                                    where connection_id = ${connectionId} and processed_at is null`;
    if (stored !== count) throw new Error(`stored ${stored} events, not ${count}`);

    // Another organization's connection, for the inbound answers measured meanwhile.
    const other = await tenant(sql, 'bench-conn-other');
    const otherUrl = `${api.url}/api/v1/connections/${await shopifyConnection(
      sql,
      other.orgId,
      'bench-conn-other',
    )}/events`;
    const otherBody = JSON.stringify(order(1));

    const started = performance.now();
    const w = await startWorkerProcess({
      databaseUrl: stack.authenticatorUrl,
      stdio: 'ignore',
      env: { PLAUDIT_ENV: 'production', WORKER_ORG_IDS: t.orgId, EMAIL_TRANSPORT: 'none' },
    });
    const latencies = [];
    let draining = true;
    let sent = 0;
    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      while (draining) latencies.push(await postEvent(otherUrl, otherBody, `during-${c}-${sent++}`));
    });
    let processed = 0;
    try {
      const deadline = Date.now() + 900_000;
      while (Date.now() < deadline) {
        [{ processed }] = await sql`select count(*)::int as processed from plaudit.connection_events
                                     where connection_id = ${connectionId} and processed_at is not null`;
        if (processed >= count) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      draining = false;
      await Promise.all(clients);
      await w.stop();
    }
    if (processed < count) throw new Error(`the worker processed ${processed} of ${count} events`);
    const seconds = (performance.now() - started) / 1000;
    const [{ orders, requests }] = await sql`
      select (select count(*)::int from plaudit.orders where org_id = ${t.orgId}) as orders,
             (select count(*)::int from plaudit.review_requests where org_id = ${t.orgId}) as requests`;
    if (orders !== count || requests !== count) {
      throw new Error(`${count} events made ${orders} orders and ${requests} requests`);
    }
    const workerRate = count / seconds;
    latencies.sort((a, b) => a - b);
    const p99 = percentile(latencies, 99);
    return {
      rows: [
        { name: `worker: ${count} events → orders and requests (rows/s)`, rps: workerRate },
        { name: 'POST …/review-requests/bulk, 1,000-row calls (rows/s)', rps: bulkRate },
        {
          name: `inbound events while the worker drains (${latencies.length}, ${CLIENTS} clients)`,
          rps: latencies.length / seconds,
          p50: percentile(latencies, 50),
          p99,
        },
      ],
      ratios: [
        { name: 'worker ÷ bulk route (rows/s)', value: workerRate / bulkRate, target: 0.5 },
        { name: '250 ms ÷ inbound p99 during the drain', value: 250 / p99, target: 1 },
      ].map((r) => ({ ...r, pass: r.value >= r.target })),
    };
  },
};

export default [inbound, worker];
