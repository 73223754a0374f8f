// The costly half of a reviewer's photo, run off the API's event loop (off-thread.ts): decoded,
// flattened onto white, scaled to at most 2,048 px and re-encoded as a JPEG with nothing but the
// pixels (no EXIF, no GPS, no comment), with a thumbnail of at most 400 px. Its input has passed
// the checks of process-image.ts (type, bytes, pixels, scans, decoding budget).
import { decode, encodeJpeg, type Pixels } from './codecs.ts';
import { downscale } from './downscale.ts';
import {
  DECODED_LONGEST_SIDE_AT_LEAST,
  fitWithin,
  MAX_IMAGE_PIXELS,
  STORED_LONGEST_SIDE,
  THUMBNAIL_LONGEST_SIDE,
} from './limits.ts';
import { MediaRefusal } from './refusal.ts';
import type { ImageFormat } from './sniff.ts';

export interface ProcessedImage {
  image: Uint8Array;
  thumbnail: Uint8Array;
  width: number;
  height: number;
}

/** Composes translucent pixels over white, in place: a JPEG has no transparency. */
function flattenOntoWhite(p: Pixels) {
  const d = p.data;
  for (let i = 3; i < d.length; i += 4) {
    const a = d[i];
    if (a === 255) continue;
    const keep = a / 255;
    const white = 255 * (1 - keep);
    d[i - 3] = d[i - 3] * keep + white;
    d[i - 2] = d[i - 2] * keep + white;
    d[i - 1] = d[i - 1] * keep + white;
    d[i] = 255;
  }
}

function scaled(pixels: Pixels, longest: number): Pixels {
  const size = fitWithin(pixels.width, pixels.height, longest);
  if (size.width === pixels.width && size.height === pixels.height) return pixels;
  return downscale(pixels, size.width, size.height);
}

async function decodeWithin(bytes: Uint8Array, format: ImageFormat): Promise<Pixels> {
  let pixels: Pixels;
  try {
    pixels = await decode(bytes, format, DECODED_LONGEST_SIDE_AT_LEAST);
  } catch {
    throw new MediaRefusal(422, `file: the ${format.toUpperCase()} image is corrupt and does not decode`);
  }
  // A header that lied about its size would have dodged the pixel limit: what decoded is checked too.
  if (pixels.width * pixels.height > MAX_IMAGE_PIXELS) {
    throw new MediaRefusal(413, `file: an image may have at most ${MAX_IMAGE_PIXELS / 1e6} megapixels`);
  }
  return pixels;
}

export async function makeImage(bytes: Uint8Array, format: ImageFormat): Promise<ProcessedImage> {
  // The decoded pixels live only until scaled: the largest allocation of the whole upload (a large
  // JPEG's already at 1/2 to 1/8 of its size). They are flattened first, so that transparent
  // pixels' colours do not bleed into the average.
  const full = await decodeWithin(bytes, format);
  if (format !== 'jpeg') flattenOntoWhite(full);
  const stored = scaled(full, STORED_LONGEST_SIDE);
  const thumbnail = scaled(stored, THUMBNAIL_LONGEST_SIDE);
  return {
    image: await encodeJpeg(stored, 82),
    thumbnail: await encodeJpeg(thumbnail, 75),
    width: stored.width,
    height: stored.height,
  };
}
