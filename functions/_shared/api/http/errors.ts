import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorBody, type FieldError, statusName } from '../../core/errors.ts';

export { errorBody, type FieldError, statusName };

/** The contract's error answer, typed with its status, so that a route declaring that status answers it as is. */
export function errorResponse<S extends ContentfulStatusCode>(
  c: Context,
  status: S,
  message: string,
  errors?: FieldError[],
) {
  return c.json(errorBody(status, message, errors), status);
}

/** Thrown by handlers for an expected client error; the app's error handler renders it. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
  }
}
