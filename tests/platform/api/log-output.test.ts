// The API's log on standard output (middleware/request-log: lines written together) never takes
// the API down: when nobody reads its output any more (a closed pipe), it goes on answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../../../scripts/lib/api-server.mjs';
import { freePort } from '../../../scripts/lib/postgres.mjs';
import { LOG_FLUSH_CHARS } from '../../../functions/_shared/api/middleware/request-log/index.ts';

describe('the log on standard output', () => {
  let server: Awaited<ReturnType<typeof startApi>>;
  beforeAll(async () => {
    server = await startApi({
      port: await freePort(),
      databaseUrl: process.env.TEST_API_DATABASE_URL!,
      env: { PLAUDIT_ENV: 'development' },
      stdio: 'pipe',
    });
  });
  afterAll(() => server?.stop());

  it('keeps answering once its standard output is a closed pipe', async () => {
    const health = () => fetch(`${server.url}/api/v1/health`).then(async (r) => [r.status, await r.text()][0]);
    let received = '';
    server.child.stdout!.on('data', (d: Buffer) => (received += d));
    const route = '"route":"/api/v1/health"';
    await expect.poll(async () => (await health(), received.includes(route))).toBe(true);
    server.child.stdout!.destroy();
    // Past 32 KiB of lines, the log writes at once, into the closed pipe: no waiting on its timer.
    const line = received.split('\n').find((l) => l.includes(route))!;
    for (let written = 0; written <= 2 * LOG_FLUSH_CHARS; written += line.length + 1) expect(await health()).toBe(200);
    expect(server.child.exitCode).toBeNull();
    expect(await health()).toBe(200);
  });
});
