// The business dashboard, a single-page app (dashboard/):
//   GET /app/assets/<file>   the built files, content-hashed: a year of cache, immutable
//   GET /app, /app/*         the page's shell, for every path under /app: the app routes in the
//                            browser, so deep links and the sign-in mail's /app/sign-in#token=… work
// Plain Hono routes, as every page here: they are not operations of the OpenAPI document.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { dashboardAsset, type DashboardBuild, dashboardBuild } from '../assets/dashboard.ts';
import { errorResponse } from '../http/errors.ts';
import type { AppEnv } from '../http/env.ts';
import { ifNoneMatchHits } from '../middleware/public-access/index.ts';
import { documentStart, markup, raw } from './html.ts';

// Only this origin's scripts, and only this origin to talk to. Inline styles are allowed because
// the widget's live preview and the charts (uPlot) set style attributes; no inline script is.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; " +
  "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const asset = (file: string) => `/app/assets/${file}`;

// A star, drawn inline: no request for a favicon.
const ICON = raw(
  '<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 16 16%22%3E%3Ctext y=%2214%22 font-size=%2214%22%3E%E2%98%85%3C/text%3E%3C/svg%3E">',
);

function shell(build: DashboardBuild): string {
  return markup`${documentStart('en')}${ICON}
<title>Plaudit</title>
${build.styles.map((f) => markup`<link rel="stylesheet" href="${asset(f)}">\n`)}${
    build.preloads.map((f) => markup`<link rel="modulepreload" href="${asset(f)}">\n`)
  }<script type="module" src="${asset(build.script)}"></script>
</head>
<body>
<div id="app"></div>
<noscript><p>The Plaudit dashboard needs JavaScript: turn it on for this site and reload the page.</p></noscript>
</body>
</html>
`.value;
}

const notBuilt = (c: Context<AppEnv>) =>
  errorResponse(c, 503, 'The dashboard is not built: run npm run build:dashboard (npm install runs it)');

async function page(c: Context<AppEnv>) {
  const build = await dashboardBuild();
  if (!build) return notBuilt(c);
  c.header('Content-Security-Policy', CSP);
  c.header('X-Frame-Options', 'DENY');
  // Sign-in links carry their token in the fragment, which never leaves the browser; the app's
  // paths name organizations: neither is any other site's business.
  c.header('Referrer-Policy', 'no-referrer');
  // Revalidated on every load: a deploy changes the files the shell names.
  c.header('Cache-Control', 'no-cache');
  return c.html(shell(build));
}

export function dashboardPages() {
  const app = new Hono<AppEnv>();

  // Before /app/*: nothing under /app/assets/ is ever answered with the shell.
  app.get('/app/assets/*', async (c) => {
    const name = c.req.path.slice('/app/assets/'.length);
    const file = await dashboardAsset(name);
    if (!file) {
      return await dashboardBuild()
        ? errorResponse(c, 404, 'No such file in the dashboard; the page at /app names the current ones')
        : notBuilt(c);
    }
    c.header('ETag', file.etag);
    c.header('Cache-Control', 'public, max-age=31536000, immutable');
    if (ifNoneMatchHits(c.req.header('if-none-match'), file.etag)) return c.body(null, 304);
    return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': file.contentType });
  });
  app.get('/app', page);
  app.get('/app/*', page);

  return app;
}
