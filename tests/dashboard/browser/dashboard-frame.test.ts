/// <reference lib="dom" />
// The dashboard in a real browser (Debian's chromium): it starts under its own Content-Security-
// Policy, and no other site can frame it (frame-ancestors 'none', X-Frame-Options: DENY), so no
// page can overlay its buttons to trick a signed-in member into clicking them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useBrowser } from '../../helpers/browser.ts';
import { openDashboard, PHONE, shot, signedInOwner } from '../../helpers/dashboard.ts';

const browser = useBrowser();
const base = () => inject('apiUrl');

// Another origin: the same address on another port.
let other: http.Server;
let otherUrl: string;

beforeAll(async () => {
  other = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (req.url === '/inner') {
      res.end('<!doctype html><title>Inner</title><p id="inner">framed</p>');
      return;
    }
    const src = req.url === '/control' ? '/inner' : `${base()}/app/o/x/reviews`;
    res.end(`<!doctype html><html lang="en"><head><title>Evil</title></head><body>
<iframe id="victim" src="${src}" width="800" height="600"></iframe></body></html>`);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  expect(new URL(otherUrl).origin).not.toBe(new URL(base()).origin);
});
afterAll(async () => {
  await new Promise((resolve) => other.close(resolve));
});

describe('the dashboard in a browser', () => {
  it('starts under its own policy: the module script runs and nothing is refused', async () => {
    const context = await browser().newContext();
    try {
      const page = await context.newPage();
      const refused: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
      });
      const res = await page.goto(`${base()}/app`);
      expect(res?.status()).toBe(200);
      await expect.poll(() => page.evaluate(() => document.getElementById('app')?.childElementCount ?? 0))
        .toBeGreaterThan(0);
      expect(await page.title()).toBeTruthy();
      expect(refused).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('cannot be framed by a page of another origin', async () => {
    const context = await browser().newContext();
    try {
      // The control: the other site's own page frames fine.
      const control = await context.newPage();
      await control.goto(`${otherUrl}/control`);
      const inner = control.frames().find((f) => f !== control.mainFrame())!;
      await expect.poll(() => inner.evaluate(() => document.getElementById('inner')?.textContent).catch(() => null))
        .toBe('framed');

      const page = await context.newPage();
      const messages: string[] = [];
      page.on('console', (m) => messages.push(m.text()));
      const assets: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/app/assets/')) assets.push(r.url());
      });
      const dashboardAnswered = page.waitForResponse((r) => r.url() === `${base()}/app/o/x/reviews`);
      await page.goto(otherUrl);
      const answer = await dashboardAnswered;
      expect(answer.status()).toBe(200);
      expect(answer.headers()['x-frame-options']).toBe('DENY');
      await page.waitForLoadState('load');
      // Chromium refuses to show the answer: the frame holds its error page, not the dashboard.
      await expect.poll(() => messages.some((m) => /frame-ancestors 'none'|X-Frame-Options/.test(m))).toBe(true);
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      expect(frame.url()).not.toBe(`${base()}/app/o/x/reviews`);
      expect(await frame.evaluate(() => document.getElementById('app') !== null).catch(() => false)).toBe(false);
      expect(assets, 'the framed shell loaded no script or style').toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("opens for a signed-in owner: the page's cookie jar holds the session the API accepts", async () => {
    const { tenant, email, session } = await signedInOwner();
    const page = await openDashboard(browser(), session, '/app', PHONE);
    try {
      const me = await page.evaluate(async () => {
        const res = await fetch('/api/v1/auth/session');
        return { status: res.status, body: await res.json() };
      });
      expect(me.status).toBe(200);
      expect(me.body.email).toBe(email);
      expect(me.body.organizations.map((o: { id: string }) => o.id)).toEqual([tenant.org.id]);
      expect(await page.evaluate(() => document.cookie)).toBe(''); // HttpOnly: out of the scripts' reach
      await shot(page, 'signed-in-375');
    } finally {
      await page.context().close();
    }
  });
});
