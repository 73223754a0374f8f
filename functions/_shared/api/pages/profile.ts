// The public profile page, ${PUBLIC_URL}/p/:slug: what a business's customers and search engines
// see. Server-rendered, no JavaScript; reviews ten a page (?page=), newest first or in another
// order (?sort=), optionally of one rating (?rating=); the numbers, the visible reviews and the
// structured data (schema.org JSON-LD) come from the same queries, so they always agree. It links
// to the business's products when it lists any (product-pages.ts). The sitemap and robots.txt:
// sitemap.ts.
//
// Review snippets: this page is a third party's (Plaudit's, or the operator's) about the business,
// not the business's own page about itself, so Google's rule against self-serving reviews on a
// business's own pages does not apply (docs/profile-pages.md).
import { Hono } from 'hono';
import { ATTRIBUTE_STYLE, attributeSection } from './attribute-summary.ts';
import { loadPublicProfile, type PublicProfileRow, publicProfileVersion } from '../../core/db/public-profile.ts';
import { runAsPublic } from '../../core/db/roles.ts';
import { isErasedReview } from '../../core/erasure.ts';
import { safeLink } from '../../core/html.ts';
import { imageSource } from '../../core/web-links.ts';
import type { Sql } from '../../core/db/client.ts';
import type { AppEnv } from '../http/env.ts';
import { markup, page, raw } from './html.ts';
import { listedProductCount } from './product-pages.ts';
import {
  jsonForScript,
  lastPageOf,
  listHeadLinks,
  type ListQuery,
  listVariant,
  readListQuery,
  REVIEW_LIST_STYLE,
  type ReviewItem,
  reviewListSections,
  REVIEWS_PER_PAGE,
  reviewsWord,
} from './review-list.ts';
import { cachedPublicPage, NO_SUCH_BUSINESS, publicNotFound } from './shared.ts';
import { loadSummarySection, SUMMARY_STYLE, summarySection, type SummarySectionData } from './summary-section.ts';

type ReviewPage = { total: number; items: ReviewItem[] };
export type ProfilePageData = {
  version: string;
  profile: PublicProfileRow;
  reviews: ReviewPage;
  products: number;
  summary: SummarySectionData | null;
};
type PageData = ProfilePageData;

/** What the profile page shows for this list query (its HTML and its markdown twin alike). */
export async function loadProfilePage(sql: Sql, slug: string, q: ListQuery) {
  const [profile, [row], products, summary] = await Promise.all([
    loadPublicProfile(sql, slug),
    runAsPublic(sql, (tx) =>
      tx<{ r: ReviewPage | null }[]>`
      select plaudit.public_review_page(
        ${slug}, 'profile', ${q.page}, ${REVIEWS_PER_PAGE}, ${q.sort}, ${q.rating}, ${q.media}, null, ${q.reader}) as r`),
    listedProductCount(sql, slug),
    loadSummarySection(sql, slug, null),
  ]);
  if (!profile) return null;
  if (!profile.enabled || !row.r) return { version: profile.version, absent: true as const };
  return { version: profile.version, profile, reviews: row.r, products, summary };
}

const STYLE = raw(`
main{max-width:46rem}
.brand{display:flex;gap:1rem;align-items:center;margin-bottom:1rem}
.brand img{width:4rem;height:4rem;object-fit:contain;border-radius:.5rem;border:1px solid #d0d7de;background:#fff}
.brand h1{margin:0}
.site{margin:.25rem 0 0;font-size:.95rem}
.products{margin:.5rem 0 0}
.products a{color:#0969da;font-weight:600}
${REVIEW_LIST_STYLE}${ATTRIBUTE_STYLE}
${SUMMARY_STYLE}`);

