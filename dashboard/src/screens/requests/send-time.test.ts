import { describe, expect, it } from 'vitest';
import { localNow, parseSendAt, toIso } from './send-time.ts';

// A fixed "now": the checks of how far ahead never depend on when the test runs.
const NOW = new Date(2026, 10, 1, 12, 0).getTime();

describe('parseSendAt', () => {
  it('reads a day and time without a zone as local time', () => {
    expect(parseSendAt('2026-12-01 09:00', NOW)).toEqual({ iso: new Date(2026, 11, 1, 9, 0).toISOString() });
    expect(parseSendAt('2026-12-01T09:00:30', NOW)).toEqual({ iso: new Date(2026, 11, 1, 9, 0, 30).toISOString() });
    expect(parseSendAt('2026-12-01', NOW)).toEqual({ iso: new Date(2026, 11, 1).toISOString() });
  });

  it('reads ISO 8601 with a zone as written', () => {
    expect(parseSendAt('2026-12-01T09:00:00Z', NOW)).toEqual({ iso: '2026-12-01T09:00:00.000Z' });
    expect(parseSendAt('2026-12-01T09:00+02:00', NOW)).toEqual({ iso: '2026-12-01T07:00:00.000Z' });
  });

  it('says why a value is refused', () => {
    expect(parseSendAt('tomorrow', NOW)).toEqual({
      problem: 'Send at "tomorrow" is not a date and time such as 2026-12-01 09:00.',
    });
    expect(parseSendAt('2026-13-45T09:00Z', NOW)).toEqual({
      problem: 'Send at "2026-13-45T09:00Z" is not a real date.',
    });
    expect(parseSendAt('2027-03-01 09:00', NOW)).toEqual({ problem: 'Send at is more than 90 days ahead.' });
  });

  it('takes a time exactly 90 days ahead', () => {
    const limit = new Date(NOW + 90 * 86_400_000);
    const local = `${limit.getFullYear()}-${String(limit.getMonth() + 1).padStart(2, '0')}-${
      String(limit.getDate()).padStart(2, '0')
    } ${String(limit.getHours()).padStart(2, '0')}:${String(limit.getMinutes()).padStart(2, '0')}`;
    expect(parseSendAt(local, NOW).iso).toBe(limit.toISOString());
  });
});

describe('the page field', () => {
  it('turns a datetime-local value into an instant, and nothing into nothing', () => {
    expect(toIso('2026-12-01T09:00')).toBe(new Date(2026, 11, 1, 9, 0).toISOString());
    expect(toIso('')).toBeUndefined();
    expect(toIso('not a time')).toBeUndefined();
  });

  it('writes now as the local datetime-local value, to the minute', () => {
    expect(localNow(new Date(2026, 10, 1, 12, 34, 56))).toBe('2026-11-01T12:34');
  });
});
