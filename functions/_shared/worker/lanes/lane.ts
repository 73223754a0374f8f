// What every lane of the worker is given by the loop that runs it (worker.ts): the database, the
// configuration, the log, the counters, and the shared count of sends in flight.
import type { Sql } from '../../core/db/client.ts';
import type { WorkerConfig } from '../config.ts';

export type WorkerLog = (line: Record<string, unknown>) => void;

export interface WorkerStats {
  webhookAttempts: number;
  webhookSucceeded: number;
  emailsSent: number;
  emailFailures: number;
  exportKicks: number;
}

export interface LaneContext {
  sql: Sql;
  config: WorkerConfig;
  log: WorkerLog;
  stats: WorkerStats;
  /** Jitter of the retry schedules; tests make it fixed. */
  random: () => number;
  /** Sends in flight, all lanes together (a batch of e-mails counts as one): the webhooks' room. */
  inFlight(): number;
  /** Counts a send in flight until it settles, then wakes the loop to refill its slot. */
  track(send: Promise<void>): void;
  /** The worker is stopping: a lane that loops ends its loop. */
  stopping(): boolean;
}

/** The organizations the worker is pinned to, as a PostgreSQL array literal (null: all of them). */
export const orgIdsLiteral = (ids: string[] | null) => (ids ? `{${ids.join(',')}}` : null);
