// npm run bench [-- <scenario> …]: measures the API side by side with references, in one run,
// on one throwaway stack (scripts/bench/stack.mjs). The machine is shared and noisy, so what a
// scenario reports are ratios between figures measured seconds apart, not absolute numbers.
//
//   BENCH_SECONDS=10        length of each measurement
//   BENCH_WARMUP_SECONDS=2  load before measuring, so Deno's JIT and PostgreSQL's caches are warm
//   BENCH_CONNECTIONS=16    concurrent connections (wrk -c, pgbench -c), the same for every measurement
//   BENCH_THREADS=2         wrk -t and pgbench -j
//   BENCH_ROUNDS=1          repeat a scenario's measurements, interleaved (A B C A B C …), and
//                           report the median of each figure: steadier ratios on a noisy machine
//   BENCH_JSON=path         write the results there as JSON (otherwise: the last line of stdout)
//   BENCH_API_ENV='K=V …'   extra environment for the API (DATABASE_POOL_SIZE=16, say)
//   BENCH_KEEP=1            keep the cluster's folder after the run (its data, postgres.log)
//   BENCH_PLANNING=1        each measurement also says how much of PostgreSQL's time went to planning
//                           (pg_stat_statements, scripts/bench/planning.mjs; it slows PostgreSQL a little)
//
// A scenario (scripts/bench/scenarios/) is
//   { name, description, setup(ctx) → state, measurements: [{ key, name, run(ctx, state) }],
//     ratios: [{ name, of: key, over: key, target? }] }
// where run answers { rps, p50, p99 } (ms) and throws when the figures would be meaningless
// (error responses, failed transactions). A scenario whose figures are not separate load runs
// (a sequence of calls, a queue drained) is { name, description, run(ctx) → { rows, ratios } }
// instead, with each ratio's value computed; it is called once, and repeats itself (ctx.rounds) if it can.
// Add it to SCENARIOS.
import fs from 'node:fs';
import os from 'node:os';
import orgGet from './bench/scenarios/org-get.mjs';
import exportScenario from './bench/scenarios/export.mjs';
import googleFeed from './bench/scenarios/google-feed.mjs';
import webhooks from './bench/scenarios/webhooks.mjs';
import reviewScenarios from './bench/scenarios/reviews.mjs';
import languages from './bench/scenarios/languages.mjs';
import questions from './bench/scenarios/questions.mjs';
import reviewRequests from './bench/scenarios/review-requests.mjs';
import productSync from './bench/scenarios/product-sync.mjs';
import productReads from './bench/scenarios/products.mjs';
import attributes from './bench/scenarios/attributes.mjs';
import widget from './bench/scenarios/widget.mjs';
import fragments from './bench/scenarios/fragments.mjs';
import cdn from './bench/scenarios/cdn.mjs';
import dashboard from './bench/scenarios/dashboard.mjs';
import dashboardFirstLoad from './bench/scenarios/dashboard-first-load.mjs';
import replicas from './bench/scenarios/replicas.mjs';
import manyTenants from './bench/scenarios/many-tenants.mjs';
import privacyErasure from './bench/scenarios/privacy-erasure.mjs';
import imports from './bench/scenarios/imports.mjs';
import signals from './bench/scenarios/signals.mjs';
import media from './bench/scenarios/media.mjs';
import mediaHostile from './bench/scenarios/media-hostile.mjs';
import transparency from './bench/scenarios/transparency.mjs';
import dsaFigures from './bench/scenarios/dsa-figures.mjs';
import mcp from './bench/scenarios/mcp.mjs';
import connections from './bench/scenarios/connections.mjs';
import summaries from './bench/scenarios/summaries.mjs';
import holds from './bench/scenarios/holds.mjs';
import { pgbench } from './bench/pgbench.mjs';
import { postgresPids, toolPids, withCpu } from './bench/cpu.mjs';
import { readPlanning, resetPlanning } from './bench/planning.mjs';
import { createStack } from './bench/stack.mjs';
import { fixed, median, table } from './bench/stats.mjs';
import { httpLoad, httpLoadTool } from './bench/wrk.mjs';

