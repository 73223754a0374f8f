// HTTP load: wrk when it is installed (installed with apt-get when missing and running as root),
// otherwise autocannon from node_modules, which runs inside this Node process and so tops out
// lower; the result says which tool measured.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { runCommand } from './command.mjs';
import { durationMs } from './stats.mjs';

let tool;

function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** 'wrk' or 'autocannon'; decided once per run. */
export function httpLoadTool() {
  if (tool) return tool;
  if (!which('wrk') && process.getuid?.() === 0 && process.env.BENCH_NO_INSTALL !== '1') {
    console.error('bench: installing wrk with apt-get …');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const install = () => spawnSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'ignore', env }).status === 0;
    if (!install()) {
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
      install();
    }
  }
  tool = which('wrk') ? 'wrk' : 'autocannon';
  if (tool === 'autocannon') {
    console.error('bench: wrk not available; using autocannon (install wrk for a lighter load generator)');
  }
  return tool;
}

/** Reads wrk's report (run with --latency). */
export function parseWrk(out) {
  const num = (re) => {
    const m = re.exec(out);
    return m ? Number(m[1]) : 0;
  };
  const pct = (p) => {
    const m = new RegExp(`^\\s+${p}%\\s+(\\S+)\\s*$`, 'm').exec(out);
    if (!m) throw new Error(`wrk printed no ${p}% latency:\n${out}`);
    return durationMs(m[1]);
  };
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(out);
  if (!rps) throw new Error(`unreadable wrk output:\n${out}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: Number(rps[1]),
    p50: pct(50),
    p99: pct(99),
    requests: num(/^\s+(\d+) requests in/m),
    non2xx: num(/Non-2xx or 3xx responses:\s+(\d+)/),
    errors: socket ? socket.slice(1, 4).reduce((n, x) => n + Number(x), 0) : 0,
    timeouts: socket ? Number(socket[4]) : 0,
  };
}

async function autocannonLoad({ url, headers, connections, seconds }) {
  const autocannon = createRequire(import.meta.url)('autocannon');
  const r = await autocannon({ url, headers, connections, duration: seconds });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors - r.timeouts,
    timeouts: r.timeouts,
  };
}

/**
 * Loads `url` with `connections` keep-alive connections for `seconds`. Answers req/s, p50 and
 * p99 in milliseconds, and the counts of non-2xx answers and socket errors; throws when there
 * were any, unless `allowErrors`, so a run never reports the speed of error responses.
 * `script` is a wrk Lua script that shapes each request (POST bodies, say); it needs wrk.
 */
export async function httpLoad({ url, headers = {}, connections, threads = 2, seconds, script, allowErrors = false }) {
  const using = httpLoadTool();
  let result;
  if (using === 'wrk') {
    const args = [
      '-t',
      String(Math.min(threads, connections)),
      '-c',
      String(connections),
      '-d',
      `${seconds}s`,
      '--latency',
    ];
    for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
    if (script) args.push('-s', script);
    result = { tool: 'wrk', ...parseWrk(await runCommand('wrk', [...args, url])) };
  } else if (script) {
    throw new Error('this measurement needs wrk (requests shaped by a Lua script)');
  } else {
    result = { tool: 'autocannon', ...(await autocannonLoad({ url, headers, connections, seconds })) };
  }
  if (!allowErrors && (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)) {
    throw new Error(
      `${url}: ${result.non2xx} non-2xx responses, ${result.errors} socket errors, ${result.timeouts} timeouts out of ${result.requests} requests`,
    );
  }
  return result;
}
