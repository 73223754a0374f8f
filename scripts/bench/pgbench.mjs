// pgbench, for the database-only side of a comparison: runs a custom script (-n -f) against a
// database URL for a fixed time and answers transactions per second and latency percentiles,
// computed from its per-transaction log (--log), whose third column is the latency in µs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDebianPackages } from '../lib/deps.mjs';
import { runCommand } from './command.mjs';
import { percentile } from './stats.mjs';

const DEBIAN_PGBENCH = '/usr/lib/postgresql/15/bin/pgbench';

export function pgbenchPath() {
  if (!fs.existsSync(DEBIAN_PGBENCH)) {
    const onPath = spawnSync('sh', ['-c', 'command -v pgbench'], { encoding: 'utf8' });
    if (onPath.status === 0) return onPath.stdout.trim();
    ensureDebianPackages(['postgresql-15']); // installs as root; otherwise says what to install
  }
  return DEBIAN_PGBENCH;
}

/** libpq's environment for a postgresql:// URL, so the password never shows in `ps`. */
function libpqEnv(url) {
  const u = new URL(url);
  return {
    PGHOST: u.hostname,
    PGPORT: u.port || '5432',
    PGUSER: decodeURIComponent(u.username),
    PGPASSWORD: decodeURIComponent(u.password),
    PGDATABASE: decodeURIComponent(u.pathname.slice(1)),
    PGAPPNAME: 'plaudit-bench',
  };
}

export function parsePgbench(out) {
  const tps = /^tps = ([\d.]+) \(without initial connection time\)/m.exec(out);
  if (!tps) throw new Error(`unreadable pgbench output:\n${out}`);
  const avg = /^latency average = ([\d.]+) ms/m.exec(out);
  const failed = /^number of failed transactions: (\d+)/m.exec(out);
  const done = /^number of transactions actually processed: (\d+)/m.exec(out);
  return {
    tps: Number(tps[1]),
    latencyAvg: avg ? Number(avg[1]) : NaN,
    failed: failed ? Number(failed[1]) : 0,
    transactions: done ? Number(done[1]) : 0,
  };
}

function readLatencies(dir, prefix) {
  const latencies = [];
  for (const file of fs.readdirSync(dir)) {
    if (!file.startsWith(`${prefix}.`)) continue;
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (!line) continue;
      const us = Number(line.split(' ')[2]);
      if (Number.isFinite(us)) latencies.push(us / 1000);
    }
  }
  return latencies.sort((a, b) => a - b);
}

/**
 * Runs `script` (pgbench's script language) with `clients` connections on `threads` threads for
 * `seconds`. `mode` is pgbench's -M: 'prepared' (named prepared statements, as the API sends
 * them on a direct connection; see usePreparedStatements) or 'extended' (an unnamed statement
 * each time); both allow \startpipeline.
 */
export async function pgbench({ url, script, clients, threads = 2, seconds, mode = 'prepared', workDir }) {
  const dir = fs.mkdtempSync(path.join(workDir, 'pgbench-'));
  const scriptFile = path.join(dir, 'script.sql');
  fs.writeFileSync(scriptFile, script);
  const prefix = 'tx';
  const args = [
    '-n',
    '-f',
    scriptFile,
    '-c',
    String(clients),
    '-j',
    String(Math.min(threads, clients)),
    '-T',
    String(seconds),
    '-M',
    mode,
    '--log',
    `--log-prefix=${prefix}`,
  ];
  const out = await runCommand(pgbenchPath(), args, { cwd: dir, env: { ...process.env, ...libpqEnv(url) } });
  const summary = parsePgbench(out);
  if (summary.failed > 0) throw new Error(`pgbench: ${summary.failed} failed transactions`);
  const latencies = readLatencies(dir, prefix);
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    tool: 'pgbench',
    mode,
    rps: summary.tps,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    latencyAvg: summary.latencyAvg,
    requests: latencies.length,
  };
}
