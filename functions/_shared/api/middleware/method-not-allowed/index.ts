import type { Context } from 'hono';
import { errorResponse } from '../../http/errors.ts';

interface RouteLike {
  method: string;
  path: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A route's path as a regular expression. A parameter matches one segment, or what its own pattern
 * allows when it has one (`/:file{sitemap-[0-9]+\\.xml}`): read as any segment, such a route would
 * claim every one-segment path.
 */
export function pattern(path: string): RegExp {
  const body = path.replace(/:\w+(\{(?:[^{}]|\{[^{}]*\})*\})?\??|[^:]+/g, (part, constraint?: string) => {
    if (!part.startsWith(':')) return escape(part);
    const optional = part.endsWith('?');
    const one = constraint ? `(?:${constraint.slice(1, -1)})` : '[^/]+';
    return optional ? `(?:${one})?` : one;
  });
  return new RegExp(`^${body}/?$`);
}

/**
 * The not-found handler: 405 with an Allow header when the path exists under other methods,
 * else 404, both in the contract's error format.
 */
export function notFoundOrMethodNotAllowed(routes: () => RouteLike[]) {
  let table: { re: RegExp; method: string }[] | undefined;
  return (c: Context) => {
    table ??= routes()
      .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
      .map((r) => ({ re: pattern(r.path), method: r.method }));
    const methods = [...new Set(table.filter((r) => r.re.test(c.req.path)).map((r) => r.method))];
    // A path the router did not answer under a method that one of its patterns names was not that
    // route's (a pattern here is looser than the router): a 404, never a 405 that allows the method.
    const asked = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    if (methods.length > 0 && !methods.includes(asked)) {
      if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
      c.header('Allow', methods.join(', '));
      return errorResponse(c, 405, `Method ${c.req.method} is not allowed on ${c.req.path}`);
    }
    return errorResponse(c, 404, `No route for ${c.req.method} ${c.req.path}`);
  };
}
