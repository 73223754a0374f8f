// BENCH_PLANNING=1: how much of PostgreSQL's time a measurement spends planning. The bench's cluster
// then loads pg_stat_statements (every nesting level, planning timed), and each measurement reports
// the planning share (the planning of every statement, PL/pgSQL's and triggers' included, over the
// time of the statements the clients sent, their planning included) and plans per execution (1: no
// statement keeps a plan). pg_stat_statements costs time of its own: compare req/s without it.

/** The cluster's settings (`-c`) when the planning is measured. */
export const PLANNING_SETTINGS = [
  'shared_preload_libraries=pg_stat_statements',
  'pg_stat_statements.track=all',
  'pg_stat_statements.track_planning=on',
  'pg_stat_statements.max=10000',
];

/** Makes the view, in a schema of its own (the product's schemas stay as the sources make them). */
export async function installPlanning(sql) {
  await sql`create schema if not exists bench_planning`;
  await sql`create extension if not exists pg_stat_statements schema bench_planning`;
}

export async function resetPlanning(sql) {
  await sql`select bench_planning.pg_stat_statements_reset()`;
}

// Statements PostgreSQL never plans (their calls are not counted in plans per execution).
const UTILITY = '^\\s*(begin|commit|rollback|end|start|set|reset|show|savepoint|release|lock|notify|listen|' +
  'discard|deallocate|prepare|execute|vacuum|analyze|create|alter|drop|grant|revoke|comment|do|call)\\M';

/** The figures since the last reset, the superuser's own statements (this read, the set-up) left out. */
export async function readPlanning(sql) {
  const [row] = await sql`
    select coalesce(sum(s.total_plan_time), 0)::float8 as planning,
           coalesce(sum(s.total_plan_time + s.total_exec_time) filter (where s.toplevel), 0)::float8 as total,
           coalesce(sum(s.plans), 0)::float8 as plans,
           coalesce(sum(s.calls) filter (where s.query !~* ${UTILITY}), 0)::float8 as calls
      from bench_planning.pg_stat_statements s
     where s.userid <> (select oid from pg_roles where rolname = current_user)`;
  // The statements that planned longest, to say where the planning went.
  const top = await sql`
    select round(s.total_plan_time::numeric, 1)::float8 as ms, s.plans, s.calls,
           left(regexp_replace(s.query, '\\s+', ' ', 'g'), 100) as query
      from bench_planning.pg_stat_statements s
     where s.userid <> (select oid from pg_roles where rolname = current_user)
     order by s.total_plan_time desc limit 8`;
  return {
    share: row.total > 0 ? row.planning / row.total : NaN,
    plansPerCall: row.calls > 0 ? row.plans / row.calls : NaN,
    top: top.map((t) => `${t.ms} ms, ${t.plans} plans, ${t.calls} calls: ${t.query}`),
  };
}
