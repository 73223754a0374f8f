// The widget's first view as a server-side fragment (/api/v1/public/fragments/…):
//   fragments       the business's fragment of 10 reviews, uncached (200, drawn each time), next to
//                   the public reviews JSON route's page of the same 10, uncached: what drawing
//                   the HTML costs over reading the reviews;
//   fragment-paint  page load → reviews painted with the CPU throttled 4×: a page whose server
//                   included the fragment (no script), the same with the widget's script adopting
//                   it (→ interactive: its `plaudit:ready`), and the same reviews in static HTML
//                   (the reference), one after another (median of BENCH_WIDGET_LOADS loads each).
import http from 'node:http';
import { launchChromium } from '../../lib/chromium.mjs';
import { ensureBuilt } from '../../lib/builds.mjs';
import { positive } from '../stats.mjs';
import { expectStatus, publicApi } from './reviews.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A business with 200 public reviews (some long, some replied to), once per stack. */
async function seed(ctx) {
  const { stack } = ctx;
  if (stack.fragmentSeed) return stack.fragmentSeed;
  const sql = stack.sql;
  const slug = 'bench-fragments';
  const [org] = await sql`insert into plaudit.organizations (name, slug) values ('Fjord Coffee', ${slug}) returning id`;
  const [form] = await sql`insert into plaudit.review_forms (org_id, name) values (${org.id}, 'Form') returning id`;
  await sql`
    insert into plaudit.reviews (org_id, form_id, rating, title, content, reviewer_name, reviewer_email,
                                 verification_status, verification_method, created_at)
    select ${org.id}, ${form.id}, 5 - i % 3, 'Review ' || i,
           'A good cup of coffee, number ' || i || '. Fast delivery, well packed, and the beans were fresh.'
             || case when i % 4 = 0 then repeat(' It keeps its taste to the last cup.', 10) else '' end,
           'Reviewer ' || i, 'r' || i || '@example.com',
           case when i % 2 = 0 then 'verified' else 'unverified' end, case when i % 2 = 0 then 'email' end,
           timestamptz '2026-01-01 00:00:00+00' + make_interval(hours => i)
      from generate_series(1, 200) i`;
  await sql`select plaudit.rebuild_review_statistics(${org.id})`;
  stack.fragmentSeed = { slug };
  return stack.fragmentSeed;
}

export const fragmentLoad = {
  name: 'fragments',
  description:
    "GET /public/fragments/:slug.html?limit=10 uncached (the business's fragment drawn each time) next to GET /public/reviews/:slug?limit=10 uncached",
  async setup(ctx) {
    const { slug } = await seed(ctx);
    const api = await publicApi(ctx);
    const fragment = `${api.url}/api/v1/public/fragments/${slug}.html?limit=10`;
    const json = `${api.url}/api/v1/public/reviews/${slug}?limit=10`;
    const { body } = await expectStatus(fragment, {}, 200);
    if ((body.match(/<li class="r">/g) ?? []).length !== 10) {
      throw new Error(`unexpected fragment: ${body.slice(0, 300)}`);
    }
    await expectStatus(json, {}, 200);
    ctx.log(`warming up for ${ctx.warmup} s`);
    await ctx.http({ url: fragment, seconds: ctx.warmup });
    await ctx.http({ url: json, seconds: ctx.warmup });
    return { fragment, json };
  },
  measurements: [
    {
      key: 'fragment',
      name: "API business's fragment, 10 reviews, uncached (200)",
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
      run: (ctx, s) => ctx.http({ url: s.fragment }),
    },
    {
      key: 'json',
      name: 'API public reviews JSON, 10 reviews, uncached (200)',
      apiPid: (ctx) => ctx.stack.reviewPublicApi?.child.pid,
      run: (ctx, s) => ctx.http({ url: s.json }),
    },
  ],
  ratios: [{ name: 'fragment ÷ reviews JSON', of: 'fragment', over: 'json', target: 0.8 }],
};

