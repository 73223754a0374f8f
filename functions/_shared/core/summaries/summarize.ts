// A summary of a business's or a product's published reviews that shows its evidence, made
// without any outside service (docs/summaries.md): the reviews are split into sentences; topics
// are the noun-ish words and two-word phrases many reviews use that reviews in general do not;
// each review's stance on a topic is its rating's (4–5 positive, 1–2 negative), a 3-star review's
// told by a small lexicon; the reviews of one topic and stance make a cluster, whose most typical
// sentence speaks for it and cites every review of the cluster. Sentences are picked so that the
// share of negative and positive ones follows the share of 1–2 and 4–5 star reviews.
import { lexiconScore, type Sentence, sentences, topical } from './words.ts';

export type Sentiment = 'positive' | 'negative' | 'mixed';

export interface SummaryInput {
  id: string;
  rating: number;
  title: string | null;
  content: string;
  language: string | null;
}

export interface SummarySentence {
  text: string;
  sentiment: Sentiment;
  review_ids: string[];
  count: number;
  /** The topic the sentence speaks for (not answered). */
  topic: string;
  /** Every topic it names, its own first: it cites the reviews of each with its stance (not answered). */
  topics: string[];
}

/**
 * Every review of a topic with its stance, in the order of the input: the database counts the
 * topics from it (plaudit.review_summary_topics) and takes a hidden review out of it.
 */
export type TopicEvidence = Record<string, { ids: string[]; sentiments: Sentiment[] }>;

export interface Summary {
  language: string | null;
  review_count: number;
  sentences: SummarySentence[];
  evidence: TopicEvidence;
}

export interface SummaryOptions {
  /** Sentences at most (6). */
  maxSentences?: number;
  /** Topics at most (8). */
  maxTopics?: number;
}

/** Below this many published reviews there is no summary. */
export const MIN_REVIEWS = 5;

interface Parsed {
  review: SummaryInput;
  sentences: Sentence[];
  /** The topic keys the review mentions, each once. */
  keys: Set<string>;
  stance: Sentiment;
}

/** The rating's stance: 4–5 positive, 1–2 negative, 3 as the lexicon says (mixed when it says nothing). */
function stanceOf(rating: number, score: number): Sentiment {
  if (rating >= 4) return 'positive';
  if (rating <= 2) return 'negative';
  return score > 0 ? 'positive' : score < 0 ? 'negative' : 'mixed';
}

/** The topic keys of a sentence: each topical word, and each pair of adjacent topical words. */
function sentenceKeys(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (!topical(words[i])) continue;
    out.push(words[i]);
    if (i + 1 < words.length && topical(words[i + 1]) && words[i] !== words[i + 1]) {
      out.push(`${words[i]} ${words[i + 1]}`);
    }
  }
  return out;
}

function parse(review: SummaryInput): Parsed {
  const all = sentences(`${review.title ? `${review.title}.\n` : ''}${review.content}`);
  const keys = new Set<string>();
  let score = 0;
  for (const s of all) {
    for (const k of sentenceKeys(s.terms)) keys.add(k);
    score += lexiconScore(s.terms);
  }
  return { review, sentences: all, keys, stance: stanceOf(review.rating, score) };
}

/** Whether a sentence mentions a topic key (a word, or two adjacent words). */
export function mentions(words: string[], key: string): boolean {
  const parts = key.split(' ');
  for (let i = 0; i + parts.length <= words.length; i++) {
    if (parts.every((p, j) => words[i + j] === p)) return true;
  }
  return false;
}

