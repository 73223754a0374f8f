// The hottest reads, answered before Hono's router and middleware: an API key's GET of its
// organization, of one review or of the review list's first page (no query string, or only its
// defaults: page=1, limit=20), and the public review feeds' first page (the widget's
// /public/reviews/:slug, the profile's /public/profiles/:slug/reviews), which take the per-address
// limit (ipRateLimit's limiter), publicCors's headers and the route's own decision (publicReviewPage:
// ETag, 304, 404) instead; a query string, a slug of another form, a preflight, a failed statement
// (its hit taken back) are Hono's. Each is one statement already (docs/design.md, "A
// request's life"); what this saves is the framework's work around it (the context, six
// middleware, the router, the validator), which cost the API process more CPU than the rest of
// the request. Every decision and every byte of the answer comes from the functions the Hono path
// calls too (judgeCredential, the rate-limit headers, requestLine, errorBody, the route's
// statement), so the two paths cannot drift; tests compare them byte for byte. Anything else
// (another method, a query string, a session cookie, a missing or malformed key, an address
// locked out by its failures, a database error) is not taken here: Hono answers it unchanged.
import { bearerToken, isWellFormedKey, sha256 } from '../api-keys/format.ts';
import type { Config } from '../../core/config.ts';
import type { Sql } from '../../core/db/client.ts';
import { errorBody } from '../../core/errors.ts';
import type { CredentialReadArgs, Scope } from '../http/env.ts';
import { type AuthRow, judgeCredential } from '../middleware/credential/index.ts';
import { PUBLIC_CORS_HEADERS, publicCacheHeaders } from '../middleware/public-access/index.ts';
import {
  addressBucket,
  clientAddress,
  failuresBucket,
  type MemoryRateLimiter,
  rateLimitHeaders,
  retryAfter,
  tooManyRequestsMessage,
} from '../middleware/rate-limit/index.ts';
import { type LogLine, requestIdOf, requestLine } from '../middleware/request-log/index.ts';
import { readOrganization } from '../routes/organizations.ts';
import { readFirstReviewPage, readReview, REVIEW_NOT_FOUND } from '../routes/reviews.ts';
import { BUSINESS_NOT_FOUND, FIRST_REVIEW_PAGE, publicReviewPage } from '../routes/public.ts';

type Statement = ReturnType<typeof readOrganization>;

interface FastRead {
  /** The route's pattern, as Hono names it in the request log. */
  route: string;
  /** The path; its groups are the organization and the route's other parameters. */
  path: RegExp;
  /** Query strings taken beside none: each answers what none answers (the route's defaults). */
  queries?: ReadonlySet<string>;
  scope: Scope;
  notFound: string;
  statement: (sql: Sql, key: CredentialReadArgs, params: string[]) => Statement;
}

const UUID = '([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})';
const PREFIX = '/api/v1/organizations/';

/** The routes taken here; Hono's routes answer them too (the list's first page with its transaction). */
const READS: FastRead[] = [
  {
    route: '/api/v1/organizations/:orgId',
    path: new RegExp(`^/api/v1/organizations/${UUID}$`),
    scope: 'read',
    notFound: 'Not found',
    statement: (sql, key) => readOrganization(sql, key),
  },
  {
    route: '/api/v1/organizations/:orgId/reviews/:id',
    path: new RegExp(`^/api/v1/organizations/${UUID}/reviews/${UUID}$`),
    scope: 'read',
    notFound: REVIEW_NOT_FOUND,
    statement: (sql, key, [id]) => readReview(sql, key, id),
  },
  {
    // The list's first page, default size, no filter: without a query string, or with only the
    // defaults spelt out (the SDK asks `?page=1`); every other list is the route's.
    route: '/api/v1/organizations/:orgId/reviews',
    path: new RegExp(`^/api/v1/organizations/${UUID}/reviews$`),
    queries: new Set(['page=1', 'limit=20', 'page=1&limit=20', 'limit=20&page=1']),
    scope: 'read',
    notFound: 'Not found',
    statement: (sql, key) => readFirstReviewPage(sql, key),
  },
];

/** The public review feeds (no key; CORS `*`; ETag revalidation), first page, no query string. */
interface PublicFeed {
  route: string;
  /** The path; its group is the slug (a form every slug has: anything else is left to Hono). */
  path: RegExp;
  scope: 'embed' | 'profile';
}

const PUBLIC_PREFIX = '/api/v1/public/';
const SLUG = '([a-z0-9-]{1,200})';
const PUBLIC_FEEDS: PublicFeed[] = [
  { route: '/api/v1/public/reviews/:slug', path: new RegExp(`^/api/v1/public/reviews/${SLUG}$`), scope: 'embed' },
  {
    route: '/api/v1/public/profiles/:slug/reviews',
    path: new RegExp(`^/api/v1/public/profiles/${SLUG}/reviews$`),
    scope: 'profile',
  },
];

export interface FastReadsOptions {
  sql: Sql;
  config: Config;
  log: (line: LogLine) => void;
  /** The app's per-address limiter (ipRateLimit's): a 401 counts as the address's failure there. */
  limiter: MemoryRateLimiter;
}

/** What Deno.serve's handler passes the app (createApp's Bindings). */
export interface FastReadsEnv {
  remoteAddr?: { hostname: string };
}

/**
 * A handler that answers the fast reads, or undefined (at once, or once its statement failed)
 * for a request Hono must answer.
 */
