// Spawns the API and worker functions on Deno, and remembers every process it spawned until it
// exits, so that a stop that comes while one is still starting (Ctrl-C during start-up) stops it
// too instead of leaving it running without its parent.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root } from './database.mjs';

const DENO = path.join(root, 'node_modules', '.bin', 'deno');
const PERMISSIONS = ['--allow-net', '--allow-env', '--allow-read', '--allow-sys'];

/**
 * glibc's malloc serves a large allocation by mmap, but after one is freed it raises that threshold
 * to the freed size (up to 32 MB), and keeps later buffers of the kind in its heaps, which it
 * seldom gives back: each photo's pixels and coefficients (3 to 24 MB each, in a new worker every
 * time) then stayed in the API's resident memory, 240 MB after four 12 MP uploads where one needs
 * 180 (docs/media.md). A fixed threshold (128 KiB, glibc's default) returns them when freed.
 */
const MALLOC = { MALLOC_MMAP_THRESHOLD_: '131072' };

const running = new Set();

/**
 * Runs `entry` (a path under functions/) with the permissions the functions need, and `allow`
 * (the API's `--allow-write` to its media folder); `flags` go to Deno (the hosted-conditions
 * test's `--v8-flags=--max-old-space-size=256`, an Edge Function's heap).
 */
export function spawnDeno(entry, { env = {}, stdio, allow = [], flags = [] }) {
  // PLAUDIT_DENO_FLAGS adds flags to every run (a profiler's: docs/benchmarks.md, "Profiling").
  const extra = process.env.PLAUDIT_DENO_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(
    DENO,
    ['run', ...PERMISSIONS, ...allow, '--unstable-no-legacy-abort', ...flags, ...extra, entry],
    {
      cwd: root,
      env: { ...MALLOC, ...process.env, DENO_NO_UPDATE_CHECK: '1', ...env },
      stdio,
    },
  );
  const stop = stopper(child);
  running.add(stop);
  child.once('exit', () => running.delete(stop));
  return { child, stop };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
function stopper(child) {
  return (graceMs = 5000) =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), graceMs).unref();
    });
}

/** Stops every process spawnDeno started that is still running, started or still starting. */
export function stopAllDeno(graceMs) {
  return Promise.all([...running].map((stop) => stop(graceMs)));
}
