import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['functions/**/*.test.ts', 'dashboard/src/**/*.test.ts', 'tests/**/*.test.ts'],
    globalSetup: ['tests/setup/api-server.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for an event (a page drawn, a mail arrived), not for a time: on a loaded
    // machine that can take seconds, so it may wait up to the test's own limit.
    expect: { poll: { timeout: 25_000, interval: 50 } },
    // API test files share one server and one database; each makes its own organizations.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
