// Pieces the product screens share: a product's stars with average and count (and
// its group's, which the public sees), and its on-sale or archived state.
import type { Schemas } from '../../api.ts';
import { Badge, Stars } from '../../ui/components.tsx';
import { formatNumber } from '../../ui/format.ts';
import type { Figures } from './group-figures.ts';

type Product = Schemas['Product'];

/**
 * The product's stars, average and count. A product of a group says which figures are which: its
 * own ("This variant") beside the group's ("Whole group"), which every public display shows
 * (group-figures.ts); the group's are left out until known, or when the public page is off.
 */
export function RatingSummary({ product, group }: { product: Product; group?: Figures }) {
  if (!product.group) return <Figure figures={product} />;
  return (
    <span class='figures'>
      <span class='figure-line'>
        <span class='figure-label'>This variant:</span> <Figure figures={product} />
      </span>
      {group && (
        <span class='figure-line'>
          <span class='figure-label'>Whole group:</span> <Figure figures={group} />
        </span>
      )}
    </span>
  );
}

function Figure({ figures }: { figures: Figures }) {
  const { review_count: count, average_rating: average } = figures;
  if (!count || average === null) return <span class='muted'>No reviews yet</span>;
  return (
    <span class='rating-summary'>
      {/* The stars round the average; the number says it exactly. */}
      <span aria-hidden='true'>
        <Stars rating={Math.round(average)} />
      </span>
      <span>
        <strong>{average.toFixed(1)}</strong> <span class='visually-hidden'>out of 5</span>{' '}
        <span class='muted'>
          ({formatNumber(count)} review{count === 1 ? '' : 's'})
        </span>
      </span>
    </span>
  );
}

export function ArchivedBadge({ product }: { product: Product }) {
  return product.archived ? <Badge tone='warn'>Archived</Badge> : null;
}
