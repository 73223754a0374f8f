// Starts the API function on Deno, as `npm start`, the tests and the benchmarks run it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root } from './database.mjs';

const DENO = path.join(root, 'node_modules', '.bin', 'deno');
const PERMISSIONS = ['--allow-net', '--allow-env', '--allow-read', '--allow-sys'];

export async function waitForHealth(url, timeoutMs = 60_000, child) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`the API exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) return;
      last = `status ${res.status}`;
    } catch (err) {
      last = err.message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the API did not become healthy within ${timeoutMs} ms (${last})`);
}

/**
 * Spawns functions/api/index.ts and resolves once /api/v1/health answers 200.
 * `stdio` decides where its log lines go ('inherit' for npm start, 'ignore' or a file for tests).
 */
export async function startApi({ port, databaseUrl, env = {}, stdio = 'inherit' }) {
  const child = spawn(DENO, ['run', ...PERMISSIONS, '--unstable-no-legacy-abort', 'functions/api/index.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      API_DATABASE_URL: databaseUrl,
      DENO_NO_UPDATE_CHECK: '1',
      ...env,
    },
    stdio: ['ignore', stdio, stdio],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, 60_000, child);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  return { child, url, stop };
}
