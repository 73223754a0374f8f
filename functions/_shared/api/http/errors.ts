import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorBody, statusName } from '../../core/errors.ts';

export { errorBody, statusName };

export function errorResponse(c: Context, status: ContentfulStatusCode, message: string) {
  return c.json(errorBody(status, message), status);
}

/** Thrown by handlers for an expected client error; the app's error handler renders it. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
  ) {
    super(message);
  }
}
