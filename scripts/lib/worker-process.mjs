// Starts the worker function on Deno as a long-running process (WORKER_LOOP=1), as `npm start`
// and the fault-injection tests run it.
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
