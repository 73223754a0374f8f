// What the public pages that list reviews share (the business's profile page and a product's
// page): the query they take (?page=, ?rating=, ?sort=, ?has_media=true, and ?helpful= after a vote), the score with
// its distribution bars, the rating filter and the sort as links (the pages have no script), a
// review as an article with its "Helpful (n)" form and "Report" link (review-signals.ts), the pager,
// their styles and their caching. Every value is escaped by markup``.
import { stringsFor } from '../../core/widget/strings.ts';
import { type ImportFormat, PLATFORM_NAMES } from '../../core/imports/formats.ts';
import type { Context } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { MAX_PAGE } from '../http/pagination.ts';
import { markup, raw, type SafeHtml } from './html.ts';
import { fitWithin, THUMBNAIL_LONGEST_SIDE } from '../../core/media/limits.ts';
import { PHOTO_VIEWER } from './photo-viewer.ts';
import { foldedText } from '../../core/review-fold.ts';
import { languageName, readerLanguage } from '../../core/language/detect.ts';
import { DAY } from '../../core/day.ts';

export const REVIEWS_PER_PAGE = 10;

/** The notice of a review bombing hold on the pages, in the widget's words (core/widget/strings.ts). */
export const CHECKING_NOTICE = stringsFor('en').checking;

/** The orders a page offers, as the public lists name them, with their words. */
const SORTS = {
  newest: 'Newest',
  oldest: 'Oldest',
  helpful: 'Most helpful',
  highest: 'Highest rated',
  lowest: 'Lowest rated',
} as const;
type Sort = keyof typeof SORTS;

/**
 * `media`: only reviews with photos or videos; `helpful`: the review the visitor just found helpful (the page thanks them
 * under it), or null.
 */
