// The stars mode (`data-product` with `data-mode="stars"`), for category pages: one line of stars,
// average and count per product. Every such container asked for in one turn of the page's event
// loop (the first scan, or a batch a script adds later) is read together: one `ratings` request
// per business of up to 100 ids (and a bounded address). An unknown id, or a failed read, leaves
// its container as its fallback (drawn with null).
import { getJson, ignore, type ProductRating } from './data.ts';
import type { Strings } from './strings.ts';
import { drawn, figure, oneDecimal, starGlyphs } from './widget.tsx';

const BATCH = 100;
/** Ids per request stop short of this many characters, so that the address stays short enough for every server. */
const MAX_IDS_LENGTH = 1800;

/** Draws one product's figures into its container; null: it has none to show. */
export type DrawRating = (rating: ProductRating | null) => void;

/** By `<api base>\n<slug>`: each external id's containers waiting for their figures. */
let pending = new Map<string, Map<string, DrawRating[]>>();

export function askRating(base: string, slug: string, id: string, draw: DrawRating): void {
  // What the ratings route would refuse (and with it the whole batch) is not asked for: an id
  // holding a comma (its separator), an empty one, or one past 200 characters.
  if (!id || id.length > 200 || id.includes(',')) return draw(null);
  if (!pending.size) Promise.resolve().then(flush);
  const key = `${base}\n${slug}`;
  const ids = pending.get(key) ?? new Map<string, DrawRating[]>();
  pending.set(key, ids);
  ids.set(id, [...(ids.get(id) ?? []), draw]);
}

function flush(): void {
  const batches = pending;
  pending = new Map();
  for (const [key, ids] of batches) {
    const [base, slug] = key.split('\n');
    let chunk: string[] = [];
    let length = 0;
    for (const id of ids.keys()) {
      const encoded = encodeURIComponent(id);
      if (chunk.length === BATCH || (chunk.length && length + encoded.length > MAX_IDS_LENGTH)) {
        read(base, slug, chunk, ids).catch(ignore);
        chunk = [];
        length = 0;
      }
      chunk.push(id);
      length += encoded.length + 1;
    }
    read(base, slug, chunk, ids).catch(ignore);
  }
}

async function read(base: string, slug: string, chunk: string[], ids: Map<string, DrawRating[]>) {
  const answer = await getJson<{ data: ProductRating[] }>(
    `${base}/api/v1/public/products/${encodeURIComponent(slug)}/ratings?ids=${chunk.map(encodeURIComponent).join(',')}`,
  );
  const found = new Map((answer?.data ?? []).map((r) => [r.external_id, r]));
  for (const id of chunk) for (const draw of ids.get(id)!) draw(found.get(id) ?? null);
}

export function StarsLine({ rating, t, theme }: { rating: ProductRating; t: Strings; theme: string }) {
  const avg = rating.average_rating;
  const count = rating.review_count;
  return (
    <p
      class={`w sm ${theme}`}
      role='img'
      aria-label={avg === null ? t.noReviews : `${t.rated(figure(avg, t, 1))}, ${t.reviews(count)}`}
    >
      <span {...drawn(avg ?? 0)}>{starGlyphs(avg ?? 0)}</span>
      {avg === null ? ' ' : ` ${oneDecimal(avg)} `}({count.toLocaleString(t.lang)})
    </p>
  );
}
