// The public profile page, ${PUBLIC_URL}/p/:slug: what a business's customers and search engines
// see. Server-rendered, no JavaScript; reviews newest first, ten a page (?page=), optionally of one
// rating (?rating=); the numbers, the visible reviews and the structured data (schema.org JSON-LD)
// come from the same two queries, so they always agree. The sitemap and robots.txt: sitemap.ts.
//
// Review snippets: this page is a third party's (Plaudit's, or the operator's) about the business,
// not the business's own page about itself, so Google's rule against self-serving reviews on a
// business's own pages does not apply (docs/profile-pages.md).
import { Hono } from 'hono';
import type { Context } from 'hono';
import { loadPublicProfile, type PublicProfileRow, publicProfileVersion } from '../../core/db/public-profile.ts';
import { runAsPublic } from '../../core/db/roles.ts';
import { safeLink } from '../../core/html.ts';
import type { AppEnv } from '../http/env.ts';
import { MAX_PAGE } from '../http/pagination.ts';
import { conditionalPublicRead } from '../middleware/public-access/index.ts';
import { markup, page, raw, type SafeHtml } from './html.ts';
import { publicNotFound, publicPage } from './shared.ts';

const PER_PAGE = 10;
/** Shared caches keep a page five minutes and serve it stale while they revalidate it by ETag. */
const PAGE_CACHE_CONTROL = 'public, max-age=60, s-maxage=300, stale-while-revalidate=600';

type ReviewItem = {
  id: string;
  rating: number;
  title: string | null;
  content: string;
  reviewer_name: string;
  verification_status: 'verified' | 'unverified';
  verification_method: 'email' | 'purchase_proof' | 'manual' | 'invitation' | null;
  reply: { content: string; created_at: string; updated_at: string } | null;
  created_at: string;
};
type ReviewPage = { total: number; items: ReviewItem[] };
type PageData = { version: string; profile: PublicProfileRow; reviews: ReviewPage };

const BADGE: Record<string, string> = {
  email: 'Verified by e-mail',
  purchase_proof: 'Verified purchase',
  invitation: 'Verified by invitation',
  manual: 'Verified by the business',
};

const STYLE = raw(`
main{max-width:46rem}
.brand{display:flex;gap:1rem;align-items:center;margin-bottom:1rem}
.brand img{width:4rem;height:4rem;object-fit:contain;border-radius:.5rem;border:1px solid #d0d7de;background:#fff}
.brand h1{margin:0}
.site{margin:.25rem 0 0;font-size:.95rem}
.score{display:grid;grid-template-columns:auto 1fr;gap:1rem 1.5rem;align-items:center;border:1px solid #d0d7de;border-radius:.75rem;padding:1rem 1.25rem;margin:1.25rem 0}
.avg{font-size:2.5rem;font-weight:700;line-height:1}
.stars-row{color:#9a6700;font-size:1.25rem;letter-spacing:.05em}
.count{color:#57606a;margin:.25rem 0 0}
.bars{list-style:none;margin:0;padding:0;grid-column:1/-1}
.bars li{display:grid;grid-template-columns:4.5rem 1fr 3rem;gap:.5rem;align-items:center;margin:.2rem 0}
.bars a{color:#0969da}
.bar{height:.6rem;border-radius:.3rem;background:#eaeef2;overflow:hidden}
.bar span{display:block;height:100%;background:#bf8700}
.num{text-align:right;color:#57606a;font-variant-numeric:tabular-nums}
.filter{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;padding:0;margin:0 0 1rem}
.filter a{display:inline-block;padding:.35rem .8rem;border:1px solid #8c959f;border-radius:2rem;color:#1f2328;text-decoration:none}
.filter a[aria-current=page]{background:#1f2328;color:#fff;border-color:#1f2328}
.review{border-top:1px solid #d0d7de;padding:1rem 0}
.review h3{font-size:1.05rem;margin:.35rem 0}
.review p{margin:.35rem 0;white-space:pre-line;overflow-wrap:anywhere}
.meta{color:#57606a;font-size:.9rem;display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:center}
.badge{display:inline-block;background:#dafbe1;color:#116329;border-radius:1rem;padding:.05rem .6rem;font-size:.85rem;font-weight:600}
.reply{border-left:3px solid #d0d7de;margin:.6rem 0 0;padding:0 0 0 .8rem}
.reply-by{color:#57606a;font-size:.9rem;font-weight:600}
.pages{display:flex;justify-content:space-between;gap:1rem;margin-top:1.5rem}
.pages a{color:#0969da}
.empty{color:#57606a}
`);

function stars(rating: number): string {
  const full = Math.round(rating);
  return '★'.repeat(full) + '☆'.repeat(5 - full);
}

