// Small numeric and formatting helpers shared by the benchmark scripts.

/** Nearest-rank percentile of an ascending array: p in [0, 100]. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** "1.23ms", "850.00us", "1.02s" (wrk's latency notation) in milliseconds. */
export function durationMs(text) {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) throw new Error(`unreadable duration "${text}"`);
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2]];
  return Number(m[1]) * scale;
}

/** A scenario's setting from the environment (BENCH_…), a positive integer, else `fallback`. */
export const positive = (env, name, fallback) => {
  const n = Number(env[name] ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
};

export const fixed = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

/** A plain-text table: the first column left-aligned, the others right-aligned. */
export function table(header, rows) {
  const all = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(all[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)].join('\n');
}

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(values) {
  const v = [...values].sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** The median time (ms) of `runs` calls of `call`, one after another, after one to warm up. */
export async function timedMedian(runs, call) {
  await call();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return median(times);
}
