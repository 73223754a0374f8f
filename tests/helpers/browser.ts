/// <reference lib="dom" />
// Debian's chromium driven by playwright-core (playwright cannot download browsers here), one
// browser per test file: `const browser = useBrowser();` then `browser()` inside tests.
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not started yet');
    return browser;
  };
}
