import { describe, expect, it } from 'vitest';
import { period, utcDay } from './stats-period.ts';

const NOW = Date.parse('2026-03-31T23:30:00Z');
const q = (s: string) => new URLSearchParams(s);

describe('period', () => {
  it('is the last 30 UTC days, today included, when the URL names none', () => {
    expect(period(q(''), NOW)).toEqual({ choice: '30', startDate: '2026-03-02', endDate: '2026-03-31' });
  });

  it('takes a period of the list, and falls back to 30 days for any other', () => {
    expect(period(q('period=7'), NOW)).toEqual({ choice: '7', startDate: '2026-03-25', endDate: '2026-03-31' });
    expect(period(q('period=365'), NOW).startDate).toBe('2025-04-01');
    expect(period(q('period=12'), NOW)).toEqual(period(q(''), NOW));
  });

  it('takes custom dates, each missing one from the default period', () => {
    expect(period(q('period=custom&startDate=2026-01-01&endDate=2026-01-31'), NOW)).toEqual({
      choice: 'custom',
      startDate: '2026-01-01',
      endDate: '2026-01-31',
    });
    expect(period(q('period=custom'), NOW)).toEqual({
      choice: 'custom',
      startDate: '2026-03-02',
      endDate: '2026-03-31',
    });
  });

  it('names a time by its UTC day', () => {
    expect(utcDay(Date.parse('2026-01-31T23:59:59Z'))).toBe('2026-01-31');
  });
});
