// Hosted deployments: after a write that may have queued work (an event, an e-mail, an export),
// the API rings the worker function so that it does not wait for the next pg_cron tick. A
// background task (EdgeRuntime.waitUntil where it exists), at most once a second per instance,
// never delaying or failing the request. Off unless WORKER_URL is set (locally, npm start's
// worker listens to NOTIFY instead).
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/env.ts';
import { env } from '../../../core/runtime.ts';

type EdgeRuntimeLike = { waitUntil(p: Promise<unknown>): void };

export function wakeWorkerAfterWrites(): MiddlewareHandler<AppEnv> {
  const url = env('WORKER_URL');
  const secret = env('WORKER_SECRET');
  let last = 0;
  return async (c, next) => {
    await next();
    if (!url || c.req.method === 'GET' || c.req.method === 'HEAD' || c.res.status >= 400) return;
    const now = Date.now();
    if (now - last < 1000) return;
    last = now;
    const ring = fetch(url, {
      method: 'POST',
      headers: secret ? { authorization: `Bearer ${secret}` } : {},
      signal: AbortSignal.timeout(5000),
    }).then((r) => r.body?.cancel()).catch(() => {});
    (globalThis as unknown as { EdgeRuntime?: EdgeRuntimeLike }).EdgeRuntime?.waitUntil(ring);
  };
}
