// /embed/v1/widget.js (five minutes of cache, revalidated by ETag) and
// /embed/v1/widget.<hash>.js (a year, immutable): the script customer sites load.
import { Hono } from 'hono';
import { errorBody } from '../../core/errors.ts';
import { widgetScript } from '../assets/widget.ts';
import type { AppEnv } from '../http/env.ts';

export function embedScript() {
  const app = new Hono<AppEnv>();

  app.get('/embed/v1/:file{widget(\\.[0-9a-f]{16})?\\.js}', async (c) => {
    const script = await widgetScript();
    if (!script) {
      return c.json(errorBody(503, 'The widget is not built: run npm run build:widget (npm install runs it)'), 503);
    }
    const hashed = c.req.param('file') !== 'widget.js';
    if (hashed && c.req.param('file') !== `widget.${script.hash}.js`) {
      return c.json(errorBody(404, 'No such version of the widget; load /embed/v1/widget.js'), 404);
    }
    const etag = `"${script.hash}"`;
    c.header('ETag', etag);
    c.header(
      'Cache-Control',
      hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=300, stale-while-revalidate=86400',
    );
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cross-Origin-Resource-Policy', 'cross-origin');
    if (c.req.header('if-none-match')?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      return c.body(null, 304);
    }
    return c.body(script.bytes as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });

  return app;
}
