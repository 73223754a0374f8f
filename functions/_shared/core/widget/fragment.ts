// The widget's first view as an HTML fragment a shop's server includes in its own page: the same
// elements, classes and words the widget draws (widget/src/widget.tsx, product.tsx, gallery.tsx), so
// that the widget, finding it in its container, renders over it node for node (no second read of
// the first page, nothing moves) and only adds what reacts. The root carries what the widget draws
// from (`data-plaudit-state`, JSON in an attribute) and the container's own data attributes; its
// styles are the widget's, scoped to the root class (fragment-styles.ts). Every value is escaped
// (markup``); the JSON-LD cannot close its script element (jsonForScript).
import type { AttributeSummaryItem } from '../attributes.ts';
import { jsonForScript, markup, raw, type SafeHtml } from '../html.ts';
import { foldedText } from '../review-fold.ts';
import { figure, oneDecimal, reviewDate, starFraction, starGlyphs } from './figures.ts';
import { PLATFORMS, type Strings, stringsFor } from './strings.ts';
import { FRAGMENT_CLASS, FRAGMENT_STYLES } from './fragment-styles.ts';

/** A public review item, as the public routes answer it (the fields the widget shows). */
export interface FragmentReview {
  id: string;
  rating: number;
  title: string | null;
  content: string;
  reviewer_name: string;
  verification_status: string;
  verification_method: string | null;
  source_platform: string | null;
  incentivized: boolean;
  product: { external_id: string; name: string } | null;
  media: {
    id: string;
    type: string;
    url: string;
    thumbnail_url: string | null;
    width: number | null;
    height: number | null;
  }[];
  reply: { content: string } | null;
  helpful_count: number;
  created_at: string;
}

/** Where a fragment's links and votes go: the API's base and the business's slug. */
export interface FragmentPlace {
  base: string;
  slug: string;
  locale: string;
}

/** The business widget's data (what `Widget` draws from), its layout and theme decided. */
export interface BusinessView {
  name: string;
  url: string;
  layout: string;
  theme: string;
  max_reviews: number;
  min_rating: number;
  average_rating: number | null;
  review_count: number;
  reviews: FragmentReview[];
  /** A review bombing hold is open: the notice shows (widget.tsx, Checking). */
  checking_recent_reviews?: boolean;
}

/** The product widget's data (what `ProductWidget` draws from). */
export interface ProductView {
  product: {
    external_id: string;
    name: string;
    average_rating: number | null;
    review_count: number;
    rating_distribution: Record<'1' | '2' | '3' | '4' | '5', number>;
    /** The answers to scale and rating fields (attributes.tsx draws them). */
    attributes: AttributeSummaryItem[];
    checking_recent_reviews?: boolean;
  };
  first: { data: FragmentReview[]; meta: { page: number; totalPages: number } };
  sort: string;
  limit: number;
  theme: string;
}

const SORTS = ['newest', 'oldest', 'highest', 'lowest', 'helpful'];

const reportPage = (p: FragmentPlace, id: string) => `${p.base}/p/${encodeURIComponent(p.slug)}/reviews/${id}/report`;

const stars = (rating: number, t: Strings) =>
  markup`<span class="st" style="--f:${starFraction(rating)}" role="img" aria-label="${t.rated(figure(rating, t))}">${
    starGlyphs(rating)
  }</span>`;

/** The summary line: the name, the stars and average (with reviews), the count. */
/** The notice of a review bombing hold (widget.tsx, Checking). */
const checking = (on: boolean | undefined, t: Strings) =>
  on ? markup`<p class="ck" role="status">${t.checking}</p>` : '';

const head = (name: string, average: number | null, count: string, t: Strings) =>
  markup`<div class="head"><p class="name">${name}</p>${
    average === null ? '' : markup`${stars(average, t)}<span class="avg">${oneDecimal(average)}</span>`
  }<span class="mu">${count}</span></div>`;

