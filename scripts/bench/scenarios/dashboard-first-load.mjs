// The dashboard's first load: the bytes a first visit downloads (gzip) and how long a signed-in
// member waits, with the CPU throttled 4× (Chrome DevTools' mid-range phone), from navigation to
// the inbox's first reviews on screen — beside the public profile page of the same organization
// (server-rendered HTML, no script) loaded the same way: the reference a page can hardly beat.
//
//   BENCH_DASHBOARD_LOADS=15   page loads of each kind (the figure is their median)
import { launchChromium } from '../../lib/chromium.mjs';
import { dashboardFirstLoad, ensureBuilt, gzipBytes } from '../../lib/builds.mjs';
import { memberSession } from './dashboard.mjs';
import { seedOrganization } from './reviews.mjs';
import { positive } from '../stats.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Before any script of the page: note the moment a selector first matches, in the page's clock.
const markWhenShown = (selector) => {
  const check = () => {
    if (globalThis.__shown === undefined && document.querySelector(selector)) {
      globalThis.__shown = performance.now();
      return true;
    }
    return false;
  };
  new MutationObserver((_, observer) => check() && observer.disconnect())
    .observe(document, { childList: true, subtree: true });
};

export default {
  name: 'dashboard-first-load',
  description:
    'Dashboard first-load gzip bytes; navigation → inbox reviews on screen with 4× CPU throttling, vs the public profile page of the same organization (median of BENCH_DASHBOARD_LOADS loads)',
  async run(ctx) {
    const loads = positive(ctx.env, 'BENCH_DASHBOARD_LOADS', 15);
    ensureBuilt(['dashboard']);
    const { files } = dashboardFirstLoad();
    const bytes = [...files].reduce((n, f) => n + gzipBytes(f), 0);

    const seed = await seedOrganization(ctx, 'bench-dashboard', 1_000);
    const token = await memberSession(ctx, seed.orgId);
    const base = ctx.stack.api.url;
    const targets = {
      dashboard: { url: `${base}/app/o/${seed.orgId}/reviews`, selector: '.review-row' },
      profile: { url: `${base}/p/${seed.slug}`, selector: '.review' },
    };
    const browser = await launchChromium();
    const times = { dashboard: [], profile: [] };
    const steps = {};
    try {
      for (let i = 0; i < loads; i++) {
        for (const [kind, { url, selector }] of Object.entries(targets)) {
          // A fresh context each load: nothing cached, as for a first visit.
          const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
          await context.addCookies([{ name: 'plaudit_session', value: token, url: base, httpOnly: true }]);
          const page = await context.newPage();
          await page.addInitScript(markWhenShown, selector);
          const cdp = await context.newCDPSession(page);
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
          await page.goto(url);
          await page.waitForFunction(() => globalThis.__shown !== undefined, null, { timeout: 60_000 });
          times[kind].push(await page.evaluate(() => globalThis.__shown));
          if (kind === 'dashboard') {
            // Where the wait goes: when the script, the session and the list had arrived.
            const arrived = await page.evaluate(() =>
              Object.fromEntries(performance.getEntriesByType('resource').map((e) => [e.name, e.responseEnd]))
            );
            const at = (test) => Object.entries(arrived).find(([name]) => test(name))?.[1];
            for (
              const [step, test] of [
                ['script', (n) => /\/app\/assets\/main-[^/]+\.js$/.test(n)],
                ['session', (n) => n.endsWith('/api/v1/auth/session')],
                ['list', (n) => /\/reviews\?/.test(n)],
              ]
            ) (steps[step] ??= []).push(at(test) ?? NaN);
          }
          await context.close();
        }
      }
    } finally {
      await browser.close();
    }
    const dashboardMs = median(times.dashboard);
    const profileMs = median(times.profile);
    ctx.log(
      `dashboard, medians since navigation: ${
        Object.entries(steps).map(([step, t]) => `${step} arrived ${median(t).toFixed(0)} ms`).join(', ')
      }, reviews on screen ${dashboardMs.toFixed(0)} ms`,
    );
    ctx.log(
      `dashboard ${times.dashboard.map((t) => t.toFixed(0)).join(' ')} ms; profile ${
        times.profile.map((t) => t.toFixed(0)).join(' ')
      } ms`,
    );
    return {
      rows: [
        { name: `dashboard first load, gzip -9 (bytes, ${files.size} files)`, rps: bytes },
        { name: 'navigation → inbox reviews on screen, 4× CPU (ms)', rps: dashboardMs },
        { name: 'navigation → public profile reviews on screen, 4× CPU (ms)', rps: profileMs },
      ],
      ratios: [
        { name: 'gzip bytes ÷ 45 KB budget', value: bytes / (45 * 1024) },
        { name: 'dashboard ms ÷ profile page ms', value: dashboardMs / profileMs },
      ],
    };
  },
};
