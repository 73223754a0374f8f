// The statistics' period, kept in the URL (`period`, or `custom` with its dates), as the API's UTC days.

export const PERIODS: [string, string][] = [
  ['7', 'Last 7 days'],
  ['30', 'Last 30 days'],
  ['90', 'Last 90 days'],
  ['365', 'Last 12 months'],
  ['custom', 'Custom dates'],
];

/** A time (ms) as its UTC day, `2026-01-31`. */
export const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The period of the URL as the API's UTC days. */
export function period(
  query: URLSearchParams,
  now = Date.now(),
): { choice: string; startDate: string; endDate: string } {
  const choice = query.get('period') ?? '30';
  const today = utcDay(now);
  if (choice === 'custom') {
    return {
      choice,
      startDate: query.get('startDate') || utcDay(now - 29 * 86_400_000),
      endDate: query.get('endDate') || today,
    };
  }
  const days = PERIODS.some(([v]) => v === choice) ? Number(choice) : 30;
  return { choice: String(days), startDate: utcDay(now - (days - 1) * 86_400_000), endDate: today };
}
