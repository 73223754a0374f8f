// The review policy page, ${PUBLIC_URL}/p/:slug/policy: what the business verifies and how, what it
// hides and why, how incentives and imports are labelled, how to report a review and how to appeal,
// written from its settings (core/db/public-review-policy.ts), with the business's own sections
// last, as text. Linked from the profile page's footer, the transparency page, the hosted review
// form and the statements of reasons; its markdown twin is /p/:slug/policy.md (machine-pages.ts).
// Server-rendered, no JavaScript; cached as the transparency page, whose version covers it.
import { Hono } from 'hono';
import { loadReviewPolicy, reviewPolicy, type ReviewPolicyRow } from '../../core/db/public-review-policy.ts';
import { transparencyVersion } from '../../core/db/public-transparency.ts';
import type { AppEnv } from '../http/env.ts';
import { markup, page, raw } from './html.ts';
import { cachedPublicPage, NO_SUCH_BUSINESS } from './shared.ts';

const STYLE = raw(`
main{max-width:46rem}
h2{font-size:1.15rem;margin:2rem 0 .5rem}
.back{margin:0 0 1rem}
.own p{white-space:pre-line}
a{color:#0969da}
`);

/** The address of a business's review policy page. */
export const policyUrl = (base: string, slug: string) => `${base}/p/${encodeURIComponent(slug)}/policy`;

function render(base: string, p: ReviewPolicyRow): string {
  const profileUrl = `${base}/p/${encodeURIComponent(p.slug)}`;
  const url = policyUrl(base, p.slug);
  const title = `Review policy of ${p.name}`;
  const body = markup`<p class="back"><a href="${profileUrl}">← Reviews of ${p.name}</a></p>
<h1>${title}</h1>
${
    reviewPolicy(p).map((s) =>
      markup`<section id="${s.id}"${s.id === 'own' ? raw(' class="own"') : ''}><h2>${s.heading}</h2>${
        s.paragraphs.map((x) => markup`<p>${x}</p>`)
      }${s.list?.length ? markup`<ul>${s.list.map((x) => markup`<li>${x}</li>`)}</ul>` : ''}</section>`
    )
  }
<p class="fine">The figures behind this policy: <a href="${profileUrl}/transparency">the transparency report of ${p.name}</a>. Published with Plaudit.</p>`;
  return page({
    title,
    body,
    indexable: true,
    style: STYLE,
    head: markup`<meta name="description" content="${`How ${p.name} collects, checks, publishes and hides reviews.`}">
<link rel="canonical" href="${url}">
<link rel="alternate" type="text/markdown" href="${url}.md">
`,
  });
}

export function reviewPolicyPages() {
  const app = new Hono<AppEnv>();

  app.get('/p/:slug/policy', async (c) => {
    const slug = c.req.param('slug');
    return await cachedPublicPage<ReviewPolicyRow>(c, {
      variant: `policy-page:${slug}`,
      version: () => transparencyVersion(c.var.sql, slug),
      load: () => loadReviewPolicy(c.var.sql, slug),
      missing: NO_SUCH_BUSINESS,
      render: (p) => render(c.var.config.publicUrl, p),
    });
  });

  return app;
}
