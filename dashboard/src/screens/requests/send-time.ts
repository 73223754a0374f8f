// When to send a review request: the page's datetime-local field, and a CSV file's send_at cell,
// read as the person's local time unless a zone is written. `now` is passed in so that tests fix it.

/** How far ahead a request may be scheduled (the API's limit). */
export const MAX_SEND_AHEAD_DAYS = 90;

/** A datetime-local value (the browser's local time) as an ISO instant; empty or invalid: none. */
export function toIso(local: string): string | undefined {
  if (!local) return undefined;
  const t = new Date(local);
  return Number.isNaN(t.getTime()) ? undefined : t.toISOString();
}

/** The local time now as a datetime-local value (to the minute), the earliest a field may choose. */
export function localNow(now = new Date()): string {
  const d = new Date(now);
  d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
  return d.toISOString().slice(0, 16);
}

/** A CSV cell's send time: `2026-12-01 09:00` (local), or ISO 8601 with a zone; or why it is refused. */
export function parseSendAt(value: string, now = Date.now()): { iso?: string; problem?: string } {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
  let t: Date;
  if (m) {
    // No zone: the person's local time.
    t = new Date(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
    t = new Date(value);
  } else {
    return { problem: `Send at "${value}" is not a date and time such as 2026-12-01 09:00.` };
  }
  if (Number.isNaN(t.getTime())) return { problem: `Send at "${value}" is not a real date.` };
  if (t.getTime() > now + MAX_SEND_AHEAD_DAYS * 86_400_000) {
    return { problem: `Send at is more than ${MAX_SEND_AHEAD_DAYS} days ahead.` };
  }
  return { iso: t.toISOString() };
}
