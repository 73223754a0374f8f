// Shop connections' inbound events: the API stored them (signed, once per delivery id); this lane
// claims them oldest first with a lease, reads each with its platform's normalizer
// (core/connections/normalize) and applies what it means through the database's functions
// (core/connections/apply.ts), each event in a transaction of its own that also records its
// outcome: accepted, ignored (a topic not understood) or refused (a payload it cannot read). An
// event whose processing fails (its order not known yet, say) is retried after the lease, and
// refused after 5 attempts (plaudit.claim_connection_events). One batch at a time, in order.
import { asWorker, inWorkerTransaction } from '../../core/db/roles.ts';
import { applyActions } from '../../core/connections/apply.ts';
import { NORMALIZERS, Refusal } from '../../core/connections/normalize/index.ts';
import type { Platform } from '../../core/connections/platforms.ts';
import { loadMediaConfig } from '../../core/media/config.ts';
import { mediaStorage } from '../../core/media/storage.ts';
import { type LaneContext, orgIdsLiteral } from './lane.ts';

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
    for (const row of rows) {
      if (this.#ctx.stopping()) return;
      await this.#one(row);
    }
  }

  async #one(row: EventRow): Promise<void> {
    const { sql, config, log } = this.#ctx;
    const files: string[] = [];
    try {
      let actions;
      try {
        actions = NORMALIZERS[row.platform](row.payload, {
          topic: row.topic,
          receivedAt: new Date(row.received_at).toISOString(),
          settings: row.settings ?? {},
        });
      } catch (err) {
        if (!(err instanceof Refusal)) throw err;
        await asWorker(
          sql,
          (tx) => tx`select plaudit.finish_connection_event(${row.id}, ${'refused: ' + err.message})`,
        );
        return;
      }
      await inWorkerTransaction(sql, async (tx) => {
        const outcome = await applyActions(tx, row, actions, config.publicUrl, files);
        await tx`select plaudit.finish_connection_event(${row.id}, ${outcome})`;
      });
    } catch (err) {
      // Retried after the lease (plaudit.claim_connection_events gives up after 5 attempts).
      log({ level: 'warn', msg: 'connection event not processed', event: row.id, error: (err as Error).message });
      return;
    }
    if (files.length) {
      const storage = mediaStorage(loadMediaConfig(config.publicUrl));
      await Promise.allSettled(files.map((key) => storage.delete(key)));
    }
  }
}
