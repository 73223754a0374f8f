// The summary section of the business's and the products' pages (docs/summaries.md): what the
// reviews say, each sentence a disclosure that opens the reviews behind it (its first cited ones,
// plain HTML, no script), its address `#summary-<n>` the widget's sentences link to. Nothing when
// there is no summary to show (below 5 published reviews, or before the worker made one).
import type { Sql } from '../../core/db/client.ts';
import type { PublicSummary } from '../../core/db/public-summary.ts';
import { runAsPublic } from '../../core/db/roles.ts';
import { markup, raw, type SafeHtml } from './html.ts';
import { COUNT, type ReviewItem, stars } from './review-list.ts';

/** Reviews a sentence opens at most; the rest are counted. */
export const CITED_PER_SENTENCE = 10;

export type SummarySectionData = { summary: PublicSummary; cited: ReviewItem[][] };

/** The summary of the business (externalId null) or of a product, with its sentences' first cited reviews. */
export async function loadSummarySection(
  sql: Sql,
  slug: string,
  externalId: string | null,
): Promise<SummarySectionData | null> {
  const [row] = await runAsPublic(sql, (tx) =>
    tx<{ body: string | null; cited: string }[]>`
      select (select s.body from plaudit.public_review_summary(${slug}, ${externalId}) s) as body,
             plaudit.public_review_summary_cited(${slug}, ${externalId}, ${CITED_PER_SENTENCE}) as cited`);
  if (!row?.body) return null;
  const summary = JSON.parse(row.body) as PublicSummary;
  return summary.sentences.length ? { summary, cited: JSON.parse(row.cited) as ReviewItem[][] } : null;
}

export const SUMMARY_STYLE = raw(`
.summary{margin:1.5rem 0;padding:1rem 1.25rem;border:1px solid #d0d7de;border-radius:.75rem;background:#f6f8fa}
.summary h2{margin:0 0 .25rem;font-size:1.15rem}
.summary>p{margin:0 0 .75rem;color:#57606a;font-size:.9rem}
.summary ul{list-style:none;margin:0;padding:0}
.summary li{margin:.5rem 0}
.summary summary{cursor:pointer;line-height:1.5}
.summary .tone{display:inline-block;min-width:4.5rem;margin-right:.4rem;padding:0 .4rem;border-radius:1rem;font-size:.8rem;font-weight:600;text-align:center}
.summary .positive .tone{background:#dafbe1;color:#116329}
.summary .negative .tone{background:#ffebe9;color:#a40e26}
.summary .mixed .tone{background:#fff8c5;color:#6c4b00}
.summary .n{color:#0969da;font-size:.9rem;white-space:nowrap}
.summary ol{margin:.5rem 0 .75rem;padding-left:1.25rem}
.summary ol li{margin:.5rem 0;background:#fff;padding:.5rem .75rem;border-radius:.5rem;border:1px solid #d8dee4}
.summary ol p{margin:.25rem 0}
.summary .by{color:#57606a;font-size:.85rem}`);

const TONE = { positive: 'Praise', negative: 'Complaint', mixed: 'Mixed' } as const;
const EXCERPT = 320;

function citedReview(r: ReviewItem): SafeHtml {
  const text = r.content.length > EXCERPT ? `${r.content.slice(0, EXCERPT).trimEnd()}…` : r.content;
  return markup`<li>${stars(r.rating, { average: false })}${r.title ? markup` <strong>${r.title}</strong>` : ''}
<p${r.language ? markup` lang="${r.language}"` : ''}>${text}</p><p class="by">${r.reviewer_name}</p></li>`;
}

/** The section: each sentence with its tone, and the reviews behind it when opened. */
export function summarySection(data: SummarySectionData | null, subject: string): SafeHtml | '' {
  if (!data) return '';
  const { summary, cited } = data;
  return markup`<section class="summary" id="summary" aria-labelledby="summary-h">
<h2 id="summary-h">What reviewers say about ${subject}</h2>
<p>Sentences from ${COUNT.format(summary.review_count)} published reviews; open one to read the reviews behind it.</p>
<ul>${
    summary.sentences.map((s, i) =>
      markup`<li class="${s.sentiment}" id="summary-${i}"><details><summary><span class="tone">${
        TONE[s.sentiment]
      }</span>${s.text} <span class="n">${COUNT.format(s.count)} review${
        s.count === 1 ? '' : 's'
      } say so</span></summary>
<ol aria-label="Reviews behind this sentence">${(cited[i] ?? []).map(citedReview)}</ol>${
        s.count > (cited[i]?.length ?? 0)
          ? markup`<p class="by">and ${COUNT.format(s.count - (cited[i]?.length ?? 0))} more</p>`
          : ''
      }</details></li>`
    )
  }</ul>
</section>`;
}
