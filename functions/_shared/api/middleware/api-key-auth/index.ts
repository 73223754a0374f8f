import type { MiddlewareHandler } from 'hono';
import { bearerToken, isWellFormedKey, sha256 } from '../../api-keys/format.ts';
import { errorResponse } from '../../http/errors.ts';
import type { AppEnv, Scope } from '../../http/env.ts';
import { setRateLimitHeaders, tooManyRequests } from '../rate-limit/index.ts';
import { beginTenantTransaction } from '../../../core/db/roles.ts';
import { isUuid } from '../../../core/uuid.ts';

const RANK: Record<Scope, number> = { read: 1, write: 2, admin: 3 };

export interface ApiKeyAuthOptions {
  /** The least scope the route needs; admin ⊃ write ⊃ read. */
  scope: Scope;
}

interface AuthRow {
  key_id: string;
  org_id: string;
  scope: Scope;
  prefix: string;
  rate_limit: number;
  allowed: boolean;
  remaining: number;
  reset_at: string;
}

/** Methods whose handlers only read: their transaction is read-only and ends after the answer. */
const READ_ONLY = new Set(['GET', 'HEAD']);

/**
 * Authenticates the API key, applies its rate limit, checks the organization in the path and the
 * route's scope, then runs the rest of the request inside a tenant transaction (c.var.db) as
 * plaudit_api. One round trip does all of it: on one connection, `plaudit.authenticate` (its own
 * implicit transaction, so the rate-limit row is locked for microseconds, not for the request) is
 * pipelined with the tenant transaction's set-up, which names the path's organization before the
 * key is known — harmless, since nothing runs in that transaction unless the key belongs to
 * that organization. The handler's first query is then the request's second round trip.
 * A write commits only when the answer is a success, so a request that answers an error changes
 * nothing; a read's transaction ends after the answer has gone, off the request's path.
 */
export function apiKeyAuth({ scope }: ApiKeyAuthOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (!header) {
      return errorResponse(c, 401, 'Missing API key: send Authorization: Bearer rk_…');
    }
    const key = bearerToken(header);
    if (!key || !isWellFormedKey(key)) {
      return errorResponse(c, 401, 'Malformed API key: expected Authorization: Bearer rk_…');
    }

    const { sql, config } = c.var;
    const hash = sha256(key);
    const orgId = c.req.param('orgId');
    const pathOrg = isUuid(orgId) ? orgId.toLowerCase() : null;
    const readOnly = READ_ONLY.has(c.req.method);

    const conn = await sql.reserve();
    // postgres.js sends a query when it is first awaited or executed: this one must go first.
    const auth = conn<AuthRow[]>`
      select * from plaudit.authenticate(${hash}, ${config.rateLimitPerMinute})`.execute();
    const tenant = beginTenantTransaction(conn, 'plaudit_api', pathOrg, { readOnly });
    let row: AuthRow | undefined;
    try {
      [row] = await auth;
    } catch (err) {
      await tenant.rollback();
      throw err;
    }
    const refuse = (res: Response) => {
      void tenant.rollback();
      return res;
    };
    if (!row) {
      return refuse(errorResponse(c, 401, 'Invalid API key: it is unknown, revoked or was rotated'));
    }
    c.set('apiKey', { keyId: row.key_id, orgId: row.org_id, scope: row.scope, prefix: row.prefix });

    const decision = {
      limit: row.rate_limit,
      remaining: row.remaining,
      reset: Number(row.reset_at),
      allowed: row.allowed,
    };
    setRateLimitHeaders(c, decision);
    if (!decision.allowed) return refuse(tooManyRequests(c, decision));

    if (orgId !== undefined) {
      if (!pathOrg) return refuse(errorResponse(c, 400, 'orgId: must be a UUID'));
      if (pathOrg !== row.org_id) {
        return refuse(errorResponse(c, 403, 'This API key belongs to another organization'));
      }
    } else {
      tenant.setOrg(row.org_id);
    }
    if (RANK[row.scope] < RANK[scope]) {
      return refuse(
        errorResponse(c, 403, `This action needs an API key with the ${scope} scope; this key has ${row.scope}`),
      );
    }

    c.set('db', tenant.tx);
    try {
      await next();
    } catch (err) {
      await tenant.rollback();
      throw err;
    }
    if (readOnly) {
      void tenant.rollback();
    } else if (!c.error && c.res.status < 400) {
      await tenant.commit();
    } else {
      await tenant.rollback();
    }
  };
}
