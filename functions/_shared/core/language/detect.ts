// The language a review is written in, told from its title and text where the review is made
// (the API at submission, the import reader for imports) and handed to the database with it.
// franc-min (trigrams of the 82 most spoken languages, pure JavaScript: fit for an Edge Function)
// answers ISO 639-3; reviews carry ISO 639-1, mapped by the iso-639-3 package's table (its small
// module only, not the whole register).
import { francAll } from 'franc-min';
import { iso6393To1 } from 'iso-639-3/iso6393-to-1.js';

/**
 * The fewest characters of text told apart: franc's own floor is 10, at which two words pass
 * ("Great product" reads as Czech); at 20 a short sentence is told right in the languages tested
 * (functions/_shared/core/language/detect.test.ts), and shorter text stays null.
 */
export const MIN_DETECTABLE_LENGTH = 20;

/**
 * The most characters told from: franc's work grows with the text (≈ 790 µs of CPU for 300
 * characters, 330 µs for 120, measured on a busy 2-core machine), and the first sentence or two
 * tell a review's language as well as the whole of it.
 */
export const MAX_SAMPLE_LENGTH = 160;

/** The ISO 639-3 codes franc-min knows that have an ISO 639-1 code: the only answers allowed. */
const WITH_TWO_LETTERS = Object.keys(iso6393To1);

/**
 * How close the runner-up may come to the best language (franc's scores, the best 1) for the text
 * still to be told: two short English sentences ("Great espresso. Lovely blend.") score German 1,
 * Spanish 0.92; a real sentence's runner-up stays near 0.7.
 */
export const MAX_RUNNER_UP = 0.9;

/**
 * The review's language (ISO 639-1) from its title and text, or null when the text is too short
 * to tell, franc cannot tell it (`und`), or another language comes as close (MAX_RUNNER_UP).
 */
export function detectLanguage(title: string | null | undefined, content: string | null | undefined): string | null {
  const text = [title, content].filter((s) => typeof s === 'string' && s.trim() !== '').join('. ').trim();
  if (text.length < MIN_DETECTABLE_LENGTH) return null;
  const sample = text.slice(0, MAX_SAMPLE_LENGTH);
  const [best, runnerUp] = francAll(sample, { minLength: MIN_DETECTABLE_LENGTH, only: WITH_TWO_LETTERS });
  if (!best || best[0] === 'und' || (runnerUp && runnerUp[1] > MAX_RUNNER_UP)) return null;
  return (iso6393To1 as Record<string, string | undefined>)[best[0]] ?? null;
}

/**
 * The reader's language (ISO 639-1) from an `Accept-Language` header or a language tag
 * (`de-CH`, `de;q=0.8`): the first, most preferred, whose primary subtag has two letters.
 */
export function readerLanguage(header: string | null | undefined): string | null {
  if (!header) return null;
  const tags = header.split(',').map((part, i) => {
    const [tag, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return { primary: tag.trim().split('-')[0].toLowerCase(), q: q ? Number(q.slice(2)) : 1, i };
  }).filter((t) => /^[a-z]{2}$/.test(t.primary) && Number.isFinite(t.q) && t.q > 0);
  tags.sort((a, b) => b.q - a.q || a.i - b.i);
  return tags[0]?.primary ?? null;
}

const NAMES = new Intl.DisplayNames('en', { type: 'language', fallback: 'code' });

/** A language's name in English ("German" for `de`), as the pages label a review in another language. */
export function languageName(code: string): string {
  return NAMES.of(code) ?? code;
}
