import type { Context } from 'hono';
import { errorResponse } from '../../http/errors.ts';

interface RouteLike {
  method: string;
  path: string;
}

function pattern(path: string): RegExp {
  const body = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
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
    if (methods.length > 0) {
      if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
      c.header('Allow', methods.join(', '));
      return errorResponse(c, 405, `Method ${c.req.method} is not allowed on ${c.req.path}`);
    }
    return errorResponse(c, 404, `No route for ${c.req.method} ${c.req.path}`);
  };
}
