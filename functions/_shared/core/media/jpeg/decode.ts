// A JPEG decoder of our own, for one reason: to decode a photo at 1/2, 1/4 or 1/8 of its size
// (the DCT scaling of idct.ts), which the WebAssembly MozJPEG of npm cannot. A 12-megapixel phone
// photo (4,000 × 3,000) decodes straight to 2,000 × 1,500: 12 MB of pixels where MozJPEG needs
// its 48 MB, twice (its memory and the copy it hands back), and a quarter of the transforms
// (docs/media.md). Baseline and progressive Huffman JPEGs of 8-bit samples, greyscale or three
// components with any whole subsampling, restart intervals. Anything else (CMYK, arithmetic
// coding, 12-bit, lossless, a corrupt stream) throws JpegError: the caller falls back to MozJPEG.
import { BitReader, huffmanTable, JpegError } from './bits.ts';
import { planesToRgba } from './color.ts';
import { exifOrientation } from './orientation.ts';
import { coefficientsToPlanes, type Component, decodeScan, type Scan, ZIGZAG } from './scan.ts';
import { endOfScanData } from '../jpeg-scans.ts';

export { JpegError };

export interface DecodedJpeg {
  data: Uint8ClampedArray;
  width: number;
  height: number;
  /** The size decoded against the image's: 1, 1/2, 1/4 or 1/8. */
  scale: number;
  /** The EXIF orientation (1 to 8), not yet applied. */
  orientation: number;
}

/**
 * The scale to decode at: the smallest of 1/8, 1/4, 1/2 and 1 whose longest side is still at least
 * `atLeast` (or the image's own, when that is smaller). Returned as the transform's size, 1 to 8.
 */
export function scaledBlockSize(width: number, height: number, atLeast: number): number {
  const longest = Math.max(width, height);
  const wanted = Math.min(longest, atLeast);
  for (const n of [1, 2, 4]) if (Math.ceil((longest * n) / 8) >= wanted) return n;
  return 8;
}

interface Frame {
  width: number;
  height: number;
  progressive: boolean;
  components: Component[];
  maxH: number;
  maxV: number;
  mcus: { across: number; down: number };
}

const u16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];

function readFrame(b: Uint8Array, at: number, marker: number, quant: Uint16Array[], atLeast: number): Frame {
  if (b[at] !== 8) throw new JpegError('only 8-bit samples are decoded here');
  const height = u16(b, at + 1);
  const width = u16(b, at + 3);
  const count = b[at + 5];
  if (!width || !height) throw new JpegError('the frame has no size (a DNL marker)');
  if (count !== 1 && count !== 3) throw new JpegError(`${count} components (CMYK?) are left to MozJPEG`);
  const specs = [];
  for (let i = 0; i < count; i++) {
    const s = at + 6 + i * 3;
    specs.push({ id: b[s], h: b[s + 1] >> 4, v: b[s + 1] & 15, table: b[s + 2] & 3 });
  }
  // One component is one block an MCU, whatever sampling it declares.
  if (count === 1) specs[0].h = specs[0].v = 1;
  const maxH = Math.max(...specs.map((s) => s.h));
  const maxV = Math.max(...specs.map((s) => s.v));
  const n = scaledBlockSize(width, height, atLeast);
  const mcus = { across: Math.ceil(width / (8 * maxH)), down: Math.ceil(height / (8 * maxV)) };
  const progressive = marker === 0xc2;
  const components = specs.map(({ id, h, v, table }): Component => {
    if (!h || !v || maxH % h || maxV % v) throw new JpegError('a sampling factor that does not divide the largest');
    // A subsampled component takes a larger transform where it can, so that it needs no stretching.
    const nx = Math.min(8, (n * maxH) / h);
    const ny = Math.min(8, (n * maxV) / v);
    const paddedPerLine = mcus.across * h;
    const paddedPerColumn = mcus.down * v;
    return {
      id,
      h,
      v,
      quantTable: table,
      quant: quant[table],
      blocksPerLine: Math.ceil(Math.ceil((width * h) / maxH) / 8),
      blocksPerColumn: Math.ceil(Math.ceil((height * v) / maxV) / 8),
      paddedPerLine,
      paddedPerColumn,
      nx,
      ny,
      plane: new Uint8ClampedArray(paddedPerLine * nx * paddedPerColumn * ny),
      coefficients: progressive ? new Int16Array(paddedPerLine * paddedPerColumn * 64) : null,
      dc: null,
      ac: null,
      prediction: 0,
    };
  });
  return { width, height, progressive, components, maxH, maxV, mcus };
}

