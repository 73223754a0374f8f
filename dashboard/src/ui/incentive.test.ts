import { describe, expect, it } from 'vitest';
import { draftOfIncentive, incentiveOf, incentiveWords } from './incentive.ts';
import { sourceWords } from './words.ts';

describe('incentives in the dashboard', () => {
  it('round-trips a draft, and no type is no incentive', () => {
    const i = { type: 'discount', description: '10% off' } as const;
    expect(incentiveOf(draftOfIncentive(i))).toEqual(i);
    expect(incentiveOf(draftOfIncentive(null))).toBeNull();
    expect(incentiveOf({ type: '', description: 'left over' })).toBeNull();
  });

  it('says an incentive in words', () => {
    expect(incentiveWords({ type: 'sweepstake', description: 'A trip to Bergen' }))
      .toBe('An entry to a prize draw: A trip to Bergen');
  });

  it('says where a review came from', () => {
    expect(sourceWords('import', 'judgeme')).toBe('Imported from Judge.me');
    expect(sourceWords('invitation', null)).toBe("Written through a review request's page");
    expect(sourceWords('form', null)).toBe('Sent through a form or the API');
  });
});
