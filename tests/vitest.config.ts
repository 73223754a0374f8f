import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['functions/**/*.test.ts', 'tests/**/*.test.ts'],
    globalSetup: ['tests/setup/api-server.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // API test files share one server and one database; each makes its own organizations.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
