// The hottest reads, answered before Hono's router and middleware: every route that declares a
// one-statement read (routes/define.ts: orgRoute's and publicRoute's `oneStatementRead`), asked
// with GET, no body, a plain path and a query string it declares. What this saves is the
// framework's work around the statement (the context, the middleware, the router, the validator),
// which cost the API process more CPU than the rest of the request.
//
// Nothing here is a second copy of the app: the routes come from the app's own definitions (their
// path, their parameters' schema, their statement), every decision and byte of the answer from the
// functions the Hono path calls too (judgeCredential, the rate-limit headers, sealAnswer,
// errorBody, the declared statement), and each middleware Hono runs before such a route is
// honoured by its account (http/fast-path.ts): one without an account stops the app from starting.
// Anything else (another method, a query string not declared, a session cookie, a missing or
// malformed key, an address locked out by its failures, a statement that failed) is Hono's.
// tests/api/fast-reads.test.ts compares both paths byte for byte, route by declared route.
import type { z } from '@hono/zod-openapi';
import { bearerToken, isWellFormedKey, sha256 } from '../api-keys/format.ts';
import type { Config } from '../../core/config.ts';
import type { Sql } from '../../core/db/client.ts';
import { errorBody } from '../../core/errors.ts';
import { type FastPathAccount, fastPathAccountOf } from '../http/fast-path.ts';
import { type AuthRow, judgeCredential } from '../middleware/credential/index.ts';
import { PUBLIC_CORS_HEADERS, publicReadHeaders } from '../middleware/public-access/index.ts';
import {
  addressBucket,
  clientAddress,
  failuresBucket,
  type MemoryRateLimiter,
  rateLimitHeaders,
  retryAfter,
  tooManyRequestsMessage,
} from '../middleware/rate-limit/index.ts';
import { type LogLine, requestIdOf, sealAnswer } from '../middleware/request-log/index.ts';
import { readAfterOf } from '../middleware/read-your-writes/index.ts';
import { type OneStatementRead, oneStatementReadOf } from '../routes/define.ts';

/** What the fast path reads of the app: its handlers (Hono's `routes`) and its routes' definitions. */
export interface DeclaringApp {
  // deno-lint-ignore ban-types -- any handler, whatever its context's type
  routes: readonly { path: string; method: string; handler: Function }[];
  openAPIRegistry: { definitions: readonly unknown[] };
}

export interface FastReadsOptions {
  sql: Sql;
  config: Config;
  log: (line: LogLine) => void;
  /** The app's per-address limiter (ipRateLimit's): counted by both paths. */
  limiter: MemoryRateLimiter;
  /** The app whose declared one-statement reads are taken here. */
  app: DeclaringApp;
}

/** What Deno.serve's handler passes the app (createApp's Bindings). */
export interface FastReadsEnv {
  remoteAddr?: { hostname: string };
}

/** A declared one-statement read, compiled. */
export interface FastRoute {
  /** The route's pattern, as Hono names it in the request log. */
  route: string;
  /** Its path (`{name}` as written in the OpenAPI document), for the tests. */
  path: string;
  read: OneStatementRead;
  /** The query strings taken: none, and the declared ones. */
  queries: ReadonlySet<string>;
  matcher: RegExp;
  names: string[];
  /** The route's schema of its path parameters, which Hono's validator applies. */
  params?: z.ZodType;
  /** Where the per-address limit's middleware is mounted (what the log names for its 429). */
  limitedAt: string | null;
  cors: boolean;
}

/** A path's characters the fast path takes: unreserved ASCII, which needs no decoding (textGuard). */
const PLAIN = '[A-Za-z0-9._~-]+';
const PLAIN_QUERY = /^[A-Za-z0-9._~=&-]*$/;

