import { createRoute, OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import { errorBody } from '../http/errors.ts';
import { fieldErrorsOfIssues, messageOf } from '../http/validation.ts';
import type { AppEnv, Scope } from '../http/env.ts';
import { authenticatedErrors } from '../http/schemas.ts';
import { apiKeyAuth } from '../middleware/api-key-auth/index.ts';

/**
 * A route that needs an API key. The scope is declared here, once, and enforced by the
 * middleware; handlers never check it. It is also written into the OpenAPI document.
 */
export function keyRoute<const R extends Omit<RouteConfig, 'middleware' | 'security'>>(
  scope: Scope,
  config: R,
) {
  return createRoute({
    ...config,
    description: `${config.description ?? ''}\n\nRequires an API key with scope \`${scope}\`${
      scope === 'read' ? '' : ' or higher'
    }.`.trim(),
    security: [{ ApiKey: [] }],
    middleware: [apiKeyAuth({ scope })] as const,
    'x-required-scope': scope,
    responses: { ...authenticatedErrors, ...config.responses },
  });
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
