// Our JPEG decoder against MozJPEG (the WebAssembly decoder it stands in front of): on JPEGs that
// MozJPEG writes here (baseline and progressive, 4:2:0 and 4:4:4, greyscale, odd sizes) and on
// libjpeg-turbo's (tests/fixtures/media/README.md: restart markers, 4:2:2, 4:4:0, arithmetic
// coding), at full size and at 1/2, 1/4 and 1/8 against MozJPEG's full decode averaged down.
import fs from 'node:fs';
import encodeJpegWasm from '@jsquash/jpeg/encode.js';
import { describe, expect, it } from 'vitest';
import { decode, decodeWhole, encodeJpeg, type Pixels } from '../codecs.ts';
import { DECODED_LONGEST_SIDE_AT_LEAST } from '../limits.ts';
import { decodeJpeg, JpegError, scaledBlockSize } from './decode.ts';
import { exifOrientation, orient } from './orientation.ts';

const fixture = (name: string) =>
  new Uint8Array(fs.readFileSync(new URL(`../../../../../tests/fixtures/media/${name}`, import.meta.url)));

/** Photo-like pixels: smooth gradients and waves, with a little grain. */
function photo(width: number, height: number): Pixels {
  const data = new Uint8ClampedArray(width * height * 4);
  let seed = 7;
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i += 4) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const grain = (seed % 9) - 4;
      data[i] = 128 + 100 * Math.sin(x / 37 + y / 53) + grain;
      data[i + 1] = (x * 255) / width + grain;
      data[i + 2] = (y * 200) / height + 40 * Math.cos(x / 23) + grain;
      data[i + 3] = 255;
    }
  }
  return { data, width, height };
}

/** A JPEG of the pixels by MozJPEG with these options (its module given by codecs.ts first). */
async function mozjpeg(p: Pixels, options: Record<string, unknown>): Promise<Uint8Array> {
  await encodeJpeg({ data: new Uint8ClampedArray(4), width: 1, height: 1 }, 50);
  const bytes = await encodeJpegWasm(p as unknown as ImageData, { quality: 90, auto_subsample: false, ...options });
  return new Uint8Array(bytes);
}

/** The pixels averaged over `factor` × `factor` squares (the last ones partial), to width × height. */
function boxAverage(p: Pixels, factor: number, width: number, height: number): Pixels {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let ch = 0; ch < 4; ch++) {
        let sum = 0, n = 0;
        for (let sy = y * factor; sy < Math.min(p.height, (y + 1) * factor); sy++) {
          for (let sx = x * factor; sx < Math.min(p.width, (x + 1) * factor); sx++, n++) {
            sum += p.data[(sy * p.width + sx) * 4 + ch];
          }
        }
        data[(y * width + x) * 4 + ch] = sum / n;
      }
    }
  }
  return { data, width, height };
}

/** The mean absolute difference of each colour channel, the largest of the three. */
function meanDifference(a: Pixels, b: Pixels): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  const sums = [0, 0, 0];
  for (let i = 0; i < a.data.length; i += 4) {
    for (let ch = 0; ch < 3; ch++) sums[ch] += Math.abs(a.data[i + ch] - b.data[i + ch]);
  }
  return Math.max(...sums) / (a.width * a.height);
}

/** Ours at 1/1, 1/2, 1/4 and 1/8 against MozJPEG's decode (averaged down): each scale's difference. */
async function differences(bytes: Uint8Array): Promise<Record<string, number>> {
  const whole = await decodeWhole(bytes, 'jpeg');
  const out: Record<string, number> = {};
  for (const factor of [1, 2, 4, 8]) {
    const ours = decodeJpeg(bytes, Math.ceil(Math.max(whole.width, whole.height) / factor));
    expect(ours.scale).toBe(1 / factor);
    expect([ours.width, ours.height]).toEqual([Math.ceil(whole.width / factor), Math.ceil(whole.height / factor)]);
    const reference = factor === 1 ? whole : boxAverage(whole, factor, ours.width, ours.height);
    out[`1/${factor}`] = meanDifference(ours, reference);
  }
  return out;
}

const SMALL = (d: Record<string, number>) => Object.values(d).every((v) => v < 3);

