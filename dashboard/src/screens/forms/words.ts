// Review forms in the words of a shop owner: how reviews are verified, the kinds of answers, and
// how many own questions a form asks.
import type { Schemas } from '../../api.ts';

type Form = Schemas['ReviewForm'];
type Mode = Form['verification_mode'];
type FieldType = Schemas['CustomFieldDefinition']['type'];

/** Each verification mode in the words of a shop owner. */
export const MODES: { value: Mode; label: string; text: string }[] = [
  {
    value: 'email',
    label: 'Confirm by e-mail',
    text: 'The reviewer gets an e-mail with a link; the review goes public as verified once they click it.',
  },
  {
    value: 'purchase_proof',
    label: 'Order number',
    text:
      'The reviewer gives their order number; a match with the orders you loaded verifies the review, otherwise it waits for your approval.',
  },
  {
    value: 'manual',
    label: 'You approve each review',
    text: 'Every review waits in your inbox until you approve it; nothing is public before.',
  },
  {
    value: 'none',
    label: 'No verification',
    text: 'Reviews go public at once, marked as not verified.',
  },
];
export const MODE_LABEL = Object.fromEntries(MODES.map((m) => [m.value, m.label])) as Record<Mode, string>;

export const TYPES: [FieldType, string][] = [
  ['text', 'Short text'],
  ['textarea', 'Long text'],
  ['number', 'Number'],
  ['select', 'Choice from a list'],
  ['boolean', 'Yes or no (a checkbox)'],
  ['scale', 'A scale, such as fit (shown in public)'],
  ['rating', 'Stars for one aspect (shown in public)'],
];

/** How many own questions a form asks, in words. */
export const questions = (
  n: number,
) => (n === 0 ? 'No own questions' : n === 1 ? '1 own question' : `${n} own questions`);
