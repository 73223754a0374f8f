import { describe, expect, it } from 'vitest';
import { readManifest } from './dashboard.ts';

describe("the dashboard's manifest", () => {
  it('gives the entry, the stylesheets and the preloads of its static imports, and every file built', () => {
    const build = readManifest({
      'src/main.tsx': {
        file: 'assets/main-AAAA.js',
        isEntry: true,
        imports: ['_vendor-BBBB.js'],
        dynamicImports: ['src/chart.tsx'],
        css: ['assets/main-CCCC.css'],
      },
      '_vendor-BBBB.js': { file: 'assets/vendor-BBBB.js', imports: ['_util-DDDD.js'], css: ['assets/vendor-EEEE.css'] },
      '_util-DDDD.js': { file: 'assets/util-DDDD.js', imports: ['_vendor-BBBB.js'] },
      'src/chart.tsx': {
        file: 'assets/chart-FFFF.js',
        isDynamicEntry: true,
        imports: ['_vendor-BBBB.js'],
        css: ['assets/uPlot.esm-GGGG.css'],
        assets: ['assets/font-HHHH.woff2'],
      },
    } as never);
    expect(build).toEqual({
      script: 'main-AAAA.js',
      styles: ['main-CCCC.css', 'vendor-EEEE.css'],
      preloads: ['vendor-BBBB.js', 'util-DDDD.js'],
      files: new Set([
        'main-AAAA.js',
        'main-CCCC.css',
        'vendor-BBBB.js',
        'vendor-EEEE.css',
        'util-DDDD.js',
        'chart-FFFF.js',
        'uPlot.esm-GGGG.css',
        'font-HHHH.woff2',
      ]),
    });
  });

  it('serves nothing outside assets/ nor a name of another form, and has no build without an entry', () => {
    const build = readManifest({
      'src/main.tsx': { file: 'assets/main-AAAA.js', isEntry: true, assets: ['../secret.js', 'assets/x y.js'] },
    });
    expect([...build!.files]).toEqual(['main-AAAA.js']);
    expect(readManifest({})).toBeNull();
  });
});
