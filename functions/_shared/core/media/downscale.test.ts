import { describe, expect, it } from 'vitest';
import { downscale } from './downscale.ts';

/** A picture of one colour, filled in place (a 6 MP one as an array of arrays took seconds). */
function solid(width: number, height: number, rgba: number[]) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set(rgba, i);
  return { data, width, height };
}

describe('downscale', () => {
  it('averages each output pixel over its area of the source', () => {
    // 4 × 2: a black and a white half, then 2 × 1: one black pixel, one white one.
    const src = { data: new Uint8ClampedArray(4 * 2 * 4), width: 4, height: 2 };
    for (let i = 0; i < 8; i++) src.data.set(i % 4 < 2 ? [0, 0, 0, 255] : [255, 255, 255, 255], i * 4);
    expect([...downscale(src, 2, 1).data]).toEqual([0, 0, 0, 255, 255, 255, 255, 255]);
    // Down to one pixel: the mean, rounded.
    expect([...downscale(src, 1, 1).data]).toEqual([128, 128, 128, 255]);
  });

  it('keeps a solid colour solid at any ratio, the size asked for', () => {
    const out = downscale(solid(3000, 2000, [10, 200, 30, 255]), 2048, 1365);
    expect([out.width, out.height, out.data.length]).toEqual([2048, 1365, 2048 * 1365 * 4]);
    expect(new Set(out.data)).toEqual(new Set([10, 200, 30, 255]));
  });

  it('never scales up', () => {
    expect(() => downscale(solid(10, 10, [0, 0, 0, 255]), 20, 5)).toThrow(RangeError);
  });
});
