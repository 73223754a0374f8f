// The summaries' quality, measured on real public reviews (tests/fixtures/reviews/, CC0): the
// whole dataset as one business, and each product of 10 reviews or more. Every citation supports
// its sentence (the review names the topic; its rating agrees with the sentence's stance); the
// negative reviews are covered; the share of negative against positive sentences stays within 15
// points of the share of 1–2 against 4–5 star reviews. The figures go to docs/summaries.md.
import { describe, expect, it } from 'vitest';
import { mentions, summarize, type SummaryInput } from '../../../functions/_shared/core/summaries/summarize.ts';
import { terms } from '../../../functions/_shared/core/summaries/words.ts';
import { datasetReviews } from '../../helpers/summaries.ts';

const inputs: SummaryInput[] = datasetReviews().map((r) => ({
  id: String(r.row),
  rating: r.rating,
  title: r.title,
  content: r.text,
  language: 'en',
}));

interface Figures {
  citations: number;
  supported: number;
  negatives: number;
  negativesCovered: number;
  negativesInTopics: number;
  negativeGap: number;
  positiveGap: number;
}

function measure(reviews: SummaryInput[]): Figures {
  const summary = summarize(reviews)!;
  const byId = new Map(reviews.map((r) => [r.id, r]));
  let citations = 0;
  let supported = 0;
  for (const s of summary.sentences) {
    for (const id of s.review_ids) {
      const r = byId.get(id)!;
      citations += 1;
      const words = terms(`${r.title ?? ''}\n${r.content}`);
      const names = s.topics.some((t) => mentions(words, t));
      const agrees = s.sentiment === 'positive'
        ? r.rating >= 3
        : s.sentiment === 'negative'
        ? r.rating <= 3
        : r.rating === 3;
      if (names && agrees) supported += 1;
    }
  }
  // Balance: negative against positive sentences, as 1–2 against 4–5 star reviews.
  const low = reviews.filter((r) => r.rating <= 2).length;
  const high = reviews.filter((r) => r.rating >= 4).length;
  const negSentences = summary.sentences.filter((s) => s.sentiment === 'negative').length;
  const posSentences = summary.sentences.filter((s) => s.sentiment === 'positive').length;
  const gap = Math.abs(negSentences / (negSentences + posSentences) - low / (low + high));
  const negatives = reviews.filter((r) => r.rating <= 2);
  const citedNegatively = new Set(
    summary.sentences.filter((s) => s.sentiment === 'negative').flatMap((s) => s.review_ids),
  );
  return {
    citations,
    supported,
    negatives: negatives.length,
    negativesCovered: negatives.filter((r) => citedNegatively.has(r.id)).length,
    negativesInTopics:
      negatives.filter((r) =>
        Object.values(summary.evidence).some((e) => e.sentiments[e.ids.indexOf(r.id)] === 'negative')
      ).length,
    negativeGap: gap,
    positiveGap: gap,
  };
}

const pct = (a: number, b: number) => `${(100 * a / b).toFixed(1)} %`;

describe('summaries of real reviews', () => {
  it('the whole dataset as one business', () => {
    const f = measure(inputs);
    console.log(
      `business: ${inputs.length} reviews; citations supported ${pct(f.supported, f.citations)} of ${f.citations};` +
        ` negative reviews cited by a negative sentence ${pct(f.negativesCovered, f.negatives)} of ${f.negatives},` +
        ` counted in a topic's negatives ${pct(f.negativesInTopics, f.negatives)};` +
        ` balance gaps ${(100 * f.negativeGap).toFixed(1)} / ${(100 * f.positiveGap).toFixed(1)} points`,
    );
    expect(f.supported).toBe(f.citations);
    expect(f.negativeGap).toBeLessThanOrEqual(0.15);
    expect(f.positiveGap).toBeLessThanOrEqual(0.15);
    expect(f.negativesCovered).toBeGreaterThan(0);
    expect(f.negativesInTopics / f.negatives).toBeGreaterThanOrEqual(0.6);
  });

  it('each product of 10 reviews or more', () => {
    const products = new Map<string, ReturnType<typeof datasetReviews>>();
    for (const r of datasetReviews()) products.set(r.clothing_id, [...(products.get(r.clothing_id) ?? []), r]);
    const all: Figures[] = [];
    for (const [, reviews] of products) {
      if (reviews.length < 10) continue;
      const f = measure(inputs.filter((i) => reviews.some((r) => String(r.row) === i.id)));
      all.push(f);
      expect(f.supported).toBe(f.citations);
      expect(f.negativeGap).toBeLessThanOrEqual(0.15);
      expect(f.positiveGap).toBeLessThanOrEqual(0.15);
    }
    const sum = (k: keyof Figures) => all.reduce((a, f) => a + f[k], 0);
    console.log(
      `products: ${all.length}; citations supported ${pct(sum('supported'), sum('citations'))} of ${
        sum('citations')
      };` +
        ` negative reviews cited by a negative sentence ${pct(sum('negativesCovered'), sum('negatives'))} of ${
          sum('negatives')
        }, counted in a topic's negatives ${pct(sum('negativesInTopics'), sum('negatives'))};` +
        ` largest balance gaps ${(100 * Math.max(...all.map((f) => f.negativeGap))).toFixed(1)} / ${
          (100 * Math.max(...all.map((f) => f.positiveGap))).toFixed(1)
        } points`,
    );
    expect(all.length).toBeGreaterThanOrEqual(8);
  });
});
