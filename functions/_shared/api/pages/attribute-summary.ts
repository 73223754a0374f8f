// A page's attribute ratings (docs/products.md), under its score: each scale field a labelled
// distribution (Runs small · True to size · Runs large, with counts), each rating field its mean
// stars, from the summary (plaudit.attribute_summary).
import type { AttributeSummaryItem } from '../../core/attributes.ts';
import { markup, raw, type SafeHtml } from './html.ts';
import { COUNT, stars } from './review-list.ts';

export const ATTRIBUTE_STYLE = raw(`
.attrs{border:1px solid #d0d7de;border-radius:.75rem;padding:.5rem 1.25rem 1rem;margin:1.25rem 0}
.attrs h3{font-size:1rem;margin:.75rem 0 .35rem}
.attrs .bars li{grid-template-columns:minmax(5rem,9rem) 1fr 3rem}
.attrs .num{text-align:left}
`);

const answersWord = (n: number) => `${COUNT.format(n)} answer${n === 1 ? '' : 's'}`;

/** The answers' section, or nothing when no field was answered. */
export function attributeSection(items: readonly AttributeSummaryItem[]): SafeHtml | '' {
  if (!items.length) return '';
  const fields = items.map((a, i) => {
    const h = `attr-${i}`;
    if (a.type === 'rating' && a.average !== undefined) {
      return markup`<h3 id="${h}">${a.label}</h3>
<p>${stars(a.average)} ${a.average.toFixed(1)} <span class="num">· ${answersWord(a.count)}</span></p>`;
    }
    const bars = Object.entries(a.distribution).map(([label, k]) => {
      const share = a.count > 0 ? Math.round((k / a.count) * 100) : 0;
      return markup`<li><span>${label}</span><span class="bar" role="img" aria-label="${share}% of answers"><span style="width:${share}%"></span></span><span class="num">${
        COUNT.format(k)
      }</span></li>`;
    });
    return markup`<h3 id="${h}">${a.label}</h3>
<ul class="bars" aria-labelledby="${h}">${bars}</ul>`;
  });
  return markup`<section class="attrs" aria-labelledby="attrs-h">
<h2 id="attrs-h" class="trap">What reviewers say</h2>
${fields}
</section>`;
}
