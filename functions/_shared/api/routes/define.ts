import { createRoute, OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
export type { CredentialReadDeclaration, CredentialReadRow } from '../middleware/credential/index.ts';
import type { Sql } from '../../core/db/client.ts';
import { errorBody } from '../http/errors.ts';
import { fieldErrorsOfIssues, messageOf } from '../http/validation.ts';
import type { AppEnv, OneStatementEnv, Scope, TenantEnv } from '../http/env.ts';
import type { JsonText } from '../http/json-text.ts';
import { authenticatedErrors, idempotencyErrors, IdempotencyHeaders } from '../http/schemas.ts';
import { credential, type CredentialReadDeclaration } from '../middleware/credential/index.ts';
import { idempotency, type IdempotencyOptions } from '../middleware/idempotency/index.ts';
import type { PublicRead } from '../middleware/public-access/index.ts';

/** Either credential: an API key, or a member's dashboard session (cookie and CSRF token). */
const CREDENTIALS: Record<string, string[]>[] = [{ ApiKey: [] }, { Session: [] }];

const IDEMPOTENT =
  ' Send an `Idempotency-Key` header to make a retry safe: the same key and body within 24 hours answer the first result again (with `Idempotent-Replayed: true`) and change nothing.';

/** A public read answered with ETag revalidation, whose first page the fast path answers too. */
export interface PublicReadDeclaration {
  read: (sql: Sql, params: Record<string, string>, ifNoneMatch: string | undefined) => Promise<
    PublicRead<{ body: JsonText<unknown> }>
  >;
  /** The 404's message. */
  notFound: string;
}

/** What a route declares of its one-statement read (read by the fast path from the document's registry). */
export type OneStatementRead =
  // deno-lint-ignore no-explicit-any -- the body's type is the route's, not the fast path's
  | ({ access: 'credential'; scope: Scope } & CredentialReadDeclaration<any>)
  | ({ access: 'public' } & PublicReadDeclaration);

// A symbol: it travels with the route's definition (object spreads copy it) and stays out of the
// OpenAPI document (JSON has no symbols).
const ONE_STATEMENT_READ = Symbol('one-statement read');

/** The one-statement read a route's definition declares, if any. */
export function oneStatementReadOf(route: object): OneStatementRead | undefined {
  return (route as { [ONE_STATEMENT_READ]?: OneStatementRead })[ONE_STATEMENT_READ];
}

type OrgRouteOptions<T> = IdempotencyOptions & { oneStatementRead?: CredentialReadDeclaration<T> };

/**
 * A route of an organization that needs an API key or a member's session, with the scope it needs.
 * The scope is declared here, once, and enforced by the credential middleware; handlers never check
 * it. It is also written into the OpenAPI document. Every POST honours an Idempotency-Key
 * (middleware/idempotency). A GET whose answer is one statement declares it (`oneStatementRead`):
 * its handler answers `c.var.readInOneStatement()`, and the fast path answers it too.
 */
export function orgRoute<const R extends Omit<RouteConfig, 'middleware' | 'security'>, T = never>(
  scope: Scope,
  config: R,
  options: OrgRouteOptions<T> = {},
) {
  const post = config.method === 'post';
  const read = options.oneStatementRead;
  type Env = [T] extends [never] ? TenantEnv : OneStatementEnv<T>;
  const route = createRoute({
    ...config,
    description: `${config.description ?? ''}${
      post ? IDEMPOTENT : ''
    }\n\nRequires an API key (or a member's session) with scope \`${scope}\`${scope === 'read' ? '' : ' or higher'}.`
      .trim(),
    security: CREDENTIALS,
    middleware: (post
      ? [credential({ scope }), idempotency(options)]
      : [credential({ scope, oneStatementRead: read })]) as unknown as [MiddlewareHandler<Env>],
    'x-required-scope': scope,
    responses: { ...authenticatedErrors, ...(post ? idempotencyErrors : {}), ...config.responses },
  });
  // Documented (and checked) as a header parameter; handlers never read it, so the route's type
  // leaves it out.
  if (post) Object.assign(route, { request: { ...config.request, headers: IdempotencyHeaders } });
  if (read) Object.assign(route, { [ONE_STATEMENT_READ]: { access: 'credential', scope, ...read } });
  return route;
}

/**
 * What a public route declares when an organization's credential may call it too, as
 * `orgRoute(scope, …)` would be called: the scope, and the header that makes a request the
 * public's (the route's own token, `X-Upload-Token`); a request without that header needs the
 * credential. A POST with the credential honours an Idempotency-Key (with these options).
 */
export interface CredentialAlternative extends IdempotencyOptions {
  scope: Scope;
  unlessHeader: string;
}

/** The middleware runs for requests that lack the header, and is passed by for those that carry it. */
const unlessHeader =
  <E extends AppEnv>(header: string, middleware: MiddlewareHandler<E>): MiddlewareHandler<E> => async (c, next) => {
    if (c.req.header(header) !== undefined) return await next();
    return await middleware(c, next);
  };

/**
 * A public route (no credential; runAsPublic's role): every route of the API that is not an
 * organization's (`orgRoute`) is declared here. A read the fast path may answer declares it
 * (`oneStatementRead`). A route an organization's credential may call too declares that
 * (`orCredential`, the media upload): the credential middleware runs before the route's own
 * middleware for a request without the public's header, opening the tenant transaction the
 * route's middleware and handler then find in `c.var.db` (PublicOrTenantEnv), and an
 * Idempotency-Key is honoured after them; the document names the credentials and the scope beside
 * the route's own security.
 */
export function publicRoute<const R extends RouteConfig>(
  config: R,
  { oneStatementRead, orCredential }: {
    oneStatementRead?: PublicReadDeclaration;
    orCredential?: CredentialAlternative;
  } = {},
) {
  const route = createRoute(config);
  if (oneStatementRead) Object.assign(route, { [ONE_STATEMENT_READ]: { access: 'public', ...oneStatementRead } });
  if (orCredential) {
    const { scope, unlessHeader: header, ...idempotent } = orCredential;
    const own = config.middleware === undefined ? [] : [config.middleware].flat();
    // The route's type keeps its own middleware's: what a handler finds is what they declare.
    Object.assign(route, {
      middleware: [
        unlessHeader(header, credential({ scope })),
        ...own,
        ...(config.method === 'post' ? [unlessHeader(header, idempotency(idempotent))] : []),
      ],
      security: [...(config.security ?? []), ...CREDENTIALS],
      'x-required-scope': scope,
    });
  }
  return route;
}

/**
 * A sub-application whose validation failures answer in the contract's format, every field named
 * in `errors`: 422 for a JSON body that parses but does not validate, 400 for path and query parameters.
 */
export function router() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      const status = result.target === 'json' || result.target === 'form' ? 422 : 400;
      const errors = fieldErrorsOfIssues(result.error.issues, result.target === 'json' ? 'body' : result.target);
      return c.json(errorBody(status, messageOf(errors), errors), status);
    },
  });
}
