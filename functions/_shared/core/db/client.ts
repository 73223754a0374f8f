import postgres from 'postgres';
import { env } from '../runtime.ts';

export type Sql = postgres.Sql;
export type Tx = postgres.ReservedSql;

/**
 * A value for `sql.json()`: input that zod validated (or the API built) as JSON, whose TypeScript
 * type (`unknown`, a record of unknowns) postgres.js's JSONValue does not take as it is.
 */
export const asJson = (value: unknown) => value as postgres.JSONValue;

/**
 * Whether to use named prepared statements. Without them postgres.js describes every query that
 * has parameters before running it: two round trips instead of one, and the pipeline stalls
 * behind each. A transaction-mode pooler (Supabase's on port 6543) cannot keep a statement
 * prepared on one server connection for the next transaction, so there they stay off.
 * DATABASE_PREPARE=true|false overrides the guess from the port.
 */
export function usePreparedStatements(url: string, setting = env('DATABASE_PREPARE')): boolean {
  if (setting === 'true') return true;
  if (setting === 'false') return false;
  if (setting !== undefined && setting !== '') throw new Error('DATABASE_PREPARE must be true or false');
  return new URL(url).port !== '6543';
}

/**
 * Refuses to serve through a database role that row-level security does not bind: a superuser,
 * a role with BYPASSRLS, or the owner of the tables (which bypasses its own tables' policies).
 * `set local role` would still switch, but anyone who got SQL through could `reset role` back.
 * Answers the reason, or null when the role is fine or the check could not be made (an
 * unreachable database shows up in health checks, not here).
 */
export async function privilegeProblem(sql: Sql): Promise<string | null> {
  let row: { name: string; rolsuper: boolean; rolbypassrls: boolean; owns: boolean } | undefined;
  try {
    [row] = await sql`
      select rolname as name, rolsuper, rolbypassrls,
             exists (select from pg_tables where schemaname = 'plaudit' and tableowner = rolname) as owns
      from pg_roles where rolname = session_user`;
  } catch {
    return null;
  }
  if (!row || !(row.rolsuper || row.rolbypassrls || row.owns)) return null;
  const why = row.rolsuper ? 'is a superuser' : row.rolbypassrls ? 'bypasses row-level security' : 'owns the tables';
  return `the database role "${row.name}" ${why}; connect as plaudit_authenticator (README: API_DATABASE_URL)`;
}

/** Throws, so that the process does not start, when privilegeProblem finds one. */
export async function refuseUnboundRole(sql: Sql): Promise<void> {
  const problem = await privilegeProblem(sql);
  if (problem) throw new Error(`refusing to start: ${problem}`);
}

/** One pool per process (and one per read replica, smaller, quicker to give up on connecting). */
export function createSql(
  url: string,
  { max = 10, connectTimeout = 10, applicationName = 'plaudit-api' }: {
    max?: number;
    connectTimeout?: number;
    applicationName?: string;
  } = {},
): Sql {
  return postgres(url, {
    prepare: usePreparedStatements(url),
    max,
    idle_timeout: 30,
    connect_timeout: connectTimeout,
    onnotice: () => {},
    connection: { application_name: applicationName },
  });
}