/** The routes of `app` that declare a one-statement read, each with what the fast path does in Hono's stead. */
export function declaredReads(app: DeclaringApp): FastRoute[] {
  const out: FastRoute[] = [];
  for (const def of app.openAPIRegistry.definitions as { type: string; route?: Record<string, unknown> }[]) {
    if (def.type !== 'route' || !def.route) continue;
    const read = oneStatementReadOf(def.route);
    if (!read || def.route.method !== 'get') continue;
    const path = def.route.path as string;
    const route = path.replace(/\{(\w+)\}/g, ':$1');
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const literal = path.split(/\{\w+\}/).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const queries = read.access === 'credential' ? read.queries ?? [] : [];
    for (const q of queries) {
      if (!PLAIN_QUERY.test(q)) throw new Error(`${route}: the declared query string ${q} is not plain text`);
    }
    const honoured = accountsBefore(app, route);
    const request = def.route.request as { params?: z.ZodType } | undefined;
    out.push({
      route,
      path,
      read,
      queries: new Set(['', ...queries]),
      matcher: new RegExp(`^${literal.join(`(${PLAIN})`)}$`),
      names,
      params: request?.params,
      limitedAt: honoured.find((h) => h.account.kind === 'address-limit')?.path ?? null,
      cors: honoured.some((h) => h.account.kind === 'public-cors' && h.account.methods.includes('GET')),
    });
  }
  return out;
}

/**
 * The accounts of the middleware Hono runs before `route` (its pattern): each one must have one,
 * and the fast path must know its kind, or the app does not start.
 */
function accountsBefore(app: DeclaringApp, route: string) {
  const sample = route.replace(/:\w+/g, 'x');
  return app.routes.filter((r) => r.method === 'ALL' && covers(r.path, sample)).map((r) => {
    const account = fastPathAccountOf(r.handler);
    if (!account || !KNOWN[account.kind]) {
      throw new Error(
        `The fast path cannot honour a middleware on ${r.path}, before ${route}: give it a FastPathAccount (http/fast-path.ts)`,
      );
    }
    return { path: r.path, account };
  });
}

/** Every kind of account, as the fast path honours it (a new kind fails to compile until it is here). */
const KNOWN: Record<FastPathAccount['kind'], true> = {
  envelope: true, // sealAnswer
  context: true, // the options' sql and config
  'writes-only': true, // GET only
  'address-limit': true, // the limiter's steps below
  bodiless: true, // a request with a body is Hono's
  'plain-text': true, // PLAIN paths, PLAIN_QUERY query strings
  'public-cors': true, // PUBLIC_CORS_HEADERS
  'read-after-write': true, // a public read with its cookie is Hono's
};

/** Whether a middleware's mount path (Hono's: `*`, `/a/*`, `/a/:b`) covers `path`. */
function covers(mount: string, path: string): boolean {
  if (mount === '*' || mount === '/*') return true;
  if (mount.endsWith('/*')) return path === mount.slice(0, -2) || path.startsWith(mount.slice(0, -1));
  const a = mount.split('/');
  const b = path.split('/');
  return a.length === b.length && a.every((s, i) => s.startsWith(':') || s === b[i]);
}

type Answer = { status: number; headers: Record<string, string>; body: string | null; route: string };

/**
 * A handler that answers the declared one-statement reads, or undefined (at once, or once its
 * statement failed) for a request Hono must answer.
 */
