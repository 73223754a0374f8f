// Starts the API on Deno against the test database, once for the whole run.
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
// @ts-expect-error: plain ESM helper shared with npm start
import { startApi } from '../../scripts/lib/api-server.mjs';
// @ts-expect-error: plain ESM helper shared with npm start
import { freePort } from '../../scripts/lib/postgres.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
  }
}

let stop: (() => Promise<void>) | undefined;

export default async function setup(project: TestProject) {
  const databaseUrl = process.env.TEST_API_DATABASE_URL;
  if (!databaseUrl) throw new Error('Run the suite with `npm test`: it prepares the test database');
  const logFile = path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'api.log');
  const out = fs.openSync(logFile, 'a');
  const api = await startApi({
    port: await freePort(),
    databaseUrl,
    env: { PLAUDIT_ENV: 'development' },
    stdio: out,
  });
  stop = api.stop;
  project.provide('apiUrl', api.url);
  return async () => {
    await stop?.();
  };
}
