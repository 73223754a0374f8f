import { describe, expect, it } from 'vitest';
import { ageLabel, reasonLabel } from './words.ts';

describe('reasonLabel', () => {
  it('names each reason in words, and an unknown one as it is', () => {
    expect(reasonLabel('personal_data')).toBe('Personal data');
    expect(reasonLabel('conflict_of_interest')).toBe('Conflict of interest');
    expect(reasonLabel('newer_reason')).toBe('newer_reason');
  });
});

describe('ageLabel', () => {
  const at = Date.parse('2026-03-10T12:00:00Z');
  it('says how long a report has waited in the largest whole unit, up to two days in hours', () => {
    expect(ageLabel('2026-03-10T12:00:30Z', at)).toBe('0 minutes');
    expect(ageLabel('2026-03-10T11:59:00Z', at)).toBe('1 minute');
    expect(ageLabel('2026-03-10T11:01:00Z', at)).toBe('59 minutes');
    expect(ageLabel('2026-03-10T11:00:00Z', at)).toBe('1 hour');
    expect(ageLabel('2026-03-08T12:01:00Z', at)).toBe('47 hours');
    expect(ageLabel('2026-03-08T12:00:00Z', at)).toBe('2 days');
  });
});