export type ListQuery = {
  page: number;
  rating: number | null;
  sort: Sort;
  media: boolean;
  helpful: string | null;
  /** The reader's language (ISO 639-1, from `Accept-Language`): reviews written in it come first. */
  reader: string | null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What selects a list page's rendering, for its cache variant. */
export const listVariant = (q: ListQuery) =>
  `${q.page}:${q.rating ?? ''}:${q.sort}:${q.media ? 'media' : ''}:${q.helpful ?? ''}:${q.reader ?? ''}`;

/** A public review item, as plaudit.public_review_json writes it. */
export type ReviewItem = {
  id: string;
  rating: number;
  title: string | null;
  content: string;
  reviewer_name: string;
  verification_status: 'verified' | 'unverified';
  verification_method: 'email' | 'purchase_proof' | 'manual' | 'invitation' | null;
  source: 'form' | 'invitation' | 'import';
  source_platform: ImportFormat | null;
  incentivized: boolean;
  media: {
    id: string;
    type: 'image' | 'video';
    url: string;
    thumbnail_url: string | null;
    width: number | null;
    height: number | null;
  }[];
  reply: { content: string; created_at: string; updated_at: string } | null;
  /** The product it was written about (its external id and name), or null for a review of the business. */
  product: { external_id: string; name: string } | null;
  helpful_count: number;
  /** The language it is written in (ISO 639-1), or null when too short to tell. */
  language: string | null;
  /** The answers to the form's scale and rating fields, by key. */
  attributes: Record<string, string | number>;
  created_at: string;
};

export type Distribution = Record<'1' | '2' | '3' | '4' | '5', number>;

const BADGE: Record<string, string> = {
  email: 'Verified by e-mail',
  purchase_proof: 'Verified purchase',
  invitation: 'Verified by invitation',
  manual: 'Verified by the business',
};

export const REVIEW_LIST_STYLE = raw(`
.checking{border-left:4px solid #9a6700;background:#fff8c5;padding:.75rem 1rem;margin:1rem 0;border-radius:.25rem}
.score{display:grid;grid-template-columns:auto 1fr;gap:1rem 1.5rem;align-items:center;border:1px solid #d0d7de;border-radius:.75rem;padding:1rem 1.25rem;margin:1.25rem 0}
.avg{font-size:2.5rem;font-weight:700;line-height:1}
.stars-row{color:transparent;font-size:1.25rem;letter-spacing:.05em;position:relative;display:inline-block;white-space:nowrap}
.stars-row::before,.stars-row::after{content:"★★★★★";color:#c8ced6;position:absolute;left:0;top:0}
.stars-row::after{color:#9a6700;clip-path:inset(0 calc(100% - var(--fill)) 0 0)}
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
.sort{font-size:.95rem;color:#57606a;margin:0 0 1rem;display:flex;flex-wrap:wrap;gap:.25rem .75rem}
.sort a{color:#0969da;white-space:nowrap}
.sort a[aria-current=page]{color:#1f2328;font-weight:700;text-decoration:none}
.review{border-top:1px solid #d0d7de;padding:1rem 0}
.review h3{font-size:1.05rem;margin:.35rem 0}
.review p{margin:.35rem 0;white-space:pre-line;overflow-wrap:anywhere}
.fold summary{color:#0969da;cursor:pointer;text-decoration:underline;width:max-content;padding:.2rem 0}
.fold summary::marker{content:""}
.fold[open] .more,.fold:not([open]) .less,.review:has(.fold[open])>.excerpt{display:none}
.meta{color:#57606a;font-size:.9rem;display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:center}
.badge,.label{display:inline-block;background:#dafbe1;color:#116329;border-radius:1rem;padding:.05rem .6rem;font-size:.85rem;font-weight:600}
.label{background:#fff8c5;color:#6a4a00}
.lang{color:#57606a;font-style:italic}
.variant{color:#1f2328;font-weight:600}
.media{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;margin:.6rem 0;padding:0}
.media img{display:block;height:6rem;width:auto;max-width:100%;border-radius:.4rem;border:1px solid #d0d7de;object-fit:cover}
.media a{color:#0969da}
.viewer{width:min(92vw,60rem);height:min(88vh,48rem);padding:.75rem;border:0;border-radius:.75rem}
.viewer::backdrop{background:#000b}
.viewer img{display:block;width:100%;height:calc(100% - 2.75rem);object-fit:contain}
.viewer div{display:flex;justify-content:flex-end;gap:.5rem;margin-top:.5rem}
.viewer button{width:auto;padding:.3rem .9rem;background:#fff;color:#1f2328;border:1px solid #8c959f;border-radius:1rem}
.media .video{display:flex;align-items:center;height:6rem;padding:0 1rem;border:1px solid #d0d7de;border-radius:.4rem}
.reply{border-left:3px solid #d0d7de;margin:.6rem 0 0;padding:0 0 0 .8rem}
.reply-by{color:#57606a;font-size:.9rem;font-weight:600}
.pages{display:flex;justify-content:space-between;gap:1rem;margin-top:1.5rem}
.pages a{color:#0969da}
.empty{color:#57606a}
.signals{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;margin:.6rem 0 0;font-size:.9rem}
.signals form{margin:0}
.signals button{width:auto;padding:.3rem .8rem;background:#fff;color:#1f2328;border:1px solid #8c959f;font-weight:600}
.signals a{color:#57606a}
.thanks{color:#116329;font-weight:600}
`);

/** A rating as said aloud: an average to its second decimal (4.75) with at least one (4.0). */
const AVERAGE = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 2 });

/**
 * Drawn stars named by their rating ("Rated 4.75 out of 5"): five grey stars, and five gold ones
 * clipped to the rating's fraction (the styles' `--fill`). The rounded glyphs stay the element's
 * text, for readers without styles and for copying.
 */
export function stars(rating: number | null, { average = true, tag = 'span' } = {}): SafeHtml {
  const label = rating === null ? 'No rating yet' : `Rated ${average ? AVERAGE.format(rating) : rating} out of 5`;
  const full = Math.round(rating ?? 0);
  return markup`<${raw(tag)} class="stars-row" role="img" aria-label="${label}" style="--fill:${(rating ?? 0) * 20}%">${
    '★'.repeat(full) + '☆'.repeat(5 - full)
  }</${raw(tag)}>`;
}

// One formatter each, made once: building an Intl formatter per value costs more than the page.
export const COUNT = new Intl.NumberFormat('en');

function formatDate(iso: string): string {
  return DAY.format(new Date(iso));
}

export const reviewsWord = (n: number) => `${COUNT.format(n)} review${n === 1 ? '' : 's'}`;

export { jsonForScript } from '../../core/html.ts';

/** ?page=, 1 without it, or the message of a 400. */
export function readPageNumber(c: Context<AppEnv>): number | string {
  const rawPage = c.req.query('page');
  const page = rawPage === undefined ? 1 : Number(rawPage);
  if (!/^\d{1,7}$/.test(rawPage ?? '1') || page < 1 || page > MAX_PAGE) {
    return `page must be a whole number from 1 to ${COUNT.format(MAX_PAGE)}.`;
  }
  return page;
}