// One formatter each, made once: building an Intl formatter per value costs more than the page.
const DATE = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const COUNT = new Intl.NumberFormat('en');

function formatDate(iso: string): string {
  return DATE.format(new Date(iso));
}

/** JSON inside a script element: no `</script>`, no HTML comment opener can end it early. */
function jsonForScript(value: unknown): SafeHtml {
  return raw(JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026'));
}

/** schema.org structured data: the same numbers and reviews the page shows. */
function structuredData(p: PublicProfileRow, reviews: ReviewItem[], url: string) {
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: p.name,
    url: safeLink(p.website) || url,
    ...(p.description ? { description: p.description } : {}),
    ...(safeLink(p.logo_url) ? { logo: p.logo_url } : {}),
  };
  if (Number(p.review_count) > 0) {
    data.aggregateRating = {
      '@type': 'AggregateRating',
      ratingValue: p.average_rating,
      reviewCount: Number(p.review_count),
      bestRating: 5,
      worstRating: 1,
    };
    data.review = reviews.map((r) => ({
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

/** ?page= and ?rating=, or the message of a 400. */
function readQuery(c: Context<AppEnv>): { page: number; rating: number | null } | string {
  const rawPage = c.req.query('page');
  const rawRating = c.req.query('rating');
  const page = rawPage === undefined ? 1 : Number(rawPage);
  if (!/^\d{1,7}$/.test(rawPage ?? '1') || page < 1 || page > MAX_PAGE) {
    return `page must be a whole number from 1 to ${COUNT.format(MAX_PAGE)}.`;
  }
  if (rawRating !== undefined && rawRating !== '' && !/^[1-5]$/.test(rawRating)) {
    return 'rating must be 1, 2, 3, 4 or 5.';
  }
  return { page, rating: rawRating ? Number(rawRating) : null };
}

function render(base: string, slug: string, data: PageData, q: { page: number; rating: number | null }): string {
  const p = data.profile;
  const count = Number(p.review_count);
  const profileUrl = `${base}/p/${encodeURIComponent(slug)}`;
  const link = (page: number, rating: number | null) => {
    const params = new URLSearchParams();
    if (rating) params.set('rating', String(rating));
    if (page > 1) params.set('page', String(page));
    const qs = params.toString();
    return `${profileUrl}${qs ? `?${qs}` : ''}`;
  };
  const lastPage = Math.max(1, Math.ceil(Number(data.reviews.total) / PER_PAGE));
  const prev = q.page > 1 ? link(q.page - 1, q.rating) : null;
  const next = q.page < lastPage ? link(q.page + 1, q.rating) : null;
  const average = p.average_rating === null ? null : Number(p.average_rating);
  const summary = average === null
    ? `No reviews of ${p.name} yet.`
    : `${p.name} is rated ${average.toFixed(1)} out of 5 from ${COUNT.format(count)} review${count === 1 ? '' : 's'}.`;
  const description = p.description ? `${summary} ${p.description}` : summary;
  const title = `${p.name} reviews${average === null ? '' : ` – rated ${average.toFixed(1)} of 5`}${
    q.page > 1 ? ` – page ${q.page}` : ''
  }`;
  const logo = safeLink(p.logo_url);
  const website = safeLink(p.website);
  const dist = p.rating_distribution;

  const head = markup`<meta name="description" content="${description.slice(0, 300)}">
<link rel="canonical" href="${link(q.page, null)}">
${prev ? markup`<link rel="prev" href="${prev}">\n` : ''}${
    next ? markup`<link rel="next" href="${next}">\n` : ''
  }<meta property="og:type" content="website">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description.slice(0, 300)}">
<meta property="og:url" content="${profileUrl}">
${logo ? markup`<meta property="og:image" content="${logo}">\n` : ''}<meta name="twitter:card" content="summary">
<meta name="twitter:title" content="${title}">
<meta name="twitter:description" content="${description.slice(0, 300)}">
<script type="application/ld+json">${jsonForScript(structuredData(p, data.reviews.items, profileUrl))}</script>
`;

  const bars = [5, 4, 3, 2, 1].map((n) => {
    const k = String(n) as '1' | '2' | '3' | '4' | '5';
    const share = count > 0 ? Math.round((Number(dist[k]) / count) * 100) : 0;
    return markup`<li><a href="${link(1, n)}">${n} star${
      n === 1 ? '' : 's'
    }</a><span class="bar" role="img" aria-label="${share}% of reviews"><span style="width:${share}%"></span></span><span class="num">${
      COUNT.format(Number(dist[k]))
    }</span></li>`;
  });

  const filters = [null, 5, 4, 3, 2, 1].map((n) =>
    markup`<li><a href="${link(1, n)}"${q.rating === n ? markup` aria-current="page"` : ''}>${
      n === null ? 'All ratings' : `${n} ★`
    }</a></li>`
  );

  const reviews = data.reviews.items.map((r) =>
    markup`<article class="review">
<div class="stars-row" role="img" aria-label="Rated ${r.rating} out of 5">${stars(r.rating)}</div>
${r.title ? markup`<h3>${r.title}</h3>` : ''}
<p>${r.content}</p>
<div class="meta"><span>${r.reviewer_name}</span><time datetime="${r.created_at}">${formatDate(r.created_at)}</time>${
      r.verification_status === 'verified'
        ? markup`<span class="badge">${BADGE[r.verification_method ?? 'manual']}</span>`
        : ''
    }</div>
${
      r.reply
        ? markup`<div class="reply"><p class="reply-by">Reply from ${p.name} <time datetime="${r.reply.updated_at}">${
          formatDate(r.reply.updated_at)
        }</time></p><p>${r.reply.content}</p></div>`
        : ''
    }
</article>`
  );

  const body = markup`<header class="brand">${
    logo ? markup`<img src="${logo}" alt="${p.name} logo" width="64" height="64">` : ''
  }<div><h1>${p.name}</h1>${
    website
      ? markup`<p class="site"><a href="${website}" rel="noopener">${website.replace(/^https?:\/\//, '')}</a></p>`
      : ''
  }</div></header>
${p.description ? markup`<p>${p.description}</p>` : ''}
<section class="score" aria-labelledby="score-h">
<h2 id="score-h" class="trap">Rating</h2>
<div><div class="avg">${average === null ? '–' : average.toFixed(1)}</div></div>
<div><div class="stars-row" role="img" aria-label="${
    average === null ? 'No rating yet' : `Rated ${average.toFixed(1)} out of 5`
  }">${stars(average ?? 0)}</div><p class="count">${COUNT.format(count)} review${count === 1 ? '' : 's'}</p></div>
<ul class="bars" aria-label="Reviews per rating">${bars}</ul>
</section>
<section aria-labelledby="reviews-h">
<h2 id="reviews-h">Reviews${q.rating ? ` rated ${q.rating}` : ''}</h2>
<nav aria-label="Filter by rating"><ul class="filter">${filters}</ul></nav>
${
    reviews.length
      ? reviews
      : markup`<p class="empty">${q.rating ? `No ${q.rating}-star reviews yet.` : 'No reviews yet.'}</p>`
  }
${
    prev || next
      ? markup`<nav class="pages" aria-label="Pages">${
        prev ? markup`<a href="${prev}" rel="prev">← Newer reviews</a>` : markup`<span></span>`
      }<span>Page ${q.page} of ${lastPage}</span>${
        next ? markup`<a href="${next}" rel="next">Older reviews →</a>` : markup`<span></span>`
      }</nav>`
      : ''
  }
</section>
<p class="fine">Reviews of ${p.name}, collected and published with Plaudit. A business can hide a review only with a recorded reason, kept in a tamper-evident trail.</p>`;

  return page({ title, body, indexable: true, head, style: STYLE });
}

export function profilePages() {
  const app = new Hono<AppEnv>();

  app.get('/p/:slug', async (c) => {
    const slug = c.req.param('slug');
    const q = readQuery(c);
    if (typeof q === 'string') return publicNotFound(c, 400, 'This page does not exist', q);
    const out = await conditionalPublicRead<PageData>(
      c,
      `profile-page:${slug}:${q.page}:${q.rating ?? ''}`,
      () => publicProfileVersion(c.var.sql, slug),
      async () => {
        const [profile, [row]] = await Promise.all([
          loadPublicProfile(c.var.sql, slug),
          runAsPublic(c.var.sql, (tx) =>
            tx<{ r: ReviewPage | null }[]>`
            select plaudit.public_profile_reviews(${slug}, ${q.rating}, ${q.page}, ${PER_PAGE}) as r`),
        ]);
        if (!profile) return null;
        if (!profile.enabled || !row.r) return { version: profile.version, absent: true as const };
        return { version: profile.version, profile, reviews: row.r };
      },
    );
    if ('notModified' in out) {
      c.header('Cache-Control', PAGE_CACHE_CONTROL);
      return out.notModified;
    }
    if (!out.data) {
      return publicNotFound(
        c,
        404,
        'No such business',
        'There is no public page at this address. The link may be mistyped, or the business no longer shows its reviews here.',
      );
    }
    const lastPage = Math.max(1, Math.ceil(Number(out.data.reviews.total) / PER_PAGE));
    if (q.page > lastPage) {
      return publicNotFound(c, 404, 'No such page', `This business's reviews end at page ${lastPage}.`);
    }
    c.header('Cache-Control', PAGE_CACHE_CONTROL);
    return publicPage(c, 200, render(c.var.config.publicUrl, slug, out.data, q));
  });

  return app;
}
