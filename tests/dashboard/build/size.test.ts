// The dashboard's byte budget, read from the real build (dashboard/dist/, its manifest): what a
// first visit downloads before the app can draw, and each chunk loaded later on demand (the charts).
import { describe, expect, it } from 'vitest';
import { chunkFiles, dashboardFirstLoad, dashboardManifest, gzipBytes } from '../../../scripts/lib/builds.mjs';

/**
 * Gzip bytes (level 9), at most. The first load is the entry's script, every chunk it imports
 * statically and their stylesheets: 45 KB keeps a first visit on a slow phone connection within a
 * second or two (Preact itself is ~4.5 KB). A lazy chunk (the charts' uPlot is ~20 KB) may be
 * larger, but one that passes 60 KB has probably pulled in a whole library by mistake.
 */
export const DASHBOARD_BUDGET = { firstLoadGzip: 45 * 1024, lazyChunkGzip: 60 * 1024 };

const manifest = dashboardManifest();
const sum = (files: Iterable<string>) => [...files].reduce((n: number, f) => n + gzipBytes(f), 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe('the dashboard build', () => {
  const { entry, files: firstLoad } = dashboardFirstLoad(manifest);

  it(`downloads at most ${kb(DASHBOARD_BUDGET.firstLoadGzip)} gzip before the app starts`, () => {
    expect(entry).toBe('src/main.tsx');
    const bytes = sum(firstLoad);
    console.log(`dashboard first load: ${kb(bytes)} gzip in ${firstLoad.size} files (${[...firstLoad].join(', ')})`);
    expect(bytes).toBeLessThanOrEqual(DASHBOARD_BUDGET.firstLoadGzip);
  });

  it(
    `loads each lazy chunk, beyond what the first load holds, in at most ${kb(DASHBOARD_BUDGET.lazyChunkGzip)} gzip`,
    () => {
      const lazy = Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry);
      for (const key of lazy) {
        const extra = [...chunkFiles(manifest, key)].filter((f) => !firstLoad.has(f));
        const bytes = sum(extra);
        console.log(`dashboard lazy chunk ${key}: ${kb(bytes)} gzip more (${extra.join(', ')})`);
        expect(bytes, key).toBeLessThanOrEqual(DASHBOARD_BUDGET.lazyChunkGzip);
      }
    },
  );
});
