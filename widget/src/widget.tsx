// One widget: the business, its rating, its latest public reviews, and a link to all of them.
// Review text is only ever text (Preact escapes it); nothing from the data becomes markup.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../sdk/src/generated/openapi.ts';
import type { PublicReview } from './data.ts';
import { Gallery } from './gallery.tsx';
import { PLATFORMS, type Strings, stringsFor } from './strings.ts';
import { type ReviewSummary, Summary } from './summary.tsx';
import { foldedText } from '../../functions/_shared/core/review-fold.ts';
import {
  figure,
  oneDecimal,
  reviewDate,
  starFraction,
  starGlyphs,
} from '../../functions/_shared/core/widget/figures.ts';

/** What GET /api/v1/public/embed/:slug answers, as the API's OpenAPI document declares it. */
export type EmbedData = components['schemas']['PublicEmbed'];

/** Where a review's vote goes (`…/public/reviews/<slug>`) and its report page (`…/p/<slug>/reviews`). */
export interface SignalUrls {
  api: string;
  page: string;
}

/** The signal addresses of a business's reviews, from the API's base and the slug. */
export const signalUrls = (base: string, slug: string): SignalUrls => ({
  api: `${base}/api/v1/public/reviews/${encodeURIComponent(slug)}`,
  page: `${base}/p/${encodeURIComponent(slug)}/reviews`,
});

export interface Options {
  signals: SignalUrls;
  layout?: string;
  theme?: string;
  maxReviews?: number;
  minRating?: number;
  locale: string;
  /** The reader's language (ISO 639-1): reviews written in it first, the others labelled. */
  reader: string | null;
  /** The summary, read with the embed data (main.tsx); none over a fragment, which reads nothing. */
  summary?: ReviewSummary | null;
}

export { figure, oneDecimal, starGlyphs };

/**
 * The reviews the reader can read first (written in their language, or too short to tell), then
 * the others, each part in its order.
 */
const readable = (r: PublicReview, reader: string) => !r.language || r.language == reader;
export const readerFirst = (reviews: PublicReview[], reader: string | null) =>
  reader ? reviews.filter((r) => readable(r, reader)).concat(reviews.filter((r) => !readable(r, reader))) : reviews;

/**
 * A language's name in the widget's words ("German", "Deutsch"); its code where the browser has no
 * name. A review's language is always two letters (the API's), which DisplayNames never refuses.
 */
const languageName = (code: string, t: Strings) => new Intl.DisplayNames([t.lang], { type: 'language' }).of(code);
/**
 * Drawn stars: five grey ones, and five gold ones clipped to the rating's fraction (4.75: four
 * and three quarters; styles.ts). The rounded glyphs stay the element's text, for copying.
 */
export const drawn = (rating: number) => ({ class: 'st', style: { '--f': starFraction(rating) } });

/** The notice of a review bombing hold: recent reviews of what the widget shows are being checked. */
export const Checking = ({ on, t }: { on?: boolean; t: Strings }) =>
  on ? <p class='ck' role='status'>{t.checking}</p> : null;

export function Stars({ rating, t }: { rating: number; t: Strings }) {
  return (
    <span {...drawn(rating)} role='img' aria-label={t.rated(figure(rating, t))}>
      {starGlyphs(rating)}
    </span>
  );
}

/**
 * The visitor's helpful votes, kept in the host page's localStorage (`plaudit:helpful`, review id →
 * the count the vote answered, the newest 200): the embed answer is shared and cached, so it cannot
 * say who voted. None where storage is refused.
 */
const VOTES = 'plaudit:helpful';

function myVotes(): Record<string, number> {
  try {
    return JSON.parse(localStorage.getItem(VOTES)!) ?? {};
  } catch {
    return {};
  }
}

function remember(id: string, count: number): number {
  const votes = { ...myVotes(), [id]: count };
  try {
    localStorage.setItem(VOTES, JSON.stringify(Object.fromEntries(Object.entries(votes).slice(-200))));
  } catch {
    // storage refused: the vote shows until the page is left
  }
  return count;
}

