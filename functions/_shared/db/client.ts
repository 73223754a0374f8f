import postgres from 'postgres';

export type Sql = postgres.Sql;
export type Tx = postgres.ReservedSql;

/**
 * One pool per process. prepare: false keeps it working behind Supabase's transaction pooler,
 * where a prepared statement may land on another server connection.
 */
export function createSql(url: string, { max = 10 }: { max?: number } = {}): Sql {
  return postgres(url, {
    prepare: false,
    max,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { application_name: 'plaudit-api' },
  });
}

export type TenantRole = 'plaudit_api' | 'plaudit_public';

/**
 * Opens a transaction on a connection of its own that runs as `role` with the tenant set, both
 * local to the transaction so nothing outlives it on a pooled connection. The three set-up
 * statements are pipelined: they travel with the request's first query, in one round trip.
 */
export async function openTenantTransaction(sql: Sql, role: TenantRole, orgId: string | null) {
  const tx = await sql.reserve();
  const setup = Promise.all([
    tx`begin`,
    tx`select set_config('plaudit.org_id', ${orgId ?? ''}, true)`,
    tx.unsafe(`set local role ${role}`),
  ]);
  setup.catch(() => {}); // its failure surfaces through the request's own queries
  let finished = false;
  const finish = async (commit: boolean) => {
    if (finished) return;
    finished = true;
    try {
      await setup;
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
  return { tx, commit: () => finish(true), rollback: () => finish(false) };
}
