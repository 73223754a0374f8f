// What a JPEG will cost to decode, read from its markers before anything decodes it: how many
// scans it has (each start-of-scan marker is one more pass of the decoder over the whole image), whether
// it is progressive (the decoder then keeps every coefficient of the image until the last scan) and
// how many colour components it has. A progressive JPEG of a few kilobytes can hold hundreds of
// scans, each one a full pass over a large image: minutes of decoding.

export interface JpegCost {
  scans: number;
  progressive: boolean;
  components: number;
}

const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];

/** The frame headers of a progressive JPEG (SOF2, and the differential and arithmetic ones: 6, 10, 14). */
const PROGRESSIVE_FRAMES = new Set([0xc2, 0xc6, 0xca, 0xce]);
const isFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** Where the entropy-coded data after a scan header ends: the next marker that is not a stuffed byte or a restart. */
export function endOfScanData(b: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    at = b.indexOf(0xff, at);
    if (at < 0 || at + 1 >= b.length) return b.length;
    const next = b[at + 1];
    if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) {
      at += next === 0xff ? 1 : 2;
      continue;
    }
    return at;
  }
}

/**
 * The JPEG's scans, counted by walking its segments from the start to its end (a walk of the
 * markers, a few milliseconds for the largest file taken); null when the markers do not hold together.
 */
export function jpegCost(b: Uint8Array): JpegCost | null {
  let at = 2;
  let scans = 0;
  let progressive = false;
  let components = 0;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) {
      // Stray bytes between segments, which decoders skip with a warning: so does the count.
      at = b.indexOf(0xff, at);
      if (at < 0) break;
      continue;
    }
    const marker = b[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) break; // the end of the image
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = u16be(b, at + 2);
    if (length < 2) return null;
    if (isFrame(marker) && components === 0) {
      if (at + 10 > b.length) return null;
      progressive = PROGRESSIVE_FRAMES.has(marker);
      components = b[at + 9];
    }
    at += 2 + length;
    if (marker === 0xda) {
      scans += 1;
      at = endOfScanData(b, at);
    }
  }
  return components ? { scans, progressive, components } : null;
}
