// How a tool reaches the route it mirrors: a request of the API's own, dispatched in this process
// through the whole app (its middleware, the credential's scope and rate limit, the route's
// validation and answer), as the caller's: the same key, the same client address. A tool is
// never a twin of its route.
import type { Context } from 'hono';
import type { AppEnv } from '../http/env.ts';

/** The app's own dispatch (Hono's, before the fast path), with the bindings of the request. */
export type Dispatch = (req: Request, env: AppEnv['Bindings']) => Response | Promise<Response>;

/** What a route answered: its status and its JSON body (the contract's error body on an error). */
export interface RouteAnswer {
  status: number;
  body: unknown;
}

/** The caller of one MCP request, whose tool calls the routes answer. */
export interface ToolCaller {
  /** The request's key, as sent (`Bearer rk_…`), or undefined for the public. */
  authorization: string | undefined;
  call(method: string, path: string, init?: { query?: Record<string, unknown>; body?: unknown }): Promise<RouteAnswer>;
}

/** The headers that make a dispatched request the caller's: who they are and where they come from. */
const CARRIED = ['authorization', 'x-forwarded-for', 'user-agent', 'x-request-id'];

export function toolCaller(c: Context<AppEnv>, dispatch: Dispatch): ToolCaller {
  const origin = new URL(c.req.url).origin;
  const headers = new Headers();
  for (const name of CARRIED) {
    const value = c.req.header(name);
    if (value !== undefined) headers.set(name, value);
  }
  // The MCP request counted once against the address's public limit; its calls of public routes
  // count there no more (the credential's own limit still counts a keyed route's).
  const env: AppEnv['Bindings'] = { remoteAddr: c.env?.remoteAddr, addressCounted: true };
  return {
    authorization: c.req.header('authorization'),
    async call(method, path, init = {}) {
      const url = new URL(`/api/v1${path}`, origin);
      for (const [name, value] of Object.entries(init.query ?? {})) {
        if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
      }
      const h = new Headers(headers);
      if (init.body !== undefined) h.set('content-type', 'application/json');
      const res = await dispatch(
        new Request(url, {
          method,
          headers: h,
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        }),
        env,
      );
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
  };
}
