// A JPEG's component planes made into RGBA pixels. A subsampled component (the colour of a
// 4:2:0 or 4:2:2 photo) whose inverse transform could not make it full size (idct.ts stops at 8
// points) is stretched by linear interpolation between its samples' centres, as libjpeg's
// "fancy upsampling" does; then YCbCr is turned into RGB (JFIF's full-range BT.601).
import type { Component } from './scan.ts';

/** Where each output position reads its component, and with what weight the next sample counts. */
interface Taps {
  first: Int32Array;
  second: Int32Array;
  weight: Float32Array;
}

/** The taps of `size` output positions from a component stretched `factor` times, `valid` samples long. */
function taps(size: number, factor: number, valid: number): Taps {
  const first = new Int32Array(size);
  const second = new Int32Array(size);
  const weight = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    const at = Math.max(0, (i + 0.5) / factor - 0.5);
    const a = Math.min(Math.floor(at), valid - 1);
    first[i] = a;
    second[i] = Math.min(a + 1, valid - 1);
    weight[i] = at - Math.floor(at);
  }
  return { first, second, weight };
}

/** One output row of a component, stretched to `width` as need be. */
function sampler(c: Component, width: number, height: number, factorX: number, factorY: number) {
  const stride = c.paddedPerLine * c.nx;
  const across = taps(width, factorX, Math.ceil(width / factorX));
  const down = taps(height, factorY, Math.ceil(height / factorY));
  const row = new Float32Array(width);
  return (y: number): Float32Array => {
    const p = c.plane;
    const r0 = down.first[y] * stride;
    const r1 = down.second[y] * stride;
    const wy = down.weight[y];
    if (factorX === 1) {
      for (let x = 0; x < width; x++) row[x] = p[r0 + x] + (p[r1 + x] - p[r0 + x]) * wy;
      return row;
    }
    for (let x = 0; x < width; x++) {
      const a = across.first[x];
      const b = across.second[x];
      const top = p[r0 + a] + (p[r0 + b] - p[r0 + a]) * across.weight[x];
      const bottom = p[r1 + a] + (p[r1 + b] - p[r1 + a]) * across.weight[x];
      row[x] = top + (bottom - top) * wy;
    }
    return row;
  };
}

// What Cb and Cr add to each of R, G and B, by their byte: whole numbers, so that a pixel is three
// additions of integers (the clamping store of a Uint8ClampedArray is fastest with them).
const RED_CR = new Int32Array(256);
const GREEN_CB = new Float64Array(256);
const GREEN_CR = new Float64Array(256);
const BLUE_CB = new Int32Array(256);
for (let i = 0; i < 256; i++) {
  RED_CR[i] = Math.round(1.402 * (i - 128));
  BLUE_CB[i] = Math.round(1.772 * (i - 128));
  GREEN_CB[i] = -0.344136 * (i - 128);
  GREEN_CR[i] = -0.714136 * (i - 128) + 0.5;
}

/** YCbCr to RGBA where every component came out at the output's size (a 4:2:0 photo at 1/2 or less). */
function ycbcrFullSize(components: Component[], width: number, height: number, out: Uint8ClampedArray) {
  const [luma, blue, red] = components.map((c) => c.plane);
  const [sy, sb, sr] = components.map((c) => c.paddedPerLine * c.nx);
  for (let y = 0, o = 0; y < height; y++) {
    let iy = y * sy, ib = y * sb, ir = y * sr;
    for (let x = 0; x < width; x++, o += 4) {
      const l = luma[iy++];
      const cb = blue[ib++];
      const cr = red[ir++];
      out[o] = l + RED_CR[cr];
      out[o + 1] = l + Math.floor(GREEN_CB[cb] + GREEN_CR[cr]);
      out[o + 2] = l + BLUE_CB[cb];
      out[o + 3] = 255;
    }
  }
}

/**
 * The RGBA pixels of width × height from the planes: one component is grey, three are YCbCr
 * unless `rgb` (an Adobe segment's "no transform", or components named R, G, B).
 */
export function planesToRgba(
  components: Component[],
  width: number,
  height: number,
  scaledBlock: number,
  maxH: number,
  maxV: number,
  rgb: boolean,
): Uint8ClampedArray {
  const out = new Uint8ClampedArray(width * height * 4);
  const factors = components.map((c) => [(scaledBlock * maxH) / (c.h * c.nx), (scaledBlock * maxV) / (c.v * c.ny)]);
  if (components.length === 3 && !rgb && factors.every(([fx, fy]) => fx === 1 && fy === 1)) {
    ycbcrFullSize(components, width, height, out);
    return out;
  }
  const rows = components.map((c, i) => sampler(c, width, height, factors[i][0], factors[i][1]));
  for (let y = 0; y < height; y++) {
    let o = y * width * 4;
    if (components.length === 1) {
      const grey = rows[0](y);
      for (let x = 0; x < width; x++, o += 4) {
        out[o] = out[o + 1] = out[o + 2] = grey[x];
        out[o + 3] = 255;
      }
      continue;
    }
    const [a, b, c] = [rows[0](y), rows[1](y), rows[2](y)];
    for (let x = 0; x < width; x++, o += 4) {
      if (rgb) {
        out[o] = a[x];
        out[o + 1] = b[x];
        out[o + 2] = c[x];
      } else {
        const luma = a[x];
        const cb = b[x] - 128;
        const cr = c[x] - 128;
        out[o] = luma + 1.402 * cr;
        out[o + 1] = luma - 0.344136 * cb - 0.714136 * cr;
        out[o + 2] = luma + 1.772 * cb;
      }
      out[o + 3] = 255;
    }
  }
  return out;
}
