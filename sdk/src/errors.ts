// The errors the SDK throws: one class per kind of failure, all of them PlauditError.

export interface ErrorInit {
  status?: number;
  error?: string;
  requestId?: string | null;
  body?: unknown;
  headers?: Headers;
  cause?: unknown;
}

/** A field that failed validation, when the API names them (`errors` in the error body). */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/** Any failure of an API call. `status` is undefined when no answer arrived. */
export class PlauditError extends Error {
  readonly status: number | undefined;
  /** The HTTP status name from the error body, e.g. "Not Found". */
  readonly error: string | undefined;
  /** The API's `X-Request-Id`: quote it when reporting a problem. */
  readonly requestId: string | null;
  /** The parsed error body (or its text when it was not JSON). */
  readonly body: unknown;
  readonly headers: Headers | undefined;

  constructor(message: string, init: ErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.error = init.error;
    this.requestId = init.requestId ?? null;
    this.body = init.body;
    this.headers = init.headers;
  }
}

/** 401: the key is missing, malformed, unknown, revoked or rotated out. */
export class AuthenticationError extends PlauditError {}
/** 403: the key's scope is too low, or it belongs to another organization. */
export class PermissionError extends PlauditError {}
/** 404 */
export class NotFoundError extends PlauditError {}
/** 409: the resource exists already, or is in another state. */
export class ConflictError extends PlauditError {}

/** 400 or 422: invalid parameters or body. */
export class ValidationError extends PlauditError {
  readonly errors: FieldError[];
  constructor(message: string, init: ErrorInit = {}) {
    super(message, init);
    const errors = (init.body as { errors?: unknown } | undefined)?.errors;
    this.errors = Array.isArray(errors) ? errors as FieldError[] : [];
  }
}

/** 429: retry after `retryAfter` seconds (from the `Retry-After` header; null when absent). */
export class RateLimitError extends PlauditError {
  readonly retryAfter: number | null;
  constructor(message: string, init: ErrorInit = {}) {
    super(message, init);
    this.retryAfter = parseRetryAfter(init.headers?.get('retry-after') ?? null);
  }
}

/** No answer: the connection failed or was reset. */
export class APIConnectionError extends PlauditError {}
/** No answer within `timeoutMs`. */
export class TimeoutError extends APIConnectionError {}

/** Seconds from a `Retry-After` header (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

const CLASSES: Record<number, typeof PlauditError> = {
  400: ValidationError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  422: ValidationError,
  429: RateLimitError,
};

/** The error for an answer that is not 2xx, from its status, headers and body text. */
export function errorFromResponse(status: number, headers: Headers, text: string): PlauditError {
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch { /* not JSON: keep the text */ }
  const b = (body && typeof body === 'object' ? body : {}) as { message?: unknown; error?: unknown };
  const message = typeof b.message === 'string' ? b.message : `HTTP ${status}`;
  const Class = CLASSES[status] ?? PlauditError;
  return new Class(message, {
    status,
    error: typeof b.error === 'string' ? b.error : undefined,
    requestId: headers.get('x-request-id'),
    body,
    headers,
  });
}
