import type { Context, MiddlewareHandler } from 'hono';
import { bearerToken, looksLikeKey, sha256Hex } from '../../api-keys/format.ts';
import { errorResponse } from '../../http/errors.ts';
import type { AppEnv } from '../../http/env.ts';

export interface RateLimitDecision {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
  allowed: boolean;
}

export function setRateLimitHeaders(c: Context, d: RateLimitDecision) {
  c.header('X-RateLimit-Limit', String(d.limit));
  c.header('X-RateLimit-Remaining', String(d.remaining));
  c.header('X-RateLimit-Reset', String(d.reset));
}

export function tooManyRequests(c: Context, d: RateLimitDecision) {
  c.header('Retry-After', String(Math.max(1, d.reset - Math.floor(Date.now() / 1000))));
  return errorResponse(c, 429, `Rate limit of ${d.limit} requests per minute exceeded; retry after the reset`);
}

/**
 * Fixed one-minute windows counted in this process's memory. Used for the public read path:
 * it writes nothing per visitor to the database, at the price of being per instance (several
 * instances each allow the limit). docs/design.md explains the trade-off.
 */
export class MemoryRateLimiter {
  #windows = new Map<string, { window: number; hits: number }>();
  constructor(private readonly maxKeys = 100_000) {}

  hit(key: string, limit: number, nowMs = Date.now()): RateLimitDecision {
    const window = Math.floor(nowMs / 60_000);
    let entry = this.#windows.get(key);
    if (!entry || entry.window !== window) {
      if (this.#windows.size >= this.maxKeys) this.#evict(window);
      entry = { window, hits: 0 };
      this.#windows.set(key, entry);
    }
    entry.hits += 1;
    return {
      limit,
      remaining: Math.max(limit - entry.hits, 0),
      reset: (window + 1) * 60,
      allowed: entry.hits <= limit,
    };
  }

  #evict(current: number) {
    for (const [k, v] of this.#windows) if (v.window !== current) this.#windows.delete(k);
    // Still full of live windows: start over rather than grow without bound.
    if (this.#windows.size >= this.maxKeys) this.#windows.clear();
  }
}

export function clientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return c.env?.remoteAddr?.hostname ?? 'unknown';
}

/**
 * The database rate-limit bucket of a client's review submissions: a hash of its address, so the
 * address itself is never stored.
 */
export function submissionBucket(c: Context<AppEnv>, trustProxy: boolean): string {
  return `submit:${sha256Hex(clientIp(c, trustProxy))}`;
}

export interface IpRateLimitOptions {
  limiter?: MemoryRateLimiter;
  limit: (c: Context<AppEnv>) => number;
}

/**
 * Per-client-IP limit for everything that is not authenticated by a key. A request carrying a
 * key is limited per key by the API-key middleware instead; if it never reaches that middleware
 * (an unknown route, say) it is counted here afterwards, so every response carries the headers.
 */
export function ipRateLimit({ limiter = new MemoryRateLimiter(), limit }: IpRateLimitOptions): MiddlewareHandler<AppEnv> {
  const hit = (c: Context<AppEnv>) => limiter.hit(clientIp(c, c.get('config').trustProxy), limit(c));
  return async (c, next) => {
    if (!looksLikeKey(bearerToken(c.req.header('authorization')))) {
      const decision = hit(c);
      setRateLimitHeaders(c, decision);
      if (!decision.allowed) return tooManyRequests(c, decision);
    }
    await next();
    if (!c.res.headers.has('X-RateLimit-Limit')) {
      const d = hit(c);
      c.res.headers.set('X-RateLimit-Limit', String(d.limit));
      c.res.headers.set('X-RateLimit-Remaining', String(d.remaining));
      c.res.headers.set('X-RateLimit-Reset', String(d.reset));
    }
  };
}