/**
 * ?page=, ?rating= and ?sort=, or the message of a 400; the reader's language from `Accept-Language`
 * (the answer varies by it: `Vary: Accept-Language`).
 */
export function readListQuery(c: Context<AppEnv>): ListQuery | string {
  const rawRating = c.req.query('rating');
  const sort = c.req.query('sort') || 'newest';
  const page = readPageNumber(c);
  if (typeof page === 'string') return page;
  if (rawRating !== undefined && rawRating !== '' && !/^[1-5]$/.test(rawRating)) {
    return 'rating must be 1, 2, 3, 4 or 5.';
  }
  if (!Object.hasOwn(SORTS, sort)) return 'sort must be newest, oldest, helpful, highest or lowest.';
  const media = c.req.query('has_media');
  if (media !== undefined && media !== 'true') return 'has_media must be true.';
  const helpful = c.req.query('helpful')?.toLowerCase() ?? '';
  c.header('Vary', 'Accept-Language', { append: true });
  return {
    page,
    rating: rawRating ? Number(rawRating) : null,
    sort: sort as Sort,
    media: media === 'true',
    helpful: UUID.test(helpful) ? helpful : null,
    reader: readerLanguage(c.req.header('accept-language')),
  };
}

/** The address of a variant of a list page: the plain page carries no query. */
function listLink(pageUrl: string, q: ListQuery): string {
  const params = new URLSearchParams();
  if (q.rating) params.set('rating', String(q.rating));
  if (q.sort !== 'newest') params.set('sort', q.sort);
  if (q.media) params.set('has_media', 'true');
  if (q.page > 1) params.set('page', String(q.page));
  const qs = params.toString();
  return `${pageUrl}${qs ? `?${qs}` : ''}`;
}

export const lastPageOf = (total: number) => Math.max(1, Math.ceil(Number(total) / REVIEWS_PER_PAGE));

/** The last page, and the addresses of the pages before and after this one (null at the ends). */
function neighbours(pageUrl: string, q: ListQuery, total: number) {
  const lastPage = lastPageOf(total);
  return {
    lastPage,
    prev: q.page > 1 ? listLink(pageUrl, { ...q, page: q.page - 1 }) : null,
    next: q.page < lastPage ? listLink(pageUrl, { ...q, page: q.page + 1 }) : null,
  };
}

/** The average, its stars, the count and the bars per rating, each bar linking to its filter (in the same order). */
function scoreSection(
  pageUrl: string,
  q: ListQuery,
  average: number | null,
  count: number,
  dist: Distribution,
): SafeHtml {
  const linkTo = (rating: number) => listLink(pageUrl, { ...q, page: 1, rating });
  const bars = [5, 4, 3, 2, 1].map((n) => {
    const k = String(n) as keyof Distribution;
    const share = count > 0 ? Math.round((Number(dist[k]) / count) * 100) : 0;
    return markup`<li><a href="${linkTo(n)}">${n} star${
      n === 1 ? '' : 's'
    }</a><span class="bar" role="img" aria-label="${share}% of reviews"><span style="width:${share}%"></span></span><span class="num">${
      COUNT.format(Number(dist[k]))
    }</span></li>`;
  });
  return markup`<section class="score" aria-labelledby="score-h">
<h2 id="score-h" class="trap">Rating</h2>
<div><div class="avg">${average === null ? '–' : average.toFixed(1)}</div></div>
<div>${stars(average, { tag: 'div' })}<p class="count">${reviewsWord(count)}</p></div>
<ul class="bars" aria-label="Reviews per rating">${bars}</ul>
</section>`;
}

/**
 * A review's photos and videos: each photo's thumbnail, sized by its attributes before it loads and
 * loaded only near the screen, a link to the photo at full size; each video, a link to it.
 */
const isPhoto = (m: ReviewItem['media'][number]) => m.type === 'image' && !!m.thumbnail_url && !!m.width && !!m.height;

function reviewMedia(r: ReviewItem): SafeHtml | '' {
  if (!r.media?.length) return '';
  let photo = 0;
  let video = 0;
  const items = r.media.map((m) => {
    if (!isPhoto(m)) {
      video += 1;
      return markup`<li><a class="video" href="${m.url}">Video ${video} from ${r.reviewer_name}</a></li>`;
    }
    photo += 1;
    const size = fitWithin(m.width!, m.height!, THUMBNAIL_LONGEST_SIDE);
    return markup`<li><a class="photo" href="${m.url}"><img src="${m.thumbnail_url}" width="${size.width}" height="${size.height}" loading="lazy" decoding="async" alt="Photo ${photo} from ${r.reviewer_name}, opens at full size"></a></li>`;
  });
  return markup`<ul class="media" aria-label="Photos and videos from ${r.reviewer_name}">${items}</ul>`;
}

