import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from '../../http/env.ts';
import { accountedFor } from '../../http/fast-path.ts';
import { sha256 } from '../../api-keys/format.ts';
import { cacheKeyHeaders, ownersCacheKeys } from '../../http/cache-keys.ts';

/**
 * CORS for the public routes: any site may call them (the widget runs on customers' pages).
 * No credentials are involved, so `*` is safe; authenticated routes never get these headers.
 * `onlyFor` restricts it to some methods of a path that also serves authenticated ones
 * (POST /api/v1/reviews is public, GET /api/v1/reviews is not): a preflight counts as the
 * method it announces.
 */
export function publicCors({ methods }: { methods: string[] }): MiddlewareHandler<AppEnv> {
  const preflight = cors({
    origin: '*',
    allowMethods: [...methods, 'OPTIONS'],
    allowHeaders: ['Content-Type', 'If-None-Match'],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 86_400,
  });
  return accountedFor({ kind: 'public-cors', methods }, async (c, next) => {
    const method = c.req.method === 'OPTIONS'
      ? c.req.header('access-control-request-method')?.toUpperCase()
      : c.req.method;
    if (!method || !methods.includes(method)) return next();
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    // As hono/cors sets them: on the response in the making, before the route answers.
    for (const [name, value] of Object.entries(PUBLIC_CORS_HEADERS)) c.res.headers.set(name, value);
    return next();
  });
}

/** The response headers a public answer may show the calling page. */
const EXPOSED_HEADERS = [
  'ETag',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
];

/** The CORS headers of a public answer to an actual (not preflight) request: publicCors's, and the fast reads'. */
export const PUBLIC_CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(','),
});

/** How long shared caches and browsers may reuse a public answer, and serve it stale while refreshing. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=30, stale-while-revalidate=300';

/**
 * A weak ETag for a public answer: a digest of the organization's public version (see
 * plaudit.public_version) and of what selects the representation (route, page, limit).
 */
export function publicEtag(version: string, variant: string): string {
  const digest = sha256(`${version}|${variant}`);
  const b64 = btoa(String.fromCharCode(...digest.subarray(0, 16)));
  return `W/"${b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}"`;
}

/** Weak comparison of If-None-Match (a list, or `*`) with the current ETag. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  const current = opaque(etag);
  return header.split(',').some((t) => opaque(t) === current);
}

/** The caching headers of a public answer. */
export function publicCacheHeaders(etag: string): Record<string, string> {
  return { ETag: etag, 'Cache-Control': PUBLIC_CACHE_CONTROL };
}

/**
 * The cache keys of an answer read at `version`: public versions begin with their organization's
 * id (plaudit.public_version), so even a 304 or the 404 of a switched-off profile names it, and
 * the version of an answer that shows a product ends with `~<product id>`
 * (plaudit.public_product_version), which names the product's key beside it.
 */
export function versionCacheKeys(version: string): string[] | null {
  const [organization, ...products] = version.split('~');
  const orgId = organization.slice(0, organization.indexOf('.'));
  if (!UUID.test(orgId)) return null;
  return ownersCacheKeys({ orgId, productIds: products.filter((id) => UUID.test(id)) });
}

/** `version` with the product that `productVersion` (plaudit.public_product_version's) names, if any. */
export function withProductOf(version: string, productVersion: string): string {
  const at = productVersion.indexOf('~');
  return at < 0 ? version : version + productVersion.slice(at);
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What `load` answers for a known organization with nothing to show here (a switched-off profile). */
export type Absent = { version: string; absent: true };

/**
 * What a public read with ETag revalidation decided: 304, the data and its ETag, or not found;
 * each with the cache keys of its organization (null for an unknown one).
 */
export type PublicRead<T> =
  | { notModified: true; etag: string; keys: string[] | null }
  | { data: T; etag: string; keys: string[] | null }
  | { data: null; keys: string[] | null };

/**
 * The decision of conditionalPublicRead, without Hono's context (the fast reads take it too).
 * With an If-None-Match header, the cheap `version` query runs first and a match answers 304
 * without reading any review. Otherwise (or on a mismatch) `load` runs the full query, which
 * carries the version it was read at. `load` answers null for an unknown organization, and
 * Absent for a known one with nothing to show.
 */
export async function publicRead<T extends { version: string }>(
  ifNoneMatch: string | undefined,
  variant: string,
  version: () => Promise<string | null>,
  load: () => Promise<T | Absent | null>,
): Promise<PublicRead<T>> {
  if (ifNoneMatch) {
    const current = await version();
    if (current !== null) {
      const etag = publicEtag(current, variant);
      if (ifNoneMatchHits(ifNoneMatch, etag)) return { notModified: true, etag, keys: versionCacheKeys(current) };
    }
  }
  const data = await load();
  if (!data) return { data: null, keys: null };
  const keys = versionCacheKeys(data.version);
  if ('absent' in data) return { data: null, keys };
  return { data, etag: publicEtag(data.version, variant), keys };
}

/** The caching headers of a publicRead decision: ETag and Cache-Control when found, its cache keys when known. */
export function publicReadHeaders(out: PublicRead<unknown>): Record<string, string> {
  return {
    ...('etag' in out ? publicCacheHeaders(out.etag) : {}),
    ...(out.keys ? cacheKeyHeaders(out.keys) : {}),
  };
}

/** Answers a public read with ETag revalidation (publicRead), setting the caching headers. */
export async function conditionalPublicRead<T extends { version: string }>(
  c: Context<AppEnv>,
  variant: string,
  version: () => Promise<string | null>,
  load: () => Promise<T | Absent | null>,
): Promise<{ notModified: Response } | { data: T | null; etag?: string }> {
  return answerPublicRead(c, await publicRead(c.req.header('if-none-match'), variant, version, load));
}

/** The caching headers and the 304 of a publicRead decision, on Hono's context. */
export function answerPublicRead<T>(
  c: Context<AppEnv>,
  out: PublicRead<T>,
): { notModified: Response } | { data: T | null; etag?: string } {
  for (const [name, value] of Object.entries(publicReadHeaders(out))) c.header(name, value);
  if ('notModified' in out) return { notModified: c.body(null, 304) };
  if (!('etag' in out)) return { data: null };
  return { data: out.data, etag: out.etag };
}
