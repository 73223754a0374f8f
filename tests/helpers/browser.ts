/// <reference lib="dom" />
// Debian's chromium driven by playwright-core (playwright cannot download browsers here), one
// browser per test file: `const browser = useBrowser();` then `browser()` inside tests.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from '../../scripts/lib/chromium.mjs';

export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not started yet');
    return browser;
  };
}

/**
 * Where browser tests write screenshots for people to look at ($TEST_TMP_DIR/screenshots, made
 * when first asked for); SCREENSHOT_DIR keeps them past the run.
 */
export function screenshotDir(): string {
  const dir = process.env.SCREENSHOT_DIR ?? path.join(process.env.TEST_TMP_DIR ?? '/tmp', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page (or inside `include`'s selectors), as `rule: targets`. Works
 * under the page's own Content-Security-Policy.
 */
export async function axeViolations(page: Page, include?: string[]): Promise<string[]> {
  // Evaluated by the browser's debugging protocol, which a page's Content-Security-Policy does
  // not govern: pages keep their real policy while axe runs.
  await page.evaluate(axeSource);
  return await page.evaluate(async (selectors) => {
    // deno-lint-ignore no-explicit-any
    const axe = (window as any).axe;
    const result = await axe.run(selectors ? { include: selectors.map((s) => [s]) } : document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v: { id: string; nodes: { target: unknown }[] }) =>
      `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`
    );
  }, include ?? null);
}