/** The topics: keys used by at least 2 reviews (and 3 % of them), a phrase kept over its words when it carries them. */
function pickTopics(parsed: Parsed[], maxTopics: number): string[] {
  const df = new Map<string, number>();
  for (const p of parsed) for (const k of p.keys) df.set(k, (df.get(k) ?? 0) + 1);
  const floor = Math.max(2, Math.ceil(parsed.length * 0.03));
  const ranked = [...df].filter(([, n]) => n >= floor)
    .map(([k, n]) => ({ k, n, score: n * (k.includes(' ') ? 1.5 : 1) }))
    .sort((a, b) => b.score - a.score || a.k.localeCompare(b.k));
  const chosen: string[] = [];
  for (const { k, n } of ranked) {
    if (chosen.length >= maxTopics) break;
    const words = k.split(' ');
    // A phrase replaces a word it carries when most of the word's reviews use the phrase.
    if (words.length === 2) {
      const carried = chosen.filter((c) => words.includes(c) && n >= 0.6 * (df.get(c) ?? 0));
      if (chosen.some((c) => words.includes(c)) && carried.length === 0) continue;
      for (const c of carried) chosen.splice(chosen.indexOf(c), 1);
    } else if (chosen.some((c) => c.split(' ').includes(k))) continue;
    chosen.push(k);
  }
  return chosen;
}

interface Cluster {
  topic: string;
  sentiment: Sentiment;
  reviews: Parsed[];
}

/** The sentence that speaks for a cluster: it names the topic, agrees with the stance, and shares the most words with the cluster. */
function representative(cluster: Cluster, used: Set<string>): { text: string; review: Parsed } | null {
  const weight = new Map<string, number>();
  for (const p of cluster.reviews) {
    for (const s of p.sentences) {
      if (!mentions(s.terms, cluster.topic)) continue;
      for (const w of new Set(s.terms)) if (topical(w)) weight.set(w, (weight.get(w) ?? 0) + 1);
    }
  }
  let best: { text: string; review: Parsed; score: number } | null = null;
  for (const p of cluster.reviews) {
    for (const s of p.sentences) {
      if (used.has(s.text) || !mentions(s.terms, cluster.topic)) continue;
      const lex = lexiconScore(s.terms);
      // A praising or complaining cluster speaks through a sentence that praises or complains: a plain
      // statement of a 5-star review ("not my colour") must not read as praise.
      const agrees = cluster.sentiment === 'positive' ? lex > 0 : cluster.sentiment === 'negative' ? lex < 0 : true;
      if (!agrees) continue;
      const n = s.terms.length;
      let shared = 0;
      for (const w of new Set(s.terms)) shared += w === cluster.topic ? 0 : (weight.get(w) ?? 0);
      const lengthFit = n < 6 ? 0.5 : n > 30 ? 0.3 : n > 22 ? 0.7 : 1;
      // A stronger opinion of the cluster's stance speaks for it better.
      const tone = cluster.sentiment === 'mixed' ? 1 : 1 + Math.min(2, Math.abs(lex)) * 0.25;
      // "…, but …" turns a praise or a complaint half around: such sentences speak for mixed clusters.
      const contrast = cluster.sentiment !== 'mixed' && s.terms.some((w) => CONTRAST.has(w)) ? 0.4 : 1;
      // A sentence without its end may be a text cut short ("… gives it a little mor"): others first.
      const ended = /[.!?…)"'”]$/.test(s.text) ? 1 : 0.2;
      const score = (shared / Math.sqrt(n)) * lengthFit * tone * contrast * ended;
      if (!best || score > best.score) best = { text: s.text, review: p, score };
    }
  }
  return best;
}

/** The shares a summary's sentences follow: 3-star reviews' of all, and 1–2 against 4–5 star reviews'. */
export function ratingShares(ratings: number[]): { mixed: number; negative: number } {
  const low = ratings.filter((r) => r <= 2).length;
  const high = ratings.filter((r) => r >= 4).length;
  return {
    mixed: ratings.length ? ratings.filter((r) => r === 3).length / ratings.length : 0,
    negative: low + high ? low / (low + high) : 0,
  };
}

/**
 * How many sentences of each stance among `total`: mixed ones as the 3-star reviews' share (as many
 * as there are mixed clusters at most), the rest split as the 1–2 against the 4–5 star reviews,
 * rounded towards the complaints on a near tie: a summary never hides them.
 */
export function sentenceShares(ratings: number[], total: number, mixedAvailable = total): Record<Sentiment, number> {
  const shares = ratingShares(ratings);
  const mixed = Math.min(mixedAvailable, Math.round(shares.mixed * total));
  const polar = total - mixed;
  const negative = Math.min(polar, Math.floor(shares.negative * polar + 0.55));
  return { negative, mixed, positive: polar - negative };
}

