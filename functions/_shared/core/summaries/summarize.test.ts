import { describe, expect, it } from 'vitest';
import { checksOut } from './phrasing.ts';
import { sentenceShares, summarize, type SummaryInput } from './summarize.ts';
import { lexiconScore, sentences, terms, topical } from './words.ts';

const review = (id: string, rating: number, content: string): SummaryInput => ({
  id,
  rating,
  title: null,
  content,
  language: 'en',
});

describe('words', () => {
  it('splits sentences at end punctuation and line breaks, without fragments', () => {
    expect(sentences('The zipper broke. ok!\nThe fabric is soft and warm?').map((s) => s.text)).toEqual([
      'The zipper broke.',
      'The fabric is soft and warm?',
    ]);
  });

  it('normalizes plurals and possessives, and keeps English and German function words out of topics', () => {
    expect(terms("The zippers' teeth and the dress's belts")).toEqual([
      'the',
      'zipper',
      'teeth',
      'and',
      'the',
      'dress',
      'belt',
    ]);
    expect(['the', 'und', 'nicht', 'product', 'love', 'zipper'].map(topical)).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it('turns praise around after a negation', () => {
    expect(lexiconScore(terms('soft and comfortable'))).toBe(2);
    expect(lexiconScore(terms('not comfortable at all'))).toBe(-1);
    expect(lexiconScore(terms('nicht bequem'))).toBe(-1);
  });
});

describe('summarize', () => {
  it('answers nothing below 5 reviews', () => {
    expect(summarize([1, 2, 3, 4].map((i) => review(String(i), 5, 'The zipper is smooth and strong.')))).toBeNull();
  });

  it('shares the sentences between stances as the ratings are, complaints first on a near tie', () => {
    expect(sentenceShares([5, 5, 5, 5, 5, 5, 5, 1, 1, 1], 6)).toEqual({ negative: 2, mixed: 0, positive: 4 });
    expect(sentenceShares([5, 5, 5, 5, 5, 5, 5, 5, 5, 1], 6)).toEqual({ negative: 1, mixed: 0, positive: 5 });
    expect(sentenceShares([5, 5, 3, 3, 1], 5)).toEqual({ negative: 1, mixed: 2, positive: 2 });
  });

  it('cites every review of a topic and stance, its own first, and keeps a business with complaints from all praise', () => {
    const reviews = [
      ...[1, 2, 3, 4, 5, 6, 7].map((i) => review(`p${i}`, 5, `The zipper works great, review ${i}.`)),
      ...[1, 2, 3].map((i) => review(`n${i}`, 1, `The zipper broke badly after a week, sadly ${i}.`)),
    ];
    const s = summarize(reviews)!;
    const praise = s.sentences.find((x) => x.sentiment === 'positive')!;
    const complaint = s.sentences.find((x) => x.sentiment === 'negative')!;
    expect(praise.topic).toBe('zipper');
    expect(new Set(praise.review_ids)).toEqual(new Set(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']));
    expect(praise.count).toBe(7);
    expect(complaint.review_ids.sort()).toEqual(['n1', 'n2', 'n3']);
    expect(s.evidence.zipper.ids).toHaveLength(10);
  });

  it('checks a phrased sentence: its topic named, its citations of that topic and stance', () => {
    const s = summarize([1, 2, 3, 4, 5].map((i) => review(String(i), 5, `The zipper works great, review ${i}.`)))!;
    const original = s.sentences[0];
    expect(checksOut(s, original, { index: 0, text: 'Shoppers like the zipper.', review_ids: ['1', '2'] })).toBe(true);
    expect(checksOut(s, original, { index: 0, text: 'Shoppers like it.', review_ids: ['1'] })).toBe(false);
    expect(checksOut(s, original, { index: 0, text: 'The zipper is great.', review_ids: ['9'] })).toBe(false);
  });
});
