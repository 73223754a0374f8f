// The widget's size budget, as Preact tracks its own: the whole script, Preact included, at most
// 15,049 bytes gzip: the 13,840 the widget measured here before the product mode's Questions tab (already
// 16 bytes over 13.5 KB), and the tab's +1,209 (npm run bench -- widget records the figure beside the same-run reference; docs/widget.md
// says what each kilobyte pays for).
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WIDGET_SCRIPT } from '../../../scripts/lib/builds.mjs';

describe('the widget script', () => {
  it('is one self-contained file of at most 15,049 bytes gzip', () => {
    const script = fs.readFileSync(WIDGET_SCRIPT);
    expect(script.toString('utf8')).not.toMatch(/\bimport\s*[({'"]/); // no module loading: one file
    expect(gzipSync(script, { level: 9 }).length).toBeLessThanOrEqual(13_840 + 1_209);
  });
});
