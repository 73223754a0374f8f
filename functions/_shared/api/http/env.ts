import type { Config } from '../../core/config.ts';
import type { Sql, Tx } from '../../core/db/client.ts';

export type Scope = 'read' | 'write' | 'admin';

export interface ApiKeyContext {
  keyId: string;
  orgId: string;
  scope: Scope;
  prefix: string;
}

/** What the app's context carries; see createApp for who sets each. */
export interface AppEnv {
  Variables: {
    sql: Sql;
    config: Config;
    requestId: string;
    apiKey?: ApiKeyContext;
    /** The request's tenant transaction, opened by the API-key middleware. */
    db: Tx;
  };
  Bindings: { remoteAddr?: { hostname: string } };
}
