// A worker running inside the test process, pinned to the test's own organizations so that test
// files running side by side never take each other's rows.
import postgres from 'postgres';
import { loadWorkerConfig, type WorkerConfig } from '../../functions/_shared/worker/config.ts';
import { Worker, type WorkerDeps } from '../../functions/_shared/worker/worker.ts';

export interface TestWorker {
  worker: Worker;
  logs: Record<string, unknown>[];
  stop(): Promise<void>;
}

export function workerConfig(orgIds: string[], overrides: Partial<WorkerConfig> = {}): WorkerConfig {
  return loadWorkerConfig({
    databaseUrl: process.env.TEST_API_DATABASE_URL!,
    environment: 'development',
    orgIds,
    pollMs: 50,
    retryScale: 0.0005,
    webhookTimeoutMs: 2000,
    leaseSeconds: 30,
    ...overrides,
  });
}

export async function startWorker(
  orgIds: string[],
  overrides: Partial<WorkerConfig> = {},
  deps: Partial<WorkerDeps> = {},
): Promise<TestWorker> {
  const sql = postgres(process.env.TEST_API_DATABASE_URL!, { max: 6, prepare: false, onnotice: () => {} });
  const logs: Record<string, unknown>[] = [];
  const worker = new Worker({
    sql: sql as never,
    config: workerConfig(orgIds, overrides),
    log: (l) => logs.push(l),
    emailTransport: null,
    ...deps,
  });
  await worker.start();
  return {
    worker,
    logs,
    async stop() {
      await worker.stop(3000);
      await sql.end({ timeout: 2 });
    },
  };
}
