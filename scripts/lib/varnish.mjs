// Runs Varnish with the project's VCL (deploy/varnish/plaudit.vcl) in front of an API, for the
// tests and the benchmarks: on a free port, its working directory under the caller's, the
// backend pointed at the API's port. Needs Debian's varnish and varnish-modules (xkey).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { accepts, freePort } from './postgres.mjs';

const VCL = fileURLToPath(new URL('../../deploy/varnish/plaudit.vcl', import.meta.url));

/** The shipped VCL with its backend at `backendPort` (the rest as shipped). */
export function vclFor(backendPort) {
  const vcl = fs.readFileSync(VCL, 'utf8');
  const pointed = vcl.replace(/\.port = "\d+";/, `.port = "${backendPort}";`);
  if (pointed === vcl && !vcl.includes(`.port = "${backendPort}";`)) throw new Error('plaudit.vcl has no backend port');
  return pointed;
}

/**
 * Starts varnishd in the foreground and resolves once it accepts connections.
 * @param {{ backendPort: number, dir: string, memory?: string, timeoutMs?: number }} options
 */
export async function startVarnish({ backendPort, dir, memory = '64m', timeoutMs = 30_000 }) {
  const work = fs.mkdtempSync(path.join(dir, 'varnish-'));
  const vclPath = path.join(work, 'plaudit.vcl');
  fs.writeFileSync(vclPath, vclFor(backendPort));
  const port = await freePort();
  const log = fs.openSync(path.join(work, 'varnishd.log'), 'a');
  const child = spawn('varnishd', [
    '-F',
    '-a',
    `127.0.0.1:${port}`,
    '-T',
    'none',
    // As root, varnishd's default jail runs it as the `varnish` user, who cannot enter the
    // caller's private temporary directory: this throwaway instance keeps the caller's user.
    '-j',
    'none',
    '-f',
    vclPath,
    '-n',
    path.join(work, 'n'),
    '-s',
    `malloc,${memory}`,
  ], { stdio: ['ignore', log, log] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + timeoutMs;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`varnishd did not start: see ${path.join(work, 'varnishd.log')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.closeSync(log);
    },
  };
}
