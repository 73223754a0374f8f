// Review bombing: once a cycle (at most every BURST_EVERY_MS), the database looks at the hour
// before now for bursts of one- and two-star reviews (plaudit.detect_review_bursts in
// supabase/schemas/review_holds.sql). What a burst does, its hold, trail entry, event and mails,
// is written in the same transaction, so the lane only rings and logs. The clock is a dependency:
// tests give it a time of their own.
import { asWorker } from '../../core/db/roles.ts';
import { type LaneContext, orgIdsLiteral } from './lane.ts';

export const BURST_EVERY_MS = 30_000;

export class BurstLane {
  #ctx: LaneContext;
  #now: () => Date;
  #last = 0;

  constructor(ctx: LaneContext, now: () => Date = () => new Date()) {
    this.#ctx = ctx;
    this.#now = now;
  }

  /** Looks once unless it looked less than BURST_EVERY_MS ago (`force`: now); answers the holds opened. */
  async run({ force = false } = {}): Promise<number> {
    const now = this.#now();
    if (!force && now.getTime() - this.#last < BURST_EVERY_MS) return 0;
    this.#last = now.getTime();
    const { sql, config, log } = this.#ctx;
    try {
      const holds = await asWorker(sql, (tx) =>
        tx<{ id: string; org_id: string; subject: string }[]>`
          select id, org_id, subject
            from plaudit.detect_review_bursts(${now.toISOString()}::timestamptz, ${
          orgIdsLiteral(config.orgIds)
        }::uuid[])`);
      for (const h of holds) {
        log({ level: 'warn', msg: 'review burst held', hold_id: h.id, org_id: h.org_id, subject: h.subject });
      }
      return holds.length;
    } catch (err) {
      log({ level: 'error', msg: 'burst detection failed', error: (err as Error).message });
      return 0;
    }
  }
}
