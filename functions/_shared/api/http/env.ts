import type { Config } from '../../core/config.ts';
import type { Sql, Tx } from '../../core/db/client.ts';
import type postgres from 'postgres';

export type Scope = 'read' | 'write' | 'admin';

export interface ApiKeyContext {
  keyId: string;
  orgId: string;
  scope: Scope;
  prefix: string;
}

/** What a one-statement read gets to build its statement with. */
export interface KeyReadArgs {
  /** SHA-256 of the key, which the statement authenticates. */
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
export type KeyRead = (
  build: (sql: Sql, key: KeyReadArgs) => postgres.PendingQuery<postgres.Row[]>,
  notFound?: string,
) => Promise<Response>;

/** What the app's context carries; see createApp for who sets each. */
export interface AppEnv {
  Variables: {
    sql: Sql;
    config: Config;
    requestId: string;
    apiKey?: ApiKeyContext;
    /** The request's tenant transaction, opened by the API-key middleware. */
    db: Tx;
    /** A one-statement read checked by the key (routes declared with `oneStatementRead`). */
    keyRead: KeyRead;
  };
  Bindings: { remoteAddr?: { hostname: string } };
}
