// Why a pending review was held at submission (review bombing holds and duplicates,
// docs/compliance.md): a burst's hold, or the review it repeats, shown side by side with it.
import { api, ApiError, type Schemas } from '../api.ts';
import { useAppPath, useOrgId } from '../session.ts';
import { Stars } from './components.tsx';
import { formatDateTime } from './format.ts';
import { useLoad } from './hooks.ts';

type Side = NonNullable<Schemas['HeldReview']['duplicate_of']>;

const REASON = {
  burst: 'Held while an unusual number of recent low ratings is checked',
  duplicate_text: 'Held: its text repeats another review',
  order_reused: 'Held: its order number already has a review of the same product',
} as const;

export function HeldReason({ reviewId }: { reviewId: string }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const held = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/reviews/{id}/held', { params: { orgId, id: reviewId }, signal }).catch((e) => {
        if (e instanceof ApiError && e.status === 404) return null; // never held
        throw e;
      }),
    [orgId, reviewId],
  );
  const h = held.data;
  if (!h) return null;
  return (
    <section class='card held' aria-labelledby='held-heading'>
      <h2 id='held-heading'>{REASON[h.reason]}</h2>
      {h.reason === 'burst' && h.hold_id && (
        <p>
          <a href={appPath(`/holds/${h.hold_id}`)}>See the hold and its figures</a>: approve or reject this review once
          the hold is released.
        </p>
      )}
      {h.duplicate_of && (
        <>
          <p>
            {h.reason === 'duplicate_text' && h.similarity !== null && `${Math.round(h.similarity * 100)} % alike. `}
            Compare them, then approve or reject this review.
          </p>
          <div class='pair'>
            <PairSide title='This review' side={h.review} />
            <PairSide
              title='The earlier review'
              side={h.duplicate_of}
              href={appPath(`/reviews/${h.duplicate_of.id}`)}
            />
          </div>
        </>
      )}
    </section>
  );
}

function PairSide({ title, side, href }: { title: string; side: Side; href?: string }) {
  return (
    <figure class='pair-side'>
      <figcaption>
        <strong>{href ? <a href={href}>{title}</a> : title}</strong>
        <span class='muted small'>
          {` · ${side.reviewer_name}, ${formatDateTime(side.created_at)}`}
        </span>
      </figcaption>
      <p>
        <Stars rating={side.rating} /> {side.title && <strong>{side.title}</strong>}
      </p>
      <p class='report-content'>{side.content}</p>
    </figure>
  );
}
