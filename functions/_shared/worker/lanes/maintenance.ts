// Scheduled maintenance where pg_cron is absent (pg_cron runs the same functions where loaded):
// outbox and delivery housekeeping, review-request reminders, expired idempotency keys. At most
// once a minute.
import { asWorker } from '../../core/db/roles.ts';
import type { LaneContext } from './lane.ts';

const EVERY_MS = 60_000;

export class MaintenanceLane {
  #ctx: LaneContext;
  #last = 0;
  #hasCron: boolean | null = null;

  constructor(ctx: LaneContext) {
    this.#ctx = ctx;
  }

  async run(): Promise<void> {
    if (Date.now() - this.#last < EVERY_MS) return;
    this.#last = Date.now();
    const { sql, log } = this.#ctx;
    try {
      if (this.#hasCron === null) {
        const [{ cron }] = await sql<{ cron: boolean }[]>`
          select exists (select from pg_extension where extname = 'pg_cron') as cron`;
        this.#hasCron = cron;
      }
      if (this.#hasCron) return;
      await asWorker(sql, (tx) => tx`select plaudit.run_maintenance(), plaudit.run_delivery_maintenance()`);
    } catch (err) {
      log({ level: 'error', msg: 'maintenance failed', error: (err as Error).message });
    }
    if (this.#hasCron) return;
    try {
      // Review-request reminders and expired idempotency keys.
      await asWorker(sql, (tx) => tx`select plaudit.run_review_request_maintenance()`);
    } catch (err) {
      log({ level: 'error', msg: 'review request maintenance failed', error: (err as Error).message });
    }
  }
}
