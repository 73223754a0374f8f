// The image codecs: WebAssembly builds of MozJPEG, libwebp and the PNG decoder, from
// npm (@jsquash/*), so that no native binary is needed (Supabase Edge Functions run none); a JPEG is
// first given to our own decoder (jpeg/decode.ts), which decodes it at a reduced size. Deno
// loads each module from its package on first use; under Node (the unit tests) they are compiled
// here from the package's file.
import decodeJpegWasm, { init as initJpegDecoder } from '@jsquash/jpeg/decode.js';
import encodeJpegWasm, { init as initJpegEncoder } from '@jsquash/jpeg/encode.js';
import decodePngWasm, { init as initPngDecoder } from '@jsquash/png/decode.js';
import decodeWebpWasm, { init as initWebpDecoder } from '@jsquash/webp/decode.js';
import { isDeno, nodePackageFile, readFileBytes } from '../runtime.ts';
import { decodeJpeg, scaledBlockSize } from './jpeg/decode.ts';
import { orient } from './jpeg/orientation.ts';
import { type ImageFormat, imageSize } from './sniff.ts';

/** Pixels as the codecs take and give them: RGBA, 4 bytes a pixel, row by row. */
export interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

// Node has no ImageData, which the codecs make their results with: the shape they need.
const scope = globalThis as unknown as { ImageData?: unknown };
scope.ImageData ??= class {
  readonly colorSpace = 'srgb';
  data: Uint8ClampedArray;
  width: number;
  height: number;
  constructor(data: Uint8ClampedArray | number, width: number, height?: number) {
    if (typeof data === 'number') {
      [this.width, this.height, this.data] = [data, width, new Uint8ClampedArray(data * width * 4)];
    } else {
      [this.data, this.width, this.height] = [data, width, height ?? data.length / 4 / width];
    }
  }
};

const compile = async (file: string) =>
  await WebAssembly.compile(await readFileBytes(await nodePackageFile(`@jsquash/${file}`)) as BufferSource);

let ready: Promise<unknown> | undefined;
/** Under Node, gives every codec its module once; Deno needs nothing. */
function load(): Promise<unknown> {
  if (isDeno) return Promise.resolve();
  return ready ??= Promise.all([
    compile('jpeg/codec/dec/mozjpeg_dec.wasm').then((m) => initJpegDecoder(m)),
    compile('jpeg/codec/enc/mozjpeg_enc.wasm').then((m) => initJpegEncoder(m)),
    compile('png/codec/pkg/squoosh_png_bg.wasm').then((m) => initPngDecoder(m)),
    compile('webp/codec/dec/webp_dec.wasm').then((m) => initWebpDecoder(m)),
  ]);
}

// The codecs' types name the DOM's ImageData, whose data may be of other kinds than bytes; theirs
// are always RGBA bytes.
const asImageData = (p: Pixels) => p as unknown as ImageData;
const asPixels = (i: ImageData) => i as unknown as Pixels;

/**
 * A JPEG's pixels by our own decoder, at the smallest DCT scale whose longest side is still at
 * least `atLeast` (jpeg/decode.ts), turned as its EXIF orientation says; null for what that
 * decoder does not read (CMYK, arithmetic coding, 12-bit, a stream it finds corrupt), which
 * MozJPEG then decodes whole as before. A RangeError (memory that could not be had) is no reason
 * to try again with the decoder that needs more.
 */
function decodeJpegScaled(bytes: Uint8Array, atLeast: number): Pixels | null {
  try {
    const { data, width, height, orientation } = decodeJpeg(bytes, atLeast);
    return orient({ data, width, height }, orientation);
  } catch (err) {
    if (err instanceof RangeError) throw err;
    return null;
  }
}

/**
 * A JPEG of at most this many pixels that would decode at full size anyway goes to MozJPEG, which
 * decodes it 2 to 2.5 times faster than ours (a 1 MP photo: 70 against 175 ms), in memory that is
 * small at that size: the photos the hosted form and the widget send, made at most 2,048 px in
 * the browser, are of these. Ours decodes the larger ones, where it saves the memory.
 */
const OWN_DECODER_FROM_PIXELS = 4_000_000;

/** Whether our decoder takes this JPEG: it decodes it at a reduced size, or it is large. */
function ownDecoderTakes(bytes: Uint8Array, atLeast: number): boolean {
  const size = imageSize(bytes, 'jpeg');
  if (!size) return true; // ours finds out what is wrong with it, or gives it to MozJPEG
  const { width, height } = size;
  return scaledBlockSize(width, height, atLeast) < 8 || width * height > OWN_DECODER_FROM_PIXELS;
}

/**
 * The pixels of an image; throws when it does not decode. A JPEG may come out smaller than it
 * is, but with its longest side at least `atLeast` (or whole, when it is smaller than that).
 */
export async function decode(bytes: Uint8Array, format: ImageFormat, atLeast = Infinity): Promise<Pixels> {
  if (format === 'jpeg' && ownDecoderTakes(bytes, atLeast)) {
    const scaled = decodeJpegScaled(bytes, atLeast);
    if (scaled) return scaled;
  }
  return await decodeWhole(bytes, format);
}

/** The pixels of an image at its full size, by the WebAssembly codecs; throws when it does not decode. */
export async function decodeWhole(bytes: Uint8Array, format: ImageFormat): Promise<Pixels> {
  await load();
  const buffer = bytes.slice().buffer;
  // A JPEG is turned as its EXIF orientation says (a phone's upright photo), since the EXIF goes.
  const image = format === 'jpeg'
    ? await decodeJpegWasm(buffer, { preserveOrientation: true })
    : format === 'png'
    ? await decodePngWasm(buffer)
    : await decodeWebpWasm(buffer);
  if (!image?.width || !image.height) throw new Error('the image decoded to nothing');
  return asPixels(image);
}

/** A progressive JPEG of the pixels and nothing else: MozJPEG writes no EXIF, GPS or comment. */
export async function encodeJpeg(pixels: Pixels, quality: number): Promise<Uint8Array> {
  await load();
  return new Uint8Array(await encodeJpegWasm(asImageData(pixels), { quality, progressive: true }));
}
