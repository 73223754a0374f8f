import { type Context, Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { readFileBytes } from '../../core/runtime.ts';

// Scalar's standalone bundle, served by us: the explorer works with no network beyond this server.
const SCALAR_BUNDLE = new URL(
  '../../../../node_modules/@scalar/api-reference/dist/browser/standalone.js',
  import.meta.url,
);

function page(specUrl: string, scriptUrl: string) {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Plaudit API explorer</title>
</head>
<body>
  <div id="app"></div>
  <script src="${scriptUrl}"></script>
  <script>
    Scalar.createApiReference('#app', {
      url: ${JSON.stringify(specUrl)},
      // Nothing from scalar.com: system fonts, no "Ask AI" agent (it loads its API registry
      // through proxy.scalar.com as soon as the page opens), no developer toolbar (share and
      // deploy upload the document to scalar.com), no link to the hosted client at
      // client.scalar.com (the in-page client sends the calls), no proxy (calls go straight to
      // this server).
      withDefaultFonts: false,
      agent: { disabled: true },
      showDeveloperTools: 'never',
      hideClientButton: true,
      telemetry: false,
      hideDownloadButton: false,
      authentication: { preferredSecurityScheme: 'ApiKey' },
    });
  </script>
</body>
</html>`;
}

/** The interactive explorer at /docs (and /api/v1/docs, reachable on hosted deployments). */
export function explorer() {
  let bundle: Promise<Uint8Array> | undefined;
  const app = new Hono<AppEnv>();
  const html = (c: Context<AppEnv>) => c.html(page('/api/v1/openapi.json', '/api/v1/docs/scalar.js'));
  app.get('/docs', html);
  app.get('/api/v1/docs', html);
  app.get('/api/v1/docs/scalar.js', async (c) => {
    bundle ??= readFileBytes(SCALAR_BUNDLE);
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body((await bundle) as Uint8Array<ArrayBuffer>);
  });
  return app;
}
