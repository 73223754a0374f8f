/// <reference lib="dom" />
// A customer's site for the widget's browser tests: pages served from another origin than the
// API's (another port), so that the widget is tried across origins as sites embed it, and opened
// in a fresh browser context that collects the page's uncaught errors.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** CSS that tries to restyle every element of the page: the widget's shadow root keeps it out. */
const HOSTILE_CSS = `<style>
* { color: #f0f !important; font-family: "Comic Sans MS" !important; font-size: 30px !important; }
div, section, ul, li, p { display: inline !important; border: 5px dashed red !important; }
button { display: none !important; }
</style>`;

/** A shop's page with this body, under the hostile CSS. */
export function hostPage(body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host shop</title>${HOSTILE_CSS}</head>
<body><main><h1>Our shop</h1>${body}</main></body></html>`;
}

/**
 * A plain shop's page (its own serif styles, no hostile CSS) that sums its layout shifts in
 * `window.__shift` and counts the widget's `plaudit:ready` events in `window.__ready`: `body` goes
 * inside its main element, after the heading; `tail` before the body's end (scripts).
 */
export function plainShopPage(body: string, tail = '') {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our shop</title>
<style>body{font:16px/1.6 Georgia,serif;margin:0 auto;max-width:960px;padding:16px;color:#222}h1{font-size:28px}</style></head>
<body><script>
  window.__shift = 0;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__shift += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
  document.addEventListener('plaudit:ready', () => { window.__ready = (window.__ready || 0) + 1; });
</script>
<main><h1>Our shop</h1>${body}<p id="below">Text below the reviews.</p></main>${tail}</body></html>`;
}

export function useHostSite() {
  /** The page's body, per request path. */
  const pages = new Map<string, string>();
  let server: http.Server;
  let origin = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const body = pages.get(req.url ?? '/');
      res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    /** Serves `html` at `path`; answers its address. */
    page(path: string, html: string): string {
      pages.set(path, html);
      return `${origin}${path}`;
    },
    get origin() {
      return origin;
    },
  };
}

/** Opens `url` at this width in a context of its own; `errors` collects what the page throws. */
export async function openPage(browser: Browser, url: string, width: number, opts: { bypassCSP?: boolean } = {}) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce', ...opts });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, errors, close: () => context.close() };
}
