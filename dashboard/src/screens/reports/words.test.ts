import { describe, expect, it } from 'vitest';
import { reasonLabel } from './words.ts';

describe('reasonLabel', () => {
  it('names each reason in words, and an unknown one as it is', () => {
    expect(reasonLabel('personal_data')).toBe('Personal data');
    expect(reasonLabel('conflict_of_interest')).toBe('Conflict of interest');
    expect(reasonLabel('newer_reason')).toBe('newer_reason');
  });
});
