import type { Context, MiddlewareHandler } from 'hono';
import { bearerToken, isWellFormedKey, sha256 } from '../../api-keys/format.ts';
import { ApiError, errorResponse } from '../../http/errors.ts';
import type { AppEnv, KeyRead, Scope } from '../../http/env.ts';
import { setRateLimitHeaders, tooManyRequests } from '../rate-limit/index.ts';
import { beginTenantTransaction } from '../../../core/db/roles.ts';
import { isUuid } from '../../../core/uuid.ts';

const RANK: Record<Scope, number> = { read: 1, write: 2, admin: 3 };

export interface ApiKeyAuthOptions {
  /** The least scope the route needs; admin ⊃ write ⊃ read. */
  scope: Scope;
  /**
   * The route answers with one statement that checks the key itself (`c.var.keyRead`): no
   * tenant transaction is opened for it.
   */
  oneStatementRead?: boolean;
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

/** The key the request carries, or the 401 answer for a missing or malformed one. */
function keyOf(c: Context<AppEnv>): string | Response {
  const header = c.req.header('authorization');
  if (!header) {
    return errorResponse(c, 401, 'Missing API key: send Authorization: Bearer rk_…');
  }
  const key = bearerToken(header);
  if (!key || !isWellFormedKey(key)) {
    return errorResponse(c, 401, 'Malformed API key: expected Authorization: Bearer rk_…');
  }
  return key;
}

/**
 * What the database said of the key, as an answer when the request may not go on (401, 429, the
 * path's organization not a UUID or not the key's, the scope too low), else null. Sets the
 * rate-limit headers and the key's context either way.
 */
function refusal(c: Context<AppEnv>, row: AuthRow | undefined, scope: Scope): Response | null {
  if (!row) return errorResponse(c, 401, 'Invalid API key: it is unknown, revoked or was rotated');
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
    if (!isUuid(orgId)) return errorResponse(c, 400, 'orgId: must be a UUID');
    if (orgId.toLowerCase() !== row.org_id) {
      return errorResponse(c, 403, 'This API key belongs to another organization');
    }
  }
  if (RANK[row.scope] < RANK[scope]) {
    return errorResponse(c, 403, `This action needs an API key with the ${scope} scope; this key has ${row.scope}`);
  }
  return null;
}

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
 *
 * With `oneStatementRead`, no transaction is opened: the handler's read is one statement that
 * authenticates the key (plaudit.authenticate inside it) and, when the key may read, reads as
 * plaudit_api with its tenant (docs/design.md, "A request's life").
 */
export function apiKeyAuth({ scope, oneStatementRead = false }: ApiKeyAuthOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = keyOf(c);
    if (key instanceof Response) return key;

    const { sql, config } = c.var;
    const hash = sha256(key);
    const orgId = c.req.param('orgId');
    const pathOrg = isUuid(orgId) ? orgId.toLowerCase() : null;

    if (oneStatementRead) return await readWithKey(c, next, { hash, pathOrg, scope });

    const conn = await sql.reserve();
    // postgres.js sends a query when it is first awaited or executed: this one must go first.
    const auth = conn<AuthRow[]>`
      select * from plaudit.authenticate(${hash}, ${config.rateLimitPerMinute})`.execute();

    const tenant = beginTenantTransaction(conn, 'plaudit_api', pathOrg, { readOnly: READ_ONLY.has(c.req.method) });
    let row: AuthRow | undefined;
    try {
      [row] = await auth;
    } catch (err) {
      await tenant.rollback();
      throw err;
    }
    const refused = refusal(c, row, scope);
    if (refused) {
      void tenant.rollback();
      return refused;
    }
    if (orgId === undefined) tenant.setOrg(row!.org_id);

    c.set('db', tenant.tx);
    try {
      await next();
    } catch (err) {
      await tenant.rollback();
      throw err;
    }
    if (READ_ONLY.has(c.req.method)) {
      void tenant.rollback();
    } else if (!c.error && c.res.status < 400) {
      await tenant.commit();
    } else {
      await tenant.rollback();
    }
  };
}

/**
 * The one-statement read: the handler's statement authenticates the key and reads (one round
 * trip, no transaction of the API's). When the handler never reads (its input was refused), the
 * key is authenticated alone and its refusal wins, so a bad query parameter with an unknown key
 * answers 401, as on every other route.
 */
async function readWithKey(
  c: Context<AppEnv>,
  next: () => Promise<void>,
  { hash, pathOrg, scope }: { hash: Uint8Array; pathOrg: string | null; scope: Scope },
) {
  const { sql, config } = c.var;
  const authenticate = async () => {
    const [row] = await sql<AuthRow[]>`select * from plaudit.authenticate(${hash}, ${config.rateLimitPerMinute})`;
    return refusal(c, row, scope);
  };
  let decided: Response | null | undefined;
  const keyRead: KeyRead = async (build, notFound = 'Not found') => {
    // A path organization that is not a UUID reads nothing: the key's refusal or the 400 answers.
    if (c.req.param('orgId') !== undefined && !pathOrg) {
      decided = await authenticate();
      if (decided) return decided;
      throw new ApiError(400, 'orgId: must be a UUID');
    }
    const [row] = await build(sql, { hash, orgId: pathOrg, rateLimit: config.rateLimitPerMinute });
    decided = refusal(c, row as AuthRow | undefined, scope);
    if (decided) return decided;
    if (row.body === null) throw new ApiError(404, notFound);
    return c.body(row.body as string, 200, { 'Content-Type': 'application/json' });
  };
  c.set('keyRead', keyRead);
  await next();
  if (decided === undefined) {
    const refused = await authenticate();
    if (refused) c.res = refused;
  }
}
