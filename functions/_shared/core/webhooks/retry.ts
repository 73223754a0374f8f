// When to try a failed delivery again: the Standard Webhooks schedule. The first attempt is
// immediate; after the n-th failed attempt the next one waits SCHEDULE_MS[n] (±20 % jitter, so
// that a recovering receiver is not hit by every retry at once). After the tenth attempt the
// delivery fails for good (about 3 days and 3 hours after the event).
const S = 1000;
const M = 60 * S;
const H = 60 * M;

export const WEBHOOK_SCHEDULE_MS = [0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H];

/** E-mail: a shorter schedule, 6 attempts over about 3 hours. */
export const EMAIL_SCHEDULE_MS = [0, 30 * S, 5 * M, 30 * M, 1 * H, 2 * H];

export const MAX_RETRY_AFTER_MS = 24 * H;

export interface RetryOptions {
  /** Multiplies the schedule (not Retry-After); tests shrink it. */
  scale?: number;
  /** A value in [0, 1); Math.random by default. */
  random?: () => number;
  /** The receiver's Retry-After, in ms, if any: the wait is at least this long. */
  retryAfterMs?: number | null;
}

/**
 * Milliseconds to wait after the attempt at `step` (1 = the first attempt) failed, or null when
 * the schedule is exhausted.
 */
export function nextRetryDelay(schedule: number[], step: number, opts: RetryOptions = {}): number | null {
  if (step >= schedule.length) return null;
  const { scale = 1, random = Math.random, retryAfterMs = null } = opts;
  const base = schedule[Math.max(step, 1)] * scale;
  const jittered = Math.round(base * (0.8 + 0.4 * random()));
  const floor = retryAfterMs === null ? 0 : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return Math.max(jittered, floor);
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(at - now, 0);
}
