import { describe, expect, it } from 'vitest';
import { jpegWithScans } from '../../../../tests/helpers/image-files.ts';
import { encodeJpeg } from './codecs.ts';
import { jpegCost } from './jpeg-scans.ts';

const gradient = (width: number, height: number) => ({
  data: new Uint8ClampedArray(width * height * 4).map((_, i) => i % 251),
  width,
  height,
});

describe('jpegCost', () => {
  it("counts the scans of MozJPEG's progressive JPEG: fewer than a camera's dozen", async () => {
    const cost = jpegCost(await encodeJpeg(gradient(64, 48), 80));
    expect(cost).toMatchObject({ progressive: true, components: 3 });
    expect(cost!.scans).toBeGreaterThan(1);
    expect(cost!.scans).toBeLessThanOrEqual(12);
  });

  it('counts every start-of-scan of a hand-made file, past stuffed bytes and restarts', () => {
    expect(jpegCost(jpegWithScans(4096, 4096, 300))).toEqual({ scans: 300, progressive: true, components: 3 });
    expect(jpegCost(jpegWithScans(10, 10, 1))).toEqual({ scans: 1, progressive: true, components: 3 });
  });

  it('answers null when there is no frame header', () => {
    expect(jpegCost(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
  });
});
