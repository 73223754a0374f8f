// The `worker` function: drains the webhook and e-mail outboxes and generates exports.
//   WORKER_LOOP=1 (npm start): a long-running process, woken by LISTEN plaudit_outbox and a
//     timer; SIGINT/SIGTERM stop it after the sends in flight.
//   otherwise (a Supabase Edge Function): each POST drains what is due, for up to
//     WORKER_DRAIN_MS, then answers; pg_cron (through pg_net) and the API call it.
import { createSql } from '../_shared/db/client.ts';
import { timingSafeEqual } from '../_shared/webhooks/signing.ts';
import { loadWorkerConfig } from '../_shared/worker/config.ts';
import { Worker } from '../_shared/worker/worker.ts';

const config = loadWorkerConfig();
const sql = createSql(config.databaseUrl, { max: Math.min(10, config.concurrency + 4) });
const worker = new Worker({ sql, config });

if (Deno.env.get('WORKER_LOOP') === '1') {
  await worker.start();
  console.log(JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'worker started', environment: config.environment }));
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    Deno.addSignalListener(signal, async () => {
      if (stopping) return;
      stopping = true;
      await worker.stop(5000);
      await sql.end({ timeout: 5 });
      Deno.exit(0);
    });
  }
} else {
  const drainMs = Number(Deno.env.get('WORKER_DRAIN_MS') ?? 50_000);
  Deno.serve(async (req) => {
    if (config.workerSecret) {
      const auth = req.headers.get('authorization') ?? '';
      if (!timingSafeEqual(auth, `Bearer ${config.workerSecret}`)) {
        return Response.json({ statusCode: 401, message: 'Invalid worker secret', error: 'Unauthorized' }, { status: 401 });
      }
    }
    const started = Date.now();
    await worker.drain({ maxMs: drainMs });
    return Response.json({ ok: true, ms: Date.now() - started, stats: worker.stats });
  });
}
