// Real files for the media tests, made here: JPEGs encoded by the same WebAssembly MozJPEG the API
// uses, with an EXIF segment holding GPS coordinates spliced in by hand; PNGs written chunk by
// chunk; MP4 and WebM containers box by box; and the multipart upload the API takes.
import { deflateSync } from 'node:zlib';
import { PNG_SIGNATURE, pngChunk, u16, u32 } from './image-files.ts';
import { encodeJpeg } from '../../functions/_shared/core/media/codecs.ts';
import { api, type ApiResponse } from './http.ts';

export { blankPng, jpegWithScans } from './image-files.ts';

/** A marker the EXIF segment carries: it must not survive into what the API stores. */
export const GPS_MARKER = 'PLAUDIT-GPS-52.5200N-13.4050E';

/** width × height of a gradient, seeded so that different seeds give different bytes. */
function pixels(width: number, height: number, seed: number) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x * 255) / width;
      data[i + 1] = (y * 255) / height;
      data[i + 2] = (seed * 47) % 256;
      data[i + 3] = 255;
    }
  }
  return { data, width, height };
}

/**
 * An APP1 segment: Exif, a TIFF whose IFD0 holds the orientation and points to a GPS IFD with a
 * latitude, and the marker.
 */
function exifSegment(orientation: number): Uint8Array {
  const tiff = [
    ...[0x4d, 0x4d, 0x00, 0x2a],
    ...u32(8), // big-endian TIFF, IFD0 at 8
    ...u16(2),
    ...u16(0x0112),
    ...u16(3),
    ...u32(1),
    ...u16(orientation),
    ...u16(0), // Orientation
    ...u16(0x8825),
    ...u16(4),
    ...u32(1),
    ...u32(38), // GPS IFD at 38
    ...u32(0),
    ...u16(1),
    ...u16(0x0002),
    ...u16(5),
    ...u32(3),
    ...u32(56),
    ...u32(0), // GPSLatitude at 56
    ...u32(52),
    ...u32(1),
    ...u32(31),
    ...u32(1),
    ...u32(12),
    ...u32(1),
    ...new TextEncoder().encode(GPS_MARKER),
  ];
  const payload = [...new TextEncoder().encode('Exif\0\0'), ...tiff];
  return new Uint8Array([0xff, 0xe1, ...u16(payload.length + 2), ...payload]);
}

/**
 * A real JPEG of width × height with EXIF and GPS in it, right after its start marker; its EXIF
 * orientation says how a viewer turns it (6: a quarter turn clockwise, as a phone held upright).
 */
export async function jpegWithGps(width: number, height: number, seed = 1, orientation = 1): Promise<Uint8Array> {
  const plain = await encodeJpeg(pixels(width, height, seed), 80);
  return new Uint8Array([...plain.subarray(0, 2), ...exifSegment(orientation), ...plain.subarray(2)]);
}

/** A real RGBA PNG, half transparent, with a text chunk that must not survive. */
export function png(width: number, height: number): Uint8Array {
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) rows.push(200, 30, 30, x < width / 2 ? 255 : 0);
  }
  return new Uint8Array([
    ...PNG_SIGNATURE,
    ...pngChunk('IHDR', new Uint8Array([...u32(width), ...u32(height), 8, 6, 0, 0, 0])),
    ...pngChunk('tEXt', new TextEncoder().encode(`Comment\0${GPS_MARKER}`)),
    ...pngChunk('IDAT', new Uint8Array(deflateSync(new Uint8Array(rows)))),
    ...pngChunk('IEND', new Uint8Array()),
  ]);
}

/** A decompression bomb's header: a PNG claiming width × height, and a few bytes of nothing. */
export function pngClaiming(width: number, height: number): Uint8Array {
  return new Uint8Array([
    ...PNG_SIGNATURE,
    ...pngChunk('IHDR', new Uint8Array([...u32(width), ...u32(height), 8, 6, 0, 0, 0])),
    ...pngChunk('IDAT', new Uint8Array(deflateSync(new Uint8Array(1000)))),
    ...pngChunk('IEND', new Uint8Array()),
  ]);
}

function box(type: string, payload: number[]): number[] {
  return [...u32(payload.length + 8), ...new TextEncoder().encode(type), ...payload];
}

/** An MP4 container as a camera writes one: its type, its index and its media data. */
export function mp4(seed = 1): Uint8Array {
  return new Uint8Array([
    ...box('ftyp', [...new TextEncoder().encode('isom'), ...u32(512), ...new TextEncoder().encode('isomiso2mp41')]),
    ...box('moov', box('mvhd', new Array(100).fill(0))),
    ...box('mdat', new Array(2000).fill(seed & 255)),
  ]);
}

/** A WebM container: its EBML header (DocType webm), then its Segment. */
export function webm(): Uint8Array {
  const docType = [0x42, 0x82, 0x84, ...new TextEncoder().encode('webm')];
  const header = [0x1a, 0x45, 0xdf, 0xa3, 0x80 | docType.length, ...docType];
  return new Uint8Array([...header, 0x18, 0x53, 0x80, 0x67, 0x88, ...new Array(8).fill(0)]);
}

/** Uploads `bytes` as the `file` field, named and typed as given (the API believes neither). */
export async function upload(
  reviewId: string,
  bytes: Uint8Array,
  opts: {
    token?: string;
    key?: string;
    name?: string;
    type?: string;
    baseUrl?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse> {
  const form = new FormData();
  form.append(
    'file',
    new Blob([bytes as Uint8Array<ArrayBuffer>], { type: opts.type ?? 'image/jpeg' }),
    opts.name ?? 'photo.jpg',
  );
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers['x-upload-token'] = opts.token;
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  return await api('POST', `/api/v1/reviews/${reviewId}/media`, { formData: form, headers, baseUrl: opts.baseUrl });
}

/** A stored file, as the public fetches it. */
export async function fetchFile(url: string) {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}
