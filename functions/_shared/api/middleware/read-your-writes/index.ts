// Read your writes, with read replicas (docs/scaling.md, "Read your writes"). After a member's or
// a key's write succeeds, the answer sets a short-lived cookie holding the primary's WAL position
// after the commit (pg_current_wal_insert_lsn(), as GitLab's database load balancer does). A
// later request carrying it, while a replica that serves reads has not replayed that position,
// reads on the primary (routing.ts, primaryOnly) and is answered `private, no-store`, so that no
// cache keeps it: the shop owner who hid a review and opens the public page sees it hidden.
// Without replicas it does nothing.
import type { MiddlewareHandler } from 'hono';
import { isLsn } from '../../../core/db/lag.ts';
import { primaryOnly } from '../../../core/db/routing.ts';
import type { AppEnv } from '../../http/env.ts';

/** The cookie's name; the fast path leaves a request carrying it to this middleware. */
export const READ_AFTER_COOKIE = 'plaudit_read_after';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The WAL position a request's cookie carries, or null (none, or not a position). */
export function readAfterOf(cookieHeader: string | undefined | null): string | null {
  if (!cookieHeader || !cookieHeader.includes(READ_AFTER_COOKIE)) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== READ_AFTER_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return isLsn(value) ? value : null;
  }
  return null;
}

export function readYourWrites(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const replicas = c.var.replicas;
    if (!replicas) return next();
    const after = readAfterOf(c.req.header('cookie'));
    const pinned = after !== null && !replicas.replayed(after);
    if (pinned) c.set('sql', primaryOnly(c.var.sql));
    await next();
    if (pinned) c.res.headers.set('Cache-Control', 'private, no-store');
    if (!c.var.caller || READS.has(c.req.method) || c.res.status >= 400) return;
    let lsn: string;
    try {
      // The caller's transaction has committed (the credential middleware, inside this one).
      [{ lsn }] = await c.var.sql<{ lsn: string }[]>`select pg_current_wal_insert_lsn()::text as lsn`;
    } catch {
      return; // the write stands; only its freshness guarantee is lost
    }
    // Past the bound plus a check, every replica that serves reads has it.
    const maxAge = Math.ceil((replicas.maxLagMs + 2 * replicas.intervalMs) / 1000);
    const secure = c.var.config.publicUrl.startsWith('https:') ? '; Secure' : '';
    c.res.headers.append(
      'Set-Cookie',
      // A WAL position (`16/B374D848`) is a cookie value as it is.
      `${READ_AFTER_COOKIE}=${lsn}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure}`,
    );
  };
}