describe('decodeJpeg', () => {
  const written: [string, Record<string, unknown>][] = [
    ['baseline 4:2:0', { baseline: true, progressive: false, chroma_subsample: 2 }],
    ['baseline 4:4:4', { baseline: true, progressive: false, chroma_subsample: 1 }],
    ['progressive 4:2:0', { progressive: true, chroma_subsample: 2 }],
    ['progressive 4:4:4', { progressive: true, chroma_subsample: 1 }],
    ['baseline greyscale', { baseline: true, progressive: false, color_space: 1 }],
    ['progressive greyscale', { progressive: true, color_space: 1 }],
  ];
  for (const [name, options] of written) {
    it(`decodes a ${name} JPEG of an odd size as MozJPEG does, at every scale`, async () => {
      const d = await differences(await mozjpeg(photo(401, 299), options));
      expect(d['1/1'], JSON.stringify(d)).toBeLessThan(1.5);
      expect(SMALL(d), JSON.stringify(d)).toBe(true);
    });
  }

  for (
    const name of [
      'restart-422',
      'restart-444',
      'progressive-restart-420',
      'progressive-422',
      'grey-restart-rows',
      'sampled-440',
    ]
  ) {
    it(`decodes libjpeg-turbo's ${name}.jpg as MozJPEG does, at every scale`, async () => {
      const d = await differences(fixture(`${name}.jpg`));
      expect(d['1/1'], JSON.stringify(d)).toBeLessThan(1.5);
      expect(SMALL(d), JSON.stringify(d)).toBe(true);
    });
  }

  it(
    'decodes a 12-megapixel photo at 1/2, never making its 4,000 × 3,000 pixels; an odd 4,001 × 2,999 too',
    async () => {
      const even = decodeJpeg(fixture('12mp-baseline.jpg'), DECODED_LONGEST_SIDE_AT_LEAST);
      expect([even.width, even.height, even.scale, even.data.length]).toEqual([2000, 1500, 1 / 2, 2000 * 1500 * 4]);

      const bytes = fixture('odd-12mp-progressive.jpg');
      const odd = decodeJpeg(bytes, DECODED_LONGEST_SIDE_AT_LEAST);
      expect([odd.width, odd.height, odd.scale]).toEqual([2001, 1500, 1 / 2]);
      expect(meanDifference(odd, boxAverage(await decodeWhole(bytes, 'jpeg'), 2, 2001, 1500))).toBeLessThan(3);
    },
    120_000,
  );

  it('chooses the smallest scale whose longest side still has the pixels asked for', () => {
    expect(scaledBlockSize(4000, 3000, 1536)).toBe(4); // 2,000 px
    expect(scaledBlockSize(3000, 4000, 1536)).toBe(4);
    expect(scaledBlockSize(3000, 2000, 1536)).toBe(8); // 1,500 px would be too few
    expect(scaledBlockSize(8064, 6048, 1536)).toBe(2); // 2,016 px
    expect(scaledBlockSize(16000, 12000, 1536)).toBe(1); // 2,000 px
    expect(scaledBlockSize(640, 480, 1536)).toBe(8); // smaller than asked: whole
  });

  it('refuses what it does not read (arithmetic coding, CMYK, not a JPEG) with the reason', async () => {
    expect(() => decodeJpeg(fixture('arithmetic.jpg'))).toThrow(JpegError);
    expect(() => decodeJpeg(fixture('arithmetic.jpg'))).toThrow(
      'lossless, hierarchical and arithmetic-coded JPEGs are left to MozJPEG',
    );
    // Four components (Adobe CMYK): the frame header of a baseline JPEG claiming them.
    const plain = await mozjpeg(photo(16, 16), { baseline: true, progressive: false });
    const sof = plain.findIndex((b, i) => b === 0xff && plain[i + 1] === 0xc0);
    const cmyk = plain.slice();
    cmyk[sof + 9] = 4;
    expect(() => decodeJpeg(cmyk)).toThrow('4 components (CMYK?) are left to MozJPEG');
    expect(() => decodeJpeg(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toThrow('not a JPEG');
  });

  it('leaves a stream it finds corrupt to MozJPEG, which decode() then asks, as before', async () => {
    // Ones where Huffman codes should be (stuffed 0xFF 0x00 pairs): no table has a code of all ones.
    const plain = await mozjpeg(photo(64, 48), { baseline: true, progressive: false });
    const sos = plain.findIndex((b, i) => b === 0xff && plain[i + 1] === 0xda);
    const corrupt = plain.slice();
    const from = sos + 2 + ((corrupt[sos + 2] << 8) | corrupt[sos + 3]) + 20;
    for (let i = from; i < from + 40; i += 2) corrupt.set([0xff, 0x00], i);
    expect(() => decodeJpeg(corrupt)).toThrow('a Huffman code is not in its table');
    const pixels = await decode(corrupt, 'jpeg', 10);
    expect([pixels.width, pixels.height]).toEqual([64, 48]);
  });
});

describe('decode (codecs.ts)', () => {
  it('gives our decoder a JPEG it decodes smaller, turned as its EXIF says, and MozJPEG a small one at full size', async () => {
    const plain = await mozjpeg(photo(401, 299), { baseline: true, progressive: false });
    // Full size and 0.1 megapixels: MozJPEG's pixels, exactly.
    const whole = await decode(plain, 'jpeg');
    expect(whole.data).toEqual((await decodeWhole(plain, 'jpeg')).data);
    // At 1/4 by ours; with an EXIF orientation of 6 (a quarter turn clockwise) spliced in, turned.
    expect([(await decode(plain, 'jpeg', 100)).width, (await decode(plain, 'jpeg', 100)).height]).toEqual([101, 75]);
    const payload = [...new TextEncoder().encode('Exif\0\0'), 0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3];
    const app1 = [...payload, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0];
    const turned = new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0, app1.length + 2, ...app1, ...plain.subarray(2)]);
    expect(decodeJpeg(turned, 100).orientation).toBe(6);
    const upright = await decode(turned, 'jpeg', 100);
    expect([upright.width, upright.height]).toEqual([75, 101]);
  });
});

