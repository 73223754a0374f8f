// The product mode (`data-product`): a product's summary over its group (average, count, the
// distribution whose bars filter by rating), its reviews ten at a time with "more", and a sort.
// It draws from the summary and the first page, read before it mounts; each sort, filter or
// "more" reads one page of the product's reviews route.
import { useState } from 'preact/hooks';
import { getJson, type PublicProduct, type PublicReview } from './data.ts';
import { QuestionsTab } from './questions.tsx';
import type { Strings } from './strings.ts';
import { type ReviewSummary, Summary } from './summary.tsx';
import { Checking, oneDecimal, Review, type SignalUrls, Stars } from './widget.tsx';
import { Attributes } from './attributes.tsx';

export const SORTS = ['newest', 'oldest', 'highest', 'lowest', 'helpful'] as const;
const PER_PAGE = 10;

export type ReviewPage = { data: PublicReview[]; meta: { page: number; totalPages: number } };

/**
 * One page of the product's reviews: `reviewsUrl` is the route's address without its query; those
 * in the reader's language first.
 */
export const readPage = (
  reviewsUrl: string,
  reader: string | null,
  page: number,
  sort: string,
  rating: number,
  media?: boolean,
  limit = PER_PAGE,
) =>
  getJson<ReviewPage>(
    `${reviewsUrl}?limit=${limit}&page=${page}&sort=${sort}${rating ? `&rating=${rating}` : ''}${
      media ? '&has_media=true' : ''
    }${reader ? `&reader_language=${reader}` : ''}`,
  );

export function ProductWidget(
  {
    product,
    first,
    reviewsUrl,
    pageUrl,
    signals,
    theme,
    t,
    locale,
    reader,
    sort: firstSort = SORTS[0],
    perPage,
    summary,
  }: {
    product: PublicProduct;
    /** The reader's language (ISO 639-1), or null. */
    reader: string | null;
    signals: SignalUrls;
    first: ReviewPage;
    reviewsUrl: string;
    /** The product's public page, where every review is. */
    pageUrl: string;
    theme: string;
    t: Strings;
    locale: string;
    /** A fragment's first page (core/widget/fragment.ts): its order and size, which the later pages keep. */
    sort?: string;
    perPage?: number;
    /** The summary, read with the first page (main.tsx); none over a fragment, which reads nothing. */
    summary?: ReviewSummary | null;
  },
) {
  const [sort, setSort] = useState<string>(firstSort);
  const [rating, setRating] = useState(0);
  const [media, setMedia] = useState(false);
  const [list, setList] = useState(first);
  const [reviews, setReviews] = useState(first.data);
  const count = product.review_count;

  const show = async (nextSort: string, nextRating: number, page = 1, nextMedia = media) => {
    const next = await readPage(reviewsUrl, reader, page, nextSort, nextRating, nextMedia, perPage);
    if (!next) return; // a failed read keeps what is shown
    setSort(nextSort);
    setRating(nextRating);
    setMedia(nextMedia);
    setList(next);
    setReviews(page > 1 ? reviews.concat(next.data) : next.data);
  };

  return (
    <section class={`w list ${theme}`} aria-label={t.region(product.name)}>
      <div class='head'>
        <p class='name'>{product.name}</p>
        {product.average_rating !== null && (
          <>
            <Stars rating={product.average_rating} t={t} />
            <span class='avg'>{oneDecimal(product.average_rating)}</span>
          </>
        )}
        <span class='mu'>{count ? t.reviews(count) : t.noReviews}</span>
      </div>
      <Checking on={product.checking_recent_reviews} t={t} />
      <QuestionsTab reviewsUrl={reviewsUrl} t={t} />
      {count > 0 && (
        <ul class='bars'>
          {[5, 4, 3, 2, 1].map((n) => {
            const k = product.rating_distribution[n as 1 | 2 | 3 | 4 | 5];
            return (
              <li key={n}>
                <button
                  type='button'
                  aria-pressed={rating === n}
                  aria-label={`${n} ★: ${t.reviews(k)}`}
                  onClick={() => show(sort, rating === n ? 0 : n)}
                >
                  <span>{n} ★</span>
                  <span class='bar'>
                    <span style={{ width: `${Math.round((k / count) * 100)}%` }} />
                  </span>
                  <span class='mu'>{k}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {product.attributes?.[0] && <Attributes items={product.attributes} t={t} />}
      <Summary s={summary} page={pageUrl} locale={locale} />
      {count > 0 && (
        <div class='ctl'>
          <label>
            {t.sortBy}{' '}
            <select value={sort} onChange={(e) => show(e.currentTarget.value, rating)}>
              {SORTS.map((s, i) => <option key={s} value={s}>{t.sorts[i]}</option>)}
            </select>
          </label>
          <button type='button' class='hb' aria-pressed={media} onClick={() => show(sort, rating, 1, !media)}>
            {t.withPhotos}
          </button>
          {rating > 0 && <button type='button' onClick={() => show(sort, 0)}>{t.allRatings}</button>}
        </div>
      )}
      <ul class='items' tabIndex={0} aria-label={t.region(product.name)}>
        {reviews.map((r) => (
          <Review
            key={r.id}
            r={r}
            t={t}
            locale={locale}
            replyLabel={t.sellerReply}
            at={signals}
            viewing={product.external_id}
            reader={reader}
          />
        ))}
      </ul>
      <div class='ctl end'>
        {list.meta.page < list.meta.totalPages && (
          <button
            type='button'
            onClick={() => show(sort, rating, list.meta.page + 1)}
          >
            {t.more}
          </button>
        )}
        {count > 0 && <a href={pageUrl} target='_top'>{t.seeAll(count)}</a>}
      </div>
    </section>
  );
}