/**
 * A review's text; a long one folded as the widget folds it, its first characters and a native
 * <details> whose "Read more" shows the whole text (no script), and "Show less" folds it again.
 */
function reviewText(content: string): SafeHtml {
  const excerpt = foldedText(content);
  return excerpt === null
    ? markup`<p>${content}</p>`
    : markup`<p class="excerpt">${excerpt}</p><details class="fold"><summary><span class="more">Read more</span><span class="less">Show less</span></summary><p>${content}</p></details>`;
}

/**
 * Where a review's vote and report go, and the list page to come back to; on a product's page, the
 * product shown (`viewing`, its external id), so that a review of another of its group names its own.
 */
type Signals = { profileUrl: string; back: string; thanked: string | null; viewing?: string; reader: string | null };

/** A review as an article: its stars, title, text, reviewer, date, badge, what it was labelled (an
 * incentive, an import, a language other than the reader's), the business's reply, and its signals. */
function reviewArticle(r: ReviewItem, business: string, signals: Signals): SafeHtml {
  const otherLanguage = r.language && signals.reader && r.language !== signals.reader ? languageName(r.language) : null;
  const words = markup`${r.title ? markup`<h3>${r.title}</h3>` : ''}
${reviewText(r.content)}`;
  return markup`<article class="review" id="review-${r.id}">
${stars(r.rating, { average: false, tag: 'div' })}
${r.language ? markup`<div lang="${r.language}">${words}</div>` : words}
${reviewMedia(r)}
<div class="meta"><span>${r.reviewer_name}</span><time datetime="${r.created_at}">${formatDate(r.created_at)}</time>${
    signals.viewing && r.product && r.product.external_id !== signals.viewing
      ? markup`<span class="variant">Variant: ${r.product.name}</span>`
      : ''
  }${
    r.verification_status === 'verified'
      ? markup`<span class="badge">${BADGE[r.verification_method ?? 'manual']}</span>`
      : ''
  }${r.incentivized ? markup`<span class="label">Received an incentive for this review</span>` : ''}${
    r.source === 'import' && r.source_platform
      ? markup`<span class="label">Imported from ${PLATFORM_NAMES[r.source_platform]}</span>`
      : ''
  }${otherLanguage ? markup`<span class="lang">Written in ${otherLanguage}</span>` : ''}</div>
${
    r.reply
      ? markup`<div class="reply"><p class="reply-by">Reply from ${business} <time datetime="${r.reply.updated_at}">${
        formatDate(r.reply.updated_at)
      }</time></p><p>${r.reply.content}</p></div>`
      : ''
  }
${signalsOf(r, signals)}
</article>`;
}

/** The review's "Helpful (n)" form and "Report" link: plain HTML, no script. */
function signalsOf(r: ReviewItem, { profileUrl, back, thanked }: Signals): SafeHtml {
  const base = `${profileUrl}/reviews/${r.id}`;
  const count = Number(r.helpful_count);
  return markup`<div class="signals"><form method="post" action="${base}/helpful"><input type="hidden" name="back" value="${back}"><button type="submit" aria-label="Helpful: ${
    COUNT.format(count)
  } ${count === 1 ? 'person' : 'people'} found this review helpful">Helpful (${COUNT.format(count)})</button></form>${
    thanked === r.id ? markup`<span class="thanks" role="status">Thank you for your vote</span>` : ''
  }<a href="${base}/report?${new URLSearchParams({ back })}" rel="nofollow">Report</a></div>`;
}

/** Links to the pages before and after this one, and where it stands; nothing on a lone page. */
export function pager(
  { prev, next, page, lastPage }: { prev: string | null; next: string | null; page: number; lastPage: number },
  [before, after] = ['← Previous page', 'Next page →'],
): SafeHtml | '' {
  if (!prev && !next) return '';
  return markup`<nav class="pages" aria-label="Pages">${
    prev ? markup`<a href="${prev}" rel="prev">${before}</a>` : markup`<span></span>`
  }<span>Page ${page} of ${lastPage}</span>${
    next ? markup`<a href="${next}" rel="next">${after}</a>` : markup`<span></span>`
  }</nav>`;
}

