// The embeddable widget: its size (gzip), and how long a page takes to show its reviews with the
// CPU throttled 4× (Chrome DevTools' emulation of a mid-range phone), next to the same page with
// the same reviews written into its HTML: the reference a server-rendered page would be.
//
//   BENCH_WIDGET_LOADS=15   page loads of each kind (the figure is their median)
import fs from 'node:fs';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../../lib/chromium.mjs';
import { ensureBuilt, WIDGET_SCRIPT } from '../../lib/builds.mjs';
import { positive } from '../stats.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Both pages report, in their own clock, when the reviews are on screen: the frame after the
// widget's `plaudit:ready`, or after the static page's reviews are parsed.
const REPORT = `<script>
  function painted() { requestAnimationFrame(() => requestAnimationFrame(() => { window.__painted = performance.now(); })); }
</script>`;

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

export default {
  name: 'widget',
  description:
    'The widget script gzip size; page load → reviews painted with 4× CPU throttling, widget vs the same reviews in static HTML (median of BENCH_WIDGET_LOADS loads)',
  async run(ctx) {
    const { stack } = ctx;
    const loads = positive(ctx.env, 'BENCH_WIDGET_LOADS', 15);
    ensureBuilt(['widget']);
    const gzip = gzipSync(fs.readFileSync(WIDGET_SCRIPT), { level: 9 }).length;

    // An organization with ten public reviews.
    const sql = stack.sql;
    const slug = `bench-widget-${Date.now()}`;
    const [org] =
      await sql`insert into plaudit.organizations (name, slug) values ('Fjord Coffee', ${slug}) returning id`;
    const [form] = await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Form') returning id`;
    for (let i = 0; i < 10; i++) {
      const review = {
        form_id: form.id,
        rating: 5 - (i % 3),
        title: 'Review ' + i,
        content: 'A good cup of coffee, number ' + i + '. '.repeat(1) + 'Fast delivery.',
        reviewer_name: 'Reviewer ' + i,
        reviewer_email: `r${i}@example.com`,
      };
      await sql`select * from plaudit.submit_review(
        jsonb_populate_record(null::plaudit.review_submission, ${sql.json(review)}),
        ${'bench-' + i}, 1000, 'http://127.0.0.1')`;
    }
    const embed = await (await fetch(`${stack.api.url}/api/v1/public/embed/${slug}`)).json();
    const staticReviews = embed.reviews.map((r) =>
      `<li><p>${'★'.repeat(r.rating)}</p><p><b>${escapeHtml(r.title ?? '')}</b></p><p>${escapeHtml(r.content)}</p><p>${
        escapeHtml(r.reviewer_name)
      }</p></li>`
    ).join('');
    const pages = {
      '/widget': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${REPORT}</head><body>
<script>addEventListener('plaudit:ready', painted);</script>${embed.snippet}</body></html>`,
      '/static': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${REPORT}</head><body>
<div><p>Fjord Coffee — ${embed.average_rating} (${embed.review_count} reviews)</p><ul>${staticReviews}</ul></div>
<script>painted();</script></body></html>`,
    };
    const host = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(pages[req.url] ?? '');
    });
    await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
    const hostUrl = `http://127.0.0.1:${host.address().port}`;
    const browser = await launchChromium();
    const times = { '/widget': [], '/static': [] };
    try {
      for (let i = 0; i < loads; i++) {
        for (const path of ['/widget', '/static']) {
          // A fresh context each load: nothing cached, as for a first visit.
          const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
          const page = await context.newPage();
          const cdp = await context.newCDPSession(page);
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
          await page.goto(`${hostUrl}${path}`);
          await page.waitForFunction(() => globalThis.__painted !== undefined, null, { timeout: 60_000 });
          times[path].push(await page.evaluate(() => globalThis.__painted));
          await context.close();
        }
      }
    } finally {
      await browser.close();
      await new Promise((resolve) => host.close(resolve));
    }
    const widgetMs = median(times['/widget']);
    const staticMs = median(times['/static']);
    ctx.log(
      `widget ${times['/widget'].map((t) => t.toFixed(0)).join(' ')} ms; static ${
        times['/static'].map((t) => t.toFixed(0)).join(' ')
      } ms`,
    );
    return {
      rows: [
        { name: `widget script, gzip -9 (bytes)`, rps: gzip },
        { name: 'page load → widget reviews painted, 4× CPU (ms)', rps: widgetMs },
        { name: 'page load → same reviews in static HTML painted, 4× CPU (ms)', rps: staticMs },
      ],
      ratios: [
        { name: 'gzip bytes ÷ 13.5 KB budget', value: gzip / (13.5 * 1024) },
        { name: 'widget ms ÷ static ms', value: widgetMs / staticMs },
      ],
    };
  },
};
