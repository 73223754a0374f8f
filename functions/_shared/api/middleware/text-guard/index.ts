import type { MiddlewareHandler } from 'hono';
import { errorResponse } from '../../http/errors.ts';

// PostgreSQL's text cannot hold a NUL character, and UTF-8 cannot encode half of a UTF-16
// surrogate pair: such a string would fail deep in a query. They are refused at the edge instead,
// naming the field, for every route: path, query and JSON body alike.
// deno-lint-ignore no-control-regex -- finding the control character is the point
const NUL = /\u0000/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with a string that PostgreSQL cannot store, or undefined. */
export function unstorable(text: string): string | undefined {
  if (NUL.test(text)) return 'must not contain NUL characters (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text (it holds an unpaired UTF-16 surrogate)';
  return undefined;
}

/** The first field of a parsed JSON value (keys included) holding unstorable text. */
export function findUnstorable(value: unknown, path: string[] = []): { field: string; problem: string } | undefined {
  const field = () => (path.length ? path.join('.') : 'body');
  if (typeof value === 'string') {
    const problem = unstorable(value);
    return problem ? { field: field(), problem } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorable(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = unstorable(key);
      if (keyProblem) return { field: [...path, '(a key)'].join('.'), problem: keyProblem };
      const found = findUnstorable(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Refuses a request whose path or query holds a NUL, or that is not valid UTF-8 (400), or whose
 * JSON body holds a string PostgreSQL cannot store (422, the status of a body that parses but does
 * not validate). A body that does not parse is left to the route, which answers it.
 */
export function textGuard(): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return errorResponse(c, 400, 'path: must be valid UTF-8 once percent-decoded');
    }
    const pathProblem = unstorable(path);
    if (pathProblem) return errorResponse(c, 400, `path: ${pathProblem}`);
    for (const [name, value] of url.searchParams) {
      const problem = unstorable(name) ?? unstorable(value);
      if (problem) return errorResponse(c, 400, `${unstorable(name) ? 'query parameter name' : name}: ${problem}`);
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && /json/i.test(c.req.header('content-type') ?? '')) {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        return next();
      }
      const found = findUnstorable(body);
      if (found) return errorResponse(c, 422, `${found.field}: ${found.problem}`);
    }
    return next();
  };
}