function gallery(media: FragmentReview['media'], t: Strings): SafeHtml {
  const photos = media.filter((m) => m.type === 'image' && m.width && m.thumbnail_url);
  const k = photos.length;
  const p = photos[0];
  const items = media.map((m) => {
    const i = photos.indexOf(m);
    return i < 0
      ? markup`<li><a href="${m.url}" target="_blank" rel="noopener">${t.video}</a></li>`
      : markup`<li><button type="button"><img src="${m.thumbnail_url}" width="${m.width}" height="${m.height}" loading="lazy" alt="${
        t.photo(i + 1, k)
      }"></button></li>`;
  });
  const arrows = k > 1
    ? markup`<button type="button" aria-label="${t.photo(k, k)}">←</button><button type="button" aria-label="${
      t.photo(2, k)
    }">→</button>`
    : '';
  return markup`<div><ul class="md">${items}</ul>${
    k > 0
      ? markup`<dialog aria-modal="true" aria-label="${
        t.photo(1, k)
      }"><img src="${p.url}" width="${p.width}" height="${p.height}" alt="${
        t.photo(1, k)
      }"><div class="nav">${arrows}<button type="button">${t.close}</button></div></dialog>`
      : ''
  }</div>`;
}

interface ReviewOptions {
  replyLabel: string;
  card?: boolean;
  viewing?: string;
  /** Inside a card's dialog: the whole review, never folded. */
  whole?: boolean;
}

function review(r: FragmentReview, t: Strings, place: FragmentPlace, o: ReviewOptions): SafeHtml {
  const folded = !o.card && !o.whole && foldedText(r.content);
  const platform = r.source_platform && PLATFORMS[r.source_platform];
  return markup`<li class="r">${stars(r.rating, t)}${
    r.title && !o.card ? markup`<p class="title">${r.title}</p>` : ''
  }<p class="tx">${o.card && r.title ? markup`<strong>${`${r.title} `}</strong>` : ''}${folded || r.content}</p>${
    folded ? markup`<button type="button" aria-expanded="false">${t.readMore}</button>` : ''
  }${
    !o.card && r.media.length > 0 ? gallery(r.media, t) : ''
  }<div class="meta mu"><span>${r.reviewer_name}</span><time datetime="${r.created_at}">${
    reviewDate(r.created_at, place.locale)
  }</time>${
    o.viewing && r.product && r.product.external_id !== o.viewing
      ? markup`<span class="vr">${t.variant(r.product.name)}</span>`
      : ''
  }${
    r.verification_status === 'verified' ? markup`<span class="badge">${t.verified(r.verification_method)}</span>` : ''
  }${r.incentivized ? markup`<span class="lb">${t.incentivized}</span>` : ''}${
    r.source_platform ? markup`<span class="lb">${t.imported(platform ?? '')}</span>` : ''
  }</div>${
    !o.card && r.reply
      ? markup`<div class="reply"><p class="mu">${o.replyLabel}</p><p>${r.reply.content}</p></div>`
      : ''
  }<div class="meta sig"><button type="button" class="hb" aria-pressed="false">${
    t.helpful(r.helpful_count)
  }</button><a class="mu" href="${reportPage(place, r.id)}" target="_blank" rel="noopener nofollow">${t.report}</a>${
    o.card && (r.media.length || r.reply)
      ? markup`<button type="button" aria-haspopup="dialog">${t.readMore}</button>`
      : ''
  }</div>${
    o.card
      ? markup`<dialog class="rv" aria-label="${t.region(r.reviewer_name)}"><ul>${
        review(r, t, place, { ...o, card: false, whole: true })
      }</ul><div class="nav"><button type="button">${t.close}</button></div></dialog>`
      : ''
  }</li>`;
}

/** The business widget's view (widget.tsx, Widget). */
function businessSection(v: BusinessView, t: Strings, place: FragmentPlace): SafeHtml {
  const reviews = v.reviews.filter((r) => r.rating >= v.min_rating).slice(0, v.max_reviews);
  const card = v.layout === 'carousel';
  const opts = { replyLabel: t.replyFrom(v.name), card };
  return markup`<section class="w ${v.layout} ${v.theme}" aria-label="${t.region(v.name)}">${
    head(v.name, v.average_rating, t.reviews(v.review_count), t)
  }${checking(v.checking_recent_reviews, t)}<ul class="items" tabindex="0" aria-label="${t.region(v.name)}">${
    reviews.map((r) => review(r, t, place, opts))
  }</ul><div class="ft"><a class="all" href="${v.url}" target="_top">${
    t.seeAll(v.review_count)
  }</a><a class="mu" href="${v.url}/transparency" target="_top">${t.transparency}</a>${
    card && reviews.length > 1
      ? markup`<div class="nav"><button type="button" aria-label="${t.previous}">←</button><button type="button" aria-label="${t.next}">→</button></div>`
      : ''
  }</div></section>`;
}

/** The answers' bars and stars (attributes.tsx, Attributes). */
function attributes(items: AttributeSummaryItem[], t: Strings): SafeHtml | '' {
  if (!items.length) return '';
  return markup`<dl class="at">${
    items.map((a) =>
      markup`<div><dt>${a.label}</dt><dd>${
        a.average
          ? markup`${stars(a.average, t)} ${oneDecimal(a.average)} <span class="mu">(${a.count})</span>`
          : markup`<ul class="bars">${
            Object.entries(a.distribution).map(([label, k]) =>
              markup`<li class="ab"><span>${label}</span><span class="bar"><span style="width:${
                Math.round((k / a.count) * 100)
              }%"></span></span><span class="mu">${k}</span></li>`
            )
          }</ul>`
      }</dd></div>`
    )
  }</dl>`;
}

/** The product's tabs, its reviews shown (questions.tsx, QuestionsTab); the widget opens the questions. */
const questionsTabs = (t: Strings) =>
  markup`<div class="qtab"><div role="tablist">${
    t.tabs.map((name, i) =>
      markup`<button role="tab" type="button" aria-selected="${i === 0 ? 'true' : 'false'}">${name}</button>`
    )
  }</div></div>`;

/** The product widget's view (product.tsx, ProductWidget). */
function productSection(v: ProductView, t: Strings, place: FragmentPlace, pageUrl: string): SafeHtml {
  const p = v.product;
  const count = p.review_count;
  const bars = [5, 4, 3, 2, 1].map((n) => {
    const k = p.rating_distribution[String(n) as '1'];
    return markup`<li><button type="button" aria-pressed="false" aria-label="${n} ★: ${
      t.reviews(k)
    }"><span>${n} ★</span><span class="bar"><span style="width:${
      Math.round((k / count) * 100)
    }%"></span></span><span class="mu">${k}</span></button></li>`;
  });
  const options = SORTS.map((s, i) =>
    markup`<option value="${s}"${raw(s === v.sort ? ' selected' : '')}>${t.sorts[i]}</option>`
  );
  return markup`<section class="w list ${v.theme}" aria-label="${t.region(p.name)}">${
    head(p.name, p.average_rating, count ? t.reviews(count) : t.noReviews, t)
  }${checking(p.checking_recent_reviews, t)}${questionsTabs(t)}${
    count > 0 ? markup`<ul class="bars">${bars}</ul>` : ''
  }${attributes(p.attributes, t)}${
    count > 0
      ? markup`<div class="ctl"><label>${t.sortBy} <select>${options}</select></label><button type="button" class="hb" aria-pressed="false">${t.withPhotos}</button></div>`
      : ''
  }<ul class="items" tabindex="0" aria-label="${t.region(p.name)}">${
    v.first.data.map((r) => review(r, t, place, { replyLabel: t.sellerReply, viewing: p.external_id }))
  }</ul><div class="ctl end">${
    v.first.meta.page < v.first.meta.totalPages ? markup`<button type="button">${t.more}</button>` : ''
  }${count > 0 ? markup`<a href="${pageUrl}" target="_top">${t.seeAll(count)}</a>` : ''}</div></section>`;
}

