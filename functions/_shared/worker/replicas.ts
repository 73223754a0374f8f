// The read replicas, as far as the worker needs them: a CDN purge must not go out before every
// healthy replica has replayed the change it announces, or a CDN could refill its cache from a
// replica that still shows the old answer and keep it until the next purge.

/**
 * Resolves once every healthy replica has replayed the primary's WAL up to `lsn` (the position
 * noted when the purge was claimed, after its change committed).
 *
 * Today the API reads from the primary only, so there is nothing to wait for: it resolves at
 * once. The replica work plugs in here: poll each healthy replica's
 * `pg_last_wal_replay_lsn() >= lsn` (skipping those past REPLICA_MAX_LAG_MS, whose reads go to
 * the primary) until all are caught up.
 */
export function waitForReplicas(_lsn: string): Promise<void> {
  return Promise.resolve();
}
