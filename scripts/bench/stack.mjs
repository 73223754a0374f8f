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
import { installPlanning, PLANNING_SETTINGS } from './planning.mjs';

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
export function createStack({ apiEnv = {}, log = () => {}, planning = false } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaudit-bench-'));
  const stack = {
    dir,
    cluster: null,
    sql: null,
    api: null,
    servers: {},
    started: [],
    superuserUrl: null,
    authenticatorUrl: null,
    apiEnv: {
      RATE_LIMIT_PER_MINUTE: String(BENCH_RATE_LIMIT),
      PLAUDIT_ENV: 'production',
      // Uploaded photos stay in the stack's folder, removed with it.
      MEDIA_DIR: path.join(dir, 'media'),
      MEDIA_UPLOAD_RATE_LIMIT_PER_MINUTE: String(BENCH_RATE_LIMIT),
      ...apiEnv,
    },
    stopped: false,
    // BENCH_KEEP=1: the cluster's folder stays after the run (pg_ctl start on its pg/ to look at its data).
    keepDir: process.env.BENCH_KEEP === '1',
    planning,
  };

  stack.stop = async () => {
    if (stack.stopped) return;
    stack.stopped = true;
    for (const server of stack.started) await server.stop(5000);
    if (stack.api) await stack.api.stop();
    if (stack.sql) await stack.sql.end({ timeout: 5 }).catch(() => {});
    stack.cluster?.stop();
    if (stack.keepDir) console.error(`bench: kept ${dir} (postgres.log) for inspection`);
    else fs.rmSync(dir, { recursive: true, force: true });
  };

  /** A bench server of scripts/bench/ (`entry`) on a port of its own, started on first use. */
  const startServer = (entry, env = {}) => {
    stack.servers[entry] ??= (async () => {
      const port = await freePort();
      const { child, stop } = spawnDeno(entry, { env: { PORT: String(port), ...env }, stdio: 'ignore' });
      const server = { child, url: `http://127.0.0.1:${port}/`, stop };
      stack.started.push(server);
      await waitForOk(server.url, child);
      return server;
    })();
    return stack.servers[entry];
  };

  /**
   * An API instance of a scenario's own (its `env` over the stack's; `databaseUrl`, another
   * database of the cluster, say), stopped with the stack.
   */
  stack.startExtraApi = async ({ databaseUrl = stack.authenticatorUrl, env = {} } = {}) => {
    const api = await startApi({
      port: await freePort(),
      databaseUrl,
      env: { ...stack.apiEnv, ...env },
      stdio: 'ignore',
    });
    stack.started.push(api);
    return api;
  };

  /** The bare Deno.serve hello-world: the HTTP ceiling. */
  stack.startHello = () => startServer('scripts/bench/hello.ts');

  /** A static file server answering `file` (scripts/bench/static.ts): the ceiling of serving media. */
  stack.startStatic = (file) => startServer('scripts/bench/static.ts', { FILE: file });

  /**
   * Deno.serve and postgres.js running a read's one statement and nothing else: the floor of a
   * Deno API's CPU per request (scripts/bench/one-statement.ts; its paths are listed there).
   */
  stack.startOneStatement = () =>
    startServer('scripts/bench/one-statement.ts', {
      API_DATABASE_URL: stack.authenticatorUrl,
      ...(stack.apiEnv.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: stack.apiEnv.DATABASE_POOL_SIZE } : {}),
    });

  stack.start = async () => {
    try {
      // No pg_cron: its once-a-minute maintenance job would land inside some measurements only.
      stack.cluster = new Cluster({
        dir,
        port: await freePort(),
        database: 'plaudit_bench',
        preloadCron: false,
        settings: planning ? PLANNING_SETTINGS : [],
      });
      log(`PostgreSQL cluster in ${dir} (${stack.cluster.binaries.source} binaries)`);
      stack.cluster.init();
      stack.cluster.start();
      await ensureDatabase(stack.cluster.url('postgres'), stack.cluster.database);
      stack.superuserUrl = stack.cluster.url();
      log('applying migrations');
      await applyMigrations(stack.superuserUrl);
      stack.authenticatorUrl = await authenticatorUrl(stack.superuserUrl);
      stack.sql = connect(stack.superuserUrl);
      if (planning) await installPlanning(stack.sql);
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
