// Scaling a photo down by averaging each output pixel's area of the source: every source pixel is
// read once, and the only memory is the output and one row of sums. The WebAssembly resizer it
// replaces copied the pixels into its own memory and widened them to floats: 400 MB more for a
// 12-megapixel photo, where this needs the 12.5 MB of the 2,048 px result (docs/media.md).
import type { Pixels } from './codecs.ts';

/** The pixels scaled to width × height, no larger than they are; each channel the mean of its area. */
export function downscale(src: Pixels, width: number, height: number): Pixels {
  const { data: s, width: sw, height: sh } = src;
  if (width > sw || height > sh) throw new RangeError('downscale only scales down');
  const out = new Uint8ClampedArray(width * height * 4);
  const columns = new Int32Array(width + 1);
  for (let x = 0; x <= width; x++) columns[x] = Math.floor((x * sw) / width);
  const sums = new Uint32Array(width * 4);
  for (let oy = 0; oy < height; oy++) {
    const y0 = Math.floor((oy * sh) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((oy + 1) * sh) / height));
    sums.fill(0);
    for (let y = y0; y < y1; y++) {
      let i = y * sw * 4;
      for (let ox = 0; ox < width; ox++) {
        const end = y * sw * 4 + columns[ox + 1] * 4;
        let r = 0, g = 0, b = 0, a = 0;
        for (; i < end; i += 4) {
          r += s[i];
          g += s[i + 1];
          b += s[i + 2];
          a += s[i + 3];
        }
        const o = ox * 4;
        sums[o] += r;
        sums[o + 1] += g;
        sums[o + 2] += b;
        sums[o + 3] += a;
      }
    }
    const rows = y1 - y0;
    const base = oy * width * 4;
    for (let ox = 0; ox < width; ox++) {
      const n = rows * (columns[ox + 1] - columns[ox]);
      const o = ox * 4;
      out[base + o] = sums[o] / n + 0.5;
      out[base + o + 1] = sums[o + 1] / n + 0.5;
      out[base + o + 2] = sums[o + 2] / n + 0.5;
      out[base + o + 3] = sums[o + 3] / n + 0.5;
    }
  }
  return { data: out, width, height };
}
