// A worker of the test's own whose clock the test holds, for the summaries' lane: drain() runs
// what is due now, and the lane looks for due summaries again only once the clock has moved a minute.
import postgres from 'postgres';
import type { WorkerConfig } from '../../functions/_shared/worker/config.ts';
import { Worker } from '../../functions/_shared/worker/worker.ts';
import { workerConfig } from './worker.ts';

export interface HeldClockWorker {
  worker: Worker;
  logs: Record<string, unknown>[];
  /** Moves the held clock on. */
  advance(ms: number): void;
  /** Runs everything due now, summaries included, and waits for it. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

export function heldClockWorker(orgIds: string[], overrides: Partial<WorkerConfig> = {}): HeldClockWorker {
  const sql = postgres(process.env.TEST_API_DATABASE_URL!, { max: 4, prepare: false, onnotice: () => {} });
  const logs: Record<string, unknown>[] = [];
  let clock = 1_000_000;
  const worker = new Worker({
    sql: sql as never,
    config: workerConfig(orgIds, overrides),
    log: (l) => logs.push(l),
    emailTransport: null,
    now: () => new Date(clock),
  });
  return {
    worker,
    logs,
    advance: (ms) => {
      clock += ms;
    },
    drain: () => worker.drain({ maxMs: 30_000 }),
    stop: () => sql.end({ timeout: 2 }),
  };
}
