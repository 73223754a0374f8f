import { describe, expect, it } from 'vitest';
import { MODE_LABEL, MODES, questions, TYPES } from './words.ts';

describe('review forms in words', () => {
  it('name every verification mode and answer kind once', () => {
    expect(MODES.map((m) => m.value).sort()).toEqual(['email', 'manual', 'none', 'purchase_proof']);
    expect(MODE_LABEL.purchase_proof).toBe(MODES.find((m) => m.value === 'purchase_proof')!.label);
    expect(TYPES.map(([type]) => type).sort()).toEqual([
      'boolean',
      'number',
      'rating',
      'scale',
      'select',
      'text',
      'textarea',
    ]);
  });

  it('count own questions', () => {
    expect([0, 1, 2].map(questions)).toEqual(['No own questions', '1 own question', '2 own questions']);
  });
});
