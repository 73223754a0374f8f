// CPU time of processes while a measurement runs, read from /proc/<pid>/stat (utime + stime, in
// clock ticks of 10 ms), so that each measurement also says what a request cost each side: the
// API process, PostgreSQL (the postmaster and every backend), and the load tool (wrk, pgbench).
// A figure per request shows a regression even on a busy machine, where req/s alone swing.
import fs from 'node:fs';

const TICK_US = 10_000; // CLK_TCK is 100 on Linux
const POLL_MS = 100;

/** utime + stime of a process in ticks, or null once it is gone. */
export function cpuTicks(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // fields 14 and 15 of the whole line
  } catch {
    return null;
  }
}

/** The processes whose parent is `ppid`, with their command names. */
export function childrenOf(ppid) {
  const out = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const parent = Number(stat.slice(close + 2).split(' ')[1]);
      if (parent === ppid) out.push({ pid: Number(entry), comm });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** PostgreSQL's processes: the postmaster (its pid file's first line) and its children. */
export function postgresPids(pidFile) {
  const postmaster = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  return [postmaster, ...childrenOf(postmaster).map((c) => c.pid)];
}

/** This process's children running `command` (the load tool of a measurement). */
export function toolPids(command) {
  return childrenOf(process.pid).filter((c) => c.comm === command).map((c) => c.pid);
}

/**
 * Runs `run()` while sampling the CPU of each group of processes (`groups`: name → a function
 * answering the group's pids now). A process already there when sampling starts counts from
 * there; one that appears later (a new backend, the load tool) counts from its start. A process
 * that ends between two samples loses at most its last 100 ms. Answers run()'s result and each
 * group's CPU in µs.
 */
export async function withCpu(groups, run) {
  const start = new Map();
  const last = new Map();
  const key = (group, pid) => `${group}:${pid}`;
  const sample = (first) => {
    for (const [group, pids] of Object.entries(groups)) {
      for (const pid of pids()) {
        const ticks = cpuTicks(pid);
        if (ticks === null) continue;
        const k = key(group, pid);
        if (!start.has(k)) start.set(k, first ? ticks : 0);
        last.set(k, ticks);
      }
    }
  };
  sample(true);
  const timer = setInterval(() => sample(false), POLL_MS);
  let result;
  try {
    result = await run();
  } finally {
    clearInterval(timer);
  }
  sample(false);
  const cpu = Object.fromEntries(Object.keys(groups).map((g) => [g, 0]));
  for (const [k, ticks] of last) {
    const group = k.slice(0, k.indexOf(':'));
    cpu[group] += (ticks - start.get(k)) * TICK_US;
  }
  return { result, cpu };
}
