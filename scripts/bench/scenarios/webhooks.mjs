// webhooks: the worker (Deno, as npm start runs it) delivering to a local receiver.
//   latency     events emitted one by one at BENCH_WEBHOOK_RATE per second (50) for BENCH_SECONDS:
//               time from just before the emitting transaction to the receiver's answer;
//   throughput  a burst of BENCH_WEBHOOK_BURST events (5,000) in one transaction, to one endpoint,
//               with the default per-endpoint concurrency (4) and with 16: deliveries per second
//               from the commit to the last receipt;
//   reference   the same receiver hit directly by this process with 4 concurrent POSTs.
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

export default {
  name: 'webhooks',
  description: 'Webhook deliveries to a local receiver: deliveries/s and event-to-receipt latency (target p50 < 100 ms)',
  async run(ctx) {
    const { stack } = ctx;
    const rate = Number(ctx.env.BENCH_WEBHOOK_RATE ?? 50);
    const burst = Number(ctx.env.BENCH_WEBHOOK_BURST ?? 5000);
    const sql = stack.sql;
    const [org] = await sql`insert into plaudit.organizations (name, slug) values ('Webhook bench', 'webhook-bench') returning id`;

    const received = new Map(); // marker → receipt time (ms since the epoch)
    let burstCount = 0;
    let burstLast = 0;
    const server = await startReceiver((body, at) => {
      const data = JSON.parse(body).data ?? {};
      if (data.phase === 'latency' && !received.has(data.n)) received.set(data.n, at - data.sent_at);
      if (data.phase === 'burst') {
        burstCount += 1;
        burstLast = at;
      }
    });
    const url = `http://127.0.0.1:${server.address().port}/hook`;
    // Registered as the API would, but directly: the bench API runs in production mode, which
    // refuses loopback URLs (the SSRF guard); the worker runs in development mode for the same reason.
    await sql`
      insert into plaudit.webhook_endpoints (org_id, url, events, secret)
      values (${org.id}, ${url}, array['review.created'], plaudit.new_webhook_secret())`;
    const startWorker = (perEndpoint) => startWorkerProcess({
      databaseUrl: stack.authenticatorUrl,
      stdio: 'ignore',
      env: {
        PLAUDIT_ENV: 'development', EMAIL_TRANSPORT: 'none', WORKER_ORG_IDS: org.id,
        WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(perEndpoint),
      },
    });
    let worker = await startWorker(4);
    try {
      ctx.log(`latency: ${rate} events/s for ${ctx.seconds} s`);
      const total = rate * ctx.seconds;
      for (let n = 0; n < total; n++) {
        const sentAt = performance.timeOrigin + performance.now();
        await sql`select plaudit.emit_event(${org.id}, 'review.created', ${sql.json({ phase: 'latency', n, sent_at: sentAt })})`;
        const next = sentAt + 1000 / rate - (performance.timeOrigin + performance.now());
        if (next > 0) await new Promise((r) => setTimeout(r, next));
      }
      const deadline = Date.now() + 30_000;
      while (received.size < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (received.size < total) throw new Error(`only ${received.size} of ${total} latency events arrived`);
      const latencies = [...received.values()].sort((a, b) => a - b);

      const bursts = [];
      for (const perEndpoint of [4, 16]) {
        if (perEndpoint !== 4) {
          await worker.stop();
          worker = await startWorker(perEndpoint);
        }
        ctx.log(`throughput: a burst of ${burst} events, ${perEndpoint} in flight per endpoint`);
        burstCount = 0;
        await sql`
          select plaudit.emit_event(${org.id}, 'review.created', jsonb_build_object('phase', 'burst', 'n', g))
          from generate_series(1, ${burst}) g`;
        const committed = performance.timeOrigin + performance.now();
        const burstDeadline = Date.now() + 300_000;
        while (burstCount < burst && Date.now() < burstDeadline) await new Promise((r) => setTimeout(r, 20));
        if (burstCount < burst) throw new Error(`only ${burstCount} of ${burst} burst events arrived`);
        bursts.push({ perEndpoint, rps: burst / ((burstLast - committed) / 1000) });
      }
      const deliveriesPerSecond = bursts[0].rps;

      ctx.log(`reference: direct POSTs to the receiver for ${ctx.seconds} s`);
      const direct = await directPosts(url, ctx.seconds);
      const p50 = percentile(latencies, 50);
      return {
        rows: [
          { name: `event → receipt, ${rate} events/s`, rps: rate, p50, p99: percentile(latencies, 99) },
          ...bursts.map((b) => ({ name: `deliveries, burst of ${burst}, 1 endpoint, ${b.perEndpoint} in flight`, rps: b.rps })),
          { name: 'direct POSTs to the receiver, 4 at once', rps: direct },
        ],
        ratios: [
          { name: '100 ms ÷ p50 latency', value: 100 / p50, target: 1 },
          { name: 'deliveries ÷ direct', value: deliveriesPerSecond / direct },
        ],
      };
    } finally {
      await worker.stop();
      await new Promise((r) => server.close(r));
    }
  },
};
