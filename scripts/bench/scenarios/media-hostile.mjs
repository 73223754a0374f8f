// /health while one client address uploads hostile images as fast as its upload limit allows
// (MEDIA_UPLOAD_RATE_LIMIT_PER_MINUTE at its default, 30): a progressive JPEG of 300 scans over
// 4,096 × 4,096 pixels (refused from its markers), a 36-megapixel PNG of 40 KB (legal: decoded,
// scaled and stored) and the same PNG cut short (decoded to its end, then refused). Four uploads
// at a time, each waiting out Retry-After when refused for the limit. Images are made in a worker
// of their own, one at a time (docs/media.md): /health's p99 during the attack, target ≤ 100 ms.
//
// The files come from tests/helpers/image-files.ts, as the tests make them.
//
//   BENCH_HOSTILE_ROUNDS=3   alone and under attack in turn, this many times (figures: medians)
//   BENCH_HOSTILE_FILES=a,b  only these of the files (jpeg-300-scans, png-36mp, png-36mp-cut)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root } from '../../lib/database.mjs';
import { reviewWithToken } from './media.mjs';
import { UNLIMITED_PUBLIC } from './reviews.mjs';
import { median, positive } from '../stats.mjs';

const DENO = path.join(root, 'node_modules', '.bin', 'deno');
const TARGET_P99_MS = 100;
const ATTACKERS = 4;

/** The hostile files, written to `dir` by Deno from the tests' own makers; answers name → bytes. */
function hostileFiles(dir) {
  const files = {
    'jpeg-300-scans': 'jpegWithScans(4096, 4096, 300)',
    'png-36mp': 'blankPng(6000, 6000)',
    'png-36mp-cut': 'blankPng(6000, 6000, { cut: true })',
  };
  const code = `
    import { blankPng, jpegWithScans } from './tests/helpers/image-files.ts';
    ${
    Object.entries(files).map(([name, make]) => `Deno.writeFileSync(${JSON.stringify(path.join(dir, name))}, ${make});`)
      .join('\n')
  }`;
  const r = spawnSync(DENO, ['eval', '--ext=ts', code], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`making the hostile files failed: ${r.stderr}`);
  return Object.fromEntries(Object.keys(files).map((name) => [name, fs.readFileSync(path.join(dir, name))]));
}

const peakRssMb = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

export default {
  name: 'media-hostile',
  description:
    '/health alone, then while one address uploads hostile images (300-scan JPEG, 36 MP PNG of 40 KB) as fast as its limit allows: p50 and p99 ms',
  async run(ctx) {
    const { stack } = ctx;
    const api = await stack.startExtraApi({ env: { ...UNLIMITED_PUBLIC, MEDIA_UPLOAD_RATE_LIMIT_PER_MINUTE: '30' } });
    const only = ctx.env.BENCH_HOSTILE_FILES?.split(',');
    const files = Object.entries(hostileFiles(stack.dir)).filter(([name]) => !only || only.includes(name));
    const [org] = await stack.sql`insert into plaudit.organizations (name, slug)
                                  values ('Hostile uploads', ${`bench-hostile-${Date.now()}`}) returning id`;
    const [form] = await stack
      .sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Form') returning id`;
    // A review per upload: a review takes 6 items and 20 uploads a minute; the address's limit is the one to meet.
    const reviews = [];
    for (let i = 0; i < 200; i++) reviews.push(await reviewWithToken(ctx, form.id));
    const health = { url: `${api.url}/api/v1/health`, connections: 2 };

    const statuses = {};
    let next = 0;
    /** Uploads the files in turn until `stopped()`, one at a time, waiting out Retry-After when refused for the limit. */
    const attacker = async (k, stopped) => {
      for (let i = k; !stopped(); i++) {
        const [name, bytes] = files[i % files.length];
        const review = reviews[next++ % reviews.length];
        const body = new FormData();
        body.append('file', new Blob([bytes]), name);
        // An API that drops the connection (one decoding on its event loop did) is counted, not fatal.
        const res = await fetch(`${api.url}/api/v1/reviews/${review.id}/media`, {
          method: 'POST',
          headers: { 'x-upload-token': review.token },
          body,
        }).catch(() => null);
        await res?.arrayBuffer().catch(() => {});
        const key = `${name} ${res?.status ?? 'no answer'}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
        if (res?.status === 429) {
          const wait = Number(res.headers.get('retry-after') ?? 1) * 1000;
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
    };
    // Alone and under attack in turn, each `rounds` times: the machine's other load comes and goes.
    const rounds = positive(ctx.env, 'BENCH_HOSTILE_ROUNDS', 3);
    const alone = [];
    const during = [];
    for (let round = 1; round <= rounds; round++) {
      ctx.log(`round ${round}/${rounds}: /health alone, ${ctx.seconds} s`);
      alone.push(await ctx.http(health));
      ctx.log(`round ${round}/${rounds}: /health while ${ATTACKERS} uploads at a time come from one address`);
      let stopped = false;
      const attack = Promise.all(Array.from({ length: ATTACKERS }, (_, k) => attacker(k, () => stopped)));
      during.push(await ctx.http(health));
      stopped = true;
      await attack;
    }
    ctx.log(`uploads answered: ${JSON.stringify(statuses)}`);
    const stored = Object.entries(statuses).filter(([k]) => k.endsWith(' 201')).reduce((n, [, v]) => n + v, 0);
    const row = (name, runs) => ({
      name,
      rps: median(runs.map((r) => r.rps)),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
    });
    const duringP99 = median(during.map((r) => r.p99));
    ctx.log(
      `p99 alone: ${alone.map((r) => r.p99.toFixed(1)).join(' ')} ms; during: ${
        during.map((r) => r.p99.toFixed(1)).join(' ')
      } ms`,
    );
    return {
      rows: [
        row(`/health alone (median of ${rounds})`, alone),
        row(`/health during the hostile uploads (median of ${rounds})`, during),
        { name: 'hostile uploads answered (all statuses)', rps: Object.values(statuses).reduce((a, b) => a + b, 0) },
        { name: '36 MP PNGs stored (201)', rps: stored },
        { name: 'API peak resident memory (VmHWM, MB)', rps: peakRssMb(api.child.pid) },
      ],
      ratios: [{
        name: `${TARGET_P99_MS} ms ÷ /health p99 during the uploads`,
        value: TARGET_P99_MS / duringP99,
        target: 1,
        pass: TARGET_P99_MS / duringP99 >= 1,
      }],
    };
  },
};
