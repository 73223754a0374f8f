// Photos uploaded to reviews: a 12-megapixel JPEG (4,000 × 3,000, a phone's photo) and a
// 1-megapixel one, each sent as the reviewer sends it (multipart, with the review's upload token)
// and stored re-encoded with its thumbnail. Reports each upload's median and slowest time, the
// API process's CPU per upload and its peak resident memory (VmHWM): the figures that decide
// whether an upload fits an Edge Function (256 MB, ~2 s of CPU a request).
//
//   BENCH_MEDIA_UPLOADS=8   uploads of each size (the figure is their median)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root } from '../../lib/database.mjs';
import { cpuTicks } from '../cpu.mjs';
import { median, positive } from '../stats.mjs';
import { publicApi } from './reviews.mjs';

const DENO = path.join(root, 'node_modules', '.bin', 'deno');

/** A JPEG of width × height encoded by the API's own MozJPEG: a gradient with grain, as a photo has. */
function photo(file, width, height) {
  const code = `
    import { encodeJpeg } from './functions/_shared/core/media/codecs.ts';
    const [w, h] = [${width}, ${height}];
    const data = new Uint8ClampedArray(w * h * 4);
    let seed = 1;
    for (let i = 0; i < data.length; i += 4) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const x = (i / 4) % w, y = Math.floor(i / 4 / w), grain = seed % 24;
      data[i] = (x * 255) / w + grain; data[i + 1] = (y * 255) / h + grain; data[i + 2] = 128 + grain; data[i + 3] = 255;
    }
    Deno.writeFileSync(${JSON.stringify(file)}, await encodeJpeg({ data, width: w, height: h }, 90));`;
  const r = spawnSync(DENO, ['eval', '--ext=ts', code], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`making the photo failed: ${r.stderr}`);
  return new Uint8Array(fs.readFileSync(file));
}

function peakRssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}
function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

let uploaded = 0;

/** A review just submitted to `formId`, with its upload token: { id, token }. */
export async function reviewWithToken(ctx, formId) {
  const sql = ctx.stack.sql;
  uploaded += 1;
  const n = uploaded;
  const token = `mu_${'b'.repeat(40)}${String(n).padStart(3, '0')}`;
  const hash = (await import('node:crypto')).createHash('sha256').update(token).digest();
  const review = {
    form_id: formId,
    rating: 5,
    content: 'With a photo',
    reviewer_name: 'Ada',
    reviewer_email: `ada${n}@example.com`,
  };
  await sql`select plaudit.issue_media_upload_token(s.id, ${hash})
              from plaudit.submit_review(jsonb_populate_record(null::plaudit.review_submission, ${sql.json(review)}),
                                         ${`bench-media-${n}`}, 1000000, 'http://127.0.0.1') s`;
  const [{ id }] = await sql`select review_id as id from plaudit.media_upload_tokens where token_hash = ${hash}`;
  return { id, token };
}

