// The figures the public sees for products of a group: every public display (the product's page,
// its widget, its JSON-LD) answers for the whole group (docs/products.md), while the catalog's own
// `review_count` and `average_rating` are the product's alone. The dashboard reads the group's from
// the same public route the shop's category pages use (`GET /public/products/{slug}/ratings`, up to
// 100 products in one call), so what it calls "Whole group" is exactly what shoppers are shown.
import { api } from '../../api.ts';
import { useWorkspace } from '../../session.ts';
import { useLoad } from '../../ui/hooks.ts';

export interface Figures {
  average_rating: number | null;
  review_count: number;
}

/** The most products the public ratings route answers at once. */
const MAX_IDS = 100;

/**
 * The public figures of each grouped product's group, by external id; empty while loading, for
 * products without a group, and when the public page is switched off (the public sees nothing
 * then). An id holding a comma cannot be asked for in the list and is left out.
 */
export function useGroupFigures(products: readonly { external_id: string; group: string | null }[] | undefined) {
  const { org } = useWorkspace();
  const ids = (products ?? []).filter((p) => p.group && !p.external_id.includes(','))
    .map((p) => p.external_id).slice(0, MAX_IDS);
  const key = ids.join(',');
  const load = useLoad(
    async (signal) => {
      if (!key) return new Map<string, Figures>();
      const res = await api.get('/public/products/{slug}/ratings', {
        params: { slug: org.slug },
        query: { ids: key },
        signal,
      }).catch(() => null);
      return new Map<string, Figures>((res?.data ?? []).map((r) => [r.external_id, r]));
    },
    [org.slug, key],
  );
  return load.data ?? new Map<string, Figures>();
}
