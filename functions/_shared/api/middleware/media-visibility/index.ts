// The API's short memory of which media files the public may read (core/media/visibility.ts),
// made available to the file route, and forgotten for an organization as soon as a write of that
// organization succeeds through this instance: its own hide, erasure or profile change is seen
// by the next request here, without waiting for the memory to run out.
import type { MiddlewareHandler } from 'hono';
import type { MediaVisibility } from '../../../core/media/visibility.ts';
import type { AppEnv } from '../../http/env.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function mediaVisibility(visibility: MediaVisibility): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('mediaVisibility', visibility);
    await next();
    const caller = c.var.caller;
    // Forgotten whatever the answer: a failed request may have written before it failed.
    if (caller && !READS.has(c.req.method)) visibility.forgetOrganization(caller.orgId);
  };
}
