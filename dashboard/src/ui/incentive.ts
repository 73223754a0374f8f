// Incentives as the dashboard shows and edits them: the types' words, and the draft (type and
// description as typed) that becomes the API's `incentive`. Pure, so that Node tests it.
import type { Schemas } from '../api.ts';

export type Incentive = NonNullable<Schemas['Incentive']>;
export type IncentiveType = Incentive['type'];

/** Each type, in the order the select offers them, with what a reviewer is told they receive. */
export const INCENTIVE_TYPES: readonly (readonly [IncentiveType, string])[] = [
  ['discount', 'A discount'],
  ['gift', 'A gift'],
  ['points', 'Loyalty points'],
  ['free_product', 'A free product'],
  ['sweepstake', 'An entry to a prize draw'],
  ['other', 'Something else'],
];

/** The incentive in words: "A discount: 10% off your next order". */
export function incentiveWords(i: Incentive): string {
  const type = INCENTIVE_TYPES.find(([t]) => t === i.type)?.[1] ?? i.type;
  return `${type}: ${i.description}`;
}

/** As typed: no type means no incentive. */
export interface IncentiveDraft {
  type: IncentiveType | '';
  description: string;
}

export const draftOfIncentive = (i: Incentive | null | undefined): IncentiveDraft => ({
  type: i?.type ?? '',
  description: i?.description ?? '',
});

/** What the API takes: null without a type; the description as typed (the API trims and checks it). */
export const incentiveOf = (d: IncentiveDraft): Incentive | null =>
  d.type === '' ? null : { type: d.type, description: d.description };
