import type { MiddlewareHandler } from 'hono';
import { bearerToken, isWellFormedKey, sha256 } from '../../api-keys/format.ts';
import { openTenantTransaction } from '../../db/client.ts';
import { errorResponse } from '../../http/errors.ts';
import type { AppEnv, Scope } from '../../http/env.ts';
import { setRateLimitHeaders, tooManyRequests } from '../rate-limit/index.ts';

const RANK: Record<Scope, number> = { read: 1, write: 2, admin: 3 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/**
 * Authenticates the API key, applies its rate limit, checks the organization in the path and the
 * route's scope, then runs the rest of the request inside a tenant transaction (c.var.db) as
 * plaudit_api. One round trip authenticates and counts; the tenant set-up rides along with the
 * handler's first query. The transaction commits only when the answer is a success, so a request
 * that answers an error changes nothing.
 */
export function apiKeyAuth({ scope }: ApiKeyAuthOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (!header) {
      return errorResponse(c, 401, 'Missing API key: send Authorization: Bearer rk_…');
    }
    const key = bearerToken(header);
    if (!key || !(await isWellFormedKey(key))) {
      return errorResponse(c, 401, 'Malformed API key: expected Authorization: Bearer rk_…');
    }

    const { sql, config } = c.var;
    const hash = await sha256(key);
    const [row] = await sql<AuthRow[]>`
      select * from plaudit.authenticate(${hash}, ${config.rateLimitPerMinute})`;
    if (!row) {
      return errorResponse(c, 401, 'Invalid API key: it is unknown, revoked or was rotated');
    }
    c.set('apiKey', { keyId: row.key_id, orgId: row.org_id, scope: row.scope, prefix: row.prefix });

    const decision = {
      limit: row.rate_limit,
      remaining: row.remaining,
      reset: Number(row.reset_at),
      allowed: row.allowed,
    };
    setRateLimitHeaders(c, decision);
    if (!decision.allowed) return tooManyRequests(c, decision);

    const orgId = c.req.param('orgId');
    if (orgId !== undefined) {
      if (!UUID.test(orgId)) return errorResponse(c, 400, 'orgId: must be a UUID');
      if (orgId.toLowerCase() !== row.org_id) {
        return errorResponse(c, 403, 'This API key belongs to another organization');
      }
    }
    if (RANK[row.scope] < RANK[scope]) {
      return errorResponse(c, 403, `This action needs an API key with the ${scope} scope; this key has ${row.scope}`);
    }

    const tenant = await openTenantTransaction(sql, 'plaudit_api', row.org_id);
    c.set('db', tenant.tx);
    try {
      await next();
    } catch (err) {
      await tenant.rollback();
      throw err;
    }
    if (!c.error && c.res.status < 400) {
      await tenant.commit();
    } else {
      await tenant.rollback();
    }
  };
}
