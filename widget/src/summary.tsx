// The summary in the widget (product and business modes): what the reviews say, read from the
// public summary route once the widget shows, nothing while there is none (below 5 published
// reviews, or a failed read). Each sentence links to the reviews behind it on the public page
// (`#summary-<n>`, pages/summary-section.ts), where it opens them.
import { useEffect, useState } from 'preact/hooks';
import { getJson } from './data.ts';
import type { components } from '../../sdk/src/generated/openapi.ts';

type ReviewSummary = components['schemas']['ReviewSummary'];

const TONE_COLOR = { positive: '#116329', negative: '#a40e26', mixed: '#6c4b00' };

const WORDS = {
  en: ['What reviewers say', 'Praise', 'Complaint', 'Mixed', (n: number) => `${n} review${n === 1 ? '' : 's'}`],
  de: ['Was Kunden sagen', 'Lob', 'Kritik', 'Gemischt', (n: number) => `${n} Bewertung${n === 1 ? '' : 'en'}`],
} as const;

export function Summary({ url, page, locale }: { url: string; page: string; locale: string }) {
  const [s, set] = useState<ReviewSummary | null>(null);
  useEffect(() => {
    getJson<ReviewSummary>(url).then(set);
  }, [url]);
  if (!s?.sentences.length) return null;
  const [title, positive, negative, mixed, count] = WORDS[locale.slice(0, 2) as 'de'] ?? WORDS.en;
  const tone = { positive, negative, mixed };
  return (
    <div role='group' aria-label={title}>
      <p class='name'>{title}</p>
      <ul style='list-style:none;margin:0;padding:0'>
        {s.sentences.map((x, i) => (
          <li key={i} style='margin:.4em 0'>
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
