// The `worker` function: drains the webhook and e-mail outboxes and generates exports.
//   WORKER_LOOP=1 (npm start): a long-running process, woken by LISTEN plaudit_outbox and a
//     timer; SIGINT/SIGTERM stop it after the sends in flight.
//   otherwise (a Supabase Edge Function): each POST drains what is due, for up to
//     WORKER_DRAIN_MS, then answers; pg_cron (through pg_net) and the API call it.
import { createSql, refuseUnboundRole } from '../_shared/core/db/client.ts';
import { timingSafeEqual } from '../_shared/core/bytes.ts';
import { errorBody } from '../_shared/core/errors.ts';
import { redact } from '../_shared/core/redact.ts';
import { loadWorkerConfig } from '../_shared/worker/config.ts';
import { Worker } from '../_shared/worker/worker.ts';

const config = loadWorkerConfig();
const sql = createSql(config.databaseUrl, { max: Math.min(10, config.concurrency + 4) });
await refuseUnboundRole(sql);
const worker = new Worker({ sql, config });

if (Deno.env.get('WORKER_LOOP') === '1') {
  await worker.start();
  console.log(
    JSON.stringify({
      time: new Date().toISOString(),
      level: 'info',
      msg: 'worker started',
      environment: config.environment,
    }),
  );
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
  // Anyone who can reach the function could otherwise make it drain at will.
  if (!config.workerSecret && config.environment === 'production') {
    throw new Error('refusing to start: set WORKER_SECRET, which every call of the worker function must carry');
  }
  const drainMs = Number(Deno.env.get('WORKER_DRAIN_MS') ?? 50_000);
  let draining: Promise<void> | null = null;
  const handler = async (req: Request): Promise<Response> => {
    if (config.workerSecret) {
      const auth = req.headers.get('authorization') ?? '';
      if (!timingSafeEqual(auth, `Bearer ${config.workerSecret}`)) {
        return Response.json(errorBody(401, 'Invalid worker secret'), { status: 401 });
      }
    }
    // One drain at a time per instance; where the runtime can keep working after the answer
    // (EdgeRuntime.waitUntil), answer at once so the caller (pg_net, the API) never waits.
    if (!draining) {
      const started = Date.now();
      draining = worker.drain({ maxMs: drainMs })
        .catch((err) =>
          console.error(JSON.stringify({ level: 'error', msg: 'drain failed', error: redact((err as Error).message) }))
        )
        .finally(() => {
          draining = null;
          console.log(
            JSON.stringify({
              time: new Date().toISOString(),
              level: 'info',
              msg: 'drained',
              ms: Date.now() - started,
              stats: worker.stats,
            }),
          );
        });
    }
    const edge = (globalThis as unknown as { EdgeRuntime?: { waitUntil(p: Promise<unknown>): void } }).EdgeRuntime;
    if (edge) {
      edge.waitUntil(draining!);
      return Response.json({ ok: true, draining: true }, { status: 202 });
    }
    await draining;
    return Response.json({ ok: true, stats: worker.stats });
  };
  // WORKER_PORT serves it locally (tests); the Edge Runtime chooses the port itself.
  const port = Deno.env.get('WORKER_PORT');
  if (port) Deno.serve({ port: Number(port), hostname: '127.0.0.1' }, handler);
  else Deno.serve(handler);
}
