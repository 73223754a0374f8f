import { describe, expect, it } from 'vitest';
import { excerpt } from './review-signals.ts';

describe('excerpt', () => {
  it('quotes a short text whole, and cuts a long one at a word with an ellipsis', () => {
    expect(excerpt('  Fruity and bright.  ')).toBe('Fruity and bright.');
    const long = 'word '.repeat(100);
    const cut = excerpt(long);
    expect(cut.endsWith('word…')).toBe(true);
    expect([...cut].length).toBeLessThanOrEqual(301);
    // One long word is cut where the limit falls; an emoji is never split.
    expect(excerpt('👍'.repeat(400))).toBe(`${'👍'.repeat(300)}…`);
  });
});