/**
 * The sentences of each stance: the most sentences (the clusters allowing) whose negative share
 * among the positive and negative ones stays within 10 points of the reviews', else the count that
 * comes closest.
 */
function sentenceCounts(ratings: number[], clusters: Cluster[], max: number): Record<Sentiment, number> {
  const target = ratingShares(ratings).negative;
  const available = (s: Sentiment) => clusters.filter((c) => c.sentiment === s).length;
  let best = { negative: 0, mixed: 0, positive: 0 } as Record<Sentiment, number>;
  let bestGap = Infinity;
  for (let total = Math.min(max, clusters.length); total >= 1; total--) {
    const want = sentenceShares(ratings, total, available('mixed'));
    if (want.negative > available('negative') || want.positive > available('positive')) continue;
    const polar = want.negative + want.positive;
    const gap = polar ? Math.abs(want.negative / polar - target) : 0;
    if (gap <= 0.1) return want;
    if (gap < bestGap - 1e-9) {
      best = want;
      bestGap = gap;
    }
  }
  return best;
}

const CONTRAST = new Set(['but', 'however', 'although', 'though', 'except', 'aber', 'jedoch', 'allerdings']);

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The summary of some published reviews, null below MIN_REVIEWS. */
export function summarize(reviews: SummaryInput[], options: SummaryOptions = {}): Summary | null {
  if (reviews.length < MIN_REVIEWS) return null;
  const maxSentences = options.maxSentences ?? 6;
  const parsed = reviews.map(parse);
  const topics = pickTopics(parsed, options.maxTopics ?? 8);

  const evidence: TopicEvidence = {};
  const clusters: Cluster[] = [];
  for (const topic of topics) {
    const of = parsed.filter((p) => p.keys.has(topic));
    evidence[topic] = { ids: of.map((p) => p.review.id), sentiments: of.map((p) => p.stance) };
    for (const sentiment of ['positive', 'negative', 'mixed'] as Sentiment[]) {
      const members = of.filter((p) => p.stance === sentiment);
      if (members.length > 0) clusters.push({ topic, sentiment, reviews: members });
    }
  }
  clusters.sort((a, b) => b.reviews.length - a.reviews.length || a.topic.localeCompare(b.topic));

  // Each stance's share of the sentences follows its share of the reviews: as many sentences as the
  // clusters allow, fewer when that keeps the shares closer (a stance with too few clusters).
  const want = sentenceCounts(reviews.map((r) => r.rating), clusters, maxSentences);
  const used = new Set<string>();
  const picked: SummarySentence[] = [];
  for (const sentiment of ['positive', 'mixed', 'negative'] as Sentiment[]) {
    for (const c of clusters) {
      if (want[sentiment] <= 0) break;
      if (c.sentiment !== sentiment) continue;
      const rep = representative(c, used);
      if (!rep) continue;
      used.add(rep.text);
      want[sentiment] -= 1;
      // A sentence that names several topics speaks for the reviews of each with its stance.
      const words = rep.review.sentences.find((x) => x.text === rep.text)!.terms;
      const named = [c.topic, ...topics.filter((t) => t !== c.topic && mentions(words, t))];
      const supporters = named.flatMap((t) =>
        clusters.find((x) => x.topic === t && x.sentiment === sentiment)?.reviews ?? []
      );
      // The sentence's own review first, then every other review that supports it, each once.
      const ids = [...new Set([rep.review.review.id, ...supporters.map((p) => p.review.id)])];
      picked.push({
        text: capitalized(rep.text),
        sentiment,
        review_ids: ids,
        count: ids.length,
        topic: c.topic,
        topics: named,
      });
    }
  }

  const languages = new Map<string, number>();
  for (const r of reviews) if (r.language) languages.set(r.language, (languages.get(r.language) ?? 0) + 1);
  const language = [...languages].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;

  return {
    language,
    review_count: reviews.length,
    sentences: picked,
    evidence,
  };
}
