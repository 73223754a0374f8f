// webhooks: the worker (Deno, as npm start runs it) delivering to a local receiver.
//   latency     events emitted one by one at BENCH_WEBHOOK_RATE per second (50) for BENCH_SECONDS:
//               time from just before the emitting transaction to the receiver's answer;
//   throughput  a burst of BENCH_WEBHOOK_BURST events (5,000) in one transaction, to one endpoint,
//               with the default per-endpoint concurrency (4) and with 16: deliveries per second
//               from the commit to the last receipt;
//   reference   the same receiver hit directly by this process with 4 concurrent POSTs.
// Each measurement starts its own worker process and stops it, so rounds are independent.
import http from 'node:http';
import { startWorkerProcess } from '../../lib/worker-process.mjs';
import { percentile } from '../stats.mjs';

function startReceiver(onEvent) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      onEvent(Buffer.concat(chunks).toString('utf8'), performance.timeOrigin + performance.now());
    });
  });
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function directPosts(url, seconds, concurrency = 4) {
  const body = JSON.stringify({ event: 'bench', timestamp: new Date().toISOString(), data: { n: 1 } });
  const deadline = Date.now() + seconds * 1000;
  let count = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (Date.now() < deadline) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.text();
      count += 1;
    }
  }));
  return count / seconds;
}

function startWorker(ctx, state, perEndpoint) {
  return startWorkerProcess({
    databaseUrl: ctx.stack.authenticatorUrl,
    stdio: 'ignore',
    env: {
      PLAUDIT_ENV: 'development',
      EMAIL_TRANSPORT: 'none',
      WORKER_ORG_IDS: state.orgId,
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(perEndpoint),
    },
  });
}

async function burstRun(ctx, state, perEndpoint) {
  const worker = await startWorker(ctx, state, perEndpoint);
  try {
    state.burstCount = 0;
    await ctx.stack.sql`
      select plaudit.emit_event(${state.orgId}, 'review.created', jsonb_build_object('phase', 'burst', 'n', g))
      from generate_series(1, ${state.burst}) g`;
    const committed = performance.timeOrigin + performance.now();
    const deadline = Date.now() + 300_000;
    while (state.burstCount < state.burst && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (state.burstCount < state.burst) {
      throw new Error(`only ${state.burstCount} of ${state.burst} burst events arrived`);
    }
    return { rps: state.burst / ((state.burstLast - committed) / 1000) };
  } finally {
    await worker.stop();
  }
}

const scenario = {
  name: 'webhooks',
  description:
    'Webhook deliveries to a local receiver: deliveries/s and event-to-receipt latency (target p50 < 100 ms)',
  async setup(ctx) {
    const sql = ctx.stack.sql;
    const [org] =
      await sql`insert into plaudit.organizations (name, slug) values ('Webhook bench', 'webhook-bench') returning id`;
    const state = {
      orgId: org.id,
      rate: Number(ctx.env.BENCH_WEBHOOK_RATE ?? 50),
      burst: Number(ctx.env.BENCH_WEBHOOK_BURST ?? 5000),
      received: new Map(), // latency marker → ms from emit to receipt
      burstCount: 0,
      burstLast: 0,
      latencyRound: 0,
    };
    const server = await startReceiver((body, at) => {
      const data = JSON.parse(body).data ?? {};
      if (data.phase === 'latency' && !state.received.has(data.n)) state.received.set(data.n, at - data.sent_at);
      if (data.phase === 'burst') {
        state.burstCount += 1;
        state.burstLast = at;
      }
    });
    server.unref();
    state.url = `http://127.0.0.1:${server.address().port}/hook`;
    // Registered as the API would, but directly: the bench API runs in production mode, which
    // refuses loopback URLs (the SSRF guard); the worker runs in development mode for the same reason.
    await sql`
      insert into plaudit.webhook_endpoints (org_id, url, events, secret)
      values (${org.id}, ${state.url}, array['review.created'], plaudit.new_webhook_secret())`;
    return state;
  },
  measurements: [
    {
      key: 'latency',
      name: (state) => `event → receipt, ${state.rate} events/s`,
      async run(ctx, state) {
        const worker = await startWorker(ctx, state, 4);
        try {
          const sql = ctx.stack.sql;
          const round = (state.latencyRound += 1);
          const total = state.rate * ctx.seconds;
          const mine = [];
          for (let i = 0; i < total; i++) {
            const n = `${round}-${i}`;
            mine.push(n);
            const sentAt = performance.timeOrigin + performance.now();
            await sql`select plaudit.emit_event(${state.orgId}, 'review.created', ${
              sql.json({ phase: 'latency', n, sent_at: sentAt })
            })`;
            const next = sentAt + 1000 / state.rate - (performance.timeOrigin + performance.now());
            if (next > 0) await new Promise((r) => setTimeout(r, next));
          }
          const deadline = Date.now() + 30_000;
          const arrived = () => mine.filter((n) => state.received.has(n)).length;
          while (arrived() < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
          if (arrived() < total) throw new Error(`only ${arrived()} of ${total} latency events arrived`);
          const latencies = mine.map((n) => state.received.get(n)).sort((a, b) => a - b);
          const p50 = percentile(latencies, 50);
          ctx.log(`p50 ${p50.toFixed(1)} ms: ${p50 < 100 ? 'PASS' : 'BELOW TARGET'} (target < 100 ms)`);
          return { rps: state.rate, p50, p99: percentile(latencies, 99) };
        } finally {
          await worker.stop();
        }
      },
    },
    {
      key: 'burst-4',
      name: (state) => `deliveries, burst of ${state.burst}, 1 endpoint, 4 in flight`,
      run: (ctx, state) => burstRun(ctx, state, 4),
    },
    {
      key: 'burst-16',
      name: (state) => `deliveries, burst of ${state.burst}, 1 endpoint, 16 in flight`,
      run: (ctx, state) => burstRun(ctx, state, 16),
    },
    {
      key: 'direct',
      name: 'direct POSTs to the receiver, 4 at once',
      async run(ctx, state) {
        return { rps: await directPosts(state.url, ctx.seconds) };
      },
    },
  ],
  ratios: [
    { name: 'deliveries (4 in flight) ÷ direct', of: 'burst-4', over: 'direct' },
    { name: 'deliveries (16 in flight) ÷ direct', of: 'burst-16', over: 'direct' },
  ],
};

export default scenario;
