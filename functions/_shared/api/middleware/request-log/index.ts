import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/env.ts';

export type LogLine = Record<string, unknown>;

export interface RequestLogOptions {
  /** Where lines go; one JSON object per line on stdout by default. */
  write?: (line: LogLine) => void;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export const writeJsonLine = (line: LogLine) => console.log(JSON.stringify(line));

/**
 * Gives every request an id (the caller's X-Request-Id when it is a sane token), echoes it in the
 * response, and logs one line per request: method, route pattern, status, duration, request id
 * and the API key's display prefix. Never the key, a secret, a body or an e-mail address: the
 * route pattern is logged, not the path, so ids and slugs in paths stay out of the log too.
 */
export function requestLog({ write = writeJsonLine }: RequestLogOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set('requestId', requestId);
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    write({
      time: new Date().toISOString(),
      level: c.res.status >= 500 ? 'error' : 'info',
      msg: 'request',
      method: c.req.method,
      route: c.req.routePath,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 100) / 100,
      request_id: requestId,
      key_prefix: c.get('caller')?.prefix ?? null,
    });
  };
}
