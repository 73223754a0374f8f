// Files a public answer under its cache keys (core/cache-keys.ts says which keys and headers).
import type { Context } from 'hono';
import { cacheKeyHeaders, type CacheKeyOwners, ownersCacheKeys } from '../../core/cache-keys.ts';

export {
  cacheKeyHeaders,
  type CacheKeyOwners,
  orgCacheKey,
  ownersCacheKeys,
  SITEMAP_CACHE_KEY,
} from '../../core/cache-keys.ts';

/**
 * Files a public answer under its owners' keys: call it in any public route or page before
 * answering (200, 304, or the 404 of a known organization), e.g.
 * `tagPublicAnswer(c, { orgId, productIds: [product.id] })`. Never on keyed or session answers.
 */
export function tagPublicAnswer(c: Context, owners: CacheKeyOwners): void {
  for (const [name, value] of Object.entries(cacheKeyHeaders(ownersCacheKeys(owners)))) c.header(name, value);
}
