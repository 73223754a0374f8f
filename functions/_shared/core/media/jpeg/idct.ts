// The inverse DCT at a reduced size (libjpeg's "DCT scaling"): an n-point transform over the n
// lowest frequencies of a block, for n = 8, 4, 2 or 1, gives the block's n × n pixels at 1/1,
// 1/2, 1/4 or 1/8 of its size straight away. With the 8-point transform's normalisation kept, the
// n-point one samples the same smooth reconstruction at the centres of the n groups of pixels,
// so that no pixel at full size is ever made. Floating point and separable; each 1-D transform
// splits into its even and odd halves (sample x and n-1-x share their products), and rows of
// coefficients that are all zero (most of a photo's high frequencies) are skipped.

/** w(n, u, x): the weight of frequency u in sample x of an n-point transform, ½·C(u)·cos((2x+1)uπ/2n). */
const w = (n: number, u: number, x: number) =>
  ((u === 0 ? Math.SQRT1_2 : 1) / 2) * Math.cos(((2 * x + 1) * u * Math.PI) / (2 * n));

const DC = w(8, 0, 0); // the same for every n
const W2 = w(2, 1, 0);
const [W4a, W4b, W4c] = [w(4, 2, 0), w(4, 1, 0), w(4, 3, 0)];
const [W8a, W8b, W8c] = [w(8, 4, 0), w(8, 2, 0), w(8, 6, 0)];
/** The odd frequencies (1, 3, 5, 7) of an 8-point transform, for samples 0 to 3: ODD8[x * 4 + i]. */
const ODD8 = new Float64Array(16);
for (let x = 0; x < 4; x++) for (let i = 0; i < 4; i++) ODD8[x * 4 + i] = w(8, 2 * i + 1, x);

/** The n-point inverse transform of s[from + k·step] (k < n) into d[to + x·out] (x < n). */
function inverse1d(n: number, s: Float64Array, from: number, step: number, d: Float64Array, to: number, out: number) {
  const f0 = s[from] * DC;
  if (n === 1) {
    d[to] = f0;
  } else if (n === 2) {
    const f1 = s[from + step] * W2;
    d[to] = f0 + f1;
    d[to + out] = f0 - f1;
  } else if (n === 4) {
    const f1 = s[from + step], f2 = s[from + 2 * step], f3 = s[from + 3 * step];
    const e0 = f0 + W4a * f2;
    const e1 = f0 - W4a * f2;
    const o0 = W4b * f1 + W4c * f3;
    const o1 = W4c * f1 - W4b * f3;
    d[to] = e0 + o0;
    d[to + out] = e1 + o1;
    d[to + 2 * out] = e1 - o1;
    d[to + 3 * out] = e0 - o0;
  } else {
    const f1 = s[from + step], f2 = s[from + 2 * step], f3 = s[from + 3 * step], f4 = s[from + 4 * step];
    const f5 = s[from + 5 * step], f6 = s[from + 6 * step], f7 = s[from + 7 * step];
    // Even half: frequencies 0 and 4 (symmetric about the middle), 2 and 6 (antisymmetric).
    const a0 = f0 + W8a * f4;
    const a1 = f0 - W8a * f4;
    const b0 = W8b * f2 + W8c * f6;
    const b1 = W8c * f2 - W8b * f6;
    const o = ODD8;
    const o0 = o[0] * f1 + o[1] * f3 + o[2] * f5 + o[3] * f7;
    const o1 = o[4] * f1 + o[5] * f3 + o[6] * f5 + o[7] * f7;
    const o2 = o[8] * f1 + o[9] * f3 + o[10] * f5 + o[11] * f7;
    const o3 = o[12] * f1 + o[13] * f3 + o[14] * f5 + o[15] * f7;
    d[to] = a0 + b0 + o0;
    d[to + 7 * out] = a0 + b0 - o0;
    d[to + out] = a1 + b1 + o1;
    d[to + 6 * out] = a1 + b1 - o1;
    d[to + 2 * out] = a1 - b1 + o2;
    d[to + 5 * out] = a1 - b1 - o2;
    d[to + 3 * out] = a0 - b0 + o3;
    d[to + 4 * out] = a0 - b0 - o3;
  }
}

const block = new Float64Array(64);
const rows = new Float64Array(64);
const column = new Float64Array(8);

/**
 * Turns the block's coefficients (natural order, from `at` in `coefficients`) times the
 * quantisation table into nx × ny samples written to `out` at `base`, `stride` apart row to row.
 */
export function inverseDct(
  coefficients: Int16Array | Int32Array,
  at: number,
  quant: Uint16Array,
  nx: number,
  ny: number,
  out: Uint8ClampedArray,
  base: number,
  stride: number,
) {
  // Along x, each row of coefficients that has any (rows[v * 8 + x]); a row of zeros stays zeros.
  let used = 0;
  let widest = 0;
  let lastRow = 0;
  for (let v = 0; v < ny; v++) {
    const row = v * 8;
    let last = 0;
    for (let u = 0; u < nx; u++) {
      const c = coefficients[at + row + u];
      block[row + u] = c * quant[row + u];
      if (c !== 0) last = u + 1;
    }
    if (last === 0) {
      rows.fill(0, row, row + nx);
      continue;
    }
    used += 1;
    widest = Math.max(widest, last);
    lastRow = v;
    inverse1d(nx, block, row, 1, rows, row, 1);
  }
  // A block with nothing but its mean (most of a smooth photo at 1/2) is one value.
  if (used === 0 || (used === 1 && widest === 1 && lastRow === 0)) {
    const value = (used === 0 ? 0 : block[0] / 8) + 128;
    for (let y = 0, o = base; y < ny; y++, o += stride) {
      for (let x = 0; x < nx; x++) out[o + x] = value;
    }
    return;
  }
  // Then along y, shifted back to 0..255 (Uint8ClampedArray clamps and rounds).
  for (let x = 0; x < nx; x++) {
    inverse1d(ny, rows, x, 8, column, 0, 1);
    for (let y = 0, o = base + x; y < ny; y++, o += stride) out[o] = column[y] + 128;
  }
}
