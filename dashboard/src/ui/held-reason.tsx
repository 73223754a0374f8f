// Why a pending review was held at submission (review bombing holds and duplicates,
// docs/compliance.md): a burst's hold, or the review it repeats, shown side by side with it, and
// what the member can do: while a burst's hold is open the review can be neither approved nor
// rejected (the database refuses), so the hold is released first, here or on its own page.
import { api, ApiError, type Review, type Schemas } from '../api.ts';
import { useAppPath, useOrgId } from '../session.ts';
import { Stars } from './components.tsx';
import { formatDateTime } from './format.ts';
import { type Loaded, useLoad } from './hooks.ts';
import { ReleaseHold } from './release-hold.tsx';

type Side = NonNullable<Schemas['HeldReview']['duplicate_of']>;

/** A held review's reason, and for a burst its hold, open or released. */
export interface Held {
  held: Schemas['HeldReview'];
  hold: Schemas['Hold'] | null;
}

const REASON = {
  burst: 'Held while an unusual number of recent low ratings is checked',
  duplicate_text: 'Held: its text repeats another review',
  order_reused: 'Held: its order number already has a review of the same product',
} as const;

/** Whether the review's burst hold is still open: approving or rejecting it waits for its release. */
export const holdOpen = (h: Held | null | undefined) => h?.hold?.status === 'open';

/**
 * Why a pending review is held, null when it is not (or not pending: a held review leaves pending
 * once decided), or while the review itself loads.
 */
export function useHeld(review: Review | undefined): Loaded<Held | null> {
  const orgId = useOrgId();
  return useLoad(async (signal) => {
    if (review?.verification_status !== 'pending') return null;
    const held = await api.get('/organizations/{orgId}/reviews/{id}/held', { params: { orgId, id: review.id }, signal })
      .catch((e) => {
        if (e instanceof ApiError && e.status === 404) return null; // never held
        throw e;
      });
    if (!held) return null;
    const hold = held.reason === 'burst' && held.hold_id
      ? await api.get('/organizations/{orgId}/holds/{id}', { params: { orgId, id: held.hold_id }, signal })
      : null;
    return { held, hold };
  }, [orgId, review?.id, review?.verification_status]);
}

/** What releasing a hold does, said before the member does it. */
function releaseWords(hold: Schemas['Hold']): string {
  const subject = hold.subject.kind === 'business' ? 'your business' : hold.subject.name ?? 'this product';
  const others = hold.held_reviews.filter((r) => r.verification_status === 'pending').length - 1;
  const waiting = others > 0
    ? `this review and the ${others} other${others === 1 ? '' : 's'} it holds wait`
    : 'this review waits';
  return `Releasing it lets new reviews of ${subject} publish as usual; ${waiting} for your decision.`;
}

export function HeldReason({ held, onReleased }: { held: Held; onReleased: () => void }) {
  const appPath = useAppPath();
  const { held: h, hold } = held;
  return (
    <section class='card held' aria-labelledby='held-heading'>
      <h2 id='held-heading'>{REASON[h.reason]}</h2>
      {h.reason === 'burst' && hold && (hold.status === 'open'
        ? (
          <>
            <p>
              It is not public. While the hold is open it can be neither approved nor rejected:{' '}
              <a href={appPath(`/holds/${hold.id}`)}>see the hold and its figures</a>, then release it.
            </p>
            <p class='muted small'>{releaseWords(hold)}</p>
            <ReleaseHold holdId={hold.id} onReleased={onReleased} />
          </>
        )
        : (
          <p>
            The <a href={appPath(`/holds/${hold.id}`)}>hold</a> was released{' '}
            {formatDateTime(hold.released_at)}: approve this review to publish it, or reject it.
          </p>
        ))}
      {h.duplicate_of && (
        <>
          <p>
            {h.reason === 'duplicate_text' && h.similarity !== null && `${Math.round(h.similarity * 100)} % alike. `}
            It is not public: compare them, then approve this review to publish it, or reject it.
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
