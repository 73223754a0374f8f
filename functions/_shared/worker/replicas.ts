// The read replicas, as far as the worker needs them: a CDN purge must not go out before every
// replica that serves reads has replayed the change it announces, or the CDN could refill its
// cache from a replica that still shows the old answer and keep it until the next purge.
//
// The worker checks the replicas as the API does (a ReplicaSet of its own, the same rules), and
// before a purge waits, at most `waitMs`, for each one that serves to replay the purge's
// position. One that has not by then is taken out of the reads: the lane raises the read floor
// (plaudit.replica_read_floor) to that position, which every process's ReplicaSet reads with its
// next round of checks and under which a replica serves nothing until it has replayed it; the
// purge goes once they all have read it (floorSeenWithinMs). So the CDN's next fetch is answered
// by the primary or by a replica that has the change.
import type { Sql } from '../core/db/client.ts';
import { floorSeenWithinMs, ReplicaSet } from '../core/db/replicas.ts';
import { asWorker } from '../core/db/roles.ts';
import type { WorkerLog } from './lanes/lane.ts';

/** What a purge waits on: `replay` (the replicas, at most `waitMs`), `fence` (the processes reading the floor). */
export type ReplicaWait = 'replay' | 'fence';

/** Resolves after `ms`, or at once when `signal` aborts; tests pass a clock they hold. */
export type Sleep = (ms: number, why: ReplicaWait, signal: AbortSignal) => Promise<void>;

export interface ReplicaGateOptions {
  /** The standbys, as the API reaches them (the same login). */
  urls: string[];
  /** A replica further behind than this serves no read (REPLICA_MAX_LAG_MS, as the API's). */
  maxLagMs: number;
  /** How long a purge waits for the replicas at most (PURGE_REPLICA_WAIT_MS). */
  waitMs: number;
  /** Between two checks of the worker's own view of the replicas. */
  intervalMs?: number;
  sleep?: Sleep;
}

const realSleep: Sleep = (ms, _why, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

export class ReplicaGate {
  readonly #sql: Sql;
  readonly #replicas: ReplicaSet;
  readonly #waitMs: number;
  readonly #sleep: Sleep;
  readonly #log: WorkerLog;

  constructor(sql: Sql, options: ReplicaGateOptions, log: WorkerLog) {
    this.#sql = sql;
    this.#replicas = new ReplicaSet(sql, options.urls, {
      maxLagMs: options.maxLagMs,
      intervalMs: options.intervalMs,
      poolSize: 1,
    });
    this.#waitMs = options.waitMs;
    this.#sleep = options.sleep ?? realSleep;
    this.#log = log;
  }

  start(): this {
    this.#replicas.start();
    return this;
  }

  /**
   * Resolves once the purge of the changes up to `lsn` may go out: every replica that serves
   * reads has replayed it, or those that did not within the bound no longer serve.
   */
  async ready(lsn: string): Promise<void> {
    // A fresh look: the replicas' positions now, and the floor other workers may have raised.
    await this.#replicas.check();
    if (this.#replicas.replayed(lsn)) return;
    const stop = new AbortController();
    const caughtUp = await this.#replicas.waitForReplay(lsn, this.#sleep(this.#waitMs, 'replay', stop.signal))
      .finally(() => stop.abort());
    if (caughtUp) return;
    const behind = this.#replicas.behind(lsn);
    await asWorker(this.#sql, (tx) => tx`select plaudit.raise_replica_read_floor(${lsn}::pg_lsn)`);
    this.#replicas.raiseFloor(lsn);
    // A position, not anyone's data.
    this.#log({ level: 'warn', msg: 'replicas behind a cdn purge taken out of reads', replicas: behind, lsn });
    await this.#sleep(floorSeenWithinMs(), 'fence', new AbortController().signal);
  }

  stop(): Promise<void> {
    return this.#replicas.stop();
  }
}