/** schema.org structured data: the same numbers and reviews the page shows. */
function structuredData(p: PublicProfileRow, reviews: ReviewItem[], url: string) {
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: p.name,
    url: safeLink(p.website) || url,
    ...(p.description ? { description: p.description } : {}),
    ...(imageSource(p.logo_url) ? { logo: imageSource(p.logo_url) } : {}),
  };
  if (Number(p.review_count) > 0) {
    data.aggregateRating = {
      '@type': 'AggregateRating',
      ratingValue: p.average_rating,
      reviewCount: Number(p.review_count),
      bestRating: 5,
      worstRating: 1,
    };
    // Erased reviews are left out (core/erasure.ts); the aggregate rating still counts their stars.
    data.review = reviews.filter((r) => !isErasedReview(r)).map((r) => ({
      '@type': 'Review',
      author: { '@type': 'Person', name: r.reviewer_name },
      datePublished: r.created_at.slice(0, 10),
      ...(r.title ? { name: r.title } : {}),
      reviewBody: r.content,
      reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
    }));
  }
  return data;
}

function render(base: string, slug: string, data: PageData, q: ListQuery): string {
  const p = data.profile;
  const count = Number(p.review_count);
  const profileUrl = `${base}/p/${encodeURIComponent(slug)}`;
  const average = p.average_rating === null ? null : Number(p.average_rating);
  const summary = average === null
    ? `No reviews of ${p.name} yet.`
    : `${p.name} is rated ${average.toFixed(1)} out of 5 from ${reviewsWord(count)}.`;
  const description = p.description ? `${summary} ${p.description}` : summary;
  const title = `${p.name} reviews${average === null ? '' : ` – rated ${average.toFixed(1)} of 5`}${
    q.page > 1 ? ` – page ${q.page}` : ''
  }`;
  const logo = imageSource(p.logo_url);
  const website = safeLink(p.website);

  const head = markup`<meta name="description" content="${description.slice(0, 300)}">
${listHeadLinks(profileUrl, q, data.reviews.total)}<meta property="og:type" content="website">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description.slice(0, 300)}">
<meta property="og:url" content="${profileUrl}">
${logo ? markup`<meta property="og:image" content="${logo}">\n` : ''}<meta name="twitter:card" content="summary">
<meta name="twitter:title" content="${title}">
<meta name="twitter:description" content="${description.slice(0, 300)}">
<script type="application/ld+json">${jsonForScript(structuredData(p, data.reviews.items, profileUrl))}</script>
`;

  const body = markup`<header class="brand">${
    logo ? markup`<img src="${logo}" alt="${p.name} logo" width="64" height="64">` : ''
  }<div><h1>${p.name}</h1>${
    website
      ? markup`<p class="site"><a href="${website}" rel="noopener">${website.replace(/^https?:\/\//, '')}</a></p>`
      : ''
  }</div></header>
${p.description ? markup`<p>${p.description}</p>` : ''}
${
    data.products > 0
      ? markup`<p class="products"><a href="${profileUrl}/products">Products of ${p.name} and their reviews →</a></p>`
      : ''
  }
${summarySection(data.summary, p.name)}
${
    reviewListSections({
      pageUrl: profileUrl,
      profileUrl,
      q,
      average,
      count,
      distribution: p.rating_distribution,
      attributes: attributeSection(p.attributes),
      items: data.reviews.items,
      total: data.reviews.total,
      business: p.name,
      checking: p.checking_recent_reviews,
    })
  }
<p class="fine">Reviews of ${p.name}, collected and published with Plaudit. A business can hide a review only with a recorded reason, kept in a tamper-evident trail. <a href="${profileUrl}/transparency">How ${p.name} collects and publishes reviews</a>. <a href="${profileUrl}/policy">Review policy</a>.</p>`;

  return page({ title, body, indexable: true, head, style: STYLE });
}

export function profilePages() {
  const app = new Hono<AppEnv>();

  app.get('/p/:slug', async (c) => {
    const slug = c.req.param('slug');
    const q = readListQuery(c);
    if (typeof q === 'string') return publicNotFound(c, 400, 'This page does not exist', q);
    return await cachedPublicPage<PageData>(c, {
      variant: `profile-page:${slug}:${listVariant(q)}`,
      version: () => publicProfileVersion(c.var.sql, slug),
      load: () => loadProfilePage(c.var.sql, slug, q),
      missing: NO_SUCH_BUSINESS,
      render: (data) =>
        q.page > lastPageOf(data.reviews.total)
          ? publicNotFound(
            c,
            404,
            'No such page',
            `This business's reviews end at page ${lastPageOf(data.reviews.total)}.`,
          )
          : render(c.var.config.publicUrl, slug, data, q),
    });
  });

  return app;
}
