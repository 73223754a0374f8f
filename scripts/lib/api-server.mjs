// Starts the API function on Deno, as `npm start`, the tests and the benchmarks run it.
import path from 'node:path';
import { root } from './database.mjs';
import { spawnDeno } from './deno-process.mjs';

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
 * `flags` go to Deno.
 * @param {{ port: number, databaseUrl: string | undefined, env?: Record<string, string>,
 *   stdio?: 'inherit' | 'ignore' | 'pipe' | number, flags?: string[] }} options
 */
export async function startApi({ port, databaseUrl, env = {}, stdio = 'inherit', flags = [] }) {
  // Local media storage (MEDIA_STORAGE=local) writes under the data directory, and nowhere else;
  // the folder is made by the first upload.
  const all = { ...process.env, ...env };
  const mediaDir = path.resolve(root, all.MEDIA_DIR ?? path.join(all.PLAUDIT_DATA_DIR ?? '.plaudit', 'media'));
  const { child, stop } = spawnDeno('functions/api/index.ts', {
    env: { PORT: String(port), API_DATABASE_URL: databaseUrl, ...env, MEDIA_DIR: mediaDir },
    stdio: ['ignore', stdio, stdio],
    allow: [`--allow-write=${mediaDir}`],
    flags,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, 60_000, child);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return { child, url, stop: () => stop(5000) };
}
