// The transparency page, ${PUBLIC_URL}/p/:slug/transparency: the business's transparency report
// (core/db/public-transparency.ts, the same report GET /api/v1/public/transparency/:slug answers)
// for people: how reviews are collected, verified, published, hidden and ordered, the moderation
// chain head to keep, and a year's DSA figures (?year=, the current one by default; dsa-figures.ts)
// with links to the other years. Server-rendered, no JavaScript; linked from the profile page. Its
// markdown twin is /p/:slug/transparency.md (machine-pages.ts), loaded by the same loadTransparencyPage.
import { Hono } from 'hono';
import {
  loadShownTransparency,
  type TransparencyReport,
  transparencyReport,
  type TransparencyRow,
  transparencyVersion,
} from '../../core/db/public-transparency.ts';
import { dsaYear, dsaYearQuery, loadPublicDsa, type PublicDsa } from '../../core/db/public-dsa.ts';
import type { Sql } from '../../core/db/client.ts';
import type { AppEnv } from '../http/env.ts';
import { dsaHtml } from './dsa-figures.ts';
import { markup, page, raw, type SafeHtml } from './html.ts';
import { cachedPublicPage, NO_SUCH_BUSINESS, publicNotFound } from './shared.ts';

/** What the page and its twin show: the report's figures and the DSA year's. */
export type TransparencyPageData = TransparencyRow & { dsa: PublicDsa };

/** The page's data for a year: null for an unknown slug, `absent` while the profile is off. */
export async function loadTransparencyPage(sql: Sql, slug: string, year: number) {
  const t = await loadShownTransparency(sql, slug);
  if (!t || 'absent' in t) return t;
  const dsa = await loadPublicDsa(sql, slug, year);
  return dsa ? { ...t, dsa } : null;
}

const STYLE = raw(`
main{max-width:46rem}
h2{font-size:1.15rem;margin:2rem 0 .5rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem;font-size:.95rem}
caption{text-align:left;font-weight:600;margin:0 0 .35rem}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #d0d7de;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
th.month{white-space:nowrap}
.hash{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all;font-size:.9rem}
.back{margin:0 0 1rem}
a{color:#0969da}
.years ul{list-style:none;display:flex;flex-wrap:wrap;gap:.5rem;padding:0;margin:.5rem 0 1rem}
.years a{display:inline-block;padding:.35rem .75rem;border:1px solid #8c959f;border-radius:2rem;text-decoration:none}
.years a[aria-current=page]{background:#0969da;border-color:#0969da;color:#fff;font-weight:600}
table.dsa th{font-weight:400}
`);

const METHODS: [keyof TransparencyReport['verification_last_12_months'], string][] = [
  ['email', 'E-mail address confirmed'],
  ['purchase_proof', 'Order number matched a purchase'],
  ['manual', 'Approved by the business'],
  ['invitation', 'Written through a review invitation'],
  ['unverified', 'Not verified'],
];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const monthName = (m: string) => `${MONTHS[Number(m.slice(5, 7)) - 1]} ${m.slice(0, 4)}`;
const percent = (s: { share: number | null }) => (s.share === null ? '–' : `${(s.share * 100).toFixed(1)}%`);

function figures(r: TransparencyReport): SafeHtml {
  const n = r.not_published_last_12_months;
  return markup`<table>
<caption>Reviews received and published</caption>
<thead><tr><th scope="col">Reviews</th><th scope="col" class="n">All time</th><th scope="col" class="n">Last 12 months</th></tr></thead>
<tbody>
<tr><th scope="row">Received</th><td class="n">${r.received.all_time}</td><td class="n">${r.received.last_12_months}</td></tr>
<tr><th scope="row">Published</th><td class="n">${r.published.all_time}</td><td class="n">${r.published.last_12_months}</td></tr>
<tr><th scope="row">Waiting for verification</th><td class="n">–</td><td class="n">${n.pending}</td></tr>
<tr><th scope="row">Failed verification</th><td class="n">–</td><td class="n">${n.rejected}</td></tr>
<tr><th scope="row">Hidden by the business</th><td class="n">–</td><td class="n">${n.hidden}</td></tr>
</tbody></table>
<table>
<caption>Published reviews of the last 12 months, by how they were verified</caption>
<thead><tr><th scope="col">Verification</th><th scope="col" class="n">Reviews</th></tr></thead>
<tbody>${
    METHODS.map(([k, label]) =>
      markup`<tr><th scope="row">${label}</th><td class="n">${r.verification_last_12_months[k]}</td></tr>`
    )
  }</tbody></table>
<table>
<caption>Of the published reviews of the last 12 months</caption>
<thead><tr><th scope="col">Reviews that are</th><th scope="col" class="n">Reviews</th><th scope="col" class="n">Share</th></tr></thead>
<tbody>
<tr><th scope="row">Verified</th><td class="n">${r.shares_last_12_months.verified.count}</td><td class="n">${
    percent(r.shares_last_12_months.verified)
  }</td></tr>
<tr><th scope="row">Written for an incentive (a discount, a gift …)</th><td class="n">${r.shares_last_12_months.incentivized.count}</td><td class="n">${
    percent(r.shares_last_12_months.incentivized)
  }</td></tr>
<tr><th scope="row">Imported from another platform</th><td class="n">${r.shares_last_12_months.imported.count}</td><td class="n">${
    percent(r.shares_last_12_months.imported)
  }</td></tr>
</tbody></table>`;
}

