// Image files made byte by byte, with nothing but node:zlib (the tests and the benchmarks use
// them alike; the benchmarks load this file with Deno): PNG chunks, and the hostile files an upload
// must refuse or survive: a progressive JPEG of hundreds of scans, a huge PNG in a few kilobytes.
import { deflateSync } from 'node:zlib';

export const u16 = (n: number) => [(n >> 8) & 255, n & 255];
export const u32 = (n: number) => [(n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255];

export function pngChunk(type: string, data: Uint8Array): number[] {
  const body = [...new TextEncoder().encode(type), ...data];
  return [...u32(data.length), ...body, ...u32(crc32(new Uint8Array(body)))];
}

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * A progressive JPEG's markers written by hand: a frame header claiming width × height in three
 * components, then `scans` start-of-scan segments of a few bytes each. A few kilobytes that would
 * cost a decoder `scans` passes over the whole image.
 */
export function jpegWithScans(width: number, height: number, scans: number): Uint8Array {
  const frame = [0xff, 0xc2, ...u16(17), 8, ...u16(height), ...u16(width), 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0];
  const scan = [0xff, 0xda, ...u16(12), 3, 1, 0, 2, 0x11, 3, 0x11, 0, 0, 0, 0x12, 0x00, 0xff, 0x00, 0x34];
  return new Uint8Array([0xff, 0xd8, ...frame, ...Array.from({ length: scans }, () => scan).flat(), 0xff, 0xd9]);
}

/**
 * A grey PNG of width × height whose rows are all black: a large image in a small file (36
 * megapixels in about 40 KB). With `cut`, its last row is missing, which the decoder finds only
 * once it has inflated all the others.
 */
export function blankPng(width: number, height: number, { cut = false } = {}): Uint8Array {
  const rows = new Uint8Array((height - (cut ? 1 : 0)) * (width + 1));
  return new Uint8Array([
    ...PNG_SIGNATURE,
    ...pngChunk('IHDR', new Uint8Array([...u32(width), ...u32(height), 8, 0, 0, 0, 0])),
    ...pngChunk('IDAT', new Uint8Array(deflateSync(rows, { level: 9 }))),
    ...pngChunk('IEND', new Uint8Array()),
  ]);
}
