// What one photo costs in a fresh Deno process, as an Edge Function would make it: the peak
// resident memory (VmHWM) and the CPU of make-image.ts (decoded, scaled, encoded with its
// thumbnail), or of the decoding alone. docs/media.md's figures come from here.
//
//   node_modules/deno/deno run -A scripts/bench/photo-memory.ts make FILE 4000 3000 [baseline]
//       writes a photo-like JPEG (a gradient with grain, as the media benchmark's) of that size,
//       progressive unless `baseline`
//   node_modules/deno/deno run -A scripts/bench/photo-memory.ts FILE [decode]
//       prints one line of JSON: start and peak MB, CPU ms, the stored size (or the decoded one)
import process from 'node:process';
import encode from '@jsquash/jpeg/encode.js';
import { decode } from '../../functions/_shared/core/media/codecs.ts';
import { DECODED_LONGEST_SIDE_AT_LEAST } from '../../functions/_shared/core/media/limits.ts';
import { makeImage } from '../../functions/_shared/core/media/make-image.ts';

const status = (field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(Deno.readTextFileSync('/proc/self/status'))![1]) / 1024;

const [first, ...rest] = Deno.args;
if (first === 'make') {
  const [file, w, h, kind] = rest;
  const [width, height] = [Number(w), Number(h)];
  const data = new Uint8ClampedArray(width * height * 4);
  let seed = 1;
  for (let i = 0; i < data.length; i += 4) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const x = (i / 4) % width, y = Math.floor(i / 4 / width), grain = seed % 24;
    data[i] = (x * 255) / width + grain;
    data[i + 1] = (y * 255) / height + grain;
    data[i + 2] = 128 + grain;
    data[i + 3] = 255;
  }
  const progressive = kind !== 'baseline';
  const bytes = await encode({ data, width, height } as unknown as ImageData, {
    quality: 90,
    progressive,
    baseline: !progressive,
  });
  Deno.writeFileSync(file, new Uint8Array(bytes));
} else {
  const bytes = Deno.readFileSync(first);
  const startMb = status('VmRSS');
  const cpu = process.cpuUsage();
  const started = performance.now();
  const size = rest[0] === 'decode'
    ? await decode(bytes, 'jpeg', DECODED_LONGEST_SIDE_AT_LEAST)
    : await makeImage(bytes, 'jpeg');
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({
    file: first,
    what: rest[0] === 'decode' ? 'decode' : 'makeImage',
    startMb: Math.round(startMb),
    peakMb: Math.round(status('VmHWM')),
    cpuMs: Math.round((used.user + used.system) / 1000),
    wallMs: Math.round(performance.now() - started),
    width: size.width,
    height: size.height,
  }));
}
