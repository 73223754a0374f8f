// How far behind the primary a hot standby is, in milliseconds, measured by WAL position rather
// than by pg_last_xact_replay_timestamp(): that timestamp is the last replayed transaction's
// commit time, so on an idle primary a fully caught-up standby would look older and older. Here
// the primary's WAL position is sampled on every check; a standby that has replayed up to the
// position the primary had at time t holds everything committed by t, so its lag is at most
// now − t for the newest such sample, and 0 once it has replayed the newest one. A paused replay
// lags by this measure as soon as the primary writes anything past it.

/** A WAL position (`16/B374D848`) as a number that compares. */
export function parseLsn(text: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!m) throw new Error('not a WAL position');
  return (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`);
}

/** Whether `text` is a WAL position as PostgreSQL writes it. */
export function isLsn(text: string): boolean {
  return /^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/.test(text);
}

/** The primary's WAL positions over the last while, oldest first: what a standby's lag is read against. */
export class PrimaryPositions {
  #samples: { lsn: bigint; at: number }[] = [];

  /** Samples older than `keepMs` are dropped (the newest is always kept): lag beyond it is only "more than". */
  constructor(private readonly keepMs: number) {}

  record(lsn: bigint, at: number): void {
    const last = this.#samples.at(-1);
    // The primary still at the same position: a standby that has it is caught up as of now.
    if (last && last.lsn === lsn) last.at = at;
    else this.#samples.push({ lsn, at });
    const cutoff = at - this.keepMs;
    while (this.#samples.length > 1 && this.#samples[0].at < cutoff) this.#samples.shift();
  }

  /**
   * The lag of a standby that has replayed up to `replayed`, at time `now`: 0 when it holds the
   * newest sample, else the age of the newest sample it holds (an upper bound), else the age of
   * the oldest sample kept (a lower bound, already past keepMs); null before any sample.
   */
  lagMs(replayed: bigint, now: number): number | null {
    const samples = this.#samples;
    if (samples.length === 0) return null;
    if (replayed >= samples[samples.length - 1].lsn) return 0;
    for (let i = samples.length - 2; i >= 0; i--) {
      if (samples[i].lsn <= replayed) return Math.max(0, now - samples[i].at);
    }
    return Math.max(0, now - samples[0].at);
  }
}
