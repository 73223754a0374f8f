// Review summaries (docs/summaries.md): about once a minute, the subjects whose summary is due
// (plaudit.review_summaries_due: 5 published reviews or more, none yet or 10 % more since) are
// read, summarized here without any outside service (core/summaries/), phrased by the operator's
// chat endpoint when SUMMARY_LLM_URL is set, and saved (plaudit.save_review_summary checks the
// citations and writes the trail). One run at a time, beside the sends; the clock is injected.
import { asWorker } from '../../core/db/roles.ts';
import { phraseSummary } from '../../core/summaries/phrasing.ts';
import { summarize, type SummaryInput } from '../../core/summaries/summarize.ts';
import { type LaneContext, orgIdsLiteral } from './lane.ts';

/** How often due summaries are looked for. */
export const SUMMARY_EVERY_MS = 60_000;
/** Subjects summarized per run at most. */
const BATCH = 20;

interface DueRow {
  org_id: string;
  product_id: string | null;
  group_key: string | null;
  published: string;
}

export class SummaryLane {
  #ctx: LaneContext;
  #now: () => number;
  #last = -Infinity;
  /** The run under way, if any: stop() and drain() wait for it. */
  running: Promise<void> | null = null;

  constructor(ctx: LaneContext, now: () => number = Date.now) {
    this.#ctx = ctx;
    this.#now = now;
  }

  /** Starts a run when a minute has passed since the last and none is under way; does not wait for it. */
  kick(): void {
    if (this.running || this.#now() - this.#last < SUMMARY_EVERY_MS) return;
    this.#last = this.#now();
    this.running = this.#run().finally(() => {
      this.running = null;
    });
  }

  async #run(): Promise<void> {
    const { sql, config, log } = this.#ctx;
    try {
      const due = await asWorker(sql, (tx) =>
        tx<DueRow[]>`
          select * from plaudit.review_summaries_due(${BATCH}, ${orgIdsLiteral(config.orgIds)}::uuid[])`);
      for (const subject of due) {
        if (this.#ctx.stopping()) break;
        await this.#summarize(subject);
      }
    } catch (err) {
      log({ level: 'error', msg: 'review summaries failed', error: (err as Error).message });
    }
  }

  async #summarize(s: DueRow): Promise<void> {
    const { sql, config, log } = this.#ctx;
    const started = performance.now();
    const reviews = await asWorker(sql, (tx) =>
      tx<SummaryInput[]>`
        select id, rating, title, content, language
          from plaudit.review_summary_inputs(${s.org_id}, ${s.product_id}, ${s.group_key})`);
    const summary = summarize(reviews);
    if (!summary) return;
    let sentences = summary.sentences;
    if (config.summaryLlm) {
      const phrased = await phraseSummary(summary, reviews, config.summaryLlm);
      if (phrased.outcome === 'phrased') {
        sentences = phrased.sentences;
        if (phrased.dropped > 0) {
          log({ level: 'warn', msg: 'phrased summary sentences dropped', dropped: phrased.dropped });
        }
      } else {
        log({ level: 'warn', msg: 'summary phrasing unavailable', error: phrased.error });
      }
    }
    await asWorker(sql, (tx) =>
      tx`select plaudit.save_review_summary(
           ${s.org_id}, ${s.product_id}, ${s.group_key}, ${summary.language},
           ${tx.json(sentences.map(({ text, sentiment, review_ids }) => ({ text, sentiment, review_ids })))},
           ${tx.json(summary.evidence)}, ${reviews.map((r) => r.id)}::uuid[], ${Number(s.published)})`);
    log({
      level: 'info',
      msg: 'review summary made',
      org_id: s.org_id,
      product_id: s.product_id,
      reviews: reviews.length,
      sentences: sentences.length,
      ms: Math.round(performance.now() - started),
    });
  }
}
