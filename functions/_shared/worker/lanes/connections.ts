// Shop connections' inbound events: the API stored them (signed, once per delivery id); this lane
// claims them oldest first with a lease, reads each with its platform's normalizer
// (core/connections/normalize) and applies what it means through the database's functions
// (core/connections/apply.ts), recording its outcome: accepted, ignored (a topic not understood)
// or refused (a payload it cannot read). Events that are order events only (or ignored, or
// refused) are applied a run at a time in one call and one transaction, each event on its own
// within it (docs/benchmarks.md, connections: round trips and commits were most of an event's
// time); any other event in a transaction of its own, between the runs, so that the batch keeps
// its order. An event whose processing fails (its order not known yet, say) is retried after the
// lease, and refused after 5 attempts (plaudit.claim_connection_events). One batch at a time.
import { asWorker, inWorkerTransaction } from '../../core/db/roles.ts';
import {
  applyActions,
  applyOrderEvents,
  type OrderEventsEntry,
  orderEventsEntry,
} from '../../core/connections/apply.ts';
import { type Action, NORMALIZERS, Refusal } from '../../core/connections/normalize/index.ts';
import type { Platform } from '../../core/connections/platforms.ts';
import { loadMediaConfig } from '../../core/media/config.ts';
import { mediaStorage } from '../../core/media/storage.ts';
import { type LaneContext, orgIdsLiteral } from './lane.ts';

/** Under 64, the subtransactions PostgreSQL keeps track of cheaply in one transaction (one an event). */
const BATCH = 50;
/** Long enough for a batch; a failed event comes back after it. */
const LEASE_SECONDS = 30;

interface EventRow {
  id: string;
  org_id: string;
  connection_id: string;
  platform: Platform;
  topic: string;
  payload: unknown;
  received_at: Date;
  settings: Record<string, string>;
}

export class ConnectionEventLane {
  #ctx: LaneContext;
  #wanted = true;
  /** The batch under way, if any: drain() and stop() wait for it. */
  running: Promise<void> | null = null;

  constructor(ctx: LaneContext) {
    this.#ctx = ctx;
  }

  want(): void {
    this.#wanted = true;
  }

  /** Claims a batch when one is wanted and none is under way, and starts it; answers how many. */
  async claim(): Promise<number> {
    if (!this.#wanted || this.running) return 0;
    this.#wanted = false;
    const { sql, config } = this.#ctx;
    const rows = await asWorker(sql, (tx) =>
      tx<EventRow[]>`
        select id::text, org_id, connection_id, platform, topic, payload, received_at, settings
          from plaudit.claim_connection_events(${BATCH}, ${LEASE_SECONDS}, ${orgIdsLiteral(config.orgIds)}::uuid[])`);
    if (rows.length === 0) return 0;
    this.#wanted = true; // there may be more
    this.running = this.#process(rows).finally(() => {
      this.running = null;
    });
    this.#ctx.track(this.running);
    return rows.length;
  }

  async #process(rows: EventRow[]): Promise<void> {
    let run: OrderEventsEntry[] = [];
    for (const row of rows) {
      if (this.#ctx.stopping()) return;
      const actions = this.#read(row);
      if (!actions) continue;
      const entry = orderEventsEntry(row, actions);
      if (entry) {
        run.push(entry);
        continue;
      }
      await this.#applyRun(run);
      run = [];
      if (this.#ctx.stopping()) return;
      await this.#one(row, actions as Action[]);
    }
    if (!this.#ctx.stopping()) await this.#applyRun(run);
  }

  /** What the event means, its refusal's reason, or null when reading it failed otherwise (retried). */
  #read(row: EventRow): Action[] | { refused: string } | null {
    try {
      return NORMALIZERS[row.platform](row.payload, {
        topic: row.topic,
        receivedAt: new Date(row.received_at).toISOString(),
        settings: row.settings ?? {},
      });
    } catch (err) {
      if (err instanceof Refusal) return { refused: err.message };
      this.#notProcessed(row.id, err);
      return null;
    }
  }

  /** A run of order events in one call; those that fail are retried after the lease. */
  async #applyRun(run: OrderEventsEntry[]): Promise<void> {
    if (run.length === 0) return;
    const { sql, config } = this.#ctx;
    try {
      const failed = await asWorker(sql, (tx) => applyOrderEvents(tx, run, config.publicUrl));
      for (const f of failed) this.#notProcessed(f.event_id, new Error(f.error));
    } catch (err) {
      for (const e of run) this.#notProcessed(e.id, err);
    }
  }

  async #one(row: EventRow, actions: Action[]): Promise<void> {
    const { sql, config } = this.#ctx;
    const files: string[] = [];
    try {
      await inWorkerTransaction(sql, async (tx) => {
        const outcome = await applyActions(tx, row, actions, config.publicUrl, files);
        await tx`select plaudit.finish_connection_event(${row.id}, ${outcome})`;
      });
    } catch (err) {
      this.#notProcessed(row.id, err);
      return;
    }
    if (files.length) {
      const storage = mediaStorage(loadMediaConfig(config.publicUrl));
      await Promise.allSettled(files.map((key) => storage.delete(key)));
    }
  }

  /** Retried after the lease (plaudit.claim_connection_events gives up after 5 attempts). */
  #notProcessed(id: string, err: unknown): void {
    this.#ctx.log({ level: 'warn', msg: 'connection event not processed', event: id, error: (err as Error).message });
  }
}