export function fastReads({ sql, config, log, limiter, app }: FastReadsOptions) {
  const routes = declaredReads(app);

  return (req: Request, env?: FastReadsEnv): Promise<Response | undefined> | undefined => {
    if (req.method !== 'GET' || req.body !== null) return undefined;
    const url = req.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const q = url.indexOf('?', start);
    const pathname = q < 0 ? url.slice(start) : url.slice(start, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    for (const r of routes) {
      const match = r.matcher.exec(pathname);
      if (!match) continue;
      if (!r.queries.has(query)) return undefined;
      const params: Record<string, string> = {};
      for (let i = 0; i < r.names.length; i++) params[r.names[i]] = match[i + 1];
      if (r.params && !r.params.safeParse(params).success) return undefined;
      return r.read.access === 'credential'
        ? credentialRead(r, r.read, params, req, env)
        : publicRead(r, params, req, env);
    }
    return undefined;
  };

  function credentialRead(
    r: FastRoute,
    read: Extract<OneStatementRead, { access: 'credential' }>,
    params: Record<string, string>,
    req: Request,
    env: FastReadsEnv | undefined,
  ) {
    const key = bearerToken(req.headers.get('authorization') ?? undefined);
    if (!key || !isWellFormedKey(key)) return undefined;
    const address = addressOf(req, env);
    // An address locked out by failed authentications is answered by ipRateLimit.
    if (r.limitedAt && !limiter.peek(failuresBucket(address), config.publicRateLimitPerMinute).allowed) {
      return undefined;
    }
    return answer(req, async () => {
      const orgId = params.orgId;
      let row: AuthRow & { body: string | null } | undefined;
      try {
        const args = { hash: sha256(key), orgId: orgId?.toLowerCase() ?? null, rateLimit: config.rateLimitPerMinute };
        [row] = await read.statement(sql, args, params);
      } catch {
        // Hono runs it again and answers the error as it answers every other.
        return undefined;
      }
      const { decision, caller, refused } = judgeCredential('key', row, read.scope, orgId);
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (decision) Object.assign(headers, rateLimitHeaders(decision));
      const prefix = caller?.prefix ?? null;
      if (refused) {
        if (refused.status === 429) headers['Retry-After'] = retryAfter(decision!);
        // A well-formed key that is unknown counts against the address (ipRateLimit).
        if (refused.status === 401 && r.limitedAt) {
          Object.assign(
            headers,
            rateLimitHeaders(limiter.hit(failuresBucket(address), config.publicRateLimitPerMinute)),
          );
        }
        return [{ ...refusedAnswer(refused.status, refused.message, r.route), headers }, prefix];
      }
      if (row!.body === null) {
        return [{ ...refusedAnswer(404, read.notFound ?? 'Not found', r.route), headers }, prefix];
      }
      return [{ status: 200, headers, body: row!.body, route: r.route }, prefix];
    });
  }

  /** As ipRateLimit, publicCors and the route (its declared read: ETag, 304, 404) answer it. */
  function publicRead(r: FastRoute, params: Record<string, string>, req: Request, env: FastReadsEnv | undefined) {
    const read = r.read as Extract<OneStatementRead, { access: 'public' }>;
    // A caller reading after their own write: readYourWrites decides where it reads.
    if (readAfterOf(req.headers.get('cookie')) !== null) return undefined;
    return answer(req, async () => {
      const bucket = addressBucket(addressOf(req, env));
      const decision = r.limitedAt ? limiter.hit(bucket, config.publicRateLimitPerMinute) : undefined;
      const headers: Record<string, string> = decision ? rateLimitHeaders(decision) : {};
      if (decision && !decision.allowed) {
        // ipRateLimit answers before the router: no CORS, and the log names where it is mounted.
        headers['Retry-After'] = retryAfter(decision);
        const refused = refusedAnswer(429, tooManyRequestsMessage(decision), r.limitedAt!);
        return [{ ...refused, headers: { ...headers, ...refused.headers } }, null];
      }
      let out: Awaited<ReturnType<typeof read.read>>;
      try {
        out = await read.read(sql, params, req.headers.get('if-none-match') ?? undefined);
      } catch {
        // Hono runs it again, counts it again and answers the error as it answers every other.
        if (decision) limiter.refund(bucket, decision);
        return undefined;
      }
      if (r.cors) Object.assign(headers, PUBLIC_CORS_HEADERS);
      Object.assign(headers, publicReadHeaders(out));
      if ('notModified' in out) return [{ status: 304, headers, body: null, route: r.route }, null];
      if (!('etag' in out)) {
        const missing = refusedAnswer(404, read.notFound, r.route);
        return [{ ...missing, headers: { ...headers, ...missing.headers } }, null];
      }
      headers['Content-Type'] = 'application/json';
      return [{ status: 200, headers, body: out.data.body, route: r.route }, null];
    });
  }

  function addressOf(req: Request, env: FastReadsEnv | undefined) {
    return clientAddress(req.headers.get('x-forwarded-for') ?? undefined, env?.remoteAddr?.hostname, config.trustProxy);
  }

  /** The answer the read decided (or Hono's turn), in the envelope both paths seal their answers with. */
  async function answer(req: Request, decide: () => Promise<[Answer, string | null] | undefined>) {
    const started = performance.now();
    const decided = await decide();
    if (!decided) return undefined;
    const [{ status, headers, body, route }, keyPrefix] = decided;
    // Set one by one: Response's init converts a record of headers at ≈ 1 µs a header, set() at a tenth.
    const response = new Response(body, { status });
    for (const name in headers) response.headers.set(name, headers[name]);
    const requestId = requestIdOf(req.headers.get('x-request-id'));
    sealAnswer(response.headers, { method: 'GET', status, route, started, requestId, keyPrefix }, log);
    return response;
  }
}

/** An error answer in the contract's format. */
function refusedAnswer(status: number, message: string, route: string): Answer {
  return {
    status,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(errorBody(status, message)),
    route,
  };
}
