import type { MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import { errorResponse } from '../../http/errors.ts';
import type { AppEnv } from '../../http/env.ts';

export interface BodyLimitOptions {
  /** Bytes allowed by default. */
  maxSize: number;
  /** Larger allowances for particular paths (bulk routes). */
  overrides?: { pattern: RegExp; maxSize: number }[];
}

function describe(bytes: number) {
  if (bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** 413 in the contract's error format for bodies over the limit of their route. */
export function bodyLimit({ maxSize, overrides = [] }: BodyLimitOptions): MiddlewareHandler<AppEnv> {
  const make = (size: number) =>
    honoBodyLimit({
      maxSize: size,
      onError: (c) => errorResponse(c, 413, `Request body exceeds the limit of ${describe(size)}`),
    });
  const fallback = make(maxSize);
  const special = overrides.map((o) => ({ pattern: o.pattern, limiter: make(o.maxSize) }));
  return (c, next) => {
    const match = special.find((s) => s.pattern.test(c.req.path));
    return (match?.limiter ?? fallback)(c, next);
  };
}
