// Read replicas: hot standbys of the primary that serve the public's reads (docs/scaling.md,
// "Read replicas"). Each has a small pool of its own and is checked in the background about once
// a second: reachable, in recovery, and its lag (lag.ts: by WAL position against the primary's).
// A replica serves reads while its last check found it healthy, within REPLICA_MAX_LAG_MS and
// past the read floor (a position the worker's CDN purges raise when a replica falls behind them:
// plaudit.replica_read_floor, read from the primary with each round); otherwise, and whenever
// none is configured, reads stay on the primary. Which reads may go to a replica is decided in
// one place, runAsPublic (roles.ts).
import { createSql, privilegeProblem, type Sql } from './client.ts';
import { parseLsn, PrimaryPositions } from './lag.ts';

/** Time between two rounds of checks, by default. */
export const CHECK_INTERVAL_MS = 1000;

/** A check that takes longer than this counts as failed, by default. */
export const checkTimeoutMs = (intervalMs: number) => Math.max(2000, intervalMs * 2);

/**
 * How long after the read floor rises every process checking its replicas every `intervalMs` has
 * read it: a round reads it first, and the next round starts at most a timed-out round plus an
 * interval later.
 */
export const floorSeenWithinMs = (intervalMs = CHECK_INTERVAL_MS) => intervalMs + checkTimeoutMs(intervalMs);

export interface ReplicaOptions {
  /** A replica lagging more than this serves no read. */
  maxLagMs?: number;
  /** Time between two checks of every replica. */
  intervalMs?: number;
  /** Connections per replica pool. */
  poolSize?: number;
  /** A check that takes longer than this counts as failed. */
  checkTimeoutMs?: number;
  now?: () => number;
}

/** What GET /api/v1/health shows of a replica: never its address. */
export interface ReplicaHealth {
  healthy: boolean;
  /** Null while it cannot be measured (unreachable, not yet checked). */
  lag_ms: number | null;
}

interface Replica {
  sql: Sql;
  /** Why it may never serve (a login that row-level security does not bind), once known. */
  refused: string | null;
  privilegesChecked: boolean;
  /** Reachable and replaying: its last check succeeded. */
  up: boolean;
  replayed: bigint | null;
  lagMs: number | null;
}

export class ReplicaSet {
  readonly maxLagMs: number;
  readonly intervalMs: number;
  readonly #replicas: Replica[];
  readonly #positions: PrimaryPositions;
  readonly #checkTimeoutMs: number;
  readonly #now: () => number;
  #next = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  #round: Promise<void> | undefined;
  #listeners = new Set<() => void>();
  /** The position a replica must have replayed to serve (plaudit.replica_read_floor), once known. */
  #floor: bigint | null = null;

