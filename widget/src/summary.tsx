// The summary in the widget (product and business modes): what the reviews say, read from the
// public summary route beside the first view's other reads and drawn with them, so that it never
// arrives later and moves the reviews below it; nothing when there is none (below 5 published
// reviews, a failed read, or one that answers late: readSummary). It takes at most 30 % of the
// widget's height and scrolls inside (`.sy`, core/widget/styles.ts), leaving the reviews their room;
// its bottom line's height fades out, so that a line its edge cuts shows as going on.
// Each sentence links to the reviews behind it on the public page (`#summary-<n>`,
// pages/summary-section.ts), where it opens them.
import { getJson } from './data.ts';
import type { components } from '../../sdk/src/generated/openapi.ts';

export type ReviewSummary = components['schemas']['ReviewSummary'];

/**
 * How long the first view waits for the summary once its other reads have answered: a summary
 * slower than that is left out, and never inserted later (that would move the reviews).
 */
export const SUMMARY_WAIT = 300;

/**
 * Starts reading a summary beside the first view's other reads. Called once they have answered,
 * the answer is the summary, or null: none, a failed read, or none within SUMMARY_WAIT ms more.
 */
export function readSummary(url: string): () => Promise<ReviewSummary | null> {
  const s = getJson<ReviewSummary>(url);
  return () => Promise.race([s, new Promise<null>((r) => setTimeout(r, SUMMARY_WAIT, null))]);
}

const TONE_COLOR = { positive: '#116329', negative: '#a40e26', mixed: '#6c4b00' };

const WORDS = {
  en: ['What reviewers say', 'Praise', 'Complaint', 'Mixed', (n: number) => `${n} review${n === 1 ? '' : 's'}`],
  de: ['Was Kunden sagen', 'Lob', 'Kritik', 'Gemischt', (n: number) => `${n} Bewertung${n === 1 ? '' : 'en'}`],
} as const;

/** The summary read with the first view (none: nothing drawn). */
export function Summary({ s, page, locale }: { s?: ReviewSummary | null; page: string; locale: string }) {
  if (!s?.sentences.length) return null;
  const [title, positive, negative, mixed, count] = WORDS[locale.slice(0, 2) as 'de'] ?? WORDS.en;
  const tone = { positive, negative, mixed };
  return (
    <div role='group' aria-label={title} class='sy'>
      <p class='name'>{title}</p>
      <ul>
        {s.sentences.map((x, i) => (
          <li key={i}>
            <b style={{ color: TONE_COLOR[x.sentiment] }}>{tone[x.sentiment]}</b> {x.text}{' '}
            <a href={`${page}#summary-${i}`} target='_top'>{count(x.count)}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The business's summary route, from its reviews' signal route (`…/public/reviews/<slug>`). */
export const businessSummaryUrl = (signalsApi: string) => signalsApi.replace('/public/reviews/', '/public/summaries/');
