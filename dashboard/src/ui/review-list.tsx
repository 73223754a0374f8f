// Reviews as the inbox lists them: stars, title (a link to the review's page), an excerpt, who
// wrote it and when, its status, the product it is about, where an imported one came from and how
// many photos and videos it has (hidden ones counted: the shop sees them all). The inbox and a product's page show
// their reviews with it.
import type { Review } from '../api.ts';
import { useAppPath } from '../session.ts';
import { Badge, Stars } from './components.tsx';
import { formatDate } from './format.ts';
import { mediaWords, sourceWords, verificationBadge } from './words.ts';

export function ReviewList({ reviews, busy, showProduct = true }: {
  reviews: Review[];
  busy?: boolean;
  /** Off where every review is about one product (its own page). */
  showProduct?: boolean;
}) {
  const appPath = useAppPath();
  return (
    <ul class='review-list' aria-busy={busy}>
      {reviews.map((r) => {
        const media = mediaWords(r.media);
        return (
          <li key={r.id} class='review-row'>
            <div class='review-row-head'>
              <Stars rating={r.rating} />
              <a class='review-title' href={appPath(`/reviews/${r.id}`)}>
                {r.title || r.content.slice(0, 60) || 'Untitled review'}
              </a>
            </div>
            <p class='review-excerpt'>{r.content.length > 220 ? `${r.content.slice(0, 220)}…` : r.content}</p>
            <p class='review-meta'>
              <span>{r.reviewer_name}</span>
              <span>{formatDate(r.created_at)}</span>
              {showProduct && r.product && (
                <span class='review-product'>
                  <span class='visually-hidden'>Product:</span>
                  <a href={appPath(`/products/${r.product.id}`)}>{r.product.name}</a>
                </span>
              )}
              <VerificationBadge status={r.verification_status} />
              {r.is_hidden && <Badge tone='bad'>Hidden</Badge>}
              {r.reply && <Badge tone='plain'>Replied</Badge>}
              {r.source === 'import' && <Badge tone='info'>{sourceWords(r.source, r.source_platform)}</Badge>}
              {media && <Badge tone='media'>{media}</Badge>}
            </p>
          </li>
        );
      })}
    </ul>
  );
}

/** A review's verification status as a badge in its state's tone (words.ts). */
export function VerificationBadge({ status }: { status: string }) {
  const { label, tone } = verificationBadge(status);
  return <Badge tone={tone}>{label}</Badge>;
}
