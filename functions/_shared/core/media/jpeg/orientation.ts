// A photo's EXIF orientation (how a viewer turns it: a phone held upright stores its picture
// sideways and says 6), read from the APP1 segment, and pixels turned accordingly: the EXIF is
// not kept, so the turn is made in the pixels.
import type { Pixels } from '../codecs.ts';

/** The orientation tag of an "Exif\0\0" APP1 payload (from `at`, `length` bytes), 1 when absent or unreadable. */
export function exifOrientation(b: Uint8Array, at: number, length: number): number {
  const end = Math.min(b.length, at + length);
  if (at + 14 > end || String.fromCharCode(...b.subarray(at, at + 6)) !== 'Exif\0\0') return 1;
  const tiff = at + 6;
  const little = b[tiff] === 0x49 && b[tiff + 1] === 0x49;
  const u16 = (i: number) => (little ? b[i] | (b[i + 1] << 8) : (b[i] << 8) | b[i + 1]);
  const u32 = (i: number) => (little ? u16(i) + u16(i + 2) * 65536 : u16(i) * 65536 + u16(i + 2));
  const ifd = tiff + u32(tiff + 4);
  if (ifd + 2 > end) return 1;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return 1;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** The pixels as a viewer shows them under `orientation` (1 to 8); the same object for 1. */
export function orient(p: Pixels, orientation: number): Pixels {
  if (orientation <= 1 || orientation > 8) return p;
  const { width: w, height: h } = p;
  const src = new Uint32Array(p.data.buffer, p.data.byteOffset, w * h);
  const turned = orientation >= 5;
  const [ow, oh] = turned ? [h, w] : [w, h];
  const data = new Uint8ClampedArray(w * h * 4);
  const dst = new Uint32Array(data.buffer);
  // For each output pixel (x, y), the source pixel it shows.
  const from: (x: number, y: number) => number = [
    (x: number, y: number) => y * w + x,
    (x: number, y: number) => y * w + x,
    (x: number, y: number) => y * w + (w - 1 - x), // 2: mirrored
    (x: number, y: number) => (h - 1 - y) * w + (w - 1 - x), // 3: upside down
    (x: number, y: number) => (h - 1 - y) * w + x, // 4: mirrored upside down
    (x: number, y: number) => x * w + y, // 5: transposed
    (x: number, y: number) => (h - 1 - x) * w + y, // 6: a quarter turn clockwise
    (x: number, y: number) => (h - 1 - x) * w + (w - 1 - y), // 7: transversed
    (x: number, y: number) => x * w + (w - 1 - y), // 8: a quarter turn anticlockwise
  ][orientation];
  for (let y = 0, o = 0; y < oh; y++) {
    for (let x = 0; x < ow; x++, o++) dst[o] = src[from(x, y)];
  }
  return { data, width: ow, height: oh };
}
