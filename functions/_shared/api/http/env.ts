import type { Config } from '../../core/config.ts';
import type { TypedResponse } from 'hono';
import type { Sql, Tx } from '../../core/db/client.ts';
import type { ReplicaSet } from '../../core/db/replicas.ts';
import type { MediaVisibility } from '../../core/media/visibility.ts';
import type { errorBody } from '../../core/errors.ts';

export type Scope = 'read' | 'write' | 'admin';

/** A member's role in an organization. */
export type Role = 'owner' | 'admin' | 'member';

/**
 * Who makes the request: an API key, or a member signed in to the dashboard (a session). Both
 * reach the same routes, tenant and row-level security; only how they prove themselves differs.
 */
export interface Caller {
  orgId: string;
  scope: Scope;
  /** The key, for a key; null for a session. */
  keyId: string | null;
  prefix: string | null;
  /** The member and their role, for a session; null for a key. */
  memberId: string | null;
  role: Role | null;
  /** How the moderation trail names them: `api_key:<id>` or `member:<id>`. */
  actor: string;
}

/** What a one-statement read gets to build its statement with. */
export interface CredentialReadArgs {
  /** SHA-256 of the credential (a key or a session token), which the statement authenticates. */
  hash: Uint8Array;
  /** The organization of the path, or null on a route without one (the key's own). */
  orgId: string | null;
  /** The default per-key limit, for keys without their own. */
  rateLimit: number;
}

/** What every request's context carries; see createApp for who sets each. */
export interface AppEnv {
  Variables: {
    sql: Sql;
    config: Config;
    /** The read replicas public reads may use (core/db/replicas.ts), or null without any. */
    replicas: ReplicaSet | null;
    requestId: string;
    /** Set by the credential middleware on the routes it guards (the log names the key). */
    caller?: Caller;
    /** The media files known visible a few seconds (middleware/media-visibility); unset on the fast path. */
    mediaVisibility?: MediaVisibility;
  };
  Bindings: {
    remoteAddr?: { hostname: string };
    /**
     * A request the API dispatched to itself for a call of the MCP server's (mcp/routes.ts): the
     * MCP request counted against the address's public limit already.
     */
    addressCounted?: boolean;
  };
}

/** An organization route's context (orgRoute): the caller known, the tenant transaction open. */
export interface TenantEnv extends AppEnv {
  Variables: AppEnv['Variables'] & {
    caller: Caller;
    /** The request's tenant transaction, opened by the credential middleware. */
    db: Tx;
  };
}

/**
 * A public route that an organization's credential may call too (publicRoute's `orCredential`):
 * the tenant transaction, and the caller, when a credential called it; neither when the public did.
 */
export interface PublicOrTenantEnv extends AppEnv {
  Variables: AppEnv['Variables'] & {
    db?: Tx;
  };
}

/**
 * A one-statement read's context (orgRoute with `oneStatementRead`): `readInOneStatement` answers
 * the request with the declared statement; a query string the declaration does not take gets the
 * tenant transaction (`db`) instead, for the route's own query.
 */
export interface OneStatementEnv<T = unknown> extends AppEnv {
  Variables: AppEnv['Variables'] & {
    readInOneStatement?: () => Promise<TypedResponse<T, 200, 'json'> | RefusalAnswer>;
    db?: Tx;
  };
}

/** The credential's refusal (a malformed path organization, an unknown key, another organization's, a low scope, over its limit), as every organization route declares it. */
export type RefusalAnswer = TypedResponse<ReturnType<typeof errorBody>, 400 | 401 | 403 | 429, 'json'>;
