// How the fast path (fast-reads/) honours each middleware that Hono runs before a one-statement
// read. A middleware on the way to such a route carries its account here; the fast path refuses
// to start when one of them has none, so that a new header or check cannot skip it silently.

/**
 * What the fast path does in a middleware's stead: `envelope`, the request id, nosniff and the log
 * line (sealAnswer); `context`, nothing (it has the app's sql and config); `writes-only`, nothing
 * (it answers GET only); `address-limit`, the per-address limit (ipRateLimit's limiter); `bodiless`,
 * it leaves a request with a body to Hono; `plain-text`, it takes only paths and query strings of
 * unreserved ASCII characters, which need no decoding and hold nothing to refuse; `public-cors`,
 * the public CORS headers on an answer to one of `methods`; `read-after-write`, it leaves a public
 * read carrying the read-after-write cookie to Hono (middleware/read-your-writes).
 */
export type FastPathAccount =
  | { kind: 'envelope' }
  | { kind: 'context' }
  | { kind: 'writes-only' }
  | { kind: 'address-limit' }
  | { kind: 'bodiless' }
  | { kind: 'plain-text' }
  | { kind: 'public-cors'; methods: readonly string[] }
  | { kind: 'read-after-write' };

// deno-lint-ignore ban-types -- any middleware, whatever its context's type
type Handler = Function;

const accounts = new WeakMap<Handler, FastPathAccount>();

/** Records how the fast path honours `handler`, and gives the handler back. */
export function accountedFor<H extends Handler>(account: FastPathAccount, handler: H): H {
  accounts.set(handler, account);
  return handler;
}

/** How the fast path honours `handler`, or undefined when it cannot. */
export function fastPathAccountOf(handler: Handler): FastPathAccount | undefined {
  return accounts.get(handler);
}

/** A URL's query string without its `?` ('' without one): what one-statement reads declare. */
export function queryStringOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}
