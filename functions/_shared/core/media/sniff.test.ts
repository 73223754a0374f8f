import { describe, expect, it } from 'vitest';
import { imageSize, sniff, videoIsWhole } from './sniff.ts';
import { fitWithin } from './limits.ts';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => typeof p === 'string' ? [...p].map((ch) => ch.charCodeAt(0)) : p));

describe('sniff', () => {
  it('names JPEG, PNG, WebP, MP4 and WebM by their first bytes, and nothing else', () => {
    expect(sniff(bytes([0xff, 0xd8, 0xff, 0xe0]))).toEqual({ type: 'image', format: 'jpeg' });
    expect(sniff(bytes('\x89PNG\r\n\x1a\n'))).toEqual({ type: 'image', format: 'png' });
    expect(sniff(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 ', [0, 0, 0, 0]))).toEqual({ type: 'image', format: 'webp' });
    expect(sniff(bytes([0, 0, 0, 24], 'ftypisom', [0, 0, 0, 0]))).toEqual({ type: 'video', format: 'mp4' });
    expect(sniff(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x87, 0x42, 0x82, 0x84], 'webm'))).toEqual({
      type: 'video',
      format: 'webm',
    });
    for (
      const other of [
        bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        bytes('<!doctype html>'),
        bytes('GIF89a'),
        bytes([0, 0, 0, 24], 'ftypheic', [0, 0, 0, 0]), // HEIC
        bytes([0, 0, 0, 20], 'ftypqt  ', [0, 0, 0, 0]), // QuickTime
        bytes([0x1a, 0x45, 0xdf, 0xa3, 0x8b, 0x42, 0x82, 0x88], 'matroska'),
        bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '),
        new Uint8Array(),
      ]
    ) {
      expect(sniff(other)).toBeNull();
    }
  });
});

describe('imageSize', () => {
  it('reads the size from the header of each format', () => {
    const png = bytes('\x89PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR', [0, 0, 0x0b, 0xb8, 0, 0, 0x07, 0xd0]);
    expect(imageSize(png, 'png')).toEqual({ width: 3000, height: 2000 });
    const vp8x = bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8X', [10, 0, 0, 0, 0, 0, 0, 0], [0xb7, 0x0b, 0], [0xcf, 0x07, 0]);
    expect(imageSize(vp8x, 'webp')).toEqual({ width: 3000, height: 2000 });
    const vp8 = bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 ', [0, 0, 0, 0], [0, 0, 0, 0x9d, 0x01, 0x2a], [
      0xb8,
      0x0b,
      0xd0,
      0x07,
    ]);
    expect(imageSize(vp8, 'webp')).toEqual({ width: 3000, height: 2000 });
    // VP8L: 14 bits of width - 1, then 14 of height - 1.
    const bits = (2999 | (1999 << 14)) >>> 0;
    const vp8l = bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8L', [0, 0, 0, 0, 0x2f], [
      bits & 255,
      (bits >> 8) & 255,
      (bits >> 16) & 255,
      bits >>> 24,
    ], [0, 0, 0, 0, 0]);
    expect(imageSize(vp8l, 'webp')).toEqual({ width: 3000, height: 2000 });
    // A JPEG's frame header comes after its other segments (an APP0 here).
    const jpeg = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc2, 0, 17, 8, 0x07, 0xd0, 0x0b, 0xb8, 3]);
    expect(imageSize(jpeg, 'jpeg')).toEqual({ width: 3000, height: 2000 });
  });

  it('answers null for a header that is not whole', () => {
    expect(imageSize(bytes([0xff, 0xd8, 0xff, 0xda, 0, 2]), 'jpeg')).toBeNull();
    expect(imageSize(bytes('\x89PNG\r\n\x1a\n'), 'png')).toBeNull();
    expect(imageSize(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'webp')).toBeNull();
  });
});

describe('videoIsWhole', () => {
  const box = (type: string, size: number) => bytes([0, 0, size >> 8, size & 255], type, new Array(size - 8).fill(0));
  it('wants an MP4 whose boxes tile the file and hold its index', () => {
    const whole = new Uint8Array([...box('ftyp', 16), ...box('moov', 24), ...box('mdat', 40)]);
    expect(videoIsWhole(whole, 'mp4')).toBe(true);
    expect(videoIsWhole(whole.subarray(0, whole.length - 1), 'mp4')).toBe(false);
    expect(videoIsWhole(new Uint8Array([...box('ftyp', 16), ...box('mdat', 40)]), 'mp4')).toBe(false);
  });
});

describe('fitWithin', () => {
  it('scales the longest side down to the limit, never up', () => {
    expect(fitWithin(3000, 2000, 2048)).toEqual({ width: 2048, height: 1365 });
    expect(fitWithin(2000, 3000, 400)).toEqual({ width: 267, height: 400 });
    expect(fitWithin(640, 480, 2048)).toEqual({ width: 640, height: 480 });
  });
});
