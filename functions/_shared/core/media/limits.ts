// What the media of a review may be (the contract's "Photos and videos on reviews"): the one home
// of each limit on the API's side; every text that states one is written from here.

/** How many photos and videos a review may have; the database's is plaudit.media_per_review_limit(). */
export const MAX_MEDIA_PER_REVIEW = 6;

/** How long a reviewer's upload token works; the database's is plaudit.media_upload_token_lifetime(). */
export const UPLOAD_TOKEN_HOURS = 24;

/** The largest file taken, by kind. */
export const MAX_FILE_BYTES = { image: 15 * 1024 * 1024, video: 100 * 1024 * 1024 } as const;

/** A size of MAX_FILE_BYTES in MiB, as the texts say it. */
export const mebibytes = (bytes: number) => bytes / 1024 / 1024;

/** An image may hold at most this many pixels: checked from its header, before decoding it. */
export const MAX_IMAGE_PIXELS = 40_000_000;

/**
 * A JPEG may have at most this many scans (start-of-scan markers), counted before decoding: each is
 * one more pass of the decoder over the whole image, and cameras and encoders write at most about
 * a dozen (the progressive JPEGs MozJPEG writes for this API have 7).
 */
export const MAX_JPEG_SCANS = 32;

/**
 * What decoding an image may take in memory, reckoned from its header before decoding: its pixels
 * as RGBA (4 bytes each), and for a progressive JPEG also the coefficients it keeps until its last
 * scan (2 bytes a sample of each component). 160 MiB: a 40-megapixel photo, or a progressive JPEG
 * of 16.7 megapixels (4,096 × 4,096).
 */
export const DECODE_BUDGET_BYTES = 160 * 1024 * 1024;

/** The memory decoding `width × height` takes, as DECODE_BUDGET_BYTES reckons it. */
export function decodeCost(width: number, height: number, jpeg?: { progressive: boolean; components: number }) {
  const pixels = width * height;
  return pixels * 4 + (jpeg?.progressive ? pixels * jpeg.components * 2 : 0);
}

/** The stored image's longest side, and its thumbnail's. */
export const STORED_LONGEST_SIDE = 2048;
export const THUMBNAIL_LONGEST_SIDE = 400;

/**
 * A JPEG is decoded at the smallest DCT scale (1/2, 1/4, 1/8) whose longest side is still at least
 * this: three quarters of STORED_LONGEST_SIDE. The scales only halve, so holding out for the whole
 * 2,048 px would decode a 12-megapixel phone photo (4,000 px) at full size, 48 MB of pixels; at
 * 1/2 it is 2,000 px, 12 MB, and stored so (within the contract's "at most 2,048 px"). No photo is
 * stored smaller than 1,536 px unless it is smaller itself.
 */
export const DECODED_LONGEST_SIDE_AT_LEAST = (STORED_LONGEST_SIDE * 3) / 4;

/** width × height scaled so that the longest side is at most `longest`, never up. */
export function fitWithin(width: number, height: number, longest: number): { width: number; height: number } {
  const scale = Math.min(1, longest / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