/**
 * The fragment's root: a widget container (`data-plaudit-widget`, the slug, the product, the API's
 * base), its scoped styles, the view inside `.root` with the state it was drawn from, and the JSON-LD.
 */
function fragment(place: FragmentPlace, state: object, view: SafeHtml, product?: string, jsonLd?: unknown): string {
  return markup`<div class="${FRAGMENT_CLASS}" data-plaudit-widget data-slug="${place.slug}"${
    product === undefined ? '' : markup` data-product="${product}"`
  } data-api="${place.base}" lang="${stringsFor(place.locale).lang}"><style>${
    raw(FRAGMENT_STYLES)
  }</style><div class="root" data-plaudit-state="${JSON.stringify({ ...state, locale: place.locale })}">${view}</div>${
    jsonLd === undefined ? '' : markup`<script type="application/ld+json">${jsonForScript(jsonLd)}</script>`
  }</div>\n`.value;
}

export function businessFragment(v: BusinessView, place: FragmentPlace): string {
  return fragment(place, { business: v }, businessSection(v, stringsFor(place.locale), place));
}

export function productFragment(v: ProductView, place: FragmentPlace, jsonLd: unknown): string {
  const id = v.product.external_id;
  const pageUrl = `${place.base}/p/${encodeURIComponent(place.slug)}/products/${encodeURIComponent(id)}`;
  return fragment(place, { product: v }, productSection(v, stringsFor(place.locale), place, pageUrl), id, jsonLd);
}
