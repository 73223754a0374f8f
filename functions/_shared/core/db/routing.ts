// Where a public read runs. The app registers its replicas on its primary pool once
// (routePublicReads); runAsPublic (roles.ts) then sends every public statement not kept on the
// primary to a replica that serves (replicas.ts, through readOnReplica), so every public route
// follows the rule without saying so. Everything else (keyed and session requests' transactions, the worker, writes)
// uses the primary pool directly and never meets a replica.
import type { Sql } from './client.ts';
import type { ReplicaSet } from './replicas.ts';

const replicasOfPrimary = new WeakMap<Sql, ReplicaSet>();
const pinnedOfPrimary = new WeakMap<Sql, Sql>();

/** Public reads on `primary` go to `replicas` from now on. */
export function routePublicReads(primary: Sql, replicas: ReplicaSet): void {
  if (replicas.size > 0) replicasOfPrimary.set(primary, replicas);
}

/**
 * The same pool as `primary`, on which public reads stay on the primary: for a request that must
 * see its caller's own write (docs/scaling.md, "Read your writes"). A transparent proxy, made
 * once per pool, so it costs nothing per request.
 */
export function primaryOnly(primary: Sql): Sql {
  let pinned = pinnedOfPrimary.get(primary);
  if (!pinned) {
    pinned = new Proxy(primary, {});
    pinnedOfPrimary.set(primary, pinned);
  }
  return pinned;
}

/**
 * Runs a public read (`run`, on the pool it is given) on a replica that serves, else on `sql`
 * itself; a read the replica could not answer runs again on `sql`. runAsPublic goes through here,
 * and so does a public read that is not one of its statements (a SECURITY DEFINER dispatcher's).
 * Never for a write: on a standby it fails before changing anything, then runs on the primary.
 */
export async function readOnReplica<T>(sql: Sql, run: (db: Sql) => Promise<T>): Promise<T> {
  const replicas = replicasOfPrimary.get(sql);
  const replica = replicas?.pick();
  if (replica) {
    try {
      return await run(replica);
    } catch (err) {
      const failure = failureOf(err);
      if (failure === 'statement') throw err;
      if (failure === 'unreachable') replicas!.markDown(replica);
    }
  }
  return await run(sql);
}

/** SQLSTATEs of a standby that could not answer a statement the primary can. */
const REFUSED_BY_STANDBY = new Set([
  '25006', // read_only_sql_transaction: a public statement that writes, not declared so
  '40001', // serialization_failure: on a standby, a query cancelled by a conflict with recovery
  '53300', // too_many_connections
]);

/**
 * What a failed read on a replica says: the replica is gone (a connection error, a server
 * shutting down or starting), it could not answer this statement (a standby's refusal), or the
 * statement itself is wrong, which the primary would refuse alike.
 */
function failureOf(err: unknown): 'unreachable' | 'refused' | 'statement' {
  const e = err as { code?: unknown; severity?: unknown } | null;
  // Only PostgreSQL's own errors carry a severity: anything else is the connection's.
  if (!e || typeof e.severity !== 'string') return 'unreachable';
  const code = typeof e.code === 'string' ? e.code : '';
  if (code.startsWith('08') || code.startsWith('57P')) return 'unreachable';
  return REFUSED_BY_STANDBY.has(code) ? 'refused' : 'statement';
}