describe('EXIF orientation', () => {
  // 3 × 2 pixels numbered 1 to 6, row by row: each orientation's view of them.
  const pixels = () => {
    const data = new Uint8ClampedArray(24);
    for (let i = 0; i < 6; i++) data.set([i + 1, 0, 0, 255], i * 4);
    return { data, width: 3, height: 2 };
  };
  const numbers = (
    p: Pixels,
  ) => [p.width, p.height, ...Array.from({ length: p.width * p.height }, (_, i) => p.data[i * 4])];

  it('turns the pixels as each of the eight orientations says', () => {
    expect(numbers(orient(pixels(), 1))).toEqual([3, 2, 1, 2, 3, 4, 5, 6]);
    expect(numbers(orient(pixels(), 2))).toEqual([3, 2, 3, 2, 1, 6, 5, 4]);
    expect(numbers(orient(pixels(), 3))).toEqual([3, 2, 6, 5, 4, 3, 2, 1]);
    expect(numbers(orient(pixels(), 4))).toEqual([3, 2, 4, 5, 6, 1, 2, 3]);
    expect(numbers(orient(pixels(), 5))).toEqual([2, 3, 1, 4, 2, 5, 3, 6]);
    expect(numbers(orient(pixels(), 6))).toEqual([2, 3, 4, 1, 5, 2, 6, 3]);
    expect(numbers(orient(pixels(), 7))).toEqual([2, 3, 6, 3, 5, 2, 4, 1]);
    expect(numbers(orient(pixels(), 8))).toEqual([2, 3, 3, 6, 2, 5, 1, 4]);
  });

  it('reads the orientation of a big- and a little-endian EXIF, 1 when it has none', () => {
    const exif = (little: boolean, value: number) => {
      const u16 = (n: number) => (little ? [n & 255, n >> 8] : [n >> 8, n & 255]);
      const u32 = (
        n: number,
      ) => (little ? [...u16(n & 0xffff), ...u16(n >>> 16)] : [...u16(n >>> 16), ...u16(n & 0xffff)]);
      const tiff = [
        ...(little ? [0x49, 0x49] : [0x4d, 0x4d]),
        ...u16(42),
        ...u32(8),
        ...u16(1),
        ...u16(0x0112),
        ...u16(3),
        ...u32(1),
        ...u16(value),
        0,
        0,
        ...u32(0),
      ];
      return new Uint8Array([...new TextEncoder().encode('Exif\0\0'), ...tiff]);
    };
    for (const little of [false, true]) {
      const b = exif(little, 6);
      expect(exifOrientation(b, 0, b.length)).toBe(6);
    }
    const other = new TextEncoder().encode('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>');
    expect(exifOrientation(other, 0, other.length)).toBe(1);
  });
});
