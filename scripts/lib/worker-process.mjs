// Starts the worker function on Deno as a long-running process (WORKER_LOOP=1), as `npm start`
// and the fault-injection tests run it, or as the Edge Function hosted Supabase runs (an HTTP
// server that drains what is due per authorised POST), as the hosted-conditions test runs it.
import { spawnDeno } from './deno-process.mjs';

/**
 * Spawns functions/worker/index.ts and resolves once it logs that it started (it has then
 * subscribed to NOTIFY plaudit_outbox). `stdio` as for startApi.
 * @param {{ databaseUrl: string | undefined, env?: Record<string, string>,
 *   stdio?: 'inherit' | 'ignore' | 'pipe' | number, timeoutMs?: number }} options
 */
export async function startWorkerProcess({ databaseUrl, env = {}, stdio = 'inherit', timeoutMs = 60_000 }) {
  const { child, stop } = spawnDeno('functions/worker/index.ts', {
    env: { WORKER_DATABASE_URL: databaseUrl, WORKER_LOOP: '1', ...env },
    stdio: ['ignore', 'pipe', stdio === 'inherit' ? 'inherit' : stdio],
  });
  await new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`the worker did not start within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk) => {
      if (buffered !== null) {
        buffered += chunk.toString();
        if (buffered.includes('"worker started"')) {
          buffered = null;
          clearTimeout(timer);
          resolve();
        }
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited with code ${code} before starting`));
    });
  }).catch((err) => {
    child.kill('SIGKILL');
    throw err;
  });
  // Its log lines go where the caller asked, from now on.
  if (stdio === 'inherit') child.stdout.pipe(process.stdout);
  else if (typeof stdio === 'number') {
    const fs = await import('node:fs');
    child.stdout.on('data', (c) => fs.writeSync(stdio, c));
  } else child.stdout.resume();
  return { child, stop: () => stop(8000) };
}

/**
 * Spawns functions/worker/index.ts as an Edge Function would run it (no WORKER_LOOP): it serves
 * POST on 127.0.0.1:`port`, checks `Authorization: Bearer <secret>` and drains what is due.
 * Resolves once it answers (401 to a POST without the secret). `flags` go to Deno.
 * @param {{ databaseUrl: string, port: number, secret: string, env?: Record<string, string>,
 *   flags?: string[], stdio?: 'ignore' | number, timeoutMs?: number }} options
 */
export async function startWorkerFunction(
  { databaseUrl, port, secret, env = {}, flags = [], stdio = 'ignore', timeoutMs = 60_000 },
) {
  const { child, stop } = spawnDeno('functions/worker/index.ts', {
    env: { WORKER_DATABASE_URL: databaseUrl, WORKER_PORT: String(port), WORKER_SECRET: secret, ...env },
    stdio: ['ignore', stdio, stdio],
    flags,
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the worker exited with code ${child.exitCode}`);
    const status = await fetch(url, { method: 'POST' }).then((r) => r.status, () => null);
    if (status === 401) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the worker function did not answer within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url, stop: () => stop(8000) };
}