/** The theme a container asks for (`data-theme`), else the saved one. */
export const themeOf = (asked: string | undefined, saved: string) =>
  ['light', 'dark', 'auto'].includes(asked ?? '') ? asked! : saved;

type ReviewProps = {
  r: PublicReview;
  t: Strings;
  locale: string;
  replyLabel: string;
  at: SignalUrls;
  /** A carousel's card: as tall as the carousel, its text clamped to the lines that fit, and "Read more" opening the whole review. */
  card?: boolean;
  /** The product a product widget shows: a review of another product of its group names its own. */
  viewing?: string;
  /** A card's dialog: the whole review, sharing the card's vote. */
  votes?: [number | undefined, (n: number) => void];
  /** The reader's language: a review written in another is labelled with its own. */
  reader?: string | null;
};

export function Review(props: ReviewProps) {
  const { r, t, locale, replyLabel, at, card } = props;
  const [open, setOpen] = useState(false);
  const mine = myVotes()[r.id];
  // The visitor's own vote: pressed, and counted over a cached answer that does not hold it yet.
  const own = useState(mine && Math.max(mine, r.helpful_count));
  const [helpful, setHelpful] = props.votes ?? own;
  // A card's text: the whole lines that fit (0: all of it fits).
  const [lines, setLines] = useState(0);
  const text = useRef<HTMLParagraphElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const more = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    const p = text.current!;
    const li = p.parentElement!;
    if (!card) return;
    // The text's whole lines that fit the space the card leaves it; one fewer while the card
    // overflows (its "Read more" takes some of the height).
    if (!lines && p.scrollHeight > p.clientHeight) {
      setLines(Math.max(1, Math.floor(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight))));
    } else if (lines > 1 && li.scrollHeight > li.clientHeight) setLines(lines - 1);
  }, [lines]);
  // One vote per visitor, counted by the API; a failed one leaves the button as it was.
  const vote = () =>
    fetch(`${at.api}/${r.id}/helpful`, { method: 'POST', credentials: 'omit' })
      .then((res) => res.ok && res.json())
      .then((b) => b && setHelpful(remember(r.id, b.helpful_count)), () => {});
  // A card does not fold by characters (it shows the lines that fit), nor its dialog.
  const folded = !card && !props.votes && foldedText(r.content);
  const date = reviewDate(r.created_at, locale);
  return (
    <li class='r'>
      <Stars rating={r.rating} t={t} />
      {r.title && !card && <p class='title' lang={r.language ?? undefined}>{r.title}</p>}
      <p
        ref={text}
        class='tx'
        lang={r.language ?? undefined}
        style={lines ? { WebkitLineClamp: lines, flex: 'none' } : undefined}
      >
        {
          // A card's title leads its text, so that the text has the most lines.
          card && r.title && <strong>{`${r.title} `}</strong>
        }
        {folded && !open ? folded : r.content}
      </p>
      {folded && (
        <button type='button' aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? t.readLess : t.readMore}
        </button>
      )}
      {!card && r.media.length > 0 && <Gallery media={r.media} t={t} />}
      <div class='meta mu'>
        <span>{r.reviewer_name}</span>
        <time dateTime={r.created_at}>{date}</time>
        {props.viewing && r.product && r.product.external_id !== props.viewing && (
          <span class='vr'>{t.variant(r.product.name)}</span>
        )}
        {r.verification_status === 'verified' && <span class='badge'>{t.verified(r.verification_method)}</span>}
        {r.incentivized && <span class='lb'>{t.incentivized}</span>}
        {r.source_platform && <span class='lb'>{t.imported(PLATFORMS[r.source_platform])}</span>}
        {props.reader && r.language && r.language != props.reader && (
          <span class='mu'>{t.writtenIn(languageName(r.language, t)!)}</span>
        )}
      </div>
      {!card && r.reply && (
        <div class='reply'>
          <p class='mu'>{replyLabel}</p>
          <p>{r.reply.content}</p>
        </div>
      )}
      <div class='meta sig'>
        <button type='button' class='hb' aria-pressed={helpful !== undefined} onClick={vote}>
          {t.helpful(helpful ?? r.helpful_count)}
        </button>
        <a class='mu' href={`${at.page}/${r.id}/report`} target='_blank' rel='noopener nofollow'>{t.report}</a>
        {card && (lines || r.media.length || r.reply) && (
          <button
            type='button'
            ref={more}
            aria-haspopup='dialog'
            onClick={() => dialog.current!.showModal()}
          >
            {t.readMore}
          </button>
        )}
      </div>
      {card && (
        // The whole review, its photos and the reply in a modal dialog; the carousel's arrow keys are not its.
        <dialog
          ref={dialog}
          class='rv'
          aria-label={t.region(r.reviewer_name)}
          onKeyDown={(e) => e.stopPropagation()}
          onClose={() => more.current?.focus()}
        >
          <ul>
            <Review {...props} card={false} votes={[helpful, setHelpful]} />
          </ul>
          <div class='nav'>
            <button type='button' onClick={() => dialog.current!.close()}>{t.close}</button>
          </div>
        </dialog>
      )}
    </li>
  );
}

