// Exports and imports: the database generates the files and applies the imported rows
// (plaudit.run_exports, plaudit.run_imports, a time budget per call each); the worker only calls
// them, again while work remains, one run at a time, beside the sends. A worker pinned to some
// organizations applies only their imports.
import { asWorker } from '../../core/db/roles.ts';
import { type LaneContext, orgIdsLiteral } from './lane.ts';

export class ExportLane {
  #ctx: LaneContext;
  #wanted = true;
  /** The run under way, if any: stop() and drain() wait for it. */
  running: Promise<void> | null = null;

  constructor(ctx: LaneContext) {
    this.#ctx = ctx;
  }

  /** There may be exports to generate: the next kick runs. */
  want(): void {
    this.#wanted = true;
  }

  /** Starts a run when one is wanted and none is under way; does not wait for it. */
  kick(): void {
    if (!this.#wanted || this.running) return;
    this.#wanted = false;
    const { sql, config, log, stats } = this.#ctx;
    const budget = config.exportBudgetMs;
    this.running = (async () => {
      try {
        for (;;) {
          const [{ remaining }] = await asWorker(
            sql,
            (tx) =>
              tx<{ remaining: number }[]>`
                select plaudit.run_exports(${budget})
                     + plaudit.run_imports(${budget}, 2000, ${orgIdsLiteral(config.orgIds)}::uuid[]) as remaining`,
          );
          stats.exportKicks += 1;
          if (!remaining || this.#ctx.stopping()) break;
        }
      } catch (err) {
        if ((err as { code?: string }).code !== '42883') { // run_exports or run_imports not installed
          log({ level: 'error', msg: 'export generation failed', error: (err as Error).message });
        }
      } finally {
        this.running = null;
      }
    })();
  }
}
