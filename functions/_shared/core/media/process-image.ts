// A reviewer's photo, made safe to publish: its type from its content, its size from its header
// (before decoding), decoded, flattened onto white, scaled to at most 2,048 px and re-encoded as a
// JPEG with nothing but the pixels (no EXIF, no GPS, no comment), with a thumbnail of at most 400 px.
import { decode, encodeJpeg, type Pixels } from './codecs.ts';
import { downscale } from './downscale.ts';
import {
  fitWithin,
  MAX_FILE_BYTES,
  MAX_IMAGE_PIXELS,
  mebibytes,
  STORED_LONGEST_SIDE,
  THUMBNAIL_LONGEST_SIDE,
} from './limits.ts';
import { type ImageFormat, imageSize } from './sniff.ts';

/** Why a file is refused, with the status the API answers. */
export class MediaRefusal extends Error {
  constructor(readonly status: 413 | 415 | 422, message: string) {
    super(message);
  }
}

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
    pixels = await decode(bytes, format);
  } catch {
    throw new MediaRefusal(422, `file: the ${format.toUpperCase()} image is corrupt and does not decode`);
  }
  // A header that lied about its size would have dodged the pixel limit: what decoded is checked too.
  if (pixels.width * pixels.height > MAX_IMAGE_PIXELS) {
    throw new MediaRefusal(413, `file: an image may have at most ${MAX_IMAGE_PIXELS / 1e6} megapixels`);
  }
  return pixels;
}

export async function processImage(bytes: Uint8Array, format: ImageFormat): Promise<ProcessedImage> {
  if (bytes.length > MAX_FILE_BYTES.image) {
    throw new MediaRefusal(413, `file: an image may be at most ${mebibytes(MAX_FILE_BYTES.image)} MiB`);
  }
  const header = imageSize(bytes, format);
  if (!header) throw new MediaRefusal(422, `file: the ${format.toUpperCase()} image is corrupt (no whole header)`);
  if (header.width * header.height > MAX_IMAGE_PIXELS) {
    throw new MediaRefusal(
      413,
      `file: an image may have at most ${
        MAX_IMAGE_PIXELS / 1e6
      } megapixels (this one has ${header.width} × ${header.height})`,
    );
  }
  // The full-size pixels live only until scaled: the largest allocation of the whole upload. They
  // are flattened first, so that transparent pixels' colours do not bleed into the average.
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
