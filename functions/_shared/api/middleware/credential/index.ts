import type { Context, MiddlewareHandler } from 'hono';
import { bearerToken, isWellFormedKey, sha256 } from '../../api-keys/format.ts';
import { ApiError, errorResponse } from '../../http/errors.ts';
import type {
  AppEnv,
  Caller,
  CredentialReadArgs,
  OneStatementEnv,
  RefusalAnswer,
  Role,
  Scope,
  TenantEnv,
} from '../../http/env.ts';
import { queryStringOf } from '../../http/fast-path.ts';
import { answerJsonText, type JsonText } from '../../http/json-text.ts';
import type { Sql } from '../../../core/db/client.ts';
import { hasCsrfToken, sessionTokenOf } from '../../http/session-cookie.ts';
import {
  type RateLimitDecision,
  setRateLimitHeaders,
  tooManyRequests,
  tooManyRequestsMessage,
} from '../rate-limit/index.ts';
import { beginTenantTransaction } from '../../../core/db/roles.ts';
import { isUuid } from '../../../core/uuid.ts';

const RANK: Record<Scope, number> = { read: 1, write: 2, admin: 3 };

export interface CredentialOptions {
  /** The least scope the route needs; admin ⊃ write ⊃ read. */
  scope: Scope;
  /**
   * The route's read is one statement that checks the credential itself
   * (`c.var.readInOneStatement`): no tenant transaction is opened for the requests it answers.
   */
  // deno-lint-ignore no-explicit-any -- the body's type is the route's
  oneStatementRead?: CredentialReadDeclaration<any>;
}

/** A one-statement read's row: plaudit.authenticate's, and the body it wrote (null: nothing found). */
export type CredentialReadRow<T> = AuthRow & { body: JsonText<T> | null };

/**
 * An organization route's read that is one statement (a plaudit.api_* function that authenticates
 * the credential and reads as plaudit_api with its tenant): no transaction of the API's, and the
 * fast path (fast-reads/) answers it before the router, from this declaration.
 */
export interface CredentialReadDeclaration<T> {
  /** The statement, for the path's parameters (already valid by the route's schema). */
  statement: (sql: Sql, credential: CredentialReadArgs, params: Record<string, string>) => PromiseLike<
    CredentialReadRow<T>[]
  >;
  /** The 404's message when the statement found nothing. */
  notFound?: string;
  /**
   * The query strings the statement answers besides none, exactly as written (`page=1`); any
   * other gets the route's own query in the tenant transaction. Without it, the statement answers
   * every request of the route and the fast path takes those without a query string.
   */
  queries?: readonly string[];
}

export interface AuthRow {
  key_id: string | null;
  org_id: string | null;
  scope: Scope | null;
  prefix: string | null;
  rate_limit: number;
  allowed: boolean;
  remaining: number;
  reset_at: string;
  /** A session's: plaudit.authenticate_session's extra columns. */
  member_id?: string | null;
  member_role?: Role | null;
}

/** Methods whose handlers only read: their transaction is read-only and ends after the answer. */
const READ_ONLY = new Set(['GET', 'HEAD']);

/** What proves who the caller is: an API key (Authorization), else a dashboard session (cookie). */
export type Credential = { kind: 'key' | 'session'; token: string };

/**
 * The request's credential, or the answer for a missing or malformed one, or for a session's
 * state-changing request without its CSRF token (refused before the database is asked).
 */
function credentialOf<E extends AppEnv>(c: Context<E>): Credential | Response {
  const header = c.req.header('authorization');
  if (!header) {
    const session = sessionTokenOf(c);
    if (session === undefined) return errorResponse(c, 401, 'Missing API key: send Authorization: Bearer rk_…');
    if (!READ_ONLY.has(c.req.method) && !hasCsrfToken(c, session)) {
      return errorResponse(
        c,
        403,
        'Missing or wrong CSRF token: send X-CSRF-Token with the csrf_token of GET /api/v1/auth/session',
      );
    }
    return { kind: 'session', token: session };
  }
  const key = bearerToken(header);
  if (!key || !isWellFormedKey(key)) {
    return errorResponse(c, 401, 'Malformed API key: expected Authorization: Bearer rk_…');
  }
  return { kind: 'key', token: key };
}

