// The set-up every benchmark scenario shares: a throwaway PostgreSQL cluster with the migrations
// applied, the API on Deno connected as plaudit_authenticator (the login role production uses),
// and, on demand, the bare Deno.serve hello-world that shows the HTTP ceiling. stop() undoes
// whatever was started, in reverse order, and is safe to call more than once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApi } from '../lib/api-server.mjs';
import { spawnDeno } from '../lib/deno-process.mjs';
import { applyMigrations, authenticatorUrl, connect, ensureDatabase } from '../lib/database.mjs';
import { Cluster, freePort } from '../lib/postgres.mjs';

/** The API's per-key limit during benchmarks: high enough never to answer 429. */
export const BENCH_RATE_LIMIT = 1_000_000_000;

async function waitForOk(url, child, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * The shared stack; start() brings it up. `apiEnv` adds to the API's environment
 * (DATABASE_POOL_SIZE, say); the per-key rate limit and PLAUDIT_ENV=production are always set.
 */
export function createStack({ apiEnv = {}, log = () => {} } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaudit-bench-'));
  const stack = {
    dir,
    cluster: null,
    sql: null,
    api: null,
    hello: null,
    superuserUrl: null,
    authenticatorUrl: null,
    apiEnv: { RATE_LIMIT_PER_MINUTE: String(BENCH_RATE_LIMIT), PLAUDIT_ENV: 'production', ...apiEnv },
    stopped: false,
    keepDir: false,
  };

  stack.stop = async () => {
    if (stack.stopped) return;
    stack.stopped = true;
    if (stack.hello) await stack.hello.stop(5000);
    if (stack.api) await stack.api.stop();
    if (stack.sql) await stack.sql.end({ timeout: 5 }).catch(() => {});
    stack.cluster?.stop();
    if (stack.keepDir) console.error(`bench: kept ${dir} (postgres.log) for inspection`);
    else fs.rmSync(dir, { recursive: true, force: true });
  };

  /** The bare Deno.serve hello-world, started on first use. */
  stack.startHello = async () => {
    if (stack.hello) return stack.hello;
    const port = await freePort();
    const { child, stop } = spawnDeno('scripts/bench/hello.ts', { env: { PORT: String(port) }, stdio: 'ignore' });
    const url = `http://127.0.0.1:${port}/`;
    stack.hello = { child, url, stop };
    await waitForOk(url, child);
    return stack.hello;
  };

  stack.start = async () => {
    try {
      // No pg_cron: its once-a-minute maintenance job would land inside some measurements only.
      stack.cluster = new Cluster({ dir, port: await freePort(), database: 'plaudit_bench', preloadCron: false });
      log(`PostgreSQL cluster in ${dir} (${stack.cluster.binaries.source} binaries)`);
      stack.cluster.init();
      stack.cluster.start();
      await ensureDatabase(stack.cluster.url('postgres'), stack.cluster.database);
      stack.superuserUrl = stack.cluster.url();
      log('applying migrations');
      await applyMigrations(stack.superuserUrl);
      stack.authenticatorUrl = await authenticatorUrl(stack.superuserUrl);
      stack.sql = connect(stack.superuserUrl);
      log(`starting the API (${Object.entries(stack.apiEnv).map(([k, v]) => `${k}=${v}`).join(' ')})`);
      stack.api = await startApi({
        port: await freePort(),
        databaseUrl: stack.authenticatorUrl,
        env: stack.apiEnv,
        stdio: 'ignore',
      });
    } catch (err) {
      stack.keepDir = true;
      await stack.stop();
      throw err;
    }
  };
  return stack;
}