function hides(r: TransparencyReport): SafeHtml {
  return markup`<table>
<caption>Reviews hidden by the business, by month and reason</caption>
<thead><tr><th scope="col">Month</th><th scope="col" class="n">Hidden</th><th scope="col">Reasons recorded</th></tr></thead>
<tbody>${
    r.hidden_by_month.map((m) =>
      markup`<tr><th scope="row" class="month">${monthName(m.month)}</th><td class="n">${m.hidden}</td><td>${
        m.reasons.length ? m.reasons.map((x, i) => markup`${i ? '; ' : ''}${x.reason} (${x.count})`) : '–'
      }</td></tr>`
    )
  }</tbody></table>`;
}

function render(base: string, t: TransparencyPageData): string {
  const r = transparencyReport(t, base);
  const profileUrl = `${base}/p/${encodeURIComponent(r.slug)}`;
  const title = `How ${r.name} collects and publishes reviews`;
  const c = r.moderation_chain;
  // Each year's figures have an address of their own; the default year's is the bare one.
  const year = dsaYearQuery(t.dsa.report.year);
  const body = markup`<p class="back"><a href="${profileUrl}">← Reviews of ${r.name}</a></p>
<h1>${title}</h1>
<p>Every figure on this page is counted from the reviews as they are stored now. The last 12 months are the calendar months since ${r.period.since} (UTC).</p>
<h2>The reviews in figures</h2>
${figures(r)}
<h2>Is every review published?</h2>
<p>${
    r.publication.all_published ? 'Yes: every review received is published.' : 'Not every review received is published.'
  } ${r.publication.statement}</p>
<h2>Hidden reviews</h2>
${hides(r)}
<h2>How reviews are ordered</h2>
<p>${r.ordering.statement}</p>
${dsaHtml(t.dsa, r.url)}
<p>How reviews are checked and hidden, how to report a review and how to appeal: <a href="${profileUrl}/policy">the review policy of ${r.name}</a>.</p>
<h2>The moderation record</h2>
<p>${c.how_to_verify}</p>
<p>Entries: <strong>${c.entries}</strong>. Head hash: <span class="hash">${c.head ?? 'none yet'}</span></p>
<p>The check: <a class="hash" href="${c.check_url}" rel="nofollow">${c.check_url}</a> (answered to a read key of ${r.name}). How the record works: <a href="${c.docs_url}">the API documentation</a>, “moderation-chain”.</p>
<p class="fine">Published with Plaudit. The same report as data: <a href="${base}/api/v1/public/transparency/${
    encodeURIComponent(r.slug)
  }">/api/v1/public/transparency/${r.slug}</a>.</p>`;
  return page({
    title,
    body,
    indexable: true,
    style: STYLE,
    head:
      markup`<meta name="description" content="${`How ${r.name} collects, verifies, publishes and orders reviews.`}">
<link rel="canonical" href="${`${r.url}${year}`}">
<link rel="alternate" type="text/markdown" href="${`${r.url}.md${year}`}">
`,
  });
}

export function transparencyPages() {
  const app = new Hono<AppEnv>();

  app.get('/p/:slug/transparency', async (c) => {
    const slug = c.req.param('slug');
    const year = dsaYear(c.req.query('year'));
    if (typeof year === 'string') return publicNotFound(c, 400, 'No figures for this year', year);
    return await cachedPublicPage<TransparencyPageData>(c, {
      variant: `transparency-page:${slug}:${year}`,
      version: () => transparencyVersion(c.var.sql, slug),
      load: () => loadTransparencyPage(c.var.sql, slug, year),
      missing: NO_SUCH_BUSINESS,
      render: (t) => render(c.var.config.publicUrl, t),
    });
  });

  return app;
}
