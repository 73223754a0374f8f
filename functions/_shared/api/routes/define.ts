import { createRoute, OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import { errorBody } from '../http/errors.ts';
import { fieldErrorsOfIssues, messageOf } from '../http/validation.ts';
import type { AppEnv, Scope } from '../http/env.ts';
import { authenticatedErrors, idempotencyErrors, IdempotencyHeaders } from '../http/schemas.ts';
import { credential } from '../middleware/credential/index.ts';
import { idempotency, type IdempotencyOptions } from '../middleware/idempotency/index.ts';

/** Either credential: an API key, or a member's dashboard session (cookie and CSRF token). */
const CREDENTIALS: Record<string, string[]>[] = [{ ApiKey: [] }, { Session: [] }];

const IDEMPOTENT =
  ' Send an `Idempotency-Key` header to make a retry safe: the same key and body within 24 hours answer the first result again (with `Idempotent-Replayed: true`) and change nothing.';

/**
 * A route that needs an API key or a member's session. The scope is declared here, once, and
 * enforced by the middleware; handlers never check it. It is also written into the OpenAPI document. Every POST
 * honours an Idempotency-Key (middleware/idempotency).
 */
export function orgRoute<const R extends Omit<RouteConfig, 'middleware' | 'security'>>(
  scope: Scope,
  config: R,
  options: IdempotencyOptions & { oneStatementRead?: boolean } = {},
) {
  const post = config.method === 'post';
  const route = createRoute({
    ...config,
    description: `${config.description ?? ''}${
      post ? IDEMPOTENT : ''
    }\n\nRequires an API key (or a member's session) with scope \`${scope}\`${scope === 'read' ? '' : ' or higher'}.`
      .trim(),
    security: CREDENTIALS,
    middleware: post
      ? [credential({ scope }), idempotency(options)] as const
      : [credential({ scope, oneStatementRead: options.oneStatementRead })] as const,
    'x-required-scope': scope,
    responses: { ...authenticatedErrors, ...(post ? idempotencyErrors : {}), ...config.responses },
  });
  // Documented (and checked) as a header parameter; handlers never read it, so the route's type
  // leaves it out.
  if (post) Object.assign(route, { request: { ...config.request, headers: IdempotencyHeaders } });
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
