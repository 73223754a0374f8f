import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { Config } from '../core/config.ts';
import type { Sql } from '../core/db/client.ts';
import { ApiError, errorResponse } from './http/errors.ts';
import type { AppEnv } from './http/env.ts';
import { bodyLimit } from './middleware/body-limit/index.ts';
import { notFoundOrMethodNotAllowed } from './middleware/method-not-allowed/index.ts';
import { ipRateLimit, MemoryRateLimiter } from './middleware/rate-limit/index.ts';
import { redact } from '../core/redact.ts';
import { type LogLine, requestLog, writeJsonLine } from './middleware/request-log/index.ts';
import { textGuard } from './middleware/text-guard/index.ts';
import { readYourWrites } from './middleware/read-your-writes/index.ts';
import { mediaVisibility } from './middleware/media-visibility/index.ts';
import { MediaVisibility } from '../core/media/visibility.ts';
import type { ReplicaSet } from '../core/db/replicas.ts';
import { explorer } from './openapi/explorer.ts';
import { openApiDocument, registerDocumentParts } from './openapi/document.ts';
import { apiKeys } from './routes/api-keys.ts';
import { auth } from './routes/auth.ts';
import { health } from './routes/health.ts';
import { organizations } from './routes/organizations.ts';
import { webhooks } from './routes/webhooks/index.ts';
import { devMailRoutes } from './routes/dev-mail.ts';
import { wakeWorkerAfterWrites } from './middleware/wake-worker/index.ts';
import { exports } from './routes/exports.ts';
import { reviewForms } from './routes/review-forms.ts';
import { products } from './routes/products/index.ts';
import { reviews } from './routes/reviews/index.ts';
import { appeals } from './routes/appeals.ts';
import { holds } from './routes/holds.ts';
import { holdSettings } from './routes/hold-settings.ts';
import { dsaTransparency } from './routes/dsa-transparency.ts';
import { questionRoutes } from './routes/questions/org.ts';
import { reports } from './routes/reports.ts';
import { media } from './routes/media/index.ts';
import { reviewRequests } from './routes/review-requests/index.ts';
import { emailEvents } from './routes/email-events.ts';
import { shopConnections } from './routes/connections/index.ts';
import { privacy } from './routes/privacy.ts';
import { imports } from './routes/imports.ts';
import { MAX_IMPORT_BYTES } from '../core/imports/read.ts';
import { MAX_FILE_BYTES } from '../core/media/limits.ts';
import { hostedPages } from './pages/index.ts';
import { verification } from './routes/verification.ts';
import { publicData } from './routes/public/index.ts';
import { googleProductFeed } from './routes/google-product-feed.ts';
import { reviewFeeds } from './routes/review-feeds.ts';
import { publicProfileSettings } from './routes/profile-settings.ts';
import { fastReads } from './fast-reads/index.ts';
import { mcpServer } from './mcp/index.ts';
import { accountedFor, type FastPathAccount } from './http/fast-path.ts';
import type { MiddlewareHandler } from 'hono';

/** Log writers for an entry that picks where its lines go (functions/api: its own stdout locally). */
export { lineWriter, stdoutSink } from './middleware/request-log/index.ts';

export interface AppOptions {
  sql: Sql;
  config: Config;
  /** Where log lines go (one JSON object each); stdout by default. */
  log?: (line: LogLine) => void;
  /** Hot standbys that serve public reads, registered on `sql` (core/db/routing.ts); none by default. */
  replicas?: ReplicaSet | null;
  /** Answer the hottest reads before the router (fast-reads/); on unless false. */
  fastReads?: boolean;
}

const KIB = 1024;

/** The routes that take a file: a photo or video of a review, and a file of reviews to import. */
const MEDIA_UPLOAD_PATH = /^\/api\/v1\/reviews\/[^/]+\/media$/;
const IMPORTS_PATH = /\/organizations\/[^/]+\/imports$/;

/** A middleware of every request (or of every path under `path`), and how the fast path honours it. */
interface GlobalMiddleware {
  path: string;
  handler: MiddlewareHandler<AppEnv>;
  onFastPath: FastPathAccount;
}

