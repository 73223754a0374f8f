import type { Context, MiddlewareHandler } from 'hono';
import { bearerToken, isWellFormedKey, sha256Hex } from '../../api-keys/format.ts';
import { errorResponse } from '../../http/errors.ts';
import type { AppEnv } from '../../http/env.ts';
import { sessionTokenOf } from '../../http/session-cookie.ts';
import { type SignalCaller, visitorDigest, visitorNetwork } from '../../../core/db/shopper-signals.ts';
import type { SubmissionContext } from '../../../core/db/review-submission.ts';

export interface RateLimitDecision {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
  allowed: boolean;
}

/** The headers every limited answer carries (the API key's window, or the address's). */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(d.limit),
    'X-RateLimit-Remaining': String(d.remaining),
    'X-RateLimit-Reset': String(d.reset),
  };
}

export function setRateLimitHeaders(c: Context, d: RateLimitDecision) {
  for (const [name, value] of Object.entries(rateLimitHeaders(d))) c.header(name, value);
}

/** A 429's Retry-After: the seconds left in the window, at least one. */
export function retryAfter(d: RateLimitDecision): string {
  return String(Math.max(1, d.reset - Math.floor(Date.now() / 1000)));
}

export function tooManyRequestsMessage(d: RateLimitDecision): string {
  return `Rate limit of ${d.limit} requests per minute exceeded; retry after the reset`;
}

export function tooManyRequests(c: Context, d: RateLimitDecision) {
  c.header('Retry-After', retryAfter(d));
  return errorResponse(c, 429, tooManyRequestsMessage(d));
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
    return this.#count(key, limit, nowMs, 1);
  }

  /** The decision a hit would get now, without counting one. */
  peek(key: string, limit: number, nowMs = Date.now()): RateLimitDecision {
    return this.#count(key, limit, nowMs, 0);
  }

  /**
   * Takes back one hit that `decision` counted, while its window lasts: a request that the fast
   * reads counted and then handed to Hono, which counts it again.
   */
  refund(key: string, decision: RateLimitDecision) {
    const entry = this.#windows.get(key);
    if (entry && (entry.window + 1) * 60 === decision.reset && entry.hits > 0) entry.hits -= 1;
  }

  #count(key: string, limit: number, nowMs: number, add: number): RateLimitDecision {
    const window = Math.floor(nowMs / 60_000);
    let entry = this.#windows.get(key);
    if (!entry || entry.window !== window) {
      if (this.#windows.size >= this.maxKeys) this.#evict(window);
      entry = { window, hits: 0 };
      this.#windows.set(key, entry);
    }
    entry.hits += add;
    const used = add ? entry.hits : entry.hits + 1;
    return {
      limit,
      remaining: Math.max(limit - entry.hits, 0),
      reset: (window + 1) * 60,
      allowed: used <= limit,
    };
  }

  #evict(current: number) {
    for (const [k, v] of this.#windows) if (v.window !== current) this.#windows.delete(k);
    // Still full of live windows: start over rather than grow without bound.
    if (this.#windows.size >= this.maxKeys) this.#windows.clear();
  }
}

/**
 * The client's address. Behind `trustProxy` proxies, each of which appends the address it saw to
 * X-Forwarded-For, it is the entry that many places from the right: entries further left were
 * written by the client and prove nothing. With no proxy trusted it is the socket's peer.
 */
export function clientIp<E extends AppEnv>(c: Context<E>, trustProxy: number): string {
  return clientAddress(c.req.header('x-forwarded-for'), c.env?.remoteAddr?.hostname, trustProxy);
}

/** clientIp from the X-Forwarded-For header and the socket's peer. */
export function clientAddress(forwardedFor: string | undefined, peer: string | undefined, trustProxy: number): string {
  if (trustProxy > 0) {
    const hops = forwardedFor?.split(',').map((h) => h.trim()).filter(Boolean);
    if (hops?.length) return hops[Math.max(hops.length - trustProxy, 0)];
  }
  return peer ?? 'unknown';
}

/**
 * The address's window of anonymous requests (ipRateLimit): an IPv6 address's /64 network, which one
 * subscriber holds whole (each of its addresses would otherwise be a window of its own), an IPv4
 * address as it is.
 */
export function addressBucket(address: string): string {
  return visitorNetwork(address);
}

/**
 * The address's window of failed authentications (ipRateLimit): anonymous traffic from a shared
 * address must not lock out the keys used behind it.
 */
export function failuresBucket(address: string): string {
  return `401:${addressBucket(address)}`;
}

