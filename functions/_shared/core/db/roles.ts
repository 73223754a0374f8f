// "Run as this role, with this tenant": every query of the API and the worker goes through here.
// Each opens a transaction that switches to a role row-level security binds (never the login's
// own) and sets the tenant, both transaction-local, so nothing outlives it on a pooled connection.
//   beginTenantTransaction / openTenantTransaction  an API request's transaction (plaudit_api);
//   runAsPublic                                      one public statement, in one round trip
//                                                    (the public's reads on a read replica);
//   asWorker                                         a worker call (plaudit_worker).
import type postgres from 'postgres';
import { isUuid } from '../uuid.ts';
import type { Sql, Tx } from './client.ts';
import { readOnReplica } from './routing.ts';

export type TenantRole = 'plaudit_api' | 'plaudit_public' | 'plaudit_worker';

export interface TenantTransaction {
  tx: Tx;
  /** Sets the tenant; pipelined, it travels with the next query. */
  setOrg(orgId: string): void;
  /** Names who acts (`plaudit.actor`, for the moderation trail); pipelined like setOrg. */
  setActor(actor: string): void;
  commit(): Promise<void>;
  /** Never throws: a failed rollback still ends the transaction by releasing the connection. */
  rollback(): Promise<void>;
}

/** The statement that sets the tenant. The id is written into it, so it must be a UUID. */
function setOrgStatement(orgId: string | null): string {
  if (orgId !== null && !isUuid(orgId)) throw new Error('a tenant id must be a UUID');
  return `select set_config('plaudit.org_id', '${orgId?.toLowerCase() ?? ''}', true)`;
}

/**
 * Opens a transaction on the reserved connection `tx` that runs as `role` with the tenant set,
 * both local to the transaction so nothing outlives it on a pooled connection. Nothing is
 * awaited here: the set-up is one simple-protocol message (`begin`, the tenant, the role switch;
 * a BEGIN inside it keeps the transaction open after it) that travels with whatever the
 * connection sends next. One message instead of three statements: this runs on every request.
 * `readOnly` makes the database refuse any write in it.
 */
export function beginTenantTransaction(
  tx: Tx,
  role: TenantRole,
  orgId: string | null,
  { readOnly = false }: { readOnly?: boolean } = {},
): TenantTransaction {
  const simple = (statements: string) => {
    const step = tx.unsafe(statements).simple().execute();
    step.catch(() => {}); // a failure surfaces through the request's own queries, and at commit
    return step;
  };
  const setup: Promise<unknown>[] = [
    simple(`${readOnly ? 'begin read only' : 'begin'}; ${setOrgStatement(orgId)}; set local role ${role}`),
  ];
  let finished = false;
  const finish = async (commit: boolean) => {
    if (finished) return;
    finished = true;
    try {
      await Promise.all(setup);
      await (commit ? tx`commit` : tx`rollback`);
    } catch (err) {
      if (commit) {
        await tx`rollback`.catch(() => {});
        throw err;
      }
    } finally {
      tx.release();
    }
  };
  return {
    tx,
    setOrg: (id) => {
      setup.push(simple(setOrgStatement(id)));
    },
    setActor: (actor) => {
      const step = tx`select set_config('plaudit.actor', ${actor}, true)`.execute();
      step.catch(() => {});
      setup.push(step);
    },
    commit: () => finish(true),
    rollback: () => finish(false),
  };
}

/** beginTenantTransaction on a connection of its own. */
export async function openTenantTransaction(
  sql: Sql,
  role: TenantRole,
  orgId: string | null,
  options?: { readOnly?: boolean },
): Promise<TenantTransaction> {
  return beginTenantTransaction(await sql.reserve(), role, orgId, options);
}

/**
 * Runs one statement as plaudit_public in a transaction of its own, in one round trip: begin
 * and the role switch (one simple-protocol message), the statement and commit are pipelined on
 * one connection. `build` must return the (not yet awaited) query, and may be called twice. The
 * role is transaction-local, so nothing outlives the call on the pooled connection; a failing
 * statement leaves the transaction aborted and the commit rolls it back.
 *
 * The public's reads go to a read replica that serves (routing.ts, replicas.ts) when `sql` has
 * any. `{ onPrimary: true }` keeps a statement on the primary: one that changes something, and a
 * read of a private link's state (a token's), which must see the write that made or used it. A
 * read the replica could not answer (unreachable, shutting down, a conflict with recovery, or a
 * write not declared, which a standby refuses before it changes anything) runs again on the
 * primary, so a failing replica costs no failed request.
 */
export async function runAsPublic<T extends readonly postgres.MaybeRow[]>(
  sql: Sql,
  build: (tx: Tx) => postgres.PendingQuery<T>,
  { onPrimary = false }: { onPrimary?: boolean } = {},
): Promise<postgres.RowList<T>> {
  return onPrimary ? await publicStatement(sql, build) : await readOnReplica(sql, (db) => publicStatement(db, build));
}

async function publicStatement<T extends readonly postgres.MaybeRow[]>(
  sql: Sql,
  build: (tx: Tx) => postgres.PendingQuery<T>,
): Promise<postgres.RowList<T>> {
  const tx = await sql.reserve();
  try {
    const steps = await Promise.allSettled([
      tx.unsafe(`begin; set local role ${'plaudit_public' satisfies TenantRole}`).simple(),
      build(tx),
      tx`commit`,
    ]);
    for (const step of steps) if (step.status === 'rejected') throw step.reason;
    return (steps[1] as PromiseFulfilledResult<postgres.RowList<T>>).value;
  } finally {
    tx.release();
  }
}

/** A transaction as plaudit_worker: the worker reaches the database only through its SECURITY DEFINER functions. */
export async function asWorker<T>(sql: Sql, fn: (tx: Sql) => Promise<T>): Promise<T> {
  const role: TenantRole = 'plaudit_worker';
  const results = await sql.begin((tx) => [tx.unsafe(`set local role ${role}`), fn(tx as unknown as Sql)] as never);
  return (results as unknown as [unknown, T])[1];
}

/**
 * A transaction as plaudit_worker for work of several statements, each awaited in turn (asWorker
 * pipelines the role with one lazy statement; an async callback would send its first statement
 * before the role). The role is set first, one round trip more.
 */
export async function inWorkerTransaction<T>(sql: Sql, fn: (tx: Sql) => Promise<T>): Promise<T> {
  const role: TenantRole = 'plaudit_worker';
  return await sql.begin(async (tx) => {
    await tx.unsafe(`set local role ${role}`);
    return await fn(tx as unknown as Sql);
  }) as T;
}
