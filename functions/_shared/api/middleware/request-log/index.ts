import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/env.ts';

export type LogLine = Record<string, unknown>;

export interface RequestLogOptions {
  /** Where lines go; one JSON object per line on stdout by default. */
  write?: (line: LogLine) => void;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export const writeJsonLine = (line: LogLine) => console.log(JSON.stringify(line));

/** The request's id: the caller's X-Request-Id when it is a sane token, else a new one. */
export function requestIdOf(incoming: string | null | undefined): string {
  return incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/** The one line logged per request (`started` is performance.now() at its start). */
export function requestLine(
  r: { method: string; route: string; status: number; started: number; requestId: string; keyPrefix: string | null },
): LogLine {
  return {
    time: new Date().toISOString(),
    level: r.status >= 500 ? 'error' : 'info',
    msg: 'request',
    method: r.method,
    route: r.route,
    status: r.status,
    ms: Math.round((performance.now() - r.started) * 100) / 100,
    request_id: r.requestId,
    key_prefix: r.keyPrefix,
  };
}

/**
 * Gives every request an id (the caller's X-Request-Id when it is a sane token), echoes it in the
 * response, and logs one line per request: method, route pattern, status, duration, request id
 * and the API key's display prefix. Never the key, a secret, a body or an e-mail address: the
 * route pattern is logged, not the path, so ids and slugs in paths stay out of the log too.
 */
export function requestLog({ write = writeJsonLine }: RequestLogOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdOf(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    write(requestLine({
      method: c.req.method,
      route: c.req.routePath,
      status: c.res.status,
      started,
      requestId,
      keyPrefix: c.get('caller')?.prefix ?? null,
    }));
  };
}
