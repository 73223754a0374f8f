import type { Config } from '../../core/config.ts';
import type { Sql, Tx } from '../../core/db/client.ts';
import type postgres from 'postgres';

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

/**
 * Runs a one-statement read (a plaudit.api_* function: plaudit.authenticate's row and the body)
 * and answers the response: the body, 404 when there is none, or the key's refusal.
 */
export type CredentialRead = (
  build: (sql: Sql, key: CredentialReadArgs) => postgres.PendingQuery<postgres.Row[]>,
  notFound?: string,
) => Promise<Response>;

/** What the app's context carries; see createApp for who sets each. */
export interface AppEnv {
  Variables: {
    sql: Sql;
    config: Config;
    requestId: string;
    /** Set by the credential middleware (credential) on every authenticated route. */
    caller?: Caller;
    /** The request's tenant transaction, opened by the credential middleware. */
    db: Tx;
    /** A one-statement read checked by the key (routes declared with `oneStatementRead`). */
    credentialRead: CredentialRead;
  };
  Bindings: { remoteAddr?: { hostname: string } };
}