export function Widget({ data, options }: { data: EmbedData; options: Options }) {
  const t = stringsFor(options.locale);
  const list = useRef<HTMLUListElement>(null);
  const layout = ['list', 'grid', 'carousel'].includes(options.layout ?? '') ? options.layout! : data.layout;
  const theme = themeOf(options.theme, data.theme);
  const max = options.maxReviews && options.maxReviews > 0 ? Math.min(options.maxReviews, 100) : data.max_reviews;
  const min = options.minRating && options.minRating >= 1 ? options.minRating : data.min_rating;
  const reviews = readerFirst(data.reviews.filter((r) => r.rating >= min).slice(0, max), options.reader);
  const scroll = (dir: number) => {
    const el = list.current;
    if (el) el.scrollBy({ left: dir * el.clientWidth * 0.9 });
  };
  return (
    <section class={`w ${layout} ${theme}`} aria-label={t.region(data.name)}>
      <div class='head'>
        <p class='name'>{data.name}</p>
        {data.average_rating !== null && (
          <>
            <Stars rating={Number(data.average_rating)} t={t} />
            <span class='avg'>{oneDecimal(Number(data.average_rating))}</span>
          </>
        )}
        <span class='mu'>{t.reviews(data.review_count)}</span>
      </div>
      <Checking on={data.checking_recent_reviews} t={t} />
      <Summary s={options.summary} page={data.url} locale={options.locale} />
      <ul
        class='items'
        ref={list}
        // Focusable: the list scrolls inside the height the container reserves.
        tabIndex={0}
        aria-label={t.region(data.name)}
        onKeyDown={layout === 'carousel'
          ? (e) => {
            // One card a key press: the browser's own arrow-key scrolling would add to ours.
            if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
              e.preventDefault();
              scroll(e.key === 'ArrowRight' ? 1 : -1);
            }
          }
          : undefined}
      >
        {reviews.map((r) => (
          <Review
            key={r.id}
            r={r}
            t={t}
            locale={options.locale}
            replyLabel={t.replyFrom(data.name)}
            at={options.signals}
            card={layout === 'carousel'}
            reader={options.reader}
          />
        ))}
      </ul>
      <div class='ft'>
        <a class='all' href={data.url} target='_top'>{t.seeAll(data.review_count)}</a>
        <a class='mu' href={`${data.url}/transparency`} target='_top'>{t.transparency}</a>
        {
          // The carousel's arrows share the footer's line, leaving the cards the height.
          layout === 'carousel' && reviews.length > 1 && (
            <div class='nav'>
              <button type='button' aria-label={t.previous} onClick={() => scroll(-1)}>←</button>
              <button type='button' aria-label={t.next} onClick={() => scroll(1)}>→</button>
            </div>
          )
        }
      </div>
    </section>
  );
}
