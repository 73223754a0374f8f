// /_dev/mail and /_dev/mail/messages on the API's own port, in local development only: they
// forward to the mail capture that `npm start` runs (scripts/lib/dev-mail.mjs), whose address
// is DEV_MAIL_URL. A deployed service (environment production) never mounts them.
import { errorBody } from '../../core/errors.ts';
import { Hono } from 'hono';
import type { Config } from '../../core/config.ts';
import type { AppEnv } from '../http/env.ts';
import { env } from '../../core/runtime.ts';

export function devMailRoutes(config: Config): Hono<AppEnv> | null {
  const target = env('DEV_MAIL_URL');
  if (config.environment !== 'development' || !target) return null;
  const base = target.replace(/\/+$/, '');
  const app = new Hono<AppEnv>();
  const forward = async (path: string, method: string, search: string) => {
    try {
      const res = await fetch(`${base}${path}${search}`, { method, redirect: 'manual' });
      return new Response(res.body, { status: res.status, headers: new Headers(res.headers) });
    } catch {
      return Response.json(errorBody(503, 'The development mail capture is not running'), { status: 503 });
    }
  };
  app.on(['GET', 'DELETE'], '/_dev/mail/*', (c) => forward(c.req.path, c.req.method, new URL(c.req.url).search));
  app.get('/_dev/mail', () => forward('/_dev/mail', 'GET', ''));
  return app;
}