/** The quantisation tables of a DQT segment, stored in natural order. */
function readQuant(b: Uint8Array, at: number, end: number, quant: Uint16Array[]) {
  while (at < end) {
    const wide = b[at] >> 4;
    const table = new Uint16Array(64);
    for (let k = 0; k < 64; k++) table[ZIGZAG[k]] = wide ? u16(b, at + 1 + k * 2) : b[at + 1 + k];
    quant[b[at] & 3] = table;
    at += 1 + 64 * (wide ? 2 : 1);
  }
}

function readHuffman(b: Uint8Array, at: number, end: number, dc: unknown[], ac: unknown[]) {
  while (at < end) {
    const counts = b.subarray(at + 1, at + 17);
    const total = counts.reduce((sum, c) => sum + c, 0);
    const table = huffmanTable(counts, b.slice(at + 17, at + 17 + total));
    (b[at] >> 4 ? ac : dc)[b[at] & 3] = table;
    at += 17 + total;
  }
}

/**
 * Decodes the JPEG at the smallest DCT scale whose longest side is still at least `atLeast`
 * pixels; throws JpegError for anything it does not read.
 */
export function decodeJpeg(b: Uint8Array, atLeast = Infinity): DecodedJpeg {
  if (b[0] !== 0xff || b[1] !== 0xd8) throw new JpegError('not a JPEG');
  const quant: Uint16Array[] = [];
  const dc: ReturnType<typeof huffmanTable>[] = [];
  const ac: ReturnType<typeof huffmanTable>[] = [];
  let frame: Frame | null = null;
  let restartInterval = 0;
  let orientation = 1;
  let adobeTransform: number | null = null;
  let scans = 0;
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) {
      at += 1; // stray bytes between segments, skipped as libjpeg does
      continue;
    }
    const marker = b[at + 1];
    if (marker === 0xd9) break;
    if (marker === 0xff || marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    const length = u16(b, at + 2);
    const body = at + 4;
    const end = at + 2 + length;
    if (length < 2 || end > b.length) throw new JpegError('a segment runs past the file');
    if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      if (frame) throw new JpegError('a second frame');
      frame = readFrame(b, body, marker, quant, atLeast);
    } else if (marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      throw new JpegError('lossless, hierarchical and arithmetic-coded JPEGs are left to MozJPEG');
    } else if (marker === 0xdb) readQuant(b, body, end, quant);
    else if (marker === 0xc4) readHuffman(b, body, end, dc, ac);
    else if (marker === 0xdd) restartInterval = u16(b, body);
    else if (marker === 0xe1 && orientation === 1) orientation = exifOrientation(b, body, length - 2);
    else if (marker === 0xee && String.fromCharCode(...b.subarray(body, body + 5)) === 'Adobe') {
      adobeTransform = b[body + 11];
    } else if (marker === 0xda) {
      if (!frame) throw new JpegError('a scan before the frame');
      const f: Frame = frame;
      const count = b[body];
      const components = [];
      for (let i = 0; i < count; i++) {
        const c = f.components.find((c) => c.id === b[body + 1 + i * 2]);
        if (!c) throw new JpegError('a scan names a component the frame does not have');
        const tables = b[body + 2 + i * 2];
        c.dc = dc[tables >> 4] ?? c.dc;
        c.ac = ac[tables & 15] ?? c.ac;
        c.quant = quant[c.quantTable] ?? c.quant;
        if (!c.quant) throw new JpegError('a component uses a quantisation table that is not defined');
        components.push(c);
      }
      const s = body + 1 + count * 2;
      const scan: Scan = { components, start: b[s], end: b[s + 1], high: b[s + 2] >> 4, low: b[s + 2] & 15 };
      if (scan.start > scan.end || scan.end > 63 || (f.progressive && scan.start > 0 && count !== 1)) {
        throw new JpegError('a scan with a band that cannot be');
      }
      decodeScan(new BitReader(b, end), scan, f.mcus, restartInterval, f.progressive);
      scans += 1;
      at = endOfScanData(b, end);
      continue;
    }
    at = end;
  }
  if (!frame || scans === 0) throw new JpegError('no frame or no scan');
  if (frame.progressive) coefficientsToPlanes(frame.components);
  const n = scaledBlockSize(frame.width, frame.height, atLeast);
  const width = Math.ceil((frame.width * n) / 8);
  const height = Math.ceil((frame.height * n) / 8);
  const ids = frame.components.map((c) => c.id).join();
  const rgb = adobeTransform !== null ? adobeTransform === 0 : ids === '82,71,66';
  const data = planesToRgba(frame.components, width, height, n, frame.maxH, frame.maxV, rgb);
  return { data, width, height, scale: n / 8, orientation };
}
