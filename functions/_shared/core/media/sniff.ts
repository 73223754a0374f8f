// What a file is, from its first bytes (never its name or its declared type), and an image's
// size from its header, read before anything decodes it: a small file that would decode to a huge
// image (a decompression bomb) is refused for the price of reading a few bytes.

export type ImageFormat = 'jpeg' | 'png' | 'webp';
export type VideoFormat = 'mp4' | 'webm';
export type Sniffed = { type: 'image'; format: ImageFormat } | { type: 'video'; format: VideoFormat };

const ascii = (b: Uint8Array, at: number, length: number) => String.fromCharCode(...b.subarray(at, at + length));
const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u24le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);

/** MP4 brands (ISO base media of MPEG-4): QuickTime, HEIF/HEIC and 3GP files have others. */
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V ', 'dash']);

/** The kind of file, or null for anything else (SVG, HTML, GIF, HEIC, QuickTime, text…). */
export function sniff(b: Uint8Array): Sniffed | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { type: 'image', format: 'jpeg' };
  if (b.length >= 8 && ascii(b, 0, 8) === '\x89PNG\r\n\x1a\n') return { type: 'image', format: 'png' };
  if (b.length >= 16 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') {
    return { type: 'image', format: 'webp' };
  }
  if (b.length >= 12 && ascii(b, 4, 4) === 'ftyp' && MP4_BRANDS.has(ascii(b, 8, 4))) {
    return { type: 'video', format: 'mp4' };
  }
  if (b.length >= 4 && u32be(b, 0) === 0x1a45dfa3 && ascii(b, 0, Math.min(b.length, 64)).includes('\x42\x82\x84webm')) {
    return { type: 'video', format: 'webm' };
  }
  return null;
}

/** An image's width and height as its header states them, or null when the header is not whole. */
export function imageSize(b: Uint8Array, format: ImageFormat): { width: number; height: number } | null {
  const size = format === 'png' ? pngSize(b) : format === 'webp' ? webpSize(b) : jpegSize(b);
  return size && size.width > 0 && size.height > 0 ? size : null;
}

function pngSize(b: Uint8Array) {
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return null;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

function webpSize(b: Uint8Array) {
  if (b.length < 30) return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const bits = (b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return null;
}

/** The first start-of-frame segment's size, walking the segments from the start. */
function jpegSize(b: Uint8Array) {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // the image data before any frame header
    const length = u16be(b, at + 2);
    if (length < 2) return null;
    const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (frame) {
      if (at + 9 > b.length) return null;
      return { width: u16be(b, at + 7), height: u16be(b, at + 5) };
    }
    at += 2 + length;
  }
  return null;
}

/**
 * Whether a video's container holds together: an MP4's top-level boxes tile the file exactly and
 * include its index (`moov`); a WebM's EBML header is followed by its Segment. A cut-off or
 * made-up file fails.
 */
export function videoIsWhole(b: Uint8Array, format: VideoFormat): boolean {
  return format === 'mp4' ? mp4IsWhole(b) : webmIsWhole(b);
}

function mp4IsWhole(b: Uint8Array): boolean {
  let at = 0;
  let index = false;
  while (at < b.length) {
    if (at + 8 > b.length) return false;
    let size = u32be(b, at);
    const type = ascii(b, at + 4, 4);
    if (!/^[\x20-\x7e]{4}$/.test(type)) return false;
    if (size === 1) {
      if (at + 16 > b.length) return false;
      size = u32be(b, at + 8) * 2 ** 32 + u32be(b, at + 12);
    } else if (size === 0) {
      size = b.length - at;
    }
    if (size < 8 || at + size > b.length) return false;
    if (type === 'moov') index = true;
    at += size;
  }
  return index;
}

/** An EBML element's size field: its length in bytes and its value. */
function vint(b: Uint8Array, at: number): { length: number; value: number } | null {
  const first = b[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (at + length > b.length) return null;
  let value = first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + b[at + i];
  return { length, value };
}

function webmIsWhole(b: Uint8Array): boolean {
  const header = vint(b, 4);
  if (!header) return false;
  const segment = 4 + header.length + header.value;
  return segment + 4 <= b.length && u32be(b, segment) === 0x18538067;
}
