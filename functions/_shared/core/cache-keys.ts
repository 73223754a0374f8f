// The cache keys of public answers: what a CDN files an answer under, so that the worker's purge
// of an organization (docs/scaling.md) empties every cached answer that shows it. Varnish (xkey)
// and Fastly read `Surrogate-Key` (space-separated), Cloudflare `Cache-Tag` (comma-separated).
// The API tags its answers with them (api/http/cache-keys.ts); the worker purges them.

/** Whose data a public answer shows: its organization, and the products it shows, if any. */
export interface CacheKeyOwners {
  orgId: string;
  productIds?: readonly string[];
}

/** The key of an organization: every public answer about it carries it, and a purge names it. */
export const orgCacheKey = (orgId: string) => `org-${orgId}`;

/** The key of a product: the answers that show it carry it beside their organization's. */
export const productCacheKey = (productId: string) => `product-${productId}`;

/** The key of the sitemaps, which list every organization; purged with an organization whose page moves. */
export const SITEMAP_CACHE_KEY = 'sitemap';

/** The headers that file a public answer under its keys. */
export function cacheKeyHeaders(keys: readonly string[]): Record<string, string> {
  return { 'Surrogate-Key': keys.join(' '), 'Cache-Tag': keys.join(',') };
}

/** The keys of an answer about an organization and some of its products. */
export function ownersCacheKeys({ orgId, productIds = [] }: CacheKeyOwners): string[] {
  return [orgCacheKey(orgId), ...productIds.map(productCacheKey)];
}