/** The reviews section: the rating filter and the sort as links, the page's reviews, the pager. */
function reviewsSection(
  { pageUrl, profileUrl, q, items, total, business, viewing }: {
    pageUrl: string;
    profileUrl: string;
    q: ListQuery;
    items: ReviewItem[];
    total: number;
    business: string;
    viewing?: string;
  },
): SafeHtml {
  const { lastPage, prev, next } = neighbours(pageUrl, q, total);
  const here = new URL(listLink(pageUrl, q));
  const signals: Signals = {
    profileUrl,
    back: `${here.pathname}${here.search}`,
    thanked: q.helpful,
    viewing,
    reader: q.reader,
  };
  const filters = [null, 5, 4, 3, 2, 1].map((n) =>
    markup`<li><a href="${listLink(pageUrl, { ...q, page: 1, rating: n })}"${
      q.rating === n ? markup` aria-current="page"` : ''
    }>${n === null ? 'All ratings' : `${n} ★`}</a></li>`
  ).concat(
    markup`<li><a href="${listLink(pageUrl, { ...q, page: 1, media: !q.media })}"${
      q.media ? markup` aria-current="page"` : ''
    }>With photos</a></li>`,
  );
  const sorts = (Object.entries(SORTS) as [Sort, string][]).map(([sort, words]) =>
    markup`<a href="${listLink(pageUrl, { ...q, page: 1, sort })}"${
      q.sort === sort ? markup` aria-current="page"` : ''
    }>${words}</a>`
  );
  const byDate = q.sort === 'newest';
  return markup`<section aria-labelledby="reviews-h">
<h2 id="reviews-h">Reviews${q.rating ? ` rated ${q.rating}` : ''}${q.media ? ' with photos' : ''}</h2>
<nav aria-label="Filter reviews"><ul class="filter">${filters}</ul></nav>
<nav class="sort" aria-label="Sort reviews">Sort:${sorts}</nav>
${
    items.length
      ? items.map((r) => reviewArticle(r, business, signals))
      : markup`<p class="empty">${
        q.rating
          ? `No ${q.rating}-star reviews${q.media ? ' with photos' : ''} yet.`
          : q.media
          ? 'No reviews with photos yet.'
          : 'No reviews yet.'
      }</p>`
  }
${pager({ prev, next, page: q.page, lastPage }, byDate ? ['← Newer reviews', 'Older reviews →'] : undefined)}
</section>${items.some((r) => r.media?.some(isPhoto)) ? PHOTO_VIEWER : ''}`;
}

/** rel=prev/next of a list page, and its canonical address: the same page, newest first, all ratings. */
export function listHeadLinks(pageUrl: string, q: ListQuery, total: number): SafeHtml {
  const canonical = listLink(pageUrl, { ...q, rating: null, sort: 'newest', media: false, helpful: null });
  const { prev, next } = neighbours(pageUrl, q, total);
  // The same reviews as markdown, for machines (machine-pages.ts).
  const twin = listLink(`${pageUrl}.md`, q);
  return markup`<link rel="canonical" href="${canonical}">
<link rel="alternate" type="text/markdown" href="${twin}">
${prev ? markup`<link rel="prev" href="${prev}">\n` : ''}${next ? markup`<link rel="next" href="${next}">\n` : ''}`;
}

/** What a page of reviews shows, the business's or a product's: the score with its bars, then the reviews. */
export function reviewListSections(
  { pageUrl, profileUrl, q, average, count, distribution, attributes = '', items, total, business, viewing, checking }:
    {
      pageUrl: string;
      /** The business's profile page, under which the reviews' votes and reports are posted. */
      profileUrl: string;
      q: ListQuery;
      average: number | null;
      count: number;
      distribution: Distribution;
      /** The answers to scale and rating fields, under the score (attribute-summary.ts). */
      attributes?: SafeHtml | '';
      items: ReviewItem[];
      total: number;
      business: string;
      /** On a product's page, the product shown (its external id): reviews of the others of its group name theirs. */
      viewing?: string;
      /** A review bombing hold is open on what the page shows (docs/compliance.md): its notice comes first. */
      checking?: boolean;
    },
): SafeHtml {
  return markup`${checking ? markup`<p class="checking" role="status">${CHECKING_NOTICE}</p>\n` : ''}${
    scoreSection(pageUrl, q, average, count, distribution)
  }${attributes}
${reviewsSection({ pageUrl, profileUrl, q, items, total, business, viewing })}`;
}