/**
 * What a client's review submission is sent with besides the review (core/db/review-submission.ts):
 * its database rate-limit bucket, a hash of its address so that the address itself is never
 * stored, and its limit a minute; and the base of the verification link.
 */
export function submissionContext<E extends AppEnv>(c: Context<E>): SubmissionContext {
  const { config } = c.var;
  return {
    rateBucket: `submit:${sha256Hex(addressBucket(clientIp(c, config.trustProxy)))}`,
    rateLimit: config.submitRateLimitPerMinute,
    linkBase: config.publicUrl,
    detectLanguages: config.detectLanguages,
  };
}

/**
 * Who asks a question or answers one through a buyer's link: the database rate-limit bucket of the
 * client's address (its network's, its own window), limited as review submissions are.
 */
export function questionCaller<E extends AppEnv>(c: Context<E>): { bucket: string; limit: number } {
  const { config } = c.var;
  return {
    bucket: `question:${sha256Hex(addressBucket(clientIp(c, config.trustProxy)))}`,
    limit: config.submitRateLimitPerMinute,
  };
}

/**
 * Who casts a helpful vote or a report: the database rate-limit bucket of the client's address (a
 * hash of it, each kind its own window, limited as submissions are) and the visitor's digest.
 */
export function signalCaller<E extends AppEnv>(kind: 'helpful' | 'report', c: Context<E>): SignalCaller {
  const { config } = c.var;
  const network = addressBucket(clientIp(c, config.trustProxy));
  return {
    bucket: `${kind}:${sha256Hex(network)}`,
    limit: config.submitRateLimitPerMinute,
    visitor: visitorDigest(network),
  };
}

export interface IpRateLimitOptions {
  limiter?: MemoryRateLimiter;
  limit: (c: Context<AppEnv>) => number;
}

/**
 * Per-client-IP limit for everything that is not authenticated by a key or a session. A request
 * to an authenticated route carrying a well-formed key (or session cookie) is limited per key by the credential middleware instead; if it never reaches that
 * middleware (an unknown route, say) it is counted here afterwards, so every response carries the
 * headers. A well-formed key that turns out unknown or revoked (401) counts as a failure of the
 * client's address, and once an address has used up the limit in failures its keyed requests get
 * 429 before the database is asked: guessing keys is limited like any anonymous traffic.
 */
/**
 * Whether the request goes to a route that authenticates a key or a session (routes/define.ts,
 * orgRoute): the organization routes, GET /me and GET /reviews. A new keyed route elsewhere is
 * merely limited twice until it is added here.
 */
function guardedByCredential<E extends AppEnv>(c: Context<E>): boolean {
  const path = c.req.path;
  return path.startsWith('/api/v1/organizations/') || path === '/api/v1/me' ||
    (path === '/api/v1/reviews' && c.req.method === 'GET');
}

export function ipRateLimit(
  { limiter = new MemoryRateLimiter(), limit }: IpRateLimitOptions,
): MiddlewareHandler<AppEnv> {
  const ip = <E extends AppEnv>(c: Context<E>) => clientIp(c, c.get('config').trustProxy);
  const failures = <E extends AppEnv>(c: Context<E>) => failuresBucket(ip(c));
  return async (c, next) => {
    // A key or a member's session is limited per credential by the credential middleware, on
    // the routes it guards; anywhere else a credential proves nothing and the address counts.
    const keyed = guardedByCredential(c) &&
      (isWellFormedKey(bearerToken(c.req.header('authorization')) ?? '') || sessionTokenOf(c) !== undefined);
    // A call the MCP server dispatched: its MCP request was counted (mcp/routes.ts).
    const counted = c.env?.addressCounted === true;
    if (!keyed && !counted) {
      const decision = limiter.hit(addressBucket(ip(c)), limit(c));
      setRateLimitHeaders(c, decision);
      if (!decision.allowed) return tooManyRequests(c, decision);
    } else if (keyed) {
      const decision = limiter.peek(failures(c), limit(c));
      if (!decision.allowed) {
        setRateLimitHeaders(c, decision);
        return tooManyRequests(c, decision);
      }
    }
    await next();
    if (keyed && c.res.status === 401) {
      const d = limiter.hit(failures(c), limit(c));
      for (const [name, value] of Object.entries(rateLimitHeaders(d))) c.res.headers.set(name, value);
    } else if (!counted && !c.res.headers.has('X-RateLimit-Limit')) {
      for (const [name, value] of Object.entries(rateLimitHeaders(limiter.hit(addressBucket(ip(c)), limit(c))))) {
        c.res.headers.set(name, value);
      }
    }
  };
}