  constructor(private readonly primary: Sql, urls: string[], options: ReplicaOptions = {}) {
    this.maxLagMs = options.maxLagMs ?? 5000;
    this.intervalMs = options.intervalMs ?? CHECK_INTERVAL_MS;
    this.#checkTimeoutMs = options.checkTimeoutMs ?? checkTimeoutMs(this.intervalMs);
    this.#now = options.now ?? Date.now;
    // Samples are kept for twice the bound: past it, a lag is only "too much".
    this.#positions = new PrimaryPositions(this.maxLagMs * 2 + this.intervalMs);
    this.#replicas = urls.map((url) => ({
      sql: createSql(url, { max: options.poolSize ?? 2, connectTimeout: 2, applicationName: 'plaudit-api-replica' }),
      refused: null,
      privilegesChecked: false,
      up: false,
      replayed: null,
      lagMs: null,
    }));
  }

  get size(): number {
    return this.#replicas.length;
  }

  /** Checks every replica now, then about every intervalMs until stop(). */
  start(): this {
    if (this.#replicas.length > 0) void this.#loop();
    return this;
  }

  async #loop() {
    if (this.#stopped) return;
    await this.check();
    if (this.#stopped) return;
    this.#timer = setTimeout(() => void this.#loop(), this.intervalMs);
    // A process waiting on nothing else (a script, a test) may end: Deno's and Node's ways.
    // (An Edge runtime may offer neither: there the isolate's life is the platform's anyway.)
    const deno = (globalThis as { Deno?: { unrefTimer?(id: number): void } }).Deno;
    if (deno) deno.unrefTimer?.(this.#timer as unknown as number);
    else (this.#timer as unknown as { unref?: () => void }).unref?.();
  }

  /** One round of checks: the primary's position and read floor first, then every replica's against them. */
  check(): Promise<void> {
    return this.#round ??= this.#checkAll().finally(() => (this.#round = undefined));
  }

  async #checkAll() {
    try {
      const [row] = await this.#timed(this.primary<{ lsn: string; floor: string | null }[]>`
        select pg_current_wal_lsn()::text as lsn, plaudit.current_replica_read_floor()::text as floor`);
      this.#positions.record(parseLsn(row.lsn), this.#now());
      if (row.floor !== null) this.raiseFloor(row.floor);
    } catch {
      // The primary unreachable: the lags stay as they were measured, and grow no older.
    }
    await Promise.all(this.#replicas.map((r) => this.#checkOne(r)));
    for (const listener of this.#listeners) listener();
  }

  async #checkOne(r: Replica) {
    try {
      const [row] = await this.#timed(r.sql<{ recovering: boolean; lsn: string | null }[]>`
        select pg_is_in_recovery() as recovering, pg_last_wal_replay_lsn()::text as lsn`);
      // A promoted or misconfigured server is no replica of this primary: it serves nothing.
      if (!row.recovering || row.lsn === null) throw new Error('not a standby');
      // As the primary's login (refuseUnboundRole): a superuser's reads would bypass row-level security.
      if (!r.privilegesChecked) {
        r.refused = await this.#timed(privilegeProblem(r.sql));
        r.privilegesChecked = true;
      }
      r.replayed = parseLsn(row.lsn);
      r.lagMs = this.#positions.lagMs(r.replayed, this.#now());
      r.up = true;
    } catch {
      r.up = false;
      r.lagMs = null;
    }
  }

  #timed<T>(query: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout>;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('check timed out')), this.#checkTimeoutMs);
    });
    return Promise.race([query, late]).finally(() => clearTimeout(timer));
  }

  #serves(r: Replica): boolean {
    return r.up && r.refused === null && r.lagMs !== null && r.lagMs <= this.maxLagMs && this.#pastFloor(r);
  }

  #pastFloor(r: Replica): boolean {
    return this.#floor === null || (r.replayed !== null && r.replayed >= this.#floor);
  }

  /**
   * No replica serves until it has replayed `lsn`: what the worker does at once to its own set
   * after raising plaudit.replica_read_floor, which the other processes read at their next round.
   * The floor only rises.
   */
  raiseFloor(lsn: string): void {
    const at = parseLsn(lsn);
    if (this.#floor === null || at > this.#floor) this.#floor = at;
  }

  /** A replica to read from (round robin among those that serve), or null: read from the primary. */
  pick(): Sql | null {
    const n = this.#replicas.length;
    for (let i = 0; i < n; i++) {
      const r = this.#replicas[(this.#next + i) % n];
      if (this.#serves(r)) {
        this.#next = (this.#next + i + 1) % n;
        return r.sql;
      }
    }
    return null;
  }

  /** A read on `sql` failed to reach it: it serves nothing until a check finds it up again. */
  markDown(sql: Sql): void {
    const r = this.#replicas.find((x) => x.sql === sql);
    if (r) {
      r.up = false;
      r.lagMs = null;
    }
  }

  health(): ReplicaHealth[] {
    return this.#replicas.map((r) => ({ healthy: this.#serves(r), lag_ms: r.lagMs }));
  }

  /**
   * Whether every replica that serves reads has replayed `lsn` (as far as the last check saw:
   * replay only moves forward, so a yes stays true). With no replica serving, trivially yes.
   */
  replayed(lsn: string): boolean {
    const at = parseLsn(lsn);
    return this.#replicas.every((r) => !this.#serves(r) || (r.replayed !== null && r.replayed >= at));
  }

  /** How many replicas serve reads without having replayed `lsn` (as far as the last check saw). */
  behind(lsn: string): number {
    const at = parseLsn(lsn);
    return this.#replicas.filter((r) => this.#serves(r) && !(r.replayed !== null && r.replayed >= at)).length;
  }

  /**
   * Waits until every replica that serves reads has replayed `lsn` (a write's
   * pg_current_wal_insert_lsn()), checking as often as the loop does; false once `timeout` (in
   * milliseconds, or a promise: a clock the caller holds) has passed first.
   * What a CDN purge waits for before it asks the CDN to fetch again.
   */
  waitForReplay(lsn: string, timeout: number | Promise<unknown>): Promise<boolean> {
    if (this.replayed(lsn)) return Promise.resolve(true);
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let settled = false;
      const done = (ok: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.#listeners.delete(listener);
        resolve(ok);
      };
      const listener = () => {
        if (this.replayed(lsn)) done(true);
      };
      this.#listeners.add(listener);
      if (typeof timeout === 'number') timer = setTimeout(() => done(this.replayed(lsn)), timeout);
      else void timeout.finally(() => done(this.replayed(lsn)));
    });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await Promise.all(this.#replicas.map((r) => r.sql.end({ timeout: 5 })));
  }
}