/** A review of its own with an upload token, and the photo uploaded to it as a reviewer sends it; answers the item. */
async function uploadPhoto(ctx, formId, bytes) {
  const { stack } = ctx;
  const { id, token } = await reviewWithToken(ctx, formId);
  const body = new FormData();
  body.append('file', new Blob([bytes]), 'photo.jpg');
  const res = await fetch(`${stack.api.url}/api/v1/reviews/${id}/media`, {
    method: 'POST',
    headers: { 'x-upload-token': token },
    body,
  });
  const item = await res.json();
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(item)}`);
  return item;
}

const mediaUploads = {
  name: 'media',
  description:
    'A 12 MP and a 1 MP JPEG uploaded to reviews (re-encoded, thumbnail made, stored): median and slowest ms, API CPU ms per upload, the API peak memory',
  async run(ctx) {
    const { stack } = ctx;
    const uploads = positive(ctx.env, 'BENCH_MEDIA_UPLOADS', 8);
    const sql = stack.sql;
    const pid = stack.api.child.pid;
    const [org] = await sql`insert into plaudit.organizations (name, slug)
                            values ('Photo shop', ${`bench-media-${Date.now()}`}) returning id`;
    const [form] = await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Form') returning id`;
    const files = {
      '12 MP (4000 × 3000)': photo(path.join(stack.dir, 'photo-12mp.jpg'), 4000, 3000),
      '1 MP (1200 × 900)': photo(path.join(stack.dir, 'photo-1mp.jpg'), 1200, 900),
    };
    const baseline = rssMb(pid);
    const rows = [];
    const medians = {};
    for (const [name, bytes] of Object.entries(files)) {
      const times = [];
      const ticks = cpuTicks(pid);
      for (let i = 0; i < uploads; i++) {
        // A review of its own each time (the same bytes twice on one review would be a repeat).
        const started = performance.now();
        await uploadPhoto(ctx, form.id, bytes);
        times.push(performance.now() - started);
      }
      const cpuMs = ((cpuTicks(pid) - ticks) * 10) / uploads;
      medians[name] = median(times);
      ctx.log(
        `${name} (${(bytes.length / 1024 / 1024).toFixed(1)} MiB): ${times.map((t) => t.toFixed(0)).join(' ')} ms`,
      );
      rows.push({ name: `${name} upload, median ms`, rps: medians[name] });
      rows.push({ name: `${name} upload, slowest ms`, rps: Math.max(...times) });
      rows.push({ name: `${name} upload, API CPU ms each`, rps: cpuMs });
    }
    const peak = peakRssMb(pid);
    rows.push({ name: 'API resident memory before the uploads (MB)', rps: baseline });
    rows.push({ name: 'API peak resident memory (VmHWM, MB)', rps: peak });
    const [big, small] = Object.keys(files);
    return {
      rows,
      ratios: [
        { name: '12 MP median ÷ 1 MP median', value: medians[big] / medians[small] },
        { name: 'API peak memory ÷ 200 MB target', value: peak / 200 },
      ],
    };
  },
};

/**
 * A stored photo served by the API (local storage: the row's visibility checked, the file read)
 * next to a static file server answering the same file from disk with the same headers
 * (scripts/bench/static.ts), read whole and streamed. Target: API ÷ static (read whole, the
 * reference the target was set against) ≥ 0.8 (req/s); the streamed server is the stricter floor.
 */
const mediaServed = {
  name: 'media-served',
  description: 'a stored photo from the API (local storage) next to a static file server on the same file, req/s',
  async setup(ctx) {
    const { stack } = ctx;
    const [org] = await stack.sql`insert into plaudit.organizations (name, slug)
                                  values ('Photo shop served', ${`bench-media-served-${Date.now()}`}) returning id`;
    const [form] = await stack.sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Form')
                                   returning id`;
    const item = await uploadPhoto(ctx, form.id, photo(path.join(stack.dir, 'photo-served.jpg'), 1200, 900));
    const [row] = await stack.sql`select storage_key from plaudit.review_media where id = ${item.id}`;
    const file = path.join(stack.dir, 'media', row.storage_key);
    const server = await stack.startStatic(file);
    // The API whose per-address limit never answers 429 (the same storage), as the CDN's origin would be.
    const api = `${(await publicApi(ctx)).url}${new URL(item.url).pathname}`;
    const check = await fetch(api);
    if (check.status !== 200) throw new Error(`the photo answered ${check.status}`);
    await check.arrayBuffer();
    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url: api, seconds: ctx.warmup });
    return {
      api,
      static: `${server.url}photo.jpg`,
      streamed: `${server.url}stream/photo.jpg`,
      staticPid: server.child.pid,
    };
  },
  measurements: [
    {
      key: 'api',
      name: 'API, the stored photo (200)',
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
      run: (ctx, s) => ctx.http({ url: s.api }),
    },
    // Their server's CPU in the API's column: CPU a request, unlike req/s, does not move with the machine's load.
    {
      key: 'static',
      name: 'static file server, the same file',
      apiPid: (_ctx, s) => s.staticPid,
      run: (ctx, s) => ctx.http({ url: s.static }),
    },
    {
      key: 'streamed',
      name: 'static file server, the same file streamed',
      apiPid: (_ctx, s) => s.staticPid,
      run: (ctx, s) => ctx.http({ url: s.streamed }),
    },
  ],
  ratios: [
    { name: 'API ÷ static file server', of: 'api', over: 'static', target: 0.8 },
    { name: 'API ÷ static file server, streamed', of: 'api', over: 'streamed' },
  ],
};

export default [mediaUploads, mediaServed];
