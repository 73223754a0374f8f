// The year's DSA figures (core/db/public-dsa.ts) as the transparency page shows them and as its
// markdown twin says them: the same rows, from the same figures the admin report answers. A ground
// is what the business wrote: markup`` escapes it for the page, mdText for the markdown.
import { durationWords, pickerYears, type PublicDsa } from '../../core/db/public-dsa.ts';
import { mdLink, mdText } from './markdown.ts';
import { markup, type SafeHtml } from './html.ts';

type Row = [label: string, value: number | string];

/** The figures as labelled rows, in the order of the EU template's sections. */
export function dsaSections(d: PublicDsa): { caption: string; rows: Row[] }[] {
  const { notices: n, own_initiative_restrictions: x, appeals: a } = d.report;
  return [
    {
      caption: 'Notices of reviews received, by kind',
      rows: [
        ['Notices that a review is illegal', n.received.illegal],
        ["Notices that a review breaks the business's policy", n.received.policy],
        ['All notices received', n.received.total],
      ],
    },
    {
      caption: 'Notices decided',
      rows: [
        ['Review hidden', n.decided.hidden],
        ['Review kept', n.decided.kept],
        ['All notices decided', n.decided.total],
        ['Median time to decide', durationWords(n.median_seconds_to_decide)],
      ],
    },
    {
      caption: "Reviews hidden on the business's own initiative",
      rows: [
        ['By automated means', x.automated],
        ['By a person', x.not_automated],
        ['All', x.total],
        ...x.by_ground.map((g): Row => [
          `${g.ground_type === 'law' ? 'Law' : 'Policy'}: ${g.ground} (${g.automated ? 'automated' : 'by a person'})`,
          g.count,
        ]),
      ],
    },
    {
      caption: 'Appeals against a hidden review',
      rows: [
        ['Appeals received', a.received],
        ['Decision upheld', a.decided.upheld],
        ['Decision reversed (review shown again)', a.decided.reversed],
        ['All appeals decided', a.decided.total],
        ['Median time to decide', durationWords(a.median_seconds_to_decide)],
      ],
    },
  ];
}

const INTRO =
  'Figures of the calendar year (UTC) in the EU Digital Services Act’s transparency template: notices that a review is illegal or against the policy, the decisions on them, reviews hidden on the business’s own initiative, and appeals. Each is counted from the notices, statements of reasons and appeals the business keeps.';

/** The section of the transparency page: its heading, the year picker (links) and a table a part. */
export function dsaHtml(d: PublicDsa, pageUrl: string): SafeHtml {
  const year = d.report.year;
  const years = pickerYears(d);
  return markup`<h2 id="dsa">Notices, hidden reviews and appeals in ${year}</h2>
<p>${INTRO}</p>
<nav aria-label="Year of the figures" class="years"><ul>${
    years.map((y) =>
      y === year
        ? markup`<li><a href="${pageUrl}?year=${y}#dsa" aria-current="page">${y}</a></li>`
        : markup`<li><a href="${pageUrl}?year=${y}#dsa">${y}</a></li>`
    )
  }</ul></nav>
${
    dsaSections(d).map((s) =>
      markup`<table class="dsa">
<caption>${s.caption}, ${year}</caption>
<tbody>${
        s.rows.map(([label, value]) => markup`<tr><th scope="row">${label}</th><td class="n">${value}</td></tr>`)
      }</tbody></table>`
    )
  }`;
}

/** The same section as markdown: every label escaped, the other years as links. */
export function dsaMarkdown(d: PublicDsa, twinUrl: string): string {
  const year = d.report.year;
  const others = pickerYears(d).filter((y) => y !== year);
  const out = [`## Notices, hidden reviews and appeals in ${year}`, '', mdText(INTRO)];
  for (const s of dsaSections(d)) {
    out.push('', `### ${mdText(s.caption)}`, '');
    for (const [label, value] of s.rows) out.push(`- ${mdText(label)}: ${mdText(String(value))}`);
  }
  if (others.length) {
    out.push('', `Other years: ${others.map((y) => mdLink(String(y), `${twinUrl}?year=${y}`)).join(' · ')}`);
  }
  return out.join('\n') + '\n';
}
