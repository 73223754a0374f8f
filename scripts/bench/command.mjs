// Runs a measuring tool (wrk, pgbench) to completion and answers what it printed on stdout;
// a non-zero exit rejects with the end of what it printed.
import { spawn } from 'node:child_process';

export function runCommand(cmd, args, { cwd, env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} exited with ${code}:\n${(err + out).trim().split('\n').slice(-15).join('\n')}`));
    });
  });
}