/** The whole HTTP application: /api/v1, the OpenAPI document and the explorer. */
export function createApp(
  { sql, config, replicas = null, log = writeJsonLine, fastReads: fast = true }: AppOptions,
) {
  const app = new OpenAPIHono<AppEnv>();
  const limiter = new MemoryRateLimiter();

  // Every request's middleware, in order, each with how the fast path honours it (http/fast-path.ts).
  const middleware: GlobalMiddleware[] = [
    { path: '*', handler: requestLog({ write: log }), onFastPath: { kind: 'envelope' } },
    {
      path: '*',
      handler: async (c, next) => {
        c.set('sql', sql);
        c.set('config', config);
        c.set('replicas', replicas);
        await next();
      },
      onFastPath: { kind: 'context' },
    },
    { path: '*', handler: readYourWrites(), onFastPath: { kind: 'read-after-write' } },
    {
      path: '/api/*',
      handler: mediaVisibility(new MediaVisibility({ ttlMs: config.media.visibilityTtlMs })),
      // It forgets after writes; the fast path answers reads only and serves no file.
      onFastPath: { kind: 'writes-only' },
    },
    { path: '/api/*', handler: wakeWorkerAfterWrites(), onFastPath: { kind: 'writes-only' } },
    {
      path: '*',
      handler: ipRateLimit({ limiter, limit: () => config.publicRateLimitPerMinute }),
      onFastPath: { kind: 'address-limit' },
    },
    {
      path: '*',
      handler: bodyLimit({
        maxSize: 64 * KIB,
        overrides: [
          { pattern: /\/(orders|products|review-requests\/bulk)$/, maxSize: 1024 * KIB },
          // A shop's order with its many lines, as the platform sends it.
          { pattern: /^\/api\/v1\/connections\/[^/]+\/events$/, maxSize: 512 * KIB },
          // A file of reviews and the form around it.
          { pattern: IMPORTS_PATH, maxSize: MAX_IMPORT_BYTES + 64 * KIB },
          // The largest video, and the multipart form around it.
          { pattern: MEDIA_UPLOAD_PATH, maxSize: MAX_FILE_BYTES.video + 1024 * KIB },
        ],
      }),
      onFastPath: { kind: 'bodiless' },
    },
    {
      path: '*',
      handler: textGuard({ fileBodies: [MEDIA_UPLOAD_PATH, IMPORTS_PATH] }),
      onFastPath: { kind: 'plain-text' },
    },
  ];
  for (const m of middleware) app.use(m.path, accountedFor(m.onFastPath, m.handler));

  const v1 = new OpenAPIHono<AppEnv>();
  v1.route('/', health);
  v1.route('/', auth);
  v1.route('/', organizations);
  v1.route('/', apiKeys);
  v1.route('/', webhooks);
  v1.route('/', exports);
  v1.route('/', reviewForms);
  v1.route('/', products);
  v1.route('/', reviews);
  v1.route('/', reports);
  v1.route('/', questionRoutes);
  v1.route('/', appeals);
  // Before holds: `/holds/settings` is not a hold's id.
  v1.route('/', holdSettings);
  v1.route('/', holds);
  v1.route('/', dsaTransparency);
  v1.route('/', media);
  v1.route('/', shopConnections);
  v1.route('/', reviewRequests);
  v1.route('/', emailEvents);
  v1.route('/', privacy);
  v1.route('/', imports);
  v1.route('/', verification);
  v1.route('/', publicData);
  v1.route('/', googleProductFeed);
  v1.route('/', reviewFeeds);
  v1.route('/', publicProfileSettings);
  // Hono's own dispatch (the fast path wraps app.fetch below): the MCP tools call the routes through it.
  const dispatch = app.fetch;
  v1.route('/', mcpServer({ dispatch: (req, env) => dispatch(req, env) }));
  app.route('/api/v1', v1);

  registerDocumentParts(app);
  // Built once, on first request, when every route has been registered.
  let document: ReturnType<typeof openApiDocument> | undefined;
  app.get('/api/v1/openapi.json', (c) => c.json(document ??= openApiDocument(app, config)));
  app.route('/', explorer());
  // Hosted pages (outside /api/v1): forms, the e-mails' links, profiles, the widget, the dashboard.
  app.route('/', hostedPages());
  // Local development only: the captured e-mail (docs/delivery.md).
  const devMail = devMailRoutes(config);
  if (devMail) app.route('/', devMail);

  app.notFound(notFoundOrMethodNotAllowed(() => app.routes));
  app.onError((err, c) => {
    if (err instanceof ApiError) return errorResponse(c, err.status, err.message, err.errors);
    if (err instanceof HTTPException) {
      const status = err.status;
      const message = status === 400 && /JSON/i.test(err.message)
        ? 'Malformed JSON in request body'
        : status === 415
        ? 'Unsupported media type: send the body as JSON, with `Content-Type: application/json`'
        : err.message;
      return errorResponse(c, status as 400, message || 'Bad request');
    }
    log({
      time: new Date().toISOString(),
      level: 'error',
      msg: 'unhandled error',
      request_id: c.get('requestId'),
      route: c.req.routePath,
      // Driver errors quote values (a key, an address) and connection strings: blank them out.
      error: redact(err instanceof Error ? `${err.name}: ${err.message}` : String(err)),
      stack: err instanceof Error && err.stack ? redact(err.stack) : undefined,
    });
    return errorResponse(c, 500, `Internal server error; quote request id ${c.get('requestId')} when reporting it`);
  });

  if (fast) {
    // The hottest reads skip the router and the middleware; whatever they do not take goes on.
    const reads = fastReads({ sql, config, log, limiter, app });
    app.fetch = (req, env, executionCtx) => {
      const answer = reads(req, env as AppEnv['Bindings'] | undefined);
      return answer ? answer.then((res) => res ?? dispatch(req, env, executionCtx)) : dispatch(req, env, executionCtx);
    };
  }
  return app;
}