// Each page says, in its own clock, when its reviews are on screen: the frame after they are
// parsed (the fragment, the static HTML), or after the widget's `plaudit:ready` (adopted: interactive).
const REPORT = `<script>
  function painted() { requestAnimationFrame(() => requestAnimationFrame(() => { window.__painted = performance.now(); })); }
</script>`;

const FONT = 'system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif';

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

export const fragmentPaint = {
  name: 'fragment-paint',
  description:
    'page load → reviews painted, 4× CPU: the server-included fragment, the widget adopting it (→ interactive), and the same reviews in static HTML (median of BENCH_WIDGET_LOADS loads)',
  async run(ctx) {
    const { stack } = ctx;
    const loads = positive(ctx.env, 'BENCH_WIDGET_LOADS', 15);
    ensureBuilt(['widget']);
    const { slug } = await seed(ctx);
    const fragment = await (await fetch(`${stack.api.url}/api/v1/public/fragments/${slug}.html?limit=10`)).text();
    const embed = await (await fetch(`${stack.api.url}/api/v1/public/embed/${slug}`)).json();
    const reviews = (await (await fetch(`${stack.api.url}/api/v1/public/reviews/${slug}?limit=10`)).json()).data;
    const staticReviews = reviews.map((r) =>
      `<li><p>${'★'.repeat(r.rating)}</p><p><b>${escapeHtml(r.title ?? '')}</b></p><p>${escapeHtml(r.content)}</p><p>${
        escapeHtml(r.reviewer_name)
      }</p></li>`
    ).join('');
    const start =
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${REPORT}</head><body>`;
    const pages = {
      '/fragment': `${start}${fragment}<script>painted();</script></body></html>`,
      '/adopted': `${start}<script>addEventListener('plaudit:ready', painted);</script>${fragment}
<script async src="${embed.script_url}"></script></body></html>`,
      '/static':
        `${start}<div><p>Fjord Coffee — ${embed.average_rating} (${embed.review_count} reviews)</p><ul>${staticReviews}</ul></div>
<script>painted();</script></body></html>`,
    };
    // The same static page in the widget's system font: how much of the difference is the font's.
    pages['/static-font'] = pages['/static'].replace('<body>', `<body style='font:15px/1.5 ${FONT}'>`);
    const host = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(pages[req.url] ?? '');
    });
    await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
    const hostUrl = `http://127.0.0.1:${host.address().port}`;
    const browser = await launchChromium();
    const times = Object.fromEntries(Object.keys(pages).map((p) => [p, []]));
    try {
      for (let i = 0; i < loads; i++) {
        for (const path of Object.keys(pages)) {
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
    const [fragmentMs, adoptedMs, staticMs, fontMs] = ['/fragment', '/adopted', '/static', '/static-font'].map((p) =>
      median(times[p])
    );
    const spread = (p) => `${Math.min(...times[p]).toFixed(0)}–${Math.max(...times[p]).toFixed(0)}`;
    ctx.log(Object.entries(times).map(([p, ts]) => `${p} ${ts.map((t) => t.toFixed(0)).join(' ')} ms`).join('; '));
    return {
      rows: [
        { name: `page load → included fragment painted, 4× CPU (ms; ${spread('/fragment')})`, rps: fragmentMs },
        { name: `page load → widget adopting it, interactive, 4× CPU (ms; ${spread('/adopted')})`, rps: adoptedMs },
        { name: `page load → same reviews in static HTML painted, 4× CPU (ms; ${spread('/static')})`, rps: staticMs },
        { name: `the same static page in the widget's system font (ms; ${spread('/static-font')})`, rps: fontMs },
      ],
      ratios: [
        { name: 'fragment ms − static ms (target ≤ 10)', value: fragmentMs - staticMs },
        { name: 'adopted → interactive ms − static ms (target ≤ 50)', value: adoptedMs - staticMs },
      ],
    };
  },
};

export default [fragmentLoad, fragmentPaint];
