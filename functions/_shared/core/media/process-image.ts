// A reviewer's photo, made safe to publish: its type from its content, and what decoding it will
// cost from its header (bytes, pixels, a JPEG's scans, the memory of its decoding), all checked
// before anything decodes it; then made (make-image.ts) in a worker of its own with a deadline
// (off-thread.ts), never on the API's event loop.
import {
  DECODE_BUDGET_BYTES,
  decodeCost,
  MAX_FILE_BYTES,
  MAX_IMAGE_PIXELS,
  MAX_JPEG_SCANS,
  mebibytes,
} from './limits.ts';
import { jpegCost } from './jpeg-scans.ts';
import type { ProcessedImage } from './make-image.ts';
import { type DecodeLimits, makeImageOffThread } from './off-thread.ts';
import { MediaRefusal } from './refusal.ts';
import { type ImageFormat, imageSize } from './sniff.ts';

export { MediaRefusal, type ProcessedImage };

/** Refuses, before decoding, an image whose decoding would cost too much time or memory; answers the memory it will take. */
export function checkDecodingCost(bytes: Uint8Array, format: ImageFormat): number {
  if (bytes.length > MAX_FILE_BYTES.image) {
    throw new MediaRefusal(413, `file: an image may be at most ${mebibytes(MAX_FILE_BYTES.image)} MiB`);
  }
  const corrupt = `file: the ${format.toUpperCase()} image is corrupt (no whole header)`;
  const header = imageSize(bytes, format);
  if (!header) throw new MediaRefusal(422, corrupt);
  const { width, height } = header;
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new MediaRefusal(
      413,
      `file: an image may have at most ${MAX_IMAGE_PIXELS / 1e6} megapixels (this one has ${width} × ${height})`,
    );
  }
  const jpeg = format === 'jpeg' ? jpegCost(bytes) : undefined;
  if (jpeg === null) throw new MediaRefusal(422, corrupt);
  if (jpeg && jpeg.scans > MAX_JPEG_SCANS) {
    throw new MediaRefusal(
      422,
      `file: a JPEG image may have at most ${MAX_JPEG_SCANS} scans (this one has ${jpeg.scans}); save it again as a baseline JPEG`,
    );
  }
  const cost = decodeCost(width, height, jpeg);
  if (cost > DECODE_BUDGET_BYTES) {
    throw new MediaRefusal(
      413,
      `file: this ${width} × ${height} ${
        jpeg?.progressive ? 'progressive JPEG' : 'image'
      } needs more memory to decode than an upload may take (${mebibytes(DECODE_BUDGET_BYTES)} MiB)`,
    );
  }
  return cost;
}

export async function processImage(bytes: Uint8Array, format: ImageFormat, limits: DecodeLimits) {
  const cost = checkDecodingCost(bytes, format);
  return await makeImageOffThread(bytes, format, cost, limits);
}
