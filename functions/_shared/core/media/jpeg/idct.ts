// The inverse DCT at a reduced size (libjpeg's "DCT scaling"): an n-point transform over the n
// lowest frequencies of a block, for n = 8, 4, 2 or 1, gives the block's n × n pixels at 1/1,
// 1/2, 1/4 or 1/8 of its size straight away. With the 8-point transform's normalisation kept, the
// n-point one samples the same smooth reconstruction at the centres of the n groups of pixels,
// so that no pixel at full size is ever made. Floating point, separable: 2 × n × n × n products
// a block (at 1/2, 128 where the full transform takes 1,024).

/** cosines[n][x * 8 + u]: the weight of frequency u in sample x of an n-point transform. */
const cosines: Record<number, Float64Array> = {};
for (const n of [1, 2, 4, 8]) {
  const t = new Float64Array(n * 8);
  for (let x = 0; x < n; x++) {
    for (let u = 0; u < n; u++) {
      t[x * 8 + u] = ((u === 0 ? Math.SQRT1_2 : 1) / 2) * Math.cos(((2 * x + 1) * u * Math.PI) / (2 * n));
    }
  }
  cosines[n] = t;
}

const rows = new Float64Array(64);
const dequantised = new Float64Array(8);

/**
 * Turns the block's coefficients (natural order, from `at` in `coefficients`) times the
 * quantisation table into nx × ny samples written to `out` at `base`, `stride` apart row to row.
 * Rows of coefficients that are all zero (most of a photo's high frequencies) are skipped.
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
  const cx = cosines[nx];
  const cy = cosines[ny];
  // Along x, each row of coefficients that has any: rows[v * 8 + x]; `used` marks those rows.
  let used = 0;
  let widest = 0;
  for (let v = 0; v < ny; v++) {
    const row = at + v * 8;
    let any = 0;
    for (let u = 0; u < nx; u++) {
      const c = coefficients[row + u];
      dequantised[u] = c * quant[v * 8 + u];
      if (c !== 0) any = u + 1;
    }
    if (any === 0) continue;
    used |= 1 << v;
    widest = Math.max(widest, any);
    for (let x = 0; x < nx; x++) {
      let sum = 0;
      for (let u = 0; u < any; u++) sum += cx[x * 8 + u] * dequantised[u];
      rows[v * 8 + x] = sum;
    }
  }
  // A block with nothing but its mean (most of a smooth photo at 1/2) is one value.
  if (used <= 1 && widest <= 1) {
    const value = (used === 0 ? 0 : rows[0] * cy[0]) + 128;
    for (let y = 0, o = base; y < ny; y++, o += stride) {
      for (let x = 0; x < nx; x++) out[o + x] = value;
    }
    return;
  }
  // Then along y, shifted back to 0..255 (Uint8ClampedArray clamps and rounds).
  for (let y = 0, o = base; y < ny; y++, o += stride) {
    for (let x = 0; x < nx; x++) {
      let sum = 128;
      for (let v = 0; v < ny; v++) if (used & (1 << v)) sum += cy[y * 8 + v] * rows[v * 8 + x];
      out[o + x] = sum;
    }
  }
}