const REFUSALS = {
  key: {
    unknown: 'Invalid API key: it is unknown, revoked or was rotated',
    foreign: 'This API key belongs to another organization',
    scope: (need: Scope, has: string) => `This action needs an API key with the ${need} scope; this key has ${has}`,
  },
  session: {
    unknown: 'Your session has ended: sign in again',
    foreign: 'You are not a member of this organization',
    scope: (need: Scope, has: string) => `This action needs the ${need} scope; your role acts with ${has}`,
  },
};

/** What the database's row says of a credential, before any answer is written. */
export interface Verdict {
  /** The credential's rate-limit window, for its headers (absent for an unknown credential). */
  decision?: RateLimitDecision;
  /** Who is calling, once the credential is known to act on an organization. */
  caller?: Caller;
  /** Why the request may not go on (401, 429, 400, 403), or absent when it may. */
  refused?: { status: 400 | 401 | 403 | 429; message: string };
}

/**
 * Judges plaudit.authenticate's (or authenticate_session's) row for a route needing `scope`, with
 * the path's organization `orgId` (undefined on a route without one): the one decision both the
 * credential middleware and the fast reads (fast-reads/) answer from.
 */
export function judgeCredential(
  kind: Credential['kind'],
  row: AuthRow | undefined,
  scope: Scope,
  orgId: string | undefined,
): Verdict {
  const says = REFUSALS[kind];
  if (!row) return { refused: { status: 401, message: says.unknown } };
  const decision = {
    limit: row.rate_limit,
    remaining: row.remaining,
    reset: Number(row.reset_at),
    allowed: row.allowed,
  };
  if (!decision.allowed) return { decision, refused: { status: 429, message: tooManyRequestsMessage(decision) } };
  if (orgId !== undefined && !isUuid(orgId)) {
    return { decision, refused: { status: 400, message: 'orgId: must be a UUID' } };
  }
  if (row.org_id === null || row.scope === null) {
    // A session acts on the organization of the path; without one (GET /me) it has none.
    const message = orgId === undefined ? 'Sign-in sessions act on /organizations/{orgId}/… routes' : says.foreign;
    return { decision, refused: { status: 403, message } };
  }
  const caller: Caller = {
    orgId: row.org_id,
    scope: row.scope,
    keyId: row.key_id,
    prefix: row.prefix,
    memberId: row.member_id ?? null,
    role: row.member_role ?? null,
    actor: row.key_id ? `api_key:${row.key_id}` : `member:${row.member_id}`,
  };
  if (orgId !== undefined && orgId.toLowerCase() !== row.org_id) {
    return { decision, caller, refused: { status: 403, message: says.foreign } };
  }
  if (RANK[row.scope] < RANK[scope]) {
    return { decision, caller, refused: { status: 403, message: says.scope(scope, row.scope) } };
  }
  return { decision, caller };
}

/**
 * What the database said of the credential, as an answer when the request may not go on (401,
 * 429, the path's organization not a UUID or not the caller's, the scope too low), else null.
 * Sets the rate-limit headers and the caller either way.
 */
function refusal<E extends AppEnv>(
  c: Context<E>,
  kind: Credential['kind'],
  row: AuthRow | undefined,
  scope: Scope,
): Response | null {
  const { decision, caller, refused } = judgeCredential(kind, row, scope, c.req.param('orgId'));
  if (decision) setRateLimitHeaders(c, decision);
  if (caller) c.set('caller', caller);
  if (!refused) return null;
  if (refused.status === 429) return tooManyRequests(c, decision!);
  return errorResponse(c, refused.status, refused.message);
}

/**
 * Authenticates the credential (an API key, or a dashboard session and its CSRF token), applies
 * its rate limit, checks the organization in the path and the route's scope, then runs the rest
 * of the request inside a tenant transaction (c.var.db) as plaudit_api. A session is a member's:
 * it reaches the organizations its person belongs to, with the scope of their role there (owner
 * and admin: admin; member: write), and nothing else; the same routes, tenant and row-level
 * security as a key.
 *
 * One round trip does all of it: on one connection, the credential's check
 * (`plaudit.authenticate` or `plaudit.authenticate_session`, its own implicit transaction, so the
 * rate-limit row is locked for microseconds, not for the request) is pipelined with the tenant
 * transaction's set-up, which names the path's organization before the caller is known —
 * harmless, since nothing runs in that transaction unless the caller belongs to that
 * organization. The handler's first query is then the request's second round trip.
 * A write commits only when the answer is a success, so a request that answers an error changes
 * nothing; a read's transaction ends after the answer has gone, off the request's path.
 *
 * With `oneStatementRead`, no transaction is opened: the handler's read is one statement that
 * authenticates the credential (plaudit.authenticate_credential inside it) and, when it may read,
 * reads as plaudit_api with its tenant (docs/design.md, "A request's life").
 */