export function fastReads({ sql, config, log, limiter }: FastReadsOptions) {
  return (req: Request, env?: FastReadsEnv): Promise<Response | undefined> | undefined => {
    if (req.method !== 'GET') return undefined;
    const url = req.url;
    const path = url.slice(url.indexOf('/', url.indexOf('//') + 2));
    if (path.startsWith(PUBLIC_PREFIX)) return publicFeed(req, path, env);
    if (!path.startsWith(PREFIX)) return undefined;
    const q = path.indexOf('?');
    const pathname = q < 0 ? path : path.slice(0, q);
    let read: FastRead | undefined;
    let match: RegExpExecArray | null = null;
    for (const r of READS) {
      match = r.path.exec(pathname);
      if (match) {
        read = r;
        break;
      }
    }
    if (!read || !match) return undefined;
    if (q >= 0 && !read.queries?.has(path.slice(q + 1))) return undefined;
    const key = bearerToken(req.headers.get('authorization') ?? undefined);
    if (!key || !isWellFormedKey(key)) return undefined;
    const address = clientAddress(
      req.headers.get('x-forwarded-for') ?? undefined,
      env?.remoteAddr?.hostname,
      config.trustProxy,
    );
    // An address locked out by failed authentications is answered by ipRateLimit.
    if (!limiter.peek(failuresBucket(address), config.publicRateLimitPerMinute).allowed) return undefined;
    return answer(read, match, key, address, req.headers.get('x-request-id'));
  };

  async function answer(
    read: FastRead,
    match: RegExpExecArray,
    key: string,
    address: string,
    incomingRequestId: string | null,
  ) {
    const started = performance.now();
    const [, orgId, ...params] = match;
    let row: AuthRow & { body: string | null } | undefined;
    try {
      const args = { hash: sha256(key), orgId: orgId.toLowerCase(), rateLimit: config.rateLimitPerMinute };
      [row] = (await read.statement(sql, args, params)) as unknown as (AuthRow & { body: string | null })[];
    } catch {
      // Hono runs it again and answers the error as it answers every other.
      return undefined;
    }
    const requestId = requestIdOf(incomingRequestId);
    const { decision, caller, refused } = judgeCredential('key', row, read.scope, orgId);
    const headers: Record<string, string> = {
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'application/json',
    };
    if (decision) Object.assign(headers, rateLimitHeaders(decision));
    let status = 200;
    let body: string;
    if (refused) {
      status = refused.status;
      body = JSON.stringify(errorBody(status, refused.message));
      if (status === 429) headers['Retry-After'] = retryAfter(decision!);
      // A well-formed key that is unknown counts against the address (ipRateLimit).
      if (status === 401) {
        Object.assign(headers, rateLimitHeaders(limiter.hit(failuresBucket(address), config.publicRateLimitPerMinute)));
      }
    } else if (row!.body === null) {
      status = 404;
      body = JSON.stringify(errorBody(404, read.notFound));
    } else {
      body = row!.body;
    }
    return finish(body, status, headers, { route: read.route, started, requestId, keyPrefix: caller?.prefix ?? null });
  }

  /** The answer with its request id, and its log line, as requestLog writes them. */
  function finish(
    body: string | null,
    status: number,
    headers: Record<string, string>,
    r: { route: string; started: number; requestId: string; keyPrefix: string | null },
  ) {
    headers['X-Request-Id'] = r.requestId;
    // Set one by one: Response's init converts a record of headers at ≈ 1 µs a header, set() at a tenth.
    const response = new Response(body, { status });
    for (const name in headers) response.headers.set(name, headers[name]);
    log(requestLine({ method: 'GET', status, ...r }));
    return response;
  }

  function publicFeed(req: Request, path: string, env: FastReadsEnv | undefined) {
    for (const feed of PUBLIC_FEEDS) {
      const match = feed.path.exec(path);
      if (match) return answerFeed(feed, match[1], req, env);
    }
    return undefined;
  }

  /** As ipRateLimit, publicCors and the route (publicReviewPage) answer it. */
  async function answerFeed(feed: PublicFeed, slug: string, req: Request, env: FastReadsEnv | undefined) {
    const started = performance.now();
    const bucket = addressBucket(
      clientAddress(req.headers.get('x-forwarded-for') ?? undefined, env?.remoteAddr?.hostname, config.trustProxy),
    );
    const decision = limiter.hit(bucket, config.publicRateLimitPerMinute);
    const headers: Record<string, string> = { 'X-Content-Type-Options': 'nosniff', ...rateLimitHeaders(decision) };
    let status: number;
    let body: string | null = null;
    let route = feed.route;
    if (!decision.allowed) {
      // ipRateLimit answers before the router: no CORS, and the log names its pattern.
      status = 429;
      route = '/*';
      headers['Retry-After'] = retryAfter(decision);
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(errorBody(429, tooManyRequestsMessage(decision)));
    } else {
      let out: Awaited<ReturnType<typeof publicReviewPage>>;
      try {
        out = await publicReviewPage(
          sql,
          req.headers.get('if-none-match') ?? undefined,
          slug,
          feed.scope,
          FIRST_REVIEW_PAGE,
        );
      } catch {
        // Hono runs it again, counts it again and answers the error as it answers every other.
        limiter.refund(bucket, decision);
        return undefined;
      }
      Object.assign(headers, PUBLIC_CORS_HEADERS);
      if ('notModified' in out) {
        status = 304;
        Object.assign(headers, publicCacheHeaders(out.etag));
      } else if (!('etag' in out)) {
        status = 404;
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(errorBody(404, BUSINESS_NOT_FOUND));
      } else {
        status = 200;
        Object.assign(headers, publicCacheHeaders(out.etag));
        headers['Content-Type'] = 'application/json';
        body = out.data.body;
      }
    }
    return finish(body, status, headers, {
      route,
      started,
      requestId: requestIdOf(req.headers.get('x-request-id')),
      keyPrefix: null,
    });
  }
}