const SCENARIOS = [
  orgGet,
  exportScenario,
  googleFeed,
  webhooks,
  ...reviewScenarios,
  languages,
  questions,
  reviewRequests,
  productSync,
  ...productReads,
  ...attributes,
  widget,
  ...fragments,
  cdn,
  dashboard,
  dashboardFirstLoad,
  replicas,
  manyTenants,
  privacyErasure,
  imports,
  ...signals,
  ...media,
  mediaHostile,
  transparency,
  dsaFigures,
  mcp,
  ...connections,
  summaries,
  ...holds,
];

const say = (msg) => console.error(`bench: ${msg}`);

function positive(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
}

function parseEnvList(raw = '') {
  return Object.fromEntries(
    raw.split(/\s+/).filter(Boolean).map((kv) => {
      const i = kv.indexOf('=');
      if (i < 1) throw new Error(`BENCH_API_ENV: "${kv}" is not NAME=value`);
      return [kv.slice(0, i), kv.slice(i + 1)];
    }),
  );
}

async function runScenario(scenario, ctx, rounds) {
  if (!scenario.measurements) return scenario.run(ctx);
  const state = await scenario.setup(ctx);
  const runs = Object.fromEntries(scenario.measurements.map((m) => [m.key, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const m of scenario.measurements) {
      const name = typeof m.name === 'function' ? m.name(state) : m.name;
      ctx.log(`${name}: ${ctx.seconds} s${rounds > 1 ? ` (round ${round}/${rounds})` : ''}`);
      if (ctx.stack.planning) await resetPlanning(ctx.stack.sql);
      const { result, cpu } = await withCpu(cpuGroups(ctx, m, state), () => m.run(ctx, state));
      const perRequest = (us) => (result.requests > 0 ? us / result.requests : NaN);
      runs[m.key].push({
        name,
        ...result,
        cpuPerRequest: { api: perRequest(cpu.api), postgres: perRequest(cpu.postgres), tool: perRequest(cpu.tool) },
        ...(ctx.stack.planning ? { planning: await readPlanning(ctx.stack.sql) } : {}),
      });
      for (const line of runs[m.key].at(-1).planning?.top ?? []) ctx.log(`planned: ${line}`);
    }
  }
  const rows = scenario.measurements.map((m) => {
    const r = runs[m.key];
    return {
      key: m.key,
      name: r[0].name,
      tool: r[0].tool,
      rps: median(r.map((x) => x.rps)),
      p50: median(r.map((x) => x.p50)),
      p99: median(r.map((x) => x.p99)),
      cpu: {
        api: median(r.map((x) => x.cpuPerRequest.api)),
        postgres: median(r.map((x) => x.cpuPerRequest.postgres)),
        tool: median(r.map((x) => x.cpuPerRequest.tool)),
      },
      ...(r[0].planning
        ? {
          planning: {
            share: median(r.map((x) => x.planning.share)),
            plansPerCall: median(r.map((x) => x.planning.plansPerCall)),
          },
        }
        : {}),
      runs: r.map(({ name: _name, ...rest }) => rest),
    };
  });
  const byKey = Object.fromEntries(rows.map((r) => [r.key, r]));
  const ratios = scenario.ratios.map((r) => {
    const value = byKey[r.of].rps / byKey[r.over].rps;
    return { ...r, value, pass: r.target === undefined ? undefined : value >= r.target };
  });
  return { rows, ratios };
}

/**
 * The processes whose CPU each measurement samples: the API's (the scenario's own server when it
 * names one), PostgreSQL's, and the load tool's (wrk, or pgbench for the database-only side).
 */
function cpuGroups(ctx, m, state) {
  const apiPid = ctx.stack.api?.child?.pid;
  return {
    api: () => [m.apiPid?.(ctx, state) ?? apiPid].filter(Boolean),
    postgres: () => postgresPids(ctx.stack.cluster.pidFile),
    tool: () => [...toolPids('wrk'), ...toolPids('pgbench')],
  };
}

const us = (n) => (Number.isFinite(n) && n > 0 ? fixed(n, 0) : '–');

function report(scenario, result, rounds) {
  const rows = result.rows.map((r) => [
    r.name,
    fixed(r.rps, 0),
    fixed(r.p50),
    fixed(r.p99),
    us(r.cpu?.api),
    us(r.cpu?.postgres),
    us(r.cpu?.tool),
    ...(r.planning ? [`${fixed(100 * r.planning.share, 0)} %`, fixed(r.planning.plansPerCall)] : []),
  ]);
  console.log(`\n${scenario.name}: ${scenario.description}${rounds > 1 ? ` (median of ${rounds} rounds)` : ''}\n`);
  console.log(
    table([
      ...['', 'req/s', 'p50 ms', 'p99 ms', 'API µs/req', 'PostgreSQL µs/req', 'load tool µs/req'],
      ...(result.rows[0]?.planning ? ['planning', 'plans/call'] : []),
    ], rows),
  );
  console.log('');
  const width = Math.max(...result.ratios.map((r) => r.name.length));
  for (const r of result.ratios) {
    const mark = r.target === undefined ? '' : `${r.pass ? 'PASS' : 'BELOW TARGET'} (target ≥ ${r.target})`;
    console.log(`  ${r.name.padEnd(width)}  ${fixed(r.value)}  ${mark}`.trimEnd());
  }
}

async function main() {
  const names = process.argv.slice(2);
  // A name selects its scenario, or, when none has it, the group named after it (`dashboard` →
  // `dashboard-session` and `dashboard-first-load`).
  const picks = (name, s) =>
    s.name === name || (!SCENARIOS.some((o) => o.name === name) && s.name.startsWith(`${name}-`));
  const unknown = names.filter((n) => !SCENARIOS.some((s) => picks(n, s)));
  if (unknown.length) {
    throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  }
  const selected = names.length ? SCENARIOS.filter((s) => names.some((n) => picks(n, s))) : SCENARIOS;
  const settings = {
    seconds: positive('BENCH_SECONDS', 10),
    warmup: positive('BENCH_WARMUP_SECONDS', 2),
    connections: positive('BENCH_CONNECTIONS', 16),
    threads: positive('BENCH_THREADS', 2),
    rounds: positive('BENCH_ROUNDS', 1),
  };
  const apiEnv = parseEnvList(process.env.BENCH_API_ENV);
  const loadTool = httpLoadTool();

  const stack = createStack({ apiEnv, log: say, planning: process.env.BENCH_PLANNING === '1' });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, async () => {
      say(`${signal}: stopping`);
      await stack.stop();
      process.exit(130);
    });
  }
  await stack.start();

  const output = {
    date: new Date().toISOString(),
    command: `node scripts/bench.mjs ${names.join(' ')}`.trim(),
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model,
      loadavg: os.loadavg().map((n) => Number(n.toFixed(2))),
    },
    settings: { ...settings, loadGenerator: loadTool, apiEnv: stack.apiEnv },
    scenarios: [],
  };
  let failed = false;
  try {
    for (const scenario of selected) {
      say(`scenario ${scenario.name}`);
      const ctx = {
        ...settings,
        stack,
        env: process.env,
        log: (msg) => say(`${scenario.name}: ${msg}`),
        http: (o) =>
          httpLoad({ connections: settings.connections, threads: settings.threads, seconds: settings.seconds, ...o }),
        pgbench: (o) =>
          pgbench({
            clients: settings.connections,
            threads: settings.threads,
            seconds: settings.seconds,
            workDir: stack.dir,
            ...o,
          }),
      };
      try {
        const result = await runScenario(scenario, ctx, settings.rounds);
        report(scenario, result, settings.rounds);
        output.scenarios.push({ name: scenario.name, ...result });
      } catch (err) {
        failed = true;
        stack.keepDir = true;
        say(`${scenario.name} FAILED: ${err.message}`);
        output.scenarios.push({ name: scenario.name, error: err.message });
      }
    }
  } finally {
    output.machine.loadavgAfter = os.loadavg().map((n) => Number(n.toFixed(2)));
    await stack.stop();
  }

  const [before, after] = [output.machine.loadavg[0], output.machine.loadavgAfter[0]];
  console.log(`\nmachine: ${output.machine.cpus} CPUs, 1-minute load average ${before} before, ${after} after`);
  // A quiet machine starts near 0; the run itself leaves about 2-3 behind. More means other work.
  const cpus = output.machine.cpus;
  if (before > 0.75 * cpus || after > 2 * cpus) {
    console.log('warning: the machine was busy with other work during the run; the figures are unreliable, run again');
  }

  const json = JSON.stringify(output);
  if (process.env.BENCH_JSON) fs.writeFileSync(process.env.BENCH_JSON, json + '\n');
  else console.log(`\n${json}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    say(err.message);
    process.exit(1);
  },
);