export function credential(
  { scope, oneStatementRead }: CredentialOptions,
): MiddlewareHandler<TenantEnv & OneStatementEnv> {
  const takes = oneStatementRead && answersInOneStatement(oneStatementRead);
  return async (c, next) => {
    const presented = credentialOf(c);
    if (presented instanceof Response) return presented;

    const { sql, config } = c.var;
    const hash = sha256(presented.token);
    const orgId = c.req.param('orgId');
    const pathOrg = isUuid(orgId) ? orgId.toLowerCase() : null;

    if (takes && takes(c.req.url)) {
      return await readInOneStatement(c, next, oneStatementRead, { kind: presented.kind, hash, pathOrg, scope });
    }

    const conn = await sql.reserve();
    // postgres.js sends a query when it is first awaited or executed: this one must go first.
    const auth = presented.kind === 'key'
      ? conn<AuthRow[]>`select * from plaudit.authenticate(${hash}, ${config.rateLimitPerMinute})`.execute()
      : conn<AuthRow[]>`
          select * from plaudit.authenticate_session(${hash}, ${pathOrg}, ${config.rateLimitPerMinute})`.execute();

    const tenant = beginTenantTransaction(conn, 'plaudit_api', pathOrg, { readOnly: READ_ONLY.has(c.req.method) });
    let row: AuthRow | undefined;
    try {
      [row] = await auth;
    } catch (err) {
      await tenant.rollback();
      throw err;
    }
    const refused = refusal(c, presented.kind, row, scope);
    if (refused) {
      void tenant.rollback();
      return refused;
    }
    if (orgId === undefined) tenant.setOrg(row!.org_id!);
    // The trail names a member by the transaction's actor (a key is named by the functions);
    // a read changes nothing, so it needs none.
    if (presented.kind === 'session' && !READ_ONLY.has(c.req.method)) tenant.setActor(c.var.caller!.actor);

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
 * Whether the one-statement read answers a request of this URL (its query string declared, or
 * none declared): the fast path (fast-reads/) takes the same decision.
 */
export function answersInOneStatement(read: { queries?: readonly string[] }): (url: string) => boolean {
  if (!read.queries) return () => true;
  const queries = new Set(['', ...read.queries]);
  return (url) => queries.has(queryStringOf(url));
}

/**
 * The one-statement read: the declared statement authenticates the credential and reads (one
 * round trip, no transaction of the API's), once the route has validated its input. When the
 * handler never reads (its input was refused), the credential is authenticated alone and its
 * refusal wins, so a bad query parameter with an unknown key answers 401, as on every other route.
 */
async function readInOneStatement(
  c: Context<TenantEnv & OneStatementEnv>,
  next: () => Promise<void>,
  // deno-lint-ignore no-explicit-any -- the body's type is the route's
  read: CredentialReadDeclaration<any>,
  { kind, hash, pathOrg, scope }: { kind: Credential['kind']; hash: Uint8Array; pathOrg: string | null; scope: Scope },
) {
  const { sql, config } = c.var;
  const authenticate = async () => {
    const [row] = await sql<AuthRow[]>`
      select * from plaudit.authenticate_credential(${hash}, ${pathOrg}, ${config.rateLimitPerMinute})`;
    return refusal(c, kind, row, scope);
  };
  let decided: Response | null | undefined;
  c.set('readInOneStatement', async () => {
    // A path organization that is not a UUID reads nothing: the credential's refusal or the 400 answers.
    if (c.req.param('orgId') !== undefined && !pathOrg) {
      decided = await authenticate();
      if (decided) return decided as unknown as RefusalAnswer;
      throw new ApiError(400, 'orgId: must be a UUID');
    }
    const args = { hash, orgId: pathOrg, rateLimit: config.rateLimitPerMinute };
    const [row] = await read.statement(sql, args, c.req.param());
    decided = refusal(c, kind, row, scope);
    // Its status is one of the refusals' (the contract's error body).
    if (decided) return decided as unknown as RefusalAnswer;
    if (row.body === null) throw new ApiError(404, read.notFound ?? 'Not found');
    return answerJsonText(c, row.body);
  });
  await next();
  if (decided === undefined) {
    const refused = await authenticate();
    if (refused) c.res = refused;
  }
}
